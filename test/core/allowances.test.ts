// ERC-20 allowances in the core (docs/allowances.md): Approve (disc. 51) overwrites the 0x0C
// record and emits Approval; TransferFrom (disc. 52) checks the allowance before the owner's
// balance, spends it (2^128−1 is infinite and never decremented), moves the balance as a Transfer
// would and emits Transfer from the owner; NTV is refused; gas 16,000 / 21,000 on top of the base.
import { describe, expect, it } from 'vitest';
import { Core, type BlockContext, type BundleInput } from '../../src/core/core.js';
import { allowanceKey } from '../../src/abi/state.js';
import { balanceKey, decodeBalance } from '../../src/core/records.js';
import { Status } from '../../src/core/status.js';
import { encodeBundle, addr, hex, W, type Op } from '../../testkit/encode.js';
import { MapStore, NTV, genesisConfig, mintOf } from './harness.js';

const TS = 1_700_000_100n;
const U128 = (1n << 128n) - 1n;
const TK = mintOf(1);
const OWNER = addr(1), SPENDER = addr(2), TO = addr(3);
const ctx = (over: Partial<BlockContext> = {}): BlockContext => ({
  height: 1n, timestamp: TS, proposer: addr(500), gasPrice: 0n, chainId: 1618032n, allowUnsigned: true, blockGasLimit: 100_000_000n, ...over,
});
const approve = (token: Uint8Array, spender: Uint8Array, amount: bigint): Op => {
  const w = new W();
  w.raw(token); w.raw(spender); w.u128(amount);
  return { kind: 'raw', disc: 51, bytes: w.bytes() };
};
const transferFrom = (token: Uint8Array, from: Uint8Array, to: Uint8Array, amount: bigint): Op => {
  const w = new W();
  w.raw(token); w.raw(from); w.raw(to); w.u128(amount);
  return { kind: 'raw', disc: 52, bytes: w.bytes() };
};
const nonces = new Map<string, bigint>();
const bundle = (user: Uint8Array, ops: Op[], maxGas = 1_000_000n): BundleInput => {
  const nonce = nonces.get(hex(user)) ?? 0n;
  return { bytes: encodeBundle({ user, ops, nonce, maxGas, maxPriorityFee: 0n, validUntil: TS + 60n }), auth: 0 };
};

async function setup() {
  nonces.clear();
  const store = new MapStore();
  const core = await Core.create(store);
  core.genesis(genesisConfig(10));
  store.apply(core.commitBlock().writes);
  /** One block of bundles, committed; nonces advance for the successful ones (a failed bundle keeps its nonce). */
  const block = (bundles: BundleInput[]) => {
    const r = core.applyBlock(ctx(), bundles);
    r.results.forEach((res, i) => {
      if (res.status === Status.OK) {
        const user = bundles[i]!.bytes.subarray(0, 32);
        nonces.set(hex(user), (nonces.get(hex(user)) ?? 0n) + 1n);
      }
    });
    store.apply(core.commitBlock().writes);
    return r;
  };
  const allowance = (owner: Uint8Array, token: Uint8Array, spender: Uint8Array) => {
    const v = store.get(allowanceKey(owner, token, spender));
    return v === undefined ? undefined : decodeBalance(v);
  };
  const balance = (a: Uint8Array, t: Uint8Array) => decodeBalance(store.get(balanceKey(a, t)) ?? new Uint8Array(16));
  return { core, store, block, allowance, balance };
}

describe('Approve and TransferFrom (disc. 51, 52)', () => {
  it('approve sets and overwrites the allowance with an Approval event; 0 deletes the record', async () => {
    const { block, allowance } = await setup();
    let r = block([bundle(OWNER, [approve(TK, SPENDER, 500n)])]);
    expect(r.results[0]).toMatchObject({ status: Status.OK, gasUsed: 21_000n });
    expect(r.events.filter((e) => e.kind === 'Approval')).toEqual([
      { bundleIndex: 0, opIndex: 0, kind: 'Approval', owner: OWNER, spender: SPENDER, token: TK, amount: 500n },
    ]);
    expect(allowance(OWNER, TK, SPENDER)).toBe(500n);
    // ERC-20 approve overwrites (not adds)
    block([bundle(OWNER, [approve(TK, SPENDER, 70n)])]);
    expect(allowance(OWNER, TK, SPENDER)).toBe(70n);
    // per (owner, token, spender): nobody else's allowance changes
    expect(allowance(SPENDER, TK, OWNER)).toBeUndefined();
    expect(allowance(OWNER, mintOf(2), SPENDER)).toBeUndefined();
    r = block([bundle(OWNER, [approve(TK, SPENDER, 0n)])]);
    expect(r.results[0]!.status).toBe(Status.OK);
    expect(allowance(OWNER, TK, SPENDER)).toBeUndefined();
  });

  it('transferFrom spends the allowance, moves the owner\'s balance and emits Transfer from the owner', async () => {
    const { block, allowance, balance } = await setup();
    block([bundle(OWNER, [approve(TK, SPENDER, 500n)])]);
    const [o0, t0, s0] = [balance(OWNER, TK), balance(TO, TK), balance(SPENDER, TK)];
    const r = block([bundle(SPENDER, [transferFrom(TK, OWNER, TO, 200n)])]);
    expect(r.results[0]).toMatchObject({ status: Status.OK, gasUsed: 26_000n });
    expect(r.events.filter((e) => e.kind === 'Transfer')).toEqual([
      { bundleIndex: 0, opIndex: 0, kind: 'Transfer', from: OWNER, to: TO, token: TK, amount: 200n },
    ]);
    expect([balance(OWNER, TK), balance(TO, TK), balance(SPENDER, TK)]).toEqual([o0 - 200n, t0 + 200n, s0]);
    expect(allowance(OWNER, TK, SPENDER)).toBe(300n);
    // spending exactly what is left deletes the record
    block([bundle(SPENDER, [transferFrom(TK, OWNER, TO, 300n)])]);
    expect(allowance(OWNER, TK, SPENDER)).toBeUndefined();
  });

  it('refuses INSUFFICIENT_ALLOWANCE before INSUFFICIENT_BALANCE, and pays the gas of the failed bundle', async () => {
    const { block, allowance, balance } = await setup();
    const have = balance(OWNER, TK);
    block([bundle(OWNER, [approve(TK, SPENDER, 10n)])]);
    let r = block([bundle(SPENDER, [transferFrom(TK, OWNER, TO, 11n)])]);
    expect(r.results[0]).toMatchObject({ status: Status.INSUFFICIENT_ALLOWANCE, gasUsed: 26_000n });
    // no allowance at all: a third party cannot move the owner's tokens
    r = block([bundle(addr(4), [transferFrom(TK, OWNER, addr(4), 1n)])]);
    expect(r.results[0]!.status).toBe(Status.INSUFFICIENT_ALLOWANCE);
    // an allowance above the balance: the balance refuses
    block([bundle(OWNER, [approve(TK, SPENDER, have + 1n)])]);
    r = block([bundle(SPENDER, [transferFrom(TK, OWNER, TO, have + 1n)])]);
    expect(r.results[0]!.status).toBe(Status.INSUFFICIENT_BALANCE);
    // a failed TransferFrom changes nothing but the fee and the failed list
    expect(allowance(OWNER, TK, SPENDER)).toBe(have + 1n);
    expect(balance(OWNER, TK)).toBe(have);
    r = block([bundle(SPENDER, [transferFrom(TK, OWNER, TO, 0n)])]);
    expect(r.results[0]!.status).toBe(Status.ZERO_AMOUNT);
  });

  it('2^128−1 is infinite: never decremented', async () => {
    const { block, allowance, balance } = await setup();
    block([bundle(OWNER, [approve(TK, SPENDER, U128)])]);
    const have = balance(OWNER, TK);
    block([bundle(SPENDER, [transferFrom(TK, OWNER, TO, 1000n), transferFrom(TK, OWNER, SPENDER, 5n)])]);
    expect(allowance(OWNER, TK, SPENDER)).toBe(U128);
    expect(balance(OWNER, TK)).toBe(have - 1005n);
    // one below is finite
    block([bundle(OWNER, [approve(TK, SPENDER, U128 - 1n)])]);
    block([bundle(SPENDER, [transferFrom(TK, OWNER, TO, 1n)])]);
    expect(allowance(OWNER, TK, SPENDER)).toBe(U128 - 2n);
  });

  it('a transferFrom to the owner itself spends the allowance and moves nothing', async () => {
    const { block, allowance, balance } = await setup();
    block([bundle(OWNER, [approve(TK, SPENDER, 50n)])]);
    const have = balance(OWNER, TK);
    const r = block([bundle(SPENDER, [transferFrom(TK, OWNER, OWNER, 20n)])]);
    expect(r.results[0]!.status).toBe(Status.OK);
    expect(balance(OWNER, TK)).toBe(have);
    expect(allowance(OWNER, TK, SPENDER)).toBe(30n);
  });

  it('refuses NTV (NATIVE_NOT_APPROVABLE) and unknown tokens (UNKNOWN_TOKEN) in both', async () => {
    const { block, allowance } = await setup();
    const r = block([
      bundle(OWNER, [approve(NTV, SPENDER, 1n)]),
      bundle(SPENDER, [transferFrom(NTV, OWNER, TO, 1n)]),
      bundle(addr(5), [approve(mintOf(77), SPENDER, 1n)]),
      bundle(addr(6), [transferFrom(mintOf(77), OWNER, TO, 1n)]),
    ]);
    expect(r.results.map((x) => x.status)).toEqual([Status.NATIVE_NOT_APPROVABLE, Status.NATIVE_NOT_APPROVABLE, Status.UNKNOWN_TOKEN, Status.UNKNOWN_TOKEN]);
    expect(allowance(OWNER, NTV, SPENDER)).toBeUndefined();
  });

  it('is atomic with the rest of the bundle: a later failing operation reverts the approval', async () => {
    const { block, allowance } = await setup();
    const r = block([bundle(OWNER, [approve(TK, SPENDER, 9n), transferFrom(TK, TO, OWNER, 1n)])]);
    expect(r.results[0]).toMatchObject({ status: Status.INSUFFICIENT_ALLOWANCE, gasUsed: 5_000n + 16_000n + 21_000n });
    expect(r.events.filter((e) => e.kind === 'Approval')).toEqual([]);
    expect(allowance(OWNER, TK, SPENDER)).toBeUndefined();
  });
});
