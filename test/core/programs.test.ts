// RegisterProgram in the core (disc. 48; spec §4.9; docs/intents.md "Programs on chain"): the
// record and its list index as the host reads them (src/domains/programs/reader.ts), first come first
// served with owner-only replacement, the name and size rules, gas, atomic revert, the event, and
// agreement with the bigint reference model (testkit/reference.ts) block by block.
import { describe, expect, it } from 'vitest';
import { Core, type BundleInput } from '../../src/core/core.js';
import { Status } from '../../src/core/status.js';
import { decodeEvent } from '../../src/core/events.js';
import { encodeBundle as encodeCodecBundle, decodeBundle } from '../../src/codec/bundle.js';
import { listPrograms, lookupProgram, programCount, programIndexKey, programKey, PROGRAM_NAME } from '../../src/domains/programs/reader.js';
import { blake3 } from '../../src/codec/hash.js';
import { Reference } from '../../testkit/reference.js';
import { encodeBundle, addr, hex, W, type Op } from '../../testkit/encode.js';
import { MapStore, NTV, genesisConfig, type TwinCtx } from './harness.js';

const TS = 1_700_000_100n;
const ctx = (over: Partial<TwinCtx> = {}): TwinCtx => ({
  height: 1n, timestamp: TS, proposer: addr(500), gasPrice: 0n, chainId: 1618032n, allowUnsigned: true, blockGasLimit: 100_000_000n, ...over,
});
const register = (name: string | Uint8Array, json: string | Uint8Array): Op => {
  const w = new W();
  w.str(name);
  w.str(json);
  return { kind: 'raw', disc: 48, bytes: w.bytes() };
};
const bundle = (user: Uint8Array, nonce: bigint, ops: Op[], maxGas = 1_000_000n): BundleInput => ({
  bytes: encodeBundle({ user, ops, nonce, maxGas, maxPriorityFee: 0n, validUntil: TS + 1000n }), auth: 0,
});
const program = (name: string, description = '') => JSON.stringify({ name, description, steps: ['swap 1 USDC for NTV'] });

async function setup() {
  const store = new MapStore();
  const core = await Core.create(store);
  core.genesis(genesisConfig(10));
  store.apply(core.commitBlock().writes);
  return { core, store };
}

describe('RegisterProgram (disc. 48)', () => {
  it('stores owner, revision, list index, heights, times, hash and JSON; the event names them', async () => {
    const { core, store } = await setup();
    const json = program('dca-ntv');
    const r = core.applyBlock(ctx({ height: 5n }), [bundle(addr(1), 0n, [register('dca-ntv', json)])]);
    const gas = 5_000n + 30_000n + 3n * BigInt(Buffer.byteLength(json));
    expect(r.results[0]).toEqual({ status: Status.OK, gasUsed: gas, fee: 0n, nonce: 0n });
    expect(r.events).toHaveLength(1);
    const ev = r.events[0]!;
    expect(ev).toMatchObject({ kind: 'ProgramRegistered', opIndex: 0, revision: 1, name: 'dca-ntv' });
    if (ev.kind !== 'ProgramRegistered') throw new Error('kind');
    expect(hex(ev.owner)).toBe(hex(addr(1)));
    expect(hex(ev.hash)).toBe(hex(blake3(new TextEncoder().encode(json))));
    store.apply(core.commitBlock().writes);
    const rec = lookupProgram(store, 'dca-ntv')!;
    expect(rec).toMatchObject({ name: 'dca-ntv', revision: 1, index: 0n, registeredHeight: 5n, registeredAt: TS, updatedHeight: 5n, updatedAt: TS, json });
    expect(hex(rec.owner)).toBe(hex(addr(1)));
    expect(hex(rec.hash)).toBe(hex(ev.hash));
    expect(programCount(store)).toBe(1n);
    expect(new TextDecoder().decode(store.get(programIndexKey(0n))!)).toBe('dca-ntv');
  });

  it('lets only the owner replace a program (revision + 1, registration kept, list position kept); names are first come, first served in block order', async () => {
    const { core, store } = await setup();
    const r1 = core.applyBlock(ctx({ height: 2n }), [
      bundle(addr(1), 0n, [register('alpha', program('alpha'))]),
      bundle(addr(2), 0n, [register('alpha', program('alpha', 'mine'))]),
      bundle(addr(2), 0n, [register('beta', program('beta'))]),
    ]);
    expect(r1.results.map((x) => x.status)).toEqual([Status.OK, Status.NOT_PROGRAM_OWNER, Status.OK]);
    store.apply(core.commitBlock().writes);
    const r2 = core.applyBlock(ctx({ height: 3n, timestamp: TS + 10n }), [bundle(addr(1), 1n, [register('alpha', program('alpha', 'v2'))])]);
    expect(r2.results[0]!.status).toBe(Status.OK);
    store.apply(core.commitBlock().writes);
    const alpha = lookupProgram(store, 'alpha')!;
    expect(alpha).toMatchObject({ revision: 2, index: 0n, registeredHeight: 2n, registeredAt: TS, updatedHeight: 3n, updatedAt: TS + 10n, json: program('alpha', 'v2') });
    expect(hex(alpha.owner)).toBe(hex(addr(1)));
    expect(listPrograms(store, 10).map((p) => [p.name, p.revision])).toEqual([['alpha', 2], ['beta', 1]]);
    expect(listPrograms(store, 1).map((p) => p.name)).toEqual(['alpha']);
    expect(listPrograms(store, 10, 1n).map((p) => p.name)).toEqual(['beta']);
    expect(programCount(store)).toBe(2n);
  });

  it('refuses bad names (INVALID_PROGRAM_NAME), empty or oversized JSON (INVALID_PROGRAM), and non-UTF-8 as malformed', async () => {
    const { core } = await setup();
    const bad = ['ab', 'A-upper', '-lead', '_lead', 'has space', 'dot.ted', 'x'.repeat(65), 'émile', ''];
    const r = core.applyBlock(ctx(), bad.map((n, i) => bundle(addr(i), 0n, [register(n, '{}')])));
    expect(r.results.map((x) => x.status)).toEqual(bad.map(() => Status.INVALID_PROGRAM_NAME));
    for (const n of bad) expect(PROGRAM_NAME.test(n), n).toBe(false);
    const good = ['abc', '0-x', 'a_b-c', 'x'.repeat(64)];
    for (const n of good) expect(PROGRAM_NAME.test(n), n).toBe(true);
    const g = core.applyBlock(ctx(), [
      ...good.map((n, i) => bundle(addr(i), 0n, [register(n, '{}')])),
      bundle(addr(7), 0n, [register('empty-json', '')]),
      bundle(addr(8), 0n, [register('too-big', '{'.repeat(16_385))]),
      bundle(addr(9), 0n, [register('largest', '{'.repeat(16_384))]),
    ]);
    expect(g.results.map((x) => x.status)).toEqual([Status.OK, Status.OK, Status.OK, Status.OK, Status.INVALID_PROGRAM, Status.INVALID_PROGRAM, Status.OK]);
    expect(g.results[6]!.gasUsed).toBe(5_000n + 30_000n + 3n * 16_384n);
    core.revertBlock();
    const m = core.applyBlock(ctx(), [
      bundle(addr(1), 0n, [register('utf-bad', new Uint8Array([0x7b, 0xff, 0x7d]))]),
      bundle(addr(2), 0n, [register(new Uint8Array([0x61, 0xff, 0x62]), '{}')]),
    ]);
    expect(m.results.map((x) => x.status)).toEqual([Status.MALFORMED_BUNDLE, Status.MALFORMED_BUNDLE]);
  });

  it('fails OUT_OF_GAS below its per-byte gas; a later failing operation reverts the record and the list index', async () => {
    const { core, store } = await setup();
    const json = program('gassy');
    const need = 5_000n + 30_000n + 3n * BigInt(json.length);
    const r = core.applyBlock(ctx(), [
      bundle(addr(1), 0n, [register('gassy', json)], need - 1n),
      bundle(addr(2), 0n, [register('reverted', program('reverted')), { kind: 'transfer', to: addr(3), token: NTV, amount: 10n ** 30n }]),
    ]);
    expect(r.results.map((x) => x.status)).toEqual([Status.OUT_OF_GAS, Status.INSUFFICIENT_BALANCE]);
    expect(r.events).toHaveLength(0);
    store.apply(core.commitBlock().writes);
    expect(store.get(programKey('gassy'))).toBeUndefined();
    expect(store.get(programKey('reverted'))).toBeUndefined();
    expect(programCount(store)).toBe(0n);
    expect(listPrograms(store, 10)).toEqual([]);
  });

  it('the host codec encodes the same bytes the core decodes (name, then the JSON as a String)', async () => {
    const { core, store } = await setup();
    const json = program('codec-check');
    const bytes = encodeCodecBundle({
      userAccount: addr(4), operations: [{ type: 'RegisterProgram', name: 'codec-check', program: json }], maxGas: 200_000n, maxPriorityFee: 0n,
      validUntil: TS + 10n, nonce: 0n, signature: new Uint8Array(0), expiryTimestamp: undefined, senderPubkey: undefined,
    });
    expect(decodeBundle(bytes).operations).toEqual([{ type: 'RegisterProgram', name: 'codec-check', program: json }]);
    expect(hex(bytes)).toBe(hex(encodeBundle({ user: addr(4), ops: [register('codec-check', json)], nonce: 0n, maxGas: 200_000n, maxPriorityFee: 0n, validUntil: TS + 10n })));
    const r = core.applyBlock(ctx(), [{ bytes, auth: 0 }]);
    expect(r.results[0]!.status).toBe(Status.OK);
    store.apply(core.commitBlock().writes);
    expect(lookupProgram(store, 'codec-check')!.json).toBe(json);
  });

  it('agrees with the bigint reference model: statuses, gas, events, writes and state roots over a scripted sequence', async () => {
    const store = new MapStore();
    const core = await Core.create(store);
    const ref = await Reference.create();
    const g = genesisConfig(6);
    core.genesis(g);
    expect(ref.genesis(g)).toBe(0);
    expect(hex(core.commitBlock().stateRoot)).toBe(hex(ref.commitBlock().stateRoot));
    const accountNonce = (who: number) => {
      const a = ref.get(new Uint8Array([1, ...addr(who)]));
      return a ? new DataView(a.buffer, a.byteOffset).getBigUint64(0, true) : 0n;
    };
    const blocks: Array<Array<[number, Op[]]>> = [
      [[1, [register('one', program('one'))]], [2, [register('one', program('one', 'x'))]], [3, [register('two', program('two'))]]],
      [[1, [register('one', program('one', 'v2')), register('three', '{"name":"three"}')]], [4, [register('Bad', '{}')]], [4, [register('big', '{'.repeat(16_385))]]],
      [[3, [register('two', program('two', 'v2')), register('two', program('two', 'v3'))]], [5, [register('four', program('four')), { kind: 'transfer', to: addr(1), token: NTV, amount: 1n }]]],
    ];
    const statuses: number[] = [];
    let height = 0n;
    for (const spec of blocks) {
      height++;
      const c = ctx({ height, timestamp: TS + height, gasPrice: 2n });
      const inputs = spec.map(([who, ops]) => bundle(addr(who), accountNonce(who), ops));
      const got = core.applyBlock(c, inputs);
      const want = ref.applyBlock(c, inputs);
      expect(got.results).toEqual(want.results);
      expect(got.events).toEqual(want.events.map((e) => decodeEvent(e.bundleIndex, e.opIndex, e.kind, e.data)));
      const cw = core.commitBlock();
      const rw = ref.commitBlock();
      expect(hex(cw.stateRoot)).toBe(hex(rw.stateRoot));
      expect(cw.writes.map((w) => [hex(w.key), w.value ? hex(w.value) : null])).toEqual(rw.writes.map((w) => [hex(w.key), w.value ? hex(w.value) : null]));
      store.apply(cw.writes);
      statuses.push(...got.results.map((x) => x.status));
    }
    expect(statuses).toEqual([Status.OK, Status.NOT_PROGRAM_OWNER, Status.OK, Status.OK, Status.INVALID_PROGRAM_NAME, Status.INVALID_PROGRAM, Status.OK, Status.OK]);
    expect(listPrograms(store, 10).map((p) => [p.name, p.revision])).toEqual([['one', 2], ['two', 3], ['three', 1], ['four', 1]]);
  });
});
