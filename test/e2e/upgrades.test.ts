// Upgrade governance over JSON-RPC against running nodes (spec §3 "Node upgrade", §4.13, §4.20,
// §7.7; docs/upgrades.md): the governance flags recorded in genesis, svc_scheduleUpgrade /
// svc_voteUpgrade / svc_cancelUpgrade / svc_getUpgradePlan with their refusals, exit 42 with
// upgrade-info.json at an approved plan's height, the same binary refusing to go past it on a
// restart, flags that contradict the chain refused, and mainnet (convenience refused, signed
// bundle accepted).
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Signer } from '../../src/codec/keys.js';
import { bundleFor, signedHex } from './bundles.js';
import { TestNode } from './harness.js';

const authority = Signer.generate();
const alice = Signer.generate();
const SUM = 'ab'.repeat(32);

interface Receipt { status: string; status_name?: string; block_height: number; events: Array<Record<string, unknown>> }
interface Overview {
  plan: null | { name: string; state: string; height: number; proposer: string; checksum: string; binary_url: string; info_url: string; decided_height: number | null };
  applied: null | { name: string; height: number };
  grace_until: number | null;
  node_version: string;
  implements: string[];
  governance: { mode: string; authority: string | null; quorum_percent: number; voting_period: number };
}

let node: TestNode;
const authorityHex = Buffer.from(authority.publicKey).toString('hex');

beforeAll(async () => {
  node = await TestNode.start({ args: ['--block-time', '0.5', '--gas-price', '0', '--upgrade-authority', authorityHex, '--voting-period', '40'] });
}, 60_000);

afterAll(async () => {
  await node?.stop();
});


describe('upgrade governance over JSON-RPC (spec §4.13)', () => {
  it('svc_getUpgradePlan reports the governance the flags recorded in genesis, no plan, and this node\'s version', async () => {
    const o = await node.result<Overview>('svc_getUpgradePlan');
    expect(o).toMatchObject({ plan: null, applied: null, grace_until: null, node_version: '0.1.0', implements: ['v0.1.0'] });
    expect(o.governance).toEqual({ mode: 'seed-authority', authority: authority.address, quorum_percent: 67, voting_period: 40 });
  });

  it('refuses bad input with clear errors and no state change', async () => {
    const head = (await node.result<{ blockHeight: number }>('svc_getNetworkStats')).blockHeight;
    const past = await node.rpcError('svc_scheduleUpgrade', ['v9', Math.max(1, head - 1), '', SUM, '', alice.address]);
    expect(past.code).toBe(-32602);
    expect(past.message).toMatch(/"height" \(param 2\) must be above the next block's height/);
    expect((await node.rpcError('svc_scheduleUpgrade', ['bad name', head + 100, '', SUM, '', alice.address])).message).toMatch(/"name" \(param 1\)/);
    expect((await node.rpcError('svc_scheduleUpgrade', ['v9', head + 100, '', '00'.repeat(32), '', alice.address])).message).toMatch(/"checksum" \(param 4\) must be the SHA-256/);
    expect((await node.rpcError('svc_scheduleUpgrade', ['v9', head + 100, '', 'abcd', '', alice.address])).message).toMatch(/"checksum" \(param 4\)/);
    expect((await node.rpcError('svc_scheduleUpgrade', ['v9', head + 100, 'x'.repeat(513), SUM, '', alice.address])).code).toBe(-32602);
    expect((await node.rpcError('svc_voteUpgrade', ['nope', true, authority.address])).code).toBe(-32003);
    expect((await node.rpcError('svc_cancelUpgrade', ['nope', authority.address])).code).toBe(-32003);
    expect((await node.rpcError('svc_getUpgradePlan', ['nope'])).code).toBe(-32003);
    expect((await node.result<Overview>('svc_getUpgradePlan')).plan).toBeNull();
  });

  it('a plan by anyone waits for the authority; other voters and cancels are refused by the core; the authority rejects it', async () => {
    const head = (await node.result<{ blockHeight: number }>('svc_getNetworkStats')).blockHeight;
    const r = await node.result<Receipt>('svc_scheduleUpgrade', ['v0.1.9', head + 200, 'file:///tmp/none.tgz', SUM, 'https://example.org/notes', alice.address]);
    expect(r.status).toBe('success');
    expect(r.events.find((e) => e.type === 'UpgradeScheduled')).toMatchObject({ name: 'v0.1.9', proposer: alice.address, state: 'pending' });
    expect((await node.result<Overview>('svc_getUpgradePlan')).plan).toMatchObject({ name: 'v0.1.9', state: 'pending', decided_height: null, checksum: SUM });
    const notVoter = await node.rpcError('svc_voteUpgrade', ['v0.1.9', true, alice.address]);
    expect(notVoter.code).toBe(-32002);
    expect(JSON.stringify(notVoter.data)).toMatch(/NOT_UPGRADE_VOTER/);
    const second = await node.rpcError('svc_scheduleUpgrade', ['v0.2.1', head + 300, '', SUM, '', alice.address]);
    expect(JSON.stringify(second.data)).toMatch(/UPGRADE_PLAN_ACTIVE/);
    const reject = await node.result<Receipt>('svc_voteUpgrade', ['v0.1.9', false, authority.address]);
    expect(reject.events.find((e) => e.type === 'UpgradeVoted')).toMatchObject({ approve: false, state: 'rejected' });
    expect((await node.result<Overview>('svc_getUpgradePlan', ['v0.1.9'])).plan!.state).toBe('rejected');
    expect((await node.result<Overview>('svc_getUpgradePlan')).plan).toBeNull();
    const taken = await node.rpcError('svc_scheduleUpgrade', ['v0.1.9', head + 300, '', SUM, '', alice.address]);
    expect(JSON.stringify(taken.data)).toMatch(/UPGRADE_NAME_TAKEN/);
  });

  it('an approved plan stops the node before its height: upgrade-info.json, exit 42; the same binary refuses to go on', async () => {
    const head = (await node.result<{ blockHeight: number }>('svc_getNetworkStats')).blockHeight;
    const height = head + 12;
    await node.result<Receipt>('svc_scheduleUpgrade', ['v0.2.0', height, 'https://releases.example.org/ntv-node-0.2.0.tgz', SUM, 'https://releases.example.org/0.2.0', alice.address]);
    const approve = await node.result<Receipt>('svc_voteUpgrade', ['v0.2.0', true, authority.address]);
    expect(approve.events.find((e) => e.type === 'UpgradeVoted')).toMatchObject({ approve: true, state: 'approved' });
    // the proposer can no longer withdraw an approved plan
    const late = await node.rpcError('svc_cancelUpgrade', ['v0.2.0', alice.address]);
    expect(JSON.stringify(late.data)).toMatch(/NOT_UPGRADE_AUTHORITY/);
    expect(await node.waitForExit(60_000)).toBe(42);
    const info = JSON.parse(await readFile(join(node.dataDir, 'upgrade-info.json'), 'utf8'));
    expect(info).toEqual({ name: 'v0.2.0', height, binary: 'https://releases.example.org/ntv-node-0.2.0.tgz', checksum: SUM, info: 'https://releases.example.org/0.2.0' });
    expect(node.logs).toMatch(/upgrade "v0\.2\.0" was approved for height/);
    // Restarted with the same binary: it says why and exits 42 again, without a block past the height.
    await expect(node.launch()).rejects.toThrow(/node exited with 42[\s\S]*does not implement it and will not execute block/);
  }, 90_000);
});

describe('governance flags that contradict the chain', () => {
  it('a restart with another --governance-mode or --upgrade-authority is refused, naming the flag', async () => {
    const other = await TestNode.start({ args: ['--block-time', '1', '--governance-mode', 'full', '--upgrade-quorum', '75'] });
    const o = await other.result<Overview>('svc_getUpgradePlan');
    expect(o.governance).toEqual({ mode: 'full', authority: null, quorum_percent: 75, voting_period: 500 });
    await other.kill9();
    await expect(TestNode.start({ dataDir: other.dataDir, args: ['--governance-mode', 'seed-authority'] })).rejects.toThrow(/--governance-mode seed-authority \(the chain records full\)/);
    await expect(TestNode.start({ dataDir: other.dataDir, args: ['--upgrade-authority', authorityHex] })).rejects.toThrow(/--upgrade-authority/);
    // the recorded values, or no flags at all, start it
    const same = await TestNode.start({ dataDir: other.dataDir, args: ['--upgrade-quorum', '75'] });
    expect((await same.result<Overview>('svc_getUpgradePlan')).governance.mode).toBe('full');
    await same.kill9();
    const plain = await TestNode.start({ dataDir: other.dataDir });
    expect((await plain.result<Overview>('svc_getUpgradePlan')).governance.quorum_percent).toBe(75);
    await plain.stop();
    await rm(other.dataDir, { recursive: true, force: true });
  }, 60_000);
});

describe('--auto-vote-seed', () => {
  it('the authority\'s node votes for a pending plan by itself, once', async () => {
    const seed = new Uint8Array(32).fill(0x5a);
    const auth = Signer.fromSeed(seed);
    const voter = await TestNode.start({ args: ['--block-time', '0.5', '--gas-price', '0', '--upgrade-authority', Buffer.from(auth.publicKey).toString('hex'), '--auto-vote-seed', Buffer.from(seed).toString('hex')] });
    try {
      const head = (await voter.result<{ blockHeight: number }>('svc_getNetworkStats')).blockHeight;
      await voter.result('svc_scheduleUpgrade', ['v0.5.0', head + 500, '', SUM, '', alice.address]);
      const deadline = Date.now() + 20_000;
      let state = 'pending';
      while (Date.now() < deadline && state === 'pending') {
        state = (await voter.result<Overview>('svc_getUpgradePlan')).plan!.state;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(state).toBe('approved');
      expect(voter.logs).toMatch(/voting for the pending plan/);
    } finally {
      await voter.stop();
    }
  }, 60_000);
});

describe('mainnet', () => {
  it('refuses the convenience methods (-32004) and accepts a signed ScheduleUpgrade bundle', async () => {
    // gas price 0: the authority's fresh account pays no fee (mainnet has no faucet).
    const main = await TestNode.start({ args: ['--network', 'mainnet', '--block-time', '1', '--gas-price', '0', '--upgrade-authority', authorityHex] });
    try {
      const bundle = bundleFor(authority, 0n, [{ type: 'ScheduleUpgrade', name: 'v0.2.0', height: 5000n, binaryUrl: '', checksum: new Uint8Array(32).fill(0xab), infoUrl: '' }], { senderPubkey: authority.publicKey });
      const receipt = await main.result<Receipt>('svc_submitBundle', [signedHex(authority, bundle)]);
      expect(receipt.status).toBe('success');
      expect((await main.result<Overview>('svc_getUpgradePlan')).plan).toMatchObject({ name: 'v0.2.0', state: 'approved', height: 5000, proposer: authority.address });
      for (const [method, params] of [
        ['svc_scheduleUpgrade', ['v0.2.0', 500, '', SUM, '', authority.address]],
        ['svc_voteUpgrade', ['v0.2.0', true, authority.address]],
        ['svc_cancelUpgrade', ['v0.2.0', authority.address]],
      ] as const) {
        expect((await main.call(method, [...params])).error?.code, method).toBe(-32004);
      }
    } finally {
      await main.stop();
    }
  }, 60_000);
});
