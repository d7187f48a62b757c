import type { Level } from 'level';
import { BlockAppender, blockFilesDir, decodeLocation, encodeLocation } from './block-files.js';
import { blockKey, FORMAT, metaKey, outcomeKey, Prefix, readU64, u64 } from './keys.js';

/**
 * Format 3 → 4 (docs/storage.md "Format marker"): a format 3 database holds each block's bytes under
 * 'b' and its stored result under 'e'. They move into the block files, oldest first, and 'b' takes
 * their location. The state, indexes and every other record stay as they are, so an upgraded node
 * keeps its chain instead of syncing it again.
 *
 * A kill at any moment is safe. Each step appends a run of blocks, syncs the files, then writes one
 * synced batch: their locations, the 'e' deletions and the marker of the last block moved. A restart
 * cuts the files back to the marker's block (BlockAppender.open) and goes on after it. The format
 * becomes 4 only in the last batch, so until then the node opens the database as format 3 again.
 */

/** 'b' holds locations up to this height (u64 BE) while a migration is under way. */
export const MIGRATED = metaKey('migrated-to-block-files');
/** Blocks moved per synced step: a few hundred full blocks, ~50 MB. */
const BLOCKS_PER_STEP = 256;

export interface MigrationEvents {
  /** after each step: the blocks moved so far, up to `height`, of the database's head */
  onMigrationProgress?(height: number, head: number): void;
}

export async function migrateFormat3(db: Level<Uint8Array, Uint8Array>, dbPath: string, head: number, events: MigrationEvents = {}): Promise<void> {
  const marker = await db.get(MIGRATED);
  const moved = marker === undefined ? -1 : readU64(marker);
  const markerLocation = moved < 0 ? undefined : await db.get(blockKey(moved));
  const files = BlockAppender.open(blockFilesDir(dbPath), markerLocation && decodeLocation(markerLocation));
  try {
    const iterator = db.iterator({ gte: blockKey(moved + 1), lt: Uint8Array.of(Prefix.Block + 1) });
    try {
      for (;;) {
        const entries = await iterator.nextv(BLOCKS_PER_STEP);
        if (entries.length === 0) break;
        const outcomes = await db.getMany(entries.map(([key]) => outcomeKey(readU64(key.subarray(1)))));
        const batch = db.batch();
        let last = moved;
        for (const [i, [key, block]] of entries.entries()) {
          last = readU64(key.subarray(1));
          batch.put(key, encodeLocation(files.append(block, outcomes[i])));
          batch.del(outcomeKey(last));
        }
        batch.put(MIGRATED, u64(last));
        await files.sync();
        await batch.write({ sync: true });
        events.onMigrationProgress?.(last, head);
      }
    } finally {
      await iterator.close();
    }
  } finally {
    files.close();
  }
  await db.batch([{ type: 'put', key: FORMAT, value: Uint8Array.of(4) }, { type: 'del', key: MIGRATED }], { sync: true });
}
