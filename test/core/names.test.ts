// RegisterName in the core (spec §4.12, docs/names.md): canonical form (lower case, optional
// ".vex"), the 3–64 [a-z0-9-] rule, first come first served inside a block, the reverse record
// for the first name only, gas, atomic revert, and agreement with the host's canonicalName.
import { describe, expect, it } from 'vitest';
import { Core, type BlockContext, type BundleInput } from '../../src/core/core.js';
import { accountKey, decodeAccount } from '../../src/core/records.js';
import { Status } from '../../src/core/status.js';
import { canonicalName, decodeNameRecord, nameKey, nameReverseKey, resolveName, reverseResolve } from '../../src/domains/names/reader.js';
import { encodeBundle, addr, hex, W, type Op } from '../../testkit/encode.js';
import { MapStore, NTV, genesisConfig } from './harness.js';

const TS = 1_700_000_100n;
const ctx = (over: Partial<BlockContext> = {}): BlockContext => ({
  height: 1n, timestamp: TS, proposer: addr(500), gasPrice: 0n, chainId: 1618032n, allowUnsigned: true, blockGasLimit: 100_000_000n, ...over,
});
const register = (name: string | Uint8Array): Op => {
  const w = new W();
  w.str(name);
  return { kind: 'raw', disc: 32, bytes: w.bytes() };
};
const bundle = (user: Uint8Array, nonce: bigint, ops: Op[], maxGas = 1_000_000n): BundleInput => ({
  bytes: encodeBundle({ user, ops, nonce, maxGas, maxPriorityFee: 0n, validUntil: TS + 60n }), auth: 0,
});

async function setup() {
  const store = new MapStore();
  const core = await Core.create(store);
  core.genesis(genesisConfig(10));
  store.apply(core.commitBlock().writes);
  return { core, store };
}

describe('RegisterName (disc. 32)', () => {
  it('stores the canonical label with owner, height and time, and the reverse record of a first name', async () => {
    const { core, store } = await setup();
    const r = core.applyBlock(ctx({ height: 7n }), [bundle(addr(1), 0n, [register('Alice.VEX')])]);
    expect(r.results[0]).toEqual({ status: Status.OK, gasUsed: 45_000n, fee: 0n, nonce: 0n });
    store.apply(core.commitBlock().writes);
    const rec = decodeNameRecord('alice', store.get(nameKey('alice'))!);
    expect(hex(rec.owner)).toBe(hex(addr(1)));
    expect(rec.registeredHeight).toBe(7n);
    expect(rec.registeredAt).toBe(TS);
    expect(new TextDecoder().decode(store.get(nameReverseKey(addr(1)))!)).toBe('alice');
    // the host resolver reads the same records, under any spelling
    for (const n of ['alice', 'ALICE', 'alice.vex', 'Alice.Vex']) expect(hex(resolveName(store, n)!)).toBe(hex(addr(1)));
    expect(resolveName(store, 'bob')).toBeUndefined();
    expect(reverseResolve(store, addr(1))).toBe('alice');
    expect(reverseResolve(store, addr(2))).toBeUndefined();
  });

  it('is first come, first served: a second registration of the same name fails NAME_TAKEN, in any spelling, even in the same block', async () => {
    const { core, store } = await setup();
    const r = core.applyBlock(ctx(), [
      bundle(addr(1), 0n, [register('shared-name')]),
      bundle(addr(2), 0n, [register('SHARED-NAME.vex')]),
      bundle(addr(3), 0n, [register('shared-name')]),
    ]);
    expect(r.results.map((x) => x.status)).toEqual([Status.OK, Status.NAME_TAKEN, Status.NAME_TAKEN]);
    expect(r.results[1]!.gasUsed).toBe(45_000n); // a failed bundle pays for its gas (docs/core-abi.md "Failed bundles")
    store.apply(core.commitBlock().writes);
    expect(hex(resolveName(store, 'shared-name')!)).toBe(hex(addr(1)));
    // the failed bundle kept its nonce and left no reverse record, only its hash in the account record
    const acct = decodeAccount(store.get(accountKey(addr(2)))!);
    expect(acct.nonce).toBe(0n);
    expect(acct.failed).toHaveLength(1);
    expect(reverseResolve(store, addr(2))).toBeUndefined();
  });

  it('keeps the first name as primary when an account registers more', async () => {
    const { core, store } = await setup();
    core.applyBlock(ctx(), [bundle(addr(4), 0n, [register('first'), register('second')])]);
    store.apply(core.commitBlock().writes);
    expect(reverseResolve(store, addr(4))).toBe('first');
    expect(hex(resolveName(store, 'second')!)).toBe(hex(addr(4)));
    expect(decodeAccount(store.get(accountKey(addr(4)))!).nonce).toBe(1n);
  });

  it('refuses names outside 3–64 of [A-Za-z0-9-] with INVALID_NAME_FORMAT and non-UTF-8 as malformed', async () => {
    const { core } = await setup();
    const bad = ['ab', 'ab.vex', '.vex', 'a'.repeat(65), 'has space', 'under_score', 'dot.ted', 'émile', 'name.eth', 'x.vex.vex', ''];
    const r = core.applyBlock(ctx(), bad.map((n, i) => bundle(addr(i), 0n, [register(n)])));
    expect(r.results.map((x) => x.status)).toEqual(bad.map(() => Status.INVALID_NAME_FORMAT));
    core.commitBlock();
    const good = ['abc', 'a'.repeat(64), 'A'.repeat(64) + '.vex', '0x-1', '---', 'abc.VEX'];
    const g = core.applyBlock(ctx({ height: 2n }), good.map((n, i) => bundle(addr(i), 0n, [register(n)])));
    expect(g.results.map((x) => x.status)).toEqual([Status.OK, Status.OK, Status.NAME_TAKEN, Status.OK, Status.OK, Status.NAME_TAKEN]);
    core.commitBlock();
    const m = core.applyBlock(ctx({ height: 3n }), [bundle(addr(9), 0n, [register(new Uint8Array([0x61, 0xff, 0x62]))])]);
    expect(m.results[0]!.status).toBe(Status.MALFORMED_BUNDLE);
  });

  it('charges 5,000 + 40,000 gas and fails OUT_OF_GAS below it; a later failing op reverts the name', async () => {
    const { core, store } = await setup();
    const r = core.applyBlock(ctx(), [
      bundle(addr(1), 0n, [register('cheap')], 44_999n),
      bundle(addr(2), 0n, [register('reverted'), { kind: 'transfer', to: addr(3), token: NTV, amount: 10n ** 30n }]),
    ]);
    expect(r.results.map((x) => x.status)).toEqual([Status.OUT_OF_GAS, Status.INSUFFICIENT_BALANCE]);
    store.apply(core.commitBlock().writes);
    expect(store.get(nameKey('cheap'))).toBeUndefined();
    expect(store.get(nameKey('reverted'))).toBeUndefined();
    expect(reverseResolve(store, addr(2))).toBeUndefined();
  });

  it('canonicalName on the host agrees with the core on every accepted and refused form', async () => {
    const { core, store } = await setup();
    const names = ['Mixed-Case9', 'UPPER.VEX', 'lower.vex', 'ab', 'abc', 'a_b_c', 'trailing-', '-lead', 'x'.repeat(64) + '.Vex', 'y'.repeat(65), 'ÄÖÜ', 'tab\tx', 'vex.vex'];
    const r = core.applyBlock(ctx(), names.map((n, i) => bundle(addr(100 + i), 0n, [register(n)])));
    store.apply(core.commitBlock().writes);
    names.forEach((n, i) => {
      const label = canonicalName(n);
      expect(r.results[i]!.status === Status.OK, n).toBe(label !== undefined);
      if (label !== undefined) expect(hex(resolveName(store, n)!)).toBe(hex(addr(100 + i)));
    });
  });
});
