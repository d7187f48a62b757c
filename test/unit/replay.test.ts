// The replay engine (src/chain/replay.ts, docs/replay.md) over blocks a local chain produced: the
// same roots at every block, and each kind of divergence reported with its height and bundle.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeGenesisConfig } from '../../src/core/core.js';
import { genesisConfig } from '../../src/chain/genesis.js';
import { DEFAULT_CHAIN_PARAMS } from '../../src/chain/chain-params.js';
import { Replayer, ReplayDivergence, replayBlocks, type RawBlock } from '../../src/chain/replay.js';
import { toHex } from '../../src/codec/hash.js';
import { identity, openLocalChain, produceTransferBlocks, type LocalChain } from '../../testkit/local-chain.js';

let local: LocalChain;
let raws: RawBlock[];
let genesis: Uint8Array;

beforeAll(async () => {
  const validator = identity();
  local = await openLocalChain({ validator, genesisValidators: [validator.publicKey], maxTxsPerBlock: 20 });
  await produceTransferBlocks(local, 6, 20);
  const stored = await local.store.getRawBlocks(Array.from({ length: local.chain.height + 1 }, (_, i) => i));
  raws = stored.map((r) => ({ height: r!.height, block: r!.block, certificate: r!.certificate, ...(r!.result ? { result: r!.result } : {}), bundleHashes: r!.bundleHashes }));
  genesis = encodeGenesisConfig(genesisConfig('testnet', { validators: [validator.publicKey], params: DEFAULT_CHAIN_PARAMS }));
}, 60_000);

afterAll(async () => {
  await local?.close();
});

async function fresh(): Promise<Replayer> {
  const replayer = await Replayer.create();
  replayer.genesis(genesis, raws[0]!);
  return replayer;
}

async function divergence(alter: (raws: RawBlock[]) => RawBlock[]) {
  const replayer = await fresh();
  const blocks = alter(raws.map((r) => ({ ...r, block: r.block.slice(), ...(r.result ? { result: r.result.slice() } : {}) })));
  try {
    for (const raw of blocks.slice(1)) await replayer.apply(raw);
  } catch (error) {
    if (error instanceof ReplayDivergence) return error.divergence;
    throw error;
  }
  throw new Error('no divergence');
}

describe('replay', () => {
  it('replays every block to the chain\'s roots, checking each bundle\'s status', async () => {
    const replayer = await fresh();
    const seen: number[] = [];
    const summary = await replayBlocks(replayer, { blocks: async (hs) => hs.map((h) => raws[h]!) }, { from: 3, to: raws.length - 1 }, { batch: 2, onProgress: (p) => seen.push(p.block.height) });
    expect(seen).toEqual(Array.from({ length: raws.length - 3 }, (_, i) => i + 3));
    expect(summary.blocks).toBe(raws.length - 3);
    expect(summary.statusesChecked).toBe(summary.bundles);
    expect(summary.bundles).toBeGreaterThan(0);
    expect(toHex(summary.stateRoot)).toBe(toHex(local.chain.headHeader.stateRoot));
  });

  it('reports a stored status that replay does not give, naming the bundle', async () => {
    const found = await divergence((blocks) => {
      const target = blocks.find((b) => b.height > 0 && (b.bundleHashes?.length ?? 0) > 1)!;
      // BlockResult rows start after the 28-byte head: status u16 first (docs/core-abi.md)
      new DataView(target.result!.buffer, target.result!.byteOffset).setUint16(28 + 34, 65, true);
      return blocks;
    });
    expect(found).toMatchObject({ kind: 'STATUS_MISMATCH', bundle: 1, expected: expect.any(String), actual: 'OK' });
  });

  it('reports a block that does not extend the previous one, a genesis of other parameters, and a malformed block', async () => {
    expect(await divergence((blocks) => [blocks[0]!, blocks[2]!])).toMatchObject({ height: 2, kind: 'NOT_NEXT' });
    const other = encodeGenesisConfig(genesisConfig('testnet', { validators: [identity().publicKey], params: DEFAULT_CHAIN_PARAMS }));
    const replayer = await Replayer.create();
    expect(() => replayer.genesis(other, raws[0]!)).toThrow(ReplayDivergence);
    expect(await divergence((blocks) => [blocks[0]!, { ...blocks[1]!, block: blocks[1]!.block.subarray(0, 10) }])).toMatchObject({ height: 1, kind: 'MALFORMED_BLOCK' });
    expect(await divergence((blocks) => {
      const json = blocks[1]!.block;
      const at = new TextDecoder().decode(json).indexOf('"gasUsed":') + 10;
      json[at] = json[at] === 0x31 ? 0x32 : 0x31;
      return blocks;
    })).toMatchObject({ height: 1, kind: 'BAD_HASH' });
  });
});
