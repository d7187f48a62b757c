import type { Level } from 'level';
import { FORMAT, TREE_MARKER, u64 } from './keys.js';

/**
 * Format 4 → 5 (docs/storage.md "Format marker"): a format 4 database wrote the state tree's records
 * (bucket records 0xF0, nodes 0xF1) with every block, so its tree describes its head. Format 5
 * writes them at checkpoints and names the checkpoint's height in TREE_MARKER; the move is that
 * marker, set to the head, and the format, in one synced batch. Nothing else changes, so a kill
 * before the batch leaves a format 4 database that is moved again at the next open.
 */
export async function migrateFormat4(db: Level<Uint8Array, Uint8Array>, head: number): Promise<void> {
  await db.batch([
    { type: 'put', key: TREE_MARKER, value: u64(head) },
    { type: 'put', key: FORMAT, value: Uint8Array.of(5) },
  ], { sync: true });
}
