/**
 * The explorer's shared parts (docs/explorer.md): the shapes it reads (docs/methods.md, spec §6),
 * hash routing, the data hooks over JSON-RPC, token decimals and symbols, and the small components
 * every page and domain uses. Pages are in pages/, each domain's in domains/<name>.tsx.
 */
import { type ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { availableMethods, call, LiveFeed, RpcCallError } from './rpc.js';
import { evmFormOf, formatDate, formatUnits, shortHash, timeAgo, tokenFieldOf } from './format.js';

export interface Head {
  height: number; hash: string; parentHash: string; timestamp: number; proposer: string; stateRoot: string;
  transactionsRoot: string; gasUsed: number; gasLimit: number; baseFee: number; bundleCount: number;
}

export interface Receipt {
  bundle_hash: string; block_height: number; block_hash: string; index: number; timestamp: number; from: string; nonce: string;
  status: string; status_name: string; error?: string; gas_used: number; fee: string; events: Array<Record<string, unknown>>;
}

export interface Token {
  name: string; symbol: string; decimals: number; mint_address: string; evm_address?: string | null; total_supply: string; standard: string;
  owner: string; creator: string; badge: string | null;
}

export interface HistoryTransfer { direction: 'in' | 'out' | 'self'; counterparty: string; token: string; symbol: string | null; decimals: number | null; amount: string; event: string }

export type HistoryEntry = Receipt & { role: string; transfers?: HistoryTransfer[] };

export interface Account { address: string; evm_address: string; nonce: string; pending_nonce: string; balance: string }

export const NTV_DECIMALS = 9;

export const MAX_LIVE = 12;

/** A path route the node served this page on becomes the hash route (one code path for links). */
export function adoptPathRoute(): void {
  const m = /^\/(tx|address|block|token)\/([0-9A-Za-z]{1,128})\/?$/.exec(location.pathname);
  if (m) history.replaceState(null, '', `/#/${m[1]}/${m[2]}`);
}

export function useRoute(): string[] {
  const parse = () => location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const [route, setRoute] = useState(parse);
  useEffect(() => {
    const on = () => setRoute(parse());
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return route;
}

export const go = (...parts: Array<string | number>): undefined => {
  location.hash = '#/' + parts.map((p) => encodeURIComponent(String(p))).join('/');
};

export const href = (...parts: Array<string | number>) => '#/' + parts.map((p) => encodeURIComponent(String(p))).join('/');

export type Loaded<T> = { state: 'loading' } | { state: 'ok'; value: T } | { state: 'error'; message: string } | { state: 'unavailable'; method: string };

/** Calls a method once per key; `unavailable` when rpc.discover does not list it. */
export function useCall<T>(method: string, params: unknown[], key = JSON.stringify(params)): Loaded<T> {
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

export function Show<T>({ data, children }: { data: Loaded<T>; children: (value: T) => ComponentChildren }) {
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

export let feed: LiveFeed | undefined;

export function liveFeed(): LiveFeed {
  return (feed ??= new LiveFeed());
}

export const NTV_MINT = 'Nx1' + '1'.repeat(32); // the mint of 32 zero bytes

export const tokenCache = new Map<string, Promise<Token | undefined>>();

/** answers already in: a row drawn after them shows the amount at once (null: the node does not know the token) */
export const tokensKnown = new Map<string, Token | null>();

/** svc_getTokenInfo once per mint (or symbol) per page load; undefined when the node does not know it. */
export function tokenInfo(ref: string): Promise<Token | undefined> {
  let p = tokenCache.get(ref);
  if (!p) {
    p = call<Token>('svc_getTokenInfo', [ref]).catch(() => undefined);
    p.then((t) => tokensKnown.set(ref, t ?? null), () => {});
    tokenCache.set(ref, p);
  }
  return p;
}

/** The token's record; undefined while it is asked for, null when the node does not know the token. */
export function useToken(ref: string | undefined): Token | null | undefined {
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
export function Amount({ raw, token, testid }: { raw: string | number; token: string; testid?: string }) {
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

export const NTV_TOKEN: Token = { name: 'NTV', symbol: 'NTV', decimals: 9, mint_address: NTV_MINT, total_supply: '0', standard: 'native', owner: '', creator: '', badge: null };

export const Hash = ({ value, to }: { value: string; to?: string }) => (to ? <a href={to} class="mono" title={value}>{shortHash(value, 6)}</a> : <span class="mono" title={value}>{shortHash(value, 6)}</span>);

/** An account, linked to its page; an EVM-form account as the 0x address its wallet shows (issue 42 item 10). */
export const Addr = ({ value }: { value: string }) => {
  const evm = evmFormOf(value);
  if (!evm) return <Hash value={value} to={href('address', value)} />;
  return <a href={href('address', value)} class="mono" title={`${evm} (${value})`} data-evm="true">{shortHash(evm, 6)}</a>;
};

export const When = ({ ts }: { ts: number }) => <span title={formatDate(ts)}>{formatDate(ts)}</span>;

export const Ago = ({ ts, now }: { ts: number; now: number }) => <span title={formatDate(ts)}>{timeAgo(ts, now)}</span>;

export function Fields({ rows }: { rows: Array<[string, ComponentChildren]> }) {
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
export function GenericTable({ items, testid }: { items: Array<Record<string, unknown>>; testid?: string }) {
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

/**
 * The page of an address kind other than an account's (its `Nx` prefix → a domain's route), from
 * the domains' `addressRoutes`: the shell fills it at start (main.tsx), so this file, which every
 * domain imports, does not import the registry.
 */
export const addressRoutes = new Map<string, string>();

export function cell(key: string, value: unknown): ComponentChildren {
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
  const route = addressRoutes.get(text.slice(0, 3));
  if (route) return <Hash value={text} to={href(route, text)} />;
  // a DAO is also an account (its treasury), so it opens the address page
  if (text.startsWith('Nx7')) return <Hash value={text} to={href('address', text)} />;
  return text;
}

/** Fields of an event that are shown through their amount (the token) or not at all (pool internals). */
export const HIDDEN_EVENT_FIELDS = new Set(['type', 'op_index', 'symbol', 'reserve0', 'reserve1']);

/** A receipt's events, one row each: every amount with its token's decimals and symbol, the rest linked. */
export function Events({ events, testid }: { events: Array<Record<string, unknown>>; testid?: string }) {
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
export function Summary({ events }: { events: Array<Record<string, unknown>> }) {
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

export function merge<T>(list: T[], add: T[], key: (t: T) => string | number): T[] {
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

export function useNow(): number {
  const [now, setNow] = useState(Date.now() / 1000);
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now() / 1000), 1000);
    return () => clearInterval(t);
  }, []);
  return now;
}

/**
 * Where this node's history starts (svc_getNetworkStats historyFromHeight; docs/explorer.md "Where
 * history starts"): a node restored from a snapshot or an export, or pruned, lists nothing below it.
 */
export function HistoryStart() {
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
