import { BorshReader, BorshWriter } from '../codec/borsh.js';
import { decodeStoredBlock, encodeBlock, type BlockHeader } from './block.js';

/**
 * An epoch record (docs/light-client.md "Epoch records"): what a header-only client needs to move
 * from one epoch to the next without the blocks between. It is taken by a full node at each epoch
 * boundary block (height `k × epoch_length`, genesis included), in the turn that block became the
 * durable head, so the validator-set proof is against that block's own state root:
 *
 * ```
 * Borsh { header: Vec<u8>   (the block encoding cut after its header, src/chain/block.ts),
 *         certificate: Vec<u8> (its finality certificate, docs/consensus.md "Certificates"; empty for genesis),
 *         set_proof: Vec<u8>  (the `/ntv/validators/1` answer at that block, src/chain/validator-set-proof.ts) }
 * ```
 *
 * Records are kept by every node whatever its pruning mode (a few KB each), so a pruning peer still
 * serves a client that starts from an old checkpoint. This module has no Node imports: the browser
 * build decodes records with it.
 */
export interface EpochRecord {
  header: BlockHeader;
  certificate: Uint8Array;
  setProof: Uint8Array;
}

/** a record's parts: a header (~1 KB), a certificate (≤ 100 votes of 96 bytes), a set proof (≤ 4 MiB, the frame limit of /ntv/validators/1) */
const MAX_HEADER_BYTES = 64 * 1024;
const MAX_CERTIFICATE_BYTES = 256 * 1024;
const MAX_SET_PROOF_BYTES = 4 * 1024 * 1024;

export function encodeEpochRecord(record: EpochRecord): Uint8Array {
  const header = encodeBlock({ header: record.header, bundles: [], bundleHashes: [] });
  return new BorshWriter(header.length + record.certificate.length + record.setProof.length + 16)
    .vecBytes(header, 'header', MAX_HEADER_BYTES)
    .vecBytes(record.certificate, 'certificate', MAX_CERTIFICATE_BYTES)
    .vecBytes(record.setProof, 'set_proof', MAX_SET_PROOF_BYTES)
    .finish();
}

/** Decode (not verify: src/light/header-trust.ts does) a record; throws naming the field that is wrong. */
export function decodeEpochRecord(bytes: Uint8Array): EpochRecord {
  const r = new BorshReader(bytes);
  const header = decodeStoredBlock(r.vecBytes('header', MAX_HEADER_BYTES)).header;
  const certificate = r.vecBytes('certificate', MAX_CERTIFICATE_BYTES);
  const setProof = r.vecBytes('set_proof', MAX_SET_PROOF_BYTES);
  r.end('epoch_record');
  return { header, certificate, setProof };
}

/** Whether `height` is an epoch boundary (the block that closes an epoch; genesis is one). */
export function isEpochBoundary(height: number, epochLength: number): boolean {
  return height % epochLength === 0;
}

/** The first boundary at or above `height`. */
export function boundaryAtOrAbove(height: number, epochLength: number): number {
  return Math.ceil(height / epochLength) * epochLength;
}
