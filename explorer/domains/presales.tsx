/** Presales (docs/presales.md): the list and a presale's page. */
import type { ExplorerDomain } from './module.js';
import { type ComponentChildren } from 'preact';
import { href, useCall, Show, Amount, Addr, When, Fields, cell } from '../ui.js';

/** Presale amounts: the caps, limits and raise are in the pay token, the escrows and sold tokens in the sale token (docs/presales.md). */
export const PAY_FIELDS = /^(soft_cap|hard_cap|min_contribution|max_contribution|raised|liquidity_paid|creator_proceeds)$/;

export const SALE_FIELDS = /^(sale_escrow|liquidity_escrow|liquidity_tokens|tokens_sold)$/;

export const TIME_FIELDS = /^(start_time|end_time|created_at|finalized_at|lp_lock_until|unlock_at)$/;

export function presaleCell(p: Record<string, unknown>, k: string, v: unknown): ComponentChildren {
  if (PAY_FIELDS.test(k)) return <Amount raw={String(v)} token={String(p.pay_token)} testid={`presale-${k}`} />;
  if (SALE_FIELDS.test(k)) return <Amount raw={String(v)} token={String(p.token)} />;
  if (TIME_FIELDS.test(k) && typeof v === 'number') return <When ts={v} />;
  if (k === 'dex_pool') return <a href={href('pool', String(p.token), String(p.pay_token))}>{String(v)}</a>;
  return cell(k, v);
}

export function PresalesPage() {
  const presales = useCall<Array<Record<string, unknown>>>('svc_listPresales', [100]);
  return (
    <section>
      <h2>Presales</h2>
      <Show data={presales}>
        {(list) => (list.length > 0 ? (
          <table class="list" data-testid="presales">
            <thead><tr><th>Sale</th><th>Status</th><th>Raised</th><th>Hard cap</th><th>Ends</th></tr></thead>
            <tbody>
              {list.map((p) => (
                <tr key={String(p.presale_address)}>
                  <td><a href={href('presale', String(p.presale_address))}>{String(p.token_symbol)} for {String(p.pay_token_symbol)}</a></td>
                  <td>{String(p.status)}</td>
                  <td><Amount raw={String(p.raised)} token={String(p.pay_token)} /></td>
                  <td><Amount raw={String(p.hard_cap)} token={String(p.pay_token)} /></td>
                  <td><When ts={Number(p.end_time)} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : <p class="muted">No presales.</p>)}
      </Show>
    </section>
  );
}

export function PresalePage({ address }: { address: string }) {
  const presale = useCall<Record<string, unknown>>('svc_getPresale', [address]);
  const contributions = useCall<{ count: number; contributions: Array<Record<string, unknown>> }>('svc_getPresaleContributions', [address, 100]);
  return (
    <section>
      <Show data={presale}>
        {(p) => (
          <>
            <h2>Presale of {String(p.token_symbol)} for {String(p.pay_token_symbol)} <span class="badge" data-testid="presale-status">{String(p.status)}</span></h2>
            <Fields rows={Object.entries(p).map(([k, v]): [string, ComponentChildren] => [k.replace(/_/g, ' '), presaleCell(p, k, v)])} />
            <h3>Contributions</h3>
            <Show data={contributions}>
              {(c) => (c.contributions.length > 0 ? (
                <table class="list" data-testid="presale-contributions">
                  <thead><tr><th>Contributor</th><th>Amount</th><th>Tokens</th><th>State</th></tr></thead>
                  <tbody>
                    {c.contributions.map((row) => (
                      <tr key={String(row.contributor)}>
                        <td><Addr value={String(row.contributor)} /></td>
                        <td><Amount raw={String(row.amount)} token={String(p.pay_token)} /></td>
                        <td><Amount raw={String(row.tokens)} token={String(p.token)} /></td>
                        <td>{String(row.state)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              ) : <p class="muted">No contributions.</p>)}
            </Show>
          </>
        )}
      </Show>
    </section>
  );
}

export const presales: ExplorerDomain = {
  name: 'presales',
  routes: { presales: () => <PresalesPage />, presale: (a) => <PresalePage address={a} /> },
  nav: { route: 'presales', label: 'Presales' },
};
