/** The bridge's explorer data (docs/bridge.md): an address's deposits and withdrawals, a token's origin chains with each contract's safety level. */
import type { ExplorerDomain } from './module.js';
import { type Token, href, useCall, Show } from '../ui.js';

/** svc_getBridgeHistory rows (docs/bridge.md "Methods"). */
export interface BridgeHistoryEntry {
  kind: 'deposit' | 'withdrawal';
  deposit: { chain: string; tx_hash: string; mint: string; amount: string; status: string; reason: string | null; height: number } | null;
  withdrawal: { sequence: string; chain: string; destination: string; mint: string; amount: string; status: string; height: number } | null;
}

/** A token's origin chains (STD-8 origin and registered mappings, or its own origin) with each contract's safety level (docs/bridge.md). */
export function TokenOrigins({ token }: { token: Token }) {
  const mappings = useCall<Array<{ chain: string; contract: string; mint: string; source: string }>>('svc_getBridgeMappings', [null]);
  const rep = useCall<{ warnings: string[] }>('svc_getTokenReputation', [token.mint_address]);
  const own = token as unknown as { origin_chain?: string; origin_contract?: string };
  return (
    <>
      <Show data={mappings}>
        {(list) => {
          const rows = (Array.isArray(list) ? list : []).filter((m) => m.mint === token.mint_address);
          if (rows.length === 0 && own.origin_chain && own.origin_contract) rows.push({ chain: own.origin_chain, contract: own.origin_contract, mint: token.mint_address, source: 'origin' });
          return rows.length === 0 ? <p class="muted">No origin chain.</p> : (
            <table class="list" data-testid="token-origins">
              <thead><tr><th>Chain</th><th>Contract</th><th>Mapping</th><th>Safety</th></tr></thead>
              <tbody>{rows.map((m, i) => <tr key={i}><td>{m.chain}</td><td class="mono">{m.contract}</td><td>{m.source}</td><td><ContractSafetyCell chain={m.chain} contract={m.contract} /></td></tr>)}</tbody>
            </table>
          );
        }}
      </Show>
      <Show data={rep}>{(r) => (r.warnings ?? []).length === 0 ? null : <ul class="error" data-testid="token-warnings">{r.warnings.map((w, i) => <li key={i}>{w}</li>)}</ul>}</Show>
    </>
  );
}

export function ContractSafetyCell({ chain, contract }: { chain: string; contract: string }) {
  const safety = useCall<{ level: string }>('svc_getContractSafety', [chain, contract]);
  return <Show data={safety}>{(s) => <span data-testid="token-safety">{s.level}</span>}</Show>;
}

/** An address's deposits and withdrawals (svc_getBridgeHistory). */
function AddressBridge({ address }: { address: string }) {
  const bridge = useCall<BridgeHistoryEntry[]>('svc_getBridgeHistory', [address, 25]);
  return (
    <Show data={bridge}>
      {(list) => !Array.isArray(list) || list.length === 0 ? <p class="muted">None.</p> : (
        <table class="list" data-testid="address-bridge">
          <thead><tr><th>Kind</th><th>Chain</th><th>External</th><th>Token</th><th>Amount</th><th>Status</th><th>Block</th></tr></thead>
          <tbody>
            {list.map((e, i) => {
              const d = e.deposit, w = e.withdrawal;
              return d ? (
                <tr key={i}><td>deposit</td><td>{d.chain}</td><td class="mono">{d.tx_hash}</td><td><a href={href('token', d.mint)}>{d.mint.slice(0, 10)}…</a></td>
                  <td>{d.amount}</td><td>{d.status}{d.reason ? ` (${d.reason})` : ''}</td><td><a href={href('block', d.height)}>{d.height}</a></td></tr>
              ) : w ? (
                <tr key={i}><td>withdrawal #{w.sequence}</td><td>{w.chain}</td><td class="mono">{w.destination}</td><td><a href={href('token', w.mint)}>{w.mint.slice(0, 10)}…</a></td>
                  <td>{w.amount}</td><td>{w.status}</td><td><a href={href('block', w.height)}>{w.height}</a></td></tr>
              ) : null;
            })}
          </tbody>
        </table>
      )}
    </Show>
  );
}

export const bridge: ExplorerDomain = {
  name: 'bridge',
  addressSections: [{ title: 'Bridge', Section: AddressBridge }],
  tokenSections: [{ title: 'Origin chains and safety', Section: TokenOrigins }],
};
