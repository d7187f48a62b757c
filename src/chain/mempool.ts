/**
 * Bundles waiting for a block, per account in nonce order (spec §5.8, §7.6: a bundle whose nonce is
 * ahead of the account waits until the earlier nonces execute). The pending-nonce tracker hands
 * out the next free nonce synchronously, so concurrent convenience calls from one address never
 * collide (spec §4 intro).
 *
 * The pool is bounded (docs/mempool.md): per account, the bundles behind a nonce gap ("queued", as
 * opposed to the contiguous "ready" run from the committed nonce) are capped in number and in how
 * far ahead they may be; queued bundles across accounts have their own cap, so parked bundles
 * cannot crowd out executable ones; the whole pool has a cap at which a bundle paying a higher
 * max_priority_fee evicts the cheapest one; a same-nonce replacement must raise the fee by 10%;
 * and no bundle waits longer than its validity or the pool's lifetime. Every admission is O(log n).
 */
import { MinHeap } from './min-heap.js';

export interface BundleAuth {
  /** 0 unsigned, 1 Ed25519 verified, 2 ML-DSA-65 verified (docs/core-abi.md BundleInput.auth) */
  kind: number;
  keyHash: Uint8Array;
  /** the verifying key when it came from `sender_pubkey`, else empty */
  pubkey: Uint8Array;
  /**
   * An EVM transaction's own fee fields, wei per gas (auth 3; docs/eth.md "Replacement"): `tip`
   * its maxPriorityFeePerGas and `cap` its maxFeePerGas, or both its gasPrice (legacy, EIP-2930),
   * as geth's txpool reads them. A same-nonce replacement between two EVM transactions follows
   * geth's rule on these, wei-exact, rather than the bundle's max_priority_fee in nanoNTV.
   */
  evmFees?: EvmFees;
}

export interface EvmFees {
  tip: bigint;
  cap: bigint;
}

export interface PendingBundle {
  hash: Uint8Array;
  hashKey: string;
  bytes: Uint8Array;
  account: Uint8Array;
  accountKey: string;
  nonce: bigint;
  /** the earlier of valid_until and expiry_timestamp, unix seconds */
  expiresAt: bigint;
  /** max_priority_fee, nanoNTV per gas on top of the gas price: what orders eviction and replacement */
  priorityFee: bigint;
  auth: BundleAuth;
  /** nonce chosen by this node (unsigned convenience methods) rather than by a signer */
  nodeAssigned: boolean;
  /** the NTV the bundle may take from its sender (src/chain/admission/funds.ts ntvCommitment); absent: not counted */
  ntvCost?: bigint;
}

/** The operator's bounds (docs/mempool.md has each default and its reason). */
export interface MempoolLimits {
  /** bundles in the pool at most, ready and queued (--mempool-max) */
  maxBundles: number;
  /** queued bundles across all accounts at most (--mempool-max-queued) */
  maxQueued: number;
  /** queued bundles of one account at most (--mempool-max-queued-per-account) */
  maxQueuedPerAccount: number;
  /** how far a nonce may be past the account's next free one (--mempool-max-nonce-gap) */
  maxNonceGap: bigint;
  /** seconds a bundle may wait at most, whatever its valid_until (--mempool-lifetime) */
  lifetimeSeconds: bigint;
}

export const DEFAULT_MEMPOOL_LIMITS: MempoolLimits = {
  maxBundles: 200_000,
  maxQueued: 20_000,
  maxQueuedPerAccount: 64,
  maxNonceGap: 256n,
  lifetimeSeconds: 3n * 3600n,
};

/** A same-nonce replacement must pay this many percent more max_priority_fee (geth's price bump). */
export const REPLACEMENT_BUMP_PERCENT = 10n;

/**
 * geth's replacement rule (core/txpool/legacypool list.go `Add`, price bump 10%) when both are EVM
 * transactions: the new one must pay strictly more on both fields, and at least old × 110 / 100
 * (rounded down) on each, in wei. undefined when either is not an EVM transaction.
 */
export function evmReplacement(old: EvmFees | undefined, next: EvmFees | undefined): { ok: boolean; min: EvmFees } | undefined {
  if (!old || !next) return undefined;
  const bump = (v: bigint) => (v * (100n + REPLACEMENT_BUMP_PERCENT)) / 100n;
  const min = { tip: bump(old.tip) > old.tip ? bump(old.tip) : old.tip + 1n, cap: bump(old.cap) > old.cap ? bump(old.cap) : old.cap + 1n };
  return { ok: next.tip >= min.tip && next.cap >= min.cap, min };
}

export type RefusalStatus =
  | 'NONCE_TOO_LOW'
  | 'REPLACEMENT_UNDERPRICED'
  | 'NONCE_GAP_TOO_LARGE'
  | 'ACCOUNT_QUEUE_FULL'
  | 'QUEUE_FULL'
  | 'MEMPOOL_FULL';

export interface MempoolRefusal {
  status: RefusalStatus;
  /** the account's next free nonce (committed nonce plus the ready run) */
  nextNonce: bigint;
  /** the limit that refused it (NONCE_GAP_TOO_LARGE, *_QUEUE_FULL, MEMPOOL_FULL) */
  limit?: number | bigint;
  /** what a bundle must pay to get in (REPLACEMENT_UNDERPRICED, MEMPOOL_FULL) */
  minPriorityFee?: bigint;
  /** the bundle it would have replaced (REPLACEMENT_UNDERPRICED) */
  pending?: PendingBundle;
  /** an EVM replacement's thresholds, wei per gas (REPLACEMENT_UNDERPRICED between EVM transactions) */
  minEvmFees?: EvmFees;
}

/** A bundle that left the pool other than by executing: its waiting callers are answered. */
export interface DroppedBundle {
  entry: PendingBundle;
  /**
   * REPLACED by a same-nonce bundle paying more; EVICTED from the full pool by a better-paying
   * bundle; NONCE_USED: another bundle of that nonce executed; EXPIRED past its validity;
   * LIFETIME: waited longer than --mempool-lifetime.
   */
  reason: 'REPLACED' | 'EVICTED' | 'NONCE_USED' | 'EXPIRED' | 'LIFETIME';
  /** the bundle that replaced or evicted it */
  by?: PendingBundle;
}

export type MempoolAdmission =
  | { ok: true; queued: boolean; nextNonce: bigint; dropped: DroppedBundle[] }
  | { ok: false; refusal: MempoolRefusal; dropped: DroppedBundle[] };

/**
 * One account's bundles. Nonces are kept as offsets from `base` (a nonce the account had when its
 * queue was made), plain numbers: selecting, promoting and executing a bundle then take no bigint
 * arithmetic and no bigint-keyed Map (each `next++` on a bigint was an allocation, and hashing a
 * bigint key is slower than a small integer's; docs/performance.md "Selection from a pool of queued
 * bundles"). The window of offsets in use is bounded by the ready run plus --mempool-max-nonce-gap.
 */
interface AccountQueue {
  readonly key: string;
  readonly base: bigint;
  /** offset of the committed nonce: the next one that can execute */
  lo: number;
  /**
   * Offset of the first nonce after the ready run: every offset in [lo, hi) is here, `hi` is not.
   * Bundles at `hi` or above are queued. No bundle below `lo` is kept.
   */
  hi: number;
  /** bundles at `hi` or above, kept as bundles come and go */
  queued: number;
  byOffset: Map<number, PendingBundle>;
  /** links in the ready order (Mempool.readyHead), while `inReady` */
  prevReady: AccountQueue | undefined;
  nextReady: AccountQueue | undefined;
  inReady: boolean;
}

/** No bundle dropped: one shared empty answer instead of an array per call (one per executed bundle). */
const NONE: DroppedBundle[] = Object.freeze([]) as unknown as DroppedBundle[];

/**
 * Offsets past this from an account's base are refused as too far ahead before they become numbers,
 * so every offset is an exact double; --mempool-max-nonce-gap is capped below it (docs/mempool.md).
 */
const MAX_GAP = 1n << 40n;
const MAX_OFFSET = 1n << 41n;

/** A bundle's place in the price and expiry orders; dead once its entry left the pool. */
interface Slot {
  entry: PendingBundle;
  /** admission order: among equally cheap bundles the newest is evicted first */
  seq: number;
  /** unix seconds after which it is dropped: the earlier of its expiry and admission + lifetime */
  dropAt: bigint;
  /**
   * The fee and drop time as doubles, for the heaps' comparisons (bigint ones made admission ~2×
   * slower). Exact up to 2^53; equal doubles beyond that fall back to the bigints.
   */
  fee: number;
  due: number;
}

/** Cheapest first; among equals the newest (the tail of an account's run, most often). */
function cheaper(a: Slot, b: Slot): boolean {
  if (a.fee !== b.fee) return a.fee < b.fee;
  if (a.fee > Number.MAX_SAFE_INTEGER && a.entry.priorityFee !== b.entry.priorityFee) return a.entry.priorityFee < b.entry.priorityFee;
  return a.seq > b.seq;
}

function dueEarlier(a: Slot, b: Slot): boolean {
  return a.due !== b.due ? a.due < b.due : a.dropAt < b.dropAt;
}

export class Mempool {
  private readonly accounts = new Map<string, AccountQueue>();
  /**
   * Accounts whose ready run is not empty, in the order their run last became non-empty: what a
   * block selects from, so accounts holding only queued bundles cost selection nothing. A list
   * linked through the queues themselves: joining and leaving it hash nothing.
   */
  private readyHead: AccountQueue | undefined;
  private readyTail: AccountQueue | undefined;
  private readonly byHash = new Map<string, PendingBundle>();
  private readonly limits: MempoolLimits;
  private readonly maxNonceGap: number;
  private queuedTotal = 0;
  /**
   * Accounts by how many queued bundles they hold (counts > 0), and the largest count (a bound: it
   * is lowered lazily when its set empties). When --mempool-max-queued is reached, a bundle of an
   * account holding fewer than the largest holder evicts that holder's newest queued one (below).
   */
  private readonly byQueuedCount = new Map<number, Set<AccountQueue>>();
  private mostQueued = 0;
  private seq = 0;
  private readonly alive = (slot: Slot) => this.byHash.get(slot.entry.hashKey) === slot.entry;
  /** the eviction candidate on top */
  private readonly byPrice = new MinHeap<Slot>(cheaper, this.alive);
  private readonly byDropAt = new MinHeap<Slot>(dueEarlier, this.alive);

  constructor(limits: Partial<MempoolLimits> = {}) {
    this.limits = { ...DEFAULT_MEMPOOL_LIMITS, ...limits };
    if (this.limits.maxNonceGap > MAX_GAP) this.limits.maxNonceGap = MAX_GAP;
    this.maxNonceGap = Number(this.limits.maxNonceGap);
  }

  get size(): number {
    return this.byHash.size;
  }

  /** Bundles behind a nonce gap, across accounts. */
  get queuedCount(): number {
    return this.queuedTotal;
  }

  has(hashKey: string): boolean {
    return this.byHash.has(hashKey);
  }

  /** Every waiting bundle, in no particular order (txpool_content). */
  entries(): IterableIterator<PendingBundle> {
    return this.byHash.values();
  }

  /** The waiting bundle with this hash (hex), if any. */
  get(hashKey: string): PendingBundle | undefined {
    return this.byHash.get(hashKey);
  }

  /** Whether a bundle in the pool waits behind a nonce gap (not part of its account's ready run). */
  isQueued(entry: PendingBundle): boolean {
    const queue = this.accounts.get(entry.accountKey);
    return queue !== undefined && offsetOf(queue, entry.nonce) >= queue.hi;
  }

  /**
   * The next nonce to hand out for `accountKey`: the committed nonce plus the run of contiguous
   * pending bundles after it. Read-only; O(1) unless `stateNonce` is past the pool's view.
   */
  pendingNonce(accountKey: string, stateNonce: bigint): bigint {
    const queue = this.accounts.get(accountKey);
    if (!queue) return stateNonce;
    let next = offsetOf(queue, stateNonce);
    if (next <= queue.hi) return queue.base + BigInt(queue.hi);
    while (queue.byOffset.has(next)) next++;
    return queue.base + BigInt(next);
  }

  /**
   * Admit a bundle that passed the submission gate, or say which bound refuses it. `stateNonce` is
   * the account's committed nonce now, `nowSeconds` the node's clock (for the lifetime). Bundles
   * that leave the pool on the way (replaced, evicted, or of a nonce that has executed meanwhile)
   * are in `dropped` either way.
   */
  add(entry: PendingBundle, stateNonce: bigint, nowSeconds: bigint): MempoolAdmission {
    let dropped = NONE;
    let queue = this.accounts.get(entry.accountKey);
    if (!queue) {
      queue = { key: entry.accountKey, base: stateNonce, lo: 0, hi: 0, queued: 0, byOffset: new Map(), prevReady: undefined, nextReady: undefined, inReady: false };
      this.accounts.set(entry.accountKey, queue);
    } else {
      const committed = offsetOf(queue, stateNonce);
      if (committed > queue.lo) dropped = this.advance(queue, committed, dropped);
    }
    const distance = entry.nonce - queue.base;
    if (distance < 0n || distance > MAX_OFFSET) {
      // Below the base is below the committed nonce; this far above is past any allowed gap.
      const refusal = distance < 0n ? this.refusal(queue, 'NONCE_TOO_LOW') : this.refusal(queue, 'NONCE_GAP_TOO_LARGE', this.limits.maxNonceGap);
      if (queue.byOffset.size === 0) this.forget(queue);
      return { ok: false, refusal, dropped };
    }
    const offset = Number(distance);
    const existing = queue.byOffset.get(offset);
    const refusal = this.check(queue, entry, offset, existing);
    if (refusal) {
      if (queue.byOffset.size === 0) this.forget(queue);
      return { ok: false, refusal, dropped };
    }
    if (existing) {
      // Same nonce, same place in the run: only the entry changes.
      queue.byOffset.set(offset, entry);
      this.byHash.delete(existing.hashKey);
      dropped = append(dropped, { entry: existing, reason: 'REPLACED', by: entry });
    } else {
      if (offset !== queue.hi && this.queuedTotal >= this.limits.maxQueued) {
        // Fair share of a full queue (issue 46 item 8, docs/mempool.md "Queued bundles"): the
        // largest holder's newest queued bundle leaves, so no set of accounts that parked first
        // keeps another account from queueing as many as they hold.
        const holder = this.largestQueued()!;
        const newest = newestQueued(holder);
        this.removeEntry(newest);
        dropped = append(dropped, { entry: newest, reason: 'EVICTED', by: entry });
      }
      if (this.byHash.size >= this.limits.maxBundles) {
        const victim = this.byPrice.pop()!;
        this.removeEntry(victim.entry);
        dropped = append(dropped, { entry: victim.entry, reason: 'EVICTED', by: entry });
        // The victim may have been this account's last bundle.
        if (!this.accounts.has(entry.accountKey)) this.accounts.set(entry.accountKey, queue);
      }
      queue.byOffset.set(offset, entry);
      if (offset === queue.hi) {
        // It extends the ready run, and takes the queued bundles right after it along: O(run).
        this.extendRun(queue, offset + 1);
      } else {
        this.shift(queue, 1);
      }
    }
    this.byHash.set(entry.hashKey, entry);
    const lifetimeEnd = nowSeconds + this.limits.lifetimeSeconds;
    const dropAt = entry.expiresAt < lifetimeEnd ? entry.expiresAt : lifetimeEnd;
    const slot: Slot = { entry, seq: this.seq++, dropAt, fee: Number(entry.priorityFee), due: Number(dropAt) };
    this.byPrice.push(slot);
    this.byDropAt.push(slot);
    // Slots of bundles that left stay in the heaps until they surface; sweep once they outnumber the live ones.
    if (this.byPrice.length > 2 * this.byHash.size + 1024) {
      this.byPrice.compact();
      this.byDropAt.compact();
    }
    return { ok: true, queued: offset >= queue.hi, nextNonce: queue.base + BigInt(queue.hi), dropped };
  }

  /**
   * Bundles ready to execute, at most `max`: for each account with a ready run, in the order its
   * run last became non-empty, the contiguous run starting at its committed nonce. Bundles behind
   * a gap stay, and accounts with only such bundles are not visited: O(selected + accounts taken).
   */
  selectReady(max: number): PendingBundle[] {
    const out: PendingBundle[] = [];
    if (max <= 0) return out;
    for (let queue = this.readyHead; queue !== undefined; queue = queue.nextReady) {
      const { byOffset } = queue;
      const end = Math.min(queue.hi, queue.lo + max - out.length);
      for (let offset = queue.lo; offset < end; offset++) out.push(byOffset.get(offset)!);
      if (out.length >= max) break;
    }
    return out;
  }

  /**
   * Remove a bundle that left the pool without executing (refused, failed, evicted): bundles of its
   * account after it now wait behind a gap.
   */
  remove(entry: PendingBundle): void {
    this.removeEntry(entry);
  }

  /**
   * A bundle executed successfully in a block (this node's or an imported one): it leaves the pool
   * if it is here, and its account's committed nonce moves past it. Bundles of that account with a
   * nonce now used are returned as NONCE_USED. O(1) for a bundle at the head of its run, the case
   * of every bundle of this node's own blocks; the answer is a shared empty array when none dropped.
   */
  executed(entry: PendingBundle): DroppedBundle[] {
    const queue = this.accounts.get(entry.accountKey);
    // By hash: an imported block's entry is another object for the same bundle.
    const mine = this.byHash.get(entry.hashKey);
    if (mine) this.byHash.delete(entry.hashKey);
    if (!queue) return NONE;
    const offset = offsetOf(queue, entry.nonce);
    if (offset === queue.lo && mine !== undefined && queue.byOffset.get(offset) === mine) {
      // The head of the ready run (every bundle of this node's own blocks): the run shortens by one.
      queue.byOffset.delete(offset);
      queue.lo = offset + 1;
      if (queue.byOffset.size === 0) this.forget(queue);
      else if (queue.hi === queue.lo) this.leaveReady(queue);
      return NONE;
    }
    // Taken out without breaking the run: `advance` moves the committed nonce past it at once.
    if (mine && queue.byOffset.get(offset) === mine) {
      queue.byOffset.delete(offset);
      if (offset >= queue.hi) this.shift(queue, -1);
    }
    const dropped = offset + 1 > queue.lo ? this.advance(queue, offset + 1, NONE) : NONE;
    if (queue.byOffset.size === 0) this.forget(queue);
    return dropped;
  }

  /**
   * The NTV the account's waiting bundles below `nonce` may take (src/chain/admission/funds.ts): what the
   * funds check of a bundle at `nonce` subtracts from the committed balance, the pending state.
   * A bundle replacing one at `nonce` is checked without the one it replaces.
   */
  pendingCost(accountKey: string, nonce: bigint): bigint {
    const queue = this.accounts.get(accountKey);
    if (!queue) return 0n;
    let total = 0n;
    for (const entry of queue.byOffset.values()) if (entry.nonce < nonce && entry.ntvCost !== undefined) total += entry.ntvCost;
    return total;
  }

  /** Pending bundles of an account with a nonce above `nonce` (to settle node-assigned followers). */
  after(accountKey: string, nonce: bigint): PendingBundle[] {
    const queue = this.accounts.get(accountKey);
    if (!queue) return [];
    return [...queue.byOffset.values()].filter((e) => e.nonce > nonce).sort((a, b) => (a.nonce < b.nonce ? -1 : 1));
  }

  /**
   * Public keys revealed (`sender_pubkey`) by bundles of an account still waiting here: a wallet may
   * pipeline its next bundles before the revealing one is in a block (spec §5.3).
   */
  revealedKeys(accountKey: string): Uint8Array[] {
    const queue = this.accounts.get(accountKey);
    if (!queue) return [];
    const keys: Uint8Array[] = [];
    for (const entry of queue.byOffset.values()) if (entry.auth.pubkey.length > 0) keys.push(entry.auth.pubkey);
    return keys;
  }

  /**
   * Remove and return the bundles due to leave at `now` (unix seconds): past their expiry, or past
   * admission + lifetime. O(k log n) for k of them, from the expiry order.
   */
  expire(now: bigint): DroppedBundle[] {
    const out: DroppedBundle[] = [];
    for (let slot = this.byDropAt.peek(); slot && slot.dropAt < now; slot = this.byDropAt.peek()) {
      this.byDropAt.pop();
      this.removeEntry(slot.entry);
      out.push({ entry: slot.entry, reason: slot.dropAt < slot.entry.expiresAt ? 'LIFETIME' : 'EXPIRED' });
    }
    return out;
  }

  /** Why `entry` may not join `queue` at `offset`, or undefined when it may (the global cap may still evict for it). */
  private check(queue: AccountQueue, entry: PendingBundle, offset: number, existing: PendingBundle | undefined): MempoolRefusal | undefined {
    if (offset < queue.lo) return this.refusal(queue, 'NONCE_TOO_LOW');
    if (existing) {
      const evm = evmReplacement(existing.auth.evmFees, entry.auth.evmFees);
      if (evm !== undefined) {
        if (evm.ok) return undefined;
        return { ...this.refusal(queue, 'REPLACEMENT_UNDERPRICED'), minEvmFees: evm.min, pending: existing };
      }
      const bumped = (existing.priorityFee * (100n + REPLACEMENT_BUMP_PERCENT) + 99n) / 100n;
      const minPriorityFee = bumped > existing.priorityFee ? bumped : existing.priorityFee + 1n;
      if (entry.priorityFee < minPriorityFee) return { ...this.refusal(queue, 'REPLACEMENT_UNDERPRICED'), minPriorityFee, pending: existing };
      return undefined;
    }
    if (offset !== queue.hi) {
      if (offset - queue.hi > this.maxNonceGap) return this.refusal(queue, 'NONCE_GAP_TOO_LARGE', this.limits.maxNonceGap);
      if (queue.queued >= this.limits.maxQueuedPerAccount) return this.refusal(queue, 'ACCOUNT_QUEUE_FULL', this.limits.maxQueuedPerAccount);
      if (this.queuedTotal >= this.limits.maxQueued) {
        // The queue is full: an account with fewer queued bundles than the largest holder still gets
        // in, at that holder's expense (add evicts its newest); the largest holders are refused.
        const largest = this.largestQueued();
        if (!largest || largest === queue || largest.queued <= queue.queued + 1) return this.refusal(queue, 'QUEUE_FULL', this.limits.maxQueued);
      }
    }
    if (this.byHash.size >= this.limits.maxBundles) {
      // Only a better-paying bundle gets in, by evicting the cheapest: a cheaper or equal one
      // never displaces another (no churn at equal fees).
      const cheapest = this.byPrice.peek();
      if (!cheapest || entry.priorityFee <= cheapest.entry.priorityFee) {
        return { ...this.refusal(queue, 'MEMPOOL_FULL', this.limits.maxBundles), minPriorityFee: (cheapest?.entry.priorityFee ?? 0n) + 1n };
      }
    }
    return undefined;
  }

  private refusal(queue: AccountQueue, status: RefusalStatus, limit?: number | bigint): MempoolRefusal {
    const nextNonce = queue.base + BigInt(queue.hi);
    return limit === undefined ? { status, nextNonce } : { status, nextNonce, limit };
  }

  private shift(queue: AccountQueue, delta: number): void {
    if (delta === 0) return;
    if (queue.queued > 0) {
      const held = this.byQueuedCount.get(queue.queued)!;
      held.delete(queue);
      if (held.size === 0) this.byQueuedCount.delete(queue.queued);
    }
    queue.queued += delta;
    this.queuedTotal += delta;
    if (queue.queued > 0) {
      let held = this.byQueuedCount.get(queue.queued);
      if (!held) this.byQueuedCount.set(queue.queued, (held = new Set()));
      held.add(queue);
      if (queue.queued > this.mostQueued) this.mostQueued = queue.queued;
    }
  }

  /** An account holding the most queued bundles, undefined when none is queued. */
  private largestQueued(): AccountQueue | undefined {
    for (; this.mostQueued > 0; this.mostQueued--) {
      const held = this.byQueuedCount.get(this.mostQueued);
      if (held) return held.values().next().value;
    }
    return undefined;
  }

  /**
   * The ready run ends just before `from` (or starts there): take in the bundles held from `from`
   * on without a gap, which were queued until now.
   */
  private extendRun(queue: AccountQueue, from: number): void {
    let hi = from;
    while (queue.byOffset.has(hi)) hi++;
    this.shift(queue, from - hi);
    this.setHi(queue, hi);
  }

  /** Move the end of the ready run, and the account into or out of the ready order with it. */
  private setHi(queue: AccountQueue, hi: number): void {
    queue.hi = hi;
    // An account already in the order keeps its place.
    if (hi > queue.lo) this.joinReady(queue);
    else this.leaveReady(queue);
  }

  private joinReady(queue: AccountQueue): void {
    if (queue.inReady) return;
    queue.inReady = true;
    queue.prevReady = this.readyTail;
    queue.nextReady = undefined;
    if (this.readyTail) this.readyTail.nextReady = queue;
    else this.readyHead = queue;
    this.readyTail = queue;
  }

  private leaveReady(queue: AccountQueue): void {
    if (!queue.inReady) return;
    queue.inReady = false;
    const { prevReady, nextReady } = queue;
    if (prevReady) prevReady.nextReady = nextReady;
    else this.readyHead = nextReady;
    if (nextReady) nextReady.prevReady = prevReady;
    else this.readyTail = prevReady;
    queue.prevReady = queue.nextReady = undefined;
  }

  /** An account with no bundle left leaves both indexes. */
  private forget(queue: AccountQueue): void {
    this.leaveReady(queue);
    if (this.accounts.get(queue.key) === queue) this.accounts.delete(queue.key);
  }

  /**
   * Move an account's committed nonce up to offset `lo`: bundles below it can never execute and go
   * to `dropped` (NONCE_USED), and the ready run restarts from there. Returns `dropped`, grown if
   * any were (it is the shared empty array until then).
   */
  private advance(queue: AccountQueue, lo: number, dropped: DroppedBundle[]): DroppedBundle[] {
    if (lo <= queue.lo) return dropped;
    const { byOffset } = queue;
    if (byOffset.size > 0) {
      if (lo - queue.lo <= byOffset.size) {
        for (let offset = queue.lo; offset < lo; offset++) {
          const entry = byOffset.get(offset);
          if (entry) dropped = this.dropUsed(queue, offset, entry, dropped);
        }
      } else {
        for (const [offset, entry] of byOffset) if (offset < lo) dropped = this.dropUsed(queue, offset, entry, dropped);
      }
    }
    queue.lo = lo;
    if (queue.hi < lo) {
      // The run restarts at the new committed nonce: what follows it was queued until now.
      this.extendRun(queue, lo);
    } else if (queue.hi === lo) {
      this.leaveReady(queue);
    }
    return dropped;
  }

  private dropUsed(queue: AccountQueue, offset: number, entry: PendingBundle, dropped: DroppedBundle[]): DroppedBundle[] {
    queue.byOffset.delete(offset);
    this.byHash.delete(entry.hashKey);
    if (offset >= queue.hi) this.shift(queue, -1);
    return append(dropped, { entry, reason: 'NONCE_USED' });
  }

  private removeEntry(entry: PendingBundle): void {
    if (this.byHash.get(entry.hashKey) !== entry) return;
    this.byHash.delete(entry.hashKey);
    const queue = this.accounts.get(entry.accountKey);
    if (!queue) return;
    const offset = offsetOf(queue, entry.nonce);
    if (queue.byOffset.get(offset) !== entry) return;
    queue.byOffset.delete(offset);
    if (offset < queue.hi) {
      // A hole in the ready run: everything after it now waits behind a gap.
      this.shift(queue, queue.hi - offset - 1);
      this.setHi(queue, offset);
    } else {
      this.shift(queue, -1);
    }
    if (queue.byOffset.size === 0) this.forget(queue);
  }
}

/**
 * A nonce as an offset in `queue`. Nonces of bundles held are within MAX_OFFSET of the base; others
 * (a committed nonce far ahead, an imported block's) only compare, for which the double is exact enough.
 */
function offsetOf(queue: AccountQueue, nonce: bigint): number {
  return Number(nonce - queue.base);
}

/** The queued bundle of the highest nonce of an account that holds queued ones (leaving it opens no gap). */
function newestQueued(queue: AccountQueue): PendingBundle {
  let top = -1;
  for (const offset of queue.byOffset.keys()) if (offset > top) top = offset;
  return queue.byOffset.get(top)!;
}

function append(dropped: DroppedBundle[], item: DroppedBundle): DroppedBundle[] {
  if (dropped === NONE) return [item];
  dropped.push(item);
  return dropped;
}
