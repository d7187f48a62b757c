import { afterAll, describe, expect, it } from 'vitest';
import { balanceKey, decodeBalance, Prefix, symbolKey, tokenKey } from '../../src/core/records.js';
import { compositeKey, fromKey, StateView, toKey } from '../../src/chain/state-view.js';
import { TokenRegistry } from '../../src/chain/token-registry.js';
import { openLocalChain, type LocalChain } from '../../testkit/local-chain.js';

// The svc_getBalance read path (docs/performance.md "svc_getBalance"): the balance key's string
// built in a reused buffer, and symbols resolved through a cache that state writes empty.

const opened: LocalChain[] = [];
afterAll(async () => {
  for (const l of opened) await l.close();
});

function bytes(n: number, fill: (i: number) => number): Uint8Array {
  return Uint8Array.from({ length: n }, (_, i) => fill(i) & 0xff);
}

describe('toKey', () => {
  it('is the latin1 string of the bytes for fresh arrays, views and keys past 64 bytes, and fromKey inverts it', () => {
    const big = bytes(4096, (i) => i * 31 + 7);
    const cases = [
      bytes(1, () => 0xff), bytes(33, (i) => 200 + i), bytes(64, (i) => i), bytes(65, (i) => 255 - i), bytes(300, (i) => i * 3),
      big.subarray(5, 38), big.subarray(100, 165), big.subarray(0, 64),
    ];
    for (const key of cases) {
      const text = toKey(key);
      expect(text).toBe(Buffer.from(key).toString('latin1'));
      expect(text.length).toBe(key.length);
      expect(fromKey(text)).toEqual(Uint8Array.from(key));
    }
    // The source stays as it was (a copy or a view is read, nothing written).
    expect(big[5]).toBe((5 * 31 + 7) & 0xff);
  });
});

describe('compositeKey', () => {
  it('is the latin1 string of the generated balance key, for every byte value, call after call', () => {
    for (let round = 0; round < 64; round++) {
      const address = bytes(32, (i) => i * 7 + round * 13);
      const mint = bytes(32, (i) => 255 - i - round);
      expect(compositeKey(Prefix.BALANCE, address, mint)).toBe(toKey(balanceKey(address, mint)));
    }
  });

  it('refuses fields longer than its buffer instead of writing past it', () => {
    expect(() => compositeKey(Prefix.BALANCE, new Uint8Array(33), new Uint8Array(32))).toThrow(RangeError);
  });

  it('reads through getLatin1 what get reads by the key bytes', () => {
    const view = new StateView();
    const address = bytes(32, (i) => i + 1);
    const mint = bytes(32, () => 0);
    view.apply([{ key: balanceKey(address, mint), value: Uint8Array.of(5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0) }]);
    expect(view.getLatin1(compositeKey(Prefix.BALANCE, address, mint))).toEqual(view.get(balanceKey(address, mint)));
    expect(view.getLatin1(compositeKey(Prefix.BALANCE, mint, address))).toBeUndefined();
  });
});

describe('a balance read and a symbol resolved through the cache', () => {
  it('answers what state holds, before and after the records change', async () => {
    const local = await openLocalChain({});
    opened.push(local);
    const { chain, state } = local;
    const ntv = chain.tokens.resolve('NTV')!;
    expect(ntv.symbol).toBe('NTV');
    // Any spelling resolves, and a second ask is the same token.
    expect(chain.tokens.resolve('ntv')).toBe(ntv);
    expect(chain.tokens.resolve('NTV')).toBe(ntv);

    // Balances read by the composite key equal the record under the generated key.
    const system = new Uint8Array(32);
    system[31] = 1;
    const record = state.get(balanceKey(system, ntv.mint));
    expect(record).toBeDefined();
    expect(chain.balance(system, ntv.mint)).toBe(decodeBalance(record!));
    expect(chain.balance(new Uint8Array(32).fill(0xee), ntv.mint)).toBe(0n);
    expect(() => chain.balance(new Uint8Array(20), ntv.mint)).toThrow(RangeError);

    // A write of the token's record (a supply change) makes a new RegisteredToken: the cache must
    // not answer the old one.
    state.apply([{ key: tokenKey(ntv.mint), value: state.get(tokenKey(ntv.mint))! }]);
    const fresh = chain.tokens.resolve('NTV')!;
    expect(fresh).not.toBe(ntv);
    expect(fresh).toBe(chain.tokens.byMintBytes(ntv.mint));

    // A symbol record written and then deleted: resolved while it is there, unknown after.
    expect(chain.tokens.resolve('ALIAS')).toBeUndefined();
    state.apply([{ key: symbolKey('ALIAS'), value: ntv.mint }]);
    expect(chain.tokens.resolve('alias')?.mint).toEqual(ntv.mint);
    state.apply([{ key: symbolKey('ALIAS'), value: null }]);
    expect(chain.tokens.resolve('alias')).toBeUndefined();
  });

  it('a registry over a fresh view resolves nothing until the records arrive', () => {
    const view = new StateView();
    const tokens = new TokenRegistry(view);
    expect(tokens.resolve('NTV')).toBeUndefined();
    expect(tokens.resolve('NTV')).toBeUndefined();
    expect(tokens.size).toBe(0);
  });
});
