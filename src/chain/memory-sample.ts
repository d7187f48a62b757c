import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Where the node's resident memory is (docs/operations.md "Memory bound"), in MB: the process's
 * resident set split into anonymous pages (the node's own: V8's heap, buffers, the core's WASM
 * memory, LevelDB's cache) and file-backed ones (mostly LevelDB's memory-mapped table files, page
 * cache the kernel reclaims under pressure), V8's heap and external memory, and the core's WASM
 * memory. Logged (debug) with --elastic-state at start, around a core recycle and every
 * MEMORY_LOG_EVERY blocks with bundles (src/chain/pipeline/2-execute.ts).
 */
export interface MemorySample {
  rss: number;
  rssAnon: number | undefined;
  rssFile: number | undefined;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  coreWasm: number;
}

export const MEMORY_LOG_EVERY = 30;

const MB = 1024 * 1024;

export function memorySample(coreWasmBytes: number): MemorySample {
  const m = process.memoryUsage();
  const status = procStatus();
  return {
    rss: Math.round(m.rss / MB), rssAnon: status.RssAnon, rssFile: status.RssFile, heapUsed: Math.round(m.heapUsed / MB),
    heapTotal: Math.round(m.heapTotal / MB), external: Math.round(m.external / MB), arrayBuffers: Math.round(m.arrayBuffers / MB),
    coreWasm: Math.round(coreWasmBytes / MB),
  };
}

/** RssAnon and RssFile of /proc/<pid>/status in MB (Linux; undefined elsewhere). */
export function procStatus(pid: number | 'self' = 'self'): { RssAnon?: number; RssFile?: number; VmRSS?: number } {
  const out: Record<string, number> = {};
  try {
    for (const line of readFileSync(`/proc/${pid}/status`, 'utf8').split('\n')) {
      const m = /^(RssAnon|RssFile|VmRSS):\s+(\d+)/.exec(line);
      if (m) out[m[1]!] = Math.round(Number(m[2]) / 1024);
    }
  } catch {
    // not Linux, or the process is gone
  }
  return out;
}

let collect: (() => void) | undefined;

/**
 * A full garbage collection, after the elastic state replaced the core instance: the old
 * instance's WebAssembly memory (up to twice --elastic-core-mb, resident where its bump allocator
 * wrote) is freed only when V8 collects the instance, and V8 counts it as external memory it is in
 * no hurry to reclaim: measured at 5 million accounts, two dead 256 MiB memories stayed resident
 * beside the live one. `--expose-gc` is set at run time, as `node --expose-gc` would.
 */
export function collectGarbage(): void {
  if (collect === undefined) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
}
