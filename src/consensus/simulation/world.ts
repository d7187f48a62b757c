import { NIL, RoundState, type VoteProof, growingTimeouts, quorum, type BlockId, type RoundEffects, type SigningRecord, type TimeoutKind, type VoteKind, type VoterSet } from '../rounds.js';
import { decodeSigningRecord, encodeSigningRecord, maySign } from '../signing-state.js';
import { Prng } from './prng.js';
import { instancesOf, keyOf, type Scenario } from './scenario.js';

/**
 * A deterministic network of consensus nodes in one process (docs/consensus.md "Simulator"). Each
 * node runs the engine's round protocol (../rounds.ts, the same class a validator runs) and its
 * signing guard and record codec (../signing-state.ts); around them, this file plays the part of
 * the engine's host: heights, block "execution", gossip with rebroadcasts, catch-up with certified
 * blocks, crashes that lose everything but the persisted signing state and final blocks. Time is
 * virtual and every random choice comes from the scenario's seed, so a run replays exactly.
 *
 * Signatures are modelled, not computed: a node can only emit messages under its own key (the two
 * instances of a twin share one), and every signed message is logged, so a certificate "verifies"
 * when each of its votes is in the log.
 */

interface SimBlock {
  id: BlockId;
  height: number;
  creator: string;
}

type Message =
  | { t: 'proposal'; height: number; round: number; validRound: number; from: string; block: SimBlock }
  | { t: 'vote'; kind: VoteKind; height: number; round: number; id: BlockId; from: string }
  | { t: 'certified'; height: number; block: SimBlock; voters: string[] }
  | { t: 'syncRequest'; height: number }
  | { t: 'syncAnswer'; head: number; blocks: Array<Extract<Message, { t: 'certified' }>> };

/** A rule deliberately broken, to show the simulator finds what it breaks (test/unit/consensus-sim.test.ts). */
export type BrokenRule = 'forget-lock' | undefined;

export interface Violation {
  seed: number;
  /**
   * agreement: two honest nodes decided different blocks at one height (the round protocol's own
   * safety; with it broken the commit layer still refuses a second certificate, and the height halts);
   * safety: two conflicting certificates could exist; certificate: one that does not verify;
   * liveness: not finished within the bound after the heal; guard: an honest node asked to sign twice
   */
  kind: 'agreement' | 'safety' | 'certificate' | 'liveness' | 'guard';
  detail: string;
}

export interface ScenarioResult {
  seed: number;
  validators: number;
  violations: Violation[];
  /** virtual ms from the last heal until every honest node finalized the heights asked */
  resumeMs: number | undefined;
  /** the highest round any height after the heal was decided in */
  roundsAfterHeal: number;
  heights: number;
  events: number;
}

/** Virtual-time bound for liveness after the heal (docs/consensus.md "Simulator"). */
export function livenessBoundMs(s: Scenario): number {
  const t = growingTimeouts(s.blockIntervalMs + s.firstProposeMs, s.stepMs);
  // a height needs at most a few rounds once the network is synchronous; each round costs its
  // propose, prevote and precommit waits plus message delays
  let perHeight = 0;
  for (let r = 0; r < 8; r++) perHeight += t.propose(r) + t.prevote(r) + t.precommit(r) + 6 * (s.link.baseMs + s.link.jitterMs);
  return 2 * perHeight + s.heightsAfterHeal * perHeight;
}

const MAX_FUTURE = 2000;
/** How often a node reads its peers' heads (src/p2p/network.ts status refresh, 2 s). */
const STATUS_MS = 2_000;
/** Final blocks one sync answer carries: 10 per request, 3 requests in flight (src/p2p/sync.ts). */
const SYNC_BLOCKS = 30;

class Heap<T> {
  private readonly items: Array<{ at: number; seq: number; value: T }> = [];
  private seq = 0;

  get size(): number {
    return this.items.length;
  }

  push(at: number, value: T): void {
    const items = this.items;
    const item = { at, seq: this.seq++, value };
    let i = items.length;
    items.push(item);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(item, items[p]!)) break;
      items[i] = items[p]!;
      i = p;
    }
    items[i] = item;
  }

  pop(): { at: number; value: T } | undefined {
    const items = this.items;
    const top = items[0];
    if (!top) return undefined;
    const last = items.pop()!;
    if (items.length > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= items.length) break;
        const r = l + 1;
        const c = r < items.length && this.less(items[r]!, items[l]!) ? r : l;
        if (!this.less(items[c]!, last)) break;
        items[i] = items[c]!;
        i = c;
      }
      items[i] = last;
    }
    return top;
  }

  private less(a: { at: number; seq: number }, b: { at: number; seq: number }): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }
}

class Node {
  alive = true;
  /** bumped at each crash: timers of an earlier life are dropped */
  life = 0;
  height = 1;
  machine!: RoundState;
  /** durable: final blocks and their certificates */
  readonly chain = new Map<number, { id: BlockId; voters: string[] }>();
  /** durable: the signing record, as bytes (written before a signed message leaves) */
  persisted: Uint8Array | undefined;
  /** the last record this life signed (what `persisted` decodes to; a restart reads the bytes) */
  signed: SigningRecord | undefined;
  /** durable: the block it made at `height` (the engine's SigningState.ownBlock), re-proposed after a restart */
  ownBlock: SimBlock | undefined;
  /** durable: its own votes of the current height, of its last two rounds and its commit vote (the engine's SigningState.votes) */
  ownVotes: Array<Extract<Message, { t: 'vote' }>> = [];
  /** durable: the votes that decided the current height (written before the commit vote leaves) */
  proof: (VoteProof & { height: number }) | undefined;
  /** durable: the proof of lock of the block this node locked on or would re-propose, and that block */
  pol: (VoteProof & { height: number; block: SimBlock | undefined }) | undefined;
  blocks = new Map<BlockId, SimBlock>();
  future: Array<{ message: Message; from: Node }> = [];
  /** signed messages of the current height, re-sent every rebroadcast period */
  sent = new Map<string, Message>();
  madeBlocks = 0;
  lastCertSent = new Map<string, number>();
  /** block sync: no new request to a peer before this time (an answer, or a lost request, ends it) */
  syncBusyUntil = -Infinity;

  constructor(readonly instance: string, readonly key: string, readonly honest: boolean, readonly withholds: boolean) {}
}

export class World {
  private readonly rng: Prng;
  private readonly queue = new Heap<() => void>();
  private now = 0;
  private events = 0;
  private readonly nodes = new Map<string, Node>();
  private readonly stakeOf = new Map<string, bigint>();
  private readonly byzantine = new Set<string>();
  /** every signed commit vote: height → block → keys (signatures are unforgeable, so this is what exists) */
  private readonly commitLog = new Map<number, Map<BlockId, Set<string>>>();
  readonly violations: Violation[] = [];
  private readonly finals = new Map<number, BlockId>();
  /** the block honest nodes decided at each height (precommit quorum), for the agreement check */
  private readonly decisions = new Map<number, { id: BlockId; by: string }>();
  private readonly rebroadcastMs: number;
  private heightAtHeal: number | undefined;
  private resumedAt: number | undefined;
  private maxRoundAfterHeal = 0;
  private readonly sets = new Map<number, VoterSet>();
  private readonly leaders = new Map<string, string>();
  private readonly twinSides = new Map<string, Set<string>>();
  private readonly groupOf: Array<{ at: number; heal: number; group: Map<string, number> }>;

  constructor(readonly scenario: Scenario, private readonly broken: BrokenRule = undefined, private readonly trace?: (line: string) => void) {
    this.rng = new Prng(scenario.seed ^ 0x5eed);
    for (const v of scenario.validators) this.stakeOf.set(v.key, v.stake);
    for (const t of scenario.twins) this.byzantine.add(t.key);
    for (const w of scenario.withholders) this.byzantine.add(w);
    for (const instance of instancesOf(scenario)) {
      const key = keyOf(instance, scenario);
      this.nodes.set(instance, new Node(instance, key, !this.byzantine.has(key), scenario.withholders.includes(key)));
    }
    // larger networks gossip their batches less often (the messages per period grow with n²)
    this.rebroadcastMs = Math.max(200, scenario.stepMs) * (1 + Math.floor(scenario.validators.length / 16));
    for (const t of scenario.twins) {
      this.twinSides.set(`${t.key}a`, new Set(t.sideA));
      this.twinSides.set(`${t.key}b`, new Set(t.sideB));
    }
    this.groupOf = scenario.partitions.map((p) => {
      const group = new Map<string, number>();
      p.groups.forEach((g, i) => g.forEach((instance) => group.set(instance, i)));
      return { at: p.at, heal: p.heal, group };
    });
  }

  run(): ScenarioResult {
    const s = this.scenario;
    for (const node of this.nodes.values()) this.boot(node);
    for (const c of s.crashes) {
      this.at(c.at, () => this.crash(this.nodes.get(c.instance)!));
      this.at(c.restartAt, () => this.restart(this.nodes.get(c.instance)!));
    }
    this.at(s.healAt, () => {
      this.heightAtHeal = Math.max(...[...this.honestNodes()].map((n) => n.height - 1));
    });
    const deadline = s.healAt + livenessBoundMs(s);
    while (this.queue.size > 0) {
      const next = this.queue.pop()!;
      if (next.at > deadline) break;
      this.now = next.at;
      this.events++;
      next.value();
      if (this.resumedAt !== undefined || this.violations.length > 0) break;
      if (this.events > 5_000_000) break;
    }
    if (this.resumedAt === undefined && this.violations.length === 0) {
      const heights = [...this.honestNodes()].map((n) => `${n.instance}@${n.height}/r${n.machine.round}`).join(' ');
      this.violations.push({ seed: s.seed, kind: 'liveness', detail: `not every honest node finalized ${s.heightsAfterHeal} heights within ${deadline - s.healAt} ms of the heal (at ${s.healAt} ms): ${heights}` });
    }
    return {
      seed: s.seed, validators: s.validators.length, violations: this.violations,
      resumeMs: this.resumedAt === undefined ? undefined : this.resumedAt - s.healAt,
      roundsAfterHeal: this.maxRoundAfterHeal, heights: this.finals.size, events: this.events,
    };
  }

  // ---- time and network -------------------------------------------------------------------------

  private at(time: number, action: () => void): void {
    this.queue.push(Math.max(time, this.now), action);
  }

  private *honestNodes(): Iterable<Node> {
    for (const n of this.nodes.values()) if (n.honest) yield n;
  }

  private connected(a: string, b: string): boolean {
    const sides = this.twinSides;
    if (sides.get(a)?.has(b) === false || sides.get(b)?.has(a) === false) return false;
    for (const p of this.groupOf) {
      if (this.now < p.at || this.now >= p.heal) continue;
      if (p.group.get(a) !== p.group.get(b)) return false;
    }
    return true;
  }

  /** Send messages (one delivery: a gossip round's batch) to every connected node, or to `to`. */
  private send(from: Node, messages: Message | Message[], to?: Node): void {
    const link = this.scenario.link;
    const synchronous = this.now >= this.scenario.healAt;
    const batch = Array.isArray(messages) ? messages : [messages];
    if (batch.length === 0) return;
    for (const node of to ? [to] : this.nodes.values()) {
      if (node === from || !this.connected(from.instance, node.instance)) continue;
      if (!synchronous && this.rng.chance(link.loss)) continue;
      const copies = this.rng.chance(link.dup) ? 2 : 1;
      for (let c = 0; c < copies; c++) {
        const delay = link.baseMs + this.rng.int(link.jitterMs + 1);
        this.at(this.now + delay, () => {
          for (const m of batch) this.deliver(node, m, from);
        });
      }
    }
  }

  // ---- node lifecycle ---------------------------------------------------------------------------

  private setAt(height: number): VoterSet {
    let set = this.sets.get(height);
    if (set) return set;
    // Stakes change each epoch: honest validators' stake is redrawn upwards, Byzantine ones keep
    // theirs, so the Byzantine share stays under 1/3 at every height.
    const epoch = Math.floor(height / this.scenario.epochLength);
    const rng = new Prng(this.scenario.seed * 31 + epoch);
    const stakes = new Map<string, bigint>();
    let total = 0n;
    for (const [key, stake] of this.stakeOf) {
      const s = this.byzantine.has(key) || epoch === 0 ? stake : stake + BigInt(rng.int(Number(stake) + 1));
      stakes.set(key, s);
      total += s;
    }
    set = { stake: (v) => stakes.get(v), total };
    this.sets.set(height, set);
    return set;
  }

  private leaderOf(height: number, round: number): string {
    const memo = `${height}:${round}`;
    let leader = this.leaders.get(memo);
    if (leader === undefined) this.leaders.set(memo, (leader = this.drawLeader(height, round)));
    return leader;
  }

  private drawLeader(height: number, round: number): string {
    const set = this.setAt(height);
    const keys = this.scenario.validators.map((v) => v.key);
    const rng = new Prng((height * 2654435761) ^ (round * 40503) ^ this.scenario.seed);
    let point = BigInt(rng.u32()) % set.total;
    for (const key of keys) {
      const s = set.stake(key)!;
      if (point < s) return key;
      point -= s;
    }
    return keys[0]!;
  }

  private boot(node: Node): void {
    node.height = node.chain.size + 1;
    node.blocks = new Map();
    node.sent = new Map();
    node.future = [];
    this.startHeight(node);
    const life = node.life;
    const tick = () => {
      if (!node.alive || node.life !== life) return;
      this.rebroadcast(node);
      this.at(this.now + this.timer(node, this.rebroadcastMs), tick);
    };
    this.at(this.now + this.timer(node, this.rebroadcastMs), tick);
    const status = () => {
      if (!node.alive || node.life !== life) return;
      this.syncFromBestPeer(node);
      this.at(this.now + this.timer(node, STATUS_MS), status);
    };
    node.syncBusyUntil = -Infinity;
    this.at(this.now + this.timer(node, STATUS_MS), status);
  }

  /**
   * Block sync (src/p2p/sync.ts): at each status refresh a node whose connected peers are ahead asks
   * the best of them for final blocks from its height, and goes on asking while that peer is ahead.
   * Without it a node left behind (alone in a partition while the others make hundreds of heights)
   * could only catch up by the few blocks its lower-height votes earn (seed 559072).
   */
  private syncFromBestPeer(node: Node): void {
    if (this.now < node.syncBusyUntil) return;
    let best: Node | undefined;
    for (const peer of this.nodes.values()) {
      if (peer === node || !peer.alive || !this.connected(node.instance, peer.instance)) continue;
      if (peer.height > (best?.height ?? node.height)) best = peer;
    }
    if (best) this.requestSync(node, best);
  }

  private requestSync(node: Node, peer: Node): void {
    node.syncBusyUntil = this.now + this.timer(node, STATUS_MS);
    this.send(node, { t: 'syncRequest', height: node.height }, peer);
  }

  private crash(node: Node): void {
    if (!node.alive) return;
    this.trace?.(`${this.now} ${node.instance} crashes`);
    node.alive = false;
    node.life++;
  }

  private restart(node: Node): void {
    if (node.alive) return;
    node.alive = true;
    this.boot(node);
  }

  /** `ms` of this node's clock in virtual ms (skewed clocks run fast or slow). */
  private timer(node: Node, ms: number): number {
    const rate = this.scenario.skew.get(node.instance) ?? 1000;
    return Math.max(1, Math.floor((ms * 1000) / rate));
  }

  private startHeight(node: Node): void {
    const height = node.height;
    const life = node.life;
    const s = this.scenario;
    const live = () => node.alive && node.life === life && node.height === height;
    let record: SigningRecord | undefined = node.persisted ? decodeSigningRecord(node.persisted) : undefined;
    node.signed = record;
    if (this.broken === 'forget-lock' && record) record = { ...record, lockedRound: -1, lockedValue: NIL, validRound: -1, validValue: NIL };
    const effects: RoundEffects = {
      build: (round) => {
        // round 0's leader waits for the block interval (the chain's adaptive interval)
        this.at(this.now + 1 + (round === 0 ? this.timer(node, s.blockIntervalMs) : 0), () => {
          if (!live()) return;
          const block: SimBlock = { id: blockId(height, node, node.madeBlocks++), height, creator: node.key };
          node.blocks.set(block.id, block);
          node.ownBlock = block;
          node.machine.proposeOwn(round, block.id);
        });
      },
      propose: (round, id, validRound) => {
        if (!this.sign(node, 'propose', round, id)) return;
        const block = node.blocks.get(id)!;
        const message: Message = { t: 'proposal', height, round, validRound, from: node.key, block };
        node.sent.set(`p${round}`, message);
        this.send(node, message);
      },
      vote: (kind, round, id) => {
        if (!this.sign(node, kind === 'commit' ? 'commit' : kind, round, id)) return;
        if (kind === 'commit') this.logCommit(height, id, node.key);
        // a withholder signs (its certificate holds its own vote) but sends nothing
        if (node.withholds) return;
        const message = { t: 'vote' as const, kind, height, round, id, from: node.key };
        node.ownVotes = [...node.ownVotes.filter((m) => m.height === height && (m.kind === 'commit' || m.round >= round - 1)), message];
        node.sent.set(`${kind}${kind === 'commit' ? '' : round}`, message);
        this.send(node, message);
      },
      schedule: (kind: TimeoutKind, round, ms) => {
        this.at(this.now + this.timer(node, ms), () => {
          if (live()) node.machine.onTimeout(kind, round);
        });
      },
      validate: (id) => {
        this.at(this.now + 1 + this.rng.int(3), () => {
          if (live()) node.machine.validated(id, true);
        });
      },
      polka: (proof) => {
        node.pol = { ...proof, height, block: node.blocks.get(proof.id) };
        this.relayProof(node, node.pol);
      },
      decided: (id, round, proof) => {
        if (node.honest) this.checkAgreement(node, height, id);
        node.proof = { ...proof, height };
        this.relayProof(node, node.proof);
        if (this.heightAtHeal !== undefined && height > this.heightAtHeal && node.honest) this.maxRoundAfterHeal = Math.max(this.maxRoundAfterHeal, round);
      },
      final: (id) => {
        const voters = node.machine.votersFor('commit', -1, id);
        this.at(this.now, () => {
          if (live()) this.finalize(node, height, node.blocks.get(id) ?? { id, height, creator: '?' }, voters);
        });
      },
    };
    const set = this.setAt(height);
    const timeouts = growingTimeouts(s.blockIntervalMs + s.firstProposeMs, s.stepMs);
    node.machine = new RoundState(height, set, node.key, (round) => this.leaderOf(height, round), timeouts, effects);
    if (this.trace) {
      const trace = this.trace;
      for (const [name, effect] of Object.entries(effects)) {
        (effects as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
          trace(`${this.now} ${node.instance}@${height} ${name} ${args.map((a) => (typeof a === 'string' && a.length > 40 ? short(a) : typeof a === 'object' ? JSON.stringify(a, (_k, v: unknown) => (typeof v === 'string' && v.length > 40 ? short(v) : v)) : String(a))).join(' ')}`);
          return (effect as (...a: unknown[]) => unknown)(...args);
        };
      }
    }
    node.machine.start(record);
    if (node.ownBlock?.height === height) {
      node.blocks.set(node.ownBlock.id, node.ownBlock);
      node.machine.onBlock(node.ownBlock.id);
    }
    if (node.pol?.height === height && node.pol.block) {
      // the block locked on, kept with the lock: perhaps no other node has it any more
      node.blocks.set(node.pol.id, node.pol.block);
      node.machine.onBlock(node.pol.id);
    }
    for (const m of node.ownVotes) {
      if (m.height !== height) continue;
      // restarted: its own votes of the height, counted again and re-sent
      node.machine.onVote(m.kind, m.round, node.key, m.id);
      node.sent.set(`${m.kind}${m.kind === 'commit' ? '' : m.round}`, m);
    }
    for (const proof of [node.pol, node.proof]) {
      if (proof?.height !== height) continue;
      // restarted: the votes of its proof of lock and of its decision, fed back and re-sent
      const { kind, round, id, voters } = proof;
      for (const voter of voters) node.machine.onVote(kind, round, voter, id);
      this.relayProof(node, proof);
    }
    if (this.broken === 'forget-lock') {
      // the broken validator forgets its lock as soon as it has taken it (it precommits, then
      // prevotes and proposes in later rounds as if it had never locked)
      const machine = node.machine;
      const forget = () => {
        machine.lockedRound = -1;
        machine.lockedValue = NIL;
        machine.validRound = -1;
        machine.validValue = NIL;
      };
      for (const name of ['onVote', 'onProposal', 'onBlock', 'validated', 'onTimeout'] as const) {
        const original = (machine[name] as (...args: unknown[]) => unknown).bind(machine);
        (machine as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
          const result = original(...args);
          forget();
          return result;
        };
      }
    }
    const waiting = node.future;
    node.future = [];
    for (const { message, from } of waiting) this.deliver(node, message, from);
  }

  /** Re-send the votes that decided this node's height (others' signed votes, relayed). */
  private relayProof(node: Node, proof: VoteProof & { height: number }): void {
    if (proof.height !== node.height) return;
    // this node's own vote among them too: after a restart its record may no longer hold it
    for (const voter of proof.voters) {
      node.sent.set(`relay:${proof.kind}:${voter}`, { t: 'vote', kind: proof.kind, height: node.height, round: proof.round, id: proof.id, from: voter });
    }
  }

  /** The signing guard and the fsynced record, as the engine's (../engine.ts `sign`). */
  private sign(node: Node, step: SigningRecord['step'], round: number, id: BlockId): boolean {
    const last = node.signed;
    const next = node.machine.record(step, round, id);
    if (!maySign(last, next)) {
      if (node.honest && this.broken === undefined) {
        this.violations.push({ seed: this.scenario.seed, kind: 'guard', detail: `${node.instance} tried to sign ${step} r${round} ${short(id)} at ${node.height} after ${last!.step} r${last!.round} ${short(last!.id)}` });
      }
      return false;
    }
    node.persisted = encodeSigningRecord(next);
    node.signed = next;
    return true;
  }

  private checkAgreement(node: Node, height: number, id: BlockId): void {
    const known = this.decisions.get(height);
    if (known === undefined) this.decisions.set(height, { id, by: node.instance });
    else if (known.id !== id) {
      this.violations.push({ seed: this.scenario.seed, kind: 'agreement', detail: `height ${height}: ${node.instance} decided ${short(id)}, ${known.by} decided ${short(known.id)}` });
    }
  }

  private logCommit(height: number, id: BlockId, key: string): void {
    let byBlock = this.commitLog.get(height);
    if (!byBlock) this.commitLog.set(height, (byBlock = new Map()));
    let keys = byBlock.get(id);
    if (!keys) byBlock.set(id, (keys = new Set()));
    keys.add(key);
    // Two certificates for different blocks could exist if, for two blocks, the honest keys that
    // signed their commit votes plus every Byzantine key (which can sign anything) were > 2/3.
    const set = this.setAt(height);
    let byz = 0n;
    for (const b of this.byzantine) byz += set.stake(b) ?? 0n;
    const certifiable: BlockId[] = [];
    for (const [block, signers] of byBlock) {
      let stake = byz;
      for (const k of signers) if (!this.byzantine.has(k)) stake += set.stake(k) ?? 0n;
      if (quorum(stake, set.total)) certifiable.push(block);
    }
    if (certifiable.length > 1) {
      this.violations.push({ seed: this.scenario.seed, kind: 'safety', detail: `height ${height}: conflicting certificates possible for ${certifiable.map(short).join(' and ')}` });
    }
  }

  /** A certificate checks when its voters are distinct members holding > 2/3 whose commit votes were signed. */
  private certificateProblem(height: number, id: BlockId, voters: string[]): string | undefined {
    const set = this.setAt(height);
    const seen = new Set<string>();
    let stake = 0n;
    for (const v of voters) {
      const s = set.stake(v);
      if (s === undefined || seen.has(v)) return `voter ${v} is not a distinct member`;
      if (!this.commitLog.get(height)?.get(id)?.has(v)) return `${v} never signed a commit vote for it`;
      seen.add(v);
      stake += s;
    }
    return quorum(stake, set.total) ? undefined : `voters hold ${stake} of ${set.total}`;
  }

  private finalize(node: Node, height: number, block: SimBlock, voters: string[]): void {
    const problem = this.certificateProblem(height, block.id, voters);
    if (problem) {
      this.violations.push({ seed: this.scenario.seed, kind: 'certificate', detail: `${node.instance} height ${height}: ${problem}` });
      return;
    }
    if (node.honest) {
      const known = this.finals.get(height);
      if (known === undefined) this.finals.set(height, block.id);
      else if (known !== block.id) {
        this.violations.push({ seed: this.scenario.seed, kind: 'safety', detail: `height ${height}: ${node.instance} finalized ${short(block.id)}, another node ${short(known)}` });
        return;
      }
    }
    node.chain.set(height, { id: block.id, voters });
    node.height = height + 1;
    node.sent = new Map();
    this.startHeight(node);
    this.checkResumed();
  }

  private checkResumed(): void {
    if (this.heightAtHeal === undefined || this.now < this.scenario.healAt) return;
    const target = this.heightAtHeal + this.scenario.heightsAfterHeal;
    for (const n of this.honestNodes()) if (!n.chain.has(target)) return;
    this.resumedAt = this.now;
  }

  // ---- receiving --------------------------------------------------------------------------------

  private deliver(node: Node, m: Message, sender: Node): void {
    if (!node.alive) return;
    if (m.t === 'syncRequest') {
      this.send(node, { t: 'syncAnswer', head: node.height - 1, blocks: this.finalBlocks(node, m.height, SYNC_BLOCKS) }, sender);
      return;
    }
    if (m.t === 'syncAnswer') {
      this.trace?.(`${this.now} ${node.instance}@${node.height} <- ${sender.instance} sync ${m.blocks.length} blocks, head ${m.head}`);
      for (const b of m.blocks) if (b.height === node.height) this.deliver(node, b, sender);
      node.syncBusyUntil = -Infinity;
      // still behind that peer: the next request goes at once, as the sync loop keeps its window full
      if (m.head >= node.height && m.blocks.length > 0 && this.connected(node.instance, sender.instance)) this.requestSync(node, sender);
      return;
    }
    this.trace?.(`${this.now} ${node.instance}@${node.height} <- ${sender.instance} ${m.t} h${m.height}${m.t === 'vote' ? ` ${m.kind} r${m.round} ${short(m.id)}` : m.t === 'proposal' ? ` r${m.round} vr${m.validRound} ${short(m.block.id)}` : ` ${short(m.block.id)}`}`);
    if (m.height > node.height) {
      if (m.height <= node.height + 8 && node.future.length < MAX_FUTURE) node.future.push({ message: m, from: sender });
      return;
    }
    if (m.height < node.height) {
      // the sender is behind: answer with the final block of that height (the engine's catch-up)
      const final = m.t === 'certified' ? undefined : node.chain.get(m.height);
      const last = node.lastCertSent.get(`${sender.instance}:${m.height}`) ?? -Infinity;
      if (final && this.now - last >= this.rebroadcastMs) {
        node.lastCertSent.set(`${sender.instance}:${m.height}`, this.now);
        // a batch (the receiver holds up to 8 heights ahead)
        this.send(node, this.finalBlocks(node, m.height, 8), sender);
      }
      return;
    }
    const machine = node.machine;
    if (m.t === 'certified') {
      if (this.certificateProblem(m.height, m.block.id, m.voters)) return;
      node.blocks.set(m.block.id, m.block);
      this.finalize(node, m.height, m.block, m.voters);
      return;
    }
    if (m.t === 'proposal') {
      if (this.leaderOf(m.height, m.round) !== m.from) return;
      if (!node.blocks.has(m.block.id)) node.blocks.set(m.block.id, m.block);
      machine.onBlock(m.block.id);
      machine.onProposal(m.round, m.block.id, m.validRound);
      return;
    }
    machine.onVote(m.kind, m.round, m.from, m.id);
  }

  /** Up to `count` of `node`'s final blocks from `from`, each with its certificate's voters. */
  private finalBlocks(node: Node, from: number, count: number): Array<Extract<Message, { t: 'certified' }>> {
    const blocks: Array<Extract<Message, { t: 'certified' }>> = [];
    for (let h = from; h < Math.min(from + count, node.height); h++) {
      const f = node.chain.get(h)!;
      blocks.push({ t: 'certified', height: h, block: node.blocks.get(f.id) ?? { id: f.id, height: h, creator: '?' }, voters: f.voters });
    }
    return blocks;
  }

  private rebroadcast(node: Node): void {
    const round = node.machine.round;
    const batch: Message[] = [];
    for (const [tag, m] of node.sent) {
      if (m.t === 'vote' && m.kind !== 'commit' && m.round < round - 1 && !tag.startsWith('relay:')) {
        node.sent.delete(tag);
        continue;
      }
      if (m.t === 'proposal' && m.round < round) continue;
      batch.push(m);
    }
    // the proposal of this round this node prevoted for, whoever made it (for nodes that missed it)
    const p = node.machine.proposal(round);
    if (p && node.machine.myVote('prevote', round) === p.id) {
      const block = node.blocks.get(p.id);
      if (block) batch.push({ t: 'proposal', height: node.height, round, validRound: p.validRound, from: this.leaderOf(node.height, round), block });
    }
    this.send(node, batch);
  }
}

function blockId(height: number, node: Node, n: number): BlockId {
  let h = 0;
  for (const c of node.instance) h = (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0;
  return [height, h, n, 0xb10c].map((x) => (x >>> 0).toString(16).padStart(16, '0')).join('');
}

function short(id: BlockId): string {
  // a simulated id is height ‖ creator hash ‖ creator's block count ‖ tag, 16 hex digits each
  return id === NIL ? 'nil' : `${id.slice(26, 32)}#${parseInt(id.slice(32, 48), 16)}`;
}

/** Run one scenario; `trace` receives every effect and delivery, for reading a failing seed (npm run sim -- --trace). */
export function runScenario(scenario: Scenario, broken?: BrokenRule, trace?: (line: string) => void): ScenarioResult {
  return new World(scenario, broken, trace).run();
}
