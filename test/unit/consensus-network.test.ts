import { afterEach, describe, expect, it } from 'vitest';
import { blake3 } from '../../src/codec/hash.js';
import { generateEd25519, signEd25519 } from '../../src/codec/keys.js';
import { decodeBlock, encodeBlock, headerHash, transactionsRoot, type Block, type BlockHeader } from '../../src/chain/block.js';
import { bundleHash } from '../../src/codec/bundle.js';
import {
  ConsensusEngine, encodeCertifiedMessage, encodeProposalMessage, type ConsensusHost, type ConsensusTopic, type ConsensusTransport, type Execution,
  type SigningState, type Turn,
} from '../../src/consensus/engine.js';
import type { ConsensusValidator } from '../../src/consensus/leader.js';
import { encodeCertificate, verifyCertificate, type Certificate } from '../../src/consensus/votes.js';
import type { DoubleSignEvidence } from '../../src/consensus/double-sign.js';
import type { Logger } from '../../src/logger.js';

/**
 * Multi-node consensus over an in-memory network: each node is a ConsensusEngine over a fake chain
 * whose "execution" is deterministic (root = Blake3(parent hash ‖ transactions root)) and whose
 * validator records follow the misses the headers carry, as the core's would.
 */

const CHAIN_ID = 1618032;
const SLOT = 5;
const silent: Logger = { debug() {}, info() {}, warn() {}, error() {}, child() { return silent; } } as unknown as Logger;

class FakeNetwork {
  readonly nodes = new Map<string, { handlers: Map<ConsensusTopic, Array<(d: Uint8Array, from: string) => void>>; up: boolean }>();
  readonly penalties: Array<{ by: string; peer: string; reason: string }> = [];

  transport(id: string): ConsensusTransport {
    const entry = { handlers: new Map<ConsensusTopic, Array<(d: Uint8Array, from: string) => void>>(), up: true };
    this.nodes.set(id, entry);
    return {
      publish: async (topic, data) => {
        if (!entry.up) return 0;
        for (const [other, node] of this.nodes) {
          if (other === id || !node.up) continue;
          const copy = Uint8Array.from(data);
          setImmediate(() => { if (node.up) for (const h of node.handlers.get(topic) ?? []) h(copy, id); });
        }
        return this.nodes.size - 1;
      },
      on: (topic, handler) => entry.handlers.set(topic, [...(entry.handlers.get(topic) ?? []), handler]),
      penalize: (peer, reason) => this.penalties.push({ by: id, peer, reason }),
      peerCount: () => (entry.up ? [...this.nodes.entries()].filter(([other, n]) => other !== id && n.up).length : 0),
    };
  }

  setUp(id: string, up: boolean): void {
    this.nodes.get(id)!.up = up;
  }
}

interface Key { seed: Uint8Array; publicKey: Uint8Array; address: Uint8Array }

function rootOf(parentHash: Uint8Array, txRoot: Uint8Array): Uint8Array {
  const b = new Uint8Array(64);
  b.set(parentHash);
  b.set(txRoot, 32);
  return blake3(b);
}

class FakeChain implements ConsensusHost {
  readonly chainId = CHAIN_ID;
  readonly blocks: BlockHeader[] = [];
  readonly certificates = new Map<number, Certificate>();
  readonly reports: DoubleSignEvidence[] = [];
  executed: Block | undefined;
  engine!: ConsensusEngine;
  /** validator records at the head: misses follow the headers */
  set: ConsensusValidator[];
  /** proposals this node executed and found wrong */
  refused = 0;

  constructor(genesis: BlockHeader, validators: ConsensusValidator[]) {
    this.blocks.push(genesis);
    this.set = validators.map((v) => ({ ...v }));
  }

  head(): BlockHeader { return this.blocks.at(-1)!; }
  validators(): ConsensusValidator[] { return this.set.map((v) => ({ ...v })); }
  params() { return { slotLength: SLOT, epochLength: 1800 }; }
  syncing(): boolean { return false; }

  async execute(block: Block): Promise<Execution> {
    const h = block.header;
    if (Buffer.compare(h.parentHash, this.head().hash) !== 0) return { ok: false, reason: 'not on the head', faulty: false };
    if (Buffer.compare(rootOf(h.parentHash, h.transactionsRoot), h.stateRoot) !== 0) {
      this.refused++;
      return { ok: false, reason: 'state root differs', faulty: true };
    }
    this.executed = block;
    return { ok: true };
  }

  async commit(certificate: Certificate): Promise<boolean> {
    const block = this.executed;
    if (!block) return false;
    this.executed = undefined;
    // the head moved meanwhile (block sync took this height): as the chain's commit, nothing to append
    if (Buffer.compare(block.header.parentHash, this.head().hash) !== 0) return false;
    this.append(block.header, certificate);
    return true;
  }

  async discard(): Promise<void> { this.executed = undefined; }

  async importFinal(encoded: Uint8Array, certificate: Certificate): Promise<void> {
    const block = decodeBlock(encoded, bundleHash);
    // only the next block: a height this node already has (its engine committed it meanwhile) is not taken twice
    if (block.header.height !== this.head().height + 1) return;
    const check = verifyCertificate(certificate, block.header, this.set, 1800);
    if (!check.ok) throw new Error(check.reason);
    if (Buffer.compare(rootOf(block.header.parentHash, block.header.transactionsRoot), block.header.stateRoot) !== 0) throw new Error('bad root');
    this.append(block.header, certificate);
  }

  private append(header: BlockHeader, certificate: Certificate): void {
    this.blocks.push(header);
    this.certificates.set(header.height, certificate);
    for (const v of this.set) {
      if (header.missed.some((k) => Buffer.compare(k, v.consensusKey) === 0)) v.missedInRow++;
      if (Buffer.compare(header.proposerPubkey, v.consensusKey) === 0) v.missedInRow = 0;
    }
    setImmediate(() => this.engine.onHeadAdvanced(header));
  }

  async storedHeader(height: number): Promise<BlockHeader | undefined> { return this.blocks[height]; }
  async reportDoubleSign(e: DoubleSignEvidence): Promise<void> { this.reports.push(e); }
  async storedCertified(height: number) {
    const header = this.blocks[height];
    const certificate = this.certificates.get(height);
    return header && certificate ? { encoded: encodeBlock({ header, bundles: [], bundleHashes: [] }), certificate: encodeCertificate(certificate) } : undefined;
  }
  /** the signing state as a disk would keep it: it survives the engine (a restart builds a new one over it) */
  signing: SigningState = {};
  async saveSigningState(state: SigningState): Promise<void> { this.signing = { ...state }; }
  signingState(): SigningState { return this.signing; }

  /** What the chain's producer does on a turn: build, "execute", sign. */
  build(turn: Turn, key: Key, bundles: Uint8Array[] = []): Block {
    const parent = this.head();
    const bundleHashes = bundles.map(bundleHash);
    const txRoot = transactionsRoot(bundleHashes);
    const unsigned = {
      chainId: CHAIN_ID, height: turn.height, parentHash: parent.hash, timestamp: Math.max(parent.timestamp, Math.floor(Date.now() / 1000)),
      proposer: turn.proposer, proposerPubkey: key.publicKey, stateRoot: rootOf(parent.hash, txRoot), transactionsRoot: txRoot,
      gasUsed: 0, gasLimit: 1, baseFee: 0, bundleCount: bundles.length, round: turn.round, missed: turn.missed,
    };
    const hash = headerHash(unsigned);
    return { header: { ...unsigned, hash, signature: signEd25519(key.seed, hash) }, bundles, bundleHashes };
  }
}

function genesisHeader(): BlockHeader {
  const unsigned = {
    chainId: CHAIN_ID, height: 0, parentHash: new Uint8Array(32), timestamp: 1_700_000_000, proposer: new Uint8Array(32),
    proposerPubkey: new Uint8Array(32), stateRoot: new Uint8Array(32), transactionsRoot: new Uint8Array(32), gasUsed: 0, gasLimit: 0,
    baseFee: 0, bundleCount: 0, round: 0, missed: [],
  };
  return { ...unsigned, hash: headerHash(unsigned), signature: new Uint8Array(0) };
}

interface TestNode { id: string; key: Key; chain: FakeChain; engine: ConsensusEngine; timer: NodeJS.Timeout; up: boolean }

const TIMING = { blockTimeMs: 60, minBlockIntervalMs: 20, failoverBaseMs: 150, failoverStepMs: 100 };

/**
 * Block sync as src/p2p/sync.ts does it, for the tests that restart validators: a node whose peers
 * are ahead takes their final blocks with certificates, 30 at a time. The engine's own catch-up
 * answers only heights within MAX_FUTURE_HEIGHTS (8) of the sender's; a validator that fell further
 * behind (a restart on a loaded machine, with 60 ms blocks here) is the node's block sync's, which
 * the harness did not model (the simulator's "Simulator" section in docs/consensus.md, seed 559072).
 * Only gaps of 3 or more: the usual lag of a block in flight is consensus's own.
 */
async function syncFromPeers(node: TestNode, nodes: TestNode[]): Promise<void> {
  const best = nodes.filter((n) => n !== node && n.up).sort((a, b) => b.chain.head().height - a.chain.head().height)[0];
  if (!best || best.chain.head().height < node.chain.head().height + 3) return;
  for (let i = 0; i < 30 && node.up; i++) {
    const height = node.chain.head().height + 1;
    const header = best.chain.blocks[height];
    const certificate = best.chain.certificates.get(height);
    if (!header || !certificate) return;
    await node.chain.importFinal(encodeBlock({ header, bundles: [], bundleHashes: [] }), certificate);
  }
}

function network(count: number, opts: { stakes?: bigint[]; observers?: number; timing?: typeof TIMING; blockSync?: boolean } = {}) {
  const net = new FakeNetwork();
  const keys: Key[] = Array.from({ length: count }, () => {
    const { seed, publicKey } = generateEd25519();
    return { seed, publicKey, address: blake3(publicKey) };
  });
  const set: ConsensusValidator[] = keys.map((k, i) => ({
    consensusKey: k.publicKey, address: k.address, stake: opts.stakes?.[i] ?? 1000n, performanceBps: 10_000, jailed: false, missedInRow: 0, active: true,
  }));
  const genesis = genesisHeader();
  const nodes: TestNode[] = [];
  const all = [...keys, ...Array.from({ length: opts.observers ?? 0 }, () => {
    const { seed, publicKey } = generateEd25519();
    return { seed, publicKey, address: blake3(publicKey) };
  })];
  all.forEach((key, i) => {
    const id = `node${i}`;
    const chain = new FakeChain(genesis, set);
    const engine = new ConsensusEngine(opts.timing ?? TIMING, { host: chain, transport: net.transport(id), identity: key, logger: silent });
    chain.engine = engine;
    engine.start();
    const node: TestNode = { id, key, chain, engine, up: true, timer: undefined as unknown as NodeJS.Timeout };
    // the chain's block loop in multi-validator mode: ask for a turn, produce, hand it over
    let ticks = 0;
    let syncing = false;
    node.timer = setInterval(() => {
      if (!node.up) return;
      // every 200 ms, as the node's sync loop wakes on its peers' status (opts.blockSync)
      if (opts.blockSync && ++ticks % 20 === 0 && !syncing) {
        syncing = true;
        void syncFromPeers(node, nodes).finally(() => { syncing = false; });
      }
      const turn = node.engine.turn(false);
      if (!turn) return;
      const block = chain.build(turn, key);
      chain.executed = block;
      node.engine.proposed(block, encodeBlock(block));
    }, 10);
    nodes.push(node);
  });
  return { net, nodes, keys, set };
}

let cleanup: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanup) c();
  cleanup = [];
});

function track(nodes: TestNode[]) {
  cleanup.push(() => nodes.forEach((n) => { clearInterval(n.timer); n.engine.stop(); }));
}

async function until(what: string, check: () => boolean, ms = 8000, state?: () => string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${state ? `: ${state()}` : ''}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('consensus over an in-memory network', () => {
  it('4 validators agree on every block, each certified by more than 2/3 of the stake', async () => {
    const { nodes, set } = network(4);
    track(nodes);
    await until('12 blocks everywhere', () => nodes.every((n) => n.chain.blocks.length > 12));
    for (let height = 1; height <= 12; height++) {
      const hashes = new Set(nodes.map((n) => hex(n.chain.blocks[height]!.hash)));
      expect(hashes.size).toBe(1);
      const header = nodes[0]!.chain.blocks[height]!;
      for (const n of nodes) {
        expect(verifyCertificate(n.chain.certificates.get(height)!, header, set, 1800).ok).toBe(true);
      }
      // everyone up: round 0 names nobody missed; a later round (a leader slower than the failover
      // timeout on a loaded machine, which is legitimate) names whom it passed over
      if (header.round === 0) expect(header.missed).toEqual([]);
      else expect(header.missed.length).toBeGreaterThan(0);
    }
    expect(nodes.every((n) => n.engine.finality.length > 0)).toBe(true);
  });

  it('fails over when a leader is down, records it as missed, and skips it after 3 misses', async () => {
    const { net, nodes } = network(4);
    track(nodes);
    await until('2 blocks', () => nodes.every((n) => n.chain.blocks.length > 2));
    // take down the leader of a slot before it proposes there: within the slot before (led by
    // another), at least two heights ahead; a loaded machine can overshoot that window, then the
    // next such slot is taken
    const live = nodes[0]!;
    const leaderAt = (slotStart: number) => hex(live.engine.scheduleFor(slotStart, 1).leaders[0]!.consensusKey);
    let nextSlotStart = (Math.floor(live.chain.head().height / SLOT) + 2) * SLOT;
    for (;;) {
      while (leaderAt(nextSlotStart) === leaderAt(nextSlotStart - SLOT)) nextSlotStart += SLOT;
      const start = nextSlotStart;
      await until('the slot before the victim\'s', () => live.chain.head().height >= start - SLOT, 15_000);
      if (live.chain.head().height <= nextSlotStart - 2) break;
      nextSlotStart += SLOT;
    }
    const victim = nodes.find((n) => hex(n.key.publicKey) === leaderAt(nextSlotStart))!;
    victim.up = false;
    net.setUp(victim.id, false);
    victim.engine.stop();
    const others = nodes.filter((n) => n !== victim);
    await until('past the victim\'s slot', () => others.every((n) => n.chain.head().height >= nextSlotStart + SLOT), 15_000);
    const slotHeaders = others[0]!.chain.blocks.slice(nextSlotStart, nextSlotStart + SLOT);
    const victimKey = hex(victim.key.publicKey);
    // the first three blocks of its slot went to backups and name it as missed
    for (const h of slotHeaders.slice(0, 3)) {
      expect(h.round).toBeGreaterThanOrEqual(1);
      expect(h.missed.map(hex)).toContain(victimKey);
      expect(hex(h.proposerPubkey)).not.toBe(victimKey);
    }
    // then it is skipped in rotation: nobody waits for it (round 0 again, unless another leader
    // was slower than the failover timeout on a loaded machine: then that one is named, not it)
    for (const h of slotHeaders.slice(3)) {
      expect(h.missed.map(hex)).not.toContain(victimKey);
      if (h.missed.length === 0) expect(h.round).toBe(0);
    }
    expect(others[0]!.chain.set.find((v) => hex(v.consensusKey) === victimKey)!.missedInRow).toBeGreaterThanOrEqual(3);
    for (let height = 1; height <= nextSlotStart + SLOT; height++) {
      expect(new Set(others.map((n) => hex(n.chain.blocks[height]!.hash))).size).toBe(1);
    }
  }, 20_000);

  it('halts rather than fork with 2 of 4 validators down, and resumes when one returns', async () => {
    const { net, nodes } = network(4);
    track(nodes);
    await until('3 blocks', () => nodes.every((n) => n.chain.blocks.length > 3));
    for (const n of nodes.slice(2)) { n.up = false; net.setUp(n.id, false); }
    await new Promise((r) => setTimeout(r, 300));
    const stuck = nodes[0]!.chain.head().height;
    await new Promise((r) => setTimeout(r, 800));
    // 2 of 4 equal stakes is exactly 1/2 < 2/3: at most one more block (one already in flight)
    expect(nodes[0]!.chain.head().height).toBeLessThanOrEqual(stuck + 1);
    expect(nodes[0]!.chain.head().height).toBe(nodes[1]!.chain.head().height);
    // one returns: it catches up on what it missed (sync, simulated here) and votes again
    const back = nodes[2]!;
    for (let h = back.chain.head().height + 1; h <= nodes[0]!.chain.head().height; h++) {
      const header = nodes[0]!.chain.blocks[h]!;
      await back.chain.importFinal(encodeBlock({ header, bundles: [], bundleHashes: [] }), nodes[0]!.chain.certificates.get(h)!);
    }
    back.up = true;
    net.setUp(back.id, true);
    const resumedFrom = nodes[0]!.chain.head().height;
    await until('progress with 3 of 4', () => nodes.slice(0, 3).every((n) => n.chain.head().height >= resumedFrom + 3), 10_000);
  }, 15_000);

  it('validators killed and restarted one after another resume from their synced signing state: no conflicting signature, no fork, the chain goes on', async () => {
    // Issue 40: the real engine, restarted as a process would be — a new engine over the chain and
    // the signing state that survived (FakeChain.signing), the old one gone mid-height.
    // With block sync: a restarted validator more than 8 heights behind catches up as the node does
    // (CI once timed out here after a restart; docs/consensus.md "Simulator").
    const { net, nodes } = network(4, { blockSync: true });
    track(nodes);
    await until('3 blocks', () => nodes.every((n) => n.chain.blocks.length > 3));
    for (const victim of [1, 3, 0, 2, 1, 1]) {
      const node = nodes[victim]!;
      node.engine.stop();
      node.up = false;
      net.setUp(node.id, false);
      await new Promise((r) => setTimeout(r, 120 + victim * 40));
      const engine = new ConsensusEngine(TIMING, { host: node.chain, transport: net.transport(node.id), identity: node.key, logger: silent });
      node.chain.engine = engine;
      node.engine = engine;
      node.chain.executed = undefined;
      // what the node's block sync does on start: take the final blocks made while it was down
      const source = nodes.find((n) => n !== node)!.chain;
      for (let h = node.chain.head().height + 1; h <= source.head().height; h++) {
        await node.chain.importFinal(encodeBlock({ header: source.blocks[h]!, bundles: [], bundleHashes: [] }), source.certificates.get(h)!);
      }
      engine.start();
      node.up = true;
      const from = Math.max(...nodes.map((n) => n.chain.head().height));
      await until(`progress after restarting node ${victim} (from ${from})`, () => nodes.every((n) => n.chain.head().height >= from + 2), 10_000,
        () => `heads ${nodes.map((n) => n.chain.head().height).join(', ')}`);
    }
    cleanup.push(() => nodes.forEach((n) => n.engine.stop()));
    const top = Math.min(...nodes.map((n) => n.chain.head().height));
    for (let h = 1; h <= top; h++) expect(new Set(nodes.map((n) => hex(n.chain.blocks[h]!.hash))).size).toBe(1);
    expect(nodes.map((n) => n.engine.counters.refusedSignatures)).toEqual([0, 0, 0, 0]);
  }, 60_000);

  it('refuses a proposal with a wrong state root and penalizes the sender; nobody votes for it', async () => {
    // round 0 of the open height must not fail over before the bad proposal arrives (a loaded
    // machine can take longer than the usual 150 ms): it would be a stale round's proposal then
    const { net, nodes, set } = network(4, { timing: { ...TIMING, failoverBaseMs: 10_000 } });
    track(nodes);
    await until('2 blocks', () => nodes.every((n) => n.chain.blocks.length > 2));
    // stop production so the height stays open, then inject a bad proposal from its leader
    for (const n of nodes) clearInterval(n.timer);
    await new Promise((r) => setTimeout(r, 100));
    const height = Math.max(...nodes.map((n) => n.chain.head().height));
    await until('all at the same head', () => nodes.every((n) => n.chain.head().height === height));
    const engine0 = nodes[0]!.engine;
    const lead = engine0.scheduleFor(height + 1, 1).leaders[0]!;
    const leader = nodes.find((n) => hex(n.key.publicKey) === hex(lead.consensusKey))!;
    const turn: Turn = { height: height + 1, round: 0, missed: [], proposer: lead.address, final: false };
    const block = leader.chain.build(turn, leader.key);
    const bad = { ...block.header, stateRoot: new Uint8Array(32).fill(7) };
    const badHash = headerHash(bad);
    const badBlock: Block = { ...block, header: { ...bad, hash: badHash, signature: signEd25519(leader.key.seed, badHash) } };
    for (const n of nodes) if (n !== leader) n.engine.receive('blocks', encodeProposalMessage(badBlock), leader.id);
    await until('refusals', () => nodes.filter((n) => n !== leader).every((n) => n.chain.refused === 1));
    expect(net.penalties.filter((p) => p.peer === leader.id).length).toBeGreaterThanOrEqual(3);
    await new Promise((r) => setTimeout(r, 100));
    expect(nodes.every((n) => n.chain.head().height === height)).toBe(true);
    expect(set.length).toBe(4);
  });

  it('detects two different proposals signed by one key at one height and reports it', async () => {
    const { nodes } = network(4);
    track(nodes);
    await until('2 blocks', () => nodes.every((n) => n.chain.blocks.length > 2));
    const offender = nodes[1]!;
    const target = nodes[2]!;
    const height = target.chain.head().height + 50; // far ahead: detection does not need the height to be open
    const turn: Turn = { height, round: 0, missed: [], proposer: offender.key.address, final: false };
    const a = offender.chain.build(turn, offender.key, [Uint8Array.of(1)]);
    const b = offender.chain.build(turn, offender.key, [Uint8Array.of(2)]);
    // build() takes the offender's head as parent; the headers differ in their bundles, same height
    target.engine.receive('blocks', encodeProposalMessage(a), offender.id);
    target.engine.receive('blocks', encodeProposalMessage(b), offender.id);
    await until('a report', () => target.chain.reports.length === 1);
    const report = target.chain.reports[0]!;
    expect(report.height).toBe(height);
    expect(hex(report.validator)).toBe(hex(offender.key.publicKey));
    expect(hex(blake3(report.headerA))).toBe(hex(a.header.hash));
    expect(hex(blake3(report.headerB))).toBe(hex(b.header.hash));
  });

  it('a non-validator follows the chain from gossip and never votes', async () => {
    const { nodes } = network(3, { observers: 1 });
    track(nodes);
    const observer = nodes[3]!;
    await until('8 blocks on the observer', () => observer.chain.blocks.length > 8);
    expect(observer.engine.counters.votesSent).toBe(0);
    expect(observer.engine.counters.proposals).toBe(0);
    for (let h = 1; h <= 8; h++) expect(hex(observer.chain.blocks[h]!.hash)).toBe(hex(nodes[0]!.chain.blocks[h]!.hash));
  });

  it('a node that missed the votes takes final blocks with their certificates, and refuses a short certificate', async () => {
    const { net, nodes, set } = network(4);
    track(nodes);
    await until('4 blocks', () => nodes.every((n) => n.chain.blocks.length > 4));
    const source = nodes[0]!.chain;
    const late = new FakeChain(source.blocks[0]!, set);
    const key = generateEd25519();
    const engine = new ConsensusEngine(TIMING, { host: late, transport: net.transport('late'), identity: { ...key, address: blake3(key.publicKey) }, logger: silent });
    late.engine = engine;
    engine.start();
    cleanup.push(() => engine.stop());
    net.setUp('late', false); // it hears nothing but what the test hands it
    const certified = (h: number, cert = source.certificates.get(h)!) =>
      encodeCertifiedMessage({ header: source.blocks[h]!, bundles: [], bundleHashes: [] }, cert);
    const short = { ...source.certificates.get(1)!, votes: source.certificates.get(1)!.votes.slice(0, 2) };
    engine.receive('blocks', certified(1, short), 'liar');
    await new Promise((r) => setTimeout(r, 50));
    expect(late.head().height).toBe(0);
    expect(net.penalties.some((p) => p.peer === 'liar' && p.reason.includes('2/3'))).toBe(true);
    for (let h = 1; h <= 3; h++) {
      engine.receive('blocks', certified(h), 'node0');
      await until(`height ${h} on the late node`, () => late.head().height === h);
    }
    expect(late.blocks.slice(1, 4).map((b) => hex(b.hash))).toEqual(source.blocks.slice(1, 4).map((b) => hex(b.hash)));
  });

  it('a validator with more than 2/3 of the stake finalizes alone (solo fast path)', () => {
    const { nodes, set } = network(2, { stakes: [700n, 300n] });
    track(nodes);
    const parent = nodes[0]!.chain.head();
    const big = nodes[0]!.engine;
    // the fast path needs the big validator to lead round 0 of that height; find such a height
    let found: Turn | undefined;
    for (let h = 0; h < 200 && !found; h++) found = big.soloTurn({ ...parent, height: h }, set);
    expect(found?.final).toBe(true);
    expect(nodes[1]!.engine.soloTurn(parent, set)).toBeUndefined(); // 300 of 1000 is not enough
  });
});
