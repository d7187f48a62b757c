import type { Level } from 'level';
import { FORMAT, TREE_MARKER } from './keys.js';

/**
 * Format 5 → 6 (docs/storage.md "Format marker"): format 6 adds the state tree's group records
 * (0xF2: the 16 bucket hashes under each level-12 node, docs/state-root.md "Group records"), which a
 * format 5 tree lacks. The move drops TREE_MARKER and sets the format in one synced batch; the open
 * that follows finds no marker and rebuilds the whole tree from the state records
 * (ChainStore.rebuildTree), group records included, and the chain checks the rebuilt root against
 * the head block's. A kill during the rebuild leaves no marker, so the next open rebuilds again.
 */
export async function migrateFormat5(db: Level<Uint8Array, Uint8Array>): Promise<void> {
  await db.batch([
    { type: 'del', key: TREE_MARKER },
    { type: 'put', key: FORMAT, value: Uint8Array.of(6) },
  ], { sync: true });
}
