import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { procStat, runQueueWaitMs, threadCpu } from '../../testkit/proc-stat.js';

/**
 * The /proc readers the benchmarks report per-thread CPU and a thread's wait for a core with
 * (testkit/proc-stat.ts, docs/performance.md). Linux only: elsewhere they answer undefined.
 */
const linux = existsSync('/proc/self/task');

describe.skipIf(!linux)('testkit/proc-stat on Linux', () => {
  it('reads this process: its name, and CPU that grows with work', () => {
    const before = procStat('/proc/self/stat')!;
    expect(before.comm.length).toBeGreaterThan(0);
    // Spin for 60 ms of this process's own CPU (not of wall time: under a loaded test run the
    // thread may get a fraction of a core), as Node counts it, then read the same from /proc.
    const cpu0 = process.cpuUsage();
    const giveUp = performance.now() + 10_000;
    let used = 0;
    while (used < 60_000 && performance.now() < giveUp) {
      const { user, system } = process.cpuUsage(cpu0);
      used = user + system;
    }
    expect(used).toBeGreaterThanOrEqual(60_000);
    const after = procStat('/proc/self/stat')!;
    // /proc counts in USER_HZ ticks of 10 ms: within two of Node's figure
    expect(after.cpuMs - before.cpuMs).toBeGreaterThanOrEqual(40);
    expect(threadCpu()!.get('main')).toBeGreaterThan(0);
  });

  it('reads the main thread\'s wait for a core as milliseconds that never go back', () => {
    const first = runQueueWaitMs();
    expect(first).toBeTypeOf('number');
    expect(first).toBeGreaterThanOrEqual(0);
    const until = performance.now() + 20;
    while (performance.now() < until);
    expect(runQueueWaitMs()!).toBeGreaterThanOrEqual(first!);
  });

  it('answers undefined for a process or thread that does not exist', () => {
    // pid_max is at most 2^22 on Linux: this pid cannot be a process
    expect(procStat('/proc/99999999/stat')).toBeUndefined();
    expect(threadCpu(99_999_999)).toBeUndefined();
    expect(runQueueWaitMs(99_999_999)).toBeUndefined();
    expect(runQueueWaitMs('self', 99_999_999)).toBeUndefined();
  });
});
