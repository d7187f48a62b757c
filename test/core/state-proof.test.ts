// State proofs (src/codec/state-proof.ts, docs/replay.md "State proofs") against the core's own root:
// inclusion of every kind of key genesis and transfers write, absence of keys never written, and
// every tampering (value, entries, sibling, bucket, root) refused.
import { describe, expect, it } from 'vitest';
import { Core } from '../../src/core/core.js';
import { balanceKey, accountKey } from '../../src/core/records.js';
import { proveState, verifyStateProof, type StateProof } from '../../src/codec/state-proof.js';
import { encodeBundle, addr } from '../../testkit/encode.js';
import { MapStore, NTV, genesisConfig, mintOf } from './harness.js';

async function chain(accounts: number) {
  const store = new MapStore();
  const core = await Core.create(store);
  core.genesis(genesisConfig(accounts));
  store.apply(core.commitBlock().writes);
  const ctx = { height: 1n, timestamp: 1_700_000_010n, proposer: addr(900), gasPrice: 10n, chainId: 1618032n, allowUnsigned: true, blockGasLimit: 100_000_000n };
  const bundles = Array.from({ length: 50 }, (_, i) => ({
    bytes: encodeBundle({ user: addr(i), ops: [{ kind: 'transfer', to: addr(1000 + i), token: NTV, amount: 5n }], nonce: 0n, maxGas: 1_000_000n, maxPriorityFee: 0n, validUntil: 1_800_000_000n }),
    auth: 0,
  }));
  core.applyBlock(ctx, bundles);
  store.apply(core.commitBlock().writes);
  return { core, store, root: core.stateRoot() };
}

describe('state proofs', () => {
  it('prove present and absent keys against the core\'s state root', async () => {
    const { store, root } = await chain(400);
    const present = [balanceKey(addr(3), NTV), balanceKey(addr(1003), NTV), accountKey(addr(7)), balanceKey(addr(399), mintOf(2))];
    for (const key of present) {
      const proof = proveState(store, key);
      expect(proof.value).toBeDefined();
      expect(verifyStateProof(proof, root)).toEqual({ ok: true, present: true, value: proof.value });
    }
    const absent = [balanceKey(addr(5000), NTV), accountKey(addr(6000)), balanceKey(addr(3), mintOf(9))];
    for (const key of absent) {
      const proof = proveState(store, key);
      expect(proof.value).toBeUndefined();
      expect(verifyStateProof(proof, root)).toMatchObject({ ok: true, present: false });
    }
  });

  it('refuse a tampered value, record, sibling or bucket, and another root', async () => {
    const { store, root } = await chain(400);
    const other = (await chain(401)).root;
    const proof = proveState(store, balanceKey(addr(3), NTV));
    const tamper = (f: (p: StateProof) => StateProof) => verifyStateProof(f(structuredClone(proof)), root);
    const flip = (b: Uint8Array, at = 0) => { const c = b.slice(); c[at]! ^= 1; return c; };
    expect(tamper((p) => ({ ...p, value: flip(p.value!, 0) }))).toMatchObject({ ok: false, reason: expect.stringMatching(/leaf/) });
    expect(tamper((p) => ({ ...p, value: undefined }))).toMatchObject({ ok: false, reason: expect.stringMatching(/present/) });
    expect(tamper((p) => ({ ...p, entries: flip(p.entries, p.entries.length - 1) }))).toMatchObject({ ok: false });
    expect(tamper((p) => ({ ...p, siblings: p.siblings.map((s, i) => (i === 9 ? flip(s) : s)) }))).toMatchObject({ ok: false, reason: expect.stringMatching(/another state root/) });
    expect(tamper((p) => ({ ...p, siblings: p.siblings.slice(1) }))).toMatchObject({ ok: false });
    expect(tamper((p) => ({ ...p, bucket: p.bucket ^ 1 }))).toMatchObject({ ok: false });
    expect(verifyStateProof(proof, other)).toMatchObject({ ok: false, reason: expect.stringMatching(/another state root/) });
    // an absence claimed for a present key: the record shows the entry
    const absentClaim = { ...proof, value: undefined };
    expect(verifyStateProof(absentClaim, root)).toMatchObject({ ok: false });
    // an entry removed from the record to fake absence changes the bucket hash
    const absentKey = balanceKey(addr(5000), NTV);
    const absent = proveState(store, absentKey);
    expect(verifyStateProof({ ...absent, value: new Uint8Array(16) }, root)).toMatchObject({ ok: false, reason: expect.stringMatching(/no entry/) });
  });
});
