/** STD-8 stablecoins (docs/stablecoins.md): the list and a coin's roles, flags, pending changes and onboarding. */
import type { ExplorerDomain } from './module.js';
import { shortHash } from '../format.js';
import { href, useCall, Show, Amount, Hash, Addr, Fields } from '../ui.js';

/** The STD-8 stablecoins (docs/stablecoins.md), each linking to its page. */
export function StablecoinsPage() {
  const list = useCall<Array<Record<string, unknown>>>('svc_listStablecoins', [100]);
  return (
    <section>
      <h2>Stablecoins</h2>
      <Show data={list}>
        {(items) => (
          <table class="list" data-testid="stablecoins">
            <thead><tr><th>Symbol</th><th>Currency</th><th>Issuer</th><th>Verification</th><th>Total supply</th><th>Status</th></tr></thead>
            <tbody>
              {items.map((c) => (
                <tr key={String(c.mint)}>
                  <td><a href={href('stablecoin', String(c.symbol))}>{String(c.symbol)}</a></td>
                  <td>{String(c.currency)}</td>
                  <td>{String(c.issuer)}</td>
                  <td>{String(c.verification_status)}</td>
                  <td><Amount raw={String(c.total_supply)} token={String(c.mint)} /></td>
                  <td>{c.paused ? 'paused' : c.mint_frozen ? 'mint frozen' : 'active'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Show>
    </section>
  );
}

export interface StableInfo {
  mint: string; symbol: string; name: string; currency: string; issuer: string; badge: string; verification_status: string; reputation_points: number;
  total_supply: string; supply_cap: string | null; roles: Record<string, string>; guardians: string[]; paused: boolean; mint_frozen: boolean; quantum_required: boolean;
  timelock: number; epoch_length: number; current_epoch: number; mint_threshold: string; required_signers: number; authorized_cosigners: string[]; blacklisted_count: number;
  minters: Array<{ minter: string; allowance_remaining: string; epoch_limit: string; minted_in_epoch: string }>; origin_mappings: Array<{ chain: string; contract: string }>;
  launch_origin: string | null; created_height: number;
  pending: Array<{ id: string; kind: string; effective_height: number; proposer: string; role?: string; new_address?: string; minter?: string; allowance?: string; epoch_limit?: string;
    new_roles?: Record<string, string>; to?: string; amount?: string; approvals?: string[] }>;
}

export interface StableOnboarding {
  proofs_recorded: number; proofs_required: number; missing: string[];
  proofs: Array<{ method: string; recorded_by: string; height: number; admin_address?: string; origin_chain_id?: number; evidence_digest?: string; detail?: string }>;
}

export const Flag = ({ on, name }: { on: boolean; name: string }) => <span class={on ? 'flag on' : 'flag'} data-testid={`stable-${name}`}>{name.replace(/_/g, ' ')}: {on ? 'yes' : 'no'}</span>;

export const Accounts = ({ list }: { list: string[] }) => (list.length > 0 ? <>{list.map((a) => <span class="kv" key={a}><Addr value={a} /></span>)}</> : <span class="muted">none</span>);

/**
 * An STD-8 stablecoin (docs/stablecoins.md; issue 19 item 6): roles, status flags, pending changes
 * with the height each unlocks at, minters and their allowances, supply and cap, and the issuer's
 * verification with its onboarding proofs.
 */
export function StablecoinPage({ id }: { id: string }) {
  const info = useCall<StableInfo>('svc_getStablecoinInfo', [id]);
  const onboarding = useCall<StableOnboarding>('svc_getIssuerOnboarding', [id]);
  const stats = useCall<{ blockHeight: number }>('svc_getNetworkStats', []);
  return (
    <section>
      <Show data={info}>
        {(c) => {
          const amount = (raw: string, testid?: string) => <Amount raw={raw} token={c.mint} testid={testid} />;
          const now = stats.state === 'ok' ? stats.value.blockHeight : undefined;
          return (
            <>
              <h2>{c.name} ({c.symbol}) <span class="badge">{c.badge}</span> <span class="badge" data-testid="stable-verification">{c.verification_status}</span></h2>
              <p class="flags"><Flag on={c.paused} name="paused" /> <Flag on={c.mint_frozen} name="mint_frozen" /> <Flag on={c.quantum_required} name="quantum_only" /></p>
              <Fields rows={[
                ['Mint', <Hash value={c.mint} to={href('token', c.mint)} />],
                ['Currency', c.currency],
                ['Issuer', c.issuer],
                ['Reputation', `${c.verification_status} (${c.reputation_points} points)`],
                ['Total supply', amount(c.total_supply, 'stable-supply')],
                ['Supply cap', c.supply_cap === null ? <span class="muted" data-testid="stable-cap">no cap</span> : amount(c.supply_cap, 'stable-cap')],
                ['Timelock', `${c.timelock} blocks`],
                ['Epoch', `${c.current_epoch} (${c.epoch_length} blocks each)`],
                ['Mint threshold', c.mint_threshold === '0' ? <span class="muted">none</span> : <>{amount(c.mint_threshold)} — {c.required_signers} of the cosigners approve above it</>],
                ['Cosigners', <Accounts list={c.authorized_cosigners} />],
                ['Guardians', <Accounts list={c.guardians} />],
                ['Blacklisted', String(c.blacklisted_count)],
                ['Origins', c.origin_mappings.length > 0 ? c.origin_mappings.map((o) => `${o.chain} ${o.contract}`).join(', ') : <span class="muted">none</span>],
                ['Created at', <a href={href('block', c.created_height)}>{c.created_height}</a>],
              ]} />
              <h3>Roles</h3>
              <table class="list" data-testid="stable-roles">
                <thead><tr><th>Role</th><th>Holder</th></tr></thead>
                <tbody>{Object.entries(c.roles).map(([role, holder]) => <tr key={role}><td>{role.replace(/_/g, ' ')}</td><td><Addr value={holder} /></td></tr>)}</tbody>
              </table>
              <h3>Minters</h3>
              {c.minters.length > 0 ? (
                <table class="list" data-testid="stable-minters">
                  <thead><tr><th>Minter</th><th>Allowance left</th><th>Epoch limit</th><th>Minted this epoch</th></tr></thead>
                  <tbody>
                    {c.minters.map((m) => (
                      <tr key={m.minter}>
                        <td><Addr value={m.minter} /></td>
                        <td>{amount(m.allowance_remaining)}</td>
                        <td>{m.epoch_limit === '0' ? <span class="muted">none</span> : amount(m.epoch_limit)}</td>
                        <td>{amount(m.minted_in_epoch)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              ) : <p class="muted">No minters.</p>}
              <h3>Pending changes</h3>
              {c.pending.length > 0 ? (
                <table class="list" data-testid="stable-pending">
                  <thead><tr><th>Id</th><th>Kind</th><th>Unlocks at</th><th>Proposer</th><th>Change</th></tr></thead>
                  <tbody>
                    {c.pending.map((p) => (
                      <tr key={p.id}>
                        <td>{p.id}</td>
                        <td>{p.kind.replace(/_/g, ' ')}</td>
                        <td>{p.kind === 'mint' ? <span class="muted">awaiting cosigners</span>
                          : <><a href={href('block', p.effective_height)}>{p.effective_height}</a>{now !== undefined && <span class="muted"> ({p.effective_height > now ? `in ${p.effective_height - now} blocks` : 'due'})</span>}</>}</td>
                        <td><Addr value={p.proposer} /></td>
                        <td class="details">
                          {p.kind === 'role_change' && <>{p.role?.replace(/_/g, ' ')} → <Addr value={p.new_address!} /></>}
                          {p.kind === 'minter_addition' && <>add <Addr value={p.minter!} />, allowance {amount(p.allowance!)}</>}
                          {p.kind === 'handover' && Object.entries(p.new_roles ?? {}).map(([r, a]) => <span class="kv" key={r}><span class="muted">{r.replace(/_/g, ' ')}</span> <Addr value={a} /></span>)}
                          {p.kind === 'mint' && <>{amount(p.amount!)} to <Addr value={p.to!} /> by <Addr value={p.minter!} />, {p.approvals?.length ?? 0} of {c.required_signers} approvals</>}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              ) : <p class="muted">No pending changes.</p>}
              <h3>Issuer onboarding</h3>
              <Show data={onboarding}>
                {(o) => (
                  <>
                    <p data-testid="stable-onboarding">{o.proofs_recorded} of 3 proofs recorded ({o.proofs_required} make the issuer Verified){o.missing.length > 0 && <>; missing: {o.missing.join(', ').replace(/_/g, ' ')}</>}.</p>
                    {o.proofs.length > 0 && (
                      <table class="list" data-testid="stable-proofs">
                        <thead><tr><th>Proof</th><th>Recorded by</th><th>At block</th><th>Evidence</th></tr></thead>
                        <tbody>
                          {o.proofs.map((p) => (
                            <tr key={p.method}>
                              <td>{p.method.replace(/_/g, ' ')}</td>
                              <td><Addr value={p.recorded_by} /></td>
                              <td><a href={href('block', p.height)}>{p.height}</a></td>
                              <td class="details">{p.method === 'admin_signature'
                                ? <>admin <span class="mono">{p.admin_address}</span> on chain {p.origin_chain_id}, signature verified by the node</>
                                : <>{p.detail} <span class="mono muted" title={p.evidence_digest}>{shortHash(p.evidence_digest ?? '', 6)}</span></>}</td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    )}
                  </>
                )}
              </Show>
            </>
          );
        }}
      </Show>
    </section>
  );
}

export const stablecoins: ExplorerDomain = {
  name: 'stablecoins',
  routes: { stablecoins: () => <StablecoinsPage />, stablecoin: (a) => <StablecoinPage id={a} /> },
  tokenStandard: (t) => (t.badge === 'Official Stablecoin' || /STD-8/.test(t.standard)
    ? <a href={href('stablecoin', t.mint_address)} data-testid="token-stablecoin">{t.standard}: roles, minters, pending changes</a>
    : undefined),
  nav: { route: 'stablecoins', label: 'Stablecoins' },
};
