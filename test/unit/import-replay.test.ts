import { afterAll, describe, expect, it } from 'vitest';
import { bundleHash } from '../../src/codec/bundle.js';
import { encodeBlock, headerHash, transactionsRoot } from '../../src/chain/block.js';
import { importBlock } from '../../src/chain/import.js';
import { signEd25519 } from '../../src/codec/keys.js';
import { encodeHash } from '../../src/codec/address.js';
import { decodeAccount, accountKey } from '../../src/core/records.js';
import { identity, openLocalChain, type LocalChain } from '../../testkit/local-chain.js';
import type { Receipt } from '../../src/chain/receipts.js';

// A block that includes a bundle which already failed at its sender's nonce is invalid on import and
// so in any replay (docs/core-abi.md "Failed bundles: fee and replay").

const opened: LocalChain[] = [];
afterAll(async () => {
  for (const l of opened) await l.close();
});

describe('a failed bundle in a later block', () => {
  it('makes the block invalid on import, and leaves the chain as it was', async () => {
    const validator = identity();
    const local = await openLocalChain({ validator, genesisValidators: [validator.publicKey] });
    opened.push(local);
    const { chain } = local;
    const sender = new Uint8Array(32);
    sender[31] = 1;
    chain.start();
    const unknownToken = new Uint8Array(32).fill(0x77);
    const error = await chain.submitOperations(sender, [{ type: 'Transfer', to: validator.address, token: unknownToken, amount: 1n }])
      .catch((e: { reason: string; data: { receipt: Receipt } }) => e);
    await chain.stop();
    expect(error).toMatchObject({ reason: 'BUNDLE_FAILED' });
    const receipt = (error as { data: { receipt: Receipt } }).data.receipt;
    expect(receipt.status).toBe('failed');
    const failedIn = (await chain.blockByHeight(receipt.block_height))!;
    const index = failedIn.bundleHashes.findIndex((h) => encodeHash(h) === receipt.bundle_hash);
    expect(index).toBeGreaterThanOrEqual(0);
    const failed = failedIn.bundles[index]!;
    expect(decodeAccount(local.state.get(accountKey(sender))!).failed).toHaveLength(1);

    // the same bytes in the next block, under a correct transactions root and the proposer's signature
    const head = chain.headHeader;
    const hashes = [bundleHash(failed)];
    const unsigned = { ...head, height: head.height + 1, parentHash: head.hash, timestamp: head.timestamp + 1, transactionsRoot: transactionsRoot(hashes), bundleCount: 1 };
    const hash = headerHash(unsigned);
    const replay = encodeBlock({ header: { ...unsigned, hash, signature: signEd25519(validator.seed, hash) }, bundles: [failed], bundleHashes: hashes });
    await expect(importBlock(chain, replay, new Uint8Array(0))).rejects.toMatchObject({
      code: 'INVALID_BUNDLE', message: expect.stringMatching(/ALREADY_INCLUDED/),
    });
    expect(chain.height).toBe(head.height);
  });
});
