import { createRequire } from 'node:module';

/**
 * libsodium's Ed25519 verification (`crypto_sign_verify_detached`, through the sodium-native
 * addon's prebuilt binary) as the fast path of the project's one Ed25519 rule
 * (docs/addresses-and-keys.md "Ed25519 verification rule", "Two libraries, one verdict").
 *
 * On the 2-core machine it verifies in roughly half the CPU time OpenSSL takes behind node:crypto
 * (docs/performance.md "2026-12-08, twelfth round"). Its own policy is stricter than the rule: it
 * also refuses a small-order R, which the rule (OpenSSL's cofactorless equation after the strict
 * prechecks) accepts when the equation holds. Everything libsodium accepts, the rule accepts, so a
 * verifier calls libsodium first and asks OpenSSL only about what libsodium refused: the verdict is
 * the rule's, bit for bit, and a valid signature costs one libsodium call.
 *
 * Loaded by path so the verifier pool's eval workers can `require` the same file. When the addon
 * cannot load (another platform without a prebuild, the browser build), both are undefined and
 * every verifier uses OpenSSL alone: the same verdicts, slower.
 */
export interface SodiumVerify {
  crypto_sign_verify_detached(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean;
}

function load(): { sodium: SodiumVerify; path: string } | undefined {
  try {
    const require = createRequire(import.meta.url);
    const path = require.resolve('sodium-native');
    const sodium = require(path) as SodiumVerify;
    return typeof sodium.crypto_sign_verify_detached === 'function' ? { sodium, path } : undefined;
  } catch {
    return undefined;
  }
}

const loaded = load();

/** The addon's entry file, for workers to `require`; undefined when it does not load here. */
export const SODIUM_NATIVE_PATH: string | undefined = loaded?.path;

/**
 * libsodium's verdict on a 64-byte signature and 32-byte key (callers run the rule's prechecks
 * first), or undefined when libsodium is not available. Never throws.
 */
export function sodiumVerifyEd25519(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean | undefined {
  if (!loaded) return undefined;
  try {
    return loaded.sodium.crypto_sign_verify_detached(signature, message, publicKey);
  } catch {
    return false;
  }
}

/** Which library verifies Ed25519 in this process, for the node's start log (docs/operations.md). */
export function ed25519Verifier(): 'libsodium, node:crypto for its refusals' | 'node:crypto' {
  return loaded ? 'libsodium, node:crypto for its refusals' : 'node:crypto';
}
