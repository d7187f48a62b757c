/**
 * The block explorer page the node serves on GET / (issue 6, spec §4.11). Hash routes keep every
 * page on `/`, so the node serves one HTML file: #/ (latest blocks and transactions, live over the
 * §6 subscriptions), #/block/:height, #/tx/:hash, #/address/:address, #/token/:symbolOrMint,
 * #/tokens, #/pools, #/pool/:a/:b, #/presales, #/presale/:address, #/staking-pools,
 * #/staking-pool/:address, #/settlements, #/order/:id. Methods not listed by rpc.discover show a
 * "not available on this node" note instead of failing.
 *
 * Path routes (`/tx/<hash>`, `/address/<addr>`, `/block/<n>`, `/token/<addr>`: the links EVM
 * wallets build from a block-explorer URL) get this same page from the node; it turns the path
 * into the hash route at load (docs/explorer.md "Routes"). Every amount is shown with its token's
 * decimals and symbol (`Amount`), addresses and tokens with their EVM form beside the native one.
 */
import { render, type ComponentChildren } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { availableMethods, call, LiveFeed, RpcCallError } from './rpc.js';
import { classify, evmFormOf, formatDate, formatUnits, shortHash, timeAgo, tokenFieldOf } from './format.js';
import './style.css';

// ---------------------------------------------------------------- shapes (docs/methods.md, spec §6)

interface Head {
  height: number; hash: string; parentHash: string; timestamp: number; proposer: string; stateRoot: string;
  transactionsRoot: string; gasUsed: number; gasLimit: number; baseFee: number; bundleCount: number;
}
interface Receipt {
  bundle_hash: string; block_height: number; block_hash: string; index: number; timestamp: number; from: string; nonce: string;
  status: string; status_name: string; error?: string; gas_used: number; fee: string; events: Array<Record<string, unknown>>;
}
interface Token {
  name: string; symbol: string; decimals: number; mint_address: string; evm_address?: string | null; total_supply: string; standard: string;
  owner: string; creator: string; badge: string | null;
}
interface HistoryTransfer { direction: 'in' | 'out' | 'self'; counterparty: string; token: string; symbol: string | null; decimals: number | null; amount: string; event: string }
type HistoryEntry = Receipt & { role: string; transfers?: HistoryTransfer[] };
interface Account { address: string; evm_address: string; nonce: string; pending_nonce: string; balance: string }

const NTV_DECIMALS = 9;
const MAX_LIVE = 12;

// ---------------------------------------------------------------- routing

/** A path route the node served this page on becomes the hash route (one code path for links). */
function adoptPathRoute(): void {
  const m = /^\/(tx|address|block|token)\/([0-9A-Za-z]{1,128})\/?$/.exec(location.pathname);
  if (m) history.replaceState(null, '', `/#/${m[1]}/${m[2]}`);
}

function useRoute(): string[] {
  const parse = () => location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const [route, setRoute] = useState(parse);
  useEffect(() => {
    const on = () => setRoute(parse());
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return route;
}

const go = (...parts: Array<string | number>): undefined => {
  location.hash = '#/' + parts.map((p) => encodeURIComponent(String(p))).join('/');
};
const href = (...parts: Array<string | number>) => '#/' + parts.map((p) => encodeURIComponent(String(p))).join('/');

// ---------------------------------------------------------------- data hooks

type Loaded<T> = { state: 'loading' } | { state: 'ok'; value: T } | { state: 'error'; message: string } | { state: 'unavailable'; method: string };

/** Calls a method once per key; `unavailable` when rpc.discover does not list it. */
function useCall<T>(method: string, params: unknown[], key = JSON.stringify(params)): Loaded<T> {
  const [result, setResult] = useState<Loaded<T>>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    setResult({ state: 'loading' });
    void (async () => {
      const methods = await availableMethods();
      if (!methods.has(method)) return live && setResult({ state: 'unavailable', method });
      try {
        const value = await call<T>(method, params);
        if (live) setResult({ state: 'ok', value });
      } catch (error) {
        if (live) setResult({ state: 'error', message: error instanceof RpcCallError ? error.message : String(error) });
      }
    })();
    return () => {
      live = false;
    };
  }, [method, key]);
  return result;
}

function Show<T>({ data, children }: { data: Loaded<T>; children: (value: T) => ComponentChildren }) {
  switch (data.state) {
    case 'loading':
      return <p class="muted">Loading…</p>;
    case 'error':
      return <p class="error">{data.message}</p>;
    case 'unavailable':
      return <p class="note" data-testid="unavailable">{data.method} is not available on this node.</p>;
    case 'ok':
      return <>{children(data.value)}</>;
  }
}

let feed: LiveFeed | undefined;
function liveFeed(): LiveFeed {
  return (feed ??= new LiveFeed());
}

// ---------------------------------------------------------------- tokens (decimals and symbols)

const NTV_MINT = 'Nx1' + '1'.repeat(32); // the mint of 32 zero bytes
const tokenCache = new Map<string, Promise<Token | undefined>>();
/** answers already in: a row drawn after them shows the amount at once (null: the node does not know the token) */
const tokensKnown = new Map<string, Token | null>();

/** svc_getTokenInfo once per mint (or symbol) per page load; undefined when the node does not know it. */
function tokenInfo(ref: string): Promise<Token | undefined> {
  let p = tokenCache.get(ref);
  if (!p) {
    p = call<Token>('svc_getTokenInfo', [ref]).catch(() => undefined);
    p.then((t) => tokensKnown.set(ref, t ?? null), () => {});
    tokenCache.set(ref, p);
  }
  return p;
}

/** The token's record; undefined while it is asked for, null when the node does not know the token. */
function useToken(ref: string | undefined): Token | null | undefined {
  const [token, setToken] = useState<Token | null | undefined>(ref ? tokensKnown.get(ref) : undefined);
  useEffect(() => {
    let live = true;
    setToken(ref ? tokensKnown.get(ref) : undefined);
    if (ref && !tokensKnown.has(ref)) void tokenInfo(ref).then((t) => live && setToken(t ?? null));
    return () => {
      live = false;
    };
  }, [ref]);
  return token;
}

/**
 * A raw amount of a token (mint or `NTV`) as the token counts it: `1.5 HBD`. While the token's
 * record is asked for, a placeholder (not the raw units, which would read as a different amount);
 * for a token the node does not know, the raw units with "units".
 */
function Amount({ raw, token, testid }: { raw: string | number; token: string; testid?: string }) {
  const known = token === 'NTV' ? NTV_TOKEN : undefined;
  const fetched = useToken(known ? undefined : token);
  const t = known ?? fetched;
  const text = String(raw);
  if (!/^-?\d+$/.test(text)) return <span>{text}</span>;
  if (t === undefined) return <span class="amount muted" data-testid={testid} aria-busy="true" title={`${text} raw units`}>…</span>;
  if (t === null) return <span class="amount" data-testid={testid}>{formatUnits(text, 0)} <span class="muted">units</span></span>;
  return (
    <span class="amount" data-testid={testid} title={`${text} raw units (${t.decimals} decimals)`}>
      {formatUnits(text, t.decimals)} {token === 'NTV' || t.mint_address === NTV_MINT ? 'NTV' : <a href={href('token', t.mint_address)}>{t.symbol}</a>}
    </span>
  );
}

const NTV_TOKEN: Token = { name: 'NTV', symbol: 'NTV', decimals: 9, mint_address: NTV_MINT, total_supply: '0', standard: 'native', owner: '', creator: '', badge: null };

// ---------------------------------------------------------------- small parts

const Hash = ({ value, to }: { value: string; to?: string }) => (to ? <a href={to} class="mono" title={value}>{shortHash(value, 6)}</a> : <span class="mono" title={value}>{shortHash(value, 6)}</span>);
/** An account, linked to its page; an EVM-form account as the 0x address its wallet shows (issue 42 item 10). */
const Addr = ({ value }: { value: string }) => {
  const evm = evmFormOf(value);
  if (!evm) return <Hash value={value} to={href('address', value)} />;
  return <a href={href('address', value)} class="mono" title={`${evm} (${value})`} data-evm="true">{shortHash(evm, 6)}</a>;
};
const When = ({ ts }: { ts: number }) => <span title={formatDate(ts)}>{formatDate(ts)}</span>;
const Ago = ({ ts, now }: { ts: number; now: number }) => <span title={formatDate(ts)}>{timeAgo(ts, now)}</span>;

function Fields({ rows }: { rows: Array<[string, ComponentChildren]> }) {
  return (
    <table class="fields">
      <tbody>
        {rows.map(([k, v]) => (
          <tr key={k}>
            <th>{k}</th>
            <td>{v}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A list whose exact shape comes from another issue's method: known keys get links, the rest text. */
function GenericTable({ items, testid }: { items: Array<Record<string, unknown>>; testid?: string }) {
  if (items.length === 0) return <p class="muted">None.</p>;
  const keys = [...new Set(items.flatMap((i) => Object.keys(i)))].filter((k) => typeof items[0]![k] !== 'object').slice(0, 8);
  return (
    <table class="list" data-testid={testid}>
      <thead>
        <tr>{keys.map((k) => <th key={k}>{k}</th>)}</tr>
      </thead>
      <tbody>
        {items.map((item, i) => (
          <tr key={i}>{keys.map((k) => <td key={k}>{cell(k, item[k])}</td>)}</tr>
        ))}
      </tbody>
    </table>
  );
}

function cell(key: string, value: unknown): ComponentChildren {
  if (typeof value !== 'string' && typeof value !== 'number') return value === undefined || value === null ? '' : String(value);
  const text = String(value);
  // unix seconds: a block's time, and the staking events' release_time and jailed_until (docs/staking.md "Events")
  if (typeof value === 'number' && /^(timestamp|created_at|time|release_time|jailed_until)$/.test(key)) return <When ts={value} />;
  if (/hash$/i.test(key) && text.startsWith('Nxh')) return <Hash value={text} to={href('tx', text)} />;
  if (/height$/i.test(key) && typeof value === 'number') return <a href={href('block', value)}>{text}</a>;
  if (text.startsWith('Nx0')) return <Addr value={text} />;
  // System accounts (0x00…01–0x00…08, 0xff…ff) come in their 0x 32-byte form (spec §1.6).
  if (/^0x[0-9a-fA-F]{64}$/.test(text) && !/(hash|root)$/i.test(key)) return <Addr value={text} />;
  if (text.startsWith('Nx1')) return <Hash value={text} to={href('token', text)} />;
  if (text.startsWith('Nx2')) return <Hash value={text} to={href('collection', text)} />;
  if (text.startsWith('Nx6')) return <Hash value={text} to={href('staking-pool', text)} />;
  // a multi-sig has its page; a DAO is also an account (its treasury), so it opens the address page
  if (text.startsWith('Nx5')) return <Hash value={text} to={href('multisig', text)} />;
  if (text.startsWith('Nx7')) return <Hash value={text} to={href('address', text)} />;
  return text;
}

/** Fields of an event that are shown through their amount (the token) or not at all (pool internals). */
const HIDDEN_EVENT_FIELDS = new Set(['type', 'op_index', 'symbol', 'reserve0', 'reserve1']);

/** A receipt's events, one row each: every amount with its token's decimals and symbol, the rest linked. */
function Events({ events, testid }: { events: Array<Record<string, unknown>>; testid?: string }) {
  if (events.length === 0) return <p class="muted">None.</p>;
  return (
    <table class="list events" data-testid={testid}>
      <thead><tr><th>Event</th><th>Details</th></tr></thead>
      <tbody>
        {events.map((e, i) => {
          const type = String(e.type);
          const tokenFields = new Set(Object.keys(e).map((k) => tokenFieldOf(type, k)).filter((f): f is string => f !== undefined && f !== 'NTV'));
          return (
            <tr key={i}>
              <td>{type}</td>
              <td class="details">
                {Object.entries(e).filter(([k, v]) => !HIDDEN_EVENT_FIELDS.has(k) && !tokenFields.has(k) && v !== undefined && v !== null && typeof v !== 'object').map(([k, v]) => {
                  const field = tokenFieldOf(type, k);
                  const mint = field === 'NTV' ? 'NTV' : field ? String(e[field] ?? '') : '';
                  return (
                    <span class="kv" key={k}>
                      <span class="muted">{k.replace(/_/g, ' ')}</span>{' '}
                      {field && mint ? <Amount raw={v as string} token={mint} testid={type === 'Transfer' && k === 'amount' ? 'transfer-amount' : undefined} /> : cell(k, v)}
                    </span>
                  );
                })}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** What a bundle did, in one cell of a list: its token movements with amounts, else its event names. */
function Summary({ events }: { events: Array<Record<string, unknown>> }) {
  const shown = new Set(['Fee', 'Transfer', 'Swap', 'TokenCreated', 'PoolCreated', 'LiquidityAdded', 'LiquidityRemoved']);
  const moves = events.filter((e) => shown.has(String(e.type)) && e.type !== 'Fee');
  const rest = [...new Set(events.map((e) => String(e.type)).filter((t) => !shown.has(t)))];
  return (
    <span class="summary">
      {moves.map((e, i) => (
        <span key={i} class="kv">
          {e.type === 'Transfer' && <>Transfer <Amount raw={String(e.amount)} token={String(e.token)} /></>}
          {e.type === 'Swap' && <>Swap <Amount raw={String(e.amount_in)} token={String(e.token_in)} /> → {e.token_out ? <Amount raw={String(e.amount_out)} token={String(e.token_out)} /> : String(e.amount_out)}</>}
          {e.type === 'TokenCreated' && <>New token, supply <Amount raw={String(e.supply)} token={String(e.mint)} /></>}
          {(e.type === 'PoolCreated' || e.type === 'LiquidityAdded' || e.type === 'LiquidityRemoved') && (
            <>{e.type === 'PoolCreated' ? 'New pool' : e.type === 'LiquidityAdded' ? 'Add liquidity' : 'Remove liquidity'}{' '}
              {e.token0 ? <Amount raw={String(e.amount0)} token={String(e.token0)} /> : String(e.amount0)} +{' '}
              {e.token1 ? <Amount raw={String(e.amount1)} token={String(e.token1)} /> : String(e.amount1)}</>
          )}
        </span>
      ))}
      {rest.length > 0 && <span class="kv">{rest.join(', ')}</span>}
    </span>
  );
}

// ---------------------------------------------------------------- pages

function Home() {
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

function merge<T>(list: T[], add: T[], key: (t: T) => string | number): T[] {
  const seen = new Set<string | number>();
  const out: T[] = [];
  for (const item of [...add, ...list]) {
    const k = key(item);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(item);
  }
  return out.sort((a, b) => Number((b as { height?: number; blockHeight?: number }).height ?? (b as { blockHeight: number }).blockHeight)
    - Number((a as { height?: number; blockHeight?: number }).height ?? (a as { blockHeight: number }).blockHeight)).slice(0, MAX_LIVE);
}

function useNow(): number {
  const [now, setNow] = useState(Date.now() / 1000);
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now() / 1000), 1000);
    return () => clearInterval(t);
  }, []);
  return now;
}

function BlockPage({ height }: { height: number }) {
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

type TxFound = { type: 'transaction'; evm_hash: string | null; receipt: Receipt } | { type: 'block'; height: number } | { type: string };

/** A bundle by its Nxh… hash, or (0x form) by the keccak hash an EVM wallet knows it by: svc_search resolves both. */
function TxPage({ hash }: { hash: string }) {
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
function NotFoundTx() {
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

/** An address's history, 25 bundles a page; "Older" loads the next page (svc_getAddressHistory `before`). */
function AddressHistory({ address }: { address: string }) {
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

function AddressPage({ address }: { address: string }) {
  const account = useCall<Account>('svc_getAccount', [address]);
  const tokens = useCall<Array<Record<string, unknown>>>('svc_getAddressTokens', [address]);
  const nfts = useCall<Array<Record<string, unknown>>>('svc_listNftsByOwner', [address, null, 25]);
  const passport = useCall<{ gamertag: string; created_at: number; games: number } | null>('svc_getPassport', [address]);
  const anchors = useCall<Array<{ namespace: string; key: string; value_hash: string; height: number; time: number }>>('svc_getAnchorsByAccount', [address, 25]);
  const bridge = useCall<BridgeHistoryEntry[]>('svc_getBridgeHistory', [address, 25]);
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
      <h3>NFTs</h3>
      <Show data={nfts}>{(list) => <GenericTable items={Array.isArray(list) ? list : []} testid="address-nfts" />}</Show>
      <h3>Passport</h3>
      <Show data={passport}>
        {(p) => p === null ? <p class="muted">None.</p> : (
          <div data-testid="address-passport">
            <Fields rows={[['Gamertag', <strong>{p.gamertag}</strong>], ['Created', <When ts={p.created_at} />], ['Games', p.games]]} />
          </div>
        )}
      </Show>
      <h3>Anchors</h3>
      <Show data={anchors}>
        {(list) => !Array.isArray(list) || list.length === 0 ? <p class="muted">None.</p> : (
          <table class="list" data-testid="address-anchors">
            <thead><tr><th>Namespace</th><th>Key</th><th>Value hash</th><th>Block</th><th>Time</th></tr></thead>
            <tbody>
              {list.map((a, i) => (
                <tr key={i}>
                  <td class="mono">{a.namespace}</td><td class="mono">{a.key}</td><td><Hash value={a.value_hash} /></td>
                  <td><a href={href('block', a.height)}>{a.height}</a></td><td><When ts={a.time} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Show>
      <h3>Bridge</h3>
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
      <h3>History</h3>
      <HistoryStart />
      <AddressHistory address={address} />
    </section>
  );
}

/** svc_getBridgeHistory rows (docs/bridge.md "Methods"). */
interface BridgeHistoryEntry {
  kind: 'deposit' | 'withdrawal';
  deposit: { chain: string; tx_hash: string; mint: string; amount: string; status: string; reason: string | null; height: number } | null;
  withdrawal: { sequence: string; chain: string; destination: string; mint: string; amount: string; status: string; height: number } | null;
}

/** A token's origin chains (STD-8 origin and registered mappings, or its own origin) with each contract's safety level (docs/bridge.md). */
function TokenOrigins({ token }: { token: Token }) {
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

function ContractSafetyCell({ chain, contract }: { chain: string; contract: string }) {
  const safety = useCall<{ level: string }>('svc_getContractSafety', [chain, contract]);
  return <Show data={safety}>{(s) => <span data-testid="token-safety">{s.level}</span>}</Show>;
}

/**
 * The light client of the browser build (docs/replay.md "In the browser"), loaded on first use from
 * /browser/ntv.js and kept for the page's life: it replays the chain from genesis through the core,
 * verifying every header and certificate, then checks a balance's proof against a header it
 * verified. The URL is a variable so esbuild leaves the import to the browser.
 */
interface LightClientLike {
  verifiedBalance(address: string, token?: string): Promise<{ balance: bigint; height: number }>;
  sync(to?: number, onProgress?: (p: { block: { height: number } }) => void): Promise<unknown>;
}
let lightClient: Promise<LightClientLike> | undefined;
function loadLightClient(): Promise<LightClientLike> {
  const url = '/browser/ntv.js';
  lightClient ??= (import(/* @vite-ignore */ url) as Promise<{ LightClient: { create(o: { url: string }): Promise<LightClientLike> } }>)
    .then((ntv) => ntv.LightClient.create({ url: `${location.origin}/` }));
  lightClient.catch(() => (lightClient = undefined));
  return lightClient;
}

type Verification = { state: 'idle' } | { state: 'working'; text: string } | { state: 'verified'; balance: string; height: number } | { state: 'failed'; reason: string };

/** Marks a balance this browser proved against a header it verified itself, or says why not. */
function VerifyBalance({ address, shown }: { address: string; shown: string }) {
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
function History({ items }: { items: HistoryEntry[] }) {
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

function TokenBalances({ items }: { items: Array<Record<string, unknown>> }) {
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

/** A token by symbol, mint, or (as MetaMask links /token/<contract>) its ERC-20 address, resolved by svc_search. */
function TokenPage({ id }: { id: string }) {
  const evm = /^0x[0-9a-fA-F]{40}$/.test(id);
  const found = useCall<{ type: string; token?: Token }>(evm ? 'svc_search' : 'svc_getTokenInfo', [id]);
  return (
    <section>
      <Show data={found}>
        {(f) => {
          const t = evm ? f.token : (f as unknown as Token);
          if (!t) return <p class="error">No token at {id}.</p>;
          return (
            <>
              <h2>{t.name} ({t.symbol}) {t.badge && <span class="badge">{t.badge}</span>}</h2>
              <Fields rows={[
                ['Mint', <span class="mono">{t.mint_address}</span>],
                ['EVM contract', t.evm_address ? <span class="mono" data-testid="token-evm">{t.evm_address}</span> : <span class="muted">none (the native coin)</span>],
                ['Standard', t.badge === 'Official Stablecoin' || /STD-8/.test(t.standard) ? <a href={href('stablecoin', t.mint_address)} data-testid="token-stablecoin">{t.standard}: roles, minters, pending changes</a> : t.standard],
                ['Decimals', t.decimals],
                ['Total supply', `${formatUnits(t.total_supply, t.decimals)} ${t.symbol}`],
                ['Owner', <Addr value={t.owner} />],
                ['Creator', <Addr value={t.creator} />],
              ]} />
              <h3>Origin chains and safety</h3>
              <TokenOrigins token={t} />
              <h3>Holders</h3>
              <TokenHolders token={t} />
              <h3>Transfers</h3>
              <HistoryStart />
              <TokenTransfers token={t} />
            </>
          );
        }}
      </Show>
    </section>
  );
}

/** An NFT or multi-token collection (docs/nfts.md): its record, and a multi-token collection's types. */
function CollectionPage({ address }: { address: string }) {
  const found = useCall<{ type: string; collection?: Record<string, unknown> }>('svc_search', [address]);
  return (
    <section>
      <Show data={found}>
        {(f) => {
          const c = f.collection;
          if (!c) return <p class="muted">No collection at {address}.</p>;
          return (
            <>
              <h2>{String(c.name)} ({String(c.symbol)}) <span class="badge">{c.kind === 'nft' ? 'ERC-721' : 'ERC-1155'}</span></h2>
              <Fields rows={Object.entries(c)
                .filter(([k, v]) => k !== 'name' && k !== 'symbol' && v !== '') // optional URIs left empty
                .map(([k, v]) => [k, k === 'max_supply' && v === null ? 'unlimited' : cell(k, v)])} />
              {c.kind === 'multi' && <><h3>Token types</h3><TokenTypes collection={String(c.address)} /></>}
            </>
          );
        }}
      </Show>
    </section>
  );
}

function TokenTypes({ collection }: { collection: string }) {
  const types = useCall<Array<Record<string, unknown>>>('svc_listTokenTypes', [collection, 100]);
  return <Show data={types}>{(list) => <GenericTable items={Array.isArray(list) ? list : []} testid="token-types" />}</Show>;
}

function TokenHolders({ token }: { token: Token }) {
  const holders = useCall<Array<{ address: string; balance: string }>>('svc_getTokenHolders', [token.mint_address, 25]);
  const supply = BigInt(token.total_supply);
  return (
    <Show data={holders}>
      {(list) => list.length === 0 ? <p class="muted">None.</p> : (
        <table class="list" data-testid="token-holders">
          <thead><tr><th>Address</th><th>Balance</th><th>Share</th></tr></thead>
          <tbody>
            {list.map((h) => (
              <tr key={h.address}>
                <td>{cell('address', h.address)}</td>
                <td>{formatUnits(h.balance, token.decimals)} {token.symbol}</td>
                <td>{supply > 0n ? `${(Number((BigInt(h.balance) * 10000n) / supply) / 100).toFixed(2)} %` : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Show>
  );
}

/**
 * Where this node's history starts (svc_getNetworkStats historyFromHeight; docs/explorer.md "Where
 * history starts"): a node restored from a snapshot or an export, or pruned, lists nothing below it.
 */
function HistoryStart() {
  const stats = useCall<{ historyFromHeight?: number }>('svc_getNetworkStats', []);
  if (stats.state !== 'ok' || !stats.value.historyFromHeight) return null;
  const from = stats.value.historyFromHeight;
  return (
    <p class="note" data-testid="history-start">
      This node's history starts at block <a href={href('block', from)}>{from}</a>: it was restored from a snapshot or an export, or pruned, there.
      Earlier activity is not listed here; a node that holds every block (an archive node) shows it.
    </p>
  );
}

function TokenTransfers({ token }: { token: Token }) {
  const transfers = useCall<Array<{ bundle_hash: string; timestamp: number; event: string; from: string; to: string; amount: string }>>('svc_getTokenTransfers', [token.mint_address, 25]);
  return (
    <Show data={transfers}>
      {(list) => list.length === 0 ? <p class="muted">None.</p> : (
        <table class="list" data-testid="token-transfers">
          <thead><tr><th>Bundle</th><th>Time</th><th>From</th><th>To</th><th>Amount</th></tr></thead>
          <tbody>
            {list.map((x, i) => (
              <tr key={i}>
                <td><Hash value={x.bundle_hash} to={href('tx', x.bundle_hash)} /> <span class="muted">{x.event === 'Transfer' ? '' : x.event}</span></td>
                <td><When ts={x.timestamp} /></td>
                <td>{cell('from', x.from)}</td>
                <td>{cell('to', x.to)}</td>
                <td>{formatUnits(x.amount, token.decimals)} {token.symbol}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Show>
  );
}

function TokensPage() {
  const tokens = useCall<Token[]>('svc_listTokens', [1000]);
  return (
    <section>
      <h2>Tokens</h2>
      <Show data={tokens}>
        {(list) => (
          <table class="list">
            <thead><tr><th>Symbol</th><th>Name</th><th>Standard</th><th>Supply</th></tr></thead>
            <tbody>
              {list.map((t) => (
                <tr key={t.mint_address}>
                  <td><a href={href('token', t.mint_address)}>{t.symbol}</a></td>
                  <td>{t.name}</td>
                  <td>{t.standard}</td>
                  <td>{formatUnits(t.total_supply, t.decimals)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Show>
    </section>
  );
}

type Order = {
  order_id: string; state: string; expired: boolean; creator: string; escrow: string; sell_token: string; sell_amount: string; buy_token: string;
  min_buy_amount: string; expiry: number; created_height: number; market_maker: string | null; bid_amount: string | null; ask_amount: string | null;
  spread_bps: number | null; matched_height: number | null; closed_height: number | null; closed_at: number | null;
};

/** Settlement with market makers (docs/settlement.md): the stats of spec §2.7, the active makers and the latest settlements. */
function SettlementsPage() {
  const stats = useCall<{ settled_count: number; total_volume: string; avg_spread_bps: number; last_settlement_block: number | null; active_mm_count: number }>('svc_atomenceStats', []);
  const makers = useCall<Array<{ address: string; tier: number; stake: string; max_spread_bps: number; open_matches: number; settled_count: number; avg_spread_bps: number }>>('svc_getMarketMakers', []);
  const settled = useCall<Order[]>('svc_listAtomenceSettlements', [null, null, 50]);
  return (
    <section>
      <h2>Settlement</h2>
      <Show data={stats}>
        {(s) => (
          <div data-testid="settlement-stats">
            <Fields rows={[
              ['Settlements', s.settled_count],
              ['Average spread', `${s.avg_spread_bps} bps`],
              ['Last settlement', s.last_settlement_block === null ? '—' : <a href={href('block', s.last_settlement_block)}>block {s.last_settlement_block}</a>],
              ['Active market makers', s.active_mm_count],
            ]} />
          </div>
        )}
      </Show>
      <h3>Market makers</h3>
      <Show data={makers}>
        {(list) => list.length === 0 ? <p class="muted">None.</p> : (
          <table class="list" data-testid="market-makers">
            <thead><tr><th>Maker</th><th>Tier</th><th>Stake</th><th>Max spread</th><th>Open</th><th>Settled</th><th>Avg spread</th></tr></thead>
            <tbody>
              {list.map((m) => (
                <tr key={m.address}>
                  <td><Addr value={m.address} /></td><td>{m.tier}</td><td><Amount raw={m.stake} token="NTV" /></td><td>{m.max_spread_bps} bps</td>
                  <td>{m.open_matches}</td><td>{m.settled_count}</td><td>{m.avg_spread_bps} bps</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Show>
      <h3>Latest settlements</h3>
      <Show data={settled}>
        {(list) => list.length === 0 ? <p class="muted">None yet.</p> : (
          <table class="list" data-testid="settlements">
            <thead><tr><th>Order</th><th>Delivered</th><th>Paid</th><th>Spread</th><th>Block</th></tr></thead>
            <tbody>
              {[...list].reverse().map((o) => (
                <tr key={o.order_id}>
                  <td><Hash value={o.order_id} to={href('order', o.order_id)} /></td>
                  <td><Amount raw={o.sell_amount} token={o.sell_token} /></td>
                  <td><Amount raw={o.bid_amount ?? '0'} token={o.buy_token} /></td>
                  <td>{o.spread_bps} bps</td>
                  <td>{o.closed_height !== null && <a href={href('block', o.closed_height)}>{o.closed_height}</a>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Show>
    </section>
  );
}

/** One settlement order's lifecycle record (svc_getAtomenceOrder). */
function OrderPage({ id }: { id: string }) {
  const order = useCall<Order | null>('svc_getAtomenceOrder', [id]);
  return (
    <section>
      <h2>Settlement order</h2>
      <Show data={order}>
        {(o) => o === null ? <p class="error">No order has this id.</p> : (
          <div data-testid="order">
            <Fields rows={[
              ['Order', <span class="mono">{o.order_id}</span>],
              ['State', <span class={o.state === 'settled' ? 'ok' : o.state === 'open' || o.state === 'matched' ? '' : 'muted'}>{o.state}{o.expired && (o.state === 'open' || o.state === 'matched') ? ' (past its expiry)' : ''}</span>],
              ['Creator', <Addr value={o.creator} />],
              ['Sells', <Amount raw={o.sell_amount} token={o.sell_token} />],
              ['For at least', <Amount raw={o.min_buy_amount} token={o.buy_token} />],
              ['Escrow', <Addr value={o.escrow} />],
              ['Expiry', <When ts={o.expiry} />],
              ['Created', <a href={href('block', o.created_height)}>block {o.created_height}</a>],
              ['Market maker', o.market_maker ? <Addr value={o.market_maker} /> : '—'],
              ['Bid / ask', o.bid_amount ? <><Amount raw={o.bid_amount} token={o.buy_token} /> / <Amount raw={o.ask_amount ?? '0'} token={o.buy_token} /> ({o.spread_bps} bps)</> : '—'],
              ['Closed', o.closed_height !== null ? <a href={href('block', o.closed_height)}>block {o.closed_height}</a> : '—'],
            ]} />
          </div>
        )}
      </Show>
    </section>
  );
}

function PoolsPage() {
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

function PoolPage({ a, b }: { a: string; b: string }) {
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

// ---------------------------------------------------------------- presales and staking pools

/** Presale amounts: the caps, limits and raise are in the pay token, the escrows and sold tokens in the sale token (docs/presales.md). */
const PAY_FIELDS = /^(soft_cap|hard_cap|min_contribution|max_contribution|raised|liquidity_paid|creator_proceeds)$/;
const SALE_FIELDS = /^(sale_escrow|liquidity_escrow|liquidity_tokens|tokens_sold)$/;
const TIME_FIELDS = /^(start_time|end_time|created_at|finalized_at|lp_lock_until|unlock_at)$/;

function presaleCell(p: Record<string, unknown>, k: string, v: unknown): ComponentChildren {
  if (PAY_FIELDS.test(k)) return <Amount raw={String(v)} token={String(p.pay_token)} testid={`presale-${k}`} />;
  if (SALE_FIELDS.test(k)) return <Amount raw={String(v)} token={String(p.token)} />;
  if (TIME_FIELDS.test(k) && typeof v === 'number') return <When ts={v} />;
  if (k === 'dex_pool') return <a href={href('pool', String(p.token), String(p.pay_token))}>{String(v)}</a>;
  return cell(k, v);
}

function PresalesPage() {
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

function PresalePage({ address }: { address: string }) {
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

const STAKE_FIELDS = /^(capacity|per_user_cap|total_staked)$/;
const REWARD_FIELDS = /^(reward_rate|reward_balance|reward_available|allocated|total_paid)$/;

function StakingPoolsPage() {
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

function StakingPoolPage({ address }: { address: string }) {
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

interface MultiSigTx {
  tx_id: string; state: string; proposer: string; description: string; operations: Array<Record<string, unknown>>; approvals: string[];
  created_height: number; expires_at: number; executed_height: number | null; status_name: string | null;
}

/** A multi-sig account (Nx5…; docs/accounts.md "Multi-sig"): its owners, threshold and proposals with their approvals. */
function MultiSigPage({ address }: { address: string }) {
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

/** The STD-8 stablecoins (docs/stablecoins.md), each linking to its page. */
function StablecoinsPage() {
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

interface StableInfo {
  mint: string; symbol: string; name: string; currency: string; issuer: string; badge: string; verification_status: string; reputation_points: number;
  total_supply: string; supply_cap: string | null; roles: Record<string, string>; guardians: string[]; paused: boolean; mint_frozen: boolean; quantum_required: boolean;
  timelock: number; epoch_length: number; current_epoch: number; mint_threshold: string; required_signers: number; authorized_cosigners: string[]; blacklisted_count: number;
  minters: Array<{ minter: string; allowance_remaining: string; epoch_limit: string; minted_in_epoch: string }>; origin_mappings: Array<{ chain: string; contract: string }>;
  launch_origin: string | null; created_height: number;
  pending: Array<{ id: string; kind: string; effective_height: number; proposer: string; role?: string; new_address?: string; minter?: string; allowance?: string; epoch_limit?: string;
    new_roles?: Record<string, string>; to?: string; amount?: string; approvals?: string[] }>;
}
interface StableOnboarding {
  proofs_recorded: number; proofs_required: number; missing: string[];
  proofs: Array<{ method: string; recorded_by: string; height: number; admin_address?: string; origin_chain_id?: number; evidence_digest?: string; detail?: string }>;
}

const Flag = ({ on, name }: { on: boolean; name: string }) => <span class={on ? 'flag on' : 'flag'} data-testid={`stable-${name}`}>{name.replace(/_/g, ' ')}: {on ? 'yes' : 'no'}</span>;
const Accounts = ({ list }: { list: string[] }) => (list.length > 0 ? <>{list.map((a) => <span class="kv" key={a}><Addr value={a} /></span>)}</> : <span class="muted">none</span>);

/**
 * An STD-8 stablecoin (docs/stablecoins.md; issue 19 item 6): roles, status flags, pending changes
 * with the height each unlocks at, minters and their allowances, supply and cap, and the issuer's
 * verification with its onboarding proofs.
 */
function StablecoinPage({ id }: { id: string }) {
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

// ---------------------------------------------------------------- search

type SearchResult =
  | { type: 'block'; height: number }
  | { type: 'transaction'; bundle_hash: string }
  | { type: 'address'; address: string }
  | { type: 'token'; mint_address: string }
  | { type: 'collection'; address: string }
  | { type: 'not_found'; query: string };

/** Routes a query: through svc_search (spec §4.11) when the node has it, else by the query's shape. */
async function search(query: string): Promise<string | undefined> {
  const q = query.trim();
  if (q === '') return undefined;
  const methods = await availableMethods();
  if (methods.has('svc_search')) {
    const found = await call<SearchResult>('svc_search', [q]).catch(() => undefined);
    switch (found?.type) {
      case 'block': return go('block', found.height);
      // An EVM hash stays in the URL (it is the one the user has), a bundle hash likewise.
      case 'transaction': return go('tx', q);
      case 'address': return go('address', found.address);
      case 'token': return go('token', found.mint_address);
      case 'collection': return go('collection', found.address);
      case 'not_found': return `Nothing found for “${q}”.`;
    }
  }
  switch (classify(q)) {
    case 'height': return go('block', Number(q));
    case 'address': return go('address', q);
    case 'mint': return go('token', q);
    case 'hash':
      if (await call<Receipt | null>('svc_getTransactionReceipt', [q]).catch(() => null)) return go('tx', q);
      // A 0x + 64 hex string is also the 32-byte form of an address.
      if (q.startsWith('0x')) return go('address', q);
      break;
    case 'symbol': {
      const token = await call<Token>('svc_getTokenInfo', [q]).catch(() => undefined);
      if (token) return go('token', token.mint_address);
      break;
    }
  }
  return `Nothing found for “${q}”.`;
}

function SearchBox() {
  const [query, setQuery] = useState('');
  const [message, setMessage] = useState<string>();
  return (
    <form
      class="search"
      onSubmit={async (e) => {
        e.preventDefault();
        setMessage(await search(query));
      }}
    >
      <input
        name="q"
        aria-label="Search"
        placeholder="Height, bundle or EVM tx hash, Nx0…/0x address, token symbol, Nx1… mint or 0x contract"
        value={query}
        onInput={(e) => setQuery((e.target as HTMLInputElement).value)}
      />
      <button type="submit">Search</button>
      {message && <span class="error">{message}</span>}
    </form>
  );
}

// ---------------------------------------------------------------- shell

function StatusLine() {
  const stats = useCall<{ blockHeight: number; network: string; chainId: number }>('svc_getNetworkStats', []);
  const [connected, setConnected] = useState(false);
  useEffect(() => {
    liveFeed().onStatus = setConnected;
  }, []);
  return (
    <span class="status">
      {stats.state === 'ok' && `${stats.value.network} · chain ${stats.value.chainId}`}
      <span class={connected ? 'dot on' : 'dot'} title={connected ? 'live' : 'reconnecting'} />
    </span>
  );
}

function App() {
  const route = useRoute();
  const page = useMemo(() => {
    const [name, a, b] = route;
    switch (name) {
      case 'block': return <BlockPage height={Number(a)} />;
      case 'tx': return <TxPage hash={a!} />;
      case 'address': return <AddressPage address={a!} />;
      case 'token': return <TokenPage id={a!} />;
      case 'collection': return <CollectionPage address={a!} />;
      case 'tokens': return <TokensPage />;
      case 'pools': return <PoolsPage />;
      case 'settlements': return <SettlementsPage />;
      case 'order': return <OrderPage id={a!} />;
      case 'pool': return <PoolPage a={a!} b={b!} />;
      case 'presales': return <PresalesPage />;
      case 'presale': return <PresalePage address={a!} />;
      case 'staking-pools': return <StakingPoolsPage />;
      case 'staking-pool': return <StakingPoolPage address={a!} />;
      case 'stablecoins': return <StablecoinsPage />;
      case 'multisig': return <MultiSigPage address={a!} />;
      case 'stablecoin': return <StablecoinPage id={a!} />;
      default: return <Home />;
    }
  }, [route.join('/')]);
  return (
    <>
      <header>
        <a href="#/" class="brand">ntv explorer</a>
        <nav><a href="#/">Blocks</a> <a href="#/tokens">Tokens</a> <a href="#/pools">Pools</a> <a href="#/presales">Presales</a> <a href="#/staking-pools">Staking pools</a> <a href="#/stablecoins">Stablecoins</a> <a href="#/settlements">Settlement</a></nav>
        <StatusLine />
      </header>
      <SearchBox />
      <main>{page}</main>
    </>
  );
}

adoptPathRoute();
render(<App />, document.getElementById('app')!);
