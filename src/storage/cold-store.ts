import type { Level } from 'level';
import type { BatchSink } from './block-batch.js';
import { COLD_CURSOR, COLD_MARKER, Prefix, prefixed, prefixEnd, readU64, TREE_KEY_FIRST, u64 } from './keys.js';

/**
 * The elastic state's cold tier on disk (spec §4.20 "cold (older, rarely read records compacted
 * apart)", docs/operations.md "Elastic state: the cold tier"), after the freezers of Geth/Erigon
 * (ancient data moved out of the live key-value store) and tiered compaction (RocksDB, Cassandra):
 *
 * - **where**: a key range of the node's own database, `'z' + state key → value`, next to the warm
 *   range `'s'`. One database keeps a move atomic: a record leaves `'s'` and enters `'z'` in one
 *   batch, so every consistent read (a LevelDB snapshot) sees each record exactly once. LevelDB
 *   compacts by key range, so records that stopped changing settle into table files of their own
 *   and the warm range's tables (the ones every block rewrites and compacts) hold only live records.
 * - **which**: a record not written for at least `window` blocks. Every state write of a block also
 *   puts `'y' + window number + key` (the "written" index, `window = floor(height / window size)`),
 *   only while the database has a cold tier; a record is cold when neither the current window nor
 *   the one before has its mark, i.e. it was not written for between one and two windows. Index
 *   entries older than the previous window are cleared whole, so the index holds at most two
 *   windows of written keys.
 * - **how a record moves**: on the block writer's thread, between the synced group writes, in a
 *   batch of its own (`ColdWriter.step`): while it runs no block batch is in flight, so the values it
 *   moves are the durable ones and no write of the same key can land between its read and its move.
 *   A block write to a cold key goes through `ColdWriter.wrap`: beside the `'s'` put it deletes the
 *   `'z'` copy in the same batch, so a record is back in warm the moment it is written.
 * - **how reads find it**: warm, then cold (`readStateSync`, `readStateMany`); a reader of the whole
 *   range (start-up load, export and snapshots, the integrity sweep, prefix scans) iterates both
 *   ranges merged in key order (`mergedState`).
 */

type Db = Level<Uint8Array, Uint8Array>;

export interface ColdSettings {
  /** the head when the cold tier was enabled: records with no mark were written at or before it */
  enabledAt: number;
  /** blocks per window of the written index */
  window: number;
}

export function encodeColdSettings(settings: ColdSettings): Uint8Array {
  const out = new Uint8Array(12);
  out.set(u64(settings.enabledAt), 0);
  new DataView(out.buffer).setUint32(8, settings.window);
  return out;
}

export function decodeColdSettings(value: Uint8Array): ColdSettings {
  return { enabledAt: readU64(value), window: new DataView(value.buffer, value.byteOffset + 8, 4).getUint32(0) };
}

export function coldKey(stateKey: Uint8Array): Uint8Array {
  return prefixed(Prefix.Cold, stateKey);
}

function writtenKey(window: number, stateKey: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + stateKey.length);
  out[0] = Prefix.Written;
  new DataView(out.buffer).setUint32(1, window);
  out.set(stateKey, 5);
  return out;
}

const WARM_RANGE = { gte: Uint8Array.of(Prefix.State), lt: Uint8Array.of(Prefix.State + 1) };
/**
 * The sweep stops before the state tree's records (bucket records and nodes, keys from
 * TREE_KEY_FIRST, docs/state-root.md): every commit reads the buckets it changes, and the block
 * writer keeps them apart, written at checkpoints (docs/storage.md "The state tree on disk").
 */
const SWEPT_END = Uint8Array.of(Prefix.State, TREE_KEY_FIRST);
const COLD_RANGE = { gte: Uint8Array.of(Prefix.Cold), lt: Uint8Array.of(Prefix.Cold + 1) };
const EMPTY = new Uint8Array(0);

// ---- reads --------------------------------------------------------------------------------------

export type StateTier = 'warm' | 'cold';

/**
 * A state record read synchronously (classic-level's `getSync`) through warm then cold, with the
 * tier that held it. When both miss, warm is read again: a block write that moved the record from
 * cold back to warm between the two reads would otherwise read as absent.
 */
export function readStateSync(db: Db, key: Uint8Array): { value: Uint8Array | undefined; tier: StateTier } {
  const warmKey = prefixed(Prefix.State, key);
  const warm = db.getSync(warmKey) ?? undefined;
  if (warm !== undefined) return { value: warm, tier: 'warm' };
  const cold = db.getSync(coldKey(key)) ?? undefined;
  if (cold !== undefined) return { value: cold, tier: 'cold' };
  return { value: db.getSync(warmKey) ?? undefined, tier: 'warm' };
}

/** State records by key through warm then cold (as readStateSync), in two or three `getMany`. */
export async function readStateMany(db: Db, keys: readonly Uint8Array[]): Promise<Array<{ value: Uint8Array | undefined; tier: StateTier }>> {
  if (keys.length === 0) return [];
  const warm = await db.getMany(keys.map((key) => prefixed(Prefix.State, key)));
  const out = warm.map((value) => ({ value, tier: 'warm' as StateTier }));
  const missing = keys.flatMap((_, i) => (warm[i] === undefined ? [i] : []));
  if (missing.length === 0) return out;
  const cold = await db.getMany(missing.map((i) => coldKey(keys[i]!)));
  const again: number[] = [];
  missing.forEach((i, j) => {
    if (cold[j] !== undefined) out[i] = { value: cold[j], tier: 'cold' };
    else again.push(i);
  });
  if (again.length > 0) {
    const retry = await db.getMany(again.map((i) => prefixed(Prefix.State, keys[i]!)));
    again.forEach((i, j) => { out[i] = { value: retry[j], tier: 'warm' }; });
  }
  return out;
}

/** Reads in one iteration of a key range: a batch of [key, value] entries. */
class RangeCursor {
  private batch: Array<[Uint8Array, Uint8Array]> = [];
  private at = 0;
  private done = false;
  constructor(private readonly iterator: ReturnType<Db['iterator']>, private readonly size: number) {}

  /** The next entry without taking it (undefined at the end). */
  async peek(): Promise<[Uint8Array, Uint8Array] | undefined> {
    if (this.at < this.batch.length) return this.batch[this.at];
    if (this.done) return undefined;
    this.batch = (await this.iterator.nextv(this.size)) as Array<[Uint8Array, Uint8Array]>;
    this.at = 0;
    if (this.batch.length === 0) {
      this.done = true;
      return undefined;
    }
    return this.batch[0];
  }

  take(): void {
    this.at++;
  }

  close(): Promise<void> {
    return this.iterator.close();
  }
}

export interface MergedStateOptions {
  /** a LevelDB snapshot: both ranges are read from it (a consistent read) */
  snapshot?: unknown;
  /** only state keys starting with these bytes */
  prefix?: Uint8Array;
  /** entries per yielded batch */
  batch?: number;
  /** a key held in both ranges (a damaged database: a write or a move half applied); warm's value is yielded */
  onBoth?(stateKey: Uint8Array): void;
}

/**
 * Every state record of warm and cold merged in key order, in batches of [state key, value] (the
 * keys without the database prefix). With no cold records it costs one empty read of the cold range.
 */
export async function* mergedState(db: Db, options: MergedStateOptions = {}): AsyncGenerator<Array<[Uint8Array, Uint8Array]>> {
  const size = options.batch ?? 4096;
  const range = (dbPrefix: number) => {
    if (!options.prefix || options.prefix.length === 0) return dbPrefix === Prefix.State ? WARM_RANGE : COLD_RANGE;
    const gte = prefixed(dbPrefix, options.prefix);
    return { gte, lt: prefixEnd(gte) };
  };
  const snapshot = options.snapshot === undefined ? {} : { snapshot: options.snapshot };
  const warm = new RangeCursor(db.iterator({ ...range(Prefix.State), ...snapshot } as never), size);
  const cold = new RangeCursor(db.iterator({ ...range(Prefix.Cold), ...snapshot } as never), size);
  try {
    let out: Array<[Uint8Array, Uint8Array]> = [];
    for (;;) {
      const [w, c] = [await warm.peek(), await cold.peek()];
      if (!w && !c) break;
      const order = !w ? 1 : !c ? -1 : Buffer.compare(w[0].subarray(1), c[0].subarray(1));
      if (order <= 0) {
        out.push([w![0].subarray(1), w![1]]);
        warm.take();
        if (order === 0) {
          options.onBoth?.(w![0].subarray(1));
          cold.take();
        }
      } else {
        out.push([c![0].subarray(1), c![1]]);
        cold.take();
      }
      if (out.length >= size) {
        yield out;
        out = [];
      }
    }
    if (out.length > 0) yield out;
  } finally {
    await warm.close();
    await cold.close();
  }
}

/** The records of a key range (keys only, no values read) and LevelDB's estimate of their bytes on disk. */
export async function countRange(db: Db, range: { gte: Uint8Array; lt: Uint8Array }): Promise<{ keys: number; bytes: number }> {
  let keys = 0;
  const iterator = db.keys(range);
  try {
    for (;;) {
      const batch = await iterator.nextv(16384);
      if (batch.length === 0) break;
      keys += batch.length;
    }
  } finally {
    await iterator.close();
  }
  const bytes = await (db as unknown as { approximateSize(a: Uint8Array, b: Uint8Array): Promise<number> }).approximateSize(range.gte, range.lt);
  return { keys, bytes };
}

/** The number of cold records and their bytes on disk. */
export function countCold(db: Db): Promise<{ keys: number; bytes: number }> {
  return countRange(db, COLD_RANGE);
}

// ---- the block writer's thread --------------------------------------------------------------------

/** What the main thread asks of the cold tier (the writer thread runs it between group writes). */
export type ColdOp =
  /** enable the cold tier (or change its window) at the head `height` */
  | { kind: 'configure'; window: number; height: number }
  /** look at up to `maxKeys` warm records from the sweep's cursor and move the cold ones */
  | { kind: 'step'; maxKeys: number };

export interface ColdStepResult {
  /** warm records looked at */
  scanned: number;
  /** of those, moved to cold */
  moved: number;
  /** their keys' and values' bytes */
  movedBytes: number;
  /** the sweep reached the end of the warm range and starts again from its beginning */
  wrapped: boolean;
}

export type ColdRequest = { type: 'cold'; id: number; op: ColdOp };
export type ColdResponse = { type: 'cold-done'; id: number; result?: ColdStepResult; error?: string };

const NOTHING: ColdStepResult = { scanned: 0, moved: 0, movedBytes: 0, wrapped: false };

/**
 * The cold tier's side of the block writer's thread (src/storage/block-writer-worker.ts): `wrap`
 * marks a group's state writes in the written index and deletes their cold copies; `run` executes
 * the main thread's requests while no group write is under way.
 */
export class ColdWriter {
  private readonly queue: ColdRequest[] = [];
  /** written-index windows below this are cleared */
  private clearedBelow = 0;

  private constructor(private readonly db: Db, private settings: ColdSettings | undefined) {}

  static async open(db: Db): Promise<ColdWriter> {
    const value = await db.get(COLD_MARKER);
    return new ColdWriter(db, value === undefined ? undefined : decodeColdSettings(value));
  }

  /**
   * The sink a group's state goes through when it is sealed: each state key put or deleted is also
   * marked written in the group's window and its cold copy deleted, in the same batch. A database
   * without a cold tier gets the batch itself.
   */
  wrap(batch: BatchSink, height: number): BatchSink {
    const settings = this.settings;
    if (!settings) return batch;
    const window = Math.floor(height / settings.window);
    const mark = (key: Uint8Array) => {
      if (key[0] !== Prefix.State) return;
      const stateKey = key.subarray(1);
      batch.put(writtenKey(window, stateKey), EMPTY);
      batch.del(coldKey(stateKey));
    };
    return {
      put: (key, value) => {
        mark(key);
        return batch.put(key, value);
      },
      del: (key) => {
        mark(key);
        return batch.del(key);
      },
    };
  }

  add(request: ColdRequest): void {
    this.queue.push(request);
  }

  get pending(): boolean {
    return this.queue.length > 0;
  }

  /** Run the oldest request; `head` is the durable head. Never throws: a failure is in the response. */
  async runNext(head: number): Promise<ColdResponse> {
    const request = this.queue.shift()!;
    try {
      if (request.op.kind === 'configure') {
        await this.configure(request.op.window, request.op.height);
        return { type: 'cold-done', id: request.id, result: NOTHING };
      }
      return { type: 'cold-done', id: request.id, result: await this.step(head, request.op.maxKeys) };
    } catch (error) {
      return { type: 'cold-done', id: request.id, error: error instanceof Error ? error.message : String(error) };
    }
  }

  private async configure(window: number, height: number): Promise<void> {
    if (this.settings?.window === window) return;
    // A new window size restarts the count: no record moves until two whole windows have passed.
    const settings = { enabledAt: Math.max(0, height), window };
    await this.db.put(COLD_MARKER, encodeColdSettings(settings), { sync: true });
    this.settings = settings;
  }

  /**
   * One step of the sweep (a compaction pass over the warm range, cursor kept in COLD_CURSOR): the
   * next `maxKeys` warm records, of which those with no mark in the current or the previous window
   * move to cold in one batch. Until two whole windows have passed since the tier was enabled the
   * marks are incomplete, and nothing moves.
   */
  private async step(head: number, maxKeys: number): Promise<ColdStepResult> {
    const settings = this.settings;
    if (!settings || head < 0) return NOTHING;
    const current = Math.floor(head / settings.window);
    if (current - 1 <= Math.floor(settings.enabledAt / settings.window)) return NOTHING;
    if (this.clearedBelow < current - 1) {
      await this.db.clear({ gte: Uint8Array.of(Prefix.Written), lt: writtenKey(current - 1, EMPTY) });
      this.clearedBelow = current - 1;
    }
    const cursor = await this.db.get(COLD_CURSOR);
    const iterator = this.db.iterator({ ...(cursor ? { gt: prefixed(Prefix.State, cursor) } : { gte: WARM_RANGE.gte }), lt: SWEPT_END });
    let entries: Array<[Uint8Array, Uint8Array]>;
    try {
      entries = await iterator.nextv(maxKeys);
    } finally {
      await iterator.close();
    }
    const batch = this.db.batch();
    const wrapped = entries.length < maxKeys;
    if (wrapped) batch.del(COLD_CURSOR);
    else batch.put(COLD_CURSOR, entries[entries.length - 1]![0].subarray(1));
    let moved = 0;
    let movedBytes = 0;
    if (entries.length > 0) {
      const marks = await this.db.getMany(entries.flatMap(([key]) => [writtenKey(current, key.subarray(1)), writtenKey(current - 1, key.subarray(1))]));
      entries.forEach(([key, value], i) => {
        if (marks[2 * i] !== undefined || marks[2 * i + 1] !== undefined) return;
        batch.del(key);
        batch.put(coldKey(key.subarray(1)), value);
        moved++;
        movedBytes += key.length - 1 + value.length;
      });
    }
    // Not synced: a move lost to a crash leaves the record in warm, where it was.
    await batch.write();
    return { scanned: entries.length, moved, movedBytes, wrapped };
  }
}
