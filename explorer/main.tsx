/**
 * The block explorer page the node serves on GET / (issue 6, spec §4.11). Hash routes keep every
 * page on `/`, so the node serves one HTML file: #/ (latest blocks and transactions, live over the
 * §6 subscriptions), #/block/:height, #/tx/:hash, #/address/:address, #/token/:symbolOrMint,
 * #/tokens, #/pools, #/pool/:a/:b. Methods not listed by rpc.discover show a
 * "not available on this node" note instead of failing.
 */
import { render, type ComponentChildren } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { availableMethods, call, LiveFeed, RpcCallError } from './rpc.js';
import { classify, formatUnits, shortHash, timeAgo } from './format.js';
import './style.css';

// ---------------------------------------------------------------- shapes (docs/methods.md, spec §6)

interface Head {
  height: number; hash: string; parentHash: string; timestamp: number; proposer: string; stateRoot: string;
  transactionsRoot: string; gasUsed: number; gasLimit: number; baseFee: number; bundleCount: number;
}
interface TxItem {
  blockHeight: number; blockHash?: string; bundleHash: string; from: string; operations?: string[]; gasUsed?: number; timestamp: number;
  status?: string;
}
interface Receipt {
  bundle_hash: string; block_height: number; block_hash: string; index: number; timestamp: number; from: string; nonce: string;
  status: string; status_name: string; error?: string; gas_used: number; fee: string; events: Array<Record<string, unknown>>;
}
interface Token { name: string; symbol: string; decimals: number; mint_address: string; total_supply: string; standard: string; owner: string; creator: string; badge: string | null }
interface Account { address: string; evm_address: string; nonce: string; pending_nonce: string; balance: string }

const NTV_DECIMALS = 9;
const MAX_LIVE = 12;

// ---------------------------------------------------------------- routing

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

// ---------------------------------------------------------------- small parts

const Hash = ({ value, to }: { value: string; to?: string }) => (to ? <a href={to} class="mono" title={value}>{shortHash(value)}</a> : <span class="mono" title={value}>{shortHash(value)}</span>);
const Addr = ({ value }: { value: string }) => <Hash value={value} to={href('address', value)} />;

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
  if (/hash$/i.test(key) && text.startsWith('Nxh')) return <Hash value={text} to={href('tx', text)} />;
  if (/height$/i.test(key) && typeof value === 'number') return <a href={href('block', value)}>{text}</a>;
  if (text.startsWith('Nx0')) return <Addr value={text} />;
  // System accounts (0x00…01–0x00…08, 0xff…ff) come in their 0x 32-byte form (spec §1.6).
  if (/^0x[0-9a-fA-F]{64}$/.test(text) && !/(hash|root)$/i.test(key)) return <Addr value={text} />;
  if (text.startsWith('Nx1')) return <Hash value={text} to={href('token', text)} />;
  if (text.startsWith('Nx2')) return <Hash value={text} to={href('collection', text)} />;
  return text;
}

// ---------------------------------------------------------------- pages

function Home() {
  const initialBlocks = useCall<Head[]>('svc_getRecentBlocks', [MAX_LIVE]);
  const initialTxs = useCall<TxItem[]>('svc_getRecentTransactions', [MAX_LIVE]);
  const [blocks, setBlocks] = useState<Head[]>([]);
  const [txs, setTxs] = useState<TxItem[]>([]);
  useEffect(() => {
    if (initialBlocks.state === 'ok') setBlocks((live) => merge(live, initialBlocks.value, (b) => b.height));
  }, [initialBlocks.state]);
  useEffect(() => {
    if (initialTxs.state === 'ok') setTxs((live) => merge(live, initialTxs.value.map(normaliseTx), (t) => t.bundleHash));
  }, [initialTxs.state]);
  useEffect(() => {
    const offHeads = liveFeed().subscribe('svc_subscribe_newHeads', (h) => setBlocks((list) => merge(list, [h as Head], (b) => b.height)));
    const offTxs = liveFeed().subscribe('svc_subscribe_newTransactions', (t) => setTxs((list) => merge(list, [t as TxItem], (x) => x.bundleHash)));
    return () => {
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
            <tr><th>Height</th><th>Hash</th><th>Bundles</th><th>Gas</th><th>Age</th></tr>
          </thead>
          <tbody>
            {blocks.map((b) => (
              <tr key={b.height} data-height={b.height}>
                <td><a href={href('block', b.height)}>{b.height}</a></td>
                <td><Hash value={b.hash} /></td>
                <td>{b.bundleCount}</td>
                <td>{b.gasUsed.toLocaleString('en-US')}</td>
                <td>{timeAgo(b.timestamp, now)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section>
        <h2>Latest transactions</h2>
        {initialTxs.state === 'unavailable' && <p class="note">History before this page opened is not available on this node (svc_getRecentTransactions); new ones appear live.</p>}
        {txs.length === 0 ? <p class="muted">No transactions since the page opened.</p> : (
          <table class="list" data-testid="latest-transactions">
            <thead>
              <tr><th>Bundle</th><th>From</th><th>Operations</th><th>Block</th><th>Age</th></tr>
            </thead>
            <tbody>
              {txs.map((t) => (
                <tr key={t.bundleHash}>
                  <td><Hash value={t.bundleHash} to={href('tx', t.bundleHash)} /></td>
                  <td><Addr value={t.from} /></td>
                  <td>{(t.operations ?? []).join(', ')}</td>
                  <td><a href={href('block', t.blockHeight)}>{t.blockHeight}</a></td>
                  <td>{timeAgo(t.timestamp, now)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}

/** svc_getRecentTransactions items may be receipts (snake case) or §6 items (camel case). */
function normaliseTx(raw: TxItem | Receipt): TxItem {
  if ('bundleHash' in raw) return raw;
  return { blockHeight: raw.block_height, blockHash: raw.block_hash, bundleHash: raw.bundle_hash, from: raw.from, timestamp: raw.timestamp, status: raw.status };
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
              ['Time', new Date(b.timestamp * 1000).toISOString()],
              ['Proposer', <Addr value={b.proposer} />],
              ['State root', <span class="mono">{b.stateRoot}</span>],
              ['Gas', `${b.gasUsed.toLocaleString('en-US')} / ${b.gasLimit.toLocaleString('en-US')} (base fee ${b.baseFee} nanoNTV)`],
              ['Transactions', `${b.tx_stats.total} (${b.tx_stats.failed} failed), fees ${formatUnits(String(b.tx_stats.total_fees), NTV_DECIMALS)} NTV`],
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

function TxPage({ hash }: { hash: string }) {
  const receipt = useCall<Receipt | null>('svc_getTransactionReceipt', [hash]);
  return (
    <section>
      <h2>Transaction</h2>
      <Show data={receipt}>
        {(r) => r === null ? <p class="error">No included bundle has this hash.</p> : (
          <>
            <Fields rows={[
              ['Hash', <span class="mono">{r.bundle_hash}</span>],
              ['Status', <span class={r.status === 'success' ? 'ok' : 'error'}>{r.status} ({r.status_name}){r.error ? ` — ${r.error}` : ''}</span>],
              ['Block', <a href={href('block', r.block_height)}>{r.block_height}</a>],
              ['Index', r.index],
              ['From', <Addr value={r.from} />],
              ['Nonce', r.nonce],
              ['Gas used', r.gas_used.toLocaleString('en-US')],
              ['Fee', `${formatUnits(r.fee, NTV_DECIMALS)} NTV`],
              ['Time', new Date(r.timestamp * 1000).toISOString()],
            ]} />
            <h3>Events</h3>
            <GenericTable items={r.events} />
          </>
        )}
      </Show>
    </section>
  );
}

function AddressPage({ address }: { address: string }) {
  const account = useCall<Account>('svc_getAccount', [address]);
  const tokens = useCall<Array<Record<string, unknown>>>('svc_getAddressTokens', [address]);
  const history = useCall<Array<Record<string, unknown>>>('svc_getAddressHistory', [address, 25]);
  const nfts = useCall<Array<Record<string, unknown>>>('svc_listNftsByOwner', [address, null, 25]);
  return (
    <section>
      <h2>Address</h2>
      <p class="mono">{address}</p>
      <Show data={account}>
        {(a) => (
          <Fields rows={[
            ['NTV balance', <span data-testid="account-balance">{formatUnits(a.balance, NTV_DECIMALS)} NTV</span>],
            ['EVM form', <span class="mono">{a.evm_address}</span>],
            ['Nonce', `${a.nonce} (next free ${a.pending_nonce})`],
          ]} />
        )}
      </Show>
      <h3>Token balances</h3>
      <Show data={tokens}>{(list) => <TokenBalances items={Array.isArray(list) ? list : []} />}</Show>
      <h3>NFTs</h3>
      <Show data={nfts}>{(list) => <GenericTable items={Array.isArray(list) ? list : []} testid="address-nfts" />}</Show>
      <h3>History</h3>
      <Show data={history}>{(list) => <GenericTable items={Array.isArray(list) ? list : []} testid="address-history" />}</Show>
    </section>
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

function TokenPage({ id }: { id: string }) {
  const token = useCall<Token>('svc_getTokenInfo', [id]);
  return (
    <section>
      <Show data={token}>
        {(t) => (
          <>
            <h2>{t.name} ({t.symbol}) {t.badge && <span class="badge">{t.badge}</span>}</h2>
            <Fields rows={[
              ['Mint', <span class="mono">{t.mint_address}</span>],
              ['Standard', t.standard],
              ['Decimals', t.decimals],
              ['Total supply', `${formatUnits(t.total_supply, t.decimals)} ${t.symbol}`],
              ['Owner', <Addr value={t.owner} />],
              ['Creator', <Addr value={t.creator} />],
            ]} />
            <h3>Holders</h3>
            <TokenHolders mint={t.mint_address} />
          </>
        )}
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

function TokenHolders({ mint }: { mint: string }) {
  const holders = useCall<Array<Record<string, unknown>>>('svc_getTokenHolders', [mint, 25]);
  return <Show data={holders}>{(list) => <GenericTable items={Array.isArray(list) ? list : []} />}</Show>;
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
                    <td>{String(p.reserve_a ?? '')} / {String(p.reserve_b ?? '')}</td>
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
      <h2>Pool {a} / {b}</h2>
      <Show data={pool}>
        {(p) => p === null ? <p class="error">No such pool.</p> : (
          <Fields rows={Object.entries(p).filter(([, v]) => typeof v !== 'object').map(([k, v]) => [k, cell(k, v as string)])} />
        )}
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
      case 'transaction': return go('tx', found.bundle_hash);
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
        placeholder="Block height, bundle hash, Nx0… address, token symbol or Nx1… mint"
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
      case 'pool': return <PoolPage a={a!} b={b!} />;
      default: return <Home />;
    }
  }, [route.join('/')]);
  return (
    <>
      <header>
        <a href="#/" class="brand">ntv explorer</a>
        <nav><a href="#/">Blocks</a> <a href="#/tokens">Tokens</a> <a href="#/pools">Pools</a></nav>
        <StatusLine />
      </header>
      <SearchBox />
      <main>{page}</main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
