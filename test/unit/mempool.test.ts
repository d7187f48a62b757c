import { describe, expect, it } from 'vitest';
import { evmReplacement, Mempool, type MempoolAdmission, type PendingBundle } from '../../src/chain/mempool.js';

/** Mempool entries without real bundles: the pool reads only these fields (docs/mempool.md). */
let counter = 0;
function bundle(account: string, nonce: bigint, opts: { fee?: bigint; expiresAt?: bigint; nodeAssigned?: boolean } = {}): PendingBundle {
  const id = counter++;
  const hash = new Uint8Array(32);
  new DataView(hash.buffer).setUint32(0, id);
  return {
    hash, hashKey: `h${id}`, bytes: new Uint8Array(0), account: new Uint8Array(32), accountKey: account, nonce,
    expiresAt: opts.expiresAt ?? 2_000_000_000n, priorityFee: opts.fee ?? 0n,
    auth: { kind: 0, keyHash: new Uint8Array(32), pubkey: new Uint8Array(0) }, nodeAssigned: opts.nodeAssigned ?? false,
  };
}

const NOW = 1_700_000_000n;

function ok(result: MempoolAdmission): { queued: boolean; nextNonce: bigint; dropped: unknown[] } {
  if (!result.ok) throw new Error(`refused: ${result.refusal.status}`);
  return result;
}

function refusal(result: MempoolAdmission) {
  if (result.ok) throw new Error('admitted');
  return result.refusal;
}

describe('Mempool bounds (docs/mempool.md)', () => {
  it('tells ready from queued and moves bundles into the ready run as gaps fill', () => {
    const pool = new Mempool();
    expect(ok(pool.add(bundle('a', 0n), 0n, NOW))).toMatchObject({ queued: false, nextNonce: 1n });
    const b2 = bundle('a', 2n);
    expect(ok(pool.add(b2, 0n, NOW))).toMatchObject({ queued: true, nextNonce: 1n });
    expect(pool.queuedCount).toBe(1);
    expect(pool.isQueued(b2)).toBe(true);
    expect(pool.selectReady(10).map((e) => e.nonce)).toEqual([0n]);
    // Nonce 1 fills the gap: 0..2 are ready, nothing is queued.
    expect(ok(pool.add(bundle('a', 1n), 0n, NOW))).toMatchObject({ queued: false, nextNonce: 3n });
    expect(pool.queuedCount).toBe(0);
    expect(pool.isQueued(b2)).toBe(false);
    expect(pool.pendingNonce('a', 0n)).toBe(3n);
    expect(pool.selectReady(10).map((e) => e.nonce)).toEqual([0n, 1n, 2n]);
  });

  it('refuses a nonce further than the max gap past the next free nonce, 2^64−1 included', () => {
    const pool = new Mempool({ maxNonceGap: 10n });
    ok(pool.add(bundle('a', 0n), 0n, NOW));
    // next free nonce is 1: 1 + 10 is the furthest allowed
    expect(ok(pool.add(bundle('a', 11n), 0n, NOW)).queued).toBe(true);
    expect(refusal(pool.add(bundle('a', 12n), 0n, NOW))).toMatchObject({ status: 'NONCE_GAP_TOO_LARGE', limit: 10n, nextNonce: 1n });
    expect(refusal(pool.add(bundle('b', 2n ** 64n - 1n), 0n, NOW))).toMatchObject({ status: 'NONCE_GAP_TOO_LARGE', nextNonce: 0n });
    expect(pool.size).toBe(2);
  });

  it('caps the queued bundles of one account but not its ready run', () => {
    const pool = new Mempool({ maxQueuedPerAccount: 3 });
    for (let n = 0n; n < 10n; n++) ok(pool.add(bundle('a', n), 0n, NOW));
    for (const n of [20n, 22n, 24n]) expect(ok(pool.add(bundle('a', n), 0n, NOW)).queued).toBe(true);
    expect(refusal(pool.add(bundle('a', 26n), 0n, NOW))).toMatchObject({ status: 'ACCOUNT_QUEUE_FULL', limit: 3, nextNonce: 10n });
    // Another account has its own allowance, and a ready bundle of the full account still gets in.
    expect(ok(pool.add(bundle('b', 5n), 0n, NOW)).queued).toBe(true);
    expect(ok(pool.add(bundle('a', 10n), 0n, NOW)).queued).toBe(false);
    expect(pool.queuedCount).toBe(4);
  });

  it('caps the queued bundles across accounts, leaving room for executable ones', () => {
    const pool = new Mempool({ maxQueued: 2 });
    ok(pool.add(bundle('a', 1n), 0n, NOW));
    ok(pool.add(bundle('b', 1n), 0n, NOW));
    expect(refusal(pool.add(bundle('c', 1n), 0n, NOW))).toMatchObject({ status: 'QUEUE_FULL', limit: 2 });
    expect(ok(pool.add(bundle('c', 0n), 0n, NOW)).queued).toBe(false);
    // a's gap fills: its bundle is ready, which frees a queued slot
    ok(pool.add(bundle('a', 0n), 0n, NOW));
    expect(pool.queuedCount).toBe(1);
    expect(ok(pool.add(bundle('c', 2n), 0n, NOW)).queued).toBe(true);
  });

  it('when full, evicts the cheapest bundle for a better-paying one and never for a cheaper or equal one', () => {
    const pool = new Mempool({ maxBundles: 3 });
    const cheap = bundle('a', 0n, { fee: 1n });
    ok(pool.add(cheap, 0n, NOW));
    ok(pool.add(bundle('b', 0n, { fee: 5n }), 0n, NOW));
    ok(pool.add(bundle('c', 0n, { fee: 9n }), 0n, NOW));
    // equal to the cheapest: refused, and told what would get in
    expect(refusal(pool.add(bundle('d', 0n, { fee: 1n }), 0n, NOW))).toMatchObject({ status: 'MEMPOOL_FULL', limit: 3, minPriorityFee: 2n });
    expect(refusal(pool.add(bundle('d', 0n, { fee: 0n }), 0n, NOW)).status).toBe('MEMPOOL_FULL');
    const rich = bundle('d', 0n, { fee: 2n });
    const admitted = ok(pool.add(rich, 0n, NOW));
    expect(admitted.dropped).toEqual([{ entry: cheap, reason: 'EVICTED', by: rich }]);
    expect(pool.has(cheap.hashKey)).toBe(false);
    expect(pool.size).toBe(3);
    // The cheapest is now the one paying 2: a 2 cannot evict it, a 3 can, and the 9 stays.
    expect(refusal(pool.add(bundle('e', 0n, { fee: 2n }), 0n, NOW)).minPriorityFee).toBe(3n);
    const evicted = ok(pool.add(bundle('e', 0n, { fee: 3n }), 0n, NOW)).dropped as Array<{ entry: PendingBundle }>;
    expect(evicted.map((d) => d.entry)).toEqual([rich]);
    expect(pool.selectReady(10).map((e) => e.priorityFee).sort()).toEqual([3n, 5n, 9n]);
  });

  it('an eviction inside an account\'s ready run leaves the rest queued behind the gap', () => {
    const pool = new Mempool({ maxBundles: 3 });
    ok(pool.add(bundle('a', 0n, { fee: 4n }), 0n, NOW));
    const middle = bundle('a', 1n, { fee: 1n });
    ok(pool.add(middle, 0n, NOW));
    ok(pool.add(bundle('a', 2n, { fee: 4n }), 0n, NOW));
    ok(pool.add(bundle('b', 0n, { fee: 2n }), 0n, NOW));
    expect(pool.has(middle.hashKey)).toBe(false);
    expect(pool.queuedCount).toBe(1);
    expect(pool.pendingNonce('a', 0n)).toBe(1n);
    expect(pool.selectReady(10).map((e) => `${e.accountKey}${e.nonce}`)).toEqual(['a0', 'b0']);
  });

  it('replaces a same-nonce bundle only for at least 10% more max_priority_fee (and at least 1 more)', () => {
    const pool = new Mempool();
    const first = bundle('a', 0n, { fee: 100n });
    ok(pool.add(first, 0n, NOW));
    expect(refusal(pool.add(bundle('a', 0n, { fee: 109n }), 0n, NOW))).toMatchObject({ status: 'REPLACEMENT_UNDERPRICED', minPriorityFee: 110n, pending: first });
    const second = bundle('a', 0n, { fee: 110n });
    expect(ok(pool.add(second, 0n, NOW)).dropped).toEqual([{ entry: first, reason: 'REPLACED', by: second }]);
    expect(pool.size).toBe(1);
    expect(pool.get(second.hashKey)).toBe(second);
    expect(pool.has(first.hashKey)).toBe(false);
    // a zero tip is replaced by a tip of 1, not by another zero
    ok(pool.add(bundle('z', 3n), 0n, NOW));
    expect(refusal(pool.add(bundle('z', 3n), 0n, NOW)).minPriorityFee).toBe(1n);
    ok(pool.add(bundle('z', 3n, { fee: 1n }), 0n, NOW));
    expect(pool.queuedCount).toBe(1);
    // the replaced one no longer counts for eviction
    const full = new Mempool({ maxBundles: 1 });
    ok(full.add(bundle('a', 0n, { fee: 1n }), 0n, NOW));
    ok(full.add(bundle('a', 0n, { fee: 50n }), 0n, NOW));
    expect(refusal(full.add(bundle('b', 0n, { fee: 20n }), 0n, NOW)).minPriorityFee).toBe(51n);
  });

  it('drops bundles past their valid_until or the pool lifetime, queued ones included', () => {
    const pool = new Mempool({ lifetimeSeconds: 100n });
    const soon = bundle('a', 5n, { expiresAt: NOW + 10n });
    const evm = bundle('b', 3n, { expiresAt: 2n ** 64n - 1n });
    const ready = bundle('c', 0n, { expiresAt: NOW + 1000n });
    ok(pool.add(soon, 0n, NOW));
    ok(pool.add(evm, 0n, NOW));
    ok(pool.add(ready, 0n, NOW + 50n));
    expect(pool.expire(NOW + 10n)).toEqual([]);
    expect(pool.expire(NOW + 11n)).toEqual([{ entry: soon, reason: 'EXPIRED' }]);
    expect(pool.expire(NOW + 101n)).toEqual([{ entry: evm, reason: 'LIFETIME' }]);
    expect(pool.queuedCount).toBe(0);
    expect(pool.size).toBe(1);
    expect(pool.expire(NOW + 151n)).toEqual([{ entry: ready, reason: 'LIFETIME' }]);
    expect(pool.size).toBe(0);
  });

  it('executing a bundle advances the run without re-walking it, and drops bundles of a nonce used elsewhere', () => {
    const pool = new Mempool();
    const entries = [0n, 1n, 2n, 3n].map((n) => bundle('a', n));
    for (const e of entries) ok(pool.add(e, 0n, NOW));
    ok(pool.add(bundle('a', 6n), 0n, NOW));
    expect(pool.executed(entries[0]!)).toEqual([]);
    expect(pool.executed(entries[1]!)).toEqual([]);
    expect(pool.pendingNonce('a', 2n)).toBe(4n);
    expect(pool.selectReady(10).map((e) => e.nonce)).toEqual([2n, 3n]);
    expect(pool.queuedCount).toBe(1);
    // An imported block executed another bundle of nonce 2: ours can never execute.
    const other = bundle('a', 2n);
    expect(pool.executed(other)).toEqual([{ entry: entries[2], reason: 'NONCE_USED' }]);
    expect(pool.selectReady(10).map((e) => e.nonce)).toEqual([3n]);
    // A committed nonce read at admission past the pool's view drops the used ones too.
    const late = ok(pool.add(bundle('a', 4n), 4n, NOW));
    expect(late.dropped).toEqual([{ entry: entries[3], reason: 'NONCE_USED' }]);
    expect(late).toMatchObject({ queued: false, nextNonce: 5n });
    expect(pool.queuedCount).toBe(1);
    expect(ok(pool.add(bundle('a', 5n), 4n, NOW))).toMatchObject({ queued: false, nextNonce: 7n });
    expect(pool.queuedCount).toBe(0);
    expect(refusal(pool.add(bundle('a', 3n), 4n, NOW)).status).toBe('NONCE_TOO_LOW');
  });

  it('a failed bundle keeps its nonce: removing it leaves its followers queued', () => {
    const pool = new Mempool();
    const entries = [0n, 1n, 2n].map((n) => bundle('a', n));
    for (const e of entries) ok(pool.add(e, 0n, NOW));
    pool.remove(entries[0]!);
    expect(pool.queuedCount).toBe(2);
    expect(pool.selectReady(10)).toEqual([]);
    expect(pool.pendingNonce('a', 0n)).toBe(0n);
    expect(pool.after('a', 0n)).toEqual([entries[1], entries[2]]);
  });

  it('keeps its counts right through any mix of admissions, executions, failures, evictions and expiry', () => {
    // A fixed-seed generator (xorshift32): the same sequence on every run.
    let x = 0x9e3779b9;
    const rand = (n: number) => {
      x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
      return x % n;
    };
    const limits = { maxBundles: 60, maxQueued: 25, maxQueuedPerAccount: 4, maxNonceGap: 6n, lifetimeSeconds: 50n };
    const pool = new Mempool(limits);
    const committed = new Map<string, bigint>();
    let now = NOW;
    for (let step = 0; step < 20_000; step++) {
      const account = `a${rand(8)}`;
      const state = committed.get(account) ?? 0n;
      const op = rand(10);
      if (op < 6) {
        const nonce = state + BigInt(rand(9));
        pool.add(bundle(account, nonce, { fee: BigInt(rand(4)), expiresAt: now + BigInt(rand(80)) }), state, now);
      } else if (op < 8) {
        // a block: the ready run executes (some of it)
        for (const e of pool.selectReady(1 + rand(6))) {
          pool.executed(e);
          committed.set(e.accountKey, e.nonce + 1n);
        }
      } else if (op === 8) {
        const ready = pool.selectReady(100);
        if (ready.length > 0) pool.remove(ready[rand(ready.length)]!);
      } else {
        now += BigInt(rand(10));
        pool.expire(now);
      }
      const ready = pool.selectReady(1_000);
      expect(ready.length + pool.queuedCount).toBe(pool.size);
      expect(pool.size).toBeLessThanOrEqual(limits.maxBundles);
      // the ready runs are contiguous from each account's committed nonce
      const runs = new Map<string, bigint[]>();
      for (const e of ready) runs.set(e.accountKey, [...(runs.get(e.accountKey) ?? []), e.nonce]);
      for (const [acct, nonces] of runs) {
        nonces.forEach((n, i) => expect(n).toBe((committed.get(acct) ?? 0n) + BigInt(i)));
        expect(pool.pendingNonce(acct, committed.get(acct) ?? 0n)).toBe((committed.get(acct) ?? 0n) + BigInt(nonces.length));
      }
    }
  });

  it('keeps admission cheap at scale and its lazy orders compact', () => {
    const pool = new Mempool({ maxBundles: 50_000 });
    const accounts = 5_000;
    // Baseline in the same run, interleaved so a noisy neighbour weighs on both alike (a bare time
    // bound failed on a loaded machine): the same admissions, each round into a fresh pool.
    let atScale = 0;
    let fresh = 0;
    for (let n = 0n; n < 20n; n++) {
      const entries = Array.from({ length: accounts }, (_, a) => bundle(`acct${a}`, n, { fee: BigInt(a % 7) }));
      const small = Array.from({ length: accounts }, (_, a) => bundle(`acct${a}`, 0n, { fee: BigInt(a % 7) }));
      let started = performance.now();
      for (const entry of entries) pool.add(entry, 0n, NOW);
      atScale += performance.now() - started;
      const baseline = new Mempool({ maxBundles: 50_000 });
      started = performance.now();
      for (const entry of small) baseline.add(entry, 0n, NOW);
      fresh += performance.now() - started;
      // a block takes the ready ones, as the chain does after execution
      if (n % 2n === 1n) for (const e of pool.selectReady(10_000)) pool.executed(e);
    }
    expect(pool.size).toBeLessThanOrEqual(50_000);
    // 100,000 admissions into a pool of up to 50,000 (evicting once full) cost per bundle about what
    // 5,000 into an empty pool do: O(log n) each, where O(n) would be thousands of times more.
    expect(atScale / fresh).toBeLessThan(5);
    // every bundle is either in a ready run or counted as queued
    expect(pool.selectReady(1_000_000).length + pool.queuedCount).toBe(pool.size);
  });
});

describe('EVM replacement (geth\'s rule in wei, docs/eth.md "Replacement")', () => {
  const evm = (nonce: bigint, tip: bigint, cap: bigint, fee = 0n): PendingBundle => {
    const b = bundle('e', nonce, { fee });
    return { ...b, auth: { kind: 3, keyHash: new Uint8Array(32), pubkey: new Uint8Array(0), evmFees: { tip, cap } } };
  };
  const GWEI = 1_000_000_000n;

  it('needs strictly more and old × 110 / 100 on both fields, wei-exact, whatever the nanoNTV tip', () => {
    expect(evmReplacement({ tip: GWEI, cap: 20n * GWEI }, { tip: 1_100_000_000n, cap: 22n * GWEI })).toEqual({ ok: true, min: { tip: 1_100_000_000n, cap: 22n * GWEI } });
    expect(evmReplacement({ tip: GWEI, cap: 20n * GWEI }, { tip: 1_099_999_999n, cap: 30n * GWEI })!.ok).toBe(false);
    expect(evmReplacement({ tip: GWEI, cap: 20n * GWEI }, { tip: 2n * GWEI, cap: 21_999_999_999n })!.ok).toBe(false);
    // a 0 tip: any positive tip (strictly more), as geth
    expect(evmReplacement({ tip: 0n, cap: 10n }, { tip: 0n, cap: 11n })!.ok).toBe(false);
    expect(evmReplacement({ tip: 0n, cap: 10n }, { tip: 1n, cap: 11n })!.ok).toBe(true);
    // 9 wei: 9 × 110 / 100 = 9.9, rounded down to 9, so strictly more (10) is the bar
    expect(evmReplacement({ tip: 9n, cap: 9n }, { tip: 10n, cap: 10n })!.ok).toBe(true);
    expect(evmReplacement(undefined, { tip: 1n, cap: 1n })).toBeUndefined();
  });

  it('replaces in the pool by the wei rule between EVM transactions: 1.0 → 1.1 gwei, both 1 nanoNTV of tip', () => {
    const pool = new Mempool();
    const first = evm(0n, GWEI, 20n * GWEI, 1n);
    ok(pool.add(first, 0n, NOW));
    expect(refusal(pool.add(evm(0n, 1_099_000_000n, 30n * GWEI, 1n), 0n, NOW))).toMatchObject({
      status: 'REPLACEMENT_UNDERPRICED', minEvmFees: { tip: 1_100_000_000n, cap: 22n * GWEI }, pending: first,
    });
    const second = evm(0n, 1_100_000_000n, 22n * GWEI, 1n);
    expect(ok(pool.add(second, 0n, NOW)).dropped).toMatchObject([{ entry: first, reason: 'REPLACED' }]);
    expect(pool.selectReady(10)).toEqual([second]);
  });
});
