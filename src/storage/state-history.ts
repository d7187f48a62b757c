import type { Level } from 'level';
import { toLatin1 } from '../codec/hash.js';
import { changeSetKey, historyKey, Prefix, readU64, STATE_HISTORY_INDEXED, STATE_HISTORY_MARKER, u64 } from './keys.js';

/**
 * The stored state history (docs/storage.md "State history"): the change set the block writer puts
 * in each block's batch (block-batch.ts `putChangeSet`, one record), the per-key index the writer
 * thread builds from it behind the head (`indexChangeSet`), read and pruned here on the main
 * thread's handle. ChainStore delegates to these.
 */

/** A key's value as of a past height: `changed` false when no block above it wrote the key (the current value holds). */
export type HistoryRead = { changed: false } | { changed: true; value: Uint8Array | undefined };

type Db = Level<Uint8Array, Uint8Array>;

/** The lowest height whose state is served, or undefined when the database has no history marker. */
export async function stateHistoryFrom(db: Db): Promise<number | undefined> {
  const value = await db.get(STATE_HISTORY_MARKER);
  return value === undefined ? undefined : readU64(value);
}

export async function setStateHistoryFrom(db: Db, height: number): Promise<void> {
  await db.put(STATE_HISTORY_MARKER, u64(height), { sync: true });
}

/** A 'v' record of the lagging index's form starts with this byte (a key list's first byte, a key length's high byte, is at most 4). */
const CHANGE_SET_FORM = 0xff;
/** Bytes before the per-write lengths: the form byte and the count. */
const CHANGE_SET_HEAD = 5;
/** Per write: key length u16 ‖ previous value's length i32. */
const CHANGE_SET_ENTRY = 6;

/**
 * A block's change set as its one 'v' record (docs/storage.md "State history"): 0xFF, the count u32,
 * per write its key's length u16 and its previous value's length i32 (-1: absent before the block),
 * then every key and previous value back to back. One record in the block's synced batch: the
 * per-key index is the writer thread's later step. `keysFrom`: the block's packed state writes, when
 * the change set holds the previous values only (`valuesOnly`): its keys are theirs, in order.
 */
export function encodeChangeSet({ bytes, lengths }: { bytes: Uint8Array; lengths: Int32Array }, keysFrom?: { bytes: Uint8Array; lengths: Int32Array }): Uint8Array {
  const count = lengths.length >> 1;
  if (keysFrom && keysFrom.lengths.length !== lengths.length) throw new RangeError(`a change set of ${count} writes for a block of ${keysFrom.lengths.length >> 1}`);
  let keysSize = 0;
  if (keysFrom) for (let i = 0; i < lengths.length; i += 2) keysSize += lengths[i]!;
  const at = CHANGE_SET_HEAD + count * CHANGE_SET_ENTRY;
  const out = new Uint8Array(at + keysSize + bytes.length);
  const view = new DataView(out.buffer);
  out[0] = CHANGE_SET_FORM;
  view.setUint32(1, count);
  for (let i = 0, o = CHANGE_SET_HEAD; i < count; i++, o += CHANGE_SET_ENTRY) {
    view.setUint16(o, lengths[2 * i]!);
    view.setInt32(o + 2, lengths[2 * i + 1]!);
  }
  if (!keysFrom) {
    out.set(bytes, at);
    return out;
  }
  // key i from the block's writes (each followed by its new value there), then its previous value
  const keys = keysFrom.bytes;
  for (let i = 0, o = at, k = 0, p = 0; i < count; i++) {
    const keyLength = keysFrom.lengths[2 * i]!;
    if (keyLength !== lengths[2 * i]) throw new RangeError(`write ${i} of a change set names a key of ${lengths[2 * i]} bytes, the block's ${keyLength}`);
    out.set(keys.subarray(k, k + keyLength), o);
    o += keyLength;
    k += keyLength + Math.max(0, keysFrom.lengths[2 * i + 1]!);
    const valueLength = lengths[2 * i + 1]!;
    if (valueLength > 0) {
      out.set(bytes.subarray(p, p + valueLength), o);
      o += valueLength;
      p += valueLength;
    }
  }
  return out;
}

/** Each write of a change set record as views into it: its key and the value before the block (undefined: absent). Key lists (the earlier form) have none. */
export function forEachChange(record: Uint8Array, visit: (key: Uint8Array, before: Uint8Array | undefined) => void): void {
  if (record[0] !== CHANGE_SET_FORM) return;
  const view = new DataView(record.buffer, record.byteOffset, record.byteLength);
  const count = view.getUint32(1);
  let o = CHANGE_SET_HEAD + count * CHANGE_SET_ENTRY;
  if (o > record.length) throw new RangeError(`a change set of ${record.length} bytes names ${count} writes`);
  for (let i = 0, e = CHANGE_SET_HEAD; i < count; i++, e += CHANGE_SET_ENTRY) {
    const keyLength = view.getUint16(e);
    const valueLength = view.getInt32(e + 2);
    const key = record.subarray(o, o + keyLength);
    o += keyLength;
    if (valueLength < 0) visit(key, undefined);
    else {
      visit(key, record.subarray(o, o + valueLength));
      o += valueLength;
    }
    if (o > record.length) throw new RangeError(`a change set of ${record.length} bytes ends inside its write ${i}`);
  }
}

/** Where the index's records go: a level chained batch (it copies key and value during `put`). */
interface IndexSink {
  put(key: Uint8Array, value: Uint8Array): unknown;
}

/**
 * The per-key index of one block's change set, built a part at a time: 'u' + key length + key +
 * height → 0 (absent before the block) or 1 ‖ the value before it. The writer thread builds it
 * behind the head (its lagging index step), a few thousand records a batch, STATE_HISTORY_INDEXED
 * moving in the batch that ends the block. A block's records are put in order of its writes; a read
 * that meets some of them before the block is done is still right (`historyAt`).
 */
export class ChangeSetCursor {
  private entry = 0;
  private at: number;
  private readonly count: number;
  private readonly view: DataView;
  private readonly scratch: Uint8Array[] = [];
  private readonly keyScratch: Uint8Array[] = [];

  constructor(readonly height: number, readonly record: Uint8Array) {
    this.view = new DataView(record.buffer, record.byteOffset, record.byteLength);
    // a key list (the earlier form) is indexed already: nothing to build
    this.count = record[0] === CHANGE_SET_FORM ? this.view.getUint32(1) : 0;
    this.at = CHANGE_SET_HEAD + this.count * CHANGE_SET_ENTRY;
    if (this.at > record.length) throw new RangeError(`a change set of ${record.length} bytes names ${this.count} writes`);
  }

  get done(): boolean {
    return this.entry >= this.count;
  }

  /** Put the index records of up to `limit` more writes; returns how many were put. */
  indexInto(batch: IndexSink, limit: number): number {
    const { record, view, height } = this;
    const end = Math.min(this.count, this.entry + limit);
    const first = this.entry;
    let o = this.at;
    for (let i = first, e = CHANGE_SET_HEAD + first * CHANGE_SET_ENTRY; i < end; i++, e += CHANGE_SET_ENTRY) {
      const keyLength = view.getUint16(e);
      const valueLength = view.getInt32(e + 2);
      if (o + keyLength > record.length) throw new RangeError(`a change set of ${record.length} bytes ends inside its write ${i}`);
      // The sink copies during `put`, so the key and the value are built in scratch arrays, one per
      // length, used again (a cursor is one block's: the height in the key stays): a fresh key (and
      // its views) per record was most of the writer thread's garbage while it indexed
      // (docs/performance.md "2026-12-07, ninth round", "The history index's scratch keys").
      const hk = (this.keyScratch[keyLength] ??= historyKey(record.subarray(o, o + keyLength), height));
      for (let k = 0; k < keyLength; k++) hk[3 + k] = record[o + k]!;
      o += keyLength;
      if (valueLength < 0) batch.put(hk, ABSENT);
      else {
        if (o + valueLength > record.length) throw new RangeError(`a change set of ${record.length} bytes ends inside its write ${i}`);
        const value = (this.scratch[valueLength] ??= new Uint8Array(1 + valueLength));
        value[0] = 1;
        if (valueLength <= SHORT_VALUE) for (let k = 0; k < valueLength; k++) value[1 + k] = record[o + k]!;
        else value.set(record.subarray(o, o + valueLength), 1);
        batch.put(hk, value);
        o += valueLength;
      }
    }
    this.entry = end;
    this.at = o;
    return end - first;
  }
}

/** The whole index of one block's change set into `batch` (tests, tools); returns the records put. */
export function indexChangeSet(batch: IndexSink, height: number, record: Uint8Array): number {
  return new ChangeSetCursor(height, record).indexInto(batch, Infinity);
}

const ABSENT = Uint8Array.of(0);
/** Values up to this many bytes are copied by a loop (a subarray for them cost more than the copy). */
const SHORT_VALUE = 64;

/** The height up to which every change set is indexed ('u' records), or undefined when the marker is absent. */
export async function stateHistoryIndexed(db: Db): Promise<number | undefined> {
  const value = await db.get(STATE_HISTORY_INDEXED);
  return value === undefined ? undefined : readU64(value);
}

/**
 * The change sets of recent blocks not indexed yet, parsed on first need and kept for a few heights
 * (a block's change set never changes once durable): a read at a height the index has not reached
 * looks its key up in them. The index lags a block or two, so these are few.
 */
export class RecentChangeSets {
  private readonly held = new Map<number, Map<string, Uint8Array | undefined>>();

  async get(db: Db, height: number): Promise<Map<string, Uint8Array | undefined> | undefined | 'indexed'> {
    const held = this.held.get(height);
    if (held) return held;
    const record = await db.get(changeSetKey(height));
    // no change set: a block written without history (none is kept for it)
    if (record === undefined) return undefined;
    // its key list: the index step has passed it since the marker was read (the caller reads again)
    if (record[0] !== CHANGE_SET_FORM) return 'indexed';
    const parsed = new Map<string, Uint8Array | undefined>();
    forEachChange(record, (key, before) => parsed.set(toLatin1(key), before));
    this.held.set(height, parsed);
    if (this.held.size > RECENT_HELD) this.held.delete(this.held.keys().next().value!);
    return parsed;
  }
}

/** Parsed change sets held by RecentChangeSets (a full block's is ~61,000 entries). */
const RECENT_HELD = 8;

/**
 * The value of `key` as of the end of block `height`, when the blocks up to `head` are durable: the
 * previous value recorded by the first block above `height` that wrote the key, or `changed: false`
 * when none did. The index ('u' records) answers for the blocks up to its marker, one seek; the
 * blocks above it, not indexed yet, from their change sets. Blocks are durable and indexed in order,
 * so a record the seek finds above the marker read is as good an answer: every block below it is
 * indexed. A block the index finished meanwhile has its change set cut to a key list (its values
 * are in the index now): the read then goes again from the new marker.
 */
export async function historyAt(db: Db, key: Uint8Array, height: number, head: number, recent: RecentChangeSets): Promise<HistoryRead> {
  const k = toLatin1(key);
  for (let attempt = 0; attempt < 8; attempt++) {
    const indexed = (await stateHistoryIndexed(db)) ?? head;
    if (height < indexed) {
      const from = historyKey(key, height + 1);
      const to = historyKey(key, Number.MAX_SAFE_INTEGER);
      const iterator = db.iterator({ gte: from, lte: to, limit: 1 });
      try {
        const entry = await iterator.next();
        if (entry !== undefined) {
          const value = entry[1];
          return { changed: true, value: value[0] === 0 ? undefined : value.slice(1) };
        }
      } finally {
        await iterator.close();
      }
    }
    let passed = false;
    for (let h = Math.max(height, indexed) + 1; h <= head && !passed; h++) {
      const changes = await recent.get(db, h);
      if (changes === 'indexed') passed = true;
      else if (changes?.has(k)) {
        const before = changes.get(k);
        return { changed: true, value: before && before.slice() };
      }
    }
    if (!passed) return { changed: false };
  }
  throw new Error(`the state history index passed block ${height + 1} while its marker stayed behind it`);
}

/**
 * Delete the change sets of heights `from … to` (each block's 'v' record and its 'u' records) and
 * raise the marker, in batches of 16 blocks; returns the records removed. Only indexed change sets
 * are deleted (the index step never comes back below its marker, so nothing it writes is left
 * behind): `to` is capped at the index's height, and the next run deletes the rest. A kill between
 * batches leaves the marker at the last whole batch: what is left above it is still a continuous
 * history, and the next run deletes the rest.
 */
export async function pruneStateHistory(db: Db, from: number, to: number): Promise<number> {
  const indexed = await stateHistoryIndexed(db);
  if (indexed !== undefined) to = Math.min(to, indexed);
  let removed = 0;
  for (let start = from; start <= to; start += 16) {
    const end = Math.min(to, start + 15);
    const heights = Array.from({ length: end - start + 1 }, (_, i) => start + i);
    const lists = await db.getMany(heights.map(changeSetKey));
    const ops: Array<{ type: 'del'; key: Uint8Array } | { type: 'put'; key: Uint8Array; value: Uint8Array }> = [];
    heights.forEach((height, i) => {
      const list = lists[i];
      if (list === undefined) return;
      for (const key of changeSetKeys(list)) ops.push({ type: 'del', key: historyKey(key, height) });
      ops.push({ type: 'del', key: changeSetKey(height) });
    });
    removed += ops.length;
    // The marker first names the new oldest state: a read at it needs only change sets above it.
    ops.push({ type: 'put', key: STATE_HISTORY_MARKER, value: u64(end) });
    await db.batch(ops);
  }
  return removed;
}

/**
 * The key list a change set is cut to once its block is indexed ((length u16 BE ‖ key)*): the
 * previous values are in the 'u' records then, and pruning needs only the keys, so a block's history
 * is held once, not twice.
 */
export function changeSetKeyList(record: Uint8Array): Uint8Array {
  const keys = changeSetKeys(record);
  let size = 0;
  for (const key of keys) size += 2 + key.length;
  const out = new Uint8Array(size);
  let o = 0;
  for (const key of keys) {
    out[o] = key.length >>> 8;
    out[o + 1] = key.length & 0xff;
    out.set(key, o + 2);
    o += 2 + key.length;
  }
  return out;
}

/** What is wrong with a 'v' record's layout, of either form (the integrity sweep), or undefined. */
export function changeSetProblem(record: Uint8Array): string | undefined {
  if (record[0] === CHANGE_SET_FORM) {
    if (record.length < CHANGE_SET_HEAD) return `a change set of ${record.length} bytes, shorter than its head`;
    const view = new DataView(record.buffer, record.byteOffset, record.byteLength);
    const count = view.getUint32(1);
    let size = CHANGE_SET_HEAD + count * CHANGE_SET_ENTRY;
    if (size > record.length) return `a change set of ${record.length} bytes naming ${count} writes`;
    for (let i = 0, e = CHANGE_SET_HEAD; i < count; i++, e += CHANGE_SET_ENTRY) size += view.getUint16(e) + Math.max(0, view.getInt32(e + 2));
    return size === record.length ? undefined : `a change set of ${record.length} bytes whose writes take ${size}`;
  }
  let o = 0;
  while (o + 2 <= record.length) o += 2 + ((record[o]! << 8) | record[o + 1]!);
  return o === record.length ? undefined : `a key list of ${record.length} bytes whose keys take ${o}`;
}

/** The keys of a 'v' record, of either form: a change set, or a key list ((length u16 BE ‖ key)*). */
export function changeSetKeys(list: Uint8Array): Uint8Array[] {
  const keys: Uint8Array[] = [];
  if (list[0] === CHANGE_SET_FORM) {
    forEachChange(list, (key) => keys.push(key));
    return keys;
  }
  for (let o = 0; o < list.length;) {
    const length = (list[o]! << 8) | list[o + 1]!;
    keys.push(list.subarray(o + 2, o + 2 + length));
    o += 2 + length;
  }
  return keys;
}

/** Bytes of the history records (keys and values), counted by a scan: the bench's figure. */
export async function stateHistoryBytes(db: Db): Promise<{ records: number; bytes: number }> {
  let records = 0;
  let bytes = 0;
  for (const prefix of [Prefix.History, Prefix.ChangeSet]) {
    const iterator = db.iterator({ gte: Uint8Array.of(prefix), lt: Uint8Array.of(prefix + 1) });
    try {
      for (;;) {
        const entries = await iterator.nextv(4096);
        if (entries.length === 0) break;
        for (const [key, value] of entries) {
          records++;
          bytes += key.length + value.length;
        }
      }
    } finally {
      await iterator.close();
    }
  }
  return { records, bytes };
}
