/**
 * The strict Ed25519 verification rule shared by every verifier in the project
 * (docs/addresses-and-keys.md "Ed25519 verification rule"):
 *
 *   1. public key 32 bytes, signature 64 bytes;
 *   2. S < L (non-canonical S refused, RFC 8032 §5.1.7 step 1);
 *   3. A and R canonical: y < p, and not the "negative zero" x = 0 with the sign bit set
 *      (RFC 8032 §5.1.3 decoding);
 *   4. A not of small order (the 8 torsion points; as libsodium and noble's strict branch);
 *   5. the cofactorless equation [S]B = R + [k]A, compared as canonical R bytes (what OpenSSL,
 *      behind node:crypto, computes).
 *
 * Steps 1–4 are byte checks done here, before either library is called, so node:crypto and the
 * noble path see the same inputs whatever their own policies are.
 *
 * `makeEd25519Precheck` must stay self-contained (no imports, no outer references): the worker
 * pool runs its `toString()` inside the worker, so both threads execute the same code.
 */
export function makeEd25519Precheck(): (publicKey: Uint8Array, signature: Uint8Array) => boolean {
  const hex = (h: string): Uint8Array => {
    const out = new Uint8Array(h.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = parseInt(h.slice(i * 2, i * 2 + 2), 16);
    return out;
  };
  // Little-endian byte strings.
  const L = hex('edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010');
  const P = hex('edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f');
  // y-coordinates (sign bit masked) of the small-order points: y = 0 (order 4), 1 (identity),
  // p − 1 (order 2) and the two order-8 values (libsodium's blacklist, canonical entries).
  const SMALL_ORDER_Y = [
    hex('0000000000000000000000000000000000000000000000000000000000000000'),
    hex('0100000000000000000000000000000000000000000000000000000000000000'),
    hex('ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f'),
    hex('26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05'),
    hex('c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a'),
  ];

  // a (offset `off`, 32 bytes, top bit masked when `mask`) < b, both little-endian.
  const lessThan = (a: Uint8Array, off: number, b: Uint8Array, mask: boolean): boolean => {
    for (let i = 31; i >= 0; i--) {
      const x = i === 31 && mask ? a[off + i]! & 0x7f : a[off + i]!;
      const y = b[i]!;
      if (x !== y) return x < y;
    }
    return false;
  };
  const yEquals = (a: Uint8Array, off: number, b: Uint8Array): boolean => {
    for (let i = 0; i < 31; i++) if (a[off + i] !== b[i]) return false;
    return (a[off + 31]! & 0x7f) === b[31];
  };
  // y = 1 or y = p − 1 means x = 0; with the sign bit set that is a non-canonical encoding.
  const isNegativeZero = (a: Uint8Array, off: number): boolean =>
    (a[off + 31]! & 0x80) !== 0 && (yEquals(a, off, SMALL_ORDER_Y[1]!) || yEquals(a, off, SMALL_ORDER_Y[2]!));

  return (publicKey: Uint8Array, signature: Uint8Array): boolean => {
    if (publicKey.length !== 32 || signature.length !== 64) return false;
    if (!lessThan(signature, 32, L, false)) return false;
    if (!lessThan(publicKey, 0, P, true) || isNegativeZero(publicKey, 0)) return false;
    if (!lessThan(signature, 0, P, true) || isNegativeZero(signature, 0)) return false;
    for (const y of SMALL_ORDER_Y) if (yEquals(publicKey, 0, y)) return false;
    return true;
  };
}

export const ed25519StrictPrecheck: (publicKey: Uint8Array, signature: Uint8Array) => boolean = makeEd25519Precheck();

/** DER SubjectPublicKeyInfo prefix of a raw 32-byte Ed25519 public key (RFC 8410). */
export const ED25519_SPKI_PREFIX_HEX = '302a300506032b6570032100';
/** DER PKCS#8 prefix of a raw 32-byte Ed25519 seed (RFC 8410). */
export const ED25519_PKCS8_PREFIX_HEX = '302e020100300506032b657004220420';
