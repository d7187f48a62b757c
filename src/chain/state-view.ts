import type { StateReader } from '../core/loader.js';
import { toLatin1 } from '../codec/hash.js';
import { KeyTable } from './key-table.js';
import { ValueTable } from './value-table.js';
import type { StateWrite, StateWrites } from '../storage/chain-store.js';

/** Where committed state is loaded from: the node's store (src/storage/chain-store.ts). */
export interface StateSource {
  loadState(onRecord: (key: Uint8Array, value: Uint8Array) => void): Promise<number>;
}

/** One tier's counters (spec §4.17 `svc_getStorageStats`, docs/operations.md "Elastic state"). */
export interface TierStats {
  keys: number;
  bytes: number;
  hits: number;
  misses: number;
  promotions: number;
  evictions: number;
}

export interface StorageStats {
  /** `memory`: the full in-memory mirror (this class); `elastic`: the tiers of src/chain/elastic-state.ts */
  mode: 'memory' | 'elastic';
  tiers: Record<string, TierStats>;
  /** bound of the hot tier in bytes (null: unbounded, the full mirror) */
  hotLimitBytes: number | null;
  /** core instances replaced to bound their caches (elastic only) */
  coreRecycles: number;
  prefetchedKeys: number;
}

/**
 * The host's synchronous view of committed state. The core reads through it on the first touch of
 * a key (`kv_get`, docs/core-abi.md); the read-only RPC paths read it directly. It is loaded once
 * from storage at start-up and updated from each committed block's writes, so it always equals
 * what storage holds. Keys are the raw state keys, held as latin1 strings for cheap Map lookups;
 * values are copied into a table of the view's own (src/chain/value-table.ts), and readers get
 * copies of them.
 *
 * This class holds the whole state in memory (the default). `--elastic-state` replaces it with
 * src/chain/elastic-state.ts, a subclass that keeps a bounded cache over the database instead;
 * every reader takes either through this class's methods.
 */
export class StateView {
  /** latin1 key → its value's slot in `values`, outside V8's heap (./key-table.ts) */
  private readonly records = new KeyTable();
  private readonly values = new ValueTable();
  protected readonly watchers: Array<{ prefix: number; onWrite: (key: Uint8Array, value: Uint8Array | null) => void }> = [];
  protected reads = 0;
  protected readMisses = 0;

  get size(): number {
    return this.records.size;
  }

  get(key: Uint8Array): Uint8Array | undefined {
    return this.getLatin1(toKey(key));
  }

  /** `get` by the key as its latin1 string (`toKey`, `compositeKey`): a read path that builds none of the key's bytes. */
  getLatin1(key: string): Uint8Array | undefined {
    const slot = this.slotOf(key);
    return slot < 0 ? undefined : this.values.read(slot);
  }

  /**
   * `getLatin1` without the copy: a view valid only until the next block is applied, for a reader
   * that decodes it at once (admission's nonce, the holder index's balance before a block).
   */
  peekLatin1(key: string): Uint8Array | undefined {
    const slot = this.slotOf(key);
    return slot < 0 ? undefined : this.values.view(slot);
  }

  /** The key's slot in the table (-1: none), counted as a read (`svc_getStorageStats`). */
  private slotOf(key: string): number {
    const slot = this.records.get(key);
    this.reads++;
    if (slot < 0) this.readMisses++;
    return slot;
  }

  /**
   * Whether the view keeps no reference into the writes it applied (values copied into its own
   * table): the core's commit output may then be reused once the block is applied.
   */
  /**
   * Every record held, in no order: the key in its latin1 form, the value as a view valid until the
   * next write (the start-up check, src/chain/start-check.ts, reads the loaded state once).
   */
  forEachRecord(visit: (key: string, value: Uint8Array) => void): void {
    this.records.forEach((key, slot) => visit(key, this.values.view(slot)));
  }

  get ownsValues(): boolean {
    return true;
  }

  /** Call `onWrite` for every loaded or written record whose key starts with `prefix`. */
  watch(prefix: number, onWrite: (key: Uint8Array, value: Uint8Array | null) => void): void {
    this.watchers.push({ prefix, onWrite });
    this.records.forEach((key, slot) => {
      if (key.charCodeAt(0) === prefix) onWrite(fromKey(key), this.values.read(slot));
    });
  }

  /** Load committed state from storage at start-up; the number of records. */
  loadFrom(source: StateSource): Promise<number> {
    return source.loadState((key, value) => this.load(key, value));
  }

  load(key: Uint8Array, value: Uint8Array): void {
    this.set(key, value);
  }

  /**
   * A durable block's writes. `keys`, when given, are the packed writes' keys as latin1 in their
   * order (the change-set recorder's, src/chain/change-sets.ts), so none is made again here.
   */
  apply(writes: StateWrites, keys?: readonly string[]): void {
    if (Array.isArray(writes)) {
      for (const { key, value } of writes as readonly StateWrite[]) this.set(key, value);
      return;
    }
    // Packed (a block the node executed): the map key is read straight from the bytes and the value
    // copied into the table; a watcher of the key's prefix gets copies of both (the bytes may be
    // reused once the block is applied). ~61,000 writes in a 10,000-transfer block.
    const { bytes, lengths } = writes as Exclude<StateWrites, readonly unknown[]>;
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const shared = keys !== undefined && keys.length === lengths.length >> 1 ? keys : undefined;
    const watched = new Uint8Array(256);
    for (const { prefix } of this.watchers) watched[prefix] = 1;
    for (let i = 0, o = 0; i < lengths.length; i += 2) {
      const keyAt = o;
      o += lengths[i]!;
      const k = shared !== undefined ? shared[i >> 1]! : text.toString('latin1', keyAt, o);
      const valueLength = lengths[i + 1]!;
      this.store(k, bytes, o, valueLength);
      if (watched[bytes[keyAt]!] === 1) this.notifyWatchers(bytes.slice(keyAt, keyAt + lengths[i]!), valueLength < 0 ? null : bytes.slice(o, o + valueLength));
      if (valueLength > 0) o += valueLength;
    }
  }

  /**
   * Make the keys a block is about to read cheap to read synchronously. Everything is in memory
   * here; the elastic store reads them from the database ahead of execution.
   */
  prefetch(_keys: Uint8Array[]): Promise<void> {
    return Promise.resolve();
  }

  /** Whether a core instance should be replaced to bound its cache (never for the full mirror). */
  wantsCoreRecycle(_coreCacheKeys: number, _coreMemoryBytes: number): boolean {
    return false;
  }

  noteCoreRecycled(): void {}

  /**
   * What the core instances read (`kv_get`, src/node.ts createCore). Here the view itself: the full
   * mirror never replaces a core while blocks are in flight. The elastic store answers the writes
   * of blocks executed but not durable yet first (src/chain/in-flight-writes.ts), so that a core
   * replaced with blocks in flight reads what its predecessor held; `get` (the RPC readers) keeps
   * answering durable state only.
   */
  coreSource(): StateReader {
    return this;
  }

  /** A block's writes were made by execution and queued for writing; `apply` follows once it is durable. */
  executed(_writes: StateWrites): void {}

  /**
   * A new core instance replaces the one that executed the blocks in flight (Execution.prepare):
   * from now on `coreSource` answers their writes until each is durable. The blocks in flight.
   */
  coreReplaced(): number {
    return 0;
  }

  /** The blocks executed and not durable were abandoned (a core rebuilt over durable state). */
  dropInFlight(): void {}

  /** Counters for `svc_getStorageStats`: the whole state is one in-memory tier. */
  stats(): StorageStats {
    const bytes = this.values.valueBytes + this.records.keyBytes;
    return {
      mode: 'memory',
      tiers: { memory: { keys: this.records.size, bytes, hits: this.reads - this.readMisses, misses: this.readMisses, promotions: 0, evictions: 0 } },
      hotLimitBytes: null,
      coreRecycles: 0,
      prefetchedKeys: 0,
    };
  }

  protected notifyWatchers(key: Uint8Array, value: Uint8Array | null): void {
    for (const watcher of this.watchers) {
      if (key[0] === watcher.prefix) watcher.onWrite(key, value);
    }
  }

  private set(key: Uint8Array, value: Uint8Array | null): void {
    if (value === null) this.store(toKey(key), EMPTY, 0, -1);
    else this.store(toKey(key), value, 0, value.length);
    this.notifyWatchers(key, value);
  }

  /**
   * The key's value becomes `source[from, from + length)`, copied into the table (its slot rewritten
   * in place when the size class is the same); a negative length deletes the key.
   */
  private store(k: string, source: Uint8Array, from: number, length: number): void {
    const slot = this.records.get(k);
    if (length < 0) {
      if (slot >= 0) {
        this.values.remove(slot);
        this.records.delete(k);
      }
      return;
    }
    const stored = this.values.put(slot, source, from, length);
    if (stored !== slot) this.records.set(k, stored);
  }
}

const EMPTY = new Uint8Array(0);

export function toKey(key: Uint8Array): string {
  return toLatin1(key);
}

/** Room for the longest composite key a read path builds: a prefix and two 32-byte fields. */
const SCRATCH = Buffer.alloc(1 + 32 + 32);

/**
 * The map key of `prefix ‖ a ‖ b` (a balance: prefix 0x02, the address, the mint) built in one
 * reused buffer. Making the 65 key bytes as a fresh Uint8Array put them off V8's heap (typed arrays
 * above 64 bytes are), which cost ~1 µs a read to allocate and sweep: more than the Map lookup
 * (docs/performance.md "svc_getBalance").
 */
export function compositeKey(prefix: number, a: Uint8Array, b: Uint8Array): string {
  if (a.length + b.length >= SCRATCH.length) throw new RangeError(`a composite key of ${1 + a.length + b.length} bytes is longer than ${SCRATCH.length}`);
  SCRATCH[0] = prefix;
  SCRATCH.set(a, 1);
  SCRATCH.set(b, 1 + a.length);
  return SCRATCH.toString('latin1', 0, 1 + a.length + b.length);
}

export function fromKey(key: string): Uint8Array {
  return new Uint8Array(Buffer.from(key, 'latin1'));
}
