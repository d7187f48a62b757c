/**
 * An address's page: its account, token balances, each domain's section (domains/index.ts
 * `addressSections`), its history with paging, and a balance this browser can prove itself.
 */
import { Fragment } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { call } from '../rpc.js';
import { formatUnits } from '../format.js';
import { explorerDomains } from '../domains/index.js';
import { type HistoryEntry, type Account, NTV_DECIMALS, href, useCall, Show, Amount, Hash, When, Fields, cell, HistoryStart } from '../ui.js';

/** An address's history, 25 bundles a page; "Older" loads the next page (svc_getAddressHistory `before`). */
export function AddressHistory({ address }: { address: string }) {
  const PAGE = 25;
  const [pages, setPages] = useState<HistoryEntry[][]>([]);
  const [state, setState] = useState<'loading' | 'idle' | 'end' | 'error'>('loading');
  const load = (before?: HistoryEntry) => {
    setState('loading');
    const params: unknown[] = before ? [address, PAGE, { block_height: before.block_height, index: before.index }] : [address, PAGE];
    call<HistoryEntry[]>('svc_getAddressHistory', params).then((page) => {
      setPages((list) => (before ? [...list, page] : [page]));
      setState(page.length < PAGE ? 'end' : 'idle');
    }, () => setState('error'));
  };
  useEffect(() => {
    setPages([]);
    load();
  }, [address]);
  const items = pages.flat();
  return (
    <>
      {state === 'loading' && items.length === 0 ? <p class="muted">Loading…</p> : <History items={items} />}
      {state === 'idle' && <button type="button" class="more" data-testid="history-older" onClick={() => load(items.at(-1))}>Older</button>}
      {state === 'loading' && items.length > 0 && <span class="muted">Loading…</span>}
      {state === 'error' && <p class="error">The history could not be loaded.</p>}
    </>
  );
}

export function AddressPage({ address }: { address: string }) {
  const account = useCall<Account>('svc_getAccount', [address]);
  const tokens = useCall<Array<Record<string, unknown>>>('svc_getAddressTokens', [address]);
  return (
    <section>
      <h2>Address</h2>
      <Show data={account}>
        {(a) => (
          <Fields rows={[
            ['Address', <span class="mono" data-testid="account-address">{a.address}</span>],
            ['EVM form', <span class="mono" data-testid="account-evm">{a.evm_address}</span>],
            ['NTV balance', <span><span data-testid="account-balance">{formatUnits(a.balance, NTV_DECIMALS)} NTV</span> <VerifyBalance address={a.address} shown={a.balance} /></span>],
            ['Nonce', `${a.nonce} (next free ${a.pending_nonce})`],
          ]} />
        )}
      </Show>
      <h3>Token balances</h3>
      <Show data={tokens}>{(list) => <TokenBalances items={Array.isArray(list) ? list : []} />}</Show>
      {explorerDomains.flatMap((d) => d.addressSections ?? []).map((s) => (
        <Fragment key={s.title}><h3>{s.title}</h3><s.Section address={address} /></Fragment>
      ))}
      <h3>History</h3>
      <HistoryStart />
      <AddressHistory address={address} />
    </section>
  );
}

/**
 * The light client of the browser build (docs/replay.md "In the browser"), loaded on first use from
 * /browser/ntv.js and kept for the page's life: it replays the chain from genesis through the core,
 * verifying every header and certificate, then checks a balance's proof against a header it
 * verified. The URL is a variable so esbuild leaves the import to the browser.
 */
export interface LightClientLike {
  verifiedBalance(address: string, token?: string): Promise<{ balance: bigint; height: number }>;
  sync(to?: number, onProgress?: (p: { block: { height: number } }) => void): Promise<unknown>;
}

export let lightClient: Promise<LightClientLike> | undefined;

export function loadLightClient(): Promise<LightClientLike> {
  const url = '/browser/ntv.js';
  lightClient ??= (import(/* @vite-ignore */ url) as Promise<{ LightClient: { create(o: { url: string }): Promise<LightClientLike> } }>)
    .then((ntv) => ntv.LightClient.create({ url: `${location.origin}/` }));
  lightClient.catch(() => (lightClient = undefined));
  return lightClient;
}

export type Verification = { state: 'idle' } | { state: 'working'; text: string } | { state: 'verified'; balance: string; height: number } | { state: 'failed'; reason: string };

/** Marks a balance this browser proved against a header it verified itself, or says why not. */
export function VerifyBalance({ address, shown }: { address: string; shown: string }) {
  const [v, setV] = useState<Verification>({ state: 'idle' });
  const run = async () => {
    setV({ state: 'working', text: 'loading the core…' });
    try {
      const client = await loadLightClient();
      await client.sync(undefined, (p) => setV({ state: 'working', text: `replaying block ${p.block.height}…` }));
      const proven = await client.verifiedBalance(address, 'NTV');
      setV({ state: 'verified', balance: proven.balance.toString(), height: proven.height });
    } catch (error) {
      setV({ state: 'failed', reason: (error as Error).message });
    }
  };
  if (v.state === 'idle') return <button type="button" class="verify" data-testid="verify-balance" onClick={() => void run()}>verify in this browser</button>;
  if (v.state === 'working') return <span class="muted" data-testid="balance-verifying">{v.text}</span>;
  if (v.state === 'failed') return <span class="bad" data-testid="balance-unverified" title={v.reason}>✗ not verified: {v.reason}</span>;
  const same = v.balance === shown;
  return (
    <span class={same ? 'verified' : 'bad'} data-testid="balance-verified" data-balance={v.balance} title={`proven against the state root of block ${v.height}, which this browser verified by replay`}>
      {same ? `✓ verified at block ${v.height}` : `✓ proven ${formatUnits(v.balance, NTV_DECIMALS)} NTV at block ${v.height} (the balance above is from another block)`}
    </span>
  );
}

/** An address's bundles, newest first: what moved in or out, from or to whom, with amounts (svc_getAddressHistory `transfers`). */
export function History({ items }: { items: HistoryEntry[] }) {
  if (items.length === 0) return <p class="muted">None.</p>;
  return (
    <table class="list stack" data-testid="address-history">
      <thead><tr><th>Bundle</th><th>Time</th><th>In / out</th><th>Block</th></tr></thead>
      <tbody>
        {items.map((h) => (
          <tr key={h.bundle_hash}>
            <td><Hash value={h.bundle_hash} to={href('tx', h.bundle_hash)} />{h.status !== 'success' && <span class="error"> failed</span>}</td>
            <td><When ts={h.timestamp} /></td>
            <td class="wrap">
              {(h.transfers ?? []).length === 0
                ? <span class="muted">{h.role === 'sender' ? 'sent' : h.role}: {[...new Set(h.events.map((e) => e.type as string).filter((t) => t !== 'Fee'))].join(', ') || 'fee only'}</span>
                : (h.transfers ?? []).map((t, i) => (
                  <div key={i} class="move" data-testid="history-move">
                    <span class={`dir ${t.direction}`}>{t.direction === 'in' ? 'IN' : t.direction === 'out' ? 'OUT' : 'SELF'}</span>{' '}
                    <Amount raw={t.amount} token={t.token} /> {t.direction === 'in' ? 'from' : 'to'} {cell('counterparty', t.counterparty)}
                  </div>
                ))}
            </td>
            <td><a href={href('block', h.block_height)}>{h.block_height}</a></td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function TokenBalances({ items }: { items: Array<Record<string, unknown>> }) {
  if (items.length === 0) return <p class="muted">No token balances.</p>;
  return (
    <table class="list" data-testid="address-tokens">
      <thead><tr><th>Token</th><th>Balance</th></tr></thead>
      <tbody>
        {items.map((t, i) => {
          const symbol = String(t.symbol ?? t.token ?? '');
          const decimals = typeof t.decimals === 'number' ? t.decimals : 0;
          const raw = String(t.balance ?? t.amount ?? '0');
          const mint = typeof t.mint_address === 'string' ? t.mint_address : typeof t.mint === 'string' ? t.mint : symbol;
          return (
            <tr key={i}>
              <td><a href={href('token', mint)}>{symbol}</a></td>
              <td data-testid={`balance-${symbol}`}>{/^\d+$/.test(raw) ? formatUnits(raw, decimals) : raw}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
