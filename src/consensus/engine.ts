import { EventEmitter } from 'node:events';
import { decodeBlock, encodeBlock, headerHash, transactionsRoot, type Block, type BlockHeader } from '../chain/block.js';
import { bundleHash } from '../codec/bundle.js';
import { bytesEqual } from '../codec/hash.js';
import { verifyEd25519 } from '../codec/keys.js';
import type { Logger } from '../logger.js';
import { DoubleSignDetector, type DoubleSignEvidence } from './double-sign.js';
import { leaderOf, leaderSchedule, slotOf, type ConsensusValidator } from './leader.js';
import {
  decodeCertificate, decodeVote, encodeCertificate, encodeVote, epochOf, isSupermajority, keyId, signVote, verifyCertificate,
  verifyVote, VOTE_COMMIT, VoteTally, votingStake, type Certificate, type Vote,
} from './votes.js';

/**
 * The consensus state machine of one node (docs/consensus.md): who proposes each height and when,
 * which proposals this validator votes for, and when a block is final. It owns no block execution
 * and no storage: the chain does those through `ConsensusHost`, and messages travel through
 * `ConsensusTransport` (the P2PNetwork of src/p2p, or the in-memory fake of the unit tests).
 */

export type ConsensusTopic = 'blocks' | 'votes';
export type Verdict = 'accept' | 'ignore' | 'reject';

/** The part of P2PNetwork consensus uses. */
export interface ConsensusTransport {
  publish(topic: ConsensusTopic, data: Uint8Array): Promise<unknown>;
  on(topic: ConsensusTopic, handler: (data: Uint8Array, from: string) => void): unknown;
  penalize(peer: string, reason: string): void;
  /** connected peers now (P2PNetwork.connectedPeers().length); 0 means this node is cut off */
  peerCount?(): number;
  /** a cheap stateless check run before gossip forwards a message (P2PNetwork.validate) */
  validate?(topic: ConsensusTopic, check: (data: Uint8Array, from: string) => Verdict): void;
}

export type Execution = { ok: true } | { ok: false; reason: string; /** the proposer's fault (penalize), not a local condition */ faulty: boolean };

/** What the engine needs from the chain (src/consensus/host.ts implements it over Chain). */
export interface ConsensusHost {
  readonly chainId: number;
  /** the last final, durable block */
  head(): BlockHeader;
  /** the validator set of the head's state (the parent of head + 1), sorted by key */
  validators(): ConsensusValidator[];
  params(): { slotLength: number; epochLength: number };
  /** true while the node catches up (sync): it neither proposes nor votes */
  syncing(): boolean;
  /** execute a proposal on top of the head without making it durable; ok when it reproduces the header */
  execute(block: Block, encoded: Uint8Array): Promise<Execution>;
  /**
   * Make the block executed by `execute` (or proposed by this node) durable with its certificate;
   * false when the chain no longer holds it (sync imported that height meanwhile).
   */
  commit(certificate: Certificate): Promise<boolean>;
  /** drop the executed-but-not-final block (another block finalized at its height) */
  discard(): Promise<void>;
  /** a final block this node did not execute: src/chain/import.ts importBlock */
  importFinal(encoded: Uint8Array, certificate: Certificate): Promise<void>;
  storedHeader(height: number): Promise<BlockHeader | undefined>;
  reportDoubleSign(evidence: DoubleSignEvidence): Promise<void>;
  /** persist this node's vote before it is sent, so a restart never votes twice at a height */
  recordVote(height: number, blockHash: Uint8Array): Promise<void>;
  /** the vote recorded last (read once at start) */
  lastVote(): { height: number; blockHash: Uint8Array } | undefined;
}

export interface ConsensusOptions {
  /** idle block interval (--block-time): when the round-0 leader proposes with an empty mempool */
  blockTimeMs: number;
  /** interval under load (spec §1.8: 500 ms) */
  minBlockIntervalMs: number;
  /** facts.md: backup n takes over 5 s + 3 s × n after round 0 was due; these are the 5 s and 3 s */
  failoverBaseMs: number;
  failoverStepMs: number;
  /** how far ahead of this node's clock a header timestamp may be (seconds) */
  maxClockDriftSeconds?: number;
  now?: () => number;
}

export interface Identity {
  seed: Uint8Array;
  publicKey: Uint8Array;
  address: Uint8Array;
}

/** What the chain needs to build a block: its round, the skipped leaders and who is credited. */
export interface Turn {
  height: number;
  round: number;
  missed: Uint8Array[];
  /** staking account of the proposer (ValidatorInfo.address) */
  proposer: Uint8Array;
  /** true when this node's own vote finalizes the block (the solo fast path) */
  final: boolean;
}

/** First byte of a `blocks` message. */
export const BlockMessage = { PROPOSAL: 1, CERTIFIED: 2 } as const;

const MAX_FUTURE_HEIGHTS = 8;
const MAX_FUTURE_MESSAGES = 512;
const MAX_ROUNDS = 10_000;

interface Candidate {
  block: Block;
  encoded: Uint8Array;
  from: string | undefined;
  arrivedAt: number;
}

interface HeightState {
  height: number;
  parent: BlockHeader;
  startedAt: number;
  validators: ConsensusValidator[];
  tally: VoteTally;
  epoch: number;
  slot: number;
  proposals: Map<string, Candidate>;
  bad: Set<string>;
  /** block this node voted for */
  voted: string | undefined;
  /** block the chain holds executed for this height */
  executed: string | undefined;
  finalizing: boolean;
  firstProposalAt: number | undefined;
  /** a proposal could not be executed for a local reason (busy chain): try again from this time */
  retryAt: number;
  /** when the votes first held > 2/3 of the stake (the certificate was complete) */
  certifiedAt: number | undefined;
  lastRebroadcast: number;
  /**
   * This node did not vote for the block that became the parent (it was down, syncing or new): it
   * does not propose before this time, so it hears the height's proposals and votes first and does
   * not split the vote with a proposal of its own (docs/consensus.md "Liveness").
   */
  listenUntil: number;
}

export interface FinalityRecord {
  height: number;
  round: number;
  /** first proposal seen or made → certificate complete, ms */
  ms: number;
  at: number;
}

export interface ConsensusEvents {
  finalized: [FinalityRecord];
  doubleSign: [DoubleSignEvidence];
}

export class ConsensusEngine extends EventEmitter<ConsensusEvents> {
  private h!: HeightState;
  private readonly detector = new DoubleSignDetector();
  private readonly future = new Map<number, Array<{ topic: ConsensusTopic; data: Uint8Array; from: string | undefined }>>();
  private futureCount = 0;
  private stepping = false;
  private stepAgain = false;
  private timer: NodeJS.Timeout | undefined;
  private started = false;
  /** solo blocks: height → when made (they are final then; durable a write later) */
  private readonly soloMadeAt = new Map<number, number>();
  /** last time this node had no peer at all (see `turn`) */
  private isolatedAt = 0;
  private readonly now: () => number;
  /** recent finality records (svc_consensusStatus, the finality bench) */
  readonly finality: FinalityRecord[] = [];
  readonly counters = { proposals: 0, votesSent: 0, votesReceived: 0, rejected: 0, doubleSigns: 0, failovers: 0 };

  constructor(
    readonly options: ConsensusOptions,
    private readonly deps: { host: ConsensusHost; transport?: ConsensusTransport; identity: Identity; logger: Logger },
  ) {
    super();
    this.now = options.now ?? Date.now;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.resetHeight();
    const transport = this.deps.transport;
    if (transport) {
      transport.on('blocks', (data, from) => this.receive('blocks', data, from));
      transport.on('votes', (data, from) => this.receive('votes', data, from));
      transport.validate?.('blocks', (data) => (this.statelessBlockCheck(data) ? 'accept' : 'reject'));
      transport.validate?.('votes', (data) => (this.statelessVoteCheck(data) ? 'accept' : 'reject'));
    }
    this.timer = setInterval(() => this.poll(), 50);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  get identity(): Identity {
    return this.deps.identity;
  }

  /** Height being decided (head + 1) and its state, for the RPC methods. */
  get current(): Readonly<HeightState> {
    return this.h;
  }

  // ---- the chain's side ---------------------------------------------------------------------

  /**
   * The solo fast path: this node's vote alone is more than 2/3 of the stake and it leads round 0
   * of `parent.height + 1`, so its block is final once produced and the chain keeps pipelining
   * writes (no network round trip). `validators` is the set at `parent` (the chain reads it through
   * the core, which is ahead of storage while writes are in flight).
   */
  soloTurn(parent: BlockHeader, validators: readonly ConsensusValidator[]): Turn | undefined {
    const me = this.deps.identity.publicKey;
    const height = parent.height + 1;
    const stake = votingStake(validators);
    let total = 0n;
    for (const s of stake.values()) total += s;
    if (!isSupermajority(stake.get(keyId(me)) ?? 0n, total)) return undefined;
    const lead = leaderOf(validators, height, 0, this.deps.host.params().slotLength);
    if (!lead || !bytesEqual(lead.leader.consensusKey, me)) return undefined;
    return { height, round: 0, missed: [], proposer: lead.leader.address, final: true };
  }

  /** The certificate of a solo block: this node's vote. */
  certifySolo(header: BlockHeader): Uint8Array {
    // Final when made: its finality time runs from here to durable (the 'block' event).
    this.soloMadeAt.set(header.height, this.now());
    const { seed, publicKey } = this.deps.identity;
    const vote = signVote(seed, publicKey, {
      height: header.height, round: header.round, blockHash: header.hash,
      epoch: epochOf(header.height, this.deps.host.params().epochLength), stateRoot: header.stateRoot,
    });
    return encodeCertificate({
      height: header.height, blockHash: header.hash, epoch: vote.epoch, voteType: vote.voteType,
      votes: [{ validator: vote.validator, signature: vote.signature }],
    });
  }

  /**
   * Whether this node proposes `head + 1` now (multi-validator path). Round 0's leader proposes at
   * the chain's adaptive interval (`busy`: bundles wait); backup n proposes in round n + 1, which
   * opens failoverBase + failoverStep × n after round 0 was due with an idle mempool, and only while
   * no proposal for the height has been seen (docs/consensus.md "Rounds").
   */
  turn(busy: boolean): Turn | undefined {
    const h = this.h;
    if (this.deps.host.syncing() || h.voted || h.executed || h.finalizing || this.liveProposals() > 0) return undefined;
    if (this.now() < h.listenUntil) return undefined;
    // Back from isolation, a node first hears the votes and proposal of the height (re-sent every
    // rebroadcast period) rather than propose its own and split the votes.
    if (this.now() - this.isolatedAt < 2 * this.rebroadcastMs()) return undefined;
    const me = this.deps.identity.publicKey;
    const elapsed = this.now() - h.startedAt;
    const open = this.openRound(elapsed, busy);
    if (open < 0) return undefined;
    // Only the leader of the round open now proposes: a leader whose round has passed stays quiet,
    // so two rounds' leaders do not split the votes (docs/consensus.md "Rounds").
    const lead = leaderOf(h.validators, h.height, open, this.deps.host.params().slotLength);
    if (!lead || !bytesEqual(lead.leader.consensusKey, me)) return undefined;
    return { height: h.height, round: open, missed: lead.missed.map((v) => v.consensusKey), proposer: lead.leader.address, final: false };
  }

  /** The chain executed this node's proposal: gossip it and vote for it. */
  proposed(block: Block, encoded: Uint8Array): void {
    const h = this.h;
    const header = block.header;
    if (header.height !== h.height) throw new Error(`proposed height ${header.height} while deciding ${h.height}`);
    const id = keyId(header.hash);
    h.proposals.set(id, { block, encoded, from: undefined, arrivedAt: this.now() });
    h.firstProposalAt ??= this.now();
    h.executed = id;
    this.detector.observe(header);
    this.counters.proposals++;
    void this.send('blocks', withKind(BlockMessage.PROPOSAL, encoded));
    void this.castVote(header).then(() => this.kick());
  }

  /** A block became final and durable (the chain's 'block' event, also for blocks imported by sync). */
  onHeadAdvanced(header: BlockHeader): void {
    if (!this.started || header.height < this.h.height) return;
    const h = this.h;
    const solo = this.soloMadeAt.get(header.height);
    if (solo !== undefined) {
      for (const height of this.soloMadeAt.keys()) if (height <= header.height) this.soloMadeAt.delete(height);
      this.record({ height: header.height, round: header.round, ms: this.now() - solo, at: this.now() });
    } else if (header.height === h.height) {
      // proposal made or first seen → certificate complete (durable a write later); a block that
      // came by sync has neither and counts from the start of the height
      const startedAt = h.firstProposalAt ?? h.startedAt;
      const end = h.certifiedAt ?? this.now();
      this.record({ height: header.height, round: header.round, ms: end - startedAt, at: this.now() });
    }
    this.resetHeight();
    this.replayFuture();
    this.kick();
  }

  private record(r: FinalityRecord): void {
    if (r.round > 0) this.counters.failovers++;
    this.finality.push(r);
    if (this.finality.length > 256) this.finality.shift();
    this.emit('finalized', r);
  }

  // ---- schedule and status -----------------------------------------------------------------

  /** Round open for proposing at `elapsed` ms into the height; −1 before round 0 is due. */
  private openRound(elapsed: number, busy: boolean): number {
    const { blockTimeMs, minBlockIntervalMs } = this.options;
    const leaderDue = busy ? Math.min(minBlockIntervalMs, blockTimeMs) : blockTimeMs;
    if (elapsed < leaderDue) return -1;
    return this.backupRound(elapsed);
  }

  /** The highest backup round open at `elapsed` ms (0 when only the leader's round is). */
  private backupRound(elapsed: number): number {
    const { blockTimeMs, failoverBaseMs, failoverStepMs } = this.options;
    const sinceDue = elapsed - blockTimeMs - failoverBaseMs;
    if (sinceDue < 0) return 0;
    return Math.min(MAX_ROUNDS, 1 + Math.floor(sinceDue / Math.max(1, failoverStepMs)));
  }

  /** Whether a validator may vote for a round-`round` proposal yet (its round has opened here). */
  private roundOpenForVoting(round: number): boolean {
    return round === 0 || this.backupRound(this.now() - this.h.startedAt) >= round;
  }

  /** Leader and backups of a height from the current set (docs/consensus.md: a projection above head + 1). */
  scheduleFor(height: number, rounds: number): { slot: number; epoch: number; leaders: ConsensusValidator[] } {
    const { slotLength, epochLength } = this.deps.host.params();
    const slot = slotOf(height, slotLength);
    return { slot, epoch: epochOf(height, epochLength), leaders: leaderSchedule(this.h.validators, slot, rounds) };
  }

  /** The round this node considers open now for the current height. */
  currentRound(): number {
    return this.backupRound(this.now() - this.h.startedAt);
  }

  votedStake(): { voted: bigint; total: bigint; blockHash: Uint8Array | undefined } {
    const h = this.h;
    let best: { voted: bigint; blockHash: Uint8Array | undefined } = { voted: 0n, blockHash: undefined };
    for (const c of h.proposals.values()) {
      const voted = h.tally.votedStake(c.block.header.hash);
      if (voted > best.voted) best = { voted, blockHash: c.block.header.hash };
    }
    return { ...best, total: h.tally.totalStake };
  }

  // ---- messages -------------------------------------------------------------------------------

  private statelessBlockCheck(data: Uint8Array): boolean {
    try {
      const { block, certificate } = parseBlockMessage(data);
      if (!headerIsSelfConsistent(block, this.deps.host.chainId)) return false;
      return certificate === undefined || (certificate.height === block.header.height && bytesEqual(certificate.blockHash, block.header.hash));
    } catch {
      return false;
    }
  }

  private statelessVoteCheck(data: Uint8Array): boolean {
    try {
      const vote = decodeVote(data);
      return vote.voteType === VOTE_COMMIT && verifyVote(vote);
    } catch {
      return false;
    }
  }

  /** Entry point of every gossip message (also used directly by tests). */
  receive(topic: ConsensusTopic, data: Uint8Array, from: string | undefined): void {
    if (!this.started) return;
    try {
      if (topic === 'votes') this.onVote(data, from);
      else void this.onBlockMessage(data, from).catch((error: unknown) => this.deps.logger.warn('block message failed', { error: String(error) }));
    } catch (error) {
      this.reject(from, `malformed ${topic} message: ${(error as Error).message}`);
    }
  }

  private reject(from: string | undefined, reason: string): void {
    this.counters.rejected++;
    this.deps.logger.debug('consensus message rejected', { from, reason });
    if (from !== undefined) this.deps.transport?.penalize(from, reason);
  }

  private onVote(data: Uint8Array, from: string | undefined): void {
    const vote = decodeVote(data);
    if (vote.voteType !== VOTE_COMMIT || !verifyVote(vote)) return this.reject(from, 'bad vote signature');
    const h = this.h;
    if (vote.height > h.height) return this.defer(vote.height, 'votes', data, from);
    if (vote.height < h.height) return;
    if (vote.epoch !== h.epoch) return this.reject(from, `vote epoch ${vote.epoch}, height ${vote.height} is in epoch ${h.epoch}`);
    // A key outside the set at the parent may belong to a validator that just left: not proof of malice.
    if (!h.tally.isVoter(vote.validator)) return;
    if (h.tally.add(vote)) {
      this.counters.votesReceived++;
      this.kick();
    }
  }

  private async onBlockMessage(data: Uint8Array, from: string | undefined): Promise<void> {
    let parsed: { block: Block; encoded: Uint8Array; certificate: Certificate | undefined };
    try {
      parsed = parseBlockMessage(data);
    } catch (error) {
      return this.reject(from, `undecodable block message: ${(error as Error).message}`);
    }
    const { block, encoded, certificate } = parsed;
    const header = block.header;
    if (!headerIsSelfConsistent(block, this.deps.host.chainId)) return this.reject(from, `block ${header.height}: bad hash, signature or transactions root`);
    await this.checkDoubleSign(header);
    const h = this.h;
    if (header.height > h.height) return this.defer(header.height, 'blocks', data, from);
    if (header.height < h.height) return;
    if (certificate) return this.onCertified(block, encoded, certificate, from);
    const id = keyId(header.hash);
    if (h.proposals.has(id) || h.bad.has(id)) return;
    const problem = this.proposalProblem(header);
    if (problem) {
      h.bad.add(id);
      return this.reject(from, `proposal ${header.height}/${header.round}: ${problem}`);
    }
    h.proposals.set(id, { block, encoded, from, arrivedAt: this.now() });
    h.firstProposalAt ??= this.now();
    this.kick();
  }

  /** A final block with its certificate (sent by its proposer for nodes that missed the votes). */
  private async onCertified(block: Block, encoded: Uint8Array, certificate: Certificate, from: string | undefined): Promise<void> {
    const h = this.h;
    const check = verifyCertificate(certificate, block.header, h.validators, this.deps.host.params().epochLength);
    if (!check.ok) return this.reject(from, `certificate of block ${block.header.height}: ${check.reason}`);
    for (const v of certificate.votes) {
      h.tally.add({
        height: h.height, round: block.header.round, blockHash: block.header.hash, voteType: certificate.voteType,
        epoch: certificate.epoch, validator: v.validator, signature: v.signature, stateRoot: block.header.stateRoot,
      });
    }
    const id = keyId(block.header.hash);
    if (!h.proposals.has(id)) h.proposals.set(id, { block, encoded, from, arrivedAt: this.now() });
    this.kick();
  }

  /** Why a proposal for the current height is not acceptable, or undefined. */
  private proposalProblem(header: BlockHeader): string | undefined {
    const h = this.h;
    if (!bytesEqual(header.parentHash, h.parent.hash)) return 'parent is not the final head';
    const lead = leaderOf(h.validators, header.height, header.round, this.deps.host.params().slotLength);
    if (!lead) return 'no eligible leader';
    if (!bytesEqual(lead.leader.consensusKey, header.proposerPubkey)) return 'signed by a key that is not the leader of its round';
    if (!bytesEqual(lead.leader.address, header.proposer)) return 'proposer account is not the leader\'s staking account';
    if (lead.missed.length !== header.missed.length || lead.missed.some((v, i) => !bytesEqual(v.consensusKey, header.missed[i]!))) {
      return 'missed leaders differ from the schedule';
    }
    const maxAhead = this.options.maxClockDriftSeconds ?? 15;
    if (header.timestamp > Math.floor(this.now() / 1000) + maxAhead) return `timestamp ${header.timestamp} is in the future`;
    if (header.timestamp < h.parent.timestamp) return 'timestamp before the parent\'s';
    return undefined;
  }

  /**
   * Double-sign detection: every validly signed header is remembered per (height,
   * proposer key); a second, different one, or one that differs from the block this node stored at
   * that height from the same proposer, is evidence the node reports.
   */
  private async checkDoubleSign(header: BlockHeader): Promise<void> {
    if (header.height <= this.h.parent.height) {
      const stored = await this.deps.host.storedHeader(header.height);
      if (stored && bytesEqual(stored.proposerPubkey, header.proposerPubkey)) this.detector.observe(stored);
    }
    const evidence = this.detector.observe(header);
    if (!evidence) return;
    this.counters.doubleSigns++;
    this.deps.logger.warn('double sign detected', { validator: keyId(evidence.validator), height: evidence.height });
    this.emit('doubleSign', evidence);
    try {
      await this.deps.host.reportDoubleSign(evidence);
    } catch (error) {
      this.deps.logger.warn('could not submit ReportDoubleSign', { error: String(error) });
    }
  }

  private defer(height: number, topic: ConsensusTopic, data: Uint8Array, from: string | undefined): void {
    if (height > this.h.height + MAX_FUTURE_HEIGHTS || this.futureCount >= MAX_FUTURE_MESSAGES) return;
    let list = this.future.get(height);
    if (!list) this.future.set(height, (list = []));
    list.push({ topic, data, from });
    this.futureCount++;
  }

  private replayFuture(): void {
    for (const height of [...this.future.keys()]) {
      if (height > this.h.height) continue;
      const list = this.future.get(height)!;
      this.future.delete(height);
      this.futureCount -= list.length;
      if (height === this.h.height) for (const m of list) this.receive(m.topic, m.data, m.from);
    }
  }

  // ---- deciding -------------------------------------------------------------------------------

  private liveProposals(): number {
    let n = 0;
    for (const id of this.h.proposals.keys()) if (!this.h.bad.has(id)) n++;
    return n;
  }

  private resetHeight(): void {
    const host = this.deps.host;
    const parent = host.head();
    const validators = host.validators();
    const { slotLength, epochLength } = host.params();
    const height = parent.height + 1;
    const last = host.lastVote();
    // At start-up there is nothing to catch up on yet: sync (if behind) advances the head without
    // this node's votes, and the first height after it listens.
    const votedParent = this.h === undefined || this.h.voted === keyId(parent.hash);
    // The adaptive interval runs from the parent's proposal (as the solo loop runs from the start of
    // the last block), so consensus latency does not stretch the block time; else from now.
    const previous = this.h?.height === parent.height ? this.h.firstProposalAt : undefined;
    this.h = {
      height, parent, startedAt: Math.min(this.now(), previous ?? this.now()), validators, tally: new VoteTally(height, validators),
      epoch: epochOf(height, epochLength), slot: slotOf(height, slotLength), proposals: new Map(), bad: new Set(),
      // A vote recorded before a restart binds this height: never vote for another block at it.
      voted: last && last.height === height ? keyId(last.blockHash) : undefined,
      executed: undefined, finalizing: false, firstProposalAt: undefined, certifiedAt: undefined, retryAt: 0, lastRebroadcast: this.now(),
      listenUntil: votedParent ? 0 : this.now() + 2 * this.rebroadcastMs(),
    };
  }

  /** How often an open height's vote and proposal are sent again. */
  private rebroadcastMs(): number {
    return Math.max(500, this.options.failoverStepMs);
  }

  private poll(): void {
    const h = this.h;
    const peers = this.deps.transport?.peerCount?.();
    if (peers === 0) this.isolatedAt = this.now();
    // While the height stays open, re-send this node's vote and the proposal it voted for (whoever
    // proposed it), for peers that missed them: a validator back from an outage, or one that joined.
    if (h.voted && !h.finalizing && this.now() - h.lastRebroadcast >= this.rebroadcastMs()) {
      h.lastRebroadcast = this.now();
      const mine = h.tally.votes(Buffer.from(h.voted, 'hex')).find((v) => bytesEqual(v.validator, this.deps.identity.publicKey));
      if (mine) void this.send('votes', encodeVote(mine));
      const voted = h.proposals.get(h.voted);
      if (voted) void this.send('blocks', withKind(BlockMessage.PROPOSAL, voted.encoded));
    }
    this.kick();
  }

  private kick(): void {
    if (this.stepping) {
      this.stepAgain = true;
      return;
    }
    this.stepping = true;
    void this.step().finally(() => {
      this.stepping = false;
      if (this.stepAgain) {
        this.stepAgain = false;
        this.kick();
      }
    });
  }

  /** Finalize if a block holds > 2/3 of the stake, otherwise vote for the best open proposal. */
  private async step(): Promise<void> {
    const h = this.h;
    if (h.finalizing) return;
    const final = h.tally.finalized();
    if (final) {
      h.certifiedAt ??= this.now();
      const id = keyId(final);
      const candidate = h.proposals.get(id);
      if (h.executed !== id && !candidate) return; // wait for the block (gossip or sync)
      h.finalizing = true;
      const certificate = h.tally.certificate(final);
      try {
        if (h.executed === id && (await this.deps.host.commit(certificate))) {
          // committed from the executed state
        } else if (candidate) {
          if (h.executed) await this.deps.host.discard();
          h.executed = undefined;
          await this.deps.host.importFinal(candidate.encoded, certificate);
        }
        if (candidate && candidate.from === undefined) {
          // Our block: send it with its certificate, for nodes that missed the proposal or the votes.
          void this.send('blocks', withKind(BlockMessage.CERTIFIED, candidate.encoded, encodeCertificate(certificate)));
        }
      } catch (error) {
        this.deps.logger.error('could not commit a final block', { height: h.height, error: String(error) });
        if (this.h === h) h.finalizing = false;
      }
      return;
    }
    if (h.voted || h.executed || this.deps.host.syncing() || !h.tally.isVoter(this.deps.identity.publicKey)) return;
    if (this.now() < h.retryAt) return;
    // The proposal most of the stake already voted for first (joining it can only help it finish),
    // then the earliest round, then the first seen.
    const voted = (c: Candidate) => h.tally.votedStake(c.block.header.hash);
    const open = [...h.proposals.entries()]
      .filter(([id, c]) => !h.bad.has(id) && (voted(c) > 0n || this.roundOpenForVoting(c.block.header.round)))
      .sort(([, a], [, b]) => (voted(b) > voted(a) ? 1 : voted(b) < voted(a) ? -1 : 0)
        || a.block.header.round - b.block.header.round || a.arrivedAt - b.arrivedAt);
    const chosen = open[0];
    if (!chosen) return;
    const [id, candidate] = chosen;
    const result = await this.deps.host.execute(candidate.block, candidate.encoded);
    if (this.h !== h) return;
    if (!result.ok) {
      if (result.faulty) {
        h.bad.add(id);
        this.reject(candidate.from, `proposal ${h.height}/${candidate.block.header.round}: ${result.reason}`);
        this.stepAgain = true;
      } else {
        // Not the proposal's fault (the chain was busy or moved): the poll tries again shortly.
        this.deps.logger.debug('proposal not executed yet', { height: h.height, reason: result.reason });
        h.retryAt = this.now() + 100;
      }
      return;
    }
    h.executed = id;
    await this.castVote(candidate.block.header);
    this.stepAgain = true;
  }

  private async castVote(header: BlockHeader): Promise<void> {
    const h = this.h;
    if (!h.tally.isVoter(this.deps.identity.publicKey)) return;
    if (h.voted && h.voted !== keyId(header.hash)) return;
    h.voted = keyId(header.hash);
    await this.deps.host.recordVote(header.height, header.hash);
    const { seed, publicKey } = this.deps.identity;
    const vote: Vote = signVote(seed, publicKey, {
      height: header.height, round: header.round, blockHash: header.hash, epoch: h.epoch, stateRoot: header.stateRoot,
    });
    h.tally.add(vote);
    this.counters.votesSent++;
    await this.send('votes', encodeVote(vote));
  }

  private async send(topic: ConsensusTopic, data: Uint8Array): Promise<void> {
    const transport = this.deps.transport;
    if (!transport) return;
    try {
      await transport.publish(topic, data);
    } catch (error) {
      this.deps.logger.debug('publish failed', { topic, error: String(error) });
    }
  }
}

// ---- message helpers -------------------------------------------------------------------------

function withKind(kind: number, block: Uint8Array, certificate?: Uint8Array): Uint8Array {
  if (!certificate) {
    const out = new Uint8Array(1 + block.length);
    out[0] = kind;
    out.set(block, 1);
    return out;
  }
  const out = new Uint8Array(1 + 4 + certificate.length + block.length);
  out[0] = kind;
  new DataView(out.buffer).setUint32(1, certificate.length, true);
  out.set(certificate, 5);
  out.set(block, 5 + certificate.length);
  return out;
}

/** `blocks` topic: 0x01 ‖ encoded block (a proposal), or 0x02 ‖ u32 LE n ‖ certificate[n] ‖ encoded block. */
export function parseBlockMessage(data: Uint8Array): { block: Block; encoded: Uint8Array; certificate: Certificate | undefined } {
  if (data.length < 2) throw new RangeError('empty block message');
  if (data[0] === BlockMessage.PROPOSAL) {
    const encoded = data.subarray(1);
    return { block: decodeBlock(encoded, bundleHash), encoded, certificate: undefined };
  }
  if (data[0] === BlockMessage.CERTIFIED) {
    const n = new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(1, true);
    const certificate = decodeCertificate(data.subarray(5, 5 + n));
    const encoded = data.subarray(5 + n);
    return { block: decodeBlock(encoded, bundleHash), encoded, certificate };
  }
  throw new RangeError(`unknown block message kind ${data[0]}`);
}

export function encodeProposalMessage(block: Block): Uint8Array {
  return withKind(BlockMessage.PROPOSAL, encodeBlock(block));
}

export function encodeCertifiedMessage(block: Block, certificate: Certificate): Uint8Array {
  return withKind(BlockMessage.CERTIFIED, encodeBlock(block), encodeCertificate(certificate));
}

/** Hash recomputes, the proposer key signed it, and the bundles match the transactions root. */
export function headerIsSelfConsistent(block: Block, chainId: number): boolean {
  const h = block.header;
  if (h.chainId !== chainId || h.proposerPubkey.length !== 32 || h.signature.length !== 64) return false;
  if (!bytesEqual(headerHash(h), h.hash)) return false;
  if (h.bundleCount !== block.bundles.length) return false;
  if (!bytesEqual(transactionsRoot(block.bundleHashes), h.transactionsRoot)) return false;
  return verifyEd25519(h.proposerPubkey, h.hash, h.signature);
}
