import type { ChainStore } from '../storage/chain-store.js';
import { toLatin1 } from '../codec/hash.js';
import { ChainError } from './errors.js';
import type { StateReader } from './state-reader.js';
import type { StateView } from './state-view.js';

/**
 * Reads at past blocks (docs/storage.md "State history"; issue 42 item 1). Every block's change set
 * (src/chain/change-sets.ts) is stored with it, and indexed per key by the writer thread behind the
 * head; the value of a key as of block h is the previous
 * value recorded by the first block above h that wrote it, or, when none did, the current value.
 *
 * `valueAt` is one database seek (plus, for the blocks the index has not reached, a look into their change sets). `run` serves readers that read synchronously (the eth_call
 * readers, the proof builder, a core): it runs the read against the keys resolved so far, falling
 * back to the head's value for the others while noting them, resolves those, and runs again until a
 * pass reads nothing unresolved. The keys a read touches may depend on the values it reads, so it
 * converges in as many passes as that chain of dependencies is long (one or two in practice).
 */
export class StateHistory {
  /** the lowest height whose state is served (0: from genesis); raised by pruning */
  private from = 0;

  constructor(private readonly store: ChainStore, private readonly state: StateView, private readonly head: () => number) {}

  /**
   * At open: a database without the marker (written before state history, or by a node that kept
   * none) serves state from its head on.
   */
  async open(head: number): Promise<void> {
    const from = await this.store.stateHistoryFrom();
    if (from === undefined) {
      await this.store.setStateHistoryFrom(head);
      this.from = head;
    } else this.from = from;
  }

  /** The lowest height whose state is served. */
  get oldest(): number {
    return this.from;
  }

  /** Pruning moves the window before it deletes (src/chain/pruning.ts): reads below are refused from now on. */
  noteOldest(height: number): void {
    this.from = Math.max(this.from, height);
  }

  /** Refuse a height below the window: -32013 naming the oldest height served. */
  check(height: number): void {
    if (height < this.from) throw historicalStateError(height, this.from, this.head());
  }

  /** The value of `key` as of the end of block `height` (at or below the head). */
  async valueAt(key: Uint8Array, height: number): Promise<Uint8Array | undefined> {
    for (;;) {
      this.check(height);
      const head = this.head();
      if (height >= head) return this.state.get(key);
      const read = await this.store.historyAt(key, height, head);
      // pruning may have raised the window during the seek (it moves it before deleting)
      this.check(height);
      if (read.changed) return read.value;
      // No block above `height` wrote the key: the current value is the answer, if no block landed
      // during the seek (its change set may name the key; the StateView already holds its write).
      if (this.head() === head) return this.state.get(key);
    }
  }

  /**
   * Run a synchronous read against the state as of block `height` (see the class comment). A pass
   * that read an unresolved key may have taken a wrong branch on the head's value: its result or
   * error is dropped and the read runs again.
   */
  async run<T>(height: number, read: (state: StateReader) => T): Promise<T> {
    this.check(height);
    if (height >= this.head()) return read(this.state);
    return readInPasses(this.state, async (state) => read(state), (key) => this.valueAt(key, height), `a read at height ${height}`);
  }
}

/**
 * Run `read` in passes until one reads no key it has not resolved (StateHistory.run; a core's
 * simulation at a past block, src/eth/simulate.ts): each pass reads through a view that answers the
 * keys resolved so far and notes the others, answering them meanwhile from `fallback` (the head);
 * the noted keys are then resolved by `resolve` and the read runs again. A pass that noted keys may
 * have taken a wrong branch on a fallback value: its result, or error, is dropped.
 */
export async function readInPasses<T>(fallback: StateReader, read: (state: StateReader) => Promise<T>,
  resolve: (key: Uint8Array) => Promise<Uint8Array | undefined>, what: string): Promise<T> {
  const resolved = new Map<string, Uint8Array | undefined>();
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const misses = new Map<string, Uint8Array>();
    const reader: StateReader = {
      get: (key) => {
        const k = toLatin1(key);
        if (resolved.has(k)) return resolved.get(k);
        if (!misses.has(k)) misses.set(k, key.slice());
        return fallback.get(key);
      },
    };
    let result: { value: T } | { error: unknown };
    try {
      result = { value: await read(reader) };
    } catch (error) {
      result = { error };
    }
    if (misses.size === 0) {
      if ('error' in result) throw result.error;
      return result.value;
    }
    const keys = [...misses];
    const values = await Promise.all(keys.map(([, key]) => resolve(key)));
    keys.forEach(([k], i) => resolved.set(k, values[i]));
  }
  throw new Error(`${what} still read new keys after ${MAX_PASSES} passes`);
}

/** Passes of `run` at most: far beyond any read path's chain of dependent keys. */
const MAX_PASSES = 64;

/**
 * A read below the state history's window (RPC -32013, geth's "missing trie node" wording): names
 * the oldest height served, so a caller knows where to read instead.
 */
export function historicalStateError(height: number, oldest: number, head: number): ChainError {
  return new ChainError('PRUNED', `missing trie node: the state at block ${height} is not kept; this node serves state from block ${oldest} to the head ${head} (docs/operations.md "Pruning")`, {
    height, oldest_height: oldest, head,
  });
}
