/** The DEX (docs/dex.md): its pools and a pool's page. */
import type { ExplorerDomain } from './module.js';
import { type ComponentChildren } from 'preact';
import { href, useCall, Show, Amount, Fields, cell } from '../ui.js';

export function PoolsPage() {
  const pools = useCall<Array<Record<string, unknown>>>('svc_listPools', [100]);
  return (
    <section>
      <h2>Pools</h2>
      <Show data={pools}>
        {(list) => (Array.isArray(list) && list.length > 0 ? (
          <table class="list">
            <thead><tr><th>Pair</th><th>Reserves</th></tr></thead>
            <tbody>
              {list.map((p, i) => {
                const a = String(p.token_a ?? p.tokenA ?? '');
                const b = String(p.token_b ?? p.tokenB ?? '');
                return (
                  <tr key={i}>
                    <td><a href={href('pool', a, b)}>{String(p.symbol_a ?? a)} / {String(p.symbol_b ?? b)}</a></td>
                    <td><Amount raw={String(p.reserve_a ?? '')} token={a} /> / <Amount raw={String(p.reserve_b ?? '')} token={b} /></td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        ) : <p class="muted">No pools.</p>)}
      </Show>
    </section>
  );
}

export function PoolPage({ a, b }: { a: string; b: string }) {
  const pool = useCall<Record<string, unknown> | null>('svc_getPool', [a, b]);
  return (
    <section>
      <Show data={pool}>
        {(p) => p === null ? <p class="error">No such pool.</p> : (
          <>
            <h2>Pool {String(p.symbol_a ?? a)} / {String(p.symbol_b ?? b)}</h2>
            <Fields rows={Object.entries(p).filter(([, v]) => typeof v !== 'object').map(([k, v]): [string, ComponentChildren] => {
              // reserve_a / reserve_b in their tokens' decimals (token_a / token_b are mints)
              const side = /^reserve_(a|b)$/.exec(k)?.[1];
              return [k.replace(/_/g, ' '), side ? <Amount raw={String(v)} token={String(p[`token_${side}`])} testid={`pool-reserve-${side}`} /> : cell(k, v as string)];
            })} />
          </>
        )}
      </Show>
    </section>
  );
}

export const dex: ExplorerDomain = {
  name: 'dex',
  routes: { pools: () => <PoolsPage />, pool: (a, b) => <PoolPage a={a} b={b} /> },
  nav: { route: 'pools', label: 'Pools' },
};
