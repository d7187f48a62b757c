import { BorshReader, BorshWriter, CodecError } from './borsh.js';
import { blake3, blake3Parts } from './hash.js';
import { MAX_OPERATIONS, MAX_SIGNATURE_BYTES } from '../abi/constants.js';
import { MAX_PUBKEY_BYTES, readOperation, writeOperation, type Operation } from './operations.js';

export { CodecError } from './borsh.js';
export type { CodecErrorCode } from './borsh.js';
export * from './operations.js';

/**
 * The transaction bundle (facts.md "Transaction bundle", docs/bundle-format.md). Field order is the
 * Borsh order. u64/u128 values are bigint; byte fields are Uint8Array; absent options are
 * `undefined`.
 */
export interface Bundle {
  userAccount: Uint8Array;
  operations: Operation[];
  maxGas: bigint;
  maxPriorityFee: bigint;
  validUntil: bigint;
  nonce: bigint;
  /** Empty (unsigned, testnet only, spec §5.6), 64 bytes Ed25519 or 3,309 bytes ML-DSA-65. */
  signature: Uint8Array;
  expiryTimestamp?: bigint | undefined;
  /** Required on an account's first signed send (spec §5.3). */
  senderPubkey?: Uint8Array | undefined;
}

/** docs/bundle-format.md: a bundle holds at most 64 operations (abi/constants.mjs). */
export { MAX_OPERATIONS };
/**
 * Bound on the signature vec before allocation; the real lengths (0, 64, 3,309) are checked by
 * the signature layer, which reports a precise error.
 */
export { MAX_SIGNATURE_BYTES };

const EMPTY = new Uint8Array(0);

/** Canonical Borsh encoding; throws CodecError naming the field on any out-of-range value. */
export function encodeBundle(bundle: Bundle): Uint8Array {
  return writeBundle(bundle, bundle.signature);
}

/** The encoding with an empty signature: the bytes the signer hashes (facts.md). */
export function encodeForSigning(bundle: Bundle): Uint8Array {
  return writeBundle(bundle, EMPTY);
}

/** Blake3-256 of the encoding with an empty signature: what Ed25519/ML-DSA-65 signs (spec §5.2). */
export function signingHash(bundle: Bundle): Uint8Array {
  return blake3(encodeForSigning(bundle));
}

/**
 * `signingHash` of a bundle from its canonical encoding `bytes` (the one `bundle` was decoded from),
 * without encoding it again: the signed bytes are these with the signature replaced by an empty
 * one, i.e. the bytes before the signature's length, a zero length, and the bytes after the
 * signature (the two option fields). Admission hashes each bundle this way (docs/performance.md).
 */
export function signingHashOfEncoded(bytes: Uint8Array, bundle: Bundle): Uint8Array {
  const tail = 1 + (bundle.expiryTimestamp !== undefined ? 8 : 0) + 1 + (bundle.senderPubkey !== undefined ? 4 + bundle.senderPubkey.length : 0);
  const afterSignature = bytes.length - tail;
  const signatureLengthAt = afterSignature - bundle.signature.length - 4;
  if (signatureLengthAt < 0) throw new RangeError('the bytes are not the encoding of this bundle');
  return blake3Parts(bytes.subarray(0, signatureLengthAt), EMPTY_LENGTH, bytes.subarray(afterSignature));
}

/** A Borsh vec length of zero: the empty signature of the signing encoding. */
const EMPTY_LENGTH = new Uint8Array(4);

/** Blake3-256 of the full encoding; its text form is `Nxh` + base58 (encodeHash in address.ts). */
export function bundleHash(bytes: Uint8Array): Uint8Array {
  return blake3(bytes);
}

/**
 * Decodes a canonical encoding. Throws CodecError (code, field, offset) on truncation, trailing
 * bytes, an option tag other than 0/1, invalid UTF-8, an unknown operation discriminant or a
 * length over its limit. Values are copied out; the input may be reused afterwards.
 */
export function decodeBundle(bytes: Uint8Array): Bundle {
  const r = new BorshReader(bytes);
  const userAccount = r.fixedBytes(32, 'user_account');
  const count = r.vecLength('operations', MAX_OPERATIONS);
  const operations: Operation[] = new Array(count);
  for (let i = 0; i < count; i++) {
    try {
      operations[i] = readOperation(r);
    } catch (error) {
      throw error instanceof CodecError ? error.within(`operations[${i}]`) : error;
    }
  }
  const maxGas = r.u64('max_gas');
  const maxPriorityFee = r.u64('max_priority_fee');
  const validUntil = r.u64('valid_until');
  const nonce = r.u64('nonce');
  const signature = r.vecBytes('signature', MAX_SIGNATURE_BYTES);
  const expiryTimestamp = r.optionTag('expiry_timestamp') ? r.u64('expiry_timestamp') : undefined;
  const senderPubkey = r.optionTag('sender_pubkey') ? r.vecBytes('sender_pubkey', MAX_PUBKEY_BYTES) : undefined;
  r.end('bundle');
  return { userAccount, operations, maxGas, maxPriorityFee, validUntil, nonce, signature, expiryTimestamp, senderPubkey };
}

/** decodeBundle of `0x`-optional hex, as svc_submitBundle receives it (facts.md). */
export function decodeBundleHex(hex: string): Bundle {
  const body = hex.startsWith('0x') || hex.startsWith('0X') ? hex.slice(2) : hex;
  if (body.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(body)) {
    throw new CodecError('BAD_TYPE', 'bundle', 'hex text expected (even number of hex digits, optional 0x)');
  }
  return decodeBundle(new Uint8Array(Buffer.from(body, 'hex')));
}

function writeBundle(bundle: Bundle, signature: Uint8Array): Uint8Array {
  const w = new BorshWriter(256 + signature.length + (bundle.senderPubkey?.length ?? 0));
  w.fixedBytes(bundle.userAccount, 32, 'user_account');
  if (!Array.isArray(bundle.operations)) throw new CodecError('BAD_TYPE', 'operations', 'array expected');
  w.vecLength(bundle.operations.length, 'operations', MAX_OPERATIONS);
  for (let i = 0; i < bundle.operations.length; i++) {
    try {
      writeOperation(w, bundle.operations[i]!);
    } catch (error) {
      throw error instanceof CodecError ? error.within(`operations[${i}]`) : error;
    }
  }
  w.u64(bundle.maxGas, 'max_gas');
  w.u64(bundle.maxPriorityFee, 'max_priority_fee');
  w.u64(bundle.validUntil, 'valid_until');
  w.u64(bundle.nonce, 'nonce');
  w.vecBytes(signature, 'signature', MAX_SIGNATURE_BYTES);
  w.optionTag(bundle.expiryTimestamp !== undefined, 'expiry_timestamp');
  if (bundle.expiryTimestamp !== undefined) w.u64(bundle.expiryTimestamp, 'expiry_timestamp');
  w.optionTag(bundle.senderPubkey !== undefined, 'sender_pubkey');
  if (bundle.senderPubkey !== undefined) w.vecBytes(bundle.senderPubkey, 'sender_pubkey', MAX_PUBKEY_BYTES);
  return w.finish();
}
