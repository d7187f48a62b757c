// Double signing end to end (spec §3, §7.8, §8; docs/staking.md "Double signing"): two
// genesis validators whose keys the test holds, short jail durations from --chain-params. The test
// signs two different headers at one height with validator B's key, submits ReportDoubleSign in a
// signed bundle, sees B jailed for the first duration, svc_unjail refused early and accepted after,
// and a second offence jailed for the second duration. Bad evidence is refused at admission.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ed25519PublicKey, signEd25519, Signer } from '../../src/codec/keys.js';
import { deriveAccount, encodeAccount } from '../../src/codec/address.js';
import { headerHash, headerSigningBytes, type UnsignedHeader } from '../../src/chain/block.js';
import type { Operation } from '../../src/codec/operations.js';
import { subscribeLogs, TestNode, until } from './harness.js';
import { bundleFor, signedHex, systemAddressHex } from './bundles.js';

const NTV = 1_000_000_000n;
const JAIL = [6, 12];

interface Receipt { status: string; status_name: string; block_height: number; timestamp?: number; bundle_hash: string; events: Array<Record<string, unknown> & { type: string }> }
/** The events of the receipt's operations, without the bundle-level Fee and KeyRegistered (docs/staking.md "Events"). */
const ownEvents = (r: Receipt) => r.events.filter((e) => e.op_index !== null);
interface Validator { address: string; is_jailed: boolean; jail_release_time: number; active: boolean; offences?: number }
interface Health { addresses: string[] }

let dir: string;
let a: TestNode;
let b: TestNode;
const seedA = randomBytes(32);
const seedB = randomBytes(32);
const keyB = ed25519PublicKey(seedB);
const addressB = encodeAccount(deriveAccount(keyB));
const reporter = Signer.generate();
let nonce = 0n;

/** Two different signed headers of B at `height` (they differ in timestamp). */
function evidence(height: number, badSignature = false): Operation {
  const header = (ts: number): UnsignedHeader => ({
    chainId: 1_618_032, height, parentHash: new Uint8Array(32).fill(7), timestamp: ts, proposer: deriveAccount(keyB), proposerPubkey: keyB,
    stateRoot: new Uint8Array(32), transactionsRoot: new Uint8Array(32), gasUsed: 0, gasLimit: 0, baseFee: 10, bundleCount: 0, round: 0, missed: [],
  });
  const h1 = header(1_800_000_000);
  const h2 = header(1_800_000_001);
  const sigB = signEd25519(seedB, headerHash(h2));
  return {
    type: 'ReportDoubleSign', validator: keyB, height: BigInt(height),
    headerA: headerSigningBytes(h1), sigA: signEd25519(badSignature ? seedA : seedB, headerHash(h1)),
    headerB: headerSigningBytes(h2), sigB,
  };
}

async function report(op: Operation) {
  const bundle = bundleFor(reporter, nonce, [op], nonce === 0n ? { senderPubkey: reporter.publicKey } : {});
  const res = await a.call<Receipt>('svc_submitBundle', [signedHex(reporter, bundle)]);
  if (!res.error) nonce++;
  return res;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ntv-double-sign-'));
  await writeFile(join(dir, 'a.key'), seedA.toString('hex'));
  await writeFile(join(dir, 'b.key'), seedB.toString('hex'));
  await writeFile(join(dir, 'params.json'), JSON.stringify({ epoch_length: 5, jail_durations: JAIL }));
  const common = [
    '--block-time', '1', '--chain-params', join(dir, 'params.json'),
    '--genesis-validators', `${Buffer.from(ed25519PublicKey(seedA)).toString('hex')},${Buffer.from(keyB).toString('hex')}`,
  ];
  a = await TestNode.start({ dataDir: join(dir, 'a'), args: ['--validator-key', join(dir, 'a.key'), ...common] });
  const health = await a.result<Health>('svc_validatorHealth');
  const bootnode = health.addresses.find((x) => x.includes('/quic-v1/p2p/'))!;
  b = await TestNode.start({ dataDir: join(dir, 'b'), args: ['--validator-key', join(dir, 'b.key'), '--bootnodes', bootnode, ...common] });
  await a.waitForHeight(3, 60_000);
  await a.result('svc_transfer', [systemAddressHex(7), reporter.address, 'NTV', (10n * NTV).toString()]);
  // svc_unjail is a bundle of B's staking account, which pays its fee: fund it rather than rely on
  // B having proposed a block with fees in it (fees go to the proposer's account, spec §1.8).
  await a.result('svc_transfer', [systemAddressHex(7), addressB, 'NTV', NTV.toString()]);
}, 120_000);

afterAll(async () => {
  await b?.stop();
  await a?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('peer connectivity (docs/staking.md "Reputation")', () => {
  it('is 1 for this node\'s validator and its connected peer validator once the two are connected', async () => {
    // Both genesis validators are active; A's only other active validator is B, connected since both make blocks.
    const factors = async (who: string) => (await a.result<{ reputation: { factors: Record<string, number> } }>('svc_getValidator', [who])).reputation.factors;
    const addressA = encodeAccount(deriveAccount(ed25519PublicKey(seedA)));
    await until('A to see B as a peer', async () => (await a.result<string>('net_peerCount')) !== '0x0', 30_000);
    await until('A\'s connectivity to count B', async () => (await factors(addressA)).peer_connectivity === 1, 30_000);
    expect((await factors(addressB)).peer_connectivity).toBe(1);
  });
});

describe('ReportDoubleSign', () => {
  it('refuses evidence whose signature does not verify, before any block', async () => {
    const res = await report(evidence(2, true));
    expect(res.error?.code).toBe(-32001);
    expect(res.error?.data).toMatchObject({ status: 'INVALID_EVIDENCE' });
    expect(res.error?.message).toMatch(/sig_a does not verify/);
    expect((await a.result<Validator>('svc_getValidator', [addressB])).is_jailed).toBe(false);
  });

  it('jails for the first duration, refuses an early unjail, accepts it after; a second offence jails for the second duration', async () => {
    // their log items carry the same events (docs/staking.md "Events", issue 41 item 8)
    const logs = await subscribeLogs<{ bundleHash: string; data: { event?: unknown } }>(a, { opType: ['ReportDoubleSign', 'Unjail'] });
    const logged = (hash: string) => until(`the log item of ${hash}`, async () => logs.items.find((l) => l.bundleHash === hash)?.data.event, 20_000);

    const first = await report(evidence(2));
    expect(first.error).toBeUndefined();
    expect(first.result!.status).toBe('success');
    const jailed = await a.result<Validator>('svc_getValidator', [addressB]);
    const block = await a.result<{ timestamp: number }>('svc_getBlockByHeight', [first.result!.block_height]);
    expect(jailed).toMatchObject({ is_jailed: true, active: false, jail_release_time: block.timestamp + JAIL[0]! });
    // the receipt carries the DoubleSignReported event, also in svc_getTransactionReceipt
    const reported = { type: 'DoubleSignReported', op_index: 0, validator: addressB, consensus_key: Buffer.from(keyB).toString('hex'), reporter: reporter.address, height: 2, offences: 1, jailed_until: jailed.jail_release_time };
    expect(ownEvents(first.result!)).toEqual([reported]);
    expect(ownEvents(await a.result<Receipt>('svc_getTransactionReceipt', [first.result!.bundle_hash]))).toEqual([reported]);
    expect(await logged(first.result!.bundle_hash)).toEqual(reported);

    const early = await a.call('svc_unjail', [addressB]);
    expect(early.error).toMatchObject({ code: -32002, data: { status: 'JAIL_NOT_EXPIRED' } });
    expect((await a.result<Validator>('svc_getValidator', [addressB])).is_jailed).toBe(true);

    const duplicate = await report(evidence(2));
    expect(duplicate.error?.data).toMatchObject({ status: 'DUPLICATE_EVIDENCE' });

    await until('jail period to end', async () => Date.now() / 1000 > jailed.jail_release_time + 1, 30_000);
    const unjailed = await a.result<Receipt>('svc_unjail', [addressB]);
    expect(unjailed.status).toBe('success');
    expect(ownEvents(unjailed)).toEqual([{ type: 'ValidatorUnjailed', op_index: 0, validator: addressB }]);
    expect(ownEvents(await a.result<Receipt>('svc_getTransactionReceipt', [unjailed.bundle_hash]))).toEqual(ownEvents(unjailed));
    expect(await logged(unjailed.bundle_hash)).toEqual(ownEvents(unjailed)[0]);
    logs.close();
    expect((await a.result<Validator>('svc_getValidator', [addressB])).is_jailed).toBe(false);

    const second = await report(evidence(3));
    expect(second.result?.status).toBe('success');
    const again = await a.result<Validator>('svc_getValidator', [addressB]);
    const block2 = await a.result<{ timestamp: number }>('svc_getBlockByHeight', [second.result!.block_height]);
    expect(again).toMatchObject({ is_jailed: true, offences: 2, jail_release_time: block2.timestamp + JAIL[1]! });
  }, 90_000);
});
