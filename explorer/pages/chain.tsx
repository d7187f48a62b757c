/** The chain's pages: the latest blocks and transactions (live over the §6 subscriptions), a block, a transaction. */
import { type ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { availableMethods, call, RpcCallError } from '../rpc.js';
import { type Head, type Receipt, MAX_LIVE, href, useCall, Show, liveFeed, Amount, Hash, Addr, When, Ago, Fields, Events, Summary, merge, useNow } from '../ui.js';

export function Home() {
  const initialBlocks = useCall<Head[]>('svc_getRecentBlocks', [MAX_LIVE]);
  const [blocks, setBlocks] = useState<Head[]>([]);
  const [txs, setTxs] = useState<Receipt[] | undefined>();
  const [txState, setTxState] = useState<'ok' | 'unavailable'>('ok');
  useEffect(() => {
    if (initialBlocks.state === 'ok') setBlocks((live) => merge(live, initialBlocks.value, (b) => b.height));
  }, [initialBlocks.state]);
  useEffect(() => {
    // The live items carry no events (spec §6 newTransactions): a new one refreshes the receipts,
    // at most once a second however busy the chain is.
    let timer: ReturnType<typeof setTimeout> | undefined;
    let live = true;
    const refresh = async () => {
      timer = undefined;
      if (!(await availableMethods()).has('svc_getRecentTransactions')) return live && setTxState('unavailable');
      const list = await call<Receipt[]>('svc_getRecentTransactions', [MAX_LIVE]).catch(() => undefined);
      if (live && list) setTxs(list);
    };
    void refresh();
    const offHeads = liveFeed().subscribe('svc_subscribe_newHeads', (h) => setBlocks((list) => merge(list, [h as Head], (b) => b.height)));
    const offTxs = liveFeed().subscribe('svc_subscribe_newTransactions', () => {
      timer ??= setTimeout(() => void refresh(), 1000);
    });
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
      offHeads();
      offTxs();
    };
  }, []);
  const now = useNow();
  return (
    <div class="columns">
      <section>
        <h2>Latest blocks</h2>
        <table class="list" data-testid="latest-blocks">
          <thead>
            <tr><th>Height</th><th class="wide">Hash</th><th>Bundles</th><th>Gas</th><th>Age</th></tr>
          </thead>
          <tbody>
            {blocks.map((b) => (
              <tr key={b.height} data-height={b.height}>
                <td><a href={href('block', b.height)}>{b.height}</a></td>
                <td class="wide"><Hash value={b.hash} /></td>
                <td>{b.bundleCount}</td>
                <td>{b.gasUsed.toLocaleString('en-US')}</td>
                <td><Ago ts={b.timestamp} now={now} /></td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section>
        <h2>Latest transactions</h2>
        {txState === 'unavailable' && <p class="note">svc_getRecentTransactions is not available on this node.</p>}
        {txs === undefined ? null : txs.length === 0 ? <p class="muted">No transactions yet.</p> : (
          <table class="list" data-testid="latest-transactions">
            <thead>
              <tr><th>Bundle</th><th class="wide">From</th><th>What</th><th class="wide">Block</th><th>Age</th></tr>
            </thead>
            <tbody>
              {txs.map((t) => (
                <tr key={t.bundle_hash}>
                  <td><Hash value={t.bundle_hash} to={href('tx', t.bundle_hash)} />{t.status !== 'success' && <span class="error"> failed</span>}</td>
                  <td class="wide"><Addr value={t.from} /></td>
                  <td class="wrap"><Summary events={t.events} /></td>
                  <td class="wide"><a href={href('block', t.block_height)}>{t.block_height}</a></td>
                  <td><Ago ts={t.timestamp} now={now} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}

export function BlockPage({ height }: { height: number }) {
  const block = useCall<(Head & { transactions: string[]; tx_stats: Record<string, number | string> }) | null>('svc_getBlockByHeight', [height]);
  return (
    <section>
      <h2>Block {height}</h2>
      <p>
        {height > 0 && <a href={href('block', height - 1)}>← {height - 1}</a>} <a href={href('block', height + 1)}>{height + 1} →</a>
      </p>
      <Show data={block}>
        {(b) => b === null ? <p class="error">No block at height {height} yet.</p> : (
          <>
            <Fields rows={[
              ['Hash', <span class="mono">{b.hash}</span>],
              ['Parent', <a class="mono" href={href('block', b.height - 1)}>{b.parentHash}</a>],
              ['Time', <When ts={b.timestamp} />],
              ['Proposer', <Addr value={b.proposer} />],
              ['State root', <span class="mono">{b.stateRoot}</span>],
              ['Gas', `${b.gasUsed.toLocaleString('en-US')} / ${b.gasLimit.toLocaleString('en-US')} (base fee ${b.baseFee} nanoNTV)`],
              ['Transactions', <>{b.tx_stats.total} ({b.tx_stats.failed} failed), fees <Amount raw={String(b.tx_stats.total_fees)} token="NTV" /></>],
            ]} />
            <h3>Bundles</h3>
            {b.transactions.length === 0 ? <p class="muted">None.</p> : (
              <ol class="mono">{b.transactions.map((t) => <li key={t}><a href={href('tx', t)}>{t}</a></li>)}</ol>
            )}
          </>
        )}
      </Show>
    </section>
  );
}

export type TxFound = { type: 'transaction'; evm_hash: string | null; receipt: Receipt } | { type: 'block'; height: number } | { type: string };

/** A bundle by its Nxh… hash, or (0x form) by the keccak hash an EVM wallet knows it by: svc_search resolves both. */
export function TxPage({ hash }: { hash: string }) {
  const found = useCall<TxFound>('svc_search', [hash]);
  return (
    <section>
      <h2>Transaction</h2>
      <Show data={found}>
        {(f) => {
          if (f.type === 'block' && 'height' in f) return <p>This is the hash of <a href={href('block', f.height)}>block {f.height}</a>.</p>;
          if (f.type !== 'transaction' || !('receipt' in f)) return <NotFoundTx />;
          const r = f.receipt;
          return (
            <>
              <Fields rows={[
                ['Hash', <span class="mono" data-testid="tx-hash">{r.bundle_hash}</span>],
                ...(f.evm_hash ? [['EVM hash', <span class="mono" data-testid="tx-evm-hash">{f.evm_hash}</span>] as [string, ComponentChildren]] : []),
                ['Status', <span class={r.status === 'success' ? 'ok' : 'error'}>{r.status} ({r.status_name}){r.error ? ` — ${r.error}` : ''}</span>],
                ['Block', <a href={href('block', r.block_height)}>{r.block_height}</a>],
                ['Index', r.index],
                ['From', <Addr value={r.from} />],
                ['Nonce', r.nonce],
                ['Gas used', r.gas_used.toLocaleString('en-US')],
                ['Fee', <Amount raw={r.fee} token="NTV" />],
                ['Time', <When ts={r.timestamp} />],
              ]} />
              <h3>Events</h3>
              <Events events={r.events as Array<Record<string, unknown>>} testid="tx-events" />
            </>
          );
        }}
      </Show>
    </section>
  );
}

/**
 * A hash no receipt answers to. On a node that prunes (docs/storage.md "Pruning") the bundle may be
 * in a block it no longer keeps: say so, with the oldest block it keeps (svc_getBlockByHeight of block 1
 * names it when block 1 is pruned), rather than that no such bundle exists (issue 42 item 10).
 */
export function NotFoundTx() {
  const [oldest, setOldest] = useState<number | null | undefined>();
  useEffect(() => {
    call('svc_getBlockByHeight', [1]).then(() => setOldest(null), (e: unknown) => {
      const data = e instanceof RpcCallError ? (e.data as { oldest_height?: number } | undefined) : undefined;
      setOldest(typeof data?.oldest_height === 'number' ? data.oldest_height : null);
    });
  }, []);
  if (oldest === undefined) return <p class="muted">Looking…</p>;
  if (oldest === null) return <p class="error" data-testid="tx-not-found">No included bundle has this hash.</p>;
  return (
    <p class="error" data-testid="tx-pruned">
      No bundle with this hash in the blocks this node keeps: it keeps blocks from <a href={href('block', oldest)}>{oldest}</a> on (it prunes older ones).
      A bundle in an older block is found on an archive node (<span class="mono">--pruning archive</span>).
    </p>
  );
}
