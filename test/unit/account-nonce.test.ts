import { describe, expect, it } from 'vitest';
import { RecordReader, accountKey, accountNonce, balanceKey, decodeAccount, decodeBalance } from '../../src/core/records.js';
import { randomBytes } from 'node:crypto';
import { StateView } from '../../src/chain/state-view.js';
import { WriteQueue, type WriteQueueDependencies } from '../../src/chain/pipeline/4-write.js';

/** An Account record as the core writes it: nonce u64le, keyCount u16le, then the optional failed-bundle tail. */
function accountRecord(nonce: bigint, keyCount: number, failed: Array<{ hash: number; expiry: bigint }> = []): Uint8Array {
  const out = new Uint8Array(10 + (failed.length ? 1 + 40 * failed.length : 0));
  const dv = new DataView(out.buffer);
  dv.setBigUint64(0, nonce, true);
  dv.setUint16(8, keyCount, true);
  if (failed.length) {
    out[10] = failed.length;
    failed.forEach((f, i) => {
      out.fill(f.hash, 11 + 40 * i, 11 + 40 * i + 32);
      dv.setBigUint64(11 + 40 * i + 32, f.expiry, true);
    });
  }
  return out;
}

describe('accountNonce (the nonce read in place)', () => {
  const nonces = [0n, 1n, 255n, 256n, 65_535n, 0xffff_ffffn, 0x1_0000_0000n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 63n + 12345n, 2n ** 64n - 1n];
  const shapes: Array<[string, (n: bigint) => Uint8Array]> = [
    ['fresh', (n) => accountRecord(n, 0)],
    ['with keys', (n) => accountRecord(n, 3)],
    ['with failed bundles appended', (n) => accountRecord(n, 1, [{ hash: 7, expiry: 1_700_000_000n }, { hash: 9, expiry: 2n ** 64n - 1n }])],
  ];
  for (const [shape, make] of shapes) {
    it(`equals the full decode's nonce: ${shape}`, () => {
      for (const n of nonces) {
        const record = make(n);
        expect(accountNonce(record)).toBe(decodeAccount(record).nonce);
        expect(accountNonce(record)).toBe(n);
      }
    });
  }

  it('reads a record inside a larger buffer (a subarray of the core output)', () => {
    const record = accountRecord(0x0123_4567_89ab_cdefn, 2);
    const big = new Uint8Array(record.length + 13);
    big.set(record, 5);
    const view = big.subarray(5, 5 + record.length);
    expect(accountNonce(view)).toBe(decodeAccount(view).nonce);
  });

  it('refuses a record too short for a nonce', () => {
    expect(() => accountNonce(new Uint8Array(7))).toThrow(RangeError);
  });

  it('WriteQueue.stateNonce and stateNonceOf (by the account\'s latin1): the record\'s nonce, and 0 for an absent account', () => {
    const present = new Uint8Array(32).fill(1);
    const absent = new Uint8Array(32).fill(2);
    // a balance key that shares the account's bytes must not be read as its account record
    const state = new StateView();
    state.apply([{ key: accountKey(present), value: accountRecord(41n, 1, [{ hash: 3, expiry: 5n }]) }, { key: balanceKey(absent, present), value: new Uint8Array(16) }]);
    const queue = new WriteQueue({ state } as unknown as WriteQueueDependencies);
    expect(queue.stateNonce(present)).toBe(41n);
    expect(queue.stateNonce(absent)).toBe(0n);
    expect(queue.stateNonceOf(Buffer.from(present).toString('latin1'))).toBe(41n);
    expect(queue.stateNonceOf(Buffer.from(absent).toString('latin1'))).toBe(0n);
    // high bytes (0x80–0xff) survive the latin1 round trip
    const high = new Uint8Array(32).fill(0xfe);
    state.apply([{ key: accountKey(high), value: accountRecord(7n, 1, []) }]);
    expect(queue.stateNonceOf(Buffer.from(high).toString('latin1'))).toBe(7n);
  });
});

describe('decodeBalance (a Balance record read in place)', () => {
  const strict = (v: Uint8Array) => {
    const r = new RecordReader(v);
    const b = r.u128();
    r.end();
    return b;
  };
  const record = (b: bigint) => {
    const out = new Uint8Array(16);
    new DataView(out.buffer).setBigUint64(0, b & (2n ** 64n - 1n), true);
    new DataView(out.buffer).setBigUint64(8, b >> 64n, true);
    return out;
  };

  it('equals the strict reader on boundaries and random values of every width', () => {
    const values = [0n, 1n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 64n - 1n, 2n ** 64n, 2n ** 127n, 2n ** 128n - 1n];
    for (let n = 0; n < 300; n++) {
      const bits = 1 + (n % 128);
      values.push(BigInt('0x' + randomBytes(16).toString('hex')) & (2n ** BigInt(bits) - 1n));
    }
    for (const b of values) {
      const v = record(b);
      expect(decodeBalance(v)).toBe(b);
      expect(decodeBalance(v)).toBe(strict(v));
      // a view inside a larger buffer, as the StateView's table holds it
      const big = new Uint8Array(40);
      big.set(v, 9);
      expect(decodeBalance(big.subarray(9, 25))).toBe(b);
    }
  });

  it('refuses a record of any other length with the strict reader\'s error', () => {
    for (const length of [0, 1, 8, 15, 17, 32]) {
      const v = new Uint8Array(length);
      expect(() => decodeBalance(v)).toThrow(RangeError);
      expect(() => strict(v)).toThrow(RangeError);
      expect(() => decodeBalance(v)).toThrow(length < 16 ? 'record truncated' : 'trailing bytes in record');
    }
  });
});
