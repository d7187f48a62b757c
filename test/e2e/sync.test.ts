import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ed25519PublicKey, Signer } from '../../src/codec/keys.js';
import { TestNode, until } from './harness.js';
import { bundleFor, signedHex, systemAddressHex, transferOp } from './bundles.js';

// Issue 5 items 1 and 3 end to end: a non-validator follows a solo validator over libp2p QUIC,
// re-executing every block (docs/p2p.md).

const NTV = 1_000_000_000n;

interface Health {
  height: number; peers: number; syncing: boolean; peerId: string | null; addresses: string[]; inValidatorSet: boolean;
  sync: { currentHeight: number; highestHeight: number | null; startingHeight: number; blocksImported: number; txIndexHeight: number };
  uptimeSeconds: number; version: string;
}
interface Dragonfly { enabled: boolean; sealType: string; forwarded: number; direct: number; received: number; rejected: number }
interface Header { height: number; hash: string; stateRoot: string }
interface Receipt { status: string; block_height: number; block_hash: string; bundle_hash: string }

let dir: string;
let a: TestNode;
let b: TestNode | undefined;
let genesisArgs: string[];
const recipients = Array.from({ length: 4 }, () => Signer.generate().address);
/** receipts of the transfers made before B existed */
const early: Receipt[] = [];

async function header(node: TestNode, height: number): Promise<Header> {
  return node.result<Header>('svc_getBlockByHeight', [height]);
}

/** Same header (hence state root) at every height up to `height`, and the same balances. */
async function expectSameChain(height: number): Promise<void> {
  for (let h = 0; h <= height; h++) {
    const [x, y] = await Promise.all([header(a, h), header(b!, h)]);
    expect({ height: h, hash: y.hash, stateRoot: y.stateRoot }).toEqual({ height: h, hash: x.hash, stateRoot: x.stateRoot });
  }
  for (const address of recipients) {
    expect(await b!.result('svc_getBalance', [address])).toBe(await a.result('svc_getBalance', [address]));
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ntv-sync-'));
  const seed = randomBytes(32);
  const keyFile = join(dir, 'a.key');
  await writeFile(keyFile, seed.toString('hex'));
  genesisArgs = ['--genesis-validators', Buffer.from(ed25519PublicKey(seed)).toString('hex')];
  a = await TestNode.start({ args: ['--validator-key', keyFile, '--block-time', '1', ...genesisArgs] });
  // Blocks with transfers before B exists: B must sync them from genesis.
  for (let round = 0; round < 3; round++) {
    early.push(...await Promise.all(recipients.map((to, i) => a.result<Receipt>('svc_transfer', [systemAddressHex(1 + (i % 2)), to, 'NTV', String(BigInt(round + 1) * NTV)]))));
  }
  await a.waitForHeight(5);
});

afterAll(async () => {
  await b?.stop();
  await a?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('block sync and forwarding over libp2p', () => {
  it('a fresh non-validator syncs from genesis to the validator\'s head with equal state roots and balances', async () => {
    const healthA = await a.result<Health>('svc_validatorHealth');
    expect(healthA.inValidatorSet).toBe(true);
    expect(healthA.addresses.length).toBeGreaterThan(0);
    const bootnode = healthA.addresses.find((x) => x.includes('/quic-v1/p2p/'))!;
    expect(bootnode).toMatch(/^\/ip4\/127\.0\.0\.1\/udp\/\d+\/quic-v1\/p2p\/\w+$/);

    // B's data dir is the test's, so stopping B keeps it for the restart below.
    b = await TestNode.start({ dataDir: join(dir, 'b'), args: ['--bootnodes', bootnode, '--block-time', '1', ...genesisArgs] });
    const target = (await a.result<Health>('svc_validatorHealth')).height;
    await b.waitForHeight(target, 30_000);
    const healthB = await b.result<Health>('svc_validatorHealth');
    expect(healthB.inValidatorSet).toBe(false);
    expect(healthB.peers).toBe(1);
    expect(healthB.sync.blocksImported).toBeGreaterThanOrEqual(target);
    expect((await b.result<{ peerCount: number }>('svc_getNetworkStats')).peerCount).toBe(1);
    await expectSameChain(target);

    // B found A's bundles by hash once its lookup index, built behind the catch-up, got there; until
    // then the answer is -32000 TX_INDEXING, never null (docs/storage.md "The transaction lookup index").
    const first = early[0]!;
    const found = await until('the synced bundle by hash on B', async () => {
      const res = await b!.call<Receipt | null>('svc_getTransactionReceipt', [first.bundle_hash]);
      if (res.error) {
        expect(res.error).toMatchObject({ code: -32000, data: { reason: 'TX_INDEXING' } });
        return undefined;
      }
      expect(res.result).not.toBeNull();
      return res.result!;
    });
    expect(found).toMatchObject({ block_height: first.block_height, block_hash: first.block_hash, status: 'success' });
    // The address history, built behind the catch-up with the lookup index: then the same as on A.
    const history = await until('the recipient\'s history on B', async () => {
      const res = await b!.call<Array<{ bundle_hash: string }>>('svc_getAddressHistory', [recipients[0]!]);
      if (res.error) {
        expect(res.error).toMatchObject({ code: -32000, data: { reason: 'TX_INDEXING' } });
        return undefined;
      }
      return res.result!;
    });
    expect(history.map((r) => r.bundle_hash)).toEqual((await a.result<Array<{ bundle_hash: string }>>('svc_getAddressHistory', [recipients[0]!])).map((r) => r.bundle_hash));
    expect(history.length).toBeGreaterThan(0);
    // Once the index is at the head, the health report says so.
    const indexed = await until('the lookup index at the head', async () => {
      const health = await b!.result<Health>('svc_validatorHealth');
      return health.sync.txIndexHeight === health.height ? health : undefined;
    });
    expect(indexed.sync.txIndexHeight).toBeGreaterThanOrEqual(target);
  });

  it('a bundle submitted to the non-validator is forwarded and lands in the validator\'s block', async () => {
    const signer = Signer.generate();
    await a.result('svc_faucet', [signer.address]);
    await until('faucet balance on B', async () => (await b!.result<string>('svc_getBalance', [signer.address])) !== '0');
    const before = { a: await a.result<Dragonfly>('svc_getDragonflyStats'), b: await b!.result<Dragonfly>('svc_getDragonflyStats') };
    expect(before.b).toMatchObject({ enabled: true, sealType: 'ed25519-blake3' });

    const to = recipients[0]!;
    const receipt = await b!.result<Receipt>('svc_submitBundle', [signedHex(signer, bundleFor(signer, 0n, [transferOp(to, NTV)], { senderPubkey: signer.publicKey }))]);
    expect(receipt.status).toBe('success');
    // The block that holds it is A's: same hash on both nodes.
    const onA = await a.result<Receipt>('svc_getTransactionReceipt', [receipt.bundle_hash]);
    expect(onA).toMatchObject({ status: 'success', block_height: receipt.block_height, block_hash: receipt.block_hash });

    const after = { a: await a.result<Dragonfly>('svc_getDragonflyStats'), b: await b!.result<Dragonfly>('svc_getDragonflyStats') };
    expect(after.b.forwarded).toBe(before.b.forwarded + 1);
    // A, the leader, is a peer that proved its key: the bundle went straight to it, not by gossip.
    expect(after.b.direct).toBe(before.b.direct + 1);
    expect(after.a.received).toBe(before.a.received + 1);
    expect(after.a.rejected).toBe(0);
  });

  it('a restarted follower catches up with the blocks made while it was down', async () => {
    await b!.stop();
    const stoppedAt = (await a.result<Health>('svc_validatorHealth')).height;
    for (const to of recipients) await a.result<Receipt>('svc_transfer', [systemAddressHex(2), to, 'NTV', String(NTV)]);
    const target = (await a.result<Health>('svc_validatorHealth')).height;
    expect(target).toBeGreaterThan(stoppedAt);
    await b!.launch();
    await b!.waitForHeight(target, 30_000);
    // It resumed from its own storage: only the missing blocks came over the network.
    const resumed = await b!.result<Health>('svc_validatorHealth');
    expect(resumed.sync.blocksImported).toBeGreaterThanOrEqual(target - stoppedAt);
    expect(resumed.sync.blocksImported).toBeLessThan(target);
    await expectSameChain(target);
  });
});
