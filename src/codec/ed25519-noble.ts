import * as ed from '@noble/ed25519';
import { ed25519StrictPrecheck } from './ed25519-rule.js';

/**
 * The browser path for Ed25519 (no node: imports; SHA-512 comes from WebCrypto through noble's
 * `hashes.sha512Async`). It applies exactly the rule node:crypto applies (ed25519-rule.ts):
 * the shared byte prechecks, then the cofactorless equation [S]B − [k]A == R.
 *
 * Why not `ed.verify(sig, msg, pk, { zip215: false })` alone: noble's strict branch still checks
 * the cofactored equation [8]([S]B − R − [k]A) = 0, while OpenSSL checks the cofactorless one. A
 * signature made for a public key with a torsion component passes the first and fails the second
 * (test/unit/keys.test.ts "mixed-order key"), so the two paths would disagree. Here noble supplies
 * the point arithmetic and the equation is OpenSSL's.
 */

const L = 2n ** 252n + 27742317777372353535851937790883648493n;

function numberLE(bytes: Uint8Array): bigint {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i]!);
  return n;
}

/** Strict Ed25519 verification on @noble/ed25519; same verdicts as keys.ts verifyEd25519. */
export async function verifyEd25519Noble(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): Promise<boolean> {
  const parts = prepare(publicKey, message, signature);
  return parts !== undefined && check(parts, await ed.hashes.sha512Async(parts.hashInput));
}

/**
 * The same, synchronous, with a SHA-512 the caller supplies (the browser build's, from
 * @noble/hashes: WebCrypto has no synchronous digest); for code paths that cannot await, such as
 * the certificate checks block replay shares with import (src/browser/shims/node-crypto.ts).
 */
export function verifyEd25519NobleSync(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array, sha512: (data: Uint8Array) => Uint8Array): boolean {
  const parts = prepare(publicKey, message, signature);
  return parts !== undefined && check(parts, sha512(parts.hashInput));
}

interface Parts {
  A: ed.Point;
  R: ed.Point;
  s: bigint;
  /** R ‖ A ‖ M, whose SHA-512 is k */
  hashInput: Uint8Array;
}

function prepare(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): Parts | undefined {
  if (!ed25519StrictPrecheck(publicKey, signature)) return undefined;
  let A: ed.Point;
  let R: ed.Point;
  try {
    A = ed.Point.fromBytes(publicKey, false);
    R = ed.Point.fromBytes(signature.subarray(0, 32), false);
  } catch {
    return undefined; // not a point on the curve
  }
  const hashInput = new Uint8Array(64 + message.length);
  hashInput.set(signature.subarray(0, 32), 0);
  hashInput.set(publicKey, 32);
  hashInput.set(message, 64);
  return { A, R, s: numberLE(signature.subarray(32, 64)), hashInput };
}

/** The cofactorless equation [S]B − [k]A == R (OpenSSL's). */
function check({ A, R, s }: Parts, digest: Uint8Array): boolean {
  const k = numberLE(digest) % L;
  return ed.Point.BASE.multiply(s, false).subtract(A.multiply(k, false)).equals(R);
}

/** Ed25519 signing on noble (RFC 8032 signatures are deterministic: byte-identical to node:crypto). */
export async function signEd25519Noble(seed: Uint8Array, message: Uint8Array): Promise<Uint8Array> {
  return ed.signAsync(message, seed);
}

export async function ed25519PublicKeyNoble(seed: Uint8Array): Promise<Uint8Array> {
  return ed.getPublicKeyAsync(seed);
}
