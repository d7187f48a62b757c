import { decodeStoredBlock, type BlockHeader } from '../chain/block.js';
import { decodeEpochRecord } from '../chain/epoch-record.js';
import { bytesEqual, toHex } from '../codec/hash.js';
import type { ValidatorInfo } from '../chain/validator-set.js';
import type { Logger } from '../logger.js';
import { bestPeer } from '../p2p/sync.js';
import type { ServedBlock } from '../p2p/types.js';
import type { LightStore, StoredHeader } from './store.js';
import { ValidatorProofError, validatorSetProofHead, verifyValidatorSetProof, type ProvenValidatorSet } from '../chain/validator-set-proof.js';
import { HeaderTrust, LightVerifyError, type Checkpoint, type TrustedSet } from './header-trust.js';

export { LightVerifyError, type TrustedSet } from './header-trust.js';

/** What the follower uses of the p2p layer (P2PNetwork has these). */
export interface LightNetwork {
  readyPeers(): Array<{ id: string; height: number }>;
  requestHeaders(peer: string, fromHeight: number, count: number): Promise<ServedBlock[]>;
  requestValidatorSet(peer: string): Promise<Uint8Array | undefined>;
  requestEpochRecords(peer: string, fromHeight: number, count: number): Promise<Uint8Array[]>;
}

const BATCH = 10;
/** epoch records per request (the protocol's limit, MAX_EPOCH_RECORDS_PER_P2P_REQUEST) */
const EPOCH_BATCH = 16;
const PEER_COOLDOWN_MS = 5_000;

/**
 * Why `header` (with `certificate`) may not follow `parent`, or undefined when it may: the next
 * height, the parent's hash, then the shared rule (HeaderTrust.headerProblem: the same chain, a
 * height the trusted set covers, certifiedHeaderProblem against it; docs/light-client.md).
 */
export function nextHeaderProblem(parent: BlockHeader, header: BlockHeader, certificate: Uint8Array, trust: HeaderTrust): string | undefined {
  if (header.height !== parent.height + 1) return `height ${header.height} does not follow ${parent.height}`;
  if (!bytesEqual(header.parentHash, parent.hash)) return `its parent hash ${toHex(header.parentHash)} is not block ${parent.height}'s ${toHex(parent.hash)}`;
  return trust.headerProblem(header, certificate);
}

/**
 * The `--light` node's sync (docs/operations.md "Light node", docs/light-client.md): the shared
 * rule of src/light/header-trust.ts over `/ntv/*` requests to the best peer.
 *
 * 1. With a checkpoint not yet reached, the checkpoint's epoch record (`/ntv/epochs/1`) is taken
 *    and checked against the trusted `height:hash`; its header becomes the head.
 * 2. While the peer's head is past the next epoch boundary, the boundaries' epoch records are taken
 *    in batches of 16, each certified by the set of the epoch before, each giving the next set:
 *    epoch to epoch, with no header between (so a pruning peer, which keeps its epoch records,
 *    serves them).
 * 3. Then headers from the head on (`/ntv/headers/1`, batches of 10), each checked against the
 *    trusted set and linked to its parent; when the peer no longer holds the next header (pruned),
 *    the last ten it holds, each checked against the set alone (finality does not need the link).
 * 4. At the peer's head, the set at that head (`/ntv/validators/1`), proven against a header
 *    verified that way, replaces the epoch's set (it follows jailing within an epoch).
 *
 * A peer that serves no epoch record of a boundary (a node older than the records) leaves the
 * follower on the earlier rule for that boundary: headers past it checked against the newest set,
 * more than 2/3 of whose stake must have signed (docs/operations.md "Which validator set").
 */
export class LightFollower {
  private stopped = false;
  private running: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private readonly cooldown = new Map<string, number>();
  /** peers that served no record of the boundary named: headers past it are checked by the newest set */
  private readonly noRecord = new Map<string, number>();
  /** counters for svc_validatorHealth */
  headersImported = 0;
  refused = 0;
  highestPeerHeight: number | undefined;

  constructor(
    private readonly deps: { network: LightNetwork; store: LightStore; logger: Logger },
    public head: BlockHeader,
    public readonly trust: HeaderTrust,
    private checkpoint: Checkpoint | undefined,
    private readonly options: { idleMs?: number } = {},
  ) {}

  get set(): TrustedSet {
    return this.trust.set;
  }

  start(): void {
    this.running ??= this.loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.running;
  }

  /** A peer announced a new head: look now rather than at the next idle tick. */
  poke(): void {
    this.wake?.();
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      const peer = this.pickPeer();
      if (peer) this.highestPeerHeight = Math.max(this.highestPeerHeight ?? 0, peer.height);
      try {
        if (peer && this.checkpoint) {
          await this.takeCheckpoint(peer.id, this.checkpoint);
          continue;
        }
        if (peer && peer.height >= this.trust.nextBoundary && this.noRecord.get(peer.id) !== this.trust.nextBoundary && (await this.crossEpochs(peer.id))) continue;
        if (peer && peer.height > this.head.height) {
          await this.fetchHeaders(peer.id, Math.min(BATCH, peer.height - this.head.height), peer.height);
          continue;
        }
        if (peer && this.set.height < this.head.height) await this.refreshSet(peer.id);
      } catch (error) {
        if (this.stopped) return;
        if (peer) this.cooldown.set(peer.id, Date.now() + PEER_COOLDOWN_MS);
        this.deps.logger.warn(error instanceof LightVerifyError ? 'header from peer refused' : 'light sync request failed', { peer: peer?.id, error: (error as Error).message });
      }
      await this.idle();
    }
  }

  /** Step 1: the checkpoint's record, checked against the trusted hash; its header is the new head. */
  private async takeCheckpoint(peer: string, checkpoint: Checkpoint): Promise<void> {
    const [record] = await this.deps.network.requestEpochRecords(peer, checkpoint.height, 1);
    if (!record) throw new Error(`the peer serves no epoch record of checkpoint ${checkpoint.height}`);
    let trusted: HeaderTrust;
    try {
      trusted = HeaderTrust.fromCheckpoint(record, checkpoint);
    } catch (error) {
      if (error instanceof LightVerifyError) this.refused++;
      throw error;
    }
    const { header, certificate } = decodeEpochRecord(record);
    this.trust.adopt(header, { height: header.height, blockHash: header.hash, validators: trusted.set.validators, epochLength: trusted.set.epochLength }, trusted.setProof!);
    await this.deps.store.putHeaders([{ header, certificate }]);
    await this.deps.store.putValidatorSetProof(trusted.setProof!);
    await this.deps.store.putCheckpoint(header.height);
    this.head = header;
    this.checkpoint = undefined;
    this.deps.logger.info('light node started from checkpoint', { height: header.height, hash: toHex(header.hash), validators: trusted.set.validators.length });
  }

  /**
   * Step 2: the epoch records from the next boundary on, each crossing one boundary. False when the
   * peer serves none of it (the earlier rule then applies to headers past it, step 3).
   */
  private async crossEpochs(peer: string): Promise<boolean> {
    const due = this.trust.nextBoundary;
    const records = await this.deps.network.requestEpochRecords(peer, due, EPOCH_BATCH);
    if (records.length === 0) {
      this.noRecord.set(peer, due);
      this.deps.logger.info('peer serves no epoch record; following headers past the boundary with the newest set', { peer, boundary: due });
      return false;
    }
    for (const bytes of records) {
      let header: BlockHeader;
      let certificate: Uint8Array;
      const before = this.set.validators;
      try {
        ({ header, certificate } = this.trust.advance(bytes));
      } catch (error) {
        if (error instanceof LightVerifyError) this.refused++;
        throw error;
      }
      await this.deps.store.putHeaders([{ header, certificate }], undefined, header.height > this.head.height);
      await this.deps.store.putValidatorSetProof(this.trust.setProof!);
      if (header.height > this.head.height) this.head = header;
      this.headersImported++;
      // the operator's line, whichever way the set was learnt (an epoch record here, a set proof in refreshSet)
      if (!sameSet(before, this.set.validators)) this.deps.logger.info('validator set changed', { height: header.height, validators: this.set.validators.filter((v) => v.active && !v.jailed).length });
    }
    return true;
  }

  /**
   * Step 3: the next `count` headers from `peer`, verified one by one and stored with the new
   * head. A peer that no longer holds the next one (pruned) is asked for the last ten it holds.
   */
  private async fetchHeaders(peer: string, count: number, peerHeight: number): Promise<void> {
    let served = await this.deps.network.requestHeaders(peer, this.head.height + 1, count);
    let linked = true;
    if (served.length === 0) {
      const from = Math.max(this.head.height + 1, peerHeight - BATCH + 1);
      if (from > this.head.height + 1) {
        served = await this.deps.network.requestHeaders(peer, from, peerHeight - from + 1);
        linked = false;
      }
      if (served.length === 0) throw new Error(`served nothing from ${this.head.height + 1}`);
    }
    const accepted: StoredHeader[] = [];
    let parent = this.head;
    let refusal: string | undefined;
    const lenient = this.noRecord.get(peer) === this.trust.nextBoundary;
    for (const block of served) {
      let header: BlockHeader;
      try {
        header = decodeStoredBlock(block.block).header;
      } catch (error) {
        refusal = `block ${block.height} does not decode: ${(error as Error).message}`;
        break;
      }
      const problem = this.headerProblem(parent, header, block.certificate, linked || accepted.length > 0, lenient);
      if (problem !== undefined) {
        refusal = `block ${header.height}: ${problem}`;
        break;
      }
      accepted.push({ header, certificate: block.certificate });
      parent = header;
    }
    await this.deps.store.putHeaders(accepted);
    if (accepted.length > 0) {
      this.head = parent;
      this.headersImported += accepted.length;
    }
    if (refusal !== undefined) {
      this.refused++;
      throw new LightVerifyError(refusal);
    }
  }

  /** The rule for a header of step 3: linked to its parent unless it follows a gap; past a boundary without a record, the earlier rule. */
  private headerProblem(parent: BlockHeader, header: BlockHeader, certificate: Uint8Array, linked: boolean, lenient: boolean): string | undefined {
    if (linked && (header.height !== parent.height + 1 || !bytesEqual(header.parentHash, parent.hash))) return nextHeaderProblem(parent, header, certificate, this.trust);
    if (!linked && header.height <= parent.height) return `height ${header.height} is not above the head ${parent.height}`;
    if (lenient && header.height > this.trust.nextBoundary) {
      return HeaderTrust.fromTrusted(this.trust.anchor, { ...this.set, height: header.height - 1 }).headerProblem(header, certificate);
    }
    return this.trust.headerProblem(header, certificate);
  }

  /**
   * The set at the peer's durable head, with proofs. Its height may be above ours (the peer moved
   * on): the headers up to it are fetched and verified first, then the proofs against that header.
   */
  private async refreshSet(peer: string): Promise<void> {
    const answer = await this.deps.network.requestValidatorSet(peer);
    if (!answer) throw new Error('the peer serves no validator set');
    let claimed: { height: number };
    try {
      claimed = validatorSetProofHead(answer);
    } catch (error) {
      throw new LightVerifyError(`the validator-set answer does not decode: ${(error as Error).message}`);
    }
    if (claimed.height <= this.set.height) return;
    while (this.head.height < claimed.height && !this.stopped) await this.fetchHeaders(peer, Math.min(BATCH, claimed.height - this.head.height), claimed.height);
    const stored = await this.deps.store.header(claimed.height);
    if (!stored) throw new Error(`no verified header at ${claimed.height}`);
    let proven: ProvenValidatorSet;
    try {
      proven = verifyValidatorSetProof(answer, stored.header);
    } catch (error) {
      if (error instanceof ValidatorProofError) {
        this.refused++;
        throw new LightVerifyError(error.message);
      }
      throw error;
    }
    await this.deps.store.putValidatorSetProof(answer);
    const changed = !sameSet(this.set.validators, proven.validators);
    this.trust.adopt(stored.header, proven, answer);
    if (changed) this.deps.logger.info('validator set changed', { height: proven.height, validators: proven.validators.filter((v) => v.active && !v.jailed).length });
  }

  private pickPeer(): { id: string; height: number } | undefined {
    return bestPeer(this.deps.network.readyPeers(), this.cooldown);
  }

  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.options.idleMs ?? 250);
      const self = this;
      function done(): void {
        clearTimeout(timer);
        self.wake = undefined;
        resolve();
      }
      this.wake = done;
    });
  }
}

/** Same voting keys, stakes and standing: a set change worth a log line. */
function sameSet(a: ValidatorInfo[], b: ValidatorInfo[]): boolean {
  return a.length === b.length && a.every((v, i) => {
    const w = b[i]!;
    return bytesEqual(v.consensusKey, w.consensusKey) && v.stake === w.stake && v.active === w.active && v.jailed === w.jailed;
  });
}
