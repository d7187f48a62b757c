import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { verifyEd25519NobleSync } from '../../codec/ed25519-noble.js';

/**
 * node:crypto in the browser build (scripts/build-browser.mjs maps the import here): what the
 * host modules replay and proofs use, on @noble. SHA-256 for addresses and key hashes, and Ed25519
 * verification under the node's own rule (codec/ed25519-noble.ts: the cofactorless equation
 * OpenSSL applies), so votes and proposer signatures get the same verdicts as in the node.
 * Signing and key generation are not part of the browser build.
 */

class Sha256 {
  private readonly parts: Uint8Array[] = [];
  update(data: Uint8Array | string): this {
    this.parts.push(typeof data === 'string' ? new TextEncoder().encode(data) : data);
    return this;
  }
  digest(encoding?: 'hex' | 'base64url'): Uint8Array | string {
    const total = this.parts.reduce((n, p) => n + p.length, 0);
    const all = new Uint8Array(total);
    let o = 0;
    for (const p of this.parts) {
      all.set(p, o);
      o += p.length;
    }
    const out = sha256(all);
    if (encoding === 'hex') return Array.from(out, (b) => b.toString(16).padStart(2, '0')).join('');
    return Buffer.from(out);
  }
}

export function createHash(algorithm: string): Sha256 {
  if (algorithm !== 'sha256') throw new Error(`the browser build has SHA-256 only, not ${algorithm}`);
  return new Sha256();
}

/** node:crypto's one-shot `hash` (src/codec/hash.ts `sha256`), SHA-256 only, as bytes. */
export function hash(algorithm: string, data: Uint8Array, encoding: 'buffer'): Uint8Array {
  if (algorithm !== 'sha256' || encoding !== 'buffer') throw new Error(`the browser build has SHA-256 as bytes only, not ${algorithm}/${encoding}`);
  return sha256(data);
}

const SPKI_ED25519_LENGTH = 44;

/** A public key object: the raw 32 bytes of an Ed25519 SPKI DER key. */
export function createPublicKey(input: { key: Uint8Array }): { raw: Uint8Array } {
  if (input.key.length !== SPKI_ED25519_LENGTH) throw new Error('the browser build takes Ed25519 SPKI keys only');
  return { raw: input.key.slice(12) };
}

export function verify(_algorithm: null, message: Uint8Array, key: { raw: Uint8Array }, signature: Uint8Array): boolean {
  return verifyEd25519NobleSync(key.raw, message, signature, sha512);
}

export function randomBytes(n: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(n));
}

function notInBrowser(what: string): never {
  throw new Error(`${what} is not part of the browser build (it verifies; it does not sign)`);
}

export function createPrivateKey(): never {
  return notInBrowser('a private key');
}

export function sign(): never {
  return notInBrowser('signing');
}

export type KeyObject = { raw: Uint8Array };
