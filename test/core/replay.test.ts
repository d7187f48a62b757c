// A failed bundle pays for its gas, keeps its nonce (spec §5.8) and is never included twice
// (docs/core-abi.md "Failed bundles: fee and replay"; assembly/replay.ts).
import { describe, it, expect } from 'vitest';
import { blake3 } from '@noble/hashes/blake3.js';
import { Core, type BlockContext, type BundleInput } from '../../src/core/core.js';
import { accountKey, balanceKey, decodeAccount, decodeBalance } from '../../src/core/records.js';
import { Status } from '../../src/core/status.js';
import { encodeBundle, addr, hex, type Op } from '../../testkit/encode.js';
import { MapStore, NTV, TREASURY, mintOf, genesisConfig } from './harness.js';

const TS = 1_700_000_100n;
const ctx = (height: bigint, timestamp = TS + height * 2n): BlockContext => ({
  height, timestamp, proposer: addr(500), gasPrice: 10n, chainId: 1618032n, allowUnsigned: true, blockGasLimit: 100_000_000n,
});
const bundle = (user: Uint8Array, nonce: bigint, ops: Op[], validUntil = TS + 600n, maxGas = 1_000_000n): BundleInput => ({
  bytes: encodeBundle({ user, ops, nonce, maxGas, maxPriorityFee: 0n, validUntil }), auth: 0,
});
/** fails UNKNOWN_TOKEN after its first transfer: 5,000 + 2 × 16,000 gas */
const failing = (user: Uint8Array, nonce: bigint, amount = 5n, validUntil = TS + 600n) =>
  bundle(user, nonce, [{ kind: 'transfer', to: addr(2), token: NTV, amount }, { kind: 'transfer', to: addr(2), token: mintOf(77), amount: 1n }], validUntil);
const bal = (core: Core, a: Uint8Array) => { const v = core.get(balanceKey(a, NTV)); return v ? decodeBalance(v) : 0n; };
const account = (core: Core, a: Uint8Array) => decodeAccount(core.get(accountKey(a))!);

async function setup() {
  const store = new MapStore();
  let core = await Core.create(store);
  core.genesis(genesisConfig(10));
  store.apply(core.commitBlock().writes);
  let height = 0n;
  const block = (bs: BundleInput[], timestamp?: bigint) => {
    height++;
    const r = core.applyBlock(ctx(height, timestamp), bs);
    store.apply(core.commitBlock().writes);
    return r;
  };
  return { core: () => core, store, block, reload: async () => { core = await Core.create(store); } };
}

describe('failed bundles: fee and replay', () => {
  it('charges a failed bundle its gas, keeps its nonce, and refuses the same bytes in every later block', async () => {
    const { core, block } = await setup();
    const a = addr(1);
    const a0 = bal(core(), a), t0 = bal(core(), TREASURY), p0 = bal(core(), addr(500));
    const f = failing(a, 0n);
    const first = block([f]);
    expect(first.results[0]).toEqual({ status: Status.UNKNOWN_TOKEN, gasUsed: 37_000n, fee: 370_000n, nonce: 0n });
    expect(first.gasUsed).toBe(37_000n);
    expect(first.fees).toBe(370_000n);
    expect(first.events.map((e) => e.kind)).toEqual(['Fee']); // the reverted transfer left no event
    expect(bal(core(), a)).toBe(a0 - 370_000n); // only the fee: the first transfer was reverted
    expect(bal(core(), TREASURY) - t0).toBe(74_000n);
    expect(bal(core(), addr(500)) - p0).toBe(296_000n);
    const rec = account(core(), a);
    expect(rec.nonce).toBe(0n);
    expect(rec.failed!.map((x) => [hex(x.hash), x.expiry])).toEqual([[hex(blake3(f.bytes)), TS + 600n]]);
    for (let i = 0; i < 4; i++) {
      const again = block([f]);
      expect(again.results[0]!.status).toBe(Status.ALREADY_INCLUDED);
      expect(again.gasUsed).toBe(0n);
    }
    expect(bal(core(), a)).toBe(a0 - 370_000n);
    // a re-signed retry (other bytes, same nonce) is a new bundle: it runs, and its success drops the list
    const ok = block([bundle(a, 0n, [{ kind: 'transfer', to: addr(2), token: NTV, amount: 5n }])]);
    expect(ok.results[0]!.status).toBe(Status.OK);
    expect(account(core(), a)).toEqual({ nonce: 1n, keyCount: 0 });
    expect(block([f]).results[0]!.status).toBe(Status.NONCE_TOO_LOW);
  });

  it('refuses the second copy inside the same block, and after a reload from storage', async () => {
    const { core, block, reload } = await setup();
    const f = failing(addr(3), 0n);
    const r = block([f, f]);
    expect(r.results.map((x) => x.status)).toEqual([Status.UNKNOWN_TOKEN, Status.ALREADY_INCLUDED]);
    await reload();
    expect(block([f]).results[0]!.status).toBe(Status.ALREADY_INCLUDED);
    expect(account(core(), addr(3)).failed).toHaveLength(1);
  });

  it('charges OUT_OF_GAS the whole max_gas it was given', async () => {
    const { core, block } = await setup();
    const a = addr(4), a0 = bal(core(), a);
    const oog = bundle(a, 0n, [{ kind: 'transfer', to: addr(2), token: NTV, amount: 1n }], TS + 600n, 20_000n);
    const r = block([oog, oog]);
    expect(r.results.map((x) => [x.status, x.gasUsed, x.fee])).toEqual([[Status.OUT_OF_GAS, 20_000n, 200_000n], [Status.ALREADY_INCLUDED, 0n, 0n]]);
    expect(bal(core(), a)).toBe(a0 - 200_000n);
  });

  it('drops expired entries when the list is written, and consumes the nonce at the 17th unexpired failure', async () => {
    const { core, block } = await setup();
    const a = addr(5);
    // two failures that expire soon, then fourteen that do not
    block([failing(a, 0n, 1n, TS + 5n), failing(a, 0n, 2n, TS + 5n)]);
    expect(account(core(), a).failed).toHaveLength(2);
    const late = Array.from({ length: 14 }, (_, i) => failing(a, 0n, 10n + BigInt(i)));
    block(late, TS + 100n); // the two early ones expired: dropped as the list is written
    expect(account(core(), a).failed).toHaveLength(14);
    expect(account(core(), a).failed!.every((x) => x.expiry === TS + 600n)).toBe(true);
    const more = [failing(a, 0n, 30n), failing(a, 0n, 31n)];
    let r = block(more, TS + 101n);
    expect(r.results.map((x) => x.status)).toEqual([Status.UNKNOWN_TOKEN, Status.UNKNOWN_TOKEN]);
    expect(account(core(), a)).toMatchObject({ nonce: 0n });
    expect(account(core(), a).failed).toHaveLength(16);
    // the 17th distinct failure at nonce 0 is charged and consumes the nonce: the record is plain again
    r = block([failing(a, 0n, 40n)], TS + 102n);
    expect(r.results[0]).toMatchObject({ status: Status.UNKNOWN_TOKEN, gasUsed: 37_000n });
    expect(account(core(), a)).toEqual({ nonce: 1n, keyCount: 0 });
    expect(block([late[0]!], TS + 103n).results[0]!.status).toBe(Status.NONCE_TOO_LOW);
  });

  it('a failed signed first send keeps no key registration but is listed', async () => {
    const { core } = await setup();
    const user = addr(6);
    const pk = new Uint8Array(32).fill(9);
    const signed: BundleInput = {
      bytes: encodeBundle({
        user, ops: [{ kind: 'transfer', to: addr(4), token: mintOf(77), amount: 1n }], nonce: 0n, maxGas: 100_000n, maxPriorityFee: 0n,
        validUntil: TS + 60n, signature: new Uint8Array(64).fill(1), senderPubkey: pk,
      }),
      auth: 1, keyHash: user, pubkey: pk,
    };
    const r = core().applyBlock({ ...ctx(1n), allowUnsigned: false }, [signed, signed]);
    expect(r.results.map((x) => x.status)).toEqual([Status.UNKNOWN_TOKEN, Status.ALREADY_INCLUDED]);
    expect(r.events.map((e) => e.kind)).toEqual(['Fee']);
    core().commitBlock();
    expect(account(core(), user)).toMatchObject({ nonce: 0n, keyCount: 0 });
  });
});
