import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ed25519PublicKey, signEd25519, Signer } from '../../src/codec/keys.js';
import { headerHash, transactionsRoot } from '../../src/chain/block.js';
import { deriveAccount, parseHash } from '../../src/codec/address.js';
import { encodeProposalMessage } from '../../src/consensus/engine.js';
import { P2PNetwork } from '../../src/p2p/network.js';
import type { Logger } from '../../src/logger.js';
import { TestNode, freePort, sleep } from './harness.js';
import { bundleFor, signedHex, systemAddressHex, transferOp } from './bundles.js';

// Issue 5 item 2 end to end (docs/consensus.md): four validator processes on 127.0.0.1 over real
// QUIC agree on every block; one is killed and the chain goes on, skipping it after 3 misses; it
// comes back and syncs to the head; a fresh non-validator syncs from genesis.

interface Health { height: number; peerId: string | null; addresses: string[] }
interface Header { height: number; hash: string; stateRoot: string; round: number; missed: string[] }
interface Leader { consensus_key: string; address: string | null }
interface CurrentLeader { height: number; source: string; leader: Leader; backups: Leader[]; round: number | null; missed: Leader[] }
interface Dag { height: number; canonical: { hash: string; parentBlocks: string[]; stateRoot: string }; attestations: Array<{ validator: string; parent: string; state_root: string }>; attestationCount: number }
interface Receipt { status: string; block_height: number; block_hash: string; bundle_hash: string }
interface Status { height: number; validator_count: number; own_role: string; mode: string; last_finality: { ms: number } | null; total_stake: string }

/**
 * Long enough that the killed validator's three misses and the eight blocks after them all fall
 * before the first boundary, which forgives misses (docs/consensus.md): the kill comes after the
 * tests before it, at a height that grows when a loaded machine makes them slow (it was ~70 in one
 * CI run, where 80 was too short). The restart test then waits for the boundary, ~20 s of blocks.
 */
const EPOCH = 120;
let dir: string;
const nodes: TestNode[] = [];
let observer: TestNode | undefined;
const keys: string[] = [];
let seeds: Buffer[] = [];
const p2pPorts: number[] = [];
let common: string[];

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

const height = (n: TestNode) => n.result<{ blockHeight: number }>('svc_getNetworkStats').then((s) => s.blockHeight);
const header = (n: TestNode, h: number) => n.result<Header>('svc_getBlockByHeight', [h]);

/** Every node holds the same block hash and state root at every height 0..upTo. */
async function expectAgreement(group: TestNode[], upTo: number, from = 0): Promise<void> {
  for (let h = from; h <= upTo; h++) {
    const headers = await Promise.all(group.map((n) => header(n, h)));
    for (const x of headers) expect({ h, hash: x.hash, root: x.stateRoot }).toEqual({ h, hash: headers[0]!.hash, root: headers[0]!.stateRoot });
  }
}

async function bootnode(n: TestNode): Promise<string> {
  const health = await n.result<Health>('svc_validatorHealth');
  return health.addresses.find((a) => a.includes('127.0.0.1') && a.includes('/quic-v1/p2p/'))!;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ntv-network-'));
  seeds = Array.from({ length: 4 }, () => randomBytes(32));
  const files: string[] = [];
  for (const [i, seed] of seeds.entries()) {
    files.push(join(dir, `v${i}.key`));
    await writeFile(files[i]!, seed.toString('hex'));
    keys.push(Buffer.from(ed25519PublicKey(seed)).toString('hex'));
  }
  // One-block slots so each validator's turn comes often; short failover for the test (docs/consensus.md).
  // Epochs of 80 blocks: the kill, its 3 misses and the blocks that skip it all fall in the first
  // epoch, and the restarted validator gets its turns back at the boundary.
  await writeFile(join(dir, 'params.json'), JSON.stringify({ slot_length: 1, epoch_length: EPOCH }));
  common = [
    '--genesis-validators', keys.join(','), '--chain-params', join(dir, 'params.json'), '--block-time', '0.5',
    '--failover-timeout', '0.5', '--failover-step', '0.3', '--p2p-host', '127.0.0.1',
  ];
  const boots: string[] = [];
  for (let i = 0; i < 4; i++) {
    p2pPorts.push(await freePort());
    const node = await TestNode.start({
      args: [...common, '--validator-key', files[i]!, '--p2p-port', String(p2pPorts[i]), ...(boots.length ? ['--bootnodes', boots.join(',')] : [])],
    });
    nodes.push(node);
    boots.push(await bootnode(node));
  }
}, 60_000);

// A failed test leaves the nodes' own account of it: this file once stalled below height 6 in a CI
// run and passed alone, with nothing to read. Each node's log is kept in a directory named on
// stderr, and its last lines are printed there (the CI's output outlives the machine's /tmp).
afterEach(async (context) => {
  if (context.task.result?.state !== 'fail') return;
  const kept = await mkdtemp(join(tmpdir(), 'ntv-network-failure-'));
  for (const [i, n] of [...nodes, ...(observer ? [observer] : [])].entries()) {
    await writeFile(join(kept, `node-${i}.log`), n.logs);
    process.stderr.write(`--- node ${i} (${n.url}), last lines of ${join(kept, `node-${i}.log`)}:\n${n.logs.split('\n').slice(-40).join('\n')}\n`);
  }
});

afterAll(async () => {
  await Promise.all([...nodes, ...(observer ? [observer] : [])].map((n) => n.stop()));
  await rm(dir, { recursive: true, force: true });
});

describe('four validators over QUIC', () => {
  it('agree on every block hash and state root, each final with votes of > 2/3 of the stake', async () => {
    await until('height 6 on every node', async () => (await Promise.all(nodes.map(height))).every((h) => h >= 6));
    const status = await nodes[0]!.result<Status>('svc_consensusStatus');
    expect(status.validator_count).toBe(4);
    expect(status.mode).toBe('multi');
    expect(['leader', 'backup', 'validator']).toContain(status.own_role);
    await expectAgreement(nodes, 6);
    // 3 of 4 equal stakes is the least > 2/3: the proposer's vote plus at least two attestations
    for (let h = 1; h <= 6; h++) {
      const dag = await nodes[h % 4]!.result<Dag>('svc_getBlockDAG', [h]);
      expect(dag.attestationCount).toBeGreaterThanOrEqual(2);
      expect(dag.attestations.every((a) => a.parent === dag.canonical.hash && a.state_root === dag.canonical.stateRoot)).toBe(true);
      expect(new Set(dag.attestations.map((a) => a.validator)).size).toBe(dag.attestationCount);
      const attestations = await nodes[0]!.result<unknown[]>('svc_getAttestations', [h]);
      expect(attestations.length).toBeGreaterThanOrEqual(2);
    }
    const bad = await nodes[0]!.call('svc_getAttestations', [1_000_000]);
    expect(bad.error?.code).toBe(-32003);
    const badParam = await nodes[0]!.call('svc_getBlockDAG', ['x']);
    expect(badParam.error?.code).toBe(-32602);
    const genesisLeader = await nodes[0]!.call('svc_getCurrentLeader', [0]);
    expect(genesisLeader.error?.code).toBe(-32602);
    const status2 = await nodes[1]!.result<Status>('svc_consensusStatus');
    expect(status2.last_finality).not.toBeNull();
  }, 40_000);

  it('includes bundles submitted to any node; every node re-executes them to the same state', async () => {
    const signer = Signer.generate();
    const to = Signer.generate().address;
    const funded = await nodes[2]!.result<Receipt>('svc_transfer', [systemAddressHex(1), signer.address, 'NTV', '5000000000']);
    expect(funded.status).toBe('success');
    const signed = await nodes[3]!.result<Receipt>('svc_submitBundle', [
      signedHex(signer, bundleFor(signer, 0n, [transferOp(to, 1_000_000_000n)], { senderPubkey: signer.publicKey })),
    ]);
    expect(signed.status).toBe('success');
    await until('the block everywhere', async () => (await Promise.all(nodes.map(height))).every((h) => h >= signed.block_height));
    for (const n of nodes) {
      expect(await n.result<Receipt>('svc_getTransactionReceipt', [signed.bundle_hash])).toMatchObject({ status: 'success', block_hash: signed.block_hash });
      expect(await n.result<string>('svc_getBalance', [to])).toBe('1000000000');
    }
    await expectAgreement(nodes, signed.block_height, Math.max(0, funded.block_height - 1));

    // A failing signed bundle is included once, with its fee; its bytes sent to every node again
    // are refused everywhere (docs/core-abi.md "Failed bundles: fee and replay"). The observer that
    // joins below replays these blocks through its own core to the same roots.
    // A token amount the signer lacks: it passes admission (docs/mempool.md "Funds") and fails in the core.
    const usdc = (await nodes[3]!.result<{ mint_address: string }>('svc_getTokenInfo', ['USDC'])).mint_address;
    const failing = signedHex(signer, bundleFor(signer, 1n, [transferOp(to, 1n), transferOp(to, 10n ** 15n, usdc)]));
    const failed = await nodes[3]!.call('svc_submitBundle', [failing]);
    expect(failed.error).toMatchObject({ code: -32002, data: { status: 'INSUFFICIENT_BALANCE' } });
    const receipt = (failed.error!.data as { receipt: Receipt & { fee: string } }).receipt;
    expect(BigInt(receipt.fee)).toBeGreaterThan(0n);
    await until('the failed bundle everywhere', async () => (await Promise.all(nodes.map(height))).every((h) => h >= receipt.block_height));
    for (const n of nodes) {
      const again = await n.call('svc_submitBundle', [failing]);
      expect(again.error).toMatchObject({ code: -32001, data: { status: 'ALREADY_INCLUDED' } });
      expect(await n.result<Receipt>('svc_getTransactionReceipt', [receipt.bundle_hash])).toMatchObject({ status: 'failed', block_hash: receipt.block_hash });
      expect(await n.result<string>('svc_getBalance', [signer.address])).toBe(String(5_000_000_000n - 1_000_000_000n - 21_000n * 10n - BigInt(receipt.fee)));
    }
    await expectAgreement(nodes, receipt.block_height, signed.block_height);
  }, 60_000);

  it('goes on without a killed validator, fails over, then skips it after 3 misses', async () => {
    const victim = nodes[1]!;
    const victimKey = keys[1]!;
    const survivors = nodes.filter((n) => n !== victim);
    // Killed just after a block of its own, so its run of misses starts at zero (it resets when it proposes).
    await until('a block proposed by the validator to be killed', async () => {
      const x = await survivors[0]!.result<Header & { proposerPublicKey: string }>('svc_getBlockByHeight', [await height(survivors[0]!)]);
      return x.proposerPublicKey === victimKey;
    });
    await victim.kill9();
    const killedAt = Math.max(...(await Promise.all(survivors.map(height))));
    // Its turns go to backups, and the headers name it as missed, until it has missed 3 in a row.
    // The run counts from its last proposal, as the core's missed_in_row does: on a loaded machine a
    // live validator misses turns too (this file's failover is 0.5 s), so a turn missed between that
    // block and the kill is in the run (three misses counted from the kill waited forever in one CI
    // run, for a validator skipped after its first miss past the kill).
    const headers = new Map<number, Header & { proposerPublicKey: string }>();
    const misses = await until('the killed leader\'s third miss in a row', async () => {
      const top = await height(survivors[0]!);
      let run: Header[] = [];
      for (let h = 1; h <= top; h++) {
        if (!headers.has(h)) headers.set(h, await survivors[0]!.result('svc_getBlockByHeight', [h]));
        const x = headers.get(h)!;
        if (x.proposerPublicKey === victimKey) run = [];
        else if (x.missed.includes(victimKey)) run.push(x);
        if (run.length === 3) return run;
      }
      return undefined;
    }, 60_000);
    // the last of them after the kill, each proposed by a backup in a later round
    expect(misses[2]!.height).toBeGreaterThan(killedAt);
    for (const x of misses) expect(x.round).toBeGreaterThanOrEqual(1);
    const thirdMiss = misses[2]!.height;
    // From then on it is skipped: no header names it, and the schedule does not list it. (A header
    // of a later round names only survivors that were slow to propose on a loaded machine.)
    const top = thirdMiss + 8;
    expect(top).toBeLessThan(EPOCH); // misses are forgiven at the boundary (docs/consensus.md)
    await until(`height ${top}`, async () => (await height(survivors[0]!)) >= top, 40_000);
    for (let h = thirdMiss + 1; h <= top; h++) {
      const x = await header(survivors[0]!, h);
      expect(x.missed).not.toContain(victimKey);
    }
    const next = await survivors[0]!.result<CurrentLeader>('svc_getCurrentLeader', [null]);
    expect(next.source).toBe('schedule');
    expect([next.leader, ...next.backups].map((l) => l.consensus_key)).not.toContain(victimKey);
    const past = await survivors[0]!.result<CurrentLeader>('svc_getCurrentLeader', [thirdMiss]);
    expect(past.source).toBe('block');
    expect(past.missed.map((l) => l.consensus_key)).toContain(victimKey);
    await expectAgreement(survivors, top);
  }, 90_000);

  it('the killed validator restarts, syncs back to the head, and leads again after the epoch boundary', async () => {
    const victim = nodes[1]!;
    await victim.launch();
    const target = await height(nodes[0]!);
    await until('the restarted node at the head', async () => (await height(victim)) >= target + 2, 40_000);
    await expectAgreement([nodes[0]!, victim], target + 2);
    // Its run of misses is forgiven at the epoch boundary; from then on it proposes in its turn.
    const proposedAgain = await until('a block proposed by the restarted validator after the boundary', async () => {
      const top = await height(nodes[0]!);
      for (let h = EPOCH + 1; h <= top; h++) {
        const x = await nodes[0]!.result<Header & { proposerPublicKey: string }>('svc_getBlockByHeight', [h]);
        if (x.proposerPublicKey === keys[1]) return x;
      }
      return undefined;
    }, 60_000);
    expect(proposedAgain.round).toBe(0);
  }, 120_000);

  it('a fresh non-validator joins and syncs from genesis', async () => {
    const boots = await Promise.all([bootnode(nodes[0]!), bootnode(nodes[2]!)]);
    observer = await TestNode.start({ args: [...common, '--p2p-port', String(await freePort()), '--bootnodes', boots.join(',')] });
    const target = await height(nodes[0]!);
    await until('the observer at the head', async () => (await height(observer!)) >= target, 40_000);
    await expectAgreement([nodes[0]!, observer], target);
    const status = await observer.result<Status>('svc_consensusStatus');
    expect(status.own_role).toBe('observer');
  }, 60_000);

  it('two different blocks signed by one validator at one height, seen on gossip, get it reported and jailed', async () => {
    const node = nodes[0]!;
    const offender = 3;
    // The report is a bundle of the node's validator account, which pays its fee.
    const reporter = (await node.result<{ validator: string }>('svc_version')).validator;
    expect((await node.result<Receipt>('svc_transfer', [systemAddressHex(1), reporter, 'NTV', '10000000000'])).status).toBe('success');
    const genesis = await header(node, 0);
    const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };
    const peerDir = join(dir, 'peer');
    await mkdir(peerDir, { recursive: true });
    const peer = await P2PNetwork.create({
      dataDir: peerDir, listenPort: 0, host: '127.0.0.1', bootnodes: [await bootnode(node)], genesisHash: parseHash(genesis.hash),
      chainId: 1618032, enforceValidatorAllowlist: false, logger: quiet,
    });
    try {
      await peer.start();
      await until('the handshake', async () => peer.readyPeers().length > 0, 20_000);
      // Two conflicting headers at a past height, both signed with the offender's consensus key.
      const at = await height(node);
      const parent = await header(node, at - 1);
      const signed = (root: number) => {
        const pubkey = new Uint8Array(ed25519PublicKey(seeds[offender]!));
        const unsigned = {
          chainId: 1618032, height: at, parentHash: parseHash(parent.hash), timestamp: Math.floor(Date.now() / 1000),
          proposer: deriveAccount(pubkey), proposerPubkey: pubkey, stateRoot: new Uint8Array(32).fill(root),
          transactionsRoot: transactionsRoot([]), gasUsed: 0, gasLimit: 1_000_000_000, baseFee: 10, bundleCount: 0, round: 0, missed: [],
        };
        const hash = headerHash(unsigned);
        return { header: { ...unsigned, hash, signature: signEd25519(seeds[offender]!, hash) }, bundles: [], bundleHashes: [] };
      };
      const before = (await node.result<{ counters: Record<string, number> }>('svc_consensusStatus')).counters;
      for (const root of [1, 2]) await peer.publish('blocks', encodeProposalMessage(signed(root)));
      await until('the report', async () => (await node.result<{ counters: Record<string, number> }>('svc_consensusStatus')).counters.reports_submitted! > before.reports_submitted!, 20_000);
      const validator = await until('the offender jailed', async () => {
        const list = await node.result<Array<{ consensus_key: string; is_jailed: boolean; offences: number }>>('svc_listValidators', []);
        const v = list.find((x) => x.consensus_key === keys[offender]);
        return v?.is_jailed ? v : undefined;
      }, 20_000);
      expect(validator.offences).toBe(1);
      // The jailed key leaves the voting set at once; the three others go on.
      const jailedAt = await height(node);
      await until('blocks after the jailing', async () => (await height(node)) >= jailedAt + 3, 20_000);
      expect((await node.result<Status>('svc_consensusStatus')).validator_count).toBe(3);
    } finally {
      await peer.stop();
    }
  }, 60_000);
});
