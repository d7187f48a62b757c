import { NIL, signingOrder, type BlockId, type SigningRecord } from './rounds.js';

/**
 * The validator's signing state (docs/consensus.md "Signing state"): the last message it signed
 * (height, round, step, block) and its lock, as CometBFT's priv_validator_state. The engine writes
 * it, synced to disk, before a signed proposal or vote leaves the node, and `SigningGuard` refuses
 * anything that would sign a second, different message for a (height, round, step) already signed
 * or go back to an earlier one. A crash (or power loss) at any moment leaves either the old record
 * with nothing sent, or the new record: the node never signs twice.
 *
 * Encoding (211 bytes, little endian): u8 version (1) ‖ u64 height ‖ i32 round ‖ u8 step (0 propose,
 * 1 prevote, 2 precommit, 3 commit) ‖ id[32] ‖ i32 lockedRound ‖ lockedValue[32] ‖ i32 validRound ‖
 * validValue[32] ‖ proposedValue[32] ‖ u8 flags (1: a prevote in `round`, 2: a precommit) ‖
 * prevote[32] ‖ precommit[32]; a nil block is 32 zero bytes.
 */

const VERSION = 1;
export const SIGNING_RECORD_SIZE = 1 + 8 + 4 + 1 + 32 + 4 + 32 + 4 + 32 + 32 + 1 + 32 + 32;
const STEPS: SigningRecord['step'][] = ['propose', 'prevote', 'precommit', 'commit'];

function putId(out: Uint8Array, offset: number, id: BlockId): void {
  if (id === NIL) return;
  if (id.length !== 64) throw new RangeError(`block id must be 32 bytes of hex, got ${id.length} characters`);
  out.set(Buffer.from(id, 'hex'), offset);
}

function getId(bytes: Uint8Array, offset: number): BlockId {
  const slice = bytes.subarray(offset, offset + 32);
  return slice.every((b) => b === 0) ? NIL : Buffer.from(slice).toString('hex');
}

export function encodeSigningRecord(r: SigningRecord): Uint8Array {
  const out = new Uint8Array(SIGNING_RECORD_SIZE);
  const view = new DataView(out.buffer);
  out[0] = VERSION;
  view.setBigUint64(1, BigInt(r.height), true);
  view.setInt32(9, r.round, true);
  out[13] = STEPS.indexOf(r.step);
  putId(out, 14, r.id);
  view.setInt32(46, r.lockedRound, true);
  putId(out, 50, r.lockedValue);
  view.setInt32(82, r.validRound, true);
  putId(out, 86, r.validValue);
  putId(out, 118, r.proposedValue);
  out[150] = (r.prevote !== undefined ? 1 : 0) | (r.precommit !== undefined ? 2 : 0);
  if (r.prevote !== undefined) putId(out, 151, r.prevote);
  if (r.precommit !== undefined) putId(out, 183, r.precommit);
  return out;
}

export function decodeSigningRecord(bytes: Uint8Array): SigningRecord {
  if (bytes.length !== SIGNING_RECORD_SIZE || bytes[0] !== VERSION) {
    throw new RangeError(`a signing record is ${SIGNING_RECORD_SIZE} bytes of version ${VERSION}, got ${bytes.length} bytes of version ${bytes[0]}`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const step = STEPS[bytes[13]!];
  if (!step) throw new RangeError(`unknown signing step ${bytes[13]}`);
  return {
    height: Number(view.getBigUint64(1, true)), round: view.getInt32(9, true), step, id: getId(bytes, 14),
    lockedRound: view.getInt32(46, true), lockedValue: getId(bytes, 50),
    validRound: view.getInt32(82, true), validValue: getId(bytes, 86), proposedValue: getId(bytes, 118),
    prevote: bytes[150]! & 1 ? getId(bytes, 151) : undefined,
    precommit: bytes[150]! & 2 ? getId(bytes, 183) : undefined,
  };
}

/**
 * Whether this validator may sign `next` after `last`: a later height, or a later (round, step) of
 * the same height, or exactly the same message again (the same bytes: a re-send after a restart).
 */
export function maySign(last: SigningRecord | undefined, next: Pick<SigningRecord, 'height' | 'round' | 'step' | 'id'>): boolean {
  if (!last || next.height > last.height) return true;
  if (next.height < last.height) return false;
  const order = signingOrder(last, next.round, next.step);
  if (order > 0) return true;
  if (order === 0) return last.id === next.id;
  // the votes of the last round the record keeps, signed again after a restart (the same bytes)
  if (next.round !== last.round || last.step === 'commit') return false;
  return (next.step === 'prevote' && last.prevote === next.id) || (next.step === 'precommit' && last.precommit === next.id);
}
