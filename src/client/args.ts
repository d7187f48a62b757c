/**
 * The argument forms the wallet's helpers take (amounts, tokens, accounts, consensus keys) and their
 * parsers, shared by src/client/wallet.ts and the domain modules' helpers (src/domains/<name>/client.ts).
 */
import { parseAddress, parseHash } from '../codec/address.js';

/** Raw units: a bigint, a decimal (or 0x) string, or a safe-integer number (toBigInt). */
export type Amount = bigint | string | number;
/** A token: `NTV`, any other symbol (looked up with svc_getTokenInfo), `Nx1…`, `0x` + 64 hex or mint bytes. */
export type TokenRef = string | Uint8Array;
/** An account: `Nx0…`, `0x` + 40 hex (EVM form), `0x` + 64 hex or 32 bytes. */
export type AccountRef = string | Uint8Array;
/** A collection: `Nx2…`, `0x` + 64 hex or 32 bytes (docs/collections.md "Addresses"). */
export type CollectionRef = string | Uint8Array;
/** An Ed25519 consensus public key: 64 hex characters (optional 0x) or 32 bytes. */
export type PubkeyRef = string | Uint8Array;

/** n accounts back to back (the guardians/cosigners fields of the STD-8 operations). */
export function concatAccounts(list: AccountRef[], what: string): Uint8Array {
  const out = new Uint8Array(32 * list.length);
  list.forEach((a, i) => out.set(accountBytes(a, `${what}[${i}]`), 32 * i));
  return out;
}

export function accountBytes(value: AccountRef, what: string): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (typeof value !== 'string') throw new Error(`${what}: expected an address (Nx0…, 0x + 40 or 64 hex) or 32 bytes`);
  return parseAddress(value);
}

export function pubkeyBytes(value: PubkeyRef, what: string): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (typeof value === 'string' && /^(0x)?[0-9a-fA-F]{64}$/.test(value)) return new Uint8Array(Buffer.from(value.replace(/^0x/, ''), 'hex'));
  throw new Error(`${what}: expected an Ed25519 public key, 64 hex characters (optional 0x) or 32 bytes, got ${JSON.stringify(value)}`);
}

/** Raw-unit integers arrive as decimal strings (spec §1.5) or JSON numbers. */
export function toBigInt(value: unknown, what: string): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^(0|[1-9][0-9]*)$/.test(value)) return BigInt(value);
  if (typeof value === 'string' && /^0x[0-9a-fA-F]+$/.test(value)) return BigInt(value);
  throw new Error(`${what}: expected a non-negative integer (decimal string), got ${JSON.stringify(value)}`);
}

/** A public key or key hash: bytes, or hex with or without `0x`. */
export function keyBytes(value: Uint8Array | string): Uint8Array {
  return value instanceof Uint8Array ? value : new Uint8Array(Buffer.from(value.replace(/^0x/, ''), 'hex'));
}

/** A 32-byte hash: bytes, `Nxh…`, or 64 hex with or without `0x` (key hashes are shown as bare hex). */
export function hashBytes(value: string | Uint8Array, what = 'key hash'): Uint8Array {
  if (typeof value === 'string' && /^(0x)?[0-9a-fA-F]{64}$/.test(value)) return keyBytes(value);
  if (typeof value === 'string') return parseHash(value);
  if (!(value instanceof Uint8Array) || value.length !== 32) throw new Error(`${what}: expected a hash (Nxh…, 64 hex) or 32 bytes`);
  return value;
}
