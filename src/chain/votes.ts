import { blake3 } from '../codec/hash.js';
import { signEd25519, verifyEd25519 } from '../codec/keys.js';

/**
 * Votes and finality certificates (docs/consensus.md "Votes", "Finality"). A vote signs
 * block_hash ‖ vote_type (u8) ‖ epoch (u64 LE) (facts.md "Consensus details seen"); the block hash
 * covers the header and so its state root: a vote says "I re-executed this block and got its root".
 */

/**
 * Vote types (docs/consensus.md "Messages"). 0 is left unused so a zeroed buffer never passes.
 * - 1, commit: "this block is decided" — a validator signs it only after > 2/3 of the stake
 *   precommitted the block in one round (or > 1/3 signed commit votes for it); > 2/3 of commit votes
 *   is the finality certificate. Signs the 41 bytes of facts.md, with no round.
 * - 2, prevote, and 3, precommit: the round protocol's votes, bound to their height and round.
 * - 4 is not a vote: it marks the bytes a leader signs for a re-proposal, so that signature can
 *   never pass as a vote.
 */
export const VOTE_COMMIT = 1;
export const VOTE_PREVOTE = 2;
export const VOTE_PRECOMMIT = 3;
export const PROPOSAL_SIGNATURE = 4;

/** A nil prevote or precommit names this block hash (no block). */
export const NIL_HASH = new Uint8Array(32);

/**
 * What votes and certificates read of a validator (src/consensus/leader.ts ConsensusValidator has
 * these and more). This file is in src/chain because importing a certified block (src/chain/import.ts)
 * verifies its certificate, and src/chain imports nothing of src/consensus (docs/architecture.md "Layers").
 */
export interface ConsensusValidator {
  consensusKey: Uint8Array;
  stake: bigint;
  active: boolean;
  jailed: boolean;
}

export function epochOf(height: number, epochLength: number): number {
  return Math.floor(height / epochLength);
}

/**
 * The bytes a vote signature covers: block_hash ‖ vote_type (u8) ‖ epoch (u64 LE) for a commit vote
 * (41 bytes, facts.md), and for the round-bound types the same followed by height (u64 LE) and
 * round (u32 LE) — 53 bytes; a re-proposal adds its proof-of-lock round (i32 LE) — 57 bytes.
 */
export function voteSigningBytes(blockHash: Uint8Array, voteType: number, epoch: number, height = 0, round = 0, validRound?: number): Uint8Array {
  if (blockHash.length !== 32) throw new RangeError('block hash must be 32 bytes');
  const bound = voteType !== VOTE_COMMIT;
  const out = new Uint8Array(32 + 1 + 8 + (bound ? 12 : 0) + (validRound === undefined ? 0 : 4));
  const view = new DataView(out.buffer);
  out.set(blockHash, 0);
  out[32] = voteType;
  view.setBigUint64(33, BigInt(epoch), true);
  if (bound) {
    view.setBigUint64(41, BigInt(height), true);
    view.setUint32(49, round, true);
  }
  if (validRound !== undefined) view.setInt32(53, validRound, true);
  return out;
}

/** A vote as gossiped on the `votes` topic: the signed fields plus where it belongs. */
export interface Vote {
  height: number;
  /** the round of the block voted for (informative; the block hash fixes it) */
  round: number;
  blockHash: Uint8Array;
  voteType: number;
  epoch: number;
  /** consensus key of the voter */
  validator: Uint8Array;
  signature: Uint8Array;
  /** the state root the voter computed (equal to the header's, or it would not vote) */
  stateRoot: Uint8Array;
}

/** Sign a vote; a commit vote unless `voteType` says otherwise. */
export function signVote(
  seed: Uint8Array, publicKey: Uint8Array,
  fields: { height: number; round: number; blockHash: Uint8Array; epoch: number; stateRoot: Uint8Array },
  voteType: number = VOTE_COMMIT,
): Vote {
  const signature = signEd25519(seed, voteSigningBytes(fields.blockHash, voteType, fields.epoch, fields.height, fields.round));
  return { ...fields, voteType, validator: publicKey, signature };
}

export function isVoteType(type: number): boolean {
  return type === VOTE_COMMIT || type === VOTE_PREVOTE || type === VOTE_PRECOMMIT;
}

export function verifyVote(vote: Pick<Vote, 'blockHash' | 'voteType' | 'epoch' | 'validator' | 'signature'> & { height?: number; round?: number }): boolean {
  if (vote.validator.length !== 32 || vote.signature.length !== 64 || !isVoteType(vote.voteType)) return false;
  if (vote.voteType === VOTE_COMMIT && bytesEqualNil(vote.blockHash)) return false;
  return verifyEd25519(vote.validator, voteSigningBytes(vote.blockHash, vote.voteType, vote.epoch, vote.height ?? 0, vote.round ?? 0), vote.signature);
}

function bytesEqualNil(hash: Uint8Array): boolean {
  return hash.every((b) => b === 0);
}

/** Wire form: u64 height ‖ u32 round ‖ hash ‖ u8 type ‖ u64 epoch ‖ key ‖ sig ‖ state root (181 bytes). */
export const VOTE_SIZE = 8 + 4 + 32 + 1 + 8 + 32 + 64 + 32;

export function encodeVote(v: Vote): Uint8Array {
  const out = new Uint8Array(VOTE_SIZE);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, BigInt(v.height), true);
  view.setUint32(8, v.round, true);
  out.set(v.blockHash, 12);
  out[44] = v.voteType;
  view.setBigUint64(45, BigInt(v.epoch), true);
  out.set(v.validator, 53);
  out.set(v.signature, 85);
  out.set(v.stateRoot, 149);
  return out;
}

export function decodeVote(bytes: Uint8Array): Vote {
  if (bytes.length !== VOTE_SIZE) throw new RangeError(`a vote is ${VOTE_SIZE} bytes, got ${bytes.length}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    height: Number(view.getBigUint64(0, true)),
    round: view.getUint32(8, true),
    blockHash: bytes.slice(12, 44),
    voteType: bytes[44]!,
    epoch: Number(view.getBigUint64(45, true)),
    validator: bytes.slice(53, 85),
    signature: bytes.slice(85, 149),
    stateRoot: bytes.slice(149, 181),
  };
}

/** An attestation block's id (svc_getAttestations): Blake3 of the signed bytes ‖ the voter's key. */
export function attestationHash(v: Pick<Vote, 'blockHash' | 'voteType' | 'epoch' | 'validator'>): Uint8Array {
  const signed = voteSigningBytes(v.blockHash, v.voteType, v.epoch);
  const out = new Uint8Array(signed.length + 32);
  out.set(signed, 0);
  out.set(v.validator, signed.length);
  return blake3(out);
}

// ---- finality --------------------------------------------------------------------------------

/** The stake that votes: active, non-jailed validators of the set at the parent. */
export function votingStake(validators: readonly ConsensusValidator[]): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const v of validators) if (v.active && !v.jailed && v.stake > 0n) out.set(keyId(v.consensusKey), v.stake);
  return out;
}

/** Spec §1.8 / docs/consensus.md: final when the voters hold strictly more than 2/3 of the stake. */
export function isSupermajority(voted: bigint, total: bigint): boolean {
  return total > 0n && voted * 3n > total * 2n;
}

export function keyId(key: Uint8Array): string {
  return Buffer.from(key).toString('hex');
}

/** A block's finality certificate: the votes of more than 2/3 of the stake, stored with the block. */
export interface Certificate {
  height: number;
  blockHash: Uint8Array;
  epoch: number;
  voteType: number;
  votes: Array<{ validator: Uint8Array; signature: Uint8Array }>;
}

/** u64 height ‖ hash ‖ u64 epoch ‖ u8 type ‖ u32 n ‖ (key ‖ sig)×n. */
export function encodeCertificate(c: Certificate): Uint8Array {
  const out = new Uint8Array(8 + 32 + 8 + 1 + 4 + 96 * c.votes.length);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, BigInt(c.height), true);
  out.set(c.blockHash, 8);
  view.setBigUint64(40, BigInt(c.epoch), true);
  out[48] = c.voteType;
  view.setUint32(49, c.votes.length, true);
  let o = 53;
  for (const v of c.votes) {
    out.set(v.validator, o);
    out.set(v.signature, o + 32);
    o += 96;
  }
  return out;
}

export function decodeCertificate(bytes: Uint8Array): Certificate {
  if (bytes.length < 53) throw new RangeError('certificate too short');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = view.getUint32(49, true);
  if (bytes.length !== 53 + 96 * n) throw new RangeError(`certificate of ${n} votes must be ${53 + 96 * n} bytes, got ${bytes.length}`);
  const votes: Certificate['votes'] = [];
  for (let i = 0, o = 53; i < n; i++, o += 96) votes.push({ validator: bytes.slice(o, o + 32), signature: bytes.slice(o + 32, o + 96) });
  return {
    height: Number(view.getBigUint64(0, true)), blockHash: bytes.slice(8, 40), epoch: Number(view.getBigUint64(40, true)),
    voteType: bytes[48]!, votes,
  };
}

export type CertificateCheck = { ok: true; votedStake: bigint; totalStake: bigint } | { ok: false; reason: string };

/**
 * Check a certificate against a block (its height and hash) and the validator set at the block's
 * parent: the right vote type and epoch, each voter a distinct member of the voting set with a valid
 * signature, and the voters' stake strictly above 2/3 of the set's. Used for blocks from others and
 * by sync (src/chain/import.ts).
 */
export function verifyCertificate(
  cert: Certificate, block: { height: number; hash: Uint8Array }, validators: readonly ConsensusValidator[], epochLength: number,
): CertificateCheck {
  if (cert.height !== block.height) return { ok: false, reason: `certificate is for height ${cert.height}, block is ${block.height}` };
  if (Buffer.compare(cert.blockHash, block.hash) !== 0) return { ok: false, reason: 'certificate names another block hash' };
  if (cert.voteType !== VOTE_COMMIT) return { ok: false, reason: `vote type ${cert.voteType} is not a commit vote` };
  const epoch = epochOf(block.height, epochLength);
  if (cert.epoch !== epoch) return { ok: false, reason: `certificate epoch ${cert.epoch}, block's epoch is ${epoch}` };
  const stake = votingStake(validators);
  let total = 0n;
  for (const s of stake.values()) total += s;
  const seen = new Set<string>();
  let voted = 0n;
  for (const v of cert.votes) {
    const id = keyId(v.validator);
    const s = stake.get(id);
    if (s === undefined) return { ok: false, reason: `voter ${id} is not in the voting set at the parent` };
    if (seen.has(id)) return { ok: false, reason: `voter ${id} appears twice` };
    if (!verifyVote({ blockHash: block.hash, voteType: cert.voteType, epoch, validator: v.validator, signature: v.signature })) {
      return { ok: false, reason: `bad vote signature of ${id}` };
    }
    seen.add(id);
    voted += s;
  }
  if (!isSupermajority(voted, total)) return { ok: false, reason: `votes hold ${voted} of ${total} stake, not more than 2/3` };
  return { ok: true, votedStake: voted, totalStake: total };
}

/**
 * Votes for one height, by block hash, counted against the voting stake of the parent's set. One
 * vote per validator per block hash; a validator voting for two blocks at one height is recorded
 * (it is equivocation, visible in `conflicts`) but each block counts its vote only once.
 */
export class VoteTally {
  private readonly byBlock = new Map<string, Map<string, Vote>>();
  private readonly total: bigint;
  private readonly stake: Map<string, bigint>;
  /** validators seen voting for more than one block at this height */
  readonly conflicts = new Set<string>();

  constructor(readonly height: number, validators: readonly ConsensusValidator[]) {
    this.stake = votingStake(validators);
    let total = 0n;
    for (const s of this.stake.values()) total += s;
    this.total = total;
  }

  get totalStake(): bigint {
    return this.total;
  }

  /** Whether `key` may vote at this height. */
  isVoter(key: Uint8Array): boolean {
    return this.stake.has(keyId(key));
  }

  /**
   * Add a vote whose signature the caller verified. Returns false for a non-member or a
   * duplicate; the caller penalizes the sender of a non-member's vote.
   */
  add(vote: Vote): boolean {
    const id = keyId(vote.validator);
    if (vote.height !== this.height || !this.stake.has(id)) return false;
    const blockId = keyId(vote.blockHash);
    let votes = this.byBlock.get(blockId);
    if (!votes) this.byBlock.set(blockId, (votes = new Map()));
    if (votes.has(id)) return false;
    for (const [other, list] of this.byBlock) if (other !== blockId && list.has(id)) this.conflicts.add(id);
    votes.set(id, vote);
    return true;
  }

  votedStake(blockHash: Uint8Array): bigint {
    let sum = 0n;
    for (const id of this.byBlock.get(keyId(blockHash))?.keys() ?? []) sum += this.stake.get(id)!;
    return sum;
  }

  votes(blockHash: Uint8Array): Vote[] {
    return [...(this.byBlock.get(keyId(blockHash))?.values() ?? [])];
  }

  /** The block with more than 2/3 of the stake, if any (at most one unless > 1/3 equivocated). */
  finalized(): Uint8Array | undefined {
    for (const votes of this.byBlock.values()) {
      const first = votes.values().next().value;
      if (first && isSupermajority(this.votedStake(first.blockHash), this.total)) return first.blockHash;
    }
    return undefined;
  }

  /** The certificate of a finalized block: its votes, sorted by voter key so every node builds the same bytes. */
  certificate(blockHash: Uint8Array): Certificate {
    const votes = this.votes(blockHash).sort((a, b) => Buffer.compare(a.validator, b.validator));
    const first = votes[0];
    if (!first) throw new Error('no votes for this block');
    return {
      height: this.height, blockHash, epoch: first.epoch, voteType: first.voteType,
      votes: votes.map((v) => ({ validator: v.validator, signature: v.signature })),
    };
  }
}
