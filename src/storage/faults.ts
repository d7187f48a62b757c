import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { damagedTables } from './table-check.js';

/**
 * Storage faults (issue 46 item 5; docs/operations.md "Storage faults"): what LevelDB or the file
 * system reports, put in words an operator acts on, with the file named. Such a fault ends the
 * node with exit 1 (src/cli/run.ts), at start and at run time (src/chain/pipeline/4-write.ts): a
 * supervisor restarting it would meet the same fault, and a node that stays up half-working (as a
 * corrupted table once left it: no RPC, SIGTERM ignored) is worse than one that stops and says why.
 */

/** A storage fault, worded: the start or the run stops with exit 1 and this message. */
export class StorageError extends Error {}

/** Whether an error (or a writer thread's error message) is a fault of the disk or the database. */
export function isStorageFault(error: unknown): boolean {
  const text = faultText(error);
  return /Corruption:|IO error:|ENOSPC|No space left|\bEIO\b|EROFS|Read-only file system|LEVEL_LOCKED|LEVEL_CORRUPTION|LEVEL_IO_ERROR/.test(text);
}

function faultText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  const code = (error as { code?: string }).code;
  return `${code ?? ''} ${error.message}${cause instanceof Error ? ` ${(cause as { code?: string }).code ?? ''} ${cause.message}` : ''}`;
}

/**
 * The message for a fault of the database at `dbPath` (its data dir is the parent): a locked
 * directory names the process holding it, a full disk says so, a corruption names the damaged
 * table files (checked by their block checksums, ./table-check.ts) when LevelDB's message does not.
 */
export function describeStorageFault(error: unknown, dbPath: string): string {
  const text = faultText(error);
  if (/LEVEL_LOCKED|IO error: lock /.test(text)) {
    const holder = lockHolder(join(dbPath, 'LOCK'));
    return `the data directory ${join(dbPath, '..')} is in use: ${join(dbPath, 'LOCK')} is locked by ${holder ?? 'another process'}. `
      + 'Stop that node first, or give this one another --data-dir';
  }
  if (/ENOSPC|No space left/.test(text)) {
    return `the disk holding ${join(dbPath, '..')} is full (${detail(error)}): free space or move the data directory to a larger disk, then start again. `
      + 'Storage keeps whole blocks only (docs/storage.md), so nothing committed is lost';
  }
  if (/EROFS|Read-only file system/.test(text)) return `the data directory ${join(dbPath, '..')} is on a read-only file system (${detail(error)})`;
  if (/Corruption:|LEVEL_CORRUPTION/.test(text)) {
    const named = /\/[^\s:]+\.(ldb|log|sst)|MANIFEST-\d+/.exec(text)?.[0];
    let files = named ? [named] : [];
    if (files.length === 0) {
      try {
        files = damagedTables(dbPath).map((t) => `${t.file} (${t.reason})`);
      } catch {
        // the check is a courtesy; the fault is reported either way
      }
    }
    return `the database at ${dbPath} is corrupted: ${detail(error)}${files.length > 0 ? `; damaged: ${files.join(', ')}` : ''}. `
      + 'Restore the data directory from a backup or a snapshot, load a state export (`ntv-node import`), or sync into a new data directory (docs/operations.md "Storage faults")';
  }
  return `the database at ${dbPath} failed: ${detail(error)}`;
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]!.replace(/^LEVEL_\w+\s+/, '');
}

/** What to show of an error: its cause's message where it has one (classic-level wraps LevelDB's). */
function detail(error: unknown): string {
  const cause = error instanceof Error ? (error as { cause?: unknown }).cause : undefined;
  return firstLine(cause instanceof Error ? cause.message : error instanceof Error ? error.message : String(error));
}

/**
 * Who holds `lockPath` (LevelDB takes a POSIX lock on db/LOCK): the pid and command line from
 * /proc/locks on Linux; undefined elsewhere or when the holder is not visible.
 */
export function lockHolder(lockPath: string): string | undefined {
  try {
    const inode = statSync(lockPath).ino;
    for (const line of readFileSync('/proc/locks', 'utf8').split('\n')) {
      // "1: POSIX  ADVISORY  WRITE 12345 08:01:1234567 0 EOF"
      const fields = line.trim().split(/\s+/);
      const at = fields.findIndex((f) => /^[0-9a-f]+:[0-9a-f]+:\d+$/.test(f));
      if (at < 1 || Number(fields[at]!.split(':')[2]) !== inode) continue;
      const pid = Number(fields[at - 1]);
      if (!Number.isInteger(pid) || pid === process.pid) continue;
      let command = '';
      try {
        command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
      } catch {
        // gone meanwhile, or not ours to read
      }
      return `process ${pid}${command ? ` (${command.slice(0, 200)})` : ''}`;
    }
  } catch {
    return undefined;
  }
  return undefined;
}
