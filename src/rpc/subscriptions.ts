/**
 * The subscription hub (spec §6): turns each durable block into newHeads, newTransactions and logs
 * notifications and pushes them to the WebSocket connections that asked for them.
 *
 * Delivery rules:
 * - §6.1: each subscription holds at most the notifications of its last 64 blocks that its
 *   connection could not take yet. A slow consumer skips: when a 65th block arrives the oldest
 *   queued block is dropped whole, never backfilled. The connection tells us it cannot take more by
 *   `RpcConnection.send()` returning false (socket closed, or its send buffer is over the server's
 *   `maxWsBufferedBytes`); nothing here ever waits on a client, so a slow client cannot slow blocks.
 * - §6.2: while the chain is in initial sync (`chain.syncing`), blocks produce no notifications.
 * - §6.3: hashes and addresses in native formats (Nxh…, Nx0…, Nx1…).
 * - Notifications are built once per block and kind, and only when a subscription of that kind
 *   exists; the work runs after the block's `block` event returns (setImmediate), so the block
 *   loop never waits on it.
 * - Fan-out costs the block path nothing measurable (issue 46: 200 connections × 32 subscriptions
 *   cut throughput from 499 to 20 transfers/s): each item is JSON-encoded once per block and the
 *   message to each subscriber is that text behind its subscription id; one client's messages go
 *   out corked into one write; and delivery runs in slices of at most `sliceMs`, resting between
 *   slices so it takes at most `fanoutShare` of the event loop while it has a backlog and bundles
 *   wait for a block (`idleFanoutShare` while none do). What does not
 *   fit waits in the subscription's queue, under the 64-block rule above (docs/subscriptions.md
 *   "Fan-out").
 * - Caps (issue 46): subscriptions in all (`maxTotal`) and per client IP (`maxPerIp`, a share small
 *   enough that a few addresses cannot take them all), beside the per-connection one.
 */
import { encodeAccount, encodeMint } from '../codec/address.js';
import { newHeadsFields } from './methods/format.js';
import { decodeBundle, type Operation } from '../codec/bundle.js';
import type { ProducedBlock } from '../chain/producer.js';
import { tokenMovements } from '../chain/token-movements.js';
import { isStakingReceiptEvent } from '../domains/staking/receipts.js';
import type { PendingBundle } from '../chain/mempool.js';
import { ethHashOf } from '../chain/evm/bundles.js';
import { blockViewOf, formatHead, syncStatus, type BlockView, type EthLog } from '../eth/format.js';
import type { Logger } from '../logger.js';
import { RpcError } from './errors.js';
import type { RpcConnection } from './registry.js';

/**
 * svc_* kinds (spec §6, native formats) and the eth_subscribe kinds (docs/eth.md "Events"): one hub
 * delivers both, so both get the same buffering, slow-consumer and sync rules; eth_* filters
 * (src/rpc/methods/eth-filters.ts) are subscriptions of the eth kinds on a polled connection.
 */
export type SubscriptionKind = 'newHeads' | 'newTransactions' | 'logs' | 'ethNewHeads' | 'ethLogs' | 'ethPendingTransactions' | 'ethSyncing';

/** The eth_subscribe kinds, whose notifications are `eth_subscription` in execution-apis shapes. */
export const ETH_KINDS: ReadonlySet<SubscriptionKind> = new Set(['ethNewHeads', 'ethLogs', 'ethPendingTransactions', 'ethSyncing']);

/** Spec §6 log filter: both parts optional; an absent or empty array matches anything. */
export interface LogFilter {
  opType?: readonly string[];
  /** Nx0… sender addresses (already normalised to the native form). */
  address?: readonly string[];
}

/** Spec §6 newHeads item. */
export interface NewHeadsItem {
  height: number; hash: string; parentHash: string; timestamp: number; proposer: string; stateRoot: string;
  transactionsRoot: string; gasUsed: number; gasLimit: number; baseFee: number; bundleCount: number;
}

/** Spec §6 newTransactions item. */
export interface NewTransactionItem {
  blockHeight: number; blockHash: string; bundleHash: string; bundleIndex: number; from: string;
  operations: string[]; gasUsed: number; timestamp: number;
}

/** Spec §6 logs item. */
export interface LogItem {
  blockHeight: number; blockHash: string; bundleHash: string; bundleIndex: number; opIndex: number; opType: string;
  from: string; data: Record<string, unknown>; timestamp: number;
}

/** What the hub needs from the chain: the `block` event (emitted once a block is durable) and the sync flag. */
export interface BlockSource {
  readonly syncing: boolean;
  /** where the catch-up started and its target, for the syncing status (absent: the block's height for all three) */
  readonly syncProgress?: { readonly startingHeight: number; readonly highestHeight: number };
  /** bundles waiting in the mempool: while there are any, the block path has work and fan-out yields more */
  readonly mempoolSize?: number;
  on(event: 'block', listener: (produced: ProducedBlock) => void): unknown;
  off(event: 'block', listener: (produced: ProducedBlock) => void): unknown;
  /** bundles entering the mempool (newPendingTransactions); a source without them has no pending feed */
  on(event: 'admitted', listener: (entry: PendingBundle) => void): unknown;
  off(event: 'admitted', listener: (entry: PendingBundle) => void): unknown;
}

/** What an eth kind's subscriber wants beyond its kind: a predicate over its items (eth log filters). */
export type ItemFilter = (item: unknown) => boolean;

export interface SubscriptionHubOptions {
  /** Spec §6.1 / §8: blocks a subscription may hold for a connection that cannot take them. Default 64. */
  readonly bufferBlocks?: number;
  /** Subscriptions one connection may hold; more is LIMIT_EXCEEDED. Default 32. */
  readonly maxPerConnection?: number;
  /**
   * Notifications one subscription may hold over all its queued blocks (a logs subscription on
   * 64 full blocks could otherwise hold 64 × 10,000 × 64 items). Beyond it the oldest blocks are
   * dropped as for the block bound; the newest block is always kept. Default 100,000.
   */
  readonly maxQueuedNotifications?: number;
  /** How often a subscription with a backlog retries its connection. Default 100 ms. */
  readonly retryIntervalMs?: number;
  /** Subscriptions on sockets in all; more is LIMIT_EXCEEDED. 0 = none. Default 10,000. */
  readonly maxTotal?: number;
  /** Subscriptions one client IP may hold over all its connections. 0 = none. Default 512. */
  readonly maxPerIp?: number;
  /** Whether maxPerIp applies to a client (loopback clients are exempt by default: src/rpc/connections.ts). */
  readonly perIpApplies?: (ip: string) => boolean;
  /** Longest delivery slice in ms before the hub yields the event loop. Default 4. */
  readonly sliceMs?: number;
  /**
   * Share of the event loop delivery may take while it has a backlog and the mempool holds bundles
   * (the block path has work), 0 < share ≤ 1. Default 0.02.
   */
  readonly fanoutShare?: number;
  /** The same while the mempool is empty (the node has time to spare). Default 0.25. */
  readonly idleFanoutShare?: number;
  /** Caps of the eth_* polled filters built on this hub (src/rpc/eth-filters.ts), set by the node's flags. */
  readonly filters?: { readonly maxTotal?: number; readonly maxPerIp?: number };
}

/** The JSON-RPC method of every svc_* notification (docs/subscriptions.md), after eth_subscription. */
export const NOTIFICATION_METHOD = 'svc_subscription';
/** The method of eth_subscribe notifications, as geth sends them. */
export const ETH_NOTIFICATION_METHOD = 'eth_subscription';

interface QueuedBlock {
  readonly height: number;
  /** `params.result` values, sent in order; undefined until built (on first delivery) */
  items: readonly unknown[] | undefined;
  /** builds the items: a block's are built when a subscriber is first served, inside a delivery slice */
  build?: (() => readonly unknown[]) | undefined;
  /** items already sent */
  next: number;
}

interface Subscription {
  readonly id: string;
  readonly kind: SubscriptionKind;
  readonly connection: RpcConnection;
  readonly filter: { opType?: ReadonlySet<string>; address?: ReadonlySet<string> } | undefined;
  /** eth kinds: items this subscriber wants (an eth log filter); all when absent */
  readonly match: ItemFilter | undefined;
  readonly method: string;
  /** the notification's text up to its result: `{"jsonrpc":"2.0","method":…,"params":{"subscription":id,"result":` */
  readonly prefix: string;
  /** the client's address when the subscription counts against the per-IP and global caps */
  readonly ip: string | undefined;
  /** false until the subscribe reply is on the wire, so no notification can precede it */
  live: boolean;
  readonly queue: QueuedBlock[];
  queued: number;
  /** blocks dropped for this subscription because its connection could not keep up */
  skippedBlocks: number;
}

/** Per-block notification items, each kind built on first need. */
interface BlockItems {
  heads?: NewHeadsItem[];
  transactions?: NewTransactionItem[];
  logs?: LogItem[];
  ethView?: BlockView;
  ethHeads?: unknown[];
  ethLogs?: EthLog[];
}

export class SubscriptionHub {
  readonly bufferBlocks: number;
  readonly maxPerConnection: number;
  readonly #maxQueued: number;
  readonly #retryMs: number;
  readonly #source: BlockSource;
  readonly #logger: Logger | undefined;
  readonly #byId = new Map<string, Subscription>();
  readonly #byConnection = new Map<number, Set<Subscription>>();
  readonly #count: Record<SubscriptionKind, number> = { newHeads: 0, newTransactions: 0, logs: 0, ethNewHeads: 0, ethLogs: 0, ethPendingTransactions: 0, ethSyncing: 0 };
  readonly #backlog = new Set<Subscription>();
  /** The sync flag as eth_subscribe("syncing") subscribers last heard it (they hear each change). */
  #wasSyncing = false;
  readonly maxTotal: number;
  readonly maxPerIp: number;
  readonly perIpApplies: (ip: string) => boolean;
  readonly filterOptions: { readonly maxTotal?: number; readonly maxPerIp?: number };
  readonly #sliceMs: number;
  readonly #share: number;
  readonly #idleShare: number;
  readonly #perIp = new Map<string, number>();
  /** subscriptions counted against maxTotal (those on sockets) */
  #counted = 0;
  #pumpTimer: NodeJS.Timeout | undefined;
  /** JSON text of each item object, encoded once however many subscribers it goes to */
  readonly #encoded = new WeakMap<object, string>();
  readonly #onBlock = (produced: ProducedBlock): void => {
    const syncing = this.#source.syncing;
    if (syncing !== this.#wasSyncing) {
      this.#wasSyncing = syncing;
      // geth's eth_subscribe("syncing"): {syncing: true, status} when a sync starts, false when it ends.
      const height = produced.block.header.height;
      const progress = this.#source.syncProgress ?? { startingHeight: height, highestHeight: height };
      if (this.#count.ethSyncing > 0) this.#publishItems('ethSyncing', -1, [syncing ? { syncing: true, status: syncStatus(height, progress) } : false]);
    }
    // Read the flag when the block is emitted: a block that arrived during sync stays silent (§6.2).
    if (syncing || this.#byId.size === 0) return;
    setImmediate(() => this.#publish(produced));
  };
  /** eth hashes of bundles admitted since the last pending batch was published */
  #pendingBatch: string[] | undefined;
  readonly #onAdmitted = (entry: PendingBundle): void => {
    if (this.#source.syncing || this.#count.ethPendingTransactions === 0) return;
    // One queue entry per tick of admissions: a burst of thousands is one entry, bounded like a block.
    if (this.#pendingBatch === undefined) {
      this.#pendingBatch = [];
      setImmediate(() => {
        const hashes = this.#pendingBatch ?? [];
        this.#pendingBatch = undefined;
        this.#publishItems('ethPendingTransactions', -1, hashes);
      });
    }
    this.#pendingBatch.push(ethHashOf(decodeBundle(entry.bytes), entry.hash));
  };
  #closed = false;

  constructor(source: BlockSource, options: SubscriptionHubOptions = {}, logger?: Logger) {
    this.bufferBlocks = options.bufferBlocks ?? 64;
    this.maxPerConnection = options.maxPerConnection ?? 32;
    this.#maxQueued = options.maxQueuedNotifications ?? 100_000;
    this.#retryMs = options.retryIntervalMs ?? 100;
    this.maxTotal = options.maxTotal ?? 10_000;
    this.maxPerIp = options.maxPerIp ?? 512;
    this.perIpApplies = options.perIpApplies ?? (() => true);
    this.filterOptions = options.filters ?? {};
    this.#sliceMs = options.sliceMs ?? 4;
    this.#share = options.fanoutShare ?? 0.02;
    this.#idleShare = options.idleFanoutShare ?? 0.25;
    for (const share of [this.#share, this.#idleShare]) if (!(share > 0 && share <= 1)) throw new RangeError('fan-out shares must be in (0, 1]');
    this.#source = source;
    this.#logger = logger;
    source.on('block', this.#onBlock);
    source.on('admitted', this.#onAdmitted);
  }

  get size(): number {
    return this.#byId.size;
  }

  /** Registers a subscription for the connection and returns its id (0x + 16 hex digits). */
  subscribe(kind: SubscriptionKind, connection: RpcConnection, filter?: LogFilter, match?: ItemFilter): string {
    let mine = this.#byConnection.get(connection.id);
    if (mine === undefined) {
      mine = new Set();
      this.#byConnection.set(connection.id, mine);
      connection.onClose(() => this.#dropConnection(connection.id));
    }
    if (mine.size >= this.maxPerConnection) {
      throw RpcError.app('LIMIT_EXCEEDED', `this connection already holds ${this.maxPerConnection} subscriptions, the most one connection may hold; unsubscribe first`, {
        limit: this.maxPerConnection,
      });
    }
    const ip = connection.ip;
    if (ip !== undefined) {
      if (this.maxTotal > 0 && this.#counted >= this.maxTotal) {
        throw RpcError.app('LIMIT_EXCEEDED', `the node already holds ${this.maxTotal} subscriptions, the most it serves (--rpc-max-subscriptions); try later`, {
          limit: this.maxTotal, reason: 'SUBSCRIPTIONS_FULL',
        });
      }
      const held = this.#perIp.get(ip) ?? 0;
      if (this.maxPerIp > 0 && held >= this.maxPerIp && this.perIpApplies(ip)) {
        throw RpcError.app('LIMIT_EXCEEDED', `this address already holds ${this.maxPerIp} subscriptions over its connections, its share of the node's (--rpc-max-subscriptions-per-ip); unsubscribe first`, {
          limit: this.maxPerIp, reason: 'IP_SUBSCRIPTIONS_FULL',
        });
      }
      this.#perIp.set(ip, held + 1);
      this.#counted++;
    }
    let id: string;
    do id = '0x' + randomHex(8);
    while (this.#byId.has(id));
    const method = ETH_KINDS.has(kind) ? ETH_NOTIFICATION_METHOD : NOTIFICATION_METHOD;
    const sub: Subscription = {
      id, kind, connection, live: false, queue: [], queued: 0, skippedBlocks: 0, match, method, ip,
      prefix: `{"jsonrpc":"2.0","method":"${method}","params":{"subscription":"${id}","result":`,
      filter: filter === undefined ? undefined : {
        ...(filter.opType?.length ? { opType: new Set(filter.opType) } : {}),
        ...(filter.address?.length ? { address: new Set(filter.address) } : {}),
      },
    };
    this.#byId.set(id, sub);
    mine.add(sub);
    this.#count[kind]++;
    // The subscribe reply is written in the promise continuation of this call; setImmediate runs
    // after it, so the client always learns the id before the first notification carrying it.
    setImmediate(() => (sub.live = true));
    return id;
  }

  /** Removes the connection's subscription of that kind; false when it holds no such id. */
  unsubscribe(kind: SubscriptionKind | ReadonlySet<SubscriptionKind>, connection: RpcConnection, id: string): boolean {
    const sub = this.#byId.get(id);
    const kindMatches = typeof kind === 'string' ? sub?.kind === kind : sub !== undefined && kind.has(sub.kind);
    if (sub === undefined || !kindMatches || sub.connection.id !== connection.id) return false;
    this.#remove(sub);
    return true;
  }

  /** Detaches from the chain and forgets every subscription (node shutdown). */
  close(): void {
    this.#closed = true;
    this.#source.off('block', this.#onBlock);
    this.#source.off('admitted', this.#onAdmitted);
    if (this.#pumpTimer !== undefined) clearTimeout(this.#pumpTimer);
    this.#pumpTimer = undefined;
    for (const sub of [...this.#byId.values()]) this.#remove(sub);
  }

  // ---------------------------------------------------------------- delivery

  #publish(produced: ProducedBlock): void {
    if (this.#closed) return;
    const started = performance.now();
    const built: BlockItems = {};
    const height = produced.block.header.height;
    for (const sub of this.#byId.values()) {
      if (!sub.live || sub.kind === 'ethPendingTransactions' || sub.kind === 'ethSyncing') continue;
      // Built on first delivery, inside a slice (#flush), once per kind for all subscribers
      // (`built`): decoding a block's bundles and its eth view counts against the fan-out's share,
      // and a block a slow subscriber skips (spec §6.1) is never built for it.
      this.#enqueue(sub, { height, items: undefined, build: () => this.#itemsFor(sub, produced, built), next: 0 });
    }
    this.#pump(performance.now() - started);
  }

  /** Items not tied to a block (pending transactions): queued and bounded like a block's. */
  #publishItems(kind: SubscriptionKind, height: number, all: readonly unknown[]): void {
    if (this.#closed || all.length === 0) return;
    for (const sub of this.#byId.values()) {
      if (!sub.live || sub.kind !== kind) continue;
      const items = sub.match === undefined ? all : all.filter(sub.match);
      if (items.length === 0) continue;
      this.#enqueue(sub, { height, items, next: 0 });
    }
    this.#pump();
  }

  #itemsFor(sub: Subscription, produced: ProducedBlock, built: BlockItems): readonly unknown[] {
    switch (sub.kind) {
      case 'ethNewHeads':
        return (built.ethHeads ??= [formatHead((built.ethView ??= blockViewOf(produced.block, produced.receipts)))]);
      case 'ethLogs': {
        // The same logs, in the same order and with the same indexes, as eth_getLogs returns.
        const all = (built.ethLogs ??= (built.ethView ??= blockViewOf(produced.block, produced.receipts)).items.flatMap((i) => i.logs));
        return sub.match === undefined ? all : all.filter(sub.match);
      }
      case 'ethPendingTransactions':
      case 'ethSyncing':
        return [];
      case 'newHeads':
        return (built.heads ??= [headItem(produced)]);
      case 'newTransactions':
        return (built.transactions ??= transactionItems(produced));
      case 'logs': {
        const all = (built.logs ??= logItems(produced));
        const f = sub.filter;
        if (f === undefined || (f.opType === undefined && f.address === undefined)) return all;
        return all.filter((l) => (f.opType === undefined || f.opType.has(l.opType)) && (f.address === undefined || f.address.has(l.from)));
      }
    }
  }

  /** Spec §6.1: at most bufferBlocks blocks (and maxQueued items) wait; the oldest go first. */
  #enqueue(sub: Subscription, block: QueuedBlock): void {
    this.#backlog.add(sub);
    sub.queue.push(block);
    sub.queued += block.items?.length ?? 0;
    while (sub.queue.length > 1 && (sub.queue.length > this.bufferBlocks || sub.queued > this.#maxQueued)) {
      const dropped = sub.queue.shift()!;
      sub.queued -= (dropped.items?.length ?? 0) - dropped.next;
      sub.skippedBlocks++;
    }
  }

  /**
   * Delivers queued notifications for at most sliceMs, one client at a time with its socket corked;
   * then rests so that delivery takes at most fanoutShare of the loop, and goes on. Subscriptions
   * whose connection takes nothing more (its buffer is full) wait for the retry interval.
   */
  #pump(spentMs = 0): void {
    if (this.#pumpTimer !== undefined || this.#closed) return;
    const started = performance.now() - spentMs;
    const deadline = started + this.#sliceMs;
    if (spentMs >= this.#sliceMs && this.#backlog.size > 0) return this.#rest(spentMs);
    const byConnection = new Map<RpcConnection, Subscription[]>();
    for (const sub of this.#backlog) {
      const list = byConnection.get(sub.connection);
      if (list === undefined) byConnection.set(sub.connection, [sub]);
      else list.push(sub);
    }
    let outOfTime = false;
    for (const [connection, subs] of byConnection) {
      const run = (): void => {
        for (const sub of subs) {
          if (this.#flush(sub, deadline) === 'timeout') {
            outOfTime = true;
            return;
          }
        }
      };
      if (connection.cork !== undefined) connection.cork(run);
      else run();
      // Served last next time: a client with much to take does not always go first.
      for (const sub of subs) {
        if (this.#backlog.delete(sub) && sub.queue.length > 0) this.#backlog.add(sub);
      }
      if (outOfTime || performance.now() >= deadline) {
        outOfTime = true;
        break;
      }
    }
    if (this.#backlog.size === 0) return;
    // Out of time: rest in proportion to the slice; else only blocked connections are left.
    if (outOfTime) this.#rest(performance.now() - started);
    else this.#schedulePump(this.#retryMs);
  }

  /**
   * Rests after `usedMs` of work so that delivery takes at most its share of the loop: fanoutShare
   * while bundles wait for a block, idleFanoutShare while none do.
   */
  #rest(usedMs: number): void {
    const share = (this.#source.mempoolSize ?? 0) > 0 ? this.#share : this.#idleShare;
    this.#schedulePump(Math.max(1, usedMs * (1 / share - 1)));
  }

  #schedulePump(delayMs: number): void {
    this.#pumpTimer = setTimeout(() => {
      this.#pumpTimer = undefined;
      this.#pump();
    }, delayMs);
    this.#pumpTimer.unref();
  }

  /** Sends what the connection takes until the deadline; keeps the rest for the next slice. */
  #flush(sub: Subscription, deadline: number): 'done' | 'blocked' | 'timeout' {
    const { queue, connection, id } = sub;
    const sendText = connection.sendText;
    let n = 0;
    while (queue.length > 0) {
      const block = queue[0]!;
      if (block.items === undefined) {
        block.items = block.build!();
        block.build = undefined;
        sub.queued += block.items.length;
        // A block with nothing for this subscription counts as delivered.
        if (block.items.length === 0) {
          queue.shift();
          continue;
        }
      }
      const items = block.items;
      while (block.next < items.length) {
        const item = items[block.next];
        const sent = sendText !== undefined
          ? sendText(sub.prefix + this.#encode(item) + '}}')
          : connection.send({ jsonrpc: '2.0', method: sub.method, params: { subscription: id, result: item } });
        if (!sent) return 'blocked';
        block.next++;
        sub.queued--;
        if ((++n & 31) === 0 && performance.now() >= deadline) {
          if (block.next === items.length) queue.shift();
          return queue.length === 0 ? 'done' : 'timeout';
        }
      }
      queue.shift();
    }
    return 'done';
  }

  /** An item's JSON text, encoded once for all the subscribers it goes to. */
  #encode(item: unknown): string {
    if (typeof item !== 'object' || item === null) return JSON.stringify(item);
    let text = this.#encoded.get(item);
    if (text === undefined) {
      text = JSON.stringify(item);
      this.#encoded.set(item, text);
    }
    return text;
  }

  #remove(sub: Subscription): void {
    if (!this.#byId.delete(sub.id)) return;
    this.#count[sub.kind]--;
    if (sub.ip !== undefined) {
      this.#counted--;
      const n = (this.#perIp.get(sub.ip) ?? 1) - 1;
      if (n <= 0) this.#perIp.delete(sub.ip);
      else this.#perIp.set(sub.ip, n);
    }
    this.#backlog.delete(sub);
    const mine = this.#byConnection.get(sub.connection.id);
    mine?.delete(sub);
    if (sub.skippedBlocks > 0) this.#logger?.debug('subscription closed after skipping blocks', { id: sub.id, kind: sub.kind, skippedBlocks: sub.skippedBlocks });
  }

  #dropConnection(connectionId: number): void {
    const mine = this.#byConnection.get(connectionId);
    if (mine === undefined) return;
    for (const sub of [...mine]) this.#remove(sub);
    this.#byConnection.delete(connectionId);
  }

  /** Live subscriptions per kind (tests, metrics). */
  counts(): Readonly<Record<SubscriptionKind, number>> {
    return { ...this.#count };
  }
}

// ------------------------------------------------------------------ items (spec §6 shapes)

function headItem({ block: { header } }: ProducedBlock): NewHeadsItem {
  return newHeadsFields(header);
}

/** Every bundle in the block, failed ones included (they are in the block and paid their fee). */
function transactionItems({ block, receipts }: ProducedBlock): NewTransactionItem[] {
  return receipts.map((r, i) => ({
    blockHeight: r.block_height,
    blockHash: r.block_hash,
    bundleHash: r.bundle_hash,
    bundleIndex: r.index,
    from: r.from,
    operations: decodeBundle(block.bundles[i]!).operations.map((op) => op.type),
    gasUsed: r.gas_used,
    timestamp: r.timestamp,
  }));
}

/**
 * One item per operation of each successful bundle. A failed bundle is reverted whole (spec §7.5),
 * so its operations had no effect and produce no log; newTransactions still reports the bundle.
 */
function logItems({ block, receipts }: ProducedBlock): LogItem[] {
  const out: LogItem[] = [];
  receipts.forEach((r, i) => {
    if (r.status !== 'success') return;
    decodeBundle(block.bundles[i]!).operations.forEach((op, opIndex) => {
      // The token movements the operation made, the same list eth_getLogs shows as ERC-20
      // Transfers (src/chain/token-movements.ts): a swap names both legs, which its fields do not.
      const own = r.events.filter((e) => e.op_index === opIndex);
      const transfers = own.flatMap(tokenMovements);
      // A staking operation's event (docs/staking.md "Events", issue 41 item 8): what it did, which
      // its fields do not say (a claim's paid amount, the stake or delegation after, a release time).
      const event = own.find(isStakingReceiptEvent);
      out.push({
        blockHeight: r.block_height, blockHash: r.block_hash, bundleHash: r.bundle_hash, bundleIndex: r.index, opIndex,
        opType: op.type, from: r.from, data: event ? { ...opData(op), transfers, event } : { ...opData(op), transfers }, timestamp: r.timestamp,
      });
    });
  });
  return out;
}

/**
 * `data` of a log (spec §6: for a transfer {to, token, amount}; other shapes "not shown", so ours
 * are the operation's fields): 32-byte accounts as Nx0…, mints as Nx1…, u128 as decimal strings,
 * other bytes as 0x hex. logItems adds `transfers`, the token movements the operation made,
 * and for a staking operation `event`, its staking event.
 */
export function opData(op: Operation): Record<string, unknown> {
  switch (op.type) {
    case 'Transfer':
      return { to: encodeAccount(op.to), token: encodeMint(op.token), amount: op.amount.toString() };
    case 'Approve':
      return { token: encodeMint(op.token), spender: encodeAccount(op.spender), amount: op.amount.toString() };
    case 'TransferFrom':
      return { token: encodeMint(op.token), from: encodeAccount(op.from), to: encodeAccount(op.to), amount: op.amount.toString() };
    case 'CreateToken':
      return { name: op.name, symbol: op.symbol, decimals: op.decimals, supply: op.supply.toString(), owner: encodeAccount(op.owner) };
    default: {
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(op)) {
        if (key === 'type') continue;
        out[key] = value instanceof Uint8Array ? '0x' + Buffer.from(value).toString('hex') : typeof value === 'bigint' ? value.toString() : value;
      }
      return out;
    }
  }
}

function randomHex(bytes: number): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('hex');
}
