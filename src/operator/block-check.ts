/**
 * `--verify-on-start`'s check of the block files (issue 46 item 9; docs/operations.md "Integrity").
 * The database sweep (src/storage/integrity.ts) checks where each block lies, not what is there: a
 * byte flipped in the middle of a block file passed it, and the RPC served the wrong bundle hash.
 * Each held block is read back and checked against the hashes stored for it:
 *
 * - its header hashes to the hash it carries, and the database's `h` record of that hash names
 *   its height (the header's fields and the block hash);
 * - its bundles hash to the header's transactions root (every bundle byte);
 * - its execution result decodes, has a row per bundle, and its gas matches the header's and the
 *   rows' sum (the result has no hash in the header: a flipped byte that still decodes to other
 *   events is found by `ntv-node replay`, docs/replay.md).
 */
import { decodeStoredBlock, headerHash, transactionsRoot } from '../chain/block.js';
import { bundleHash } from '../codec/bundle.js';
import { BlockResultView } from '../core/block-result.js';
import type { StateAnomaly } from '../storage/state-root-check.js';
import type { ChainStore } from '../storage/chain-store.js';

const BATCH = 100;

export interface BlockFileReport {
  blocks: number;
  anomalies: StateAnomaly[];
  anomalyCount: number;
  ms: number;
}

export async function verifyBlockFiles(store: ChainStore, head: number, maxAnomalies = 10): Promise<BlockFileReport> {
  const started = Date.now();
  const anomalies: StateAnomaly[] = [];
  let anomalyCount = 0;
  let blocks = 0;
  const report = (height: number, reason: string) => {
    anomalyCount++;
    if (anomalies.length < maxAnomalies) anomalies.push({ key: `block ${height}`, reason });
  };
  const oldest = await store.oldestBlock();
  const heights = [0, ...range(Math.max(1, oldest), head + 1)];
  for (let i = 0; i < heights.length; i += BATCH) {
    const batch = heights.slice(i, i + BATCH);
    const read = await readBlocks(store, batch);
    for (const [j, height] of batch.entries()) {
      const entry = read[j];
      if (entry === undefined) continue; // genesis not held after a restore: nothing to check
      if (typeof entry === 'string') {
        report(height, entry);
        continue;
      }
      blocks++;
      const reason = await checkBlock(store, height, entry.block, entry.outcome);
      if (reason) report(height, reason);
    }
  }
  return { blocks, anomalies, anomalyCount, ms: Date.now() - started };
}

/** The blocks with their decoded results; a height whose result does not decode gets the reason. */
async function readBlocks(store: ChainStore, heights: number[]): Promise<Array<{ block: Uint8Array; outcome: Uint8Array | undefined } | string | undefined>> {
  try {
    return await store.getExecutedBlocks(heights);
  } catch {
    // one of them failed: each on its own, to name it
    return Promise.all(heights.map(async (height) => {
      try {
        return (await store.getExecutedBlocks([height]))[0];
      } catch (error) {
        return `its stored execution result does not decode: ${(error as Error).message}`;
      }
    }));
  }
}

async function checkBlock(store: ChainStore, height: number, bytes: Uint8Array, outcome: Uint8Array | undefined): Promise<string | undefined> {
  let decoded: ReturnType<typeof decodeStoredBlock>;
  try {
    decoded = decodeStoredBlock(bytes);
  } catch (error) {
    return `the stored block does not decode: ${(error as Error).message}`;
  }
  const { header, bundles } = decoded;
  if (header.height !== height) return `the block stored at height ${height} says height ${header.height}`;
  const hash = headerHash(header);
  if (Buffer.compare(hash, header.hash) !== 0) return `the header hashes to ${hex(hash)}, not the hash it carries (${hex(header.hash)}): a header field was altered`;
  const indexed = await store.heightOfHash(header.hash);
  if (indexed !== height) return `the database's record of block hash ${hex(header.hash)} names height ${indexed ?? 'none'}`;
  if (bundles.length !== header.bundleCount) return `${bundles.length} bundles stored, the header says ${header.bundleCount}`;
  const root = transactionsRoot(bundles.map(bundleHash));
  if (Buffer.compare(root, header.transactionsRoot) !== 0) return `its bundles hash to transactions root ${hex(root)}, the header names ${hex(header.transactionsRoot)}: a bundle's bytes were altered`;
  if (height === 0 || outcome === undefined) return height === 0 ? undefined : 'its execution result is missing';
  try {
    const result = new BlockResultView(outcome);
    if (result.count !== bundles.length) return `its execution result has ${result.count} rows for ${bundles.length} bundles`;
    let gas = 0n;
    for (let i = 0; i < result.count; i++) gas += BigInt(result.gasUsedOf(i));
    if (result.gasUsed !== BigInt(header.gasUsed) || gas !== result.gasUsed) return `its execution result's gas (${result.gasUsed}, rows ${gas}) differs from the header's ${header.gasUsed}`;
    void result.events;
  } catch (error) {
    return `its execution result does not decode: ${(error as Error).message}`;
  }
  return undefined;
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
}
