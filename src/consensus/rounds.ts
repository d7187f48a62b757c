/**
 * The round protocol of one height (docs/consensus.md "Rounds and locks"): Tendermint's algorithm
 * (Buchman, Kwon, Milosevic, "The latest gossip on BFT consensus", 2018, Algorithm 1) with a third
 * vote, the commit vote, whose quorum is the finality certificate every verifier already checks.
 *
 * Pure and synchronous: no clock, no crypto, no I/O. Messages come in already verified (the caller
 * checked signatures, that a proposal's signer leads its round, and that each voter is in the set);
 * what the node must do goes out through `RoundEffects`, which the caller carries out (signing and
 * persisting the signing state before anything leaves the node). The engine (./engine.ts) drives it
 * over the chain and libp2p; the simulator (./simulation.ts) drives the very same class over a
 * seeded virtual network, so a schedule that breaks it is replayed exactly from its seed.
 *
 * Block ids are opaque strings (the hex of the block hash); `NIL` is the nil vote.
 */

export type BlockId = string;
export const NIL: BlockId = '';

export type Step = 'propose' | 'prevote' | 'precommit';
export type VoteKind = 'prevote' | 'precommit' | 'commit';
export type TimeoutKind = 'propose' | 'prevote' | 'precommit';

/** Stake of the voting set at the height's parent. */
export interface VoterSet {
  /** stake of a voter, undefined for a key outside the set */
  stake(voter: string): bigint | undefined;
  readonly total: bigint;
}

/** What the state machine asks the node to do. Called synchronously, in order. */
export interface RoundEffects {
  /** This node leads `round` and has no block to re-propose: make one (answer with `proposeOwn`). */
  build(round: number): void;
  /** Send the proposal of `round` (this node leads it): block `id`, with its proof-of-lock round. */
  propose(round: number, id: BlockId, validRound: number): void;
  /** Sign and send a vote. `round` is ignored for commit votes (they sign no round). */
  vote(kind: VoteKind, round: number, id: BlockId): void;
  /** Call `onTimeout(kind, round)` after `ms` (of the node's clock). */
  schedule(kind: TimeoutKind, round: number, ms: number): void;
  /** Execute block `id` on the parent's state; answer with `validated(id, ok)`. */
  validate(id: BlockId): void;
  /**
   * The block is decided (this node sends its commit vote next): > 2/3 of the stake precommitted
   * `id` in `round`, or (`round` −1) > 1/3 sent commit votes for it. `proof` names those votes: the
   * node keeps them (persisted with its signing state) and re-sends them, so a peer that missed
   * them decides too, even after this node restarts.
   */
  decided(id: BlockId, round: number, proof: VoteProof): void;
  /**
   * A quorum prevoted `proof.id` in `proof.round` (a proof of lock): this node locked on it or took
   * it as the block to re-propose. The node keeps these votes (persisted with its signing state)
   * and re-sends them with its re-proposal, or a peer that missed them could never accept the
   * re-proposal and a height could stall (Tendermint gossips them the same way).
   */
  polka(proof: VoteProof): void;
  /** > 2/3 of the stake sent commit votes for `id`: the finality certificate is complete. */
  final(id: BlockId): void;
}

export interface RoundTimeouts {
  /** how long to wait for round `r`'s proposal from when the round started */
  propose(round: number): number;
  /** how long to wait after > 2/3 prevotes (of anything) before precommitting nil */
  prevote(round: number): number;
  /** how long to wait after > 2/3 precommits (of anything) before the next round */
  precommit(round: number): number;
}

/**
 * Votes that justify a step: the prevotes of a proof of lock (a quorum prevoted `id` in `round`),
 * the precommits that decided a block, or commit votes from > 1/3 of the stake.
 */
export interface VoteProof {
  kind: VoteKind;
  round: number;
  id: BlockId;
  voters: string[];
}

/**
 * What a validator must remember across a crash to never sign two conflicting messages (CometBFT's
 * priv_validator_state plus the lock): persisted, and fsynced, before any signed message leaves.
 */
export interface SigningRecord {
  height: number;
  /** the last signed message: its round, step and block (NIL for a nil vote) */
  round: number;
  step: 'propose' | 'prevote' | 'precommit' | 'commit';
  id: BlockId;
  lockedRound: number;
  lockedValue: BlockId;
  validRound: number;
  validValue: BlockId;
  /** the block this node made at this height, if any: it never makes a second (docs/consensus.md "Double signs") */
  proposedValue: BlockId;
  /** this node's prevote and precommit in `round` (undefined: none sent), re-sent after a restart */
  prevote: BlockId | undefined;
  precommit: BlockId | undefined;
}

const STEP_ORDER = { propose: 0, prevote: 1, precommit: 2, commit: 3 } as const;

/** Whether signing (round, step) at the record's height comes after the record (or is the same message). */
export function signingOrder(record: SigningRecord, round: number, step: SigningRecord['step']): number {
  // commit votes carry no round: they come after everything of the height
  const a = record.step === 'commit' ? [Infinity, 3] : [record.round, STEP_ORDER[record.step]];
  const b = step === 'commit' ? [Infinity, 3] : [round, STEP_ORDER[step]];
  return a[0] !== b[0] ? (b[0]! > a[0]! ? 1 : -1) : Math.sign(b[1]! - a[1]!);
}

/** > 2/3 of the stake (strictly: exactly 2/3 is not a quorum; docs/consensus.md "Finality"). */
export function quorum(stake: bigint, total: bigint): boolean {
  return total > 0n && stake * 3n > total * 2n;
}

/** > 1/3 of the stake: at least one honest validator among them while faulty ones hold < 1/3. */
export function oneThird(stake: bigint, total: bigint): boolean {
  return total > 0n && stake * 3n > total;
}

/**
 * One round's votes of one kind. Each voter counts once towards "a quorum of anything" (its first
 * vote); towards a block, every block it signed for counts, equivocation included (a quorum is a
 * set of signatures, and two quorums for two blocks in one round need > 1/3 of the stake to sign
 * both). Without that, a node that heard one twin first could never see the proof of lock the
 * other side holds (CometBFT's vote sets track conflicting votes for the same reason).
 */
class VoteSet {
  private readonly byVoter = new Map<string, BlockId>();
  private readonly byBlock = new Map<BlockId, Map<string, bigint>>();
  private readonly extra = new Map<string, number>();
  private sum = 0n;

  /** Returns false for a duplicate; a second, different vote is counted for its block and noted in `conflicts`. */
  add(voter: string, id: BlockId, stake: bigint, conflicts: Set<string>): boolean {
    let block = this.byBlock.get(id);
    if (block?.has(voter)) return false;
    const previous = this.byVoter.get(voter);
    if (previous !== undefined) {
      conflicts.add(voter);
      // an equivocator's further votes are kept up to a bound (a proof of lock needs one of them)
      const n = this.extra.get(voter) ?? 0;
      if (n >= MAX_CONFLICTING_VOTES) return false;
      this.extra.set(voter, n + 1);
    } else {
      this.byVoter.set(voter, id);
      this.sum += stake;
    }
    if (!block) this.byBlock.set(id, (block = new Map()));
    block.set(voter, stake);
    return true;
  }

  total(): bigint {
    return this.sum;
  }

  for(id: BlockId): bigint {
    let sum = 0n;
    for (const s of this.byBlock.get(id)?.values() ?? []) sum += s;
    return sum;
  }

  voteOf(voter: string): BlockId | undefined {
    return this.byVoter.get(voter);
  }

  /** The block (not nil) holding a quorum, if any. */
  quorumBlock(total: bigint): BlockId | undefined {
    for (const id of this.byBlock.keys()) if (id !== NIL && quorum(this.for(id), total)) return id;
    return undefined;
  }

  /** The block (not nil) holding the most stake. */
  heaviest(): BlockId | undefined {
    let best: BlockId | undefined;
    let stake = 0n;
    for (const id of this.byBlock.keys()) {
      const s = this.for(id);
      if (id !== NIL && s > stake) [best, stake] = [id, s];
    }
    return best;
  }

  voters(id: BlockId): string[] {
    return [...(this.byBlock.get(id)?.keys() ?? [])];
  }
}

/** Conflicting votes kept from one voter in one round beyond its first. */
const MAX_CONFLICTING_VOTES = 3;

interface Proposal {
  id: BlockId;
  validRound: number;
}

export class RoundState {
  round = -1;
  step: Step = 'propose';
  lockedRound = -1;
  lockedValue: BlockId = NIL;
  validRound = -1;
  validValue: BlockId = NIL;
  /** the block > 2/3 precommitted in one round, and that round */
  decision: { id: BlockId; round: number } | undefined;
  /** the block > 2/3 sent commit votes for */
  finalized: BlockId | undefined;
  /** voters seen signing two different votes of one kind in one round (or two commit votes) */
  readonly conflicts = new Set<string>();

  private readonly proposals = new Map<number, Proposal>();
  private readonly prevotes = new Map<number, VoteSet>();
  private readonly precommits = new Map<number, VoteSet>();
  private readonly commits = new VoteSet();
  /** blocks whose content this node holds */
  private readonly blocks = new Set<BlockId>();
  /** execution verdicts; 'pending' while the node executes the block */
  private readonly validity = new Map<BlockId, boolean | 'pending'>();
  /** rules that fire only "for the first time" in a round */
  private readonly prevoteTimerSet = new Set<number>();
  private readonly precommitTimerSet = new Set<number>();
  private readonly polSeen = new Set<number>();
  /** voters heard from in each round above the current one (the f+1 round-skip rule) */
  private readonly ahead = new Map<number, Set<string>>();
  /** this node asked to build a block for this round and waits for it */
  private building = -1;
  /** the block this node made at this height: re-proposed when it leads again, never a second one */
  ownBlock: BlockId = NIL;
  private commitSent = false;
  private evaluating = false;
  private again = false;

  constructor(
    readonly height: number,
    private readonly voters: VoterSet,
    /** this node's voter id, undefined for a node that does not vote (an observer) */
    private readonly me: string | undefined,
    private readonly leaderOf: (round: number) => string | undefined,
    private readonly timeouts: RoundTimeouts,
    private readonly effects: RoundEffects,
  ) {}

  /** Whether this node votes at this height. */
  get voting(): boolean {
    return this.me !== undefined && this.voters.stake(this.me) !== undefined;
  }

  /**
   * Start the height: at round 0, or where a signing record of this height left off after a
   * restart (its lock kept; the messages it signed are signed again, the same bytes).
   */
  start(record?: SigningRecord): void {
    if (record && record.height === this.height) {
      this.lockedRound = record.lockedRound;
      this.lockedValue = record.lockedValue;
      this.validRound = record.validRound;
      this.validValue = record.validValue;
      this.ownBlock = record.proposedValue;
      if (record.step === 'commit') {
        this.round = 0;
        this.step = 'precommit';
        this.decision = { id: record.id, round: -1 };
        this.sendCommit(record.id);
        return;
      }
      this.round = record.round;
      this.step = record.step === 'propose' ? 'propose' : record.step;
      // the votes of the round signed before the crash, again (the same bytes): peers that lost
      // them cannot reach a quorum without them
      if (record.prevote !== undefined) this.castVote('prevote', record.round, record.prevote);
      if (record.precommit !== undefined) this.castVote('precommit', record.round, record.precommit);
      // A proposal signed before the crash is not signed again (its block may be gone); the round's
      // timeouts carry the height on as for any round whose proposal did not arrive.
      this.effects.schedule('propose', this.round, this.timeouts.propose(this.round));
      this.evaluate();
      return;
    }
    this.startRound(0);
  }

  // ---- inputs ---------------------------------------------------------------------------------

  /** The content of block `id` is here (a proposal, a re-proposal, a certified block, or our own). */
  onBlock(id: BlockId): void {
    if (this.blocks.has(id)) return;
    this.blocks.add(id);
    this.evaluate();
  }

  /** The proposal of `round` from its leader (the caller checked the signature and the leader). */
  onProposal(round: number, id: BlockId, validRound: number): void {
    if (this.proposals.has(round) || validRound >= round || validRound < -1) return;
    this.proposals.set(round, { id, validRound });
    this.noteAhead(round, this.leaderOf(round));
    this.evaluate();
  }

  /** This node's own block for `round`, made after `build(round)`. */
  proposeOwn(round: number, id: BlockId): void {
    if (round !== this.building) return;
    this.building = -1;
    this.ownBlock = id;
    this.blocks.add(id);
    this.validity.set(id, true);
    if (round !== this.round || this.step !== 'propose' || this.proposals.has(round) || this.decision !== undefined) return;
    this.proposals.set(round, { id, validRound: -1 });
    this.effects.propose(round, id, -1);
    this.evaluate();
  }

  /** A vote from the set (signature checked by the caller). Returns false when it added nothing. */
  onVote(kind: VoteKind, round: number, voter: string, id: BlockId): boolean {
    const stake = this.voters.stake(voter);
    if (stake === undefined) return false;
    let added: boolean;
    if (kind === 'commit') {
      if (id === NIL) return false;
      added = this.commits.add(voter, id, stake, this.conflicts);
    } else {
      added = this.votesOf(kind, round).add(voter, id, stake, this.conflicts);
      if (added) this.noteAhead(round, voter);
    }
    if (added) this.evaluate();
    return added;
  }

  /** The verdict of `validate(id)`. */
  validated(id: BlockId, ok: boolean): void {
    this.validity.set(id, ok);
    this.evaluate();
  }

  onTimeout(kind: TimeoutKind, round: number): void {
    // a decided height sends nothing but its commit vote
    if (round !== this.round || this.decision !== undefined) return;
    if (kind === 'propose' && this.step === 'propose') {
      // L57: no acceptable proposal in time
      this.prevote(NIL);
    } else if (kind === 'prevote' && this.step === 'prevote') {
      // L61
      this.precommit(NIL);
    } else if (kind === 'precommit') {
      // L65
      this.startRound(round + 1);
    }
    this.evaluate();
  }

  // ---- reads ----------------------------------------------------------------------------------

  proposal(round: number): { id: BlockId; validRound: number } | undefined {
    return this.proposals.get(round);
  }

  /** This node's vote of `kind` in `round`, if it sent one. */
  myVote(kind: VoteKind, round: number): BlockId | undefined {
    if (this.me === undefined) return undefined;
    if (kind === 'commit') return this.commits.voteOf(this.me);
    return (kind === 'prevote' ? this.prevotes : this.precommits).get(round)?.voteOf(this.me);
  }

  /** Stake that voted `id` with votes of `kind` in `round` (commit: any round). */
  stakeFor(kind: VoteKind, round: number, id: BlockId): bigint {
    return kind === 'commit' ? this.commits.for(id) : this.votesOf(kind, round).for(id);
  }

  /** The voters of `kind` for `id` in `round` (commit: any round), for a certificate. */
  votersFor(kind: VoteKind, round: number, id: BlockId): string[] {
    return kind === 'commit' ? this.commits.voters(id) : this.votesOf(kind, round).voters(id);
  }

  hasBlock(id: BlockId): boolean {
    return this.blocks.has(id);
  }

  isValid(id: BlockId): boolean | 'pending' | undefined {
    return this.validity.get(id);
  }

  /** The signing record of a message about to be signed: the lock and this node's block with it. */
  record(step: SigningRecord['step'], round: number, id: BlockId): SigningRecord {
    return {
      height: this.height, round, step, id, lockedRound: this.lockedRound, lockedValue: this.lockedValue,
      validRound: this.validRound, validValue: this.validValue, proposedValue: this.ownBlock,
      prevote: step === 'prevote' ? id : step === 'commit' ? undefined : this.myVote('prevote', round),
      precommit: step === 'precommit' ? id : step === 'commit' ? undefined : this.myVote('precommit', round),
    };
  }

  /** Whether this node waits to build its block for the current round. */
  get wantsBlock(): number {
    return this.building;
  }

  // ---- the algorithm --------------------------------------------------------------------------

  private votesOf(kind: 'prevote' | 'precommit', round: number): VoteSet {
    const map = kind === 'prevote' ? this.prevotes : this.precommits;
    let set = map.get(round);
    if (!set) map.set(round, (set = new VoteSet()));
    return set;
  }

  /**
   * validValue from a polka of an earlier round of the height. Algorithm 1 (L36) and CometBFT take
   * it only in the round itself, so a validator that missed a round's polka (behind a partition, or
   * restarting) never re-proposes that block, and a quorum that needs the validators locked on it
   * waits until one of them is drawn to lead: npm run sim seed 449055 (16 validators, two honest
   * ones locked at round 0) went 27 rounds without a decision. Here the polka, relayed with the
   * locked validators' proof of lock, is learnt whenever it arrives, and a leader re-proposes its
   * block with that round as its validRound; the locked validators prevote it (L28). Its votes are
   * kept and relayed (the `polka` effect), so every validator can check the re-proposal's proof.
   * Safe: a re-proposal (v, vr) is accepted by the rule only where a polka for v at vr exists, which
   * a Byzantine leader may already propose; locks are taken only in the round itself, as before.
   */
  private learnEarlierPolka(total: bigint): void {
    for (const [round, set] of this.prevotes) {
      if (round <= this.validRound || round >= this.round) continue;
      const id = set.quorumBlock(total);
      if (id === undefined || !this.blocks.has(id)) continue;
      // a verdict still pending comes back through validated(), which evaluates again
      if (!this.valid(id)) continue;
      this.validValue = id;
      this.validRound = round;
      // kept and relayed as a lock's proof is: a validator that restarted, or heard the round late,
      // needs these votes to prevote the re-proposal (seed 181259: without them it refused it, and
      // the quorum needed it)
      this.effects.polka({ kind: 'prevote', round, id, voters: set.voters(id) });
    }
  }

  /** L55: messages of a later round from more than 1/3 of the stake move this node to that round. */
  private noteAhead(round: number, voter: string | undefined): void {
    if (round <= this.round || voter === undefined) return;
    let set = this.ahead.get(round);
    if (!set) this.ahead.set(round, (set = new Set()));
    set.add(voter);
  }

  private startRound(round: number): void {
    this.round = round;
    this.step = 'propose';
    this.building = -1;
    for (const r of this.ahead.keys()) if (r <= round) this.ahead.delete(r);
    if (this.voting && this.leaderOf(round) === this.me && !this.proposals.has(round)) {
      // L14–L19: re-propose the block a quorum prevoted (validValue), else a new one
      // the block this node made in an earlier round of the height, never a second one (one header
      // per height and key: a second is a double sign). Made before a restart and lost: none.
      if (this.validValue !== NIL && this.blocks.has(this.validValue)) {
        this.proposals.set(round, { id: this.validValue, validRound: this.validRound });
        this.effects.propose(round, this.validValue, this.validRound);
      } else if (this.ownBlock !== NIL) {
        if (this.blocks.has(this.ownBlock)) {
          this.proposals.set(round, { id: this.ownBlock, validRound: -1 });
          this.effects.propose(round, this.ownBlock, -1);
        }
      } else {
        this.building = round;
        this.effects.build(round);
      }
    }
    this.effects.schedule('propose', round, this.timeouts.propose(round));
  }

  private prevote(id: BlockId): void {
    this.step = 'prevote';
    this.castVote('prevote', this.round, id);
  }

  private precommit(id: BlockId): void {
    this.step = 'precommit';
    this.castVote('precommit', this.round, id);
  }

  private castVote(kind: 'prevote' | 'precommit', round: number, id: BlockId): void {
    if (!this.voting) return;
    this.votesOf(kind, round).add(this.me!, id, this.voters.stake(this.me!)!, this.conflicts);
    this.effects.vote(kind, round, id);
  }

  private sendCommit(id: BlockId): void {
    if (this.commitSent || !this.voting) return;
    this.commitSent = true;
    this.commits.add(this.me!, id, this.voters.stake(this.me!)!, this.conflicts);
    this.effects.vote('commit', -1, id);
  }

  /** valid(v), asking for the verdict when it is not known yet (then false for now). */
  private valid(id: BlockId): boolean {
    const v = this.validity.get(id);
    if (v === undefined && this.blocks.has(id)) {
      this.validity.set(id, 'pending');
      this.effects.validate(id);
      return false;
    }
    return v === true;
  }

  /** Apply every rule that holds, until none does (re-entrant calls run after the current pass). */
  private evaluate(): void {
    if (this.evaluating) {
      this.again = true;
      return;
    }
    this.evaluating = true;
    try {
      do {
        this.again = false;
        this.rules();
      } while (this.again);
    } finally {
      this.evaluating = false;
    }
  }

  private rules(): void {
    const total = this.voters.total;
    // Commit votes: > 2/3 of the stake is the finality certificate (any round, any step).
    if (this.finalized === undefined) {
      const id = this.commits.quorumBlock(total);
      if (id !== undefined) {
        this.finalized = id;
        this.effects.final(id);
        return;
      }
    }
    // L49: > 2/3 precommits for one block in any round decide it (the hash fixes its content, so
    // any copy of the block will do, not only the round's proposal).
    if (this.decision === undefined) {
      for (const [round, set] of this.precommits) {
        const id = set.quorumBlock(total);
        if (id !== undefined) {
          this.decision = { id, round };
          this.effects.decided(id, round, { kind: 'precommit', round, id, voters: set.voters(id) });
          this.sendCommit(id);
          this.again = true;
          return;
        }
      }
    } else if (!this.commitSent) {
      this.sendCommit(this.decision.id);
    }
    // Commit votes from > 1/3 of the stake include an honest one, so a quorum precommitted that
    // block in some round: it is decided, and this node's commit vote can only help complete its
    // certificate (a node that restarted after its precommit has nothing else to re-send).
    if (this.decision === undefined) {
      const id = this.commits.heaviest();
      if (id !== undefined && oneThird(this.commits.for(id), total)) {
        this.decision = { id, round: -1 };
        this.effects.decided(id, -1, { kind: 'commit', round: -1, id, voters: this.commits.voters(id) });
        this.sendCommit(id);
        this.again = true;
        return;
      }
    }
    if (this.decision !== undefined) return;
    // L55: skip to a later round that > 1/3 of the stake is already in
    for (const [round, voters] of this.ahead) {
      if (round <= this.round) continue;
      let stake = 0n;
      for (const v of voters) stake += this.voters.stake(v) ?? 0n;
      if (oneThird(stake, total)) {
        this.startRound(round);
        this.again = true;
        return;
      }
    }
    this.learnEarlierPolka(total);
    const r = this.round;
    const proposal = this.proposals.get(r);
    if (this.step === 'propose' && proposal && this.blocks.has(proposal.id)) {
      const { id, validRound } = proposal;
      if (validRound === -1) {
        // L22
        const ok = this.valid(id);
        if (this.validity.get(id) === 'pending') return;
        this.prevote(ok && (this.lockedRound === -1 || this.lockedValue === id) ? id : NIL);
        this.again = true;
        return;
      }
      if (quorum(this.votesOf('prevote', validRound).for(id), total)) {
        // L28: a re-proposal carrying its proof of lock
        const ok = this.valid(id);
        if (this.validity.get(id) === 'pending') return;
        this.prevote(ok && (this.lockedRound <= validRound || this.lockedValue === id) ? id : NIL);
        this.again = true;
        return;
      }
    }
    const prevotes = this.votesOf('prevote', r);
    // L34
    if (this.step === 'prevote' && quorum(prevotes.total(), total) && !this.prevoteTimerSet.has(r)) {
      this.prevoteTimerSet.add(r);
      this.effects.schedule('prevote', r, this.timeouts.prevote(r));
    }
    // L36: a quorum of prevotes for a valid block: lock on it (in the prevote step) and remember it
    const pol = prevotes.quorumBlock(total);
    if (pol !== undefined && (this.step === 'prevote' || this.step === 'precommit') && !this.polSeen.has(r) && this.blocks.has(pol)) {
      const ok = this.valid(pol);
      if (this.validity.get(pol) !== 'pending') {
        this.polSeen.add(r);
        if (ok) {
          this.effects.polka({ kind: 'prevote', round: r, id: pol, voters: prevotes.voters(pol) });
          if (this.step === 'prevote') {
            this.lockedValue = pol;
            this.lockedRound = r;
            this.validValue = pol;
            this.validRound = r;
            this.precommit(pol);
          } else {
            this.validValue = pol;
            this.validRound = r;
          }
          this.again = true;
          return;
        }
      }
    }
    // L44
    if (this.step === 'prevote' && quorum(prevotes.for(NIL), total)) {
      this.precommit(NIL);
      this.again = true;
      return;
    }
    // L47
    if (quorum(this.votesOf('precommit', r).total(), total) && !this.precommitTimerSet.has(r)) {
      this.precommitTimerSet.add(r);
      this.effects.schedule('precommit', r, this.timeouts.precommit(r));
    }
  }
}

/**
 * Timeouts that grow with the round (CometBFT's timeout_propose + delta × round), so a slow network
 * converges; the growth stops at round 20 so a long partition does not leave minute-long rounds.
 * `firstProposeMs` is round 0's wait (the block interval plus the failover timeout); `stepMs` the
 * failover step (docs/consensus.md "Timeouts").
 */
export function growingTimeouts(firstProposeMs: number, stepMs: number): RoundTimeouts {
  const grow = (round: number) => Math.min(round, 20);
  return {
    propose: (round) => (round === 0 ? firstProposeMs : stepMs + Math.floor((stepMs * (grow(round) - 1)) / 2)),
    prevote: (round) => Math.floor(stepMs / 2) + Math.floor((stepMs * grow(round)) / 4),
    precommit: (round) => Math.floor(stepMs / 2) + Math.floor((stepMs * grow(round)) / 4),
  };
}
