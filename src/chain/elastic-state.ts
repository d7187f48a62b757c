import { NTV_MINT, Prefix } from '../abi/constants.js';
import { accountKey, balanceKey, bucketKey, groupKey, sliceKey } from '../abi/state.js';
import { decodeBundle } from '../codec/bundle.js';
import { blake3 } from '../codec/hash.js';
import { BUCKET_SLICES } from '../codec/bucket-records.js';
import { stateWriteList, type StateWrites } from '../storage/chain-store.js';
import type { ColdOp, ColdStepResult, StateTier } from '../storage/cold-store.js';
import type { StateReader } from '../core/loader.js';
import { InFlightWrites } from './in-flight-writes.js';
import { StateView, fromKey, toKey, type StateSource, type StorageStats, type TierStats } from './state-view.js';

/**
 * `--elastic-state` (spec §4.20, §4.17; docs/operations.md "Elastic state"): committed state kept
 * in tiers instead of the full in-memory mirror of ./state-view.ts, behind the same methods, so
 * every reader and the core's `kv_get` are unchanged.
 *
 * - **hot**: a bounded in-memory LRU cache of records (and of keys known to be absent), at most
 *   `hotBytes` by the accounting below; a read that misses it loads the record from warm and
 *   promotes it, evicting the least recently used entries past the bound.
 * - **warm**: the node's LevelDB (the `s` records, written by the block writer as before), read
 *   synchronously on a miss (classic-level's `getSync`: the core's reads stay synchronous), and
 *   ahead of a block with one `getMany` of the keys it will touch (`prefetch`, `blockKeys`).
 * - **cold**: records not written for `coldAfter` blocks (between one and two windows of that many),
 *   moved by the block writer's thread into a key range of their own (`z`,
 *   src/storage/cold-store.ts); a read that misses warm reads cold, and the record is promoted into
 *   hot; a block that writes it puts it back into warm. After each durable block one step of the
 *   sweep (`COLD_STEP_KEYS` warm records looked at) is asked of the writer's thread.
 *
 * The store writes nothing: the block writer still puts every state write into the database, and
 * `apply` (a block is durable) puts the block's values into the hot tier, where the next reads find
 * them. Because the core keeps every record it touched for its instance's life, the chain replaces
 * the core instance (between blocks) once its cache passes `coreKeys` or its WebAssembly memory
 * passes `coreBytes` (`wantsCoreRecycle`), so the core's memory is bounded too. Blocks executed by
 * the old instance may still be in flight then: the core reads through `coreSource`, which answers
 * their writes first (./in-flight-writes.ts) until each is durable, so the new instance reads what
 * the old one held and the replacement does not wait for the writer.
 */

export interface ElasticOptions {
  /** bound of the hot tier in bytes (entries' keys, values and the per-entry overhead below) */
  hotBytes: number;
  /** replace the core instance once its cache holds more keys than this */
  coreKeys: number;
  /**
   * replace the core instance once its WebAssembly memory is larger than this many bytes (default
   * DEFAULT_CORE_MB MiB): the core is built with AssemblyScript's stub runtime (asconfig.json), which never frees and doubles its memory when it runs out, so its memory grows
   * with every record it allocates, written or rewritten, not with the keys it holds
   */
  coreBytes?: number;
  /** records not written for this many blocks go cold (0: no cold tier) */
  coldAfter: number;
}

/** The warm store: the node's database (src/storage/chain-store.ts). */
export interface WarmStore extends StateSource {
  /** warm then cold, with the tier that held the record */
  readStateSync(key: Uint8Array): { value: Uint8Array | undefined; tier: StateTier };
  readStateMany(keys: Uint8Array[]): Promise<Array<{ value: Uint8Array | undefined; tier: StateTier }>>;
  countCold(): Promise<{ keys: number; bytes: number }>;
  /** a cold tier request run on the block writer's thread */
  cold(op: ColdOp): Promise<ColdStepResult>;
  head(): Promise<number | undefined>;
  scanState(prefix: number, onRecord: (key: Uint8Array, value: Uint8Array) => void): Promise<void>;
  countState(): Promise<{ keys: number; bytes: number }>;
  stateBytesOnDisk(): Promise<number>;
}

/**
 * Bytes counted per hot entry besides its key and value: the Map entry, the key string's header and
 * the Uint8Array object with its backing store's header, as V8 lays them out on 64-bit (measured
 * with bench/elastic-state.ts: ~150 bytes an entry above key + value).
 */
export const HOT_ENTRY_OVERHEAD = 160;

/** Defaults (docs/operations.md): a 256 MiB hot tier and a core recycled past 250,000 keys or 128 MiB. */
export const DEFAULT_HOT_MB = 256;
export const DEFAULT_CORE_KEYS = 250_000;
export const DEFAULT_CORE_MB = 128;
/** Records not written for 10,000 blocks (~3 hours at 1 s blocks) go cold. */
export const DEFAULT_COLD_AFTER = 10_000;
/** Warm records the cold sweep looks at per durable block (a full pass over 5M records: ~600 blocks). */
const COLD_STEP_KEYS = 8192;

/** How often (in applied blocks) the warm tier's on-disk size estimate is refreshed. */
const WARM_BYTES_EVERY = 50;
/** How often (in applied blocks) the warm tier's keys are counted again. */
const WARM_COUNT_EVERY = 1000;

interface HotEntry {
  value: Uint8Array | null;
  bytes: number;
  /** read from the cold tier (a write of it moves it back to warm) */
  cold?: boolean;
}

function emptyTier(): TierStats {
  return { keys: 0, bytes: 0, hits: 0, misses: 0, promotions: 0, evictions: 0 };
}

export class ElasticState extends StateView {
  /** insertion order is recency order: a hit re-inserts its entry at the end */
  private readonly hot = new Map<string, HotEntry>();
  private readonly hotTier = emptyTier();
  private readonly warmTier = emptyTier();
  private readonly coldTier = emptyTier();
  private stepping = false;
  /** why the last cold step failed (the next block tries again) */
  coldFailure: string | undefined;
  /** bumped by every `apply` (the background counts keep theirs only when no block landed meanwhile) */
  private epoch = 0;
  /** prefetches under way, and the keys blocks wrote meanwhile: a read that raced a key's write leaves it out */
  private prefetching = 0;
  private writtenWhilePrefetching = new Set<string>();
  private opened = false;
  private coreRecycles = 0;
  /** core replacements made while blocks were in flight (read through the overlay) */
  coreRecyclesInFlight = 0;
  /** the writes of blocks executed and not durable yet, for a core instance made while they are in flight */
  private readonly inFlight = new InFlightWrites();
  /** what the core reads: the in-flight overlay when one is active, then the tiers */
  private readonly coreReader: StateReader = {
    get: (key) => {
      if (!this.inFlight.active) return this.get(key);
      const value = this.inFlight.read(key);
      return value === undefined ? this.get(key) : value ?? undefined;
    },
  };
  private prefetched = 0;
  private applied = 0;
  private counting = false;

  constructor(private readonly warm: WarmStore, private readonly options: ElasticOptions) {
    super();
  }

  /** The hot tier's values are never rewritten in place: a read is already what `peekLatin1` asks. */
  override peekLatin1(key: string): Uint8Array | undefined {
    return this.getLatin1(key);
  }

  /** The hot tier keeps values as views into the writes it applied: their buffer is not reused. */
  override get ownsValues(): boolean {
    return false;
  }

  override get size(): number {
    return this.warmTier.keys;
  }

  override get(key: Uint8Array): Uint8Array | undefined {
    return this.read(toKey(key), key);
  }

  override getLatin1(key: string): Uint8Array | undefined {
    return this.read(key, undefined);
  }

  /** The hot tier, then the warm and cold ones (`bytes`: the key's bytes when the caller has them). */
  private read(k: string, bytes: Uint8Array | undefined): Uint8Array | undefined {
    const entry = this.hot.get(k);
    if (entry !== undefined) {
      this.hotTier.hits++;
      this.hot.delete(k);
      this.hot.set(k, entry);
      return entry.value ?? undefined;
    }
    this.hotTier.misses++;
    const { value, tier } = this.warm.readStateSync(bytes ?? fromKey(k));
    this.count(value, tier);
    this.promote(k, value ?? null, tier === 'cold');
    return value;
  }

  /**
   * Watchers index whole prefixes (tokens, pools, keys, collections: src/chain/readers.ts); they are
   * registered before the chain opens and `loadFrom` scans just their prefixes from the database.
   */
  override watch(prefix: number, onWrite: (key: Uint8Array, value: Uint8Array | null) => void): void {
    if (this.opened) throw new Error('elastic state: a watcher must be registered before the state is loaded');
    this.watchers.push({ prefix, onWrite });
  }

  /** Scan the watched prefixes (not the whole state) and count the state in the background. */
  override async loadFrom(_source: StateSource): Promise<number> {
    this.opened = true;
    const prefixes = [...new Set(this.watchers.map((w) => w.prefix))].sort((a, b) => a - b);
    for (const prefix of prefixes) await this.warm.scanState(prefix, (key, value) => this.notifyWatchers(key, value));
    const counted = await this.warm.countState();
    this.warmTier.keys = counted.keys;
    this.warmTier.bytes = counted.bytes;
    const cold = await this.warm.countCold();
    this.coldTier.keys = cold.keys;
    this.coldTier.bytes = cold.bytes;
    if (this.options.coldAfter > 0) await this.warm.cold({ kind: 'configure', window: this.options.coldAfter, height: (await this.warm.head()) ?? 0 });
    return counted.keys + cold.keys;
  }

  override load(key: Uint8Array, value: Uint8Array): void {
    this.promote(toKey(key), value);
    this.notifyWatchers(key, value);
  }

  /** A durable block's writes: the database holds them already; the hot tier takes the new values. */
  override apply(writes: StateWrites): void {
    this.epoch++;
    this.inFlight.durable(writes);
    for (const { key, value } of stateWriteList(writes)) {
      const k = toKey(key);
      if (this.prefetching > 0) this.writtenWhilePrefetching.add(k);
      const before = this.hot.get(k);
      // The warm key count follows the writes whose previous state is known (the core read the key
      // before writing it, so it is almost always in hot).
      if (before !== undefined) {
        if (before.cold) {
          // The block writer's thread put it back into warm and deleted its cold copy.
          this.coldTier.keys--;
          this.coldTier.evictions++;
          if (value !== null) {
            this.warmTier.keys++;
            this.warmTier.promotions++;
          }
        } else if (before.value === null && value !== null) this.warmTier.keys++;
        else if (before.value !== null && value === null) this.warmTier.keys--;
        this.removeHot(k, before);
      }
      this.insertHot(k, value);
      this.notifyWatchers(key, value);
    }
    this.applied++;
    this.coldStep();
    // The first blocks: genesis is applied here before it is durable, so the first count may miss it.
    if (this.applied <= 2 || this.applied % WARM_COUNT_EVERY === 0) this.recount();
    else if (this.applied % WARM_BYTES_EVERY === 0) {
      void this.warm.stateBytesOnDisk().then((bytes) => { this.warmTier.bytes = bytes; }, () => {});
    }
  }

  /**
   * One step of the cold sweep on the writer's thread (src/storage/cold-store.ts): it runs between
   * group writes, so it never races a block's write of the same keys. One at a time.
   */
  private coldStep(): void {
    if (this.options.coldAfter <= 0 || this.stepping) return;
    this.stepping = true;
    void this.warm.cold({ kind: 'step', maxKeys: COLD_STEP_KEYS }).then((result) => {
      this.coldFailure = undefined;
      this.warmTier.keys -= result.moved;
      this.warmTier.evictions += result.moved;
      this.coldTier.keys += result.moved;
      this.coldTier.bytes += result.movedBytes;
      // A whole pass over warm: count both tiers again (the counts between are kept by the moves
      // and writes seen here, which miss the writes of keys evicted between their read and write).
      if (result.wrapped && result.moved > 0) this.recount();
    }, (error: unknown) => {
      this.coldFailure = error instanceof Error ? error.message : String(error);
    }).finally(() => { this.stepping = false; });
  }

  /**
   * Count the warm and cold tiers' keys again (keys-only scans in the background): after the first
   * blocks (genesis writes keys never read), every WARM_COUNT_EVERY blocks and after a pass of the
   * cold sweep that moved records, since between counts the writes of keys evicted between their
   * read and their write are not counted.
   */
  private recount(): void {
    if (this.counting) return;
    this.counting = true;
    const epoch = this.epoch;
    void Promise.all([this.warm.countState(), this.warm.countCold()]).then(([counted, cold]) => {
      // Blocks applied (or records moved) during the scan may or may not be in it: keep the counts
      // only when none was.
      if (epoch === this.epoch) {
        this.warmTier.keys = counted.keys;
        this.coldTier.keys = cold.keys;
      }
      this.warmTier.bytes = counted.bytes;
      this.coldTier.bytes = cold.bytes;
    }, () => {}).finally(() => { this.counting = false; });
  }

  override async prefetch(keys: Uint8Array[]): Promise<void> {
    const wanted: Uint8Array[] = [];
    const seen = new Set<string>();
    for (const key of keys) {
      const k = toKey(key);
      if (this.hot.has(k) || seen.has(k)) continue;
      seen.add(k);
      wanted.push(key);
    }
    if (wanted.length === 0) return;
    this.prefetching++;
    let values: Awaited<ReturnType<typeof this.warm.readStateMany>>;
    try {
      values = await this.warm.readStateMany(wanted);
    } finally {
      this.prefetching--;
    }
    // A key a block wrote meanwhile may have been read before its write: it is left to the
    // synchronous miss path (apply put the new value in hot, unless evicted since). The others are
    // as durable now as when read. (Before bucket slices the whole prefetch was dropped when any
    // block landed meanwhile; a sliced bucket's 17 reads then went through the miss path.)
    const written = this.writtenWhilePrefetching;
    if (this.prefetching === 0) this.writtenWhilePrefetching = new Set();
    const wholeAbsent: number[] = [];
    for (let i = 0; i < wanted.length; i++) {
      const key = wanted[i]!;
      const k = toKey(key);
      const { value, tier } = values[i]!;
      if (written.has(k)) continue;
      if (value == null && key.length === 3 && key[0] === Prefix.ROOT_BUCKET) wholeAbsent.push((key[1]! << 8) | key[2]!);
      if (this.hot.has(k)) continue;
      this.count(value, tier);
      this.promote(k, value ?? null, tier === 'cold');
      this.prefetched++;
    }
    // A bucket without a 0xF0 record is empty or stored in slices: its group record (read in the
    // same batch, blockKeys, and promoted above) says which, and the slices of a non-empty one are
    // read now.
    const slices = wholeAbsent.flatMap((bucket) => this.slicesOf(bucket));
    if (slices.length > 0) await this.prefetch(slices);
  }

  /** The 16 slice keys of a bucket whose hash in its group record (hot, if read) is not zero; else none. */
  private slicesOf(bucket: number): Uint8Array[] {
    const group = this.hot.get(toKey(groupKey(bucket >> 4)))?.value;
    if (!group) return [];
    const hash = group.subarray(32 * (bucket & 15), 32 * (bucket & 15) + 32);
    if (hash.every((x) => x === 0)) return [];
    return Array.from({ length: BUCKET_SLICES }, (_, s) => sliceKey(bucket, s));
  }

  override wantsCoreRecycle(coreCacheKeys: number, coreMemoryBytes: number): boolean {
    return coreCacheKeys > this.options.coreKeys || coreMemoryBytes > (this.options.coreBytes ?? DEFAULT_CORE_MB * 1024 * 1024);
  }

  override noteCoreRecycled(): void {
    this.coreRecycles++;
  }

  override coreSource(): StateReader {
    return this.coreReader;
  }

  override executed(writes: StateWrites): void {
    this.inFlight.executed(writes);
  }

  override coreReplaced(): number {
    const blocks = this.inFlight.coreReplaced();
    if (blocks > 0) this.coreRecyclesInFlight++;
    return blocks;
  }

  override dropInFlight(): void {
    this.inFlight.clear();
  }

  /** Blocks executed and not durable yet (as told by `executed` and `apply`). */
  get blocksInFlight(): number {
    return this.inFlight.size;
  }

  override stats(): StorageStats {
    return {
      mode: 'elastic',
      tiers: { hot: { ...this.hotTier, keys: this.hot.size }, warm: { ...this.warmTier }, cold: { ...this.coldTier } },
      hotLimitBytes: this.options.hotBytes,
      coreRecycles: this.coreRecycles,
      prefetchedKeys: this.prefetched,
    };
  }

  /** A read that reached the database: warm answered, or cold did (a warm miss first), or neither. */
  private count(value: Uint8Array | undefined, tier: StateTier): void {
    if (tier === 'warm' && value !== undefined) {
      this.warmTier.hits++;
      return;
    }
    this.warmTier.misses++;
    if (tier === 'cold') {
      this.coldTier.hits++;
      this.coldTier.promotions++;
    } else this.coldTier.misses++;
  }

  private promote(k: string, value: Uint8Array | null, cold = false): void {
    this.hotTier.promotions++;
    this.insertHot(k, value, cold);
  }

  private insertHot(k: string, value: Uint8Array | null, cold = false): void {
    const entry: HotEntry = { value, bytes: k.length + (value?.length ?? 0) + HOT_ENTRY_OVERHEAD, ...(cold ? { cold } : {}) };
    this.hot.set(k, entry);
    this.hotTier.bytes += entry.bytes;
    if (this.hotTier.bytes > this.options.hotBytes) this.evict();
  }

  private removeHot(k: string, entry: HotEntry): void {
    this.hot.delete(k);
    this.hotTier.bytes -= entry.bytes;
  }

  /** Least recently used first (the Map's insertion order), down to 90% of the bound. */
  private evict(): void {
    const target = this.options.hotBytes * 0.9;
    for (const [k, entry] of this.hot) {
      if (this.hotTier.bytes <= target) break;
      this.removeHot(k, entry);
      this.hotTier.evictions++;
    }
  }
}

/**
 * The keys a block will most likely read, for `prefetch`: for every bundle the accounts of its
 * sender and of every other 32-byte field of its operations (recipients, owners, pools), and their
 * balances of NTV and of the fields named as tokens or mints; then the state-root bucket record of
 * each key (Prefix.ROOT_BUCKET + the first two bytes of Blake3(key), docs/state-root.md), which the
 * block's commit rewrites, and the group records its commit reads the sibling hashes from (the
 * bucket's group and the group beside it under their level-11 node). A key left out is read on demand; a key read for nothing costs a lookup
 * and a hot entry, so the guess stays narrow.
 */
export function blockKeys(bundles: Uint8Array[]): Uint8Array[] {
  const keys = new Map<string, Uint8Array>();
  const add = (key: Uint8Array) => keys.set(toKey(key), key);
  for (const bytes of bundles) {
    let bundle;
    try {
      bundle = decodeBundle(bytes);
    } catch {
      continue;
    }
    const addresses: Uint8Array[] = [bundle.userAccount];
    const mints: Uint8Array[] = [NTV_MINT];
    collect32(bundle.operations, '', addresses, mints, 0);
    for (const address of addresses) {
      add(accountKey(address));
      for (const mint of mints) add(balanceKey(address, mint));
    }
  }
  const out = [...keys.values()];
  for (const key of [...out]) {
    const path = blake3(key);
    // its 0xF0 record; a bucket stored in slices has none, and prefetch reads its slices after
    add(bucketKey((path[0]! << 8) | path[1]!));
    const group = ((path[0]! << 8) | path[1]!) >> 4;
    add(groupKey(group));
    add(groupKey(group ^ 1));
  }
  return [...keys.values()];
}

const MINT_FIELD = /token|mint/i;
const ZERO = new Uint8Array(32);

function collect32(value: unknown, name: string, addresses: Uint8Array[], mints: Uint8Array[], depth: number): void {
  if (depth > 4 || value === null || typeof value !== 'object') return;
  if (value instanceof Uint8Array) {
    if (value.length !== 32) return;
    if (MINT_FIELD.test(name)) {
      if (Buffer.compare(value, ZERO) !== 0) mints.push(value);
    } else addresses.push(value);
    return;
  }
  if (Array.isArray(value)) for (const inner of value) collect32(inner, name, addresses, mints, depth + 1);
  else for (const [field, inner] of Object.entries(value)) collect32(inner, field, addresses, mints, depth + 1);
}
