import { headerHash, type BlockHeader } from '../chain/block.js';
import { certifiedHeaderProblem } from '../chain/block-checks.js';
import { decodeEpochRecord, type EpochRecord } from '../chain/epoch-record.js';
import type { ValidatorInfo } from '../chain/validator-set.js';
import { ValidatorProofError, verifyValidatorSetProof, type ProvenValidatorSet } from '../chain/validator-set-proof.js';
import { parseHash } from '../codec/address.js';
import { bytesEqual, fromHex, toHex } from '../codec/hash.js';

/**
 * The one light-client rule, shared by the browser's LightClient (src/browser/light-client.ts)
 * and the node's `--light` follower (src/light/follower.ts); docs/light-client.md "The rule".
 *
 * A client holds a trusted header (the anchor) and the validator set proven against the anchor's
 * state root. The set changes only at epoch boundaries (docs/staking.md "Epochs": joining and key
 * rotations take effect at the boundary block; leaving and stake changes within an epoch only
 * shrink or reweigh it), so the anchor's set checks every header up to the next boundary: a
 * header is taken when it hashes to its hash, its proposer signed it and is a validator of that
 * set, and validators holding more than 2/3 of that set's voting stake signed its commit
 * (`certifiedHeaderProblem`, the check block import and snapshots use). To pass the boundary
 * the client takes the boundary block's epoch record (src/chain/epoch-record.ts): its header is
 * checked as above, then its set proof against that header's state root gives the next set. No
 * block is executed and no header between two boundaries is needed: a client skips from epoch
 * to epoch.
 */

export class LightVerifyError extends Error {}

/** The set a header is checked against: proven at `height`, valid for headers up to the next boundary. */
export interface TrustedSet {
  height: number;
  validators: ValidatorInfo[];
  epochLength: number;
}

/** A checkpoint: a block height and the hash the user trusts at it (`height:hash`). */
export interface Checkpoint {
  height: number;
  hash: Uint8Array;
}

/** `height:hash` (hash as Nxh… or 64 hex digits, with or without 0x); throws naming what is wrong. */
export function parseCheckpoint(text: string): Checkpoint {
  const match = /^(\d+):(\S+)$/.exec(text.trim());
  if (!match) throw new Error(`checkpoint "${text}" is not height:hash (e.g. 3600:Nxh…, as svc_getEpochProofs names it)`);
  const height = Number(match[1]);
  if (!Number.isSafeInteger(height)) throw new Error(`checkpoint height ${match[1]} is out of range`);
  const hashText = match[2]!;
  let hash: Uint8Array;
  try {
    hash = hashText.startsWith('Nxh') || hashText.startsWith('0x') ? parseHash(hashText) : fromHex(hashText, 32, 'checkpoint hash');
  } catch (error) {
    throw new Error(`checkpoint hash "${hashText}" is not a block hash (Nxh… or 64 hex digits): ${(error as Error).message}`);
  }
  return { height, hash };
}

/** The first epoch boundary strictly above `height`. */
export function nextBoundary(height: number, epochLength: number): number {
  return (Math.floor(height / epochLength) + 1) * epochLength;
}

/**
 * Sets of the epochs a trust has crossed, kept to verify a header behind the current set (a state
 * read at a past block, docs/light-client.md "Past blocks"): ~100 validators a set at most, so
 * this bounds the memory at a few MB however long the client runs.
 */
const PAST_SETS = 256;

export class HeaderTrust {
  /** the sets this trust held before the current one, oldest first (PAST_SETS at most) */
  private readonly pastSets: TrustedSet[] = [];

  private constructor(
    /** the newest header whose set is proven: an epoch boundary, the checkpoint, or (--light) a peer's head */
    public anchor: BlockHeader,
    public set: TrustedSet,
    /** the set proof's bytes (a --light node stores them to re-check at its next start) */
    public setProof: Uint8Array | undefined,
  ) {}

  /**
   * Start from a checkpoint's epoch record: the record's header must be the checkpoint block (its
   * height, and a header that hashes to the trusted hash), its height an epoch boundary of the
   * epoch length its set proof proves, and the set proof must hold against its state root. The
   * certificate of a checkpoint is not checked: the checkpoint is the root of trust (docs/replay.md
   * "Weak subjectivity").
   */
  static fromCheckpoint(recordBytes: Uint8Array, checkpoint: Checkpoint): HeaderTrust {
    const record = decodeRecord(recordBytes);
    const { header } = record;
    if (header.height !== checkpoint.height) throw new LightVerifyError(`the epoch record served for checkpoint ${checkpoint.height} is of block ${header.height}`);
    if (!bytesEqual(header.hash, checkpoint.hash) || !bytesEqual(headerHash(header), header.hash)) {
      throw new LightVerifyError(`block ${header.height} as served (${toHex(headerHash(header))}) is not the checkpoint's ${toHex(checkpoint.hash)}: the node is on another chain or lies`);
    }
    const set = proveSet(record.setProof, header);
    if (header.height % set.epochLength !== 0) {
      throw new LightVerifyError(`checkpoint height ${header.height} is not an epoch boundary (epoch length ${set.epochLength}): take a checkpoint svc_getEpochProofs names`);
    }
    return new HeaderTrust(header, { height: header.height, validators: set.validators, epochLength: set.epochLength }, record.setProof);
  }

  /** Start from a header and set the caller trusts already (a --light node's genesis from its own flags, or its store). */
  static fromTrusted(anchor: BlockHeader, set: TrustedSet, setProof?: Uint8Array): HeaderTrust {
    return new HeaderTrust(anchor, set, setProof);
  }

  /** The boundary after the set's height: headers up to it are checked by the set, past it the next set is needed. */
  get nextBoundary(): number {
    return nextBoundary(this.set.height, this.set.epochLength);
  }

  /** Why `header` with `certificate` is not final for the trusted set, or undefined when it is. */
  headerProblem(header: BlockHeader, certificate: Uint8Array): string | undefined {
    const chain = this.chainProblem(header);
    if (chain !== undefined) return chain;
    if (header.height <= this.set.height) return `height ${header.height} is not above the trusted set's ${this.set.height}`;
    if (header.height > this.nextBoundary) {
      return `height ${header.height} is past the epoch boundary ${this.nextBoundary}: the set after it must be proven first (its epoch record)`;
    }
    return certifiedHeaderProblem(header, certificate, this.set.validators, this.set.epochLength, `the validator set proven at height ${this.set.height}`);
  }

  /** `headerProblem` as a throw. */
  verifyHeader(header: BlockHeader, certificate: Uint8Array): void {
    const problem = this.headerProblem(header, certificate);
    if (problem !== undefined) throw new LightVerifyError(`block ${header.height}: ${problem}`);
  }

  /**
   * Cross the next boundary with its epoch record: its header is checked by the current set, then
   * its set proof against that header gives the set for the epoch after. Returns the record.
   */
  advance(recordBytes: Uint8Array): EpochRecord {
    const record = decodeRecord(recordBytes);
    const due = this.nextBoundary;
    if (record.header.height !== due) throw new LightVerifyError(`an epoch record of block ${record.header.height} where the boundary ${due} was due`);
    this.verifyHeader(record.header, record.certificate);
    this.adopt(record.header, proveSet(record.setProof, record.header), record.setProof);
    return record;
  }

  /**
   * Why a header behind the current set's height is not final for the set of its epoch, one this
   * trust crossed: undefined when it is. A header before the oldest set kept (the checkpoint's, or
   * PAST_SETS epochs back) has no set to check it and is refused.
   */
  pastHeaderProblem(header: BlockHeader, certificate: Uint8Array): string | undefined {
    const chain = this.chainProblem(header);
    if (chain !== undefined) return chain;
    const set = this.pastSetOf(header.height);
    if (!set) return `height ${header.height} is before the oldest validator set this client holds (height ${this.pastSets[0]?.height ?? this.set.height})`;
    return certifiedHeaderProblem(header, certificate, set.validators, set.epochLength, `the validator set proven at height ${set.height}`);
  }

  /**
   * Whether a header at `height` has a set to check it: after the current set's height (the epoch
   * records reach forward), or behind it in an epoch whose set this trust kept.
   */
  canVerify(height: number): boolean {
    return height > this.set.height || this.pastSetOf(height) !== undefined;
  }

  private chainProblem(header: BlockHeader): string | undefined {
    return header.chainId === this.anchor.chainId ? undefined : `block of chain ${header.chainId}, this chain is ${this.anchor.chainId}`;
  }

  private pastSetOf(height: number): TrustedSet | undefined {
    return this.pastSets.find((set) => height > set.height && height <= nextBoundary(set.height, set.epochLength));
  }

  /** A set proven against a header this trust verified (a --light node's set at its peer's head). */
  adopt(header: BlockHeader, proven: ProvenValidatorSet, setProof: Uint8Array): void {
    this.pastSets.push(this.set);
    if (this.pastSets.length > PAST_SETS) this.pastSets.shift();
    this.anchor = header;
    this.set = { height: proven.height, validators: proven.validators, epochLength: proven.epochLength };
    this.setProof = setProof;
  }
}

function decodeRecord(bytes: Uint8Array): EpochRecord {
  try {
    return decodeEpochRecord(bytes);
  } catch (error) {
    throw new LightVerifyError(`the epoch record does not decode: ${(error as Error).message}`);
  }
}

function proveSet(setProof: Uint8Array, header: BlockHeader): ProvenValidatorSet {
  try {
    return verifyValidatorSetProof(setProof, header);
  } catch (error) {
    if (error instanceof ValidatorProofError) throw new LightVerifyError(`the validator-set proof of block ${header.height} does not hold: ${error.message}`);
    throw error;
  }
}
