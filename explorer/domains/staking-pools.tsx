/** Staking pools (docs/staking-pools.md): the list and a pool's page. */
import type { ExplorerDomain } from './module.js';
import { type ComponentChildren } from 'preact';
import { href, useCall, Show, Amount, Fields, cell } from '../ui.js';

export const STAKE_FIELDS = /^(capacity|per_user_cap|total_staked)$/;

export const REWARD_FIELDS = /^(reward_rate|reward_balance|reward_available|allocated|total_paid)$/;

export function StakingPoolsPage() {
  const pools = useCall<Array<Record<string, unknown>>>('svc_listStakingPools', [100]);
  return (
    <section>
      <h2>Staking pools</h2>
      <Show data={pools}>
        {(list) => (list.length > 0 ? (
          <table class="list" data-testid="staking-pools">
            <thead><tr><th>Pool</th><th>Stake</th><th>Rewards per block</th><th>Total staked</th><th>Stakers</th></tr></thead>
            <tbody>
              {list.map((p) => (
                <tr key={String(p.pool_address)}>
                  <td><a href={href('staking-pool', String(p.pool_address))}>{String(p.pool_address).slice(0, 12)}…</a></td>
                  <td>{String(p.token_symbol)}</td>
                  <td><Amount raw={String(p.reward_rate)} token={String(p.reward_source)} /></td>
                  <td><Amount raw={String(p.total_staked)} token={String(p.token_mint)} /></td>
                  <td>{String(p.stakers)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : <p class="muted">No staking pools.</p>)}
      </Show>
    </section>
  );
}

export function StakingPoolPage({ address }: { address: string }) {
  const pool = useCall<Record<string, unknown>>('svc_getStakingPool', [address]);
  return (
    <section>
      <Show data={pool}>
        {(p) => (
          <>
            <h2>Staking pool: stake {String(p.token_symbol)}, earn {String(p.reward_symbol)}</h2>
            <Fields rows={Object.entries(p).map(([k, v]): [string, ComponentChildren] => [k.replace(/_/g, ' '),
              STAKE_FIELDS.test(k) ? <Amount raw={String(v)} token={String(p.token_mint)} testid={`staking-pool-${k}`} />
                : REWARD_FIELDS.test(k) ? <Amount raw={String(v)} token={String(p.reward_source)} testid={`staking-pool-${k}`} />
                  : k === 'lock_period' ? `${String(v)} s` : cell(k, v)])} />
          </>
        )}
      </Show>
    </section>
  );
}

export const stakingPools: ExplorerDomain = {
  name: 'staking-pools',
  routes: { 'staking-pools': () => <StakingPoolsPage />, 'staking-pool': (a) => <StakingPoolPage address={a} /> },
  addressRoutes: { Nx6: 'staking-pool' },
  nav: { route: 'staking-pools', label: 'Staking pools' },
};
