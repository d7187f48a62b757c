import type { Logger } from '../logger.js';
import type { ChainStore } from '../storage/chain-store.js';
import type { BlockHeader } from './block.js';
import { chainParams } from './chain-params.js';
import { boundaryAtOrAbove, encodeEpochRecord, isEpochBoundary } from './epoch-record.js';
import type { StateReadable } from './validator-set.js';
import { encodeValidatorSetProof, validatorSetProofHead, type ProofSource } from './validator-set-proof.js';

/** Records served per request at most (RPC and `/ntv/epochs/1`): 64 records of a 4-validator set are ~200 KB. */
export const MAX_EPOCH_RECORDS_PER_REQUEST = 64;

/** Node-local key of the record of boundary `height` (zero-padded so keys sort by height). */
function recordKey(height: number): string {
  return `epoch-record:${String(height).padStart(16, '0')}`;
}

/**
 * The full node's side of checkpoint sync (docs/light-client.md "Epoch records"): at each epoch
 * boundary block, in the turn it became the durable head (the chain's `block` event, emitted
 * after the state view took its writes), the block's header, certificate and validator-set proof
 * are written as one node-local record, never pruned. Why a record and not a proof on demand: a
 * node keeps state at its head only (docs/replay.md "State proofs"), so the set at a past height
 * can be proven only if it was proven when that height was the head.
 *
 * A node restored from a snapshot holds records from its restore on (and one upgraded from a version
 * without records, from the upgrade on); a crash between a boundary
 * block's write and its record's write loses that record on this node (the block is durable, the
 * state has moved on): the read below stops at the first missing record and the client asks
 * another peer.
 */
export class EpochRecords {
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly deps: { store: ChainStore; state: StateReadable; proofs: ProofSource; logger: Logger }) {}

  get epochLength(): number {
    return chainParams(this.deps.state).epochLength;
  }

  /**
   * The durable head is `header` (with `certificate`): record it when it is a boundary. Must be
   * called in the turn the head and state moved (the proof is taken from the current state).
   */
  onHead(header: BlockHeader, certificate: Uint8Array): void {
    if (!isEpochBoundary(header.height, this.epochLength)) return;
    const setProof = encodeValidatorSetProof(this.deps.proofs);
    if (validatorSetProofHead(setProof).height !== header.height) return; // the head moved on: no proof of this block's state
    const bytes = encodeEpochRecord({ header, certificate, setProof });
    this.writing = this.writing
      .then(() => this.deps.store.putLocal(recordKey(header.height), bytes))
      .catch((error: unknown) => this.deps.logger.warn('epoch record not written', { height: header.height, error: (error as Error).message }));
  }

  /** At open: the head may be a boundary whose record a crash lost right after its write. */
  async recordHeadIfMissing(header: BlockHeader, certificate: Uint8Array): Promise<void> {
    if (!isEpochBoundary(header.height, this.epochLength) || (await this.get(header.height))) return;
    this.onHead(header, certificate);
    await this.writing;
  }

  async get(height: number): Promise<Uint8Array | undefined> {
    return this.deps.store.getLocal(recordKey(height));
  }

  /**
   * The records of the boundaries from the first at or above `from` up to `head`, at most `limit`,
   * in order and without a gap: the list stops before the first boundary this node holds no
   * record of. `first` is that first boundary, so a caller can name what is missing.
   */
  async range(from: number, head: number, limit: number): Promise<{ first: number; records: Array<{ height: number; bytes: Uint8Array }> }> {
    const epochLength = this.epochLength;
    const first = boundaryAtOrAbove(from, epochLength);
    const records: Array<{ height: number; bytes: Uint8Array }> = [];
    for (let height = first; height <= head && records.length < Math.min(limit, MAX_EPOCH_RECORDS_PER_REQUEST); height += epochLength) {
      const bytes = await this.get(height);
      if (!bytes) break;
      records.push({ height, bytes });
    }
    return { first, records };
  }

  async close(): Promise<void> {
    await this.writing;
  }
}
