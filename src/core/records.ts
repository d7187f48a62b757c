// State keys and record codecs (docs/core-abi.md "State layout"). Keys are a one-byte prefix then
// fixed fields; integers little-endian. Prefixes, key builders and record layouts are generated
// from the ABI table (abi/state.mjs → src/abi/state.ts); this module names them for the host.
import {
  AccountOffsets, decodeAccountFields, decodeKeyFields, decodeTokenFields, type AccountFields, type FailedBundleFields, type KeyFields, type TokenFields,
} from '../abi/state.js';
import { TOKEN_KIND_BRIDGED, TOKEN_KIND_NATIVE, TOKEN_KIND_STD7, TOKEN_KIND_STD8 } from '../abi/constants.js';

export { Prefix } from '../abi/constants.js';
/** The native token's mint (32 zero bytes, spec §1.4) and the treasury 0x00…03 (spec §1.8). */
export { NTV_MINT, TREASURY } from '../abi/constants.js';
// Key builders and the strict record reader are generated from the ABI table (abi/state.mjs).
export {
  upperSymbol, accountKey, balanceKey, tokenKey, symbolKey, reservedSymbolKey, keyRecordKey, bucketKey, nodeKey, RecordReader,
} from '../abi/state.js';

export type FailedBundle = FailedBundleFields;
export type AccountRecord = AccountFields;
export const decodeAccount = decodeAccountFields;

/**
 * An Account record's nonce, read in place at its generated offset (abi/state.mjs) without decoding
 * the record: the write path asks for it twice a bundle (src/chain/pipeline/4-write.ts). Equal to
 * `decodeAccount(record).nonce` for every well-formed record; RangeError when too short for it.
 */
export function accountNonce(record: Uint8Array): bigint {
  const o = AccountOffsets.nonce;
  if (record.length < o + 8) throw new RangeError(`account record of ${record.length} bytes`);
  return u64At(record, o);
}

/** The little-endian u64 at `bytes[o]`, from its bytes (no DataView: the hot reads make none). */
function u64At(bytes: Uint8Array, o: number): bigint {
  const lo = (bytes[o]! | (bytes[o + 1]! << 8) | (bytes[o + 2]! << 16)) + bytes[o + 3]! * 0x1000000;
  const hi = (bytes[o + 4]! | (bytes[o + 5]! << 8) | (bytes[o + 6]! << 16)) + bytes[o + 7]! * 0x1000000;
  // Below 2^53 (every nonce and most balances in practice) one Number conversion; the full u64 otherwise.
  return hi < 0x200000 ? BigInt(hi * 0x100000000 + lo) : (BigInt(hi) << 32n) | BigInt(lo);
}

/**
 * A Balance record: one u128, read in place (svc_getBalance's read: a RecordReader's DataView cost
 * ~0.4 µs of its ~2.5 in the node's profile, docs/performance.md "sixth round"). The same errors as
 * the strict reader.
 */
export function decodeBalance(v: Uint8Array): bigint {
  if (v.length !== 16) throw new RangeError(v.length < 16 ? 'record truncated' : 'trailing bytes in record');
  const hi = u64At(v, 8);
  return hi === 0n ? u64At(v, 0) : u64At(v, 0) | (hi << 64n);
}

/** A token record's kind, from the ABI table (abi/constants.mjs TOKEN_KIND_*). */
export const TokenKind = { NATIVE: TOKEN_KIND_NATIVE, STD7: TOKEN_KIND_STD7, STD8_STABLECOIN: TOKEN_KIND_STD8, BRIDGE_CANONICAL: TOKEN_KIND_BRIDGED } as const;

export type TokenRecord = TokenFields;
export const decodeTokenRecord = decodeTokenFields;
export type KeyRecord = KeyFields;
export const decodeKeyRecord = decodeKeyFields;

/** A bucket record: sorted (path, leaf) pairs, 64 bytes each (docs/core-abi.md "State root"). */
export function decodeBucket(v: Uint8Array): Array<{ path: Uint8Array; leaf: Uint8Array }> {
  if (v.length % 64 !== 0) throw new RangeError('bucket record is not a multiple of 64 bytes');
  const out = [];
  for (let o = 0; o < v.length; o += 64) out.push({ path: v.subarray(o, o + 32), leaf: v.subarray(o + 32, o + 64) });
  return out;
}
