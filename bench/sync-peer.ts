import { decodeStoredBlock } from '../src/chain/block.js';
import { fromHex, initHashing } from '../src/codec/hash.js';
import type { Logger } from '../src/logger.js';
import { P2PNetwork } from '../src/p2p/network.js';
import { ChainStore } from '../src/storage/chain-store.js';
import { join } from 'node:path';
import { Level } from 'level';

/**
 * The serving peer of the sync benchmark (bench/sync.ts) as a process of its own, as a peer is:
 * it opens the data dir a chain was produced into and serves its blocks over `/ntv/blocks/1`, and
 * nothing else. Arguments: data dir, chain id, genesis hash (hex). Prints its first multiaddr on
 * stdout once listening; stops on SIGTERM.
 */

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };
const [dataDir, chainId, genesisHex] = process.argv.slice(2);
if (!dataDir || !chainId || !genesisHex) throw new Error('usage: sync-peer <data-dir> <chain-id> <genesis-hash-hex>');

await initHashing();
// The source process closed its store a moment ago; opening it replays LevelDB's log and leaves
// level-0 tables to compact. A peer that serves has long been open, its tables settled: settle them
// first, so the benchmark's two cores carry serving and syncing only, not this start-up housekeeping.
// level's types cover its browser build too; in Node it is classic-level, which has compactRange.
const raw = new Level<Uint8Array, Uint8Array>(join(dataDir, 'db'), { keyEncoding: 'view', valueEncoding: 'view' });
await raw.open();
await (raw as unknown as { compactRange(start: Uint8Array, end: Uint8Array): Promise<void> })
  .compactRange(Uint8Array.of(0), Uint8Array.of(0xff, 0xff, 0xff, 0xff));
await raw.close();
const store = new ChainStore(join(dataDir, 'db'));
await store.open();
const head = (await store.head()) ?? 0;
const headBlock = await store.getBlock(head);
const headHash = headBlock ? decodeStoredBlock(headBlock).header.hash : new Uint8Array(32);
const genesisHash = fromHex(genesisHex, 32, 'genesis hash');
const network = await P2PNetwork.create({
  listenPort: 0, host: '127.0.0.1', genesisHash, chainId: Number(chainId), enforceValidatorAllowlist: false, logger: quiet,
  dataDir, bootnodes: [], head: () => ({ height: head, hash: headHash }),
});
network.setBlockServer(async (from, count) => {
  const to = Math.min(head, from + count - 1);
  const heights = Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
  return (await store.getBlocks(heights)).map((block) => ({ block: block!, certificate: new Uint8Array(0) }));
});
await network.start();
process.stdout.write(`${network.multiaddrs()[0]!}\n`);
process.on('SIGTERM', () => {
  void network.stop().then(() => store.close()).then(() => process.exit(0));
});
