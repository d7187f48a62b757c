/**
 * stopWithin (src/cli/signals.ts; issue 46 item 5, "SIGTERM is always honoured"; docs/operations.md
 * "Stopping"): a signalled stop that finishes in time ends normally; one that never finishes is
 * overdue once, after its grace.
 */
import { describe, expect, it } from 'vitest';
import { stopWithin } from '../../src/cli/signals.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe('stopWithin', () => {
  it('a stop that finishes within the grace resolves and is never overdue', async () => {
    let overdue = 0;
    await stopWithin(() => sleep(20), 200, () => overdue++);
    await sleep(300);
    expect(overdue).toBe(0);
  });

  it('a stop that never finishes is overdue once, after the grace and not before', async () => {
    let overdueAt: number | undefined;
    let calls = 0;
    const started = Date.now();
    void stopWithin(() => new Promise<void>(() => {}), 150, () => {
      calls++;
      overdueAt = Date.now() - started;
    });
    await sleep(100);
    expect(calls).toBe(0);
    const deadline = Date.now() + 5_000;
    while (calls === 0 && Date.now() < deadline) await sleep(10);
    expect(calls).toBe(1);
    expect(overdueAt).toBeGreaterThanOrEqual(145);
    await sleep(200);
    expect(calls).toBe(1);
  });

  it('a stop that fails is passed on, and not reported overdue later', async () => {
    let overdue = 0;
    await expect(stopWithin(() => Promise.reject(new Error('closing failed')), 100, () => overdue++)).rejects.toThrow('closing failed');
    await sleep(200);
    expect(overdue).toBe(0);
  });
});
