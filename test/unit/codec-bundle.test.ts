import { describe, expect, it } from 'vitest';
import * as borsh from 'borsh';
import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
import {
  CodecError, MAX_OPERATIONS, bundleHash, decodeBundle, decodeBundleHex, encodeBundle, encodeForSigning, signingHash, signingHashOfEncoded,
  type Bundle, type Operation,
} from '../../src/codec/bundle.js';
import { BorshReader, BorshWriter } from '../../src/codec/borsh.js';
import { encodeHash, systemAddress } from '../../src/codec/address.js';
import { blake3, toHex } from '../../src/codec/hash.js';
import { signBundle, verifyBundleSignature } from '../../src/codec/keys.js';
import vectors from './codec-vectors.json' with { type: 'json' };

const v = vectors.signed_transfer;
const hex = (h: string): Uint8Array => new Uint8Array(Buffer.from(h, 'hex'));

function expectCodecError(fn: () => unknown, code: CodecError['code'], field: string): CodecError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(CodecError);
    const e = error as CodecError;
    expect(e.code).toBe(code);
    expect(e.field).toBe(field);
    expect(e.message).toContain(field);
    return e;
  }
  throw new Error(`expected CodecError ${code} on ${field}`);
}

const filled = (n: number, b: number): Uint8Array => new Uint8Array(n).fill(b);

function everyOperation(): Operation[] {
  return [
    { type: 'Transfer', to: filled(32, 1), token: filled(32, 2), amount: (1n << 128n) - 1n },
    { type: 'AddKey', pubkey: filled(1952, 3), keyType: 1, role: 2 },
    { type: 'RemoveKey', pubkeyHash: filled(32, 4) },
    { type: 'RotateKey', oldPubkeyHash: filled(32, 5), newPubkey: filled(32, 6), newKeyType: 0 },
    { type: 'CreateToken', name: 'Zürich Coin ✓', symbol: 'ZRC', decimals: 18, supply: 10n ** 27n, owner: filled(32, 7) },
    { type: 'RotateConsensusKey', newConsensusPubkey: filled(32, 8) },
  ];
}

function sampleBundle(overrides: Partial<Bundle> = {}): Bundle {
  return {
    userAccount: filled(32, 9), operations: everyOperation(), maxGas: 100_000n, maxPriorityFee: 5n,
    validUntil: 1_800_000_000n, nonce: 42n, signature: filled(64, 10), expiryTimestamp: 1_799_999_999n,
    senderPubkey: filled(32, 11), ...overrides,
  };
}

describe('fixed vectors (test/unit/codec-vectors.json)', () => {
  const unsigned: Bundle = {
    userAccount: hex(v.unsigned_bytes.slice(0, 64)),
    operations: [{ type: 'Transfer', to: systemAddress(2), token: new Uint8Array(32), amount: BigInt(v.amount) }],
    maxGas: BigInt(v.max_gas), maxPriorityFee: BigInt(v.max_priority_fee), validUntil: BigInt(v.valid_until),
    nonce: BigInt(v.nonce), signature: new Uint8Array(0), senderPubkey: hex(v.public_key),
  };

  it('encodes, signs and hashes the signed transfer byte for byte', () => {
    expect(toHex(encodeBundle(unsigned))).toBe(v.unsigned_bytes);
    expect(toHex(signingHash(unsigned))).toBe(v.signing_hash);
    const signed = signBundle(unsigned, v.secret_key, 'Ed25519');
    expect(toHex(signed.signature)).toBe(v.signature);
    const bytes = encodeBundle(signed);
    expect(toHex(bytes)).toBe(v.bytes);
    expect(toHex(bundleHash(bytes))).toBe(v.bundle_hash);
    expect(encodeHash(bundleHash(bytes))).toBe(v.bundle_hash_text);
    expect(verifyBundleSignature(signed, hex(v.public_key))).toBe(true);
  });

  it('decodes the vector back, and the signing hash ignores the signature', () => {
    const decoded = decodeBundle(hex(v.bytes));
    expect(toHex(decoded.signature)).toBe(v.signature);
    expect(decoded.expiryTimestamp).toBeUndefined();
    expect(toHex(signingHash(decoded))).toBe(v.signing_hash);
    expect(toHex(encodeForSigning(decoded))).toBe(v.unsigned_bytes);
    expect(decodeBundleHex('0x' + v.bytes)).toEqual(decoded);
  });

  it('the signing hash from the received bytes equals the one from re-encoding (admission, docs/performance.md)', () => {
    expect(toHex(signingHashOfEncoded(hex(v.bytes), decodeBundle(hex(v.bytes))))).toBe(v.signing_hash);
    for (const signature of [new Uint8Array(0), new Uint8Array(64).fill(9), new Uint8Array(3309).fill(1)]) {
      for (const expiryTimestamp of [undefined, 1234n]) {
        for (const senderPubkey of [undefined, new Uint8Array(32).fill(4), new Uint8Array(1952).fill(5)]) {
          const bundle: Bundle = { ...unsigned, signature, expiryTimestamp, senderPubkey };
          const bytes = encodeBundle(bundle);
          const decoded = decodeBundle(bytes);
          expect(toHex(signingHashOfEncoded(bytes, decoded))).toBe(toHex(signingHash(decoded)));
        }
      }
    }
  });

  it('agrees with an independent Blake3 (@noble/hashes) and the borsh package encoding', () => {
    expect(toHex(nobleBlake3(hex(v.bytes)))).toBe(v.bundle_hash);
    expect(toHex(blake3(new Uint8Array(0)))).toBe('af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262');
    const bytes32 = { array: { type: 'u8', len: 32 } } as const;
    const schema = {
      struct: {
        user_account: bytes32,
        operations: { array: { type: { enum: [{ struct: { Transfer: { struct: { to: bytes32, token: bytes32, amount: 'u128' } } } }] } } },
        max_gas: 'u64', max_priority_fee: 'u64', valid_until: 'u64', nonce: 'u64',
        signature: { array: { type: 'u8' } },
        expiry_timestamp: { option: 'u64' },
        sender_pubkey: { option: { array: { type: 'u8' } } },
      },
    } as const;
    const d = decodeBundle(hex(v.bytes));
    const op = d.operations[0]!;
    if (op.type !== 'Transfer') throw new Error('vector holds a transfer');
    const viaPackage = borsh.serialize(schema as unknown as borsh.Schema, {
      user_account: [...d.userAccount],
      operations: [{ Transfer: { to: [...op.to], token: [...op.token], amount: op.amount } }],
      max_gas: d.maxGas, max_priority_fee: d.maxPriorityFee, valid_until: d.validUntil, nonce: d.nonce,
      signature: [...d.signature], expiry_timestamp: 1_700_000_000n, sender_pubkey: [...d.senderPubkey!],
    });
    expect(toHex(viaPackage)).toBe(toHex(encodeBundle({ ...d, expiryTimestamp: 1_700_000_000n })));
  });
});

describe('round trips', () => {
  it('every operation variant, both options present and absent', () => {
    for (const b of [sampleBundle(), sampleBundle({ expiryTimestamp: undefined, senderPubkey: undefined, signature: new Uint8Array(0) })]) {
      const bytes = encodeBundle(b);
      const decoded = decodeBundle(bytes);
      expect(decoded).toEqual(b);
      expect(encodeBundle(decoded)).toEqual(bytes); // canonical: decode → encode is the identity
    }
  });

  it('decoded byte fields are copies, not views of the input', () => {
    const bytes = encodeBundle(sampleBundle());
    const decoded = decodeBundle(Buffer.from(bytes));
    bytes.fill(0);
    expect(decoded.userAccount).toEqual(filled(32, 9));
    expect(decoded.userAccount).not.toBeInstanceOf(Buffer);
  });

  it('random bundles re-encode to the same bytes', () => {
    let seed = 12345;
    const rnd = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
    const rb = (n: number): Uint8Array => Uint8Array.from({ length: n }, () => rnd() & 0xff);
    for (let i = 0; i < 200; i++) {
      const b = sampleBundle({
        operations: everyOperation().filter(() => rnd() % 2 === 0),
        nonce: BigInt(rnd()) << BigInt(rnd() % 33), signature: rb([0, 64, 3309][rnd() % 3]!),
        expiryTimestamp: rnd() % 2 ? BigInt(rnd()) : undefined, senderPubkey: rnd() % 2 ? rb(rnd() % 2 ? 32 : 1952) : undefined,
      });
      const bytes = encodeBundle(b);
      expect(encodeBundle(decodeBundle(bytes))).toEqual(bytes);
    }
  });
});

describe('non-canonical input is refused with the field named', () => {
  const full = encodeBundle(sampleBundle());

  it('truncated at every byte offset', () => {
    for (let cut = 0; cut < full.length; cut++) {
      let error: unknown;
      try {
        decodeBundle(full.subarray(0, cut));
      } catch (e) {
        error = e;
      }
      expect(error, `cut at ${cut}`).toBeInstanceOf(CodecError);
      expect((error as CodecError).code, `cut at ${cut}`).toBe('TRUNCATED');
    }
    expectCodecError(() => decodeBundle(full.subarray(0, 10)), 'TRUNCATED', 'user_account');
    expectCodecError(() => decodeBundle(full.subarray(0, 40)), 'TRUNCATED', 'operations[0].to');
  });

  it('a trailing byte', () => {
    const e = expectCodecError(() => decodeBundle(Uint8Array.from([...full, 0])), 'TRAILING_BYTES', 'bundle');
    expect(e.offset).toBe(full.length);
  });

  it('option tag 2 on expiry_timestamp and sender_pubkey', () => {
    const b = sampleBundle({ expiryTimestamp: undefined, senderPubkey: undefined });
    const bytes = encodeBundle(b);
    const expiryAt = bytes.length - 2;
    const bad1 = bytes.slice();
    bad1[expiryAt] = 2;
    expectCodecError(() => decodeBundle(bad1), 'BAD_OPTION_TAG', 'expiry_timestamp');
    const bad2 = bytes.slice();
    bad2[bytes.length - 1] = 2;
    expectCodecError(() => decodeBundle(bad2), 'BAD_OPTION_TAG', 'sender_pubkey');
  });

  it('bool byte 2 (BorshReader; no released operation carries a bool yet)', () => {
    expect(new BorshReader(Uint8Array.of(1)).bool('enable')).toBe(true);
    expectCodecError(() => new BorshReader(Uint8Array.of(2)).bool('enable'), 'BAD_BOOL', 'enable');
    expectCodecError(() => new BorshWriter().bool(1 as unknown as boolean, 'enable'), 'BAD_TYPE', 'enable');
  });

  it('unknown and reserved discriminants', () => {
    const b = sampleBundle({ operations: [{ type: 'RemoveKey', pubkeyHash: filled(32, 1) }] });
    const bytes = encodeBundle(b);
    for (const disc of [27, 84, 91, 93, 115, 118, 120, 255]) { // 26, 71–76 the bridge (docs/bridge.md), 53–70 STD-8 stablecoins (docs/stablecoins.md), 4–14, 36 staking (docs/staking.md), 15–17 upgrades (docs/upgrades.md), 28–31, 34, 35 the DEX and token metadata (docs/dex.md), 32 names (docs/names.md), 37–47 collections (docs/collections.md), 48 programs, 49–50 schedules (docs/intents.md), 51–52 allowances (docs/allowances.md)
      const bad = bytes.slice();
      bad[36] = disc;
      const e = expectCodecError(() => decodeBundle(bad), 'UNKNOWN_DISCRIMINANT', 'operations[0].type');
      expect(e.offset).toBe(36);
    }
  });

  it('invalid UTF-8 in a string', () => {
    const b = sampleBundle({ operations: [{ type: 'CreateToken', name: 'ab', symbol: 'X', decimals: 0, supply: 1n, owner: filled(32, 1) }] });
    const bytes = encodeBundle(b);
    const bad = bytes.slice();
    bad[41] = 0xff; // first byte of the name (32 + 4 + 1 + 4)
    expectCodecError(() => decodeBundle(bad), 'BAD_UTF8', 'operations[0].name');
    expectCodecError(() => encodeBundle({ ...b, operations: [{ ...(b.operations[0] as Operation & { type: 'CreateToken' }), name: '\uD800' }] }),
      'BAD_UTF8', 'operations[0].name');
  });

  it('limits: more than 64 operations, oversized vectors', () => {
    const many = sampleBundle({ operations: Array.from({ length: MAX_OPERATIONS + 1 }, () => everyOperation()[2]!) });
    expectCodecError(() => encodeBundle(many), 'LIMIT_EXCEEDED', 'operations');
    const bytes = encodeBundle(sampleBundle({ operations: [] }));
    bytes.set([65, 0, 0, 0], 32);
    expectCodecError(() => decodeBundle(bytes), 'LIMIT_EXCEEDED', 'operations');
    const huge = encodeBundle(sampleBundle({ operations: [], expiryTimestamp: undefined, senderPubkey: undefined }));
    new DataView(huge.buffer).setUint32(36 + 32, 0xffff_ffff, true);
    expectCodecError(() => decodeBundle(huge), 'LIMIT_EXCEEDED', 'signature');
  });

  it('out-of-range values on encode: u128 ≥ 2^128, negatives, u8 256, u64 2^64, wrong lengths, wrong types', () => {
    const transfer = (amount: bigint): Bundle => sampleBundle({ operations: [{ type: 'Transfer', to: filled(32, 1), token: filled(32, 0), amount }] });
    expectCodecError(() => encodeBundle(transfer(1n << 128n)), 'OUT_OF_RANGE', 'operations[0].amount');
    expectCodecError(() => encodeBundle(transfer(-1n)), 'OUT_OF_RANGE', 'operations[0].amount');
    expect(() => encodeBundle(transfer((1n << 128n) - 1n))).not.toThrow();
    expectCodecError(() => encodeBundle(transfer(5 as unknown as bigint)), 'BAD_TYPE', 'operations[0].amount');
    expectCodecError(() => encodeBundle(sampleBundle({ nonce: 1n << 64n })), 'OUT_OF_RANGE', 'nonce');
    expectCodecError(() => encodeBundle(sampleBundle({ maxGas: -1n })), 'OUT_OF_RANGE', 'max_gas');
    expectCodecError(() => encodeBundle(sampleBundle({ expiryTimestamp: 1n << 64n })), 'OUT_OF_RANGE', 'expiry_timestamp');
    expectCodecError(() => encodeBundle(sampleBundle({
      operations: [{ type: 'CreateToken', name: 'a', symbol: 'A', decimals: 256, supply: 1n, owner: filled(32, 1) }],
    })), 'OUT_OF_RANGE', 'operations[0].decimals');
    expectCodecError(() => encodeBundle(sampleBundle({
      operations: [{ type: 'AddKey', pubkey: filled(32, 1), keyType: 1.5, role: 0 }],
    })), 'BAD_TYPE', 'operations[0].key_type');
    expectCodecError(() => encodeBundle(sampleBundle({ userAccount: filled(31, 1) })), 'BAD_LENGTH', 'user_account');
    expectCodecError(() => encodeBundle(sampleBundle({
      operations: [{ type: 'Bogus' } as unknown as Operation],
    })), 'UNKNOWN_DISCRIMINANT', 'operations[0].type');
  });
});

describe('decode rate', () => {
  it('decodes well over 50k signed transfers per second', () => {
    const bytes = hex(v.bytes);
    for (let i = 0; i < 20_000; i++) decodeBundle(bytes); // warm-up
    const n = 200_000;
    const t0 = performance.now();
    for (let i = 0; i < n; i++) decodeBundle(bytes);
    const decodeRate = n / ((performance.now() - t0) / 1000);
    const t1 = performance.now();
    for (let i = 0; i < n; i++) bundleHash(bytes);
    const hashRate = n / ((performance.now() - t1) / 1000);
    console.log(`decodeBundle ${Math.round(decodeRate)}/s; bundleHash ${Math.round(hashRate)}/s (ratio ${(decodeRate / hashRate).toFixed(2)})`);
    expect(decodeRate).toBeGreaterThan(50_000);
  });
});

describe('DEX and token metadata operations (docs/bundle-format.md 28–31, 34, 35)', () => {
  it('round-trip through the codec byte for byte', () => {
    const operations = [
      { type: 'CreatePool' as const, tokenA: filled(32, 1), tokenB: filled(32, 2), amountA: 10n ** 30n, amountB: 5n, lpLockDuration: 3600n },
      { type: 'AddLiquidity' as const, tokenA: filled(32, 1), tokenB: filled(32, 2), amountA: 1n, amountB: 2n, minLp: 3n },
      { type: 'RemoveLiquidity' as const, tokenA: filled(32, 2), tokenB: filled(32, 1), lpAmount: 4n, minAmountA: 0n, minAmountB: (1n << 128n) - 1n },
      { type: 'Swap' as const, fromToken: filled(32, 1), toToken: filled(32, 2), amountIn: 7n, minAmountOut: 6n },
      { type: 'UpdateTokenMetadata' as const, mint: filled(32, 3), metadataUri: 'ipfs://x', description: '', github: 'g' },
      { type: 'LockTokenMetadata' as const, mint: filled(32, 3) },
    ];
    const bytes = encodeBundle(sampleBundle({ operations }));
    const back = decodeBundle(bytes);
    expect(back.operations).toEqual(operations);
    expect(encodeBundle(back)).toEqual(bytes);
    expect([...bytes.subarray(36, 37)]).toEqual([28]);
  });
});

describe('RegisterProgram (docs/bundle-format.md 48, docs/intents.md "Programs on chain")', () => {
  const op = { type: 'RegisterProgram', name: 'pay-rent', program: '{"name":"pay-rent","steps":["send 1 NTV to alice.vex"]}' } as const;

  it('round-trips byte for byte: discriminant 48, name, then the JSON as a String', () => {
    const bytes = encodeBundle(sampleBundle({ operations: [op] }));
    expect(decodeBundle(bytes).operations).toEqual([op]);
    expect(bytes[36]).toBe(48);
    expect(new DataView(bytes.buffer, bytes.byteOffset).getUint32(37, true)).toBe(8);
    expect(Buffer.from(bytes.subarray(41, 49)).toString()).toBe('pay-rent');
    expect(new DataView(bytes.buffer, bytes.byteOffset).getUint32(49, true)).toBe(op.program.length);
  });

  it('refuses non-UTF-8 JSON, and oversized strings on both sides', () => {
    const bytes = encodeBundle(sampleBundle({ operations: [op] }));
    const bad = bytes.slice();
    bad[53] = 0xff; // first byte of the JSON (36 + 1 + 4 + 8 + 4)
    expectCodecError(() => decodeBundle(bad), 'BAD_UTF8', 'operations[0].program');
    expectCodecError(() => encodeBundle(sampleBundle({ operations: [{ ...op, program: 'x'.repeat(65_537) }] })), 'LIMIT_EXCEEDED', 'operations[0].program');
    expectCodecError(() => encodeBundle(sampleBundle({ operations: [{ ...op, name: 'n'.repeat(1025) }] })), 'LIMIT_EXCEEDED', 'operations[0].name');
  });
});
