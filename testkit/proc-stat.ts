import { readdirSync, readFileSync } from 'node:fs';

/**
 * A process's or thread's name and CPU milliseconds so far, from a Linux `/proc/.../stat` file
 * (`/proc/<pid>/stat`, `/proc/self/task/<tid>/stat`); undefined when it cannot be read (another
 * OS, or the thread ended). utime and stime are fields 14 and 15, in USER_HZ ticks: 100 a second.
 */
export function procStat(path: string): { comm: string; cpuMs: number } | undefined {
  let stat: string;
  try {
    stat = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  // The name is in parentheses and may hold spaces: the fields are counted after its closing one.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), cpuMs: (Number(fields[11]) + Number(fields[12])) * 10 };
}

/**
 * CPU milliseconds of a process's threads by kind, from /proc (Linux; undefined elsewhere): `main`,
 * `quic` (libp2p-quic's tokio threads), `level` (libuv's pool: LevelDB's writes, the block files'
 * syncs and reads) and `other` (the block writer's thread, V8's GC and compiler threads: Node does
 * not name them).
 */
export function threadCpu(pid: number | 'self' = 'self'): Map<string, number> | undefined {
  const mainTid = pid === 'self' ? process.pid : pid;
  const kinds = new Map<string, number>();
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return undefined;
  }
  for (const tid of tasks) {
    const stat = procStat(`/proc/${pid}/task/${tid}/stat`);
    if (!stat) continue; // the thread ended
    const { comm, cpuMs } = stat;
    const kind = Number(tid) === mainTid ? 'main' : comm.startsWith('tokio') ? 'quic' : comm.startsWith('libuv') ? 'level' : 'other';
    kinds.set(kind, (kinds.get(kind) ?? 0) + cpuMs);
  }
  return kinds;
}

/**
 * How long a thread has waited, runnable, for a core (ms so far): the second field of Linux's
 * `/proc/<pid>/task/<tid>/schedstat`. Undefined where it cannot be read (another OS, a kernel
 * without schedstats). Beside the thread's CPU it tells a thread slowed by its own work from one
 * slowed by the other threads on the same cores.
 */
export function runQueueWaitMs(pid: number | 'self' = 'self', tid: number = pid === 'self' ? process.pid : pid): number | undefined {
  try {
    const wait = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[1]);
    return Number.isFinite(wait) ? wait / 1e6 : undefined;
  } catch {
    return undefined;
  }
}

/** `threadCpu` between two readings, per block, for a benchmark's note. */
export function threadSummary(before: Map<string, number> | undefined, after: Map<string, number> | undefined, blocks: number): string {
  if (!before || !after) return '';
  const perBlock = (kind: string) => (((after.get(kind) ?? 0) - (before.get(kind) ?? 0)) / blocks).toFixed(1);
  return `; CPU ms a block by thread: main ${perBlock('main')}, QUIC ${perBlock('quic')}, LevelDB ${perBlock('level')}, other ${perBlock('other')} (block writer, V8 GC and compiler)`;
}

/** Every thread of a process: tid → name and CPU ms so far (Linux; undefined elsewhere). */
export function threadTable(pid: number): Map<number, { comm: string; cpuMs: number }> | undefined {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return undefined;
  }
  const table = new Map<number, { comm: string; cpuMs: number }>();
  for (const tid of tasks) {
    const stat = procStat(`/proc/${pid}/task/${tid}/stat`);
    if (stat) table.set(Number(tid), stat);
  }
  return table;
}

/** CPU µs per unit of work by thread: `others` are the unnamed threads, largest first. */
export interface ThreadCpuPerUnit { main: number; others: number[]; level: number; all: number }

/**
 * Per-thread CPU between two `threadTable` readings, in µs per unit of work (a transfer): the main
 * thread, libuv's pool (LevelDB's writes, fsyncs), and the unnamed threads one by one, largest
 * first (Node names neither its workers nor V8's threads: under the signed-transfer load the two
 * largest are the signature verifiers, then the block writer, docs/performance.md).
 */
export function perThreadCpu(
  pid: number, before: Map<number, { comm: string; cpuMs: number }> | undefined, after: Map<number, { comm: string; cpuMs: number }> | undefined, units: number,
): ThreadCpuPerUnit | undefined {
  if (!before || !after) return undefined;
  let level = 0;
  let main = 0;
  const others: number[] = [];
  for (const [tid, { comm, cpuMs }] of after) {
    const used = cpuMs - (before.get(tid)?.cpuMs ?? 0);
    if (tid === pid) main = used;
    else if (comm.startsWith('libuv')) level += used;
    else others.push(used);
  }
  others.sort((a, b) => b - a);
  const us = (ms: number) => (ms * 1000) / units;
  return { main: us(main), others: others.map(us), level: us(level), all: us(main + level + others.reduce((a, b) => a + b, 0)) };
}

/** `perThreadCpu` as a benchmark's note. */
export function perThreadSummary(
  pid: number, before: Map<number, { comm: string; cpuMs: number }> | undefined, after: Map<number, { comm: string; cpuMs: number }> | undefined, units: number,
): string {
  const cpu = perThreadCpu(pid, before, after, units);
  return cpu ? threadCpuText(cpu) : '';
}

/** The note's text of a `perThreadCpu` reading. */
export function threadCpuText(cpu: ThreadCpuPerUnit): string {
  const us = (v: number) => v.toFixed(0);
  return `CPU µs a transfer by thread: main ${us(cpu.main)}, unnamed threads largest first ${cpu.others.slice(0, 5).map(us).join(' / ')}, libuv (LevelDB, fsync) ${us(cpu.level)}; all ${us(cpu.all)}`;
}
