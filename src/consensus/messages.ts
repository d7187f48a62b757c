import { decodeBlock, encodeBlock, headerHash, transactionsRoot, type Block } from '../chain/block.js';
import { bundleHash } from '../codec/bundle.js';
import { bytesEqual } from '../codec/hash.js';
import { signEd25519, verifyEd25519 } from '../codec/keys.js';
import { decodeCertificate, encodeCertificate, PROPOSAL_SIGNATURE, voteSigningBytes, type Certificate } from './votes.js';

/**
 * The `blocks` topic's messages (docs/consensus.md "Messages"):
 * - 0x01 ‖ block: a new block proposed in its own round (`header.round`); the header's signature
 *   by the round's leader is the proposal's signature, and its proof-of-lock round is −1.
 * - 0x02 ‖ u32 n ‖ certificate[n] ‖ block: a final block with its finality certificate.
 * - 0x03 ‖ u32 round ‖ i32 validRound ‖ key[32] ‖ sig[64] ‖ block: a block made in an earlier
 *   round proposed again in `round` by that round's leader, with the round of its proof of lock
 *   (−1: none). The signature covers block_hash ‖ 4 ‖ epoch ‖ height ‖ round ‖ validRound.
 */

export const BlockMessage = { PROPOSAL: 1, CERTIFIED: 2, REPROPOSAL: 3 } as const;

export type ParsedBlockMessage =
  | { kind: 'proposal'; block: Block; encoded: Uint8Array }
  | { kind: 'certified'; block: Block; encoded: Uint8Array; certificate: Certificate }
  | { kind: 'reproposal'; block: Block; encoded: Uint8Array; round: number; validRound: number; signer: Uint8Array; signature: Uint8Array };

const REPROPOSAL_HEADER = 1 + 4 + 4 + 32 + 64;

export function parseBlockMessage(data: Uint8Array): ParsedBlockMessage {
  if (data.length < 2) throw new RangeError('empty block message');
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (data[0] === BlockMessage.PROPOSAL) {
    const encoded = data.subarray(1);
    return { kind: 'proposal', block: decodeBlock(encoded, bundleHash), encoded };
  }
  if (data[0] === BlockMessage.CERTIFIED) {
    if (data.length < 5) throw new RangeError('truncated certified block message');
    const n = view.getUint32(1, true);
    if (5 + n > data.length) throw new RangeError(`certificate of ${n} bytes overruns the message`);
    const certificate = decodeCertificate(data.subarray(5, 5 + n));
    const encoded = data.subarray(5 + n);
    return { kind: 'certified', block: decodeBlock(encoded, bundleHash), encoded, certificate };
  }
  if (data[0] === BlockMessage.REPROPOSAL) {
    if (data.length <= REPROPOSAL_HEADER) throw new RangeError('truncated re-proposal message');
    const encoded = data.subarray(REPROPOSAL_HEADER);
    return {
      kind: 'reproposal', block: decodeBlock(encoded, bundleHash), encoded,
      round: view.getUint32(1, true), validRound: view.getInt32(5, true),
      signer: data.slice(9, 41), signature: data.slice(41, 105),
    };
  }
  throw new RangeError(`unknown block message kind ${data[0]}`);
}

export function proposalMessage(encoded: Uint8Array): Uint8Array {
  const out = new Uint8Array(1 + encoded.length);
  out[0] = BlockMessage.PROPOSAL;
  out.set(encoded, 1);
  return out;
}

export function certifiedMessage(encoded: Uint8Array, certificate: Uint8Array): Uint8Array {
  const out = new Uint8Array(1 + 4 + certificate.length + encoded.length);
  out[0] = BlockMessage.CERTIFIED;
  new DataView(out.buffer).setUint32(1, certificate.length, true);
  out.set(certificate, 5);
  out.set(encoded, 5 + certificate.length);
  return out;
}

/** The bytes a re-proposal's signature covers. */
export function reproposalSigningBytes(blockHash: Uint8Array, epoch: number, height: number, round: number, validRound: number): Uint8Array {
  return voteSigningBytes(blockHash, PROPOSAL_SIGNATURE, epoch, height, round, validRound);
}

export function reproposalMessage(
  block: Block, encoded: Uint8Array, round: number, validRound: number, epoch: number, key: { seed: Uint8Array; publicKey: Uint8Array },
): Uint8Array {
  const out = new Uint8Array(REPROPOSAL_HEADER + encoded.length);
  const view = new DataView(out.buffer);
  out[0] = BlockMessage.REPROPOSAL;
  view.setUint32(1, round, true);
  view.setInt32(5, validRound, true);
  out.set(key.publicKey, 9);
  out.set(signEd25519(key.seed, reproposalSigningBytes(block.header.hash, epoch, block.header.height, round, validRound)), 41);
  out.set(encoded, REPROPOSAL_HEADER);
  return out;
}

export function verifyReproposal(m: Extract<ParsedBlockMessage, { kind: 'reproposal' }>, epoch: number): boolean {
  const h = m.block.header;
  return verifyEd25519(m.signer, reproposalSigningBytes(h.hash, epoch, h.height, m.round, m.validRound), m.signature);
}

export function encodeProposalMessage(block: Block): Uint8Array {
  return proposalMessage(encodeBlock(block));
}

export function encodeCertifiedMessage(block: Block, certificate: Certificate): Uint8Array {
  return certifiedMessage(encodeBlock(block), encodeCertificate(certificate));
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
