import { describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import {
  AddressError, NATIVE_MINT, PROTOCOL_ADDRESS, accountAddressOf, deriveAccount, encodeAccount, encodeEvm, encodeHash,
  encodeHex32, encodeMint, encodePrefixed, isAddress, isNativeMint, isProtocolAddress, keyHashOf, parseAddress, parseAddressDetailed, parseHash,
  parseMint, systemAccountIndex, systemAddress,
} from '../../src/codec/address.js';
import { sha256, toHex } from '../../src/codec/hash.js';
import { randomBytes } from 'node:crypto';
import { base58Encode } from '../../src/codec/base58.js';
import vectors from './codec-vectors.json' with { type: 'json' };

function bytes(fill: (i: number) => number): Uint8Array {
  return Uint8Array.from({ length: 32 }, (_, i) => fill(i));
}

function expectAddressError(fn: () => unknown, code: AddressError['code'], fragment: string): void {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AddressError);
    expect((error as AddressError).code).toBe(code);
    expect((error as AddressError).message).toContain(fragment);
    return;
  }
  throw new Error('expected an AddressError');
}

describe('address encodings', () => {
  const sample = bytes((i) => (i * 37 + 11) & 0xff);

  it('round-trips Nx0, Nx1, Nxh and both 0x forms', () => {
    expect(encodeAccount(sample).startsWith('Nx0')).toBe(true);
    expect(parseAddressDetailed(encodeAccount(sample))).toEqual({ kind: 'account', bytes: sample });
    expect(parseAddressDetailed(encodeMint(sample))).toEqual({ kind: 'mint', bytes: sample });
    expect(parseHash(encodeHash(sample))).toEqual(sample);
    expect(parseAddressDetailed(encodeHex32(sample))).toEqual({ kind: 'hex32', bytes: sample });
    expect(encodeHex32(sample)).toBe('0x' + toHex(sample));
  });

  it('parses a multi-sig (Nx5) and a DAO (Nx7) as accounts, and names them in the prefix error', () => {
    expect(parseAddressDetailed(encodePrefixed('Nx5', sample))).toEqual({ kind: 'account', bytes: sample });
    expect(parseAddressDetailed(encodePrefixed('Nx7', sample))).toEqual({ kind: 'account', bytes: sample });
    expect(() => parseAddress('Nx7' + '0OIl')).toThrow(AddressError);
    expect(() => parseAddress('Nx4abc')).toThrow(/Nx5 \(multi-sig\), Nx7 \(DAO\)/);
  });

  it('round-trips leading zero bytes (base58 "1" digits) and the all-zero native mint', () => {
    const leading = bytes((i) => (i < 5 ? 0 : i));
    expect(parseAddress(encodeAccount(leading))).toEqual(leading);
    expect(encodeMint(NATIVE_MINT)).toBe('Nx1' + '1'.repeat(32));
    expect(parseMint(encodeMint(NATIVE_MINT))).toEqual(NATIVE_MINT);
    expect(isNativeMint(parseMint('0x' + '00'.repeat(32)))).toBe(true);
  });

  it('EVM form is the last 20 bytes; a 20-byte 0x address is right-aligned into 32 bytes (spec §1.6)', () => {
    const evm = encodeEvm(sample);
    expect(evm).toBe('0x' + toHex(sample.subarray(12)));
    const parsed = parseAddressDetailed(evm);
    expect(parsed.kind).toBe('evm');
    expect(parsed.bytes.subarray(0, 12)).toEqual(new Uint8Array(12));
    expect(parsed.bytes.subarray(12)).toEqual(sample.subarray(12));
    expect(parseAddress(evm.toUpperCase().replace('0X', '0x'))).toEqual(parsed.bytes);
  });

  it('derives the account as SHA256(public key) (spec §5.4), matching the committed vector', () => {
    const pub = Buffer.from(vectors.signed_transfer.public_key, 'hex');
    expect(deriveAccount(pub)).toEqual(sha256(pub));
    expect(accountAddressOf(pub)).toBe(vectors.signed_transfer.address);
    expect(encodeAccount(deriveAccount(pub))).toBe('Nx0' + bs58.encode(sha256(pub)));
  });

  it('keyHashOf is SHA256(public key) for Ed25519 and ML-DSA-65 keys, memoised by the key bytes, not by the array', () => {
    const shared = new Uint8Array(64);
    for (let round = 0; round < 3; round++) {
      const keys = Array.from({ length: 50 }, () => new Uint8Array(randomBytes(32)));
      for (const key of keys) {
        // a view into a buffer that is overwritten next: the memo must hold its own copy of the key
        shared.set(key, 16);
        const view = shared.subarray(16, 48);
        expect(toHex(keyHashOf(view))).toBe(toHex(sha256(key)));
        shared.fill(0xaa);
        expect(keyHashOf(key)).toBe(keyHashOf(Uint8Array.from(key)));
        expect(toHex(keyHashOf(key))).toBe(toHex(sha256(key)));
      }
    }
    const mlDsa = new Uint8Array(randomBytes(1952));
    expect(toHex(keyHashOf(mlDsa))).toBe(toHex(sha256(mlDsa)));
  });

  it('system and protocol addresses (spec §1.9)', () => {
    for (let i = 1; i <= 8; i++) {
      const a = systemAddress(i);
      expect(encodeHex32(a)).toBe('0x' + '00'.repeat(31) + i.toString(16).padStart(2, '0'));
      expect(systemAccountIndex(a)).toBe(i);
    }
    expect(() => systemAddress(0)).toThrow(RangeError);
    expect(() => systemAddress(9)).toThrow(RangeError);
    expect(systemAccountIndex(NATIVE_MINT)).toBeUndefined();
    expect(encodeHex32(PROTOCOL_ADDRESS)).toBe('0x' + 'ff'.repeat(32));
    expect(isProtocolAddress(parseAddress('0x' + 'ff'.repeat(32)))).toBe(true);
    expect(isProtocolAddress(systemAddress(8))).toBe(false);
  });

  it('encodeAccount writes system accounts in their 0x 32-byte form and reads both forms back (spec §1.6)', () => {
    const governance = new Uint8Array(32);
    governance[31] = 9; // the governance authority 0x00…09 (issue 41 item 9)
    for (const a of [systemAddress(1), systemAddress(8), governance, PROTOCOL_ADDRESS]) {
      const text = encodeAccount(a);
      expect(text).toBe(encodeHex32(a));
      expect(parseAddress(text)).toEqual(a);
      expect(parseAddress('Nx0' + bs58.encode(a))).toEqual(a);
    }
    // Neighbours of the system range stay Nx0…: the zero account, 0x00…0a, 0xff…fe.
    const ten = new Uint8Array(32);
    ten[31] = 10;
    const almost = new Uint8Array(32).fill(0xff);
    almost[31] = 0xfe;
    for (const a of [NATIVE_MINT, ten, almost]) expect(encodeAccount(a)).toBe('Nx0' + bs58.encode(a));
  });
});

describe('address parse errors name what was wrong', () => {
  const good = encodeAccount(bytes((i) => i + 1));

  it('bad prefix', () => {
    expectAddressError(() => parseAddress('Nx2' + good.slice(3)), 'BAD_PREFIX', 'unknown prefix');
    expectAddressError(() => parseAddress(good.slice(3)), 'BAD_PREFIX', 'unknown prefix');
    expectAddressError(() => parseAddress(''), 'BAD_PREFIX', 'unknown prefix');
    expectAddressError(() => parseAddress(encodeHash(bytes((i) => i))), 'BAD_PREFIX', 'is a hash');
    expectAddressError(() => parseMint(good), 'BAD_PREFIX', 'got a account address');
    expectAddressError(() => parseMint('0x' + 'ab'.repeat(20)), 'BAD_PREFIX', 'got a evm address');
    expectAddressError(() => parseHash(good), 'BAD_PREFIX', 'expected Nxh');
  });

  it('bad base58 (0, O, I, l and non-ASCII)', () => {
    for (const bad of ['0', 'O', 'I', 'l', '+', 'é']) {
      expectAddressError(() => parseAddress(good.slice(0, 10) + bad + good.slice(11)), 'BAD_BASE58', `"${bad}" is not a base58 character`);
    }
  });

  it('wrong length', () => {
    expectAddressError(() => parseAddress('Nx0'), 'BAD_LENGTH', 'nothing after');
    expectAddressError(() => parseAddress(good.slice(0, -3)), 'BAD_LENGTH', 'expected 32');
    expectAddressError(() => parseAddress(good + 'zzz'), 'BAD_LENGTH', 'expected 32');
    expectAddressError(() => parseAddress('Nx0' + bs58.encode(new Uint8Array(33).fill(7))), 'BAD_LENGTH', 'decodes to 33 bytes');
    expectAddressError(() => parseAddress('0x' + 'ab'.repeat(21)), 'BAD_LENGTH', 'got 42');
    expectAddressError(() => parseAddress('0x'), 'BAD_LENGTH', 'got 0');
    expectAddressError(() => parseHash('0x' + 'ab'.repeat(20)), 'BAD_LENGTH', '64 hex digits');
    expectAddressError(() => encodeAccount(new Uint8Array(31)), 'BAD_LENGTH', 'got 31 bytes');
  });

  it('bad hex and non-strings', () => {
    expectAddressError(() => parseAddress('0x' + 'g'.repeat(40)), 'BAD_HEX', '"g" is not a hex digit');
    expectAddressError(() => parseAddress(42 as unknown as string), 'NOT_A_STRING', 'got number');
    expect(isAddress(good)).toBe(true);
    expect(isAddress('nope')).toBe(false);
  });
});

describe('0x addresses decoded in place (hexInto)', () => {
  it('equals Buffer hex decoding for both lengths, in any letter case', () => {
    for (let n = 0; n < 200; n++) {
      const raw = randomBytes(32);
      const hex = raw.toString('hex');
      const mixed = [...hex].map((c, i) => ((n + i) % 3 === 0 ? c.toUpperCase() : c)).join('');
      const full = parseAddressDetailed((n % 2 ? '0X' : '0x') + mixed);
      expect(full.kind).toBe('hex32');
      expect(toHex(full.bytes)).toBe(hex);
      const evm = parseAddressDetailed('0x' + mixed.slice(24));
      expect(evm.kind).toBe('evm');
      expect(toHex(evm.bytes)).toBe('00'.repeat(12) + hex.slice(24));
    }
  });

  it('refuses a non-hex character at any position of either length, naming it', () => {
    for (const digits of [40, 64]) {
      for (let at = 0; at < digits; at++) {
        for (const bad of ['g', 'G', ' ', '\u00e9', '\u0130', '/', ':', '@', '`']) {
          const body = 'a'.repeat(at) + bad + 'a'.repeat(digits - at - 1);
          expectAddressError(() => parseAddress('0x' + body), 'BAD_HEX', `"${bad}" is not a hex digit`);
        }
      }
    }
    // A bad character outranks a bad length, as before the in-place path.
    expectAddressError(() => parseAddress('0x' + 'z'.repeat(41)), 'BAD_HEX', '"z" is not a hex digit');
  });
});

describe('base58Encode (the 32-byte fast path)', () => {
  it('matches bs58 for every count of leading zero bytes and random values', () => {
    const cases: Uint8Array[] = [new Uint8Array(32), new Uint8Array(32).fill(0xff)];
    for (let zeros = 0; zeros <= 32; zeros++) {
      const b = new Uint8Array(randomBytes(32));
      b.fill(0, 0, zeros);
      cases.push(b);
    }
    for (let i = 0; i < 5_000; i++) cases.push(new Uint8Array(randomBytes(32)));
    for (const c of cases) expect(base58Encode(c)).toBe(bs58.encode(c));
  });

  it('hands other lengths to bs58', () => {
    const b = new Uint8Array([0, 0, 1, 2, 3]);
    expect(base58Encode(b)).toBe(bs58.encode(b));
  });
});
