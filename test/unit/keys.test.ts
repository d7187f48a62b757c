import { describe, expect, it } from 'vitest';
import { createHash, createPublicKey, randomBytes, verify as rawNodeVerify } from 'node:crypto';
import * as ed from '@noble/ed25519';
import {
  ML_DSA65_PUBLIC_KEY_LENGTH, ML_DSA65_SECRET_KEY_LENGTH, ML_DSA65_SIGNATURE_LENGTH, Signer, ed25519PublicKey,
  generateEd25519, generateMlDsa65, parseKeyType, signBundle, signEd25519, signMlDsa65, signatureScheme,
  verifyBundleSignature, verifyEd25519, verifyEd25519OpenSsl, verifyMlDsa65, verifySignature,
} from '../../src/codec/keys.js';
import { SODIUM_NATIVE_PATH, sodiumVerifyEd25519 } from '../../src/codec/ed25519-native.js';
import { ed25519StrictPrecheck } from '../../src/codec/ed25519-rule.js';
import { ed25519PublicKeyNoble, signEd25519Noble, verifyEd25519Noble } from '../../src/codec/ed25519-noble.js';
import { accountAddressOf } from '../../src/codec/address.js';
import { signingHash, type Bundle } from '../../src/codec/bundle.js';

const L = 2n ** 252n + 27742317777372353535851937790883648493n;
const le = (n: bigint): Uint8Array => Uint8Array.from({ length: 32 }, (_, i) => Number((n >> BigInt(8 * i)) & 0xffn));
const numLE = (b: Uint8Array): bigint => b.reduceRight((acc, x) => (acc << 8n) | BigInt(x), 0n);
const cat = (...parts: Uint8Array[]): Uint8Array => Uint8Array.from(parts.flatMap((p) => [...p]));
const sha512 = (b: Uint8Array): Uint8Array => new Uint8Array(createHash('sha512').update(b).digest());
const msg = new TextEncoder().encode('ledger signing hash stand-in');

/**
 * Every path must agree: the node's (libsodium, then OpenSSL for what it refuses), OpenSSL alone
 * (the rule's reference) and noble; returns the common verdict.
 */
async function verdict(pub: Uint8Array, m: Uint8Array, sig: Uint8Array): Promise<boolean> {
  const openSsl = verifyEd25519OpenSsl(pub, m, sig);
  expect(verifyEd25519(pub, m, sig), 'the node\'s path and OpenSSL alone differ').toBe(openSsl);
  expect(await verifyEd25519Noble(pub, m, sig), 'node:crypto and noble verdicts differ').toBe(openSsl);
  // What libsodium accepts, the rule accepts (ed25519-native.ts): never the other way round.
  if (ed25519StrictPrecheck(pub, sig) && sodiumVerifyEd25519(pub, m, sig) === true) expect(openSsl).toBe(true);
  return openSsl;
}

// The eight torsion points, from the order-8 point of libsodium's blacklist.
const T8 = ed.Point.fromBytes(Buffer.from('26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05', 'hex'), false);
const torsion = Array.from({ length: 8 }, (_, i) => (i === 0 ? ed.Point.ZERO : T8.multiply(BigInt(i), false)));

describe('Ed25519: node:crypto and noble agree', () => {
  it('signatures are byte-identical and public keys match', async () => {
    for (let i = 0; i < 20; i++) {
      const { seed, publicKey } = generateEd25519();
      const m = randomBytes(i * 7);
      expect(await ed25519PublicKeyNoble(seed)).toEqual(publicKey);
      const sig = signEd25519(seed, m);
      expect(await signEd25519Noble(seed, m)).toEqual(sig);
      expect(await verdict(publicKey, m, sig)).toBe(true);
    }
  });

  it('RFC 8032 test vector 1 (empty message)', async () => {
    const seed = Buffer.from('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'hex');
    const sig = signEd25519(seed, new Uint8Array(0));
    expect(Buffer.from(ed25519PublicKey(seed)).toString('hex')).toBe('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a');
    expect(Buffer.from(sig).toString('hex')).toBe(
      'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b');
    expect(await verdict(ed25519PublicKey(seed), new Uint8Array(0), sig)).toBe(true);
  });

  it('wrong message, flipped signature bit, other key: refused by both', async () => {
    const { seed, publicKey } = generateEd25519();
    const sig = signEd25519(seed, msg);
    expect(await verdict(publicKey, cat(msg, Uint8Array.of(0)), sig)).toBe(false);
    const flipped = sig.slice();
    flipped[5]! ^= 1;
    expect(await verdict(publicKey, msg, flipped)).toBe(false);
    expect(await verdict(generateEd25519().publicKey, msg, sig)).toBe(false);
    expect(verifyEd25519(publicKey, msg, sig.subarray(0, 63))).toBe(false);
    expect(verifyEd25519(publicKey.subarray(0, 31), msg, sig)).toBe(false);
  });

  it('non-canonical S (S + L) is refused by both', async () => {
    const { seed, publicKey } = generateEd25519();
    const sig = signEd25519(seed, msg);
    const s = numLE(sig.subarray(32));
    const malleated = cat(sig.subarray(0, 32), le(s + L));
    expect(await verdict(publicKey, msg, malleated)).toBe(false);
    // noble's own strict branch refuses it too; the precheck is what guarantees it for node:crypto.
    expect(await ed.verifyAsync(malleated, msg, publicKey, { zip215: false })).toBe(false);
  });

  it('all eight small-order public keys are refused, even with a signature that satisfies the equation', async () => {
    for (const T of torsion) {
      const pub = T.toBytes();
      expect(T.isSmallOrder()).toBe(true);
      expect(ed25519StrictPrecheck(pub, new Uint8Array(64))).toBe(false);
      // R = identity, S = 0: [0]B = R + [k]A holds when [k]A = 0, i.e. for the identity key.
      expect(await verdict(pub, msg, cat(ed.Point.ZERO.toBytes(), le(0n)))).toBe(false);
    }
    // OpenSSL alone accepts the identity key with that forged signature: the precheck is needed.
    const identity = createPublicKey({ key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), ed.Point.ZERO.toBytes()]), format: 'der', type: 'spki' });
    const raw = rawNodeVerify(null, msg, identity, cat(ed.Point.ZERO.toBytes(), le(0n)));
    console.log(`OpenSSL without the precheck on the identity key + (R = identity, S = 0): ${raw}`);
  });

  it('non-canonical encodings of A and R (y ≥ p, negative zero) are refused by both', async () => {
    const { seed, publicKey } = generateEd25519();
    const sig = signEd25519(seed, msg);
    const yIsPPlus1 = Buffer.from('eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', 'hex');
    const negZero = Buffer.from('0100000000000000000000000000000000000000000000000000000000000080', 'hex');
    expect(await verdict(yIsPPlus1, msg, sig)).toBe(false);
    expect(await verdict(negZero, msg, sig)).toBe(false);
    expect(await verdict(publicKey, msg, cat(yIsPPlus1, sig.subarray(32)))).toBe(false);
    expect(await verdict(publicKey, msg, cat(negZero, sig.subarray(32)))).toBe(false);
  });

  it('mixed-order key: noble\'s cofactored check would accept, our rule (cofactorless) refuses on both paths', async () => {
    // A' = [a]B + T8. s = r + k·a satisfies [8][S]B = [8]R + [8][k]A' but not [S]B = R + [k]A'
    // unless 8 | k; pick a message where k mod 8 ≠ 0.
    const a = 123456789123456789n;
    const r = 987654321987654321n;
    const A = ed.Point.BASE.multiply(a).add(T8).toBytes();
    const R = ed.Point.BASE.multiply(r).toBytes();
    for (let i = 0; ; i++) {
      const m = cat(msg, Uint8Array.of(i));
      const k = numLE(sha512(cat(R, A, m))) % L;
      if (k % 8n === 0n) continue;
      const sig = cat(R, le((r + k * a) % L));
      expect(await ed.verifyAsync(sig, m, A, { zip215: false })).toBe(true);
      expect(await verdict(A, m, sig)).toBe(false);
      break;
    }
  });

  it('libsodium loads here, and a valid signature is its verdict alone', () => {
    // The prebuilt addon is part of the install on the project's machines (linux-x64); without it
    // every path would fall back to OpenSSL, the same verdicts but slower.
    expect(SODIUM_NATIVE_PATH).toBeDefined();
    const { seed, publicKey } = generateEd25519();
    expect(sodiumVerifyEd25519(publicKey, msg, signEd25519(seed, msg))).toBe(true);
  });

  it('small-order R: libsodium refuses what the rule accepts, and the node answers the rule', async () => {
    // R = identity: [S]B = R + [k]A holds with S = k·a for an honest key A = [a]B.
    const a = 1234567891234567891n;
    const A = ed.Point.BASE.multiply(a).toBytes();
    const identity = ed.Point.ZERO.toBytes();
    const k = numLE(sha512(cat(identity, A, msg))) % L;
    const forged = cat(identity, le((k * a) % L));
    expect(sodiumVerifyEd25519(A, msg, forged)).toBe(false);
    expect(await verdict(A, msg, forged)).toBe(true);
    // R of order 2, 4 or 8, with a mixed-order key A' = [a]B + T8: [S]B − [k]A' = −[k]T8 with S = k·a,
    // so R = −[k]T8 holds for one message in about eight (k depends on R).
    const mixed = ed.Point.BASE.multiply(a).add(T8).toBytes();
    let found = 0;
    for (let i = 0; found < 3 && i < 400; i++) {
      const R = torsion[1 + (i % 7)]!;
      const m = cat(msg, Uint8Array.of(i & 0xff, i >> 8));
      const kk = numLE(sha512(cat(R.toBytes(), mixed, m))) % L;
      if (!T8.multiply(kk % 8n === 0n ? 8n : kk % 8n, false).negate().equals(R)) continue;
      const sig = cat(R.toBytes(), le((kk * a) % L));
      expect(sodiumVerifyEd25519(mixed, m, sig)).toBe(false);
      expect(await verdict(mixed, m, sig)).toBe(true);
      found++;
    }
    expect(found).toBe(3);
  });

  it('random garbage: identical verdicts', async () => {
    const { seed, publicKey } = generateEd25519();
    for (let i = 0; i < 50; i++) {
      const sig = i % 2 ? randomBytes(64) : signEd25519(seed, msg);
      const pub = i % 3 ? randomBytes(32) : publicKey;
      await verdict(pub, msg, sig);
    }
  });

  it('measures the node\'s path (libsodium) and OpenSSL alone against noble verification', async () => {
    const { seed, publicKey } = generateEd25519();
    const sig = signEd25519(seed, msg);
    const n = 3000;
    const rate = (verify: typeof verifyEd25519): number => {
      const t = performance.now();
      for (let i = 0; i < n; i++) verify(publicKey, msg, sig);
      return n / ((performance.now() - t) / 1000);
    };
    const nodeRate = rate(verifyEd25519);
    const openSslRate = rate(verifyEd25519OpenSsl);
    const t = performance.now();
    for (let i = 0; i < 200; i++) await verifyEd25519Noble(publicKey, msg, sig);
    const nobleRate = 200 / ((performance.now() - t) / 1000);
    console.log(`Ed25519 verify: the node's path ${Math.round(nodeRate)}/s, OpenSSL alone ${Math.round(openSslRate)}/s, noble ${Math.round(nobleRate)}/s`);
    // Rates on a shared machine are not asserted against each other beyond the gross order (a figure
    // for the benches, docs/performance.md), only that neither native path falls to noble's.
    expect(nodeRate).toBeGreaterThan(nobleRate);
    expect(openSslRate).toBeGreaterThan(nobleRate);
  });
});

describe('ML-DSA-65', () => {
  it('sizes are FIPS 204 ML-DSA-65: pk 1952, sk 4032, sig 3309', () => {
    const kp = generateMlDsa65();
    expect(kp.publicKey.length).toBe(ML_DSA65_PUBLIC_KEY_LENGTH);
    expect(kp.secretKey.length).toBe(ML_DSA65_SECRET_KEY_LENGTH);
    const sig = signMlDsa65(kp.secretKey, msg);
    expect(sig.length).toBe(ML_DSA65_SIGNATURE_LENGTH);
    expect([ML_DSA65_PUBLIC_KEY_LENGTH, ML_DSA65_SECRET_KEY_LENGTH, ML_DSA65_SIGNATURE_LENGTH]).toEqual([1952, 4032, 3309]);
  });

  it('signs and verifies; wrong message, wrong key and a flipped bit fail', () => {
    const kp = generateMlDsa65();
    const sig = signMlDsa65(kp.secretKey, msg);
    expect(verifyMlDsa65(kp.publicKey, msg, sig)).toBe(true);
    expect(verifyMlDsa65(kp.publicKey, cat(msg, Uint8Array.of(1)), sig)).toBe(false);
    expect(verifyMlDsa65(generateMlDsa65().publicKey, msg, sig)).toBe(false);
    const flipped = sig.slice();
    flipped[100]! ^= 1;
    expect(verifyMlDsa65(kp.publicKey, msg, flipped)).toBe(false);
    expect(verifyMlDsa65(kp.publicKey, msg, sig.subarray(0, 3293))).toBe(false); // round-3 Dilithium3 size
  });

  it('hedged by default, deterministic on request; keys derive from the 32-byte seed', () => {
    const seed = new Uint8Array(32).fill(7);
    const a = generateMlDsa65(seed);
    expect(generateMlDsa65(seed).publicKey).toEqual(a.publicKey);
    expect(signMlDsa65(a.secretKey, msg, true)).toEqual(signMlDsa65(a.secretKey, msg, true));
    expect(signMlDsa65(a.secretKey, msg)).not.toEqual(signMlDsa65(a.secretKey, msg));
  });
});

describe('scheme by signature length, Signer and signBundle', () => {
  it('tells the scheme by length', () => {
    expect(signatureScheme(new Uint8Array(64))?.name).toBe('Ed25519');
    expect(signatureScheme(new Uint8Array(3309))?.name).toBe('ML-DSA-65');
    expect(signatureScheme(new Uint8Array(3293))).toBeUndefined();
    expect(signatureScheme(new Uint8Array(0))).toBeUndefined();
    expect(parseKeyType('Dilithium3')).toBe('ML-DSA-65');
    expect(() => parseKeyType('RSA')).toThrow(/unknown key type/);
  });

  it('keypair shape of spec §2.5 and address = SHA256(pk)', () => {
    const s = Signer.generate();
    const kp = s.toKeypair();
    expect(kp.key_type).toBe('Ed25519');
    expect(kp.public_key).toMatch(/^[0-9a-f]{64}$/);
    expect(kp.secret_key).toMatch(/^[0-9a-f]{64}$/);
    expect(kp.address).toBe(accountAddressOf(s.publicKey));
    expect(Signer.fromSecretKey(kp.secret_key).publicKey).toEqual(s.publicKey);
    expect(() => Signer.fromSecretKey('abcd')).toThrow(/expected 32 bytes/);
  });

  it('signBundle signs the signing hash with either scheme', () => {
    for (const keyType of ['Ed25519', 'ML-DSA-65'] as const) {
      const s = Signer.generate(keyType);
      const bundle: Bundle = {
        userAccount: s.account, operations: [{ type: 'RemoveKey', pubkeyHash: new Uint8Array(32) }], maxGas: 1n,
        maxPriorityFee: 0n, validUntil: 2n, nonce: 3n, signature: new Uint8Array(0), senderPubkey: s.publicKey,
      };
      const signed = signBundle(bundle, s.secretKeyHex, keyType);
      expect(signed.signature.length).toBe(keyType === 'Ed25519' ? 64 : 3309);
      expect(verifyBundleSignature(signed, s.publicKey)).toBe(true);
      expect(verifySignature(s.publicKey, signingHash(bundle), signed.signature)).toBe(true);
      expect(verifyBundleSignature({ ...signed, nonce: 4n }, s.publicKey)).toBe(false);
      expect(bundle.signature.length).toBe(0); // input not mutated
    }
  });
});
