import type { StateReader } from '../core/loader.js';

/**
 * Committed state by key, as every domain reader reads it: the core's own `StateReader` (the host
 * state it reads on the first touch of a key, docs/core-abi.md `kv_get`), which
 * src/chain/state-view.ts StateView, a Core and a test store all satisfy. One definition, so a
 * reader written against one of them takes any of them.
 */
export type { StateReader };

/** Committed state with a hook on the writes of each durable block, for readers that keep indexes. */
export interface WatchableState extends StateReader {
  watch(prefix: number, onWrite: (key: Uint8Array, value: Uint8Array | null) => void): void;
}
