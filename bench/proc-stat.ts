import { readFileSync } from 'node:fs';

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
