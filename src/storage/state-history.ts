import type { Level } from 'level';
import { changeSetKey, historyKey, Prefix, readU64, STATE_HISTORY_MARKER, u64 } from './keys.js';

/**
 * The stored state history (docs/storage.md "State history"): the change sets the block writer puts
 * in each block's batch (block-batch.ts `putChangeSet`), read and pruned here on the main thread's
 * handle. ChainStore delegates to these.
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

/**
 * The value of `key` as of the end of block `height`: the previous value recorded by the first block
 * above `height` that wrote the key (its 'u' record), or `changed: false` when none did. One seek.
 */
export async function historyAt(db: Db, key: Uint8Array, height: number): Promise<HistoryRead> {
  const from = historyKey(key, height + 1);
  const to = historyKey(key, Number.MAX_SAFE_INTEGER);
  const iterator = db.iterator({ gte: from, lte: to, limit: 1 });
  try {
    const entry = await iterator.next();
    if (entry === undefined) return { changed: false };
    const value = entry[1];
    return { changed: true, value: value[0] === 0 ? undefined : value.slice(1) };
  } finally {
    await iterator.close();
  }
}

/**
 * Delete the change sets of heights `from … to` (each block's 'v' key list and its 'u' records) and
 * raise the marker to `to`, in batches of 16 blocks; returns the records removed. A kill between
 * batches leaves the marker at the last whole batch: what is left above it is still a continuous
 * history, and the next run deletes the rest.
 */
export async function pruneStateHistory(db: Db, from: number, to: number): Promise<number> {
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

/** The keys of a 'v' record: (length u16 BE ‖ key)*. */
export function changeSetKeys(list: Uint8Array): Uint8Array[] {
  const keys: Uint8Array[] = [];
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
