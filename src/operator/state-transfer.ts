/**
 * `npx ntv-node export` / `import` and `run --dry-run-import` (spec §4.20, issue 24 item 6;
 * docs/operations.md "Export and import"): the state of a data directory at its head, with the head
 * block, written to one file (src/storage/state-export.ts) and read back, verified, into an empty
 * data directory from which a node starts at that height and syncs the rest from peers.
 */
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeBlock, decodeStoredBlock, type BlockHeader } from '../chain/block.js';
import { bundleHash } from '../codec/bundle.js';
import { initHashing } from '../codec/hash.js';
import { ChainStore } from '../storage/chain-store.js';
import { ExportFormatError, readStateExport, writeStateExport, type ExportHead, type ExportManifest } from '../storage/state-export.js';
import { NODE_VERSION } from '../version.js';

export { ExportFormatError };

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** Opening a database a running node holds fails with LEVEL_LOCKED under its cause: say so. */
async function openStore(dbPath: string): Promise<ChainStore> {
  const store = new ChainStore(dbPath);
  try {
    await store.open();
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    if ((error as { code?: string }).code === 'LEVEL_LOCKED' || cause?.code === 'LEVEL_LOCKED') {
      throw new Error(`the database at ${dbPath} is in use by a running node: stop it first`);
    }
    throw error;
  }
  return store;
}

export interface ExportResult {
  manifest: ExportManifest;
  records: number;
  bytes: number;
  fileBytes: number;
}

/** Export the state of `dataDir` at its head to `out`. */
export async function exportDataDir(dataDir: string, out: string, onProgress?: (records: number, bytes: number) => void): Promise<ExportResult> {
  await initHashing();
  const dbPath = join(dataDir, 'db');
  if (!(await stat(dbPath).catch(() => undefined))) throw new Error(`no database at ${dbPath}: is ${dataDir} a node's data directory?`);
  const store = await openStore(dbPath);
  try {
    return await exportFromStore(store, out, onProgress);
  } finally {
    await store.close();
  }
}

/** Export the state of an open store (a running node's, for snapshots) at its head, from one consistent snapshot. */
export async function exportFromStore(store: ChainStore, out: string, onProgress?: (records: number, bytes: number) => void): Promise<ExportResult> {
  const dbPath = store.path;
  {
    const read = await store.openRead();
    try {
      if (read.head === undefined) throw new Error(`the database at ${dbPath} holds no chain`);
      const head = await read.headBlock();
      if (!head) throw new Error(`the head block ${read.head} cannot be read from the block files`);
      const genesis = await read.block(0);
      if (!genesis) throw new Error('the genesis block cannot be read from the block files');
      const { header } = decodeStoredBlock(head.block);
      const manifest: ExportManifest = {
        format: 'ntv-state-export', version: 1, chainId: header.chainId, height: header.height, blockHash: hex(header.hash),
        stateRoot: hex(header.stateRoot), nodeVersion: NODE_VERSION, createdAt: new Date().toISOString(),
      };
      const written = await writeStateExport(read, { ...head, genesis }, manifest, out, onProgress);
      return { manifest, ...written, fileBytes: (await stat(out)).size };
    } finally {
      await read.close();
    }
  }
}

export interface ImportResult {
  manifest: ExportManifest;
  records: number;
  ms: number;
}

/**
 * Import `file` into `dataDir`, which must hold no database yet. Everything is verified (framing,
 * order, checksum, the root against the tree records, the manifest and the block's header) before
 * the head is written; on any failure the database and block files this call created are removed,
 * so nothing is left half-imported.
 */
export async function importIntoDataDir(
  file: string, dataDir: string, options: {
    chainId?: number; onProgress?: (records: number, compressedBytes: number) => void;
    /**
     * Run once every record is in and the root verified, before the head is written: throw an
     * ExportFormatError to refuse the file (the snapshot head check, src/operator/snapshots.ts).
     */
    checkHead?: (header: BlockHeader, certificate: Uint8Array, state: { get(key: Uint8Array): Uint8Array | undefined }) => void;
  } = {},
): Promise<ImportResult> {
  const started = Date.now();
  await initHashing();
  const dbPath = join(dataDir, 'db');
  const blocksPath = join(dataDir, 'blocks');
  for (const path of [dbPath, blocksPath]) {
    const entries = await readdir(path).catch(() => [] as string[]);
    if (entries.length > 0) throw new Error(`${path} already exists: import into a new data directory (the import never replaces a database)`);
  }
  if (!(await stat(file).catch(() => undefined))) throw new ExportFormatError(`${file}: no such file`);
  const store = await openStore(dbPath);
  let head: ExportHead | undefined;
  try {
    const { manifest, records } = await readStateExport(file, {
      onHead: (m, h) => {
        let header;
        try {
          header = decodeStoredBlock(h.block).header;
        } catch (error) {
          throw new ExportFormatError(`${file}: its head block does not decode (${(error as Error).message})`);
        }
        if (header.height !== m.height || hex(header.hash) !== m.blockHash || hex(header.stateRoot) !== m.stateRoot) {
          throw new ExportFormatError(`${file}: its manifest (height ${m.height}, root ${m.stateRoot}) disagrees with its head block (height ${header.height}, root ${hex(header.stateRoot)})`);
        }
        let genesis;
        try {
          genesis = decodeStoredBlock(h.genesis).header;
        } catch (error) {
          throw new ExportFormatError(`${file}: its genesis block does not decode (${(error as Error).message})`);
        }
        if (genesis.height !== 0 || genesis.chainId !== header.chainId) throw new ExportFormatError(`${file}: its genesis block is not block 0 of chain ${header.chainId}`);
        if (options.chainId !== undefined && header.chainId !== options.chainId) {
          throw new ExportFormatError(`${file} is of chain ${header.chainId}, this node runs chain ${options.chainId}`);
        }
        head = h;
      },
      onRecords: (batch) => store.putStateRecords(batch),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
    const block = decodeBlock(head!.block, bundleHash);
    options.checkHead?.(block.header, head!.certificate ?? new Uint8Array(0), { get: (key) => store.getStateSync(key) });
    // The genesis block first (peers check its hash, docs/p2p.md), then the head: two blocks,
    // in height order, in the block files; nothing between them is held (markRestored).
    if (manifest.height > 0) {
      const genesis = decodeBlock(head!.genesis, bundleHash);
      await store.commitBlock({ height: 0, hash: genesis.header.hash, block: head!.genesis, bundleHashes: genesis.bundleHashes, state: [] });
    }
    await store.commitBlock({
      height: manifest.height, hash: block.header.hash, block: head!.block, ...(head!.outcome ? { outcome: head!.outcome } : {}),
      bundleHashes: block.bundleHashes, state: [], ...(head!.certificate ? { certificate: head!.certificate } : {}),
    });
    await store.markRestored(manifest.height);
    await store.close();
    return { manifest, records, ms: Date.now() - started };
  } catch (error) {
    await store.close().catch(() => undefined);
    await rm(dbPath, { recursive: true, force: true });
    await rm(blocksPath, { recursive: true, force: true });
    throw error;
  }
}

/** `--dry-run-import <file>`: the import into a temporary data directory, removed after; the real one is never opened. */
export async function dryRunImport(file: string, onProgress?: (records: number, compressedBytes: number) => void): Promise<ImportResult> {
  const dir = await mkdtemp(join(tmpdir(), 'ntv-dry-run-import-'));
  try {
    return await importIntoDataDir(file, dir, onProgress ? { onProgress } : {});
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
