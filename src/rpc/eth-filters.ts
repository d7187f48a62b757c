/**
 * eth_* polling filters (eth_newFilter, eth_newBlockFilter, eth_newPendingTransactionFilter;
 * docs/eth.md "Events"). A filter is a subscription of the one hub (src/rpc/subscriptions.ts) whose
 * connection is a buffer instead of a socket: the hub pushes the same items it sends eth_subscribe
 * clients, with the same per-block bound for a client that stops reading (spec §6.1), and
 * eth_getFilterChanges drains the buffer. As geth does, a filter nobody polls for 5 minutes is
 * removed, and the number of filters is bounded in all and per client IP (HTTP has no
 * connection). The global cap is what bounds memory (issue 46: 25,600 filters from 100 addresses
 * added 2 GB until they expired); the per-IP share is small enough that a few addresses cannot take
 * them all (docs/eth.md "Events", docs/rpc.md "Subscriptions and filters").
 */
import { RpcError } from './errors.js';
import type { RpcConnection } from './registry.js';
import type { ItemFilter, SubscriptionHub, SubscriptionKind } from './subscriptions.js';

export interface FilterOptions {
  /** A filter not polled for this long is removed (geth: 5 minutes). */
  readonly timeoutMs?: number;
  /** Installed filters one IP may hold at most; more is LIMIT_EXCEEDED. Default 128. */
  readonly maxPerIp?: number;
  /** Installed filters in all at most; more is LIMIT_EXCEEDED. Default 4096. */
  readonly maxTotal?: number;
  /** Whether maxPerIp applies to an IP (loopback exempt by default); default the hub's. */
  readonly perIpApplies?: (ip: string) => boolean;
  /** Items one filter holds for its next poll at most; beyond it the hub keeps its last 64 blocks. */
  readonly maxBuffered?: number;
}

export type FilterKind = 'block' | 'pendingTransaction' | 'logs';

const HUB_KIND: Record<FilterKind, SubscriptionKind> = { block: 'ethNewHeads', pendingTransaction: 'ethPendingTransactions', logs: 'ethLogs' };

interface InstalledFilter<C> {
  readonly kind: FilterKind;
  readonly ip: string;
  readonly criteria: C | undefined;
  readonly connection: RpcConnection & { close(): void };
  buffer: unknown[];
  lastPoll: number;
}

/** Pseudo-connection ids count down from -1, so they never meet a socket's (positive) id. */
let nextPseudoId = -1;

export class FilterRegistry<C = unknown> {
  readonly timeoutMs: number;
  readonly maxPerIp: number;
  readonly maxTotal: number;
  readonly maxBuffered: number;
  readonly #perIpApplies: (ip: string) => boolean;
  readonly #hub: SubscriptionHub;
  readonly #filters = new Map<string, InstalledFilter<C>>();
  readonly #perIp = new Map<string, number>();
  readonly #sweep: NodeJS.Timeout;

  constructor(hub: SubscriptionHub, options: FilterOptions = {}) {
    this.#hub = hub;
    this.timeoutMs = options.timeoutMs ?? 5 * 60_000;
    this.maxPerIp = options.maxPerIp ?? numberOr(hub.filterOptions?.maxPerIp, 128);
    this.maxTotal = options.maxTotal ?? numberOr(hub.filterOptions?.maxTotal, 4096);
    this.#perIpApplies = options.perIpApplies ?? hub.perIpApplies;
    this.maxBuffered = options.maxBuffered ?? 10_000;
    this.#sweep = setInterval(() => this.expire(Date.now()), Math.max(1_000, Math.min(30_000, this.timeoutMs / 4)));
    this.#sweep.unref();
  }

  get size(): number {
    return this.#filters.size;
  }

  /**
   * Installs a filter for `ip` and returns its id. `map` turns a hub item into what the poll returns
   * (a block header into its hash); `match` keeps only the wanted items (a log filter).
   */
  install(kind: FilterKind, ip: string, options: { criteria?: C; match?: ItemFilter; map?: (item: unknown) => unknown } = {}): string {
    const held = this.#perIp.get(ip) ?? 0;
    if (this.maxTotal > 0 && this.#filters.size >= this.maxTotal) {
      throw RpcError.app('LIMIT_EXCEEDED', `the node already holds ${this.maxTotal} filters, the most it keeps (--rpc-max-filters); uninstall one (eth_uninstallFilter) or let unpolled ones expire`, {
        limit: this.maxTotal, reason: 'FILTERS_FULL',
      });
    }
    if (this.maxPerIp > 0 && held >= this.maxPerIp && this.#perIpApplies(ip)) {
      throw RpcError.app('LIMIT_EXCEEDED', `this address already holds ${this.maxPerIp} filters, its share of the node's (--rpc-max-filters-per-ip); uninstall one (eth_uninstallFilter) or let unpolled ones expire`, {
        limit: this.maxPerIp, reason: 'IP_FILTERS_FULL',
      });
    }
    const closers: Array<() => void> = [];
    const map = options.map;
    let filter: InstalledFilter<C> | undefined;
    const connection = {
      id: nextPseudoId--,
      // The hub sends {params: {result}}; the filter keeps the result until polled. A full buffer
      // refuses, and the hub then keeps the filter's last blocks only (slow-consumer rule, spec §6.1).
      send: (message: unknown): boolean => {
        if (filter === undefined || filter.buffer.length >= this.maxBuffered) return false;
        const item = (message as { params: { result: unknown } }).params.result;
        filter.buffer.push(map ? map(item) : item);
        return true;
      },
      onClose: (fn: () => void) => void closers.push(fn),
      close: () => {
        for (const fn of closers.splice(0)) fn();
      },
    };
    const id = this.#hub.subscribe(HUB_KIND[kind], connection, undefined, options.match);
    filter = { kind, ip, criteria: options.criteria, connection, buffer: [], lastPoll: Date.now() };
    this.#filters.set(id, filter);
    this.#perIp.set(ip, held + 1);
    return id;
  }

  /** The filter of an id, or geth's -32000 "filter not found" (viem then installs a new one). */
  get(id: string): { kind: FilterKind; criteria: C | undefined } {
    const filter = this.#filters.get(id.toLowerCase());
    if (filter === undefined) throw filterNotFound(id);
    filter.lastPoll = Date.now();
    return filter;
  }

  /** What arrived since the last poll, in order; resets the expiry clock. */
  changes(id: string): unknown[] {
    const filter = this.#filters.get(id.toLowerCase());
    if (filter === undefined) throw filterNotFound(id);
    filter.lastPoll = Date.now();
    const out = filter.buffer;
    filter.buffer = [];
    return out;
  }

  uninstall(id: string): boolean {
    const key = id.toLowerCase();
    const filter = this.#filters.get(key);
    if (filter === undefined) return false;
    this.#filters.delete(key);
    const n = (this.#perIp.get(filter.ip) ?? 1) - 1;
    if (n <= 0) this.#perIp.delete(filter.ip);
    else this.#perIp.set(filter.ip, n);
    filter.connection.close();
    return true;
  }

  /** Removes filters not polled within timeoutMs of `now` (run by the sweep timer; tests call it). */
  expire(now: number): number {
    let removed = 0;
    for (const [id, filter] of [...this.#filters]) {
      if (now - filter.lastPoll >= this.timeoutMs && this.uninstall(id)) removed++;
    }
    return removed;
  }

  close(): void {
    clearInterval(this.#sweep);
    for (const id of [...this.#filters.keys()]) this.uninstall(id);
  }
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' ? value : fallback;
}

function filterNotFound(id: string): RpcError {
  // geth's code and text: wallet libraries re-install a filter on it (viem treats -32000 so).
  return new RpcError(-32000, 'filter not found', { filter: id, reason: 'FILTER_NOT_FOUND' });
}
