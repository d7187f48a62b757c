import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeBlock, headerHash, type Block } from '../../src/chain/block.js';
import { BlockCheckError, checkBlock, checkBlockAsync } from '../../src/chain/pipeline/1-check.js';
import { signEd25519, verifyEd25519 } from '../../src/codec/keys.js';
import { identity, openLocalChain, type LocalChain } from '../../testkit/local-chain.js';

/**
 * Step 1 of the block path (src/chain/pipeline/1-check.ts; docs/architecture.md "Block path"): import
 * runs it synchronously, replay with a verifier that may be asynchronous. Both must refuse the same
 * blocks with the same kind and message, in the same order, or an auditor's replay and a validator
 * would disagree on what a valid block is.
 */

const opened: LocalChain[] = [];
afterAll(async () => {
  for (const l of opened) await l.close();
});

let maker: LocalChain, follower: LocalChain;
let block: Block;
const validator = identity();

beforeAll(async () => {
  // Two chains of one genesis: the maker makes block 1; the follower's core still holds genesis, block 1's parent.
  maker = await openLocalChain({ validator, genesisValidators: [validator.publicKey] });
  follower = await openLocalChain({ validator, genesisValidators: [validator.publicKey] });
  opened.push(maker, follower);
  maker.chain.start();
  const sender = new Uint8Array(32);
  sender[31] = 1;
  await maker.chain.submitOperations(sender, [{ type: 'Transfer', to: validator.address, token: new Uint8Array(32), amount: 1n }]).catch(() => undefined);
  await maker.chain.stop();
  block = (await maker.chain.blockByHeight(1))!;
  expect(block.bundles.length).toBeGreaterThan(0);
});

/** Both forms of step 1 on `encoded`: the kind and message each throws, or 'ok'. */
async function bothForms(encoded: Uint8Array, options: { certificate?: Uint8Array; chainId?: number; parent?: Block['header'] } = {}) {
  const parent = options.parent ?? follower.chain.executionParent;
  const core = follower.chain.executionCore;
  const args = { chainId: options.chainId ?? follower.chain.chainId };
  const certificate = options.certificate ?? new Uint8Array(0);
  const outcome = (run: () => unknown) => Promise.resolve().then(run).then(() => 'ok', (e: unknown) => {
    if (!(e instanceof BlockCheckError)) throw e;
    return `${e.kind}: ${e.message}`;
  });
  const sync = await outcome(() => checkBlock(encoded, certificate, parent, core, { ...args, verify: verifyEd25519 }));
  const async = await outcome(() => checkBlockAsync(encoded, certificate, parent, core, { ...args, verify: async (...a) => verifyEd25519(...a) }));
  expect(async).toBe(sync);
  return sync;
}

/** The block with a changed header, re-hashed and re-signed by `seed` unless told otherwise. */
function altered(change: Partial<Block['header']>, opts: { rehash?: boolean; seed?: Uint8Array } = {}): Uint8Array {
  const header = { ...block.header, ...change };
  if (opts.rehash !== false) {
    const hash = headerHash(header);
    header.hash = hash;
    header.signature = signEd25519(opts.seed ?? validator.seed, hash);
  }
  return encodeBlock({ ...block, header });
}

describe('step 1 of the block path, synchronous (import) and asynchronous (replay)', () => {
  it('passes the block its validator made on top of its parent', async () => {
    expect(await bothForms(encodeBlock(block))).toBe('ok');
  });

  it('refuses, with the same kind and message in both forms: malformed, another chain, not next, a bad hash, a bad transactions root', async () => {
    expect(await bothForms(encodeBlock(block).subarray(0, 40))).toMatch(/^MALFORMED_BLOCK: block does not decode/);
    expect(await bothForms(encodeBlock(block), { chainId: block.header.chainId + 1 })).toMatch(/^WRONG_CHAIN: /);
    expect(await bothForms(encodeBlock(block), { parent: { ...follower.chain.executionParent, hash: new Uint8Array(32).fill(1) } })).toMatch(/^NOT_NEXT: block 1 .* does not extend 0/);
    expect(await bothForms(altered({ timestamp: block.header.timestamp + 1 }, { rehash: false }))).toBe('BAD_HASH: the header does not hash to the block hash it carries');
    expect(await bothForms(altered({ bundleCount: block.header.bundleCount + 1 }))).toMatch(/^BAD_TRANSACTIONS_ROOT: the bundles \(\d+, header says \d+\)/);
  });

  it('refuses a proposer outside the set before its signature, a bad signature, and a certificate that does not decode', async () => {
    const stranger = identity();
    expect(await bothForms(altered({ proposerPubkey: stranger.publicKey, proposer: stranger.address }, { seed: stranger.seed }))).toMatch(/^BAD_PROPOSER: proposer [0-9a-f]{64} is not a validator/);
    const badSignature = { ...block.header, signature: block.header.signature.slice() };
    badSignature.signature[0]! ^= 1;
    expect(await bothForms(encodeBlock({ ...block, header: badSignature }))).toMatch(/^BAD_SIGNATURE: the proposer signature of [0-9a-f]{64} does not verify/);
    expect(await bothForms(encodeBlock(block), { certificate: new Uint8Array([1, 2, 3]) })).toMatch(/^BAD_CERTIFICATE: certificate does not decode/);
  });
});
