import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/**
 * CPU affinity for the read-path benchmarks (Linux `taskset`): the server under test on one core,
 * the load generator on another. On two cores, a server and the generator left to the scheduler
 * trade the same core back and forth, and a one-second round's rate moved by ±40% with that alone
 * (docs/performance.md "The read-path benches, pinned"); pinned, both servers are measured on the
 * same core under the same load, so their ratio is the ratio of their cost a request.
 */

/** Whether pinning is possible here: at least two CPUs and `taskset` on the PATH. Why not, otherwise. */
export function pinningUnavailable(): string | undefined {
  if (availableParallelism() < 2) return 'one CPU';
  const probe = spawnSync('taskset', ['-p', String(process.pid)], { encoding: 'utf8' });
  if (probe.error !== undefined || probe.status !== 0) return 'no taskset';
  return undefined;
}

/** Every thread of `pid` (and the threads it starts later) on `cpus` ("0", "1", "0-1"). */
export function pin(pid: number, cpus: string): void {
  // `-a` lists the process's threads and then sets each: a thread that ends in between (Node's
  // short-lived helper threads do) fails the call with "No such process" for its own id. That is a
  // race, not an error: the next call lists the threads again.
  for (let attempt = 1; ; attempt++) {
    const r = spawnSync('taskset', ['-a', '-pc', cpus, String(pid)], { encoding: 'utf8' });
    if (r.status === 0) return;
    const why = r.stderr.trim() || r.error?.message || `exit ${r.status}`;
    const threadGone = /failed to (?:get|set) pid (\d+)'s affinity: No such process/.exec(why);
    if (attempt < 5 && threadGone !== null && Number(threadGone[1]) !== pid) continue;
    throw new Error(`taskset -a -pc ${cpus} ${pid}: ${why}`);
  }
}

/**
 * The read-path benches' placement: the servers under test (every thread of each of `serverPids`)
 * on CPU 0, this process (the load generator's worker thread) on CPU 1. Returns what was done, for
 * the rows' notes; where pinning is unavailable nothing is pinned and the note says why. Called
 * inside the `try` whose `finally` stops the servers and calls `unpinLoad`, so a failure here
 * leaves nothing running.
 */
export function pinServersAndLoad(serverPids: readonly number[]): string {
  const unavailable = pinningUnavailable();
  if (unavailable !== undefined) return `not pinned (${unavailable})`;
  for (const pid of serverPids) pin(pid, '0');
  pin(process.pid, '1');
  return 'servers pinned to CPU 0, the load generator to CPU 1';
}

/** This process back on every core after `pinServersAndLoad` (nothing to undo where pinning is unavailable). */
export function unpinLoad(): void {
  if (pinningUnavailable() === undefined) pin(process.pid, `0-${availableParallelism() - 1}`);
}
