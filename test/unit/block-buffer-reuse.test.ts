import { afterAll, describe, expect, it } from 'vitest';
import { deriveAccount, encodeHash } from '../../src/codec/address.js';
import { generateEd25519 } from '../../src/codec/keys.js';
import { verifyStore } from '../../src/storage/integrity.js';
import { identity, openLocalChain, produceTransferBlocks, type LocalChain } from '../../testkit/local-chain.js';

// The writer thread gives each block write's buffer back once nothing it keeps views it, and the
// next blocks are packed into those buffers (src/storage/block-writer.ts spares, docs/performance.md
// "Fresh buffers every block"). A holder the writer forgot to count would read a later block's
// bytes, or (the buffer being transferred) nothing: every record a block leaves is checked here
// after a run in which buffers were reused many times.

const opened: LocalChain[] = [];
afterAll(async () => {
  for (const l of opened) await l.close();
});

describe('block write buffers reused', () => {
  it('store every block, receipt, address history and state tree record as written', async () => {
    const validator = identity();
    const local = await openLocalChain({ validator, genesisValidators: [validator.publicKey], maxTxsPerBlock: 40 });
    opened.push(local);
    const { chain, store } = local;
    const blocks = 48;
    const perBlock = 40;
    // Back to back, the writer groups several blocks a batch (their state merged); one at a time,
    // each is a group of its own whose state-tree records wait in the tree as views until folded.
    chain.start();
    const recipient = deriveAccount(generateEd25519().publicKey);
    for (let i = 0; i < 12; i++) {
      const included = Array.from({ length: perBlock }, (_, n) => {
        const sender = new Uint8Array(32);
        sender[31] = (n % 4) + 1;
        return chain.enqueueOperations(sender, [{ type: 'Transfer', to: recipient, token: new Uint8Array(32), amount: 1n }]).included;
      });
      await Promise.all(included);
    }
    await produceTransferBlocks(local, blocks - 12, perBlock);

    const stats = store.writeStats;
    expect(stats.recycled).toBeGreaterThan(blocks / 2);
    expect(stats.reused).toBeGreaterThan(blocks / 2);

    // Every bundle's receipt names the block that holds it, at its index.
    const head = chain.height;
    let bundles = 0;
    for (let height = 1; height <= head; height++) {
      const block = (await chain.blockByHeight(height))!;
      for (const [index, hash] of block.bundleHashes.entries()) {
        const receipt = (await chain.receiptByHash(hash))!;
        expect({ height: receipt.block_height, index: receipt.index, hash: receipt.bundle_hash }).toEqual({ height, index, hash: encodeHash(hash) });
        bundles++;
      }
    }
    expect(bundles).toBeGreaterThanOrEqual(blocks * perBlock);

    // The address history (built after each block's batch, from the queued block's views): each of
    // the four senders sent a quarter of the transfers.
    for (let i = 1; i <= 4; i++) {
      const sender = new Uint8Array(32);
      sender[31] = i;
      const history = await chain.indexer.addressHistory(sender, 10_000);
      expect(history.length).toBe((blocks * perBlock) / 4);
    }

    // The state tree (lone blocks' runs held as views until folded) and the state records: the
    // integrity sweep writes the tree at the head, recomputes the root from the records and compares
    // every stored tree record.
    await chain.stop();
    const report = await verifyStore(store);
    expect(report.anomalies).toEqual([]);
    expect(Buffer.from(report.stateRoot).toString('hex')).toBe(Buffer.from(chain.headHeader.stateRoot).toString('hex'));
  }, 120_000);
});
