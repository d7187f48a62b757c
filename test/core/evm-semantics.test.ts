// The EVM-path rules (issue 42 item 2; docs/eth.md "EVM semantics"): the wasm core against the
// bigint reference on random sequences of EVM (auth 3) and native bundles from the same accounts.
// From an EVM transaction a 0-amount Transfer or TransferFrom succeeds as a no-op, a token
// transfer to the zero address is TRANSFER_TO_ZERO_ADDRESS, and a failure consumes the nonce;
// native bundles keep ZERO_AMOUNT and the kept nonce of spec §5.8.
import { describe, it, expect } from 'vitest';
import { Core, type BundleInput } from '../../src/core/core.js';
import { accountKey, balanceKey } from '../../src/core/records.js';
import { decodeEvent } from '../../src/core/events.js';
import { Status, statusName } from '../../src/core/status.js';
import { Reference } from '../../testkit/reference.js';
import { encodeBundle, hex, W, type Op } from '../../testkit/encode.js';
import { MapStore, NTV, mintOf, rng } from './harness.js';

const TOKENS = [NTV, mintOf(1), mintOf(2)];
const ZERO = new Uint8Array(32);
/** EVM-form accounts: 12 zero bytes, then the 20-byte address. */
const evm = (n: number) => { const a = new Uint8Array(32); a[12] = 0xee; a[31] = n; return a; };
/** A native-form account (not EVM-form: the core refuses auth 3 for it). */
const native = (n: number) => { const a = new Uint8Array(32); a[0] = 0xaa; a[31] = n; return a; };
const N = 6;
const u64 = (v: Uint8Array | undefined, at = 0) => (v ? new DataView(v.buffer, v.byteOffset).getBigUint64(at, true) : 0n);
const u128 = (v: Uint8Array | undefined) => (v ? u64(v) | (u64(v, 8) << 64n) : 0n);

const reach = new Map<string, number>();
const count = (what: string) => reach.set(what, (reach.get(what) ?? 0) + 1);

async function run(seed: number, blocks: number) {
  const r = rng(seed);
  const store = new MapStore();
  const core = await Core.create(store);
  const ref = await Reference.create();
  const genesis = {
    chainId: 1618032n,
    timestamp: 1_700_000_000n,
    tokens: TOKENS.map((mint, i) => ({ mint, name: `T${i}`, symbol: i === 0 ? 'NTV' : `TK${i}`, decimals: 9, kind: i === 0 ? 0 : 2, creator: native(99) })),
    balances: [...Array.from({ length: N }, (_, i) => [evm(i), native(i)]).flat().flatMap((account) =>
      TOKENS.map((mint) => ({ account, mint, amount: BigInt(r.int(3_000_000)) + (mint === NTV ? 5_000_000n : 0n) })))],
    reservedSymbols: [],
  };
  core.genesis(genesis);
  expect(ref.genesis(genesis)).toBe(0);
  let c = core.commitBlock();
  let rc = ref.commitBlock();
  store.apply(c.writes);
  expect(hex(c.stateRoot)).toBe(hex(rc.stateRoot));
  let ts = genesis.timestamp;
  for (let height = 1; height <= blocks; height++) {
    ts += BigInt(1 + r.int(5));
    const ctx = { height: BigInt(height), timestamp: ts, proposer: native(50), gasPrice: BigInt(r.pick([0, 1, 7])), chainId: 1618032n, allowUnsigned: true, blockGasLimit: 10_000_000n };
    const bundles: BundleInput[] = [];
    const next = new Map<string, bigint>();
    const meta: Array<{ evm: boolean; zero: boolean; toZero: boolean; user: Uint8Array; nonce: bigint }> = [];
    for (let k = 0, nb = 1 + r.int(12); k < nb; k++) {
      const isEvm = r.chance(0.7);
      const user = isEvm ? (r.chance(0.03) ? native(r.int(N)) : evm(r.int(N))) : native(r.int(N));
      const key = hex(user);
      const committed = u64(ref.get(accountKey(user)));
      let nonce = next.get(key) ?? committed;
      if (r.chance(0.05)) nonce += 1n;
      next.set(key, nonce + 1n);
      const token = r.pick(TOKENS);
      const have = u128(ref.get(balanceKey(user, token)));
      const amount = r.pick([0n, 0n, 1n, have, have + 1n, have / 2n, BigInt(r.int(1_000_000))]);
      const to = r.chance(0.15) ? ZERO : r.chance(0.15) ? user : r.chance(0.5) ? evm(r.int(N)) : native(r.int(N));
      let op: Op;
      if (r.chance(0.25) && token !== NTV) {
        // TransferFrom by `user` from an owner that may have approved it (an Approve now and then first)
        const owner = r.chance(0.5) ? evm(r.int(N)) : native(r.int(N));
        const allowed = u128(ref.get(Uint8Array.from([0x0c, ...owner, ...token, ...user])));
        const amt = r.pick([0n, 0n, 1n, allowed, allowed + 1n]);
        op = { kind: 'raw', disc: 52, bytes: (() => { const w = new W(); w.raw(token); w.raw(owner); w.raw(to); w.u128(amt); return w.bytes(); })() };
        meta.push({ evm: isEvm, zero: amt === 0n, toZero: to.every((b) => b === 0), user, nonce });
      } else if (r.chance(0.1) && token !== NTV) {
        const spender = r.pick([evm(r.int(N)), native(r.int(N))]);
        op = { kind: 'raw', disc: 51, bytes: (() => { const w = new W(); w.raw(token); w.raw(spender); w.u128(BigInt(r.int(2_000_000))); return w.bytes(); })() };
        meta.push({ evm: isEvm, zero: false, toZero: false, user, nonce });
      } else {
        op = { kind: 'transfer', to, token, amount };
        meta.push({ evm: isEvm, zero: amount === 0n, toZero: token !== NTV && to.every((b) => b === 0), user, nonce });
      }
      const maxGas = r.chance(0.05) ? 5_000n : 100_000n; // now and then out of gas
      // an EVM bundle's signature is its raw transaction: any length but 0, 64 and 3,309 bytes
      const signature = isEvm ? new Uint8Array(r.pick([110, 111, 180, 64])).fill(0xc0) : undefined;
      const bytes = encodeBundle({ user, ops: [op], nonce, maxGas, maxPriorityFee: BigInt(r.pick([0, 0, 2])), validUntil: isEvm ? (1n << 64n) - 1n : ts + 100n, ...(signature ? { signature } : {}) });
      bundles.push({ bytes, auth: isEvm ? 3 : 0, keyHash: isEvm ? (r.chance(0.95) ? user : evm(77)) : undefined });
    }
    const before = new Map(meta.map((m) => [hex(m.user), u64(ref.get(accountKey(m.user)))]));
    const got = core.applyBlock(ctx, bundles);
    const want = ref.applyBlock(ctx, bundles);
    expect(got.results).toEqual(want.results);
    expect(got.events).toEqual(want.events.map((e) => decodeEvent(e.bundleIndex, e.opIndex, e.kind, e.data)));
    got.results.forEach((res, i) => {
      const m = meta[i]!;
      if (m.evm && m.zero && res.status === Status.OK) count('EVM 0-amount succeeded');
      if (!m.evm && m.zero) expect(statusName(res.status), 'a native 0-amount transfer never succeeds').not.toBe('OK');
      if (res.status === Status.TRANSFER_TO_ZERO_ADDRESS) {
        expect(m.evm && m.toZero).toBe(true);
        count('TRANSFER_TO_ZERO_ADDRESS');
      }
      if (m.evm && res.status >= 64) count('EVM failure');
      if (!m.evm && res.status >= 64) count('native failure');
    });
    c = core.commitBlock();
    rc = ref.commitBlock();
    expect(hex(c.stateRoot), `root at ${height}`).toBe(hex(rc.stateRoot));
    expect(c.writes.map((w) => [hex(w.key), w.value ? hex(w.value) : null])).toEqual(rc.writes.map((w) => [hex(w.key), w.value ? hex(w.value) : null]));
    store.apply(c.writes);
    // the nonce after the block: an EVM failure consumed it, a native failure kept it (spec §5.8)
    got.results.forEach((res, i) => {
      const m = meta[i]!;
      // only a sender with this one bundle in the block (and a nonce that matched), so the change is this bundle's
      if (res.status < 64 || meta.filter((o) => hex(o.user) === hex(m.user)).length !== 1) return;
      const after = u64(ref.get(accountKey(m.user)));
      if (m.evm) expect(after, `EVM ${statusName(res.status)} consumes the nonce`).toBe(m.nonce + 1n);
      else if (res.status !== Status.OK) expect(after, `native ${statusName(res.status)} keeps the nonce`).toBe(before.get(hex(m.user)));
    });
  }
}

describe('EVM-path rules: core vs bigint reference (randomized)', () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it(`seed ${seed}`, async () => {
      await run(seed, 60);
    });
  }
  it('the seeds reach every EVM-path rule', () => {
    console.log(Object.fromEntries(reach));
    for (const what of ['EVM 0-amount succeeded', 'TRANSFER_TO_ZERO_ADDRESS', 'EVM failure', 'native failure']) {
      expect(reach.get(what) ?? 0, what).toBeGreaterThan(3);
    }
  });
});
