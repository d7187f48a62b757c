import { describe, expect, it } from 'vitest';
import { Notifier, type NotifierDependencies } from '../../src/chain/pipeline/5-notify.js';
import { ChainError } from '../../src/chain/errors.js';
import type { PendingBundle } from '../../src/chain/mempool.js';
import type { Receipt } from '../../src/chain/receipts.js';
import { encodeHash } from '../../src/codec/address.js';

// The callers waiting for their bundles share one timer per slice of time (docs/performance.md
// "Changes measured"); what each caller is answered, and when, is what it was with a timer each.

function notifier(inclusionTimeoutMs: number): Notifier {
  return new Notifier({ inclusionTimeoutMs } as NotifierDependencies);
}

function entry(n: number): PendingBundle {
  const hash = new Uint8Array(32).fill(n);
  return { hash, hashKey: Buffer.from(hash).toString('hex'), nonce: BigInt(n) } as PendingBundle;
}

const receipt = { status: 'success' } as Receipt;

describe('Notifier waiters', () => {
  it('answers INCLUSION_TIMEOUT no sooner than the timeout, naming the bundle and its nonce', async () => {
    const n = notifier(200);
    const started = performance.now();
    const error = await n.wait(entry(7)).then(() => undefined, (e: unknown) => e);
    expect(performance.now() - started).toBeGreaterThanOrEqual(199);
    expect(error).toBeInstanceOf(ChainError);
    expect((error as ChainError).reason).toBe('INCLUSION_TIMEOUT');
    expect((error as ChainError).message).toBe('bundle not in a block after 200 ms; it stays in the mempool (query svc_getTransactionReceipt)');
    expect((error as ChainError).data).toEqual({ bundle_hash: encodeHash(entry(7).hash), nonce: '7' });
  });

  it('answers every caller of a settled bundle once, and none of them times out afterwards', async () => {
    const n = notifier(100);
    const answers: unknown[] = [];
    const waits = [n.wait(entry(1)), n.wait(entry(1)), n.wait(entry(2))].map((p) => p.then((r) => answers.push(r), (e: unknown) => answers.push(e)));
    n.settle(entry(1).hashKey, receipt);
    const failure = new ChainError('BUNDLE_INVALID', 'refused');
    n.settle(entry(2).hashKey, undefined, failure);
    await Promise.all(waits);
    expect(answers).toEqual([receipt, receipt, failure]);
    await new Promise((r) => setTimeout(r, 250));
    expect(answers).toHaveLength(3);
  });

  it('times out only the callers still waiting, in the order they came', async () => {
    const n = notifier(100);
    const answers: string[] = [];
    const waits = [1, 2, 3].map((i) => n.wait(entry(i)).then(() => answers.push(`ok ${i}`), (e: ChainError) => answers.push(`${e.reason} ${i}`)));
    n.settle(entry(2).hashKey, receipt);
    await Promise.all(waits);
    expect(answers).toEqual(['ok 2', 'INCLUSION_TIMEOUT 1', 'INCLUSION_TIMEOUT 3']);
    // a later caller of the same bundle gets its own full timeout
    const later = performance.now();
    await expect(n.wait(entry(1))).rejects.toMatchObject({ reason: 'INCLUSION_TIMEOUT' });
    expect(performance.now() - later).toBeGreaterThanOrEqual(99);
  });

  it('refuses every waiting caller when the node stops', async () => {
    const n = notifier(60_000);
    const waiting = [n.wait(entry(4)), n.wait(entry(5))];
    n.refuseAll();
    for (const w of waiting) await expect(w).rejects.toMatchObject({ reason: 'SHUTTING_DOWN' });
  });
});
