import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Level } from 'level';
import { readStateMany } from './cold-store.js';
import { BlockFileReader, blockFilesDir, decodeLocation } from './block-files.js';
import { blockKey, FORMAT, HEAD, IndexKeys, Prefix, prefixed, readU64, STORAGE_FORMAT, u64 } from './keys.js';
import { decodeOutcome } from './outcome-codec.js';

/** A block as stored (docs/replay.md "Format"): its bytes, certificate, execution result and indexed bundle hashes. */
export interface StoredRawBlock {
  height: number;
  block: Uint8Array;
  /** empty when the block has none (the genesis block; a single validator's blocks) */
  certificate: Uint8Array;
  /** the core's BlockResult bytes, decoded from their stored form; undefined for the genesis block */
  result: Uint8Array | undefined;
  /** the bundle hashes of the block's 't' index record, in block order (docs/explorer.md "Index layouts") */
  bundleHashes: Uint8Array[];
}

type Db = Level<Uint8Array, Uint8Array>;

/** Read blocks as stored, by height; shared by the node's store and the read-only archive. */
export async function readRawBlocks(db: Db, files: BlockFileReader, heights: readonly number[]): Promise<Array<StoredRawBlock | undefined>> {
  const [locations, certificates, txs] = await Promise.all([
    db.getMany(heights.map(blockKey)),
    db.getMany(heights.map((h) => prefixed(Prefix.Certificate, u64(h)))),
    db.getMany(heights.map(IndexKeys.blockTxs)),
  ]);
  const records = await files.read(locations.map((l) => l && decodeLocation(l)));
  return records.map((r, i) => r && {
    height: heights[i]!,
    block: r.block,
    certificate: certificates[i] ?? new Uint8Array(0),
    result: r.outcome && decodeOutcome(r.outcome),
    bundleHashes: Array.from({ length: (txs[i]?.length ?? 0) / 32 }, (_, k) => txs[i]!.subarray(k * 32, k * 32 + 32)),
  });
}

/**
 * A data directory opened for reading only (the `replay` command, docs/replay.md): nothing is
 * written to it. LevelDB has no read-only mode (opening writes its LOCK, LOG and a new MANIFEST,
 * and may compact), so the database folder is copied to a temporary directory and the copy opened;
 * the block files, which are only ever appended, are read in place. The copy is removed on close.
 * A node may keep running on the data dir: the copy is what its files held at that moment (the
 * newest log records may be missing from it; replay then ends a few blocks short of that node).
 */
export class BlockArchive {
  private constructor(private readonly db: Db, private readonly files: BlockFileReader, private readonly copy: string, readonly head: number) {}

  static async open(dataDir: string): Promise<BlockArchive> {
    const source = join(dataDir, 'db');
    const copy = await mkdtemp(join(tmpdir(), 'ntv-replay-'));
    const target = join(copy, 'db');
    let db: Db | undefined;
    try {
      await cp(source, target, { recursive: true, errorOnExist: true, filter: (path) => !path.endsWith('/LOCK') });
      db = new Level<Uint8Array, Uint8Array>(target, { keyEncoding: 'view', valueEncoding: 'view', createIfMissing: false });
      await db.open();
      const head = await db.get(HEAD);
      if (head === undefined) throw new Error(`${dataDir} holds no blocks`);
      const format = (await db.get(FORMAT))?.[0] ?? 1;
      if (format !== STORAGE_FORMAT) throw new Error(`${dataDir} uses storage format ${format}; replay reads format ${STORAGE_FORMAT} (open it once with this node to migrate it)`);
      return new BlockArchive(db, new BlockFileReader(blockFilesDir(source)), copy, readU64(head));
    } catch (error) {
      await db?.close().catch(() => undefined);
      await rm(copy, { recursive: true, force: true });
      const cause = error as NodeJS.ErrnoException;
      if (cause.code === 'ENOENT') throw new Error(`${dataDir} is not a node data directory (no db/ folder)`);
      throw error;
    }
  }

  blocks(heights: readonly number[]): Promise<Array<StoredRawBlock | undefined>> {
    return readRawBlocks(this.db, this.files, heights);
  }

  /** State values at the head, by state key (undefined: absent). */
  async state(keys: readonly Uint8Array[]): Promise<Array<Uint8Array | undefined>> {
    // through the warm and the cold ranges (src/storage/cold-store.ts)
    return (await readStateMany(this.db, keys)).map((r) => r.value);
  }

  async close(): Promise<void> {
    await this.files.close();
    await this.db.close();
    await rm(this.copy, { recursive: true, force: true });
  }
}
