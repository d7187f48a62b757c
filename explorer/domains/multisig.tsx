/** Multi-sig accounts (docs/multisig.md): a multi-sig's page with its transactions. */
import type { ExplorerDomain } from './module.js';
import { href, useCall, Show, Amount, Addr, When, Fields, cell } from '../ui.js';

export interface MultiSigTx {
  tx_id: string; state: string; proposer: string; description: string; operations: Array<Record<string, unknown>>; approvals: string[];
  created_height: number; expires_at: number; executed_height: number | null; status_name: string | null;
}

/** A multi-sig account (Nx5…; docs/multisig.md): its owners, threshold and proposals with their approvals. */
export function MultiSigPage({ address }: { address: string }) {
  const ms = useCall<{ address: string; label: string; signers: string[]; threshold: number; creator: string; created_height: number; proposals: number; balance: string }>('svc_getMultiSig', [address]);
  const txs = useCall<MultiSigTx[]>('svc_listMultiSigTxs', [address]);
  return (
    <section>
      <Show data={ms}>
        {(m) => (
          <>
            <h2>Multi-sig {m.label && <>“{m.label}”</>} <span class="badge" data-testid="multisig-threshold">{m.threshold} of {m.signers.length}</span></h2>
            <Fields rows={[
              ['Address', <span class="mono">{m.address}</span>],
              ['NTV balance', <Amount raw={m.balance} token="NTV" />],
              ['Creator', <Addr value={m.creator} />],
              ['Created at', <a href={href('block', m.created_height)}>{m.created_height}</a>],
              ['Proposals', String(m.proposals)],
            ]} />
            <h3>Owners</h3>
            <table class="list" data-testid="multisig-owners">
              <tbody>{m.signers.map((a) => <tr key={a}><td><Addr value={a} /></td></tr>)}</tbody>
            </table>
            <h3>Proposals</h3>
            <Show data={txs}>
              {(list) => (list.length > 0 ? (
                <table class="list" data-testid="multisig-proposals">
                  <thead><tr><th>Id</th><th>State</th><th>Description</th><th>Operations</th><th>Approvals</th><th>Outcome</th></tr></thead>
                  <tbody>
                    {list.map((t) => (
                      <tr key={t.tx_id} data-state={t.state}>
                        <td>{t.tx_id}</td>
                        <td>{t.state}</td>
                        <td class="wrap">{t.description}</td>
                        <td class="details">{t.operations.map((o, i) => <span class="kv" key={i}>{String(o.type)}{o.type === 'Transfer' && <> <Amount raw={String(o.amount)} token={String(o.token)} /> to {cell('to', o.to)}</>}</span>)}</td>
                        <td class="details">{t.approvals.length} of {m.threshold}: {t.approvals.map((a) => <span class="kv" key={a}><Addr value={a} /></span>)}</td>
                        <td>{t.executed_height !== null ? <>at <a href={href('block', t.executed_height)}>{t.executed_height}</a> {t.status_name}</> : <span class="muted">expires <When ts={t.expires_at} /></span>}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              ) : <p class="muted">No proposals.</p>)}
            </Show>
          </>
        )}
      </Show>
    </section>
  );
}

export const multisig: ExplorerDomain = { name: 'multisig', routes: { multisig: (a) => <MultiSigPage address={a} /> }, addressRoutes: { Nx5: 'multisig' } };
