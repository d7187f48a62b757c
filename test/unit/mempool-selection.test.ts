import { describe, expect, it } from 'vitest';
import { Mempool, type MempoolAdmission, type PendingBundle } from '../../src/chain/mempool.js';

// Selection from a pool whose bundles arrive out of nonce order (docs/mempool.md "Selection",
// docs/performance.md "Selection from a pool of queued bundles"): queued runs promoted as their gap
// fills, the ready order, the caps counted through promotions, replacement and execution.

let counter = 0;
function bundle(account: string, nonce: bigint, opts: { fee?: bigint; nodeAssigned?: boolean } = {}): PendingBundle {
  const id = counter++;
  const hash = new Uint8Array(32);
  new DataView(hash.buffer).setUint32(0, id);
  return {
    hash, hashKey: `s${id}`, bytes: new Uint8Array(0), account: new Uint8Array(32), accountKey: account, nonce,
    expiresAt: 2_000_000_000n, priorityFee: opts.fee ?? 0n,
    auth: { kind: 0, keyHash: new Uint8Array(32), pubkey: new Uint8Array(0) }, nodeAssigned: opts.nodeAssigned ?? false,
  };
}

const NOW = 1_700_000_000n;

function ok(result: MempoolAdmission) {
  if (!result.ok) throw new Error(`refused: ${result.refusal.status}`);
  return result;
}

function refusal(result: MempoolAdmission) {
  if (result.ok) throw new Error('admitted');
  return result.refusal;
}

const names = (entries: PendingBundle[]) => entries.map((e) => `${e.accountKey}${e.nonce}`);

describe('Mempool selection with out-of-order arrivals', () => {
  it('promotes a whole queued run when the missing nonce arrives, and selects it in nonce order', () => {
    const pool = new Mempool();
    for (const n of [5n, 3n, 4n, 1n, 2n]) expect(ok(pool.add(bundle('a', n), 0n, NOW))).toMatchObject({ queued: true, nextNonce: 0n });
    expect(pool.queuedCount).toBe(5);
    expect(pool.selectReady(10)).toEqual([]);
    expect(pool.pendingNonce('a', 0n)).toBe(0n);
    expect(ok(pool.add(bundle('a', 0n), 0n, NOW))).toMatchObject({ queued: false, nextNonce: 6n });
    expect(pool.queuedCount).toBe(0);
    expect(names(pool.selectReady(10))).toEqual(['a0', 'a1', 'a2', 'a3', 'a4', 'a5']);
    expect(names(pool.selectReady(4))).toEqual(['a0', 'a1', 'a2', 'a3']);
    // A gap further on stops the promotion there.
    ok(pool.add(bundle('a', 8n), 0n, NOW));
    expect(ok(pool.add(bundle('a', 6n), 0n, NOW)).nextNonce).toBe(7n);
    expect(pool.queuedCount).toBe(1);
    expect(ok(pool.add(bundle('a', 7n), 0n, NOW)).nextNonce).toBe(9n);
    expect(pool.queuedCount).toBe(0);
  });

  it('selects accounts in the order their ready run became non-empty; queued-only accounts wait their turn', () => {
    const pool = new Mempool();
    ok(pool.add(bundle('early', 1n), 0n, NOW)); // first in the pool, but queued
    ok(pool.add(bundle('b', 0n), 0n, NOW));
    ok(pool.add(bundle('c', 0n), 0n, NOW));
    ok(pool.add(bundle('c', 1n), 0n, NOW));
    expect(names(pool.selectReady(10))).toEqual(['b0', 'c0', 'c1']);
    // Its gap fills: it joins after the accounts already ready.
    ok(pool.add(bundle('early', 0n), 0n, NOW));
    expect(names(pool.selectReady(10))).toEqual(['b0', 'c0', 'c1', 'early0', 'early1']);
    // A block that takes part of c's run leaves c in its place.
    expect(names(pool.selectReady(2))).toEqual(['b0', 'c0']);
  });

  it('keeps an account\'s place across blocks while its run lasts, and puts it last once it drained and came back', () => {
    const pool = new Mempool();
    const a = [0n, 1n, 2n].map((n) => bundle('a', n));
    for (const e of a) ok(pool.add(e, 0n, NOW));
    const b0 = bundle('b', 0n);
    ok(pool.add(b0, 0n, NOW));
    // a block of 2: a0 and a1 execute, a keeps the head of the order with a2
    for (const e of pool.selectReady(2)) expect(pool.executed(e)).toEqual([]);
    expect(names(pool.selectReady(10))).toEqual(['a2', 'b0']);
    expect(pool.executed(a[2]!)).toEqual([]);
    expect(pool.executed(b0)).toEqual([]);
    expect(pool.size).toBe(0);
    // b sends again first, then a
    ok(pool.add(bundle('b', 1n), 1n, NOW));
    ok(pool.add(bundle('a', 3n), 3n, NOW));
    expect(names(pool.selectReady(10))).toEqual(['b1', 'a3']);
  });

  it('an account whose run is emptied by a removal leaves the order and rejoins at the end when refilled', () => {
    const pool = new Mempool();
    const a0 = bundle('a', 0n);
    ok(pool.add(a0, 0n, NOW));
    ok(pool.add(bundle('a', 1n), 0n, NOW));
    ok(pool.add(bundle('b', 0n), 0n, NOW));
    pool.remove(a0); // failed: a1 now waits behind the gap
    expect(pool.queuedCount).toBe(1);
    expect(names(pool.selectReady(10))).toEqual(['b0']);
    ok(pool.add(bundle('a', 0n), 0n, NOW));
    expect(pool.queuedCount).toBe(0);
    expect(names(pool.selectReady(10))).toEqual(['b0', 'a0', 'a1']);
  });

  it('counts the per-account and global queue caps through promotions', () => {
    const pool = new Mempool({ maxQueuedPerAccount: 3, maxQueued: 4 });
    for (const n of [3n, 2n, 1n]) ok(pool.add(bundle('a', n), 0n, NOW));
    expect(refusal(pool.add(bundle('a', 4n), 0n, NOW))).toMatchObject({ status: 'ACCOUNT_QUEUE_FULL', limit: 3, nextNonce: 0n });
    ok(pool.add(bundle('b', 1n), 0n, NOW));
    // the queue is full: b, holding fewer than a, gets in at a's expense (fair share, below)
    expect(ok(pool.add(bundle('b', 2n), 0n, NOW)).dropped).toMatchObject([{ entry: { accountKey: 'a', nonce: 3n }, reason: 'EVICTED' }]);
    // a's nonce 0 promotes its two: the global cap has room again
    expect(ok(pool.add(bundle('a', 0n), 0n, NOW)).nextNonce).toBe(3n);
    expect(pool.queuedCount).toBe(2);
    for (const n of [5n, 6n]) expect(ok(pool.add(bundle('a', n), 0n, NOW)).queued).toBe(true);
    // full, with a and b level at 2: neither gets a third
    expect(refusal(pool.add(bundle('b', 3n), 0n, NOW))).toMatchObject({ status: 'QUEUE_FULL', limit: 4, nextNonce: 0n });
    expect(refusal(pool.add(bundle('a', 7n), 0n, NOW)).status).toBe('QUEUE_FULL');
    // the gap is measured from the next free nonce, past the promoted run
    const gapped = new Mempool({ maxNonceGap: 2n });
    for (const n of [2n, 1n, 0n]) ok(gapped.add(bundle('a', n), 0n, NOW));
    expect(ok(gapped.add(bundle('a', 5n), 0n, NOW)).queued).toBe(true);
    expect(refusal(gapped.add(bundle('a', 6n), 0n, NOW))).toMatchObject({ status: 'NONCE_GAP_TOO_LARGE', limit: 2n, nextNonce: 3n });
  });

  it('a full queue takes the newest queued bundle of the largest holder for an account holding fewer (issue 46 item 8)', () => {
    const pool = new Mempool({ maxQueuedPerAccount: 4, maxQueued: 6 });
    // one sender parks first: squatter accounts s and t hold the whole queue
    for (const n of [1n, 2n, 3n, 4n]) ok(pool.add(bundle('s', n), 0n, NOW));
    for (const n of [1n, 2n]) ok(pool.add(bundle('t', n), 0n, NOW));
    expect(pool.queuedCount).toBe(6);
    // an owner's out-of-order send still gets in, at s's expense (its newest, nonce 4: no gap opens)
    const owner = bundle('o', 1n);
    const first = ok(pool.add(owner, 0n, NOW));
    expect(first.queued).toBe(true);
    expect(first.dropped).toMatchObject([{ entry: { accountKey: 's', nonce: 4n }, reason: 'EVICTED', by: owner }]);
    expect(pool.queuedCount).toBe(6);
    // and the next, now from s (3) or t (2), whichever holds more
    expect(ok(pool.add(bundle('o', 2n), 0n, NOW)).dropped).toMatchObject([{ entry: { accountKey: 's', nonce: 3n }, reason: 'EVICTED' }]);
    // holdings are level (s 2, t 2, o 2): a third would make o the largest, so it is refused
    expect(refusal(pool.add(bundle('o', 3n), 0n, NOW)).status).toBe('QUEUE_FULL');
    expect(refusal(pool.add(bundle('s', 5n), 0n, NOW)).status).toBe('QUEUE_FULL');
    // executable bundles never count against the queue
    expect(ok(pool.add(bundle('o', 0n), 0n, NOW)).queued).toBe(false);
    expect(pool.queuedCount).toBe(4);
  });

  it('replaces a queued bundle in place; the promoted run carries the replacement', () => {
    const pool = new Mempool();
    const first = bundle('a', 1n, { fee: 10n });
    ok(pool.add(first, 0n, NOW));
    expect(refusal(pool.add(bundle('a', 1n, { fee: 10n }), 0n, NOW))).toMatchObject({ status: 'REPLACEMENT_UNDERPRICED', minPriorityFee: 11n, pending: first, nextNonce: 0n });
    const better = bundle('a', 1n, { fee: 11n });
    expect(ok(pool.add(better, 0n, NOW))).toMatchObject({ queued: true, dropped: [{ entry: first, reason: 'REPLACED', by: better }] });
    expect(pool.queuedCount).toBe(1);
    ok(pool.add(bundle('a', 0n), 0n, NOW));
    expect(pool.selectReady(10)[1]).toBe(better);
    expect(pool.has(first.hashKey)).toBe(false);
  });

  it('an imported block executing past a gap drops the used nonces and promotes what follows', () => {
    const pool = new Mempool();
    const mine = [0n, 2n, 3n, 5n].map((n) => bundle('a', n));
    for (const e of mine) ok(pool.add(e, 0n, NOW));
    expect(pool.queuedCount).toBe(3);
    // Another node's block executed nonces 0..2 of this account (other bundles): ours of 0 and 2 are used.
    const theirs = [0n, 1n, 2n].map((n) => bundle('a', n));
    expect(pool.executed(theirs[0]!)).toEqual([{ entry: mine[0], reason: 'NONCE_USED' }]);
    expect(pool.executed(theirs[1]!)).toEqual([]);
    expect(pool.executed(theirs[2]!)).toEqual([{ entry: mine[1], reason: 'NONCE_USED' }]);
    expect(pool.queuedCount).toBe(1);
    expect(names(pool.selectReady(10))).toEqual(['a3']);
    expect(pool.pendingNonce('a', 3n)).toBe(4n);
    // executing our own a3 leaves a5 queued and the account out of the selection
    expect(pool.executed(mine[2]!)).toEqual([]);
    expect(pool.selectReady(10)).toEqual([]);
    expect(pool.isQueued(mine[3]!)).toBe(true);
    expect(pool.size).toBe(1);
  });

  it('refuses absurd nonces exactly, the nonce-gap cap held to 2^40', () => {
    const pool = new Mempool({ maxNonceGap: 1n << 62n });
    expect(refusal(pool.add(bundle('a', 2n ** 64n - 1n), 0n, NOW))).toMatchObject({ status: 'NONCE_GAP_TOO_LARGE', limit: 1n << 40n, nextNonce: 0n });
    expect(ok(pool.add(bundle('a', 1n << 40n), 0n, NOW)).queued).toBe(true);
    expect(refusal(pool.add(bundle('a', (1n << 40n) + 1n), 0n, NOW)).status).toBe('NONCE_GAP_TOO_LARGE');
    // accounts whose committed nonce is near the top of u64 work as any other
    const top = 2n ** 64n - 3n;
    ok(pool.add(bundle('t', top + 1n), top, NOW));
    ok(pool.add(bundle('t', top), top, NOW));
    expect(pool.pendingNonce('t', top)).toBe(top + 2n);
    expect(refusal(pool.add(bundle('t', top - 1n), top, NOW)).status).toBe('NONCE_TOO_LOW');
  });

  it('selects a 10,000-bundle block from 10,000 accounts with queued bundles without visiting the queued-only ones', () => {
    const accounts = 10_000;
    const pool = new Mempool({ maxQueued: 100_000 });
    // every account parks nonces 1..7 first; only the first 1,250 send their nonce 0
    for (let n = 7n; n >= 1n; n--) for (let a = 0; a < accounts; a++) ok(pool.add(bundle(`x${a}`, n), 0n, NOW));
    for (let a = 0; a < 1_250; a++) ok(pool.add(bundle(`x${a}`, 0n), 0n, NOW));
    expect(pool.queuedCount).toBe((accounts - 1_250) * 7);
    const block = pool.selectReady(10_000);
    expect(block.length).toBe(10_000);
    // 1,250 runs of 8, each in nonce order, accounts in the order their nonce 0 arrived
    expect(block.slice(0, 9).map((e) => `${e.accountKey}:${e.nonce}`)).toEqual(['x0:0', 'x0:1', 'x0:2', 'x0:3', 'x0:4', 'x0:5', 'x0:6', 'x0:7', 'x1:0']);
    for (const e of block) pool.executed(e);
    expect(pool.size).toBe((accounts - 1_250) * 7);
    expect(pool.selectReady(10_000)).toEqual([]);
  });
});
