import { createPrivateKey, createPublicKey, randomBytes, sign as nodeSign, verify as nodeVerify, type KeyObject } from 'node:crypto';
import { ml_dsa65 } from '@noble/post-quantum/ml-dsa.js';
import { deriveAccount, encodeAccount } from './address.js';
import { signingHash, type Bundle } from './bundle.js';
import { ED25519_PKCS8_PREFIX_HEX, ED25519_SPKI_PREFIX_HEX, ed25519StrictPrecheck } from './ed25519-rule.js';
import { sodiumVerifyEd25519 } from './ed25519-native.js';
import { fromHex, toHex } from './hash.js';
import * as ABI from '../abi/constants.js';

/**
 * Signing keys (spec §2.5, §5.2–5.4; facts.md "Post-quantum keys"). Ed25519 runs on node:crypto
 * (~14.8k verify/s against ~1k/s for noble, DEPENDENCIES.md) under the strict rule of
 * ed25519-rule.ts; ML-DSA-65 (FIPS 204, the spec's "Dilithium3") runs on @noble/post-quantum.
 * The scheme of a signature is told by its length: 64 or 3,309 bytes.
 */

/** `key_type` byte in AddKey/RotateKey (docs/bundle-format.md). */
export const KeyType = { Ed25519: ABI.KEY_TYPE_ED25519, MlDsa65: ABI.KEY_TYPE_ML_DSA_65 } as const;
export type KeyTypeCode = (typeof KeyType)[keyof typeof KeyType];
/** Text names used by RPC shapes (spec §2.5 `key_type: 'Ed25519'`). */
export type KeyTypeName = 'Ed25519' | 'ML-DSA-65';

// Key and signature sizes: one named constant each in the ABI table (abi/constants.mjs;
// docs/addresses-and-keys.md "Keys").
export const ED25519_PUBLIC_KEY_LENGTH = ABI.ED25519_PUBLIC_KEY_BYTES;
export const ED25519_SEED_LENGTH = ABI.ED25519_SECRET_KEY_BYTES;
export const ED25519_SIGNATURE_LENGTH = ABI.ED25519_SIGNATURE_BYTES;
/** FIPS 204 ML-DSA-65 sizes; the spec's 3,293-byte "Dilithium3" signature is the round-3 size. */
export const ML_DSA65_PUBLIC_KEY_LENGTH = ABI.ML_DSA_65_PUBLIC_KEY_BYTES;
export const ML_DSA65_SECRET_KEY_LENGTH = ABI.ML_DSA_65_SECRET_KEY_BYTES;
export const ML_DSA65_SIGNATURE_LENGTH = ABI.ML_DSA_65_SIGNATURE_BYTES;
/** ML-DSA-65 keys are generated from a 32-byte seed; the wallet keeps the seed as its secret. */
export const ML_DSA65_SEED_LENGTH = 32;

export interface SignatureScheme {
  keyType: KeyTypeCode;
  name: KeyTypeName;
  publicKeyLength: number;
  signatureLength: number;
}

const ED25519_SCHEME: SignatureScheme = {
  keyType: KeyType.Ed25519, name: 'Ed25519', publicKeyLength: ED25519_PUBLIC_KEY_LENGTH, signatureLength: ED25519_SIGNATURE_LENGTH,
};
const ML_DSA65_SCHEME: SignatureScheme = {
  keyType: KeyType.MlDsa65, name: 'ML-DSA-65', publicKeyLength: ML_DSA65_PUBLIC_KEY_LENGTH, signatureLength: ML_DSA65_SIGNATURE_LENGTH,
};

/** The scheme of a signature by its length; undefined for any other length (spec §5.2). */
export function signatureScheme(signature: Uint8Array): SignatureScheme | undefined {
  if (signature.length === ED25519_SIGNATURE_LENGTH) return ED25519_SCHEME;
  if (signature.length === ML_DSA65_SIGNATURE_LENGTH) return ML_DSA65_SCHEME;
  return undefined;
}

/** The scheme of a public key by its length; undefined for any other length. */
export function publicKeyScheme(publicKey: Uint8Array): SignatureScheme | undefined {
  if (publicKey.length === ED25519_PUBLIC_KEY_LENGTH) return ED25519_SCHEME;
  if (publicKey.length === ML_DSA65_PUBLIC_KEY_LENGTH) return ML_DSA65_SCHEME;
  return undefined;
}

/** Accepts `Ed25519`, `ML-DSA-65`, `Dilithium3` (spec name), `0` or `1`. */
export function parseKeyType(value: string | number): KeyTypeName {
  if (value === 'Ed25519' || value === 0) return 'Ed25519';
  if (value === 'ML-DSA-65' || value === 'Dilithium3' || value === 'MlDsa65' || value === 1) return 'ML-DSA-65';
  throw new Error(`unknown key type ${JSON.stringify(value)}; expected Ed25519 or ML-DSA-65 (Dilithium3)`);
}

export function keyTypeCode(name: KeyTypeName): KeyTypeCode {
  return name === 'Ed25519' ? KeyType.Ed25519 : KeyType.MlDsa65;
}

// ---------------------------------------------------------------- Ed25519 (node:crypto)

const SPKI_PREFIX = Buffer.from(ED25519_SPKI_PREFIX_HEX, 'hex');
const PKCS8_PREFIX = Buffer.from(ED25519_PKCS8_PREFIX_HEX, 'hex');

export interface Ed25519Keypair {
  /** 32-byte seed: the secret key of spec §2.5 (64 hex chars). */
  seed: Uint8Array;
  publicKey: Uint8Array;
}

export function generateEd25519(): Ed25519Keypair {
  const seed = new Uint8Array(randomBytes(ED25519_SEED_LENGTH));
  return { seed, publicKey: ed25519PublicKey(seed) };
}

function privateKeyObject(seed: Uint8Array): KeyObject {
  if (seed.length !== ED25519_SEED_LENGTH) throw new Error(`Ed25519 secret key must be a ${ED25519_SEED_LENGTH}-byte seed, got ${seed.length} bytes`);
  return createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

export function ed25519PublicKey(seed: Uint8Array): Uint8Array {
  const der = createPublicKey(privateKeyObject(seed)).export({ format: 'der', type: 'spki' });
  return new Uint8Array(der.subarray(SPKI_PREFIX.length));
}

/** Ed25519 signature (RFC 8032, deterministic) of `message` with a 32-byte seed. */
export function signEd25519(seed: Uint8Array, message: Uint8Array): Uint8Array {
  return new Uint8Array(nodeSign(null, message, privateKeyObject(seed)));
}

// Hot verification reuses KeyObjects (DEPENDENCIES.md: the cached object is what gives ~14.8k/s).
// A bounded map, cleared when full: simple, and a busy node's working set of senders refills it.
const KEY_CACHE_LIMIT = 8192;
const publicKeyCache = new Map<string, KeyObject | null>();

function publicKeyObject(publicKey: Uint8Array): KeyObject | null {
  const id = Buffer.from(publicKey.buffer, publicKey.byteOffset, publicKey.length).toString('latin1');
  let key = publicKeyCache.get(id);
  if (key === undefined) {
    try {
      key = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, publicKey]), format: 'der', type: 'spki' });
    } catch {
      key = null;
    }
    if (publicKeyCache.size >= KEY_CACHE_LIMIT) publicKeyCache.clear();
    publicKeyCache.set(id, key);
  }
  return key;
}

/**
 * Strict Ed25519 verification (ed25519-rule.ts). libsodium answers first when its addon loads; what
 * it refuses, node:crypto decides, so the verdict is always the rule's (ed25519-native.ts). Never throws.
 */
export function verifyEd25519(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (!ed25519StrictPrecheck(publicKey, signature)) return false;
  if (sodiumVerifyEd25519(publicKey, message, signature) === true) return true;
  return openSslVerify(publicKey, message, signature);
}

/**
 * The rule through node:crypto (OpenSSL) alone: the reference the libsodium path is tested against,
 * and the one-core verification the benches measure the node against (issue 45). Never throws.
 */
export function verifyEd25519OpenSsl(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  return ed25519StrictPrecheck(publicKey, signature) && openSslVerify(publicKey, message, signature);
}

function openSslVerify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  const key = publicKeyObject(publicKey);
  if (key === null) return false;
  try {
    return nodeVerify(null, message, key, signature);
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------- ML-DSA-65 (@noble/post-quantum)

export interface MlDsa65Keypair {
  /** 32-byte seed the keys are derived from (FIPS 204 ML-DSA.KeyGen_internal). */
  seed: Uint8Array;
  publicKey: Uint8Array;
  /** Expanded 4,032-byte secret key. */
  secretKey: Uint8Array;
}

export function generateMlDsa65(seed: Uint8Array = new Uint8Array(randomBytes(ML_DSA65_SEED_LENGTH))): MlDsa65Keypair {
  if (seed.length !== ML_DSA65_SEED_LENGTH) throw new Error(`ML-DSA-65 seed must be ${ML_DSA65_SEED_LENGTH} bytes, got ${seed.length}`);
  const { publicKey, secretKey } = ml_dsa65.keygen(seed);
  return { seed, publicKey, secretKey };
}

/**
 * ML-DSA-65 signature (pure ML-DSA, empty context). Hedged (randomised) by default, as FIPS 204
 * recommends; `deterministic` passes `extraEntropy: false` for fixed test vectors.
 */
export function signMlDsa65(secretKey: Uint8Array, message: Uint8Array, deterministic = false): Uint8Array {
  if (secretKey.length !== ML_DSA65_SECRET_KEY_LENGTH) {
    throw new Error(`ML-DSA-65 secret key must be ${ML_DSA65_SECRET_KEY_LENGTH} bytes, got ${secretKey.length}`);
  }
  return ml_dsa65.sign(message, secretKey, deterministic ? { extraEntropy: false } : {});
}

export function verifyMlDsa65(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (publicKey.length !== ML_DSA65_PUBLIC_KEY_LENGTH || signature.length !== ML_DSA65_SIGNATURE_LENGTH) return false;
  try {
    return ml_dsa65.verify(signature, message, publicKey);
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------- scheme-independent

/** Verifies with the scheme the signature length names; false for any other length. */
export function verifySignature(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  const scheme = signatureScheme(signature);
  if (scheme === undefined || publicKey.length !== scheme.publicKeyLength) return false;
  return scheme.keyType === KeyType.Ed25519
    ? verifyEd25519(publicKey, message, signature)
    : verifyMlDsa65(publicKey, message, signature);
}

/**
 * A signing key. `secret` is the 32-byte seed for both schemes (so a secret key is always 64 hex
 * chars, spec §2.5); ML-DSA-65 also accepts its expanded 4,032-byte secret key for signing only.
 */
export class Signer {
  readonly publicKey: Uint8Array;
  private readonly mlDsaSecret: Uint8Array | undefined;

  private constructor(
    readonly keyType: KeyTypeName,
    private readonly secret: Uint8Array,
    publicKey: Uint8Array,
    mlDsaSecret?: Uint8Array,
  ) {
    this.publicKey = publicKey;
    this.mlDsaSecret = mlDsaSecret;
  }

  static generate(keyType: KeyTypeName = 'Ed25519'): Signer {
    return Signer.fromSeed(new Uint8Array(randomBytes(32)), keyType);
  }

  static fromSeed(seed: Uint8Array, keyType: KeyTypeName = 'Ed25519'): Signer {
    if (keyType === 'Ed25519') return new Signer(keyType, seed.slice(), ed25519PublicKey(seed));
    const kp = generateMlDsa65(seed.slice());
    return new Signer(keyType, kp.seed, kp.publicKey, kp.secretKey);
  }

  /** From hex (64 hex chars, optional 0x) or bytes. */
  static fromSecretKey(secretKey: string | Uint8Array, keyType: KeyTypeName = 'Ed25519'): Signer {
    const bytes = typeof secretKey === 'string' ? fromHex(secretKey, 32, `${keyType} secret key`) : secretKey;
    if (bytes.length !== 32) throw new Error(`${keyType} secret key must be a 32-byte seed (64 hex chars), got ${bytes.length} bytes`);
    return Signer.fromSeed(bytes, keyType);
  }

  get keyTypeCode(): KeyTypeCode {
    return keyTypeCode(this.keyType);
  }

  /** Account bytes: SHA256(public_key) (spec §5.4). */
  get account(): Uint8Array {
    return deriveAccount(this.publicKey);
  }

  get address(): string {
    return encodeAccount(this.account);
  }

  get secretKeyHex(): string {
    return toHex(this.secret);
  }

  sign(message: Uint8Array, deterministic = false): Uint8Array {
    return this.keyType === 'Ed25519' ? signEd25519(this.secret, message) : signMlDsa65(this.mlDsaSecret!, message, deterministic);
  }

  /** The keypair shape of spec §2.5 (`svc_generateKeypair`). */
  toKeypair(): { address: string; public_key: string; secret_key: string; key_type: KeyTypeName } {
    return { address: this.address, public_key: toHex(this.publicKey), secret_key: this.secretKeyHex, key_type: this.keyType };
  }
}

/**
 * Signs `bundle` and returns a new bundle carrying the signature (spec §5.2: the signature covers
 * the Blake3 signing hash, i.e. the encoding with an empty signature). `secretKey` is the 32-byte
 * seed (bytes or 64 hex chars) for either scheme, or a 4,032-byte ML-DSA-65 secret key.
 */
export function signBundle(bundle: Bundle, secretKey: string | Uint8Array, keyType: KeyTypeName = 'Ed25519', opts: { deterministic?: boolean } = {}): Bundle {
  const message = signingHash(bundle);
  const bytes = typeof secretKey === 'string' ? fromHex(secretKey, undefined, `${keyType} secret key`) : secretKey;
  const signature = keyType === 'ML-DSA-65' && bytes.length === ML_DSA65_SECRET_KEY_LENGTH
    ? signMlDsa65(bytes, message, opts.deterministic)
    : Signer.fromSecretKey(bytes, keyType).sign(message, opts.deterministic);
  return { ...bundle, signature };
}

/** Verifies a bundle's signature against `publicKey` (scheme by signature length). */
export function verifyBundleSignature(bundle: Bundle, publicKey: Uint8Array): boolean {
  return verifySignature(publicKey, signingHash(bundle), bundle.signature);
}
