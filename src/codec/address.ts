import bs58 from 'bs58';
import { GOVERNANCE, NTV_MINT } from '../abi/constants.js';
import { base58Encode } from './base58.js';
import { Bytes32Map } from './bytes32-map.js';
import { hexInto, sha256 } from './hash.js';

/**
 * Address formats (spec §1.6, §1.7; facts.md "Addresses"). Every account, mint and hash is 32
 * bytes; the text forms only differ by prefix:
 *   `Nx0` + base58 — account (SHA256 of the public key, spec §5.4)
 *   `Nx1` + base58 — token mint
 *   `Nxh` + base58 — bundle/block hash
 *   `0x` + 40 hex  — EVM form: the last 20 bytes; parsed right-aligned into 32 bytes (spec §1.6)
 *   `0x` + 64 hex  — raw 32 bytes, used for system addresses (spec §1.6, §1.9)
 */

export const ADDRESS_LENGTH = 32;
export const EVM_ADDRESS_LENGTH = 20;

export const ACCOUNT_PREFIX = 'Nx0';
export const MINT_PREFIX = 'Nx1';
export const HASH_PREFIX = 'Nxh';
/** A multi-sig account (facts.md "Addresses": Nx5; docs/multisig.md). */
export const MULTISIG_PREFIX = 'Nx5';
/** A DAO, whose address is also its treasury account (docs/dao.md "Addresses"). */
export const DAO_PREFIX = 'Nx7';
/**
 * An NFT or multi-token collection (facts.md "Addresses": Nx2; docs/collections.md). Here, with the
 * other address forms, because governance's collection-safety proposals show one too and a
 * domain's folder imports no other domain's.
 */
export const COLLECTION_PREFIX = 'Nx2';

export type AddressErrorCode = 'BAD_PREFIX' | 'BAD_BASE58' | 'BAD_HEX' | 'BAD_LENGTH' | 'NOT_A_STRING';

export class AddressError extends Error {
  override readonly name = 'AddressError';
  constructor(
    readonly code: AddressErrorCode,
    message: string,
    readonly input: unknown,
  ) {
    super(message);
  }
}

export type AddressKind = 'account' | 'mint' | 'hash' | 'evm' | 'hex32';

export interface ParsedAddress {
  kind: AddressKind;
  bytes: Uint8Array;
}

/** The native token's mint: 32 zero bytes (spec §1.4; abi/constants.mjs NTV_MINT). Treat as read-only. */
export const NATIVE_MINT: Uint8Array = NTV_MINT;

/** `0xff…ff`: the protocol account that performs bridge and token operations (spec §1.9). Read-only. */
export const PROTOCOL_ADDRESS: Uint8Array = new Uint8Array(ADDRESS_LENGTH).fill(0xff);

/** Genesis system accounts are `0x00…01` to `0x00…08` (spec §1.9). */
export const SYSTEM_ACCOUNT_COUNT = 8;

/** The system account ending in `index` (1–8), as a fresh array. */
export function systemAddress(index: number): Uint8Array {
  if (!Number.isInteger(index) || index < 1 || index > SYSTEM_ACCOUNT_COUNT) {
    throw new RangeError(`system account index must be an integer 1–${SYSTEM_ACCOUNT_COUNT}, got ${index}`);
  }
  const bytes = new Uint8Array(ADDRESS_LENGTH);
  bytes[ADDRESS_LENGTH - 1] = index;
  return bytes;
}

/** The system account index (1–8) of `bytes`, or undefined when it is not one. */
export function systemAccountIndex(bytes: Uint8Array): number | undefined {
  if (bytes.length !== ADDRESS_LENGTH) return undefined;
  for (let i = 0; i < ADDRESS_LENGTH - 1; i++) if (bytes[i] !== 0) return undefined;
  const last = bytes[ADDRESS_LENGTH - 1]!;
  return last >= 1 && last <= SYSTEM_ACCOUNT_COUNT ? last : undefined;
}

export function isProtocolAddress(bytes: Uint8Array): boolean {
  return bytes.length === ADDRESS_LENGTH && bytes.every((b) => b === 0xff);
}

export function isNativeMint(bytes: Uint8Array): boolean {
  return bytes.length === ADDRESS_LENGTH && bytes.every((b) => b === 0);
}

/** Account bytes of a public key: SHA256(public_key) (spec §1.6, §5.4), for any key type. */
export function deriveAccount(publicKey: Uint8Array): Uint8Array {
  return sha256(publicKey);
}

/** `Nx0` address of a public key. */
export function accountAddressOf(publicKey: Uint8Array): string {
  return encodeAccount(deriveAccount(publicKey));
}

/**
 * Accounts and mints recur in every receipt (sender, recipient, proposer, treasury, token) and
 * base58 is quadratic in the input, so their encodings are memoised, in a bounded map keyed by the
 * bytes themselves (no string key per lookup, src/codec/bytes32-map.ts). Hashes are unique, so
 * they are not.
 */
const MEMO_LIMIT = 65_536;
const accountMemo = new Bytes32Map<string>();
const mintMemo = new Bytes32Map<string>();

function memoized(memo: Bytes32Map<string>, prefix: string, bytes: Uint8Array, what: string, encode = (b: Uint8Array) => prefix + base58Encode(b)): string {
  return cached(memo, check32(bytes, what), encode);
}

/** What `compute` gives for the 32 bytes `key`, kept in `memo` (emptied at MEMO_LIMIT entries). */
function cached<V>(memo: Bytes32Map<V>, key: Uint8Array, compute: (key: Uint8Array) => V): V {
  let value = memo.get(key);
  if (value === undefined) {
    if (memo.size >= MEMO_LIMIT) memo.clear();
    value = compute(key);
    memo.set(key, value);
  }
  return value;
}

/**
 * The key hash of a public key, SHA256(public_key) (spec §5.3: the account of its first key, the
 * `0x06` key record's id): every signed bundle's auth carries it into the core. Memoised for
 * 32-byte (Ed25519) keys: one-shot `crypto.hash` cost ~3 µs a bundle at admission under load, the
 * largest single hash of the path (docs/performance.md "2026-11-27, fifth round"). The array is
 * shared by every caller of the same key: read it, never write it.
 */
const keyHashMemo = new Bytes32Map<Uint8Array>();

export function keyHashOf(publicKey: Uint8Array): Uint8Array {
  return publicKey.length === 32 ? cached(keyHashMemo, publicKey, sha256) : sha256(publicKey);
}

/**
 * True for the accounts spec §1.6 writes in their `0x` 32-byte form ("System addresses use `0x`
 * 32-byte form"): the genesis system accounts `0x00…01`–`0x00…08` and `0xff…ff` (§1.9), and the
 * keyless governance authority `0x00…09` (abi/constants.mjs GOVERNANCE), which is a system address
 * too: no key derives it, and the docs name it by that form.
 */
export function isSystemAddress(bytes: Uint8Array): boolean {
  return systemAccountIndex(bytes) !== undefined || isGovernanceAddress(bytes) || isProtocolAddress(bytes);
}

/** `0x00…09`, the protocol governance authority (abi/constants.mjs GOVERNANCE). */
export function isGovernanceAddress(bytes: Uint8Array): boolean {
  if (bytes.length !== ADDRESS_LENGTH) return false;
  for (let i = 0; i < ADDRESS_LENGTH; i++) if (bytes[i] !== GOVERNANCE[i]) return false;
  return true;
}

/**
 * The one text form of an account in every answer: `Nx0…`, except the system accounts, which spec
 * §1.6 shows as `0x` + 64 hex ("System addresses use `0x` 32-byte form"). Input takes both forms
 * for every account (parseAddress), so a system account's `Nx0…` text still works as a param.
 */
export function encodeAccount(bytes: Uint8Array): string {
  return memoized(accountMemo, ACCOUNT_PREFIX, bytes, 'account', (b) => (isSystemAddress(b) ? encodeHex32(b) : ACCOUNT_PREFIX + base58Encode(b)));
}

/**
 * `encodeAccount` of the 32 bytes at `bytes[at]`: a view is made only when the text is not memoised
 * yet (a receipt reads the accounts of its events in place, src/chain/receipts.ts).
 */
export function encodeAccountAt(bytes: Uint8Array, at: number): string {
  return accountMemo.getAt(bytes, at) ?? encodeAccount(bytes.subarray(at, at + ADDRESS_LENGTH));
}

/** `encodeMint` of the 32 bytes at `bytes[at]`, as `encodeAccountAt`. */
export function encodeMintAt(bytes: Uint8Array, at: number): string {
  return mintMemo.getAt(bytes, at) ?? encodeMint(bytes.subarray(at, at + ADDRESS_LENGTH));
}

export function encodeMint(bytes: Uint8Array): string {
  return memoized(mintMemo, MINT_PREFIX, bytes, 'mint');
}

/** `Nx5…`: a multi-sig account (docs/accounts.md). */
export function encodeMultiSig(bytes: Uint8Array): string {
  return encodePrefixed(MULTISIG_PREFIX, bytes);
}

export function encodeHash(bytes: Uint8Array): string {
  return HASH_PREFIX + base58Encode(check32(bytes, 'hash'));
}

/**
 * The text form of the other 32-byte record addresses: a prefix and base58 (facts.md "Addresses":
 * Nx2 collection, Nx8 AMM pool, Nx9 name, …). The decoder answers undefined for any text that is
 * not exactly that form, so callers name the param in their own error.
 */
export function encodePrefixed(prefix: string, bytes: Uint8Array): string {
  return prefix + base58Encode(check32(bytes, 'address'));
}

export function decodePrefixed(prefix: string, text: string): Uint8Array | undefined {
  if (!text.startsWith(prefix)) return undefined;
  try {
    const bytes = bs58.decode(text.slice(prefix.length));
    return bytes.length === ADDRESS_LENGTH ? bytes : undefined;
  } catch {
    return undefined;
  }
}

export function encodeCollection(address: Uint8Array): string {
  return encodePrefixed(COLLECTION_PREFIX, address);
}

/** `Nx2…` → 32 bytes, or undefined when the text is not a well-formed collection address. */
export function decodeCollectionText(text: string): Uint8Array | undefined {
  return decodePrefixed(COLLECTION_PREFIX, text);
}

/** EVM form: the last 20 bytes as lower-case `0x` hex (spec §1.6). No EIP-55 checksum. */
export function encodeEvm(bytes: Uint8Array): string {
  return '0x' + Buffer.from(check32(bytes, 'address').subarray(ADDRESS_LENGTH - EVM_ADDRESS_LENGTH)).toString('hex');
}

/** Raw 32-byte `0x` form, as system addresses are written (spec §1.6). */
export function encodeHex32(bytes: Uint8Array): string {
  return '0x' + Buffer.from(check32(bytes, 'address')).toString('hex');
}

/**
 * Parses any accepted address text: `Nx0…`, `Nx1…`, `Nx5…` and `Nx7…` (accounts), `0x` + 40 hex (right-aligned into 32 bytes),
 * `0x` + 64 hex. `Nxh` is refused here (a hash is not an address); use `parseHash`.
 */
export function parseAddressDetailed(text: string): ParsedAddress {
  if (typeof text !== 'string') throw new AddressError('NOT_A_STRING', `address must be a string, got ${typeof text}`, text);
  if (text.startsWith(ACCOUNT_PREFIX)) return { kind: 'account', bytes: decodeBase58Body(text, 'account') };
  if (text.startsWith(MINT_PREFIX)) return { kind: 'mint', bytes: decodeBase58Body(text, 'mint') };
  // A multi-sig is an account: it holds balances and is named wherever an account is.
  if (text.startsWith(MULTISIG_PREFIX)) return { kind: 'account', bytes: decodeBase58Body(text, 'multi-sig') };
  // So is a DAO: its Nx7 address is the account of its treasury, funded by an ordinary transfer.
  if (text.startsWith(DAO_PREFIX)) return { kind: 'account', bytes: decodeBase58Body(text, 'DAO') };
  if (text.startsWith('0x') || text.startsWith('0X')) {
    const digits = text.length - 2;
    // The two lengths decode in place (svc_getBalance's param: docs/performance.md "sixth round");
    // spec §1.6: a 20-byte EVM address is right-aligned into 32 bytes.
    if (digits === EVM_ADDRESS_LENGTH * 2 || digits === ADDRESS_LENGTH * 2) {
      const bytes = new Uint8Array(ADDRESS_LENGTH);
      const evm = digits === EVM_ADDRESS_LENGTH * 2;
      if (hexInto(text, 2, bytes, evm ? ADDRESS_LENGTH - EVM_ADDRESS_LENGTH : 0, digits / 2)) return { kind: evm ? 'evm' : 'hex32', bytes };
    }
    const body = text.slice(2);
    if (!/^[0-9a-fA-F]*$/.test(body)) {
      throw new AddressError('BAD_HEX', `address ${quote(text)}: ${quote(firstBadHex(body))} is not a hex digit`, text);
    }
    throw new AddressError('BAD_LENGTH',
      `address ${quote(text)}: 0x form must have 40 hex digits (20-byte EVM) or 64 (32 bytes), got ${body.length}`, text);
  }
  if (text.startsWith(HASH_PREFIX)) {
    throw new AddressError('BAD_PREFIX', `${quote(text)} is a hash (Nxh), not an address`, text);
  }
  throw new AddressError('BAD_PREFIX',
    `address ${quote(text)}: unknown prefix; expected Nx0 (account), Nx1 (mint), Nx5 (multi-sig), Nx7 (DAO), 0x + 40 hex or 0x + 64 hex`, text);
}

/** 32 address bytes from any accepted form (see parseAddressDetailed). */
export function parseAddress(text: string): Uint8Array {
  return parseAddressDetailed(text).bytes;
}

/** A mint: `Nx1…` or `0x` + 64 hex. */
export function parseMint(text: string): Uint8Array {
  const parsed = parseAddressDetailed(text);
  if (parsed.kind !== 'mint' && parsed.kind !== 'hex32') {
    throw new AddressError('BAD_PREFIX', `mint ${quote(text)}: expected Nx1… or 0x + 64 hex, got a ${parsed.kind} address`, text);
  }
  return parsed.bytes;
}

/** A hash: `Nxh…` or `0x` + 64 hex. */
export function parseHash(text: string): Uint8Array {
  if (typeof text !== 'string') throw new AddressError('NOT_A_STRING', `hash must be a string, got ${typeof text}`, text);
  if (text.startsWith(HASH_PREFIX)) return decodeBase58Body(text, 'hash');
  if (text.startsWith('0x') || text.startsWith('0X')) {
    const parsed = parseAddressDetailed(text);
    if (parsed.kind === 'hex32') return parsed.bytes;
    throw new AddressError('BAD_LENGTH', `hash ${quote(text)}: 0x form must have 64 hex digits`, text);
  }
  throw new AddressError('BAD_PREFIX', `hash ${quote(text)}: expected Nxh… or 0x + 64 hex`, text);
}

/** True when `text` parses as an address of any accepted form. */
export function isAddress(text: string): boolean {
  try {
    parseAddressDetailed(text);
    return true;
  } catch {
    return false;
  }
}

const BASE58_ALPHABET = /^[1-9A-HJ-NP-Za-km-z]*$/;

function decodeBase58Body(text: string, what: 'account' | 'mint' | 'hash' | 'multi-sig' | 'DAO'): Uint8Array {
  const body = text.slice(3);
  if (body.length === 0) throw new AddressError('BAD_LENGTH', `${what} ${quote(text)}: nothing after the ${text.slice(0, 3)} prefix`, text);
  if (!BASE58_ALPHABET.test(body)) {
    const bad = [...body].find((c) => !BASE58_ALPHABET.test(c)) ?? '';
    throw new AddressError('BAD_BASE58',
      `${what} ${quote(text)}: ${quote(bad)} is not a base58 character (0, O, I and l are excluded)`, text);
  }
  const bytes = bs58.decode(body);
  if (bytes.length !== ADDRESS_LENGTH) {
    throw new AddressError('BAD_LENGTH', `${what} ${quote(text)}: decodes to ${bytes.length} bytes, expected ${ADDRESS_LENGTH}`, text);
  }
  return bytes;
}

function check32(bytes: Uint8Array, what: string): Uint8Array {
  if (!(bytes instanceof Uint8Array) || bytes.length !== ADDRESS_LENGTH) {
    const got = bytes instanceof Uint8Array ? `${bytes.length} bytes` : typeof bytes;
    throw new AddressError('BAD_LENGTH', `${what} must be ${ADDRESS_LENGTH} bytes, got ${got}`, bytes);
  }
  return bytes;
}

function firstBadHex(body: string): string {
  return [...body].find((c) => !/[0-9a-fA-F]/.test(c)) ?? '';
}

function quote(text: string): string {
  return JSON.stringify(text.length > 100 ? text.slice(0, 100) + '…' : text);
}
