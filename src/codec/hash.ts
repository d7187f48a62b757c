import { hash } from 'node:crypto';
import { createBLAKE3, type IHasher } from 'hash-wasm';

/**
 * Hashes used by the protocol: Blake3-256 for bundle, block and mint hashes (facts.md "Transaction
 * bundle", spec §1.7) and SHA-256 for account addresses (spec §1.6, §5.4).
 *
 * hash-wasm compiles its WebAssembly asynchronously, so Blake3 needs one `await initHashing()`
 * before the synchronous helpers work. This module also awaits it at load time (top-level await),
 * so any module that imports `blake3` can call it at once; `initHashing()` stays exported for
 * callers that want to make the dependency explicit (it is idempotent).
 */

let blake3Hasher: IHasher | undefined;
let initPromise: Promise<void> | undefined;

export function initHashing(): Promise<void> {
  initPromise ??= createBLAKE3(256).then((hasher) => {
    blake3Hasher = hasher;
  });
  return initPromise;
}

export function isHashingReady(): boolean {
  return blake3Hasher !== undefined;
}

/** Blake3-256 of `data`; one reused hasher (DEPENDENCIES.md: ~3.2M/s on 100 B, reuse matters). */
export function blake3(data: Uint8Array): Uint8Array {
  const hasher = blake3Hasher;
  if (hasher === undefined) throw new Error('blake3 used before initHashing() resolved');
  hasher.init();
  hasher.update(data);
  // digest('binary') returns a fresh Uint8Array that the caller owns.
  return hasher.digest('binary');
}

/** Blake3-256 of the parts one after the other, as if joined, without joining them. */
export function blake3Parts(...parts: Uint8Array[]): Uint8Array {
  const hasher = blake3Hasher;
  if (hasher === undefined) throw new Error('blake3 used before initHashing() resolved');
  hasher.init();
  for (const part of parts) hasher.update(part);
  return hasher.digest('binary');
}

/**
 * Blake3 keyed_hash (Blake3 §2.3) under one fixed 32-byte key, as a synchronous function on a
 * hasher of its own that every call reuses (the key is set once; `init` keeps it). Async like
 * `initHashing`: a module that needs one awaits it at load time.
 */
export async function keyedBlake3(key: Uint8Array): Promise<(data: Uint8Array) => Uint8Array> {
  if (key.length !== 32) throw new RangeError('a Blake3 key is 32 bytes');
  const hasher = await createBLAKE3(256, key);
  return (data) => {
    hasher.init();
    hasher.update(data);
    return hasher.digest('binary');
  };
}

/** SHA-256 through node:crypto (faster than hash-wasm's, DEPENDENCIES.md). */
export function sha256(data: Uint8Array): Uint8Array {
  // One-shot `hash` (no Hash object: admission hashes a key per bundle, docs/performance.md), and
  // copied out of the Buffer so callers never hold a view on a shared pool slab.
  return new Uint8Array(hash('sha256', data, 'buffer'));
}

const HEX_RE = /^[0-9a-fA-F]*$/;

/** V8 keeps typed arrays of up to this many bytes on its heap (its `typed_array_max_size_in_heap`). */
const ON_HEAP_TYPED_ARRAY_BYTES = 64;

/**
 * A Buffer over `bytes` to read as a string. Up to 64 bytes the array may be on V8's heap (a fresh
 * hash, key or address), and reading its `.buffer` would first move its bytes off the heap (~1 µs):
 * such a short one is copied into a pooled Buffer instead (~0.15 µs). Longer arrays are always off
 * the heap, and are viewed (docs/performance.md "svc_getBalance").
 */
function bufferOf(bytes: Uint8Array): Buffer {
  if (bytes instanceof Buffer) return bytes;
  return bytes.byteLength <= ON_HEAP_TYPED_ARRAY_BYTES ? Buffer.from(bytes) : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Lower-case hex without `0x`. */
export function toHex(bytes: Uint8Array): string {
  return bufferOf(bytes).toString('hex');
}

/** One latin1 character per byte: a cheap Map key for an account or a state key. */
export function toLatin1(bytes: Uint8Array): string {
  return bufferOf(bytes).toString('latin1');
}

/** `0x` + lower-case hex. */
export function toHex0x(bytes: Uint8Array): string {
  return '0x' + toHex(bytes);
}

/**
 * Strict hex decoding, with or without `0x` (svc_submitBundle accepts both, facts.md). Buffer.from
 * silently stops at the first bad character, so the text is checked first. `expectedLength` is in
 * bytes; `what` names the value in the error message.
 */
export function fromHex(text: string, expectedLength?: number, what = 'hex value'): Uint8Array {
  const body = text.startsWith('0x') || text.startsWith('0X') ? text.slice(2) : text;
  if (body.length % 2 !== 0) throw new Error(`${what}: odd number of hex digits (${body.length})`);
  if (!HEX_RE.test(body)) throw new Error(`${what}: not hexadecimal`);
  if (expectedLength !== undefined && body.length !== expectedLength * 2) {
    throw new Error(`${what}: expected ${expectedLength} bytes (${expectedLength * 2} hex digits), got ${body.length / 2} bytes`);
  }
  // Small Buffers are slices of a shared pool; copy so the result owns its ArrayBuffer
  // (it may be transferred to a worker).
  return new Uint8Array(Buffer.from(body, 'hex'));
}

/** Each ASCII character's hex digit value, -1 for a character that is not one. */
const HEX_DIGIT = (() => {
  const t = new Int8Array(128).fill(-1);
  for (let i = 0; i < 10; i++) t[48 + i] = i;
  for (let i = 0; i < 6; i++) t[65 + i] = t[97 + i] = 10 + i;
  return t;
})();

/**
 * `count` bytes from the hex digits of `text` at `from` into `out` at `at`; false at the first
 * character that is not a hex digit (what `out` holds then is unspecified). For a short value read
 * often (an address param): no slice, no pattern test and no Buffer, ~0.1 µs against ~0.3.
 */
export function hexInto(text: string, from: number, out: Uint8Array, at: number, count: number): boolean {
  for (let i = 0; i < count; i++) {
    const a = text.charCodeAt(from + 2 * i);
    const b = text.charCodeAt(from + 2 * i + 1);
    const hi = a < 128 ? HEX_DIGIT[a]! : -1;
    const lo = b < 128 ? HEX_DIGIT[b]! : -1;
    if ((hi | lo) < 0) return false;
    out[at + i] = (hi << 4) | lo;
  }
  return true;
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

await initHashing();
