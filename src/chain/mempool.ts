/**
 * Bundles waiting for a block, per account in nonce order (spec §5.8, §7.6: a bundle whose nonce is
 * ahead of the account waits until the earlier nonces execute). The pending-nonce tracker hands
 * out the next free nonce synchronously, so concurrent convenience calls from one address never
 * collide (spec §4 intro).
 */

export interface BundleAuth {
  /** 0 unsigned, 1 Ed25519 verified, 2 ML-DSA-65 verified (docs/core-abi.md BundleInput.auth) */
  kind: number;
  keyHash: Uint8Array;
  /** the verifying key when it came from `sender_pubkey`, else empty */
  pubkey: Uint8Array;
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
  auth: BundleAuth;
  /** nonce chosen by this node (unsigned convenience methods) rather than by a signer */
  nodeAssigned: boolean;
}

interface AccountQueue {
  /** the account's committed nonce: the next one that can execute */
  stateNonce: bigint;
  byNonce: Map<bigint, PendingBundle>;
}

export type MempoolRefusal = 'NONCE_TOO_LOW' | 'NONCE_ALREADY_PENDING' | 'MEMPOOL_FULL';

export class Mempool {
  private readonly accounts = new Map<string, AccountQueue>();
  private readonly byHash = new Map<string, PendingBundle>();

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.byHash.size;
  }

  has(hashKey: string): boolean {
    return this.byHash.has(hashKey);
  }

  /** The waiting bundle with this hash (hex), if any. */
  get(hashKey: string): PendingBundle | undefined {
    return this.byHash.get(hashKey);
  }

  /**
   * The next nonce to hand out for `accountKey`: the committed nonce plus the run of contiguous
   * pending bundles after it.
   */
  pendingNonce(accountKey: string, stateNonce: bigint): bigint {
    const queue = this.accounts.get(accountKey);
    let next = queue && queue.stateNonce > stateNonce ? queue.stateNonce : stateNonce;
    if (!queue) return next;
    while (queue.byNonce.has(next)) next++;
    return next;
  }

  add(entry: PendingBundle, stateNonce: bigint): MempoolRefusal | undefined {
    if (this.byHash.size >= this.capacity) return 'MEMPOOL_FULL';
    let queue = this.accounts.get(entry.accountKey);
    if (!queue) {
      queue = { stateNonce, byNonce: new Map() };
      this.accounts.set(entry.accountKey, queue);
    } else if (stateNonce > queue.stateNonce) {
      queue.stateNonce = stateNonce;
    }
    if (entry.nonce < queue.stateNonce) return 'NONCE_TOO_LOW';
    if (queue.byNonce.has(entry.nonce)) return 'NONCE_ALREADY_PENDING';
    queue.byNonce.set(entry.nonce, entry);
    this.byHash.set(entry.hashKey, entry);
    return undefined;
  }

  /**
   * Bundles ready to execute, at most `max`: for each account in arrival order, the contiguous run
   * starting at its committed nonce. Bundles behind a gap stay.
   */
  selectReady(max: number): PendingBundle[] {
    const out: PendingBundle[] = [];
    for (const queue of this.accounts.values()) {
      let nonce = queue.stateNonce;
      for (let entry = queue.byNonce.get(nonce); entry && out.length < max; entry = queue.byNonce.get(++nonce)) {
        out.push(entry);
      }
      if (out.length >= max) break;
    }
    return out;
  }

  /** Remove a bundle that left the pool (included, refused or expired). */
  remove(entry: PendingBundle): void {
    this.byHash.delete(entry.hashKey);
    const queue = this.accounts.get(entry.accountKey);
    if (!queue) return;
    if (queue.byNonce.get(entry.nonce) === entry) queue.byNonce.delete(entry.nonce);
    if (queue.byNonce.size === 0) this.accounts.delete(entry.accountKey);
  }

  /** Record an account's committed nonce after a block. */
  setStateNonce(accountKey: string, stateNonce: bigint): void {
    const queue = this.accounts.get(accountKey);
    if (queue && stateNonce > queue.stateNonce) queue.stateNonce = stateNonce;
  }

  /** Pending bundles of an account with a nonce above `nonce` (to settle node-assigned followers). */
  after(accountKey: string, nonce: bigint): PendingBundle[] {
    const queue = this.accounts.get(accountKey);
    if (!queue) return [];
    return [...queue.byNonce.values()].filter((e) => e.nonce > nonce).sort((a, b) => (a.nonce < b.nonce ? -1 : 1));
  }

  /**
   * Public keys revealed (`sender_pubkey`) by bundles of an account still waiting here: a wallet may
   * pipeline its next bundles before the revealing one is in a block (spec §5.3).
   */
  revealedKeys(accountKey: string): Uint8Array[] {
    const queue = this.accounts.get(accountKey);
    if (!queue) return [];
    const keys: Uint8Array[] = [];
    for (const entry of queue.byNonce.values()) if (entry.auth.pubkey.length > 0) keys.push(entry.auth.pubkey);
    return keys;
  }

  /** Bundles whose expiry is before `now` (unix seconds). */
  expired(now: bigint): PendingBundle[] {
    const out: PendingBundle[] = [];
    for (const entry of this.byHash.values()) if (entry.expiresAt < now) out.push(entry);
    return out;
  }
}
