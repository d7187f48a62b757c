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

/** `threadCpu` between two readings, per block, for a benchmark's note. */
export function threadSummary(before: Map<string, number> | undefined, after: Map<string, number> | undefined, blocks: number): string {
  if (!before || !after) return '';
  const perBlock = (kind: string) => (((after.get(kind) ?? 0) - (before.get(kind) ?? 0)) / blocks).toFixed(1);
  return `; CPU ms a block by thread: main ${perBlock('main')}, QUIC ${perBlock('quic')}, LevelDB ${perBlock('level')}, other ${perBlock('other')} (block writer, V8 GC and compiler)`;
}
