import { EventEmitter } from 'node:events';
import type { Block, BlockHeader } from '../chain/block.js';
import { bytesEqual } from '../codec/hash.js';
import type { Logger } from '../logger.js';
import { DoubleSignDetector, type DoubleSignEvidence } from './double-sign.js';
import { leaderOf, leaderSchedule, slotOf, type ConsensusValidator } from './leader.js';
import {
  certifiedMessage, headerIsSelfConsistent, parseBlockMessage, proposalMessage, reproposalMessage, verifyReproposal, type ParsedBlockMessage,
} from './messages.js';
import { growingTimeouts, NIL, RoundState, type BlockId, type RoundEffects, type SigningRecord, type VoteKind, type VoteProof, type VoterSet } from './rounds.js';
import { decodeSigningRecord, encodeSigningRecord, maySign } from './signing-state.js';
import {
  decodeVote, VOTE_SIZE, encodeCertificate, encodeVote, epochOf, isSupermajority, keyId, NIL_HASH, signVote, verifyCertificate, verifyVote,
  VOTE_COMMIT, VOTE_PRECOMMIT, VOTE_PREVOTE, votingStake, type Certificate, type Vote,
} from './votes.js';

/**
 * The consensus engine of one node (docs/consensus.md): the round protocol of ./rounds.ts (the
 * same class the simulator runs) carried out over the chain and the network. Per height it feeds
 * the protocol the verified proposals and votes, signs and sends what the protocol decides —
 * after the signing state is synced to disk — executes proposals through the chain, and makes the
 * final block durable once its commit votes form the finality certificate. It owns no block
 * execution and no storage: the chain does those through `ConsensusHost`, and messages travel
 * through `ConsensusTransport` (the P2PNetwork of src/p2p, or the in-memory fake of the unit tests).
 */

export type ConsensusTopic = 'blocks' | 'votes';
export type Verdict = 'accept' | 'ignore' | 'reject';

/** The part of P2PNetwork consensus uses. */
export interface ConsensusTransport {
  publish(topic: ConsensusTopic, data: Uint8Array): Promise<unknown>;
  on(topic: ConsensusTopic, handler: (data: Uint8Array, from: string) => void): unknown;
  penalize(peer: string, reason: string): void;
  /** connected peers now (P2PNetwork.connectedPeers().length) */
  peerCount?(): number;
  /** a cheap stateless check run before gossip forwards a message (P2PNetwork.validate) */
  validate?(topic: ConsensusTopic, check: (data: Uint8Array, from: string) => Verdict): void;
}

export type Execution = { ok: true } | { ok: false; reason: string; /** the proposer's fault (penalize), not a local condition */ faulty: boolean };

/** What this validator keeps on disk to never sign twice and to carry a height across a restart. */
export interface SigningState {
  /** ./signing-state.ts encoding of the last signed message and the lock */
  record?: Uint8Array;
  /** the votes of the proof of lock (encoded votes, VOTE_SIZE bytes each) and the block locked on */
  pol?: Uint8Array;
  polBlock?: Uint8Array;
  /** the votes that decided the height (encoded votes) */
  decision?: Uint8Array;
  /** the block this validator made at the record's height (re-proposed in later rounds it leads) */
  ownBlock?: Uint8Array;
  /**
   * This validator's own signed votes of the record's height, of its last two rounds and its commit
   * vote (encoded votes): re-sent after a restart, since a peer still in an earlier round may need
   * exactly those to leave it (a seeded simulation halted without them, docs/consensus.md "Signing state").
   */
  votes?: Uint8Array;
}

/** What the engine needs from the chain (./service.ts implements it over Chain). */
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
  /** a stored final block and its certificate, for a peer still deciding that height */
  storedCertified(height: number): Promise<{ encoded: Uint8Array; certificate: Uint8Array } | undefined>;
  reportDoubleSign(evidence: DoubleSignEvidence): Promise<void>;
  /** write the signing state synced to disk (fsync) before anything it covers is sent */
  saveSigningState(state: SigningState): Promise<void>;
  /** the signing state as saved last (read once at start) */
  signingState(): SigningState;
}

export interface ConsensusOptions {
  /** idle block interval (--block-time): when the round-0 leader proposes with an empty mempool */
  blockTimeMs: number;
  /** interval under load (spec §1.8: 500 ms) */
  minBlockIntervalMs: number;
  /** round 0's proposal is awaited for the block time plus this (facts.md: 5 s) */
  failoverBaseMs: number;
  /** later rounds' timeouts are built from this step (facts.md: 3 s), growing with the round */
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

export { BlockMessage, encodeCertifiedMessage, encodeProposalMessage, headerIsSelfConsistent, parseBlockMessage } from './messages.js';

const MAX_FUTURE_HEIGHTS = 8;
const MAX_FUTURE_MESSAGES = 2048;
/** A peer behind at a height gets that height's final block at most this often. */
const CATCH_UP_EVERY_MS = 1000;

interface Candidate {
  block: Block;
  encoded: Uint8Array;
  from: string | undefined;
}

const KIND_OF: Record<number, VoteKind> = { [VOTE_COMMIT]: 'commit', [VOTE_PREVOTE]: 'prevote', [VOTE_PRECOMMIT]: 'precommit' };
const TYPE_OF: Record<VoteKind, number> = { commit: VOTE_COMMIT, prevote: VOTE_PREVOTE, precommit: VOTE_PRECOMMIT };

interface HeightState {
  height: number;
  parent: BlockHeader;
  startedAt: number;
  validators: ConsensusValidator[];
  voters: VoterSet;
  epoch: number;
  slot: number;
  machine: RoundState;
  /** blocks of this height by id (hex hash) */
  blocks: Map<BlockId, Candidate>;
  /** every verified vote of this height, by kind:round:voter:block (certificates and proofs are built from them) */
  votes: Map<string, Vote>;
  /** the block the chain holds executed for this height */
  executed: BlockId | undefined;
  /** blocks waiting for execution, in order */
  toValidate: BlockId[];
  validating: boolean;
  /** the round this node was asked to build a block for (−1: none) */
  buildRound: number;
  finalizing: boolean;
  finalId: BlockId | undefined;
  /** this node's signed messages, re-sent every rebroadcast period: tag → message */
  sent: Map<string, { topic: ConsensusTopic; data: Uint8Array; round: number }>;
  /** this node's own votes kept in the signing state (SigningState.votes), by the tag of `sent` */
  own: Map<string, { data: Uint8Array; round: number }>;
  /** votes of others this node relays (its proof of lock and decision) */
  relay: Map<string, Uint8Array>;
  /** the proposal message of each round as received or sent, for re-sending */
  proposalMessages: Map<number, Uint8Array>;
  firstProposalAt: number | undefined;
  certifiedAt: number | undefined;
  decidedRound: number | undefined;
  timers: Set<NodeJS.Timeout>;
  lastRebroadcast: number;
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
  private timer: NodeJS.Timeout | undefined;
  private started = false;
  private stopped = false;
  /** solo blocks: height → when made (they are final then; durable a write later) */
  private readonly soloMadeAt = new Map<number, number>();
  private readonly now: () => number;
  /** the signing state as last written; every signature is checked against it (maySign) */
  private saved: SigningState;
  private lastRecord: SigningRecord | undefined;
  /** signing, saving and sending, one after another in the protocol's order */
  private io: Promise<void> = Promise.resolve();
  private readonly catchUpSent = new Map<number, number>();
  /** recent finality records (svc_consensusStatus, the finality bench) */
  readonly finality: FinalityRecord[] = [];
  readonly counters = { proposals: 0, votesSent: 0, votesReceived: 0, rejected: 0, doubleSigns: 0, failovers: 0, rounds: 0, refusedSignatures: 0 };

  constructor(
    readonly options: ConsensusOptions,
    private readonly deps: { host: ConsensusHost; transport?: ConsensusTransport; identity: Identity; logger: Logger },
  ) {
    super();
    this.now = options.now ?? Date.now;
    this.saved = deps.host.signingState();
    try {
      this.lastRecord = this.saved.record ? decodeSigningRecord(this.saved.record) : undefined;
    } catch (error) {
      // A record this release cannot read: refuse to run rather than risk signing twice.
      throw new Error(`the consensus signing state cannot be read (${(error as Error).message}); restore it or move it aside only if this key has not signed at the current height`);
    }
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    const transport = this.deps.transport;
    if (transport) {
      transport.on('blocks', (data, from) => this.receive('blocks', data, from));
      transport.on('votes', (data, from) => this.receive('votes', data, from));
      transport.validate?.('blocks', (data) => (this.statelessBlockCheck(data) ? 'accept' : 'reject'));
      transport.validate?.('votes', (data) => (this.statelessVoteCheck(data) ? 'accept' : 'reject'));
    }
    this.resetHeight(true);
    this.timer = setInterval(() => this.poll(), 50);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.h) for (const t of this.h.timers) clearTimeout(t);
  }

  /** Resolves once everything signed so far is saved and handed to the transport. */
  flush(): Promise<void> {
    return this.io;
  }

  get identity(): Identity {
    return this.deps.identity;
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

  /** The certificate of a solo block: this node's commit vote (its precommit alone is a quorum). */
  certifySolo(header: BlockHeader): Uint8Array {
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
   * Whether this node makes a block for `head + 1` now: the round protocol asked it to (it leads
   * the round open now and has no block to propose again), and for round 0 the chain's adaptive
   * interval has passed (`busy`: bundles wait; spec §1.8).
   */
  turn(busy: boolean): Turn | undefined {
    const h = this.h;
    if (!h || this.deps.host.syncing() || h.finalizing) return undefined;
    const round = h.machine.wantsBlock;
    if (round < 0 || round !== h.machine.round) return undefined;
    if (round === 0) {
      const { blockTimeMs, minBlockIntervalMs } = this.options;
      const due = busy ? Math.min(minBlockIntervalMs, blockTimeMs) : blockTimeMs;
      if (this.now() - h.startedAt < due) return undefined;
    }
    const lead = leaderOf(h.validators, h.height, round, this.deps.host.params().slotLength);
    if (!lead || !bytesEqual(lead.leader.consensusKey, this.deps.identity.publicKey)) return undefined;
    h.buildRound = round;
    return { height: h.height, round, missed: lead.missed.map((v) => v.consensusKey), proposer: lead.leader.address, final: false };
  }

  /** The chain executed this node's block (made after `turn`): the protocol proposes it. */
  proposed(block: Block, encoded: Uint8Array): void {
    const h = this.h;
    const header = block.header;
    if (header.height !== h.height) throw new Error(`proposed height ${header.height} while deciding ${h.height}`);
    const id = keyId(header.hash);
    h.blocks.set(id, { block, encoded, from: undefined });
    h.executed = id;
    h.firstProposalAt ??= this.now();
    this.detector.observe(header);
    this.counters.proposals++;
    // Kept with the signing state written before the proposal leaves: after a restart this node
    // re-proposes this block, never a second one (a second header at one height is a double sign),
    // so it must still hold it (a simulated seed halted when two leaders had lost theirs).
    this.saved = { ...this.saved, ownBlock: encoded };
    h.machine.proposeOwn(header.round, id);
  }

  /** A block became final and durable (the chain's 'block' event, also for blocks imported by sync). */
  onHeadAdvanced(header: BlockHeader): void {
    if (!this.started || this.stopped || header.height < this.h.height) return;
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
      this.record({ height: header.height, round: h.decidedRound ?? h.machine.round, ms: end - startedAt, at: this.now() });
    }
    this.resetHeight(false);
    this.replayFuture();
  }

  private record(r: FinalityRecord): void {
    if (r.round > 0) this.counters.failovers++;
    this.finality.push(r);
    if (this.finality.length > 256) this.finality.shift();
    this.emit('finalized', r);
  }

  // ---- status --------------------------------------------------------------------------------

  /** Leader and backups of a height from the current set (docs/consensus.md: a projection above head + 1). */
  scheduleFor(height: number, rounds: number): { slot: number; epoch: number; leaders: ConsensusValidator[] } {
    const { slotLength, epochLength } = this.deps.host.params();
    const slot = slotOf(height, slotLength);
    return { slot, epoch: epochOf(height, epochLength), leaders: leaderSchedule(this.h.validators, slot, rounds) };
  }

  /** The round this node is in for the height being decided. */
  currentRound(): number {
    return Math.max(0, this.h?.machine.round ?? 0);
  }

  /** The round protocol's state, for svc_consensusStatus. */
  roundStatus(): { round: number; step: string; lockedRound: number; validRound: number; decided: boolean; proposals: number; voted: boolean } {
    const m = this.h.machine;
    return {
      round: Math.max(0, m.round), step: m.decision ? 'commit' : m.step, lockedRound: m.lockedRound, validRound: m.validRound,
      decided: m.decision !== undefined, proposals: this.h.blocks.size,
      voted: m.myVote('prevote', m.round) !== undefined || m.myVote('commit', 0) !== undefined,
    };
  }

  /** The block holding the most votes at the height being decided (commit votes first, then this round's precommits, then prevotes). */
  votedStake(): { voted: bigint; total: bigint; blockHash: Uint8Array | undefined } {
    const h = this.h;
    const m = h.machine;
    let best: { voted: bigint; blockHash: Uint8Array | undefined } = { voted: 0n, blockHash: undefined };
    for (const kind of ['commit', 'precommit', 'prevote'] as const) {
      for (const id of h.blocks.keys()) {
        const voted = m.stakeFor(kind, m.round, id);
        if (voted > best.voted) best = { voted, blockHash: Buffer.from(id, 'hex') };
      }
      if (best.voted > 0n) break;
    }
    return { ...best, total: h.voters.total };
  }

  // ---- heights ------------------------------------------------------------------------------

  private resetHeight(first: boolean): void {
    if (this.h) for (const t of this.h.timers) clearTimeout(t);
    const host = this.deps.host;
    const parent = host.head();
    const validators = host.validators();
    const { slotLength, epochLength } = host.params();
    const height = parent.height + 1;
    const stakes = votingStake(validators);
    let total = 0n;
    for (const s of stakes.values()) total += s;
    const voters: VoterSet = { stake: (v) => stakes.get(v), total };
    const me = keyId(this.deps.identity.publicKey);
    // The interval runs from the parent's proposal (as the solo loop runs from the start of the
    // last block), so consensus latency does not stretch the block time; else from now.
    const previous = this.h?.height === parent.height ? this.h.firstProposalAt : undefined;
    const startedAt = Math.min(this.now(), previous ?? this.now());
    const { blockTimeMs, failoverBaseMs, failoverStepMs } = this.options;
    const base = growingTimeouts(blockTimeMs + failoverBaseMs, failoverStepMs);
    const timeouts = {
      ...base,
      // round 0's wait counts from the height's start, not from when this node got to it
      propose: (round: number) => (round === 0 ? Math.max(0, base.propose(0) - (this.now() - startedAt)) : base.propose(round)),
    };
    const h: HeightState = {
      height, parent, startedAt, validators, voters, epoch: epochOf(height, epochLength), slot: slotOf(height, slotLength),
      machine: undefined as unknown as RoundState, blocks: new Map(), votes: new Map(), executed: undefined, toValidate: [], validating: false,
      buildRound: -1, finalizing: false, finalId: undefined, sent: new Map(), own: new Map(), relay: new Map(), proposalMessages: new Map(),
      firstProposalAt: undefined, certifiedAt: undefined, decidedRound: undefined, timers: new Set(), lastRebroadcast: this.now(),
    };
    this.h = h;
    const leader = (round: number) => {
      const lead = leaderOf(validators, height, round, slotLength);
      return lead ? keyId(lead.leader.consensusKey) : undefined;
    };
    h.machine = new RoundState(height, voters, stakes.has(me) ? me : undefined, leader, timeouts, this.effects(h));
    const record = this.lastRecord?.height === height ? this.lastRecord : undefined;
    if (record && first) this.deps.logger.info('consensus resumes a height from its signing state', { height, round: record.round, step: record.step, lockedRound: record.lockedRound });
    h.machine.start(record);
    if (first) this.restoreProofs(h);
  }

  /** After a restart: the block locked on and the votes of its proof of lock and of the decision, back in. */
  private restoreProofs(h: HeightState): void {
    const { pol, polBlock, ownBlock, decision } = this.saved;
    for (const [encoded, what] of [[polBlock, 'locked'], [ownBlock, 'own']] as const) {
      if (!encoded) continue;
      try {
        const parsed = parseBlockMessage(proposalMessage(encoded));
        if (parsed.block.header.height === h.height) {
          const id = keyId(parsed.block.header.hash);
          h.blocks.set(id, { block: parsed.block, encoded: parsed.encoded, from: undefined });
          h.machine.onBlock(id);
        }
      } catch (error) {
        this.deps.logger.warn(`the saved ${what} block cannot be read`, { error: String(error) });
      }
    }
    for (const list of [pol, decision]) {
      for (const { vote, data } of votesIn(list)) {
        if (vote.height !== h.height) continue;
        h.relay.set(voteTag(vote), data);
        this.onVote(data, undefined);
      }
    }
    // Its own votes of the height, counted again and re-sent as before the restart.
    for (const { vote, data } of votesIn(this.saved.votes)) {
      if (vote.height !== h.height || !bytesEqual(vote.validator, this.deps.identity.publicKey)) continue;
      const kind = KIND_OF[vote.voteType]!;
      const tag = kind === 'commit' ? 'commit' : `${kind}${vote.round}`;
      h.own.set(tag, { data, round: vote.round });
      h.sent.set(tag, { topic: 'votes', data, round: vote.round });
      this.onVote(data, undefined);
    }
  }

  /** The round protocol's effects, carried out for height `h`. */
  private effects(h: HeightState): RoundEffects {
    const live = () => this.h === h && !this.stopped;
    return {
      build: (round) => {
        h.buildRound = round;
      },
      propose: (round, id, validRound) => {
        const candidate = h.blocks.get(id);
        if (!candidate) return;
        const { block, encoded } = candidate;
        const record = h.machine.record('propose', round, id);
        const fresh = block.header.round === round && validRound === -1 && bytesEqual(block.header.proposerPubkey, this.deps.identity.publicKey);
        this.signAndSend(h, record, () => {
          const data = fresh ? proposalMessage(encoded) : reproposalMessage(block, encoded, round, validRound, h.epoch, this.deps.identity);
          h.proposalMessages.set(round, data);
          return { topic: 'blocks', data, tag: `p${round}`, round };
        });
      },
      vote: (kind, round, id) => {
        const step = kind === 'commit' ? 'commit' : kind;
        const record = h.machine.record(step, kind === 'commit' ? -1 : round, id);
        this.signAndSend(h, record, () => {
          const candidate = id === NIL ? undefined : h.blocks.get(id);
          const { seed, publicKey } = this.deps.identity;
          const vote = signVote(seed, publicKey, {
            height: h.height, round: Math.max(0, round === -1 ? h.machine.round : round), blockHash: id === NIL ? NIL_HASH : Buffer.from(id, 'hex'),
            epoch: h.epoch, stateRoot: candidate?.block.header.stateRoot ?? NIL_HASH,
          }, TYPE_OF[kind]);
          h.votes.set(voteTag(vote), vote);
          this.counters.votesSent++;
          return { topic: 'votes', data: encodeVote(vote), tag: kind === 'commit' ? 'commit' : `${kind}${round}`, round };
        });
      },
      schedule: (kind, round, ms) => {
        const t = setTimeout(() => {
          h.timers.delete(t);
          if (live()) h.machine.onTimeout(kind, round);
        }, ms);
        t.unref();
        h.timers.add(t);
        if (round > this.counters.rounds) this.counters.rounds = round;
      },
      validate: (id) => {
        h.toValidate.push(id);
        void this.validateNext(h);
      },
      decided: (id, round, proof) => {
        h.decidedRound = round >= 0 ? round : h.machine.round;
        this.keepProof(h, 'decision', proof);
        this.deps.logger.debug('decided', { height: h.height, round, block: id });
      },
      polka: (proof) => {
        this.keepProof(h, 'pol', proof);
      },
      final: (id) => {
        h.finalId = id;
        h.certifiedAt ??= this.now();
        void this.finalize(h);
      },
    };
  }

  /**
   * Check a signature against the saved signing state, save the new state synced, then send —
   * in the order the protocol asked, never a message before the state that covers it is on disk.
   */
  private signAndSend(h: HeightState, record: SigningRecord, make: () => { topic: ConsensusTopic; data: Uint8Array; tag: string; round: number }): void {
    if (!maySign(this.lastRecord, record)) {
      this.counters.refusedSignatures++;
      this.deps.logger.warn('refused to sign: the signing state says this key signed otherwise', {
        height: record.height, round: record.round, step: record.step, last: this.lastRecord && { round: this.lastRecord.round, step: this.lastRecord.step },
      });
      return;
    }
    this.lastRecord = record;
    // Signed here, saved with the record, sent only once both are on disk.
    const message = make();
    const next: SigningState = { ...this.saved, record: encodeSigningRecord(record) };
    if (message.topic === 'votes') next.votes = this.keepOwnVote(h, message.tag, message.data, message.round);
    this.saved = next;
    const state = next;
    this.io = this.io.then(async () => {
      await this.deps.host.saveSigningState(state);
      if (this.stopped) return;
      h.sent.set(message.tag, message);
      await this.send(message.topic, message.data);
    }).catch((error: unknown) => {
      this.deps.logger.error('could not save the consensus signing state; nothing was sent', { error: String(error) });
    });
  }

  /** This node's votes of the height worth re-sending (its last two rounds and its commit vote), encoded for the signing state. */
  private keepOwnVote(h: HeightState, tag: string, data: Uint8Array, round: number): Uint8Array {
    h.own.set(tag, { data, round });
    for (const [t, v] of h.own) if (t !== 'commit' && v.round < round - 1) h.own.delete(t);
    return Buffer.concat([...h.own.values()].map((v) => v.data));
  }

  /** Keep a proof's votes (saved with the signing state, and relayed every rebroadcast period). */
  private keepProof(h: HeightState, which: 'pol' | 'decision', proof: VoteProof): void {
    const parts: Uint8Array[] = [];
    for (const voter of proof.voters) {
      const vote = h.votes.get(`${proof.kind}:${proof.kind === 'commit' ? 0 : proof.round}:${voter}:${proof.id}`);
      if (!vote) continue;
      const data = encodeVote(vote);
      parts.push(data);
      h.relay.set(voteTag(vote), data);
    }
    const bytes = Buffer.concat(parts);
    const next: SigningState = { ...this.saved, [which]: bytes };
    if (which === 'pol') next.polBlock = h.blocks.get(proof.id)?.encoded;
    this.saved = next;
    const state = next;
    this.io = this.io.then(() => this.deps.host.saveSigningState(state)).catch((error: unknown) => {
      this.deps.logger.error('could not save the consensus signing state', { error: String(error) });
    });
  }

  // ---- execution and finality -----------------------------------------------------------------

  private async validateNext(h: HeightState): Promise<void> {
    if (h.validating) return;
    h.validating = true;
    try {
      while (this.h === h && h.toValidate.length > 0 && !h.finalizing) {
        const id = h.toValidate[0]!;
        const candidate = h.blocks.get(id);
        if (!candidate) {
          h.toValidate.shift();
          continue;
        }
        if (h.executed === id) {
          h.toValidate.shift();
          h.machine.validated(id, true);
          continue;
        }
        const result = await this.deps.host.execute(candidate.block, candidate.encoded);
        if (this.h !== h) return;
        if (!result.ok && !result.faulty) {
          // not the proposal's fault (the chain was busy or moved): try again shortly
          this.deps.logger.debug('proposal not executed yet', { height: h.height, reason: result.reason });
          await new Promise((resolve) => setTimeout(resolve, 100).unref());
          continue;
        }
        h.toValidate.shift();
        if (result.ok) h.executed = id;
        else {
          if (h.executed !== undefined) h.executed = undefined;
          this.reject(candidate.from, `proposal ${h.height}/${candidate.block.header.round}: ${result.reason}`);
        }
        h.machine.validated(id, result.ok);
      }
    } finally {
      h.validating = false;
    }
  }

  /** The commit votes are a certificate: make the block durable (from the executed state, or imported). */
  private async finalize(h: HeightState): Promise<void> {
    const id = h.finalId;
    if (id === undefined || h.finalizing || this.h !== h) return;
    const candidate = h.blocks.get(id);
    if (h.executed !== id && !candidate) return; // wait for the block (re-sent proposals, a certified message, or sync)
    h.finalizing = true;
    // This node's own commit vote counts in the round state as soon as it is asked for, but exists
    // as a signed vote only once its signing state is on disk (signAndSend): wait for that.
    await this.io;
    if (this.h !== h) return;
    const certificate = this.certificateOf(h, id);
    try {
      if (h.executed === id && (await this.deps.host.commit(certificate))) {
        // committed from the executed state
      } else if (candidate) {
        if (h.executed) await this.deps.host.discard();
        h.executed = undefined;
        await this.deps.host.importFinal(candidate.encoded, certificate);
      }
      if (candidate && candidate.from === undefined && this.h !== h) {
        // Our block: send it with its certificate, for nodes that missed the proposal or the votes.
        void this.send('blocks', certifiedMessage(candidate.encoded, encodeCertificate(certificate)));
      }
    } catch (error) {
      this.deps.logger.error('could not commit a final block', { height: h.height, error: String(error) });
      if (this.h === h) h.finalizing = false;
    }
  }

  /** The finality certificate: the commit votes for `id`, sorted by voter key so every node builds the same bytes. */
  private certificateOf(h: HeightState, id: BlockId): Certificate {
    const votes = h.machine.votersFor('commit', 0, id)
      .map((voter) => h.votes.get(`commit:0:${voter}:${id}`))
      .filter((v): v is Vote => v !== undefined)
      .sort((a, b) => Buffer.compare(a.validator, b.validator));
    return {
      height: h.height, blockHash: Buffer.from(id, 'hex'), epoch: h.epoch, voteType: VOTE_COMMIT,
      votes: votes.map((v) => ({ validator: v.validator, signature: v.signature })),
    };
  }

  // ---- messages -------------------------------------------------------------------------------

  private statelessBlockCheck(data: Uint8Array): boolean {
    try {
      const m = parseBlockMessage(data);
      if (!headerIsSelfConsistent(m.block, this.deps.host.chainId)) return false;
      if (m.kind === 'certified') return m.certificate.height === m.block.header.height && bytesEqual(m.certificate.blockHash, m.block.header.hash);
      if (m.kind === 'reproposal') return m.validRound < m.round && m.validRound >= -1 && verifyReproposal(m, epochOf(m.block.header.height, this.deps.host.params().epochLength));
      return true;
    } catch {
      return false;
    }
  }

  private statelessVoteCheck(data: Uint8Array): boolean {
    try {
      return verifyVote(decodeVote(data));
    } catch {
      return false;
    }
  }

  /** Entry point of every gossip message (also used directly by tests). */
  receive(topic: ConsensusTopic, data: Uint8Array, from: string | undefined): void {
    if (!this.started || this.stopped) return;
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
    if (!verifyVote(vote)) return this.reject(from, 'bad vote signature');
    const h = this.h;
    if (vote.height > h.height) return this.defer(vote.height, 'votes', data, from);
    if (vote.height < h.height) return void this.helpCatchUp(vote.height);
    if (this.deps.host.syncing()) return;
    if (vote.epoch !== h.epoch) return this.reject(from, `vote epoch ${vote.epoch}, height ${vote.height} is in epoch ${h.epoch}`);
    const voter = keyId(vote.validator);
    // A key outside the set at the parent may belong to a validator that just left: not proof of malice.
    if (h.voters.stake(voter) === undefined) return;
    const kind = KIND_OF[vote.voteType]!;
    const id = bytesEqual(vote.blockHash, NIL_HASH) ? NIL : keyId(vote.blockHash);
    const tag = voteTag(vote);
    if (h.votes.has(tag)) return;
    h.votes.set(tag, vote);
    this.counters.votesReceived++;
    h.machine.onVote(kind, vote.round, voter, id);
  }

  private async onBlockMessage(data: Uint8Array, from: string | undefined): Promise<void> {
    let m: ParsedBlockMessage;
    try {
      m = parseBlockMessage(data);
    } catch (error) {
      return this.reject(from, `undecodable block message: ${(error as Error).message}`);
    }
    const { block, encoded } = m;
    const header = block.header;
    if (!headerIsSelfConsistent(block, this.deps.host.chainId)) return this.reject(from, `block ${header.height}: bad hash, signature or transactions root`);
    await this.checkDoubleSign(header);
    const h = this.h;
    if (header.height > h.height) return this.defer(header.height, 'blocks', data, from);
    if (header.height < h.height) return;
    if (this.deps.host.syncing()) return;
    const id = keyId(header.hash);
    if (m.kind === 'certified') {
      const check = verifyCertificate(m.certificate, header, h.validators, this.deps.host.params().epochLength);
      if (!check.ok) return this.reject(from, `certificate of block ${header.height}: ${check.reason}`);
      this.addBlock(h, id, { block, encoded, from });
      for (const v of m.certificate.votes) {
        const vote: Vote = {
          height: h.height, round: header.round, blockHash: header.hash, voteType: VOTE_COMMIT, epoch: m.certificate.epoch,
          validator: v.validator, signature: v.signature, stateRoot: header.stateRoot,
        };
        const tag = voteTag(vote);
        if (h.votes.has(tag)) continue;
        h.votes.set(tag, vote);
        h.machine.onVote('commit', 0, keyId(v.validator), id);
      }
      return;
    }
    const problem = this.blockProblem(header);
    if (problem) return this.reject(from, `proposal ${header.height}/${header.round}: ${problem}`);
    let round = header.round;
    let validRound = -1;
    if (m.kind === 'reproposal') {
      const lead = leaderOf(h.validators, h.height, m.round, this.deps.host.params().slotLength);
      if (!lead || !bytesEqual(lead.leader.consensusKey, m.signer)) return this.reject(from, `re-proposal for round ${m.round} signed by a key that does not lead it`);
      if (!verifyReproposal(m, h.epoch)) return this.reject(from, 're-proposal signature does not verify');
      round = m.round;
      validRound = m.validRound;
    }
    h.firstProposalAt ??= this.now();
    if (!h.proposalMessages.has(round)) h.proposalMessages.set(round, data);
    this.addBlock(h, id, { block, encoded, from });
    h.machine.onProposal(round, id, validRound);
  }

  private addBlock(h: HeightState, id: BlockId, candidate: Candidate): void {
    if (!h.blocks.has(id)) h.blocks.set(id, candidate);
    h.machine.onBlock(id);
    if (h.finalId === id) void this.finalize(h);
  }

  /** Why a block is not acceptable at the current height, or undefined (its round's leader made it, on our head). */
  private blockProblem(header: BlockHeader): string | undefined {
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
   * Double-sign detection: every validly signed header is remembered per (height, proposer key);
   * a second, different one, or one that differs from the block this node stored at that height
   * from the same proposer, is evidence the node reports. An honest leader makes at most one block
   * a height (it proposes that block again when it leads a later round).
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

  /** A peer sent a message of a height this node has finalized: send it that height's final block. */
  private async helpCatchUp(height: number): Promise<void> {
    const last = this.catchUpSent.get(height) ?? 0;
    if (this.now() - last < CATCH_UP_EVERY_MS || height < this.h.height - MAX_FUTURE_HEIGHTS) return;
    this.catchUpSent.set(height, this.now());
    if (this.catchUpSent.size > 64) for (const k of [...this.catchUpSent.keys()].slice(0, 32)) this.catchUpSent.delete(k);
    const stored = await this.deps.host.storedCertified(height);
    if (stored && stored.certificate.length > 0) await this.send('blocks', certifiedMessage(stored.encoded, stored.certificate));
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

  // ---- gossip ---------------------------------------------------------------------------------

  /** How often an open height's messages are sent again. */
  private rebroadcastMs(): number {
    return Math.max(500, this.options.failoverStepMs);
  }

  /**
   * While the height stays open, re-send this node's messages of this round and the last, its commit
   * vote, the votes it relays (proof of lock, decision) and this round's proposal it prevoted for:
   * for a validator back from an outage, one that joined, or one whose messages were lost.
   */
  private poll(): void {
    const h = this.h;
    if (!h || h.finalizing || this.now() - h.lastRebroadcast < this.rebroadcastMs()) return;
    h.lastRebroadcast = this.now();
    const m = h.machine;
    const round = m.round;
    for (const [tag, message] of h.sent) {
      if (message.topic === 'votes' && tag !== 'commit' && message.round < round - 1) continue;
      if (message.topic === 'blocks' && message.round < round) continue;
      void this.send(message.topic, message.data);
    }
    for (const data of h.relay.values()) void this.send('votes', data);
    const proposal = m.proposal(round);
    const forward = h.proposalMessages.get(round);
    if (proposal && forward && m.myVote('prevote', round) === proposal.id && !h.sent.has(`p${round}`)) void this.send('blocks', forward);
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

/** The encoded votes of a saved list (SigningState.pol, .decision, .votes). */
function* votesIn(list: Uint8Array | undefined): Iterable<{ vote: Vote; data: Uint8Array }> {
  if (!list) return;
  for (let o = 0; o + VOTE_SIZE <= list.length; o += VOTE_SIZE) {
    const data = list.slice(o, o + VOTE_SIZE);
    yield { vote: decodeVote(data), data };
  }
}

/** Where a vote is kept: kind:round:voter:block (commit votes carry no round: 0). */
function voteTag(v: Vote): string {
  const kind = KIND_OF[v.voteType]!;
  const id = bytesEqual(v.blockHash, NIL_HASH) ? NIL : keyId(v.blockHash);
  return `${kind}:${kind === 'commit' ? 0 : v.round}:${keyId(v.validator)}:${id}`;
}
