import type { StateWrite } from '../../src/storage/block-batch.js';

/** The core's commit output for these writes, as the core writes it (docs/core-abi.md "Block I/O"). */
export function commitOutput(root: Uint8Array, writes: readonly StateWrite[]): Uint8Array {
  const parts: number[] = [...root, ...u32(writes.length)];
  for (const { key, value } of writes) {
    parts.push(...u32(key.length), ...key);
    if (value === null) parts.push(0);
    else parts.push(1, ...u32(value.length), ...value);
  }
  return Uint8Array.from(parts);
}

const u32 = (n: number) => [n & 255, (n >>> 8) & 255, (n >>> 16) & 255, n >>> 24];
