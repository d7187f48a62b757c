import type { StateWrite } from '../storage/chain-store.js';

/**
 * The host's synchronous view of committed state. The core reads through it on the first touch of
 * a key (`kv_get`, docs/core-abi.md); the read-only RPC paths read it directly. It is loaded once
 * from storage at start-up and updated from each committed block's writes, so it always equals
 * what storage holds. Keys are the raw state keys, held as latin1 strings for cheap Map lookups.
 *
 * Known limit: the whole state sits in memory (spec §4.20 `--elastic-state` tiers are later work).
 */
export class StateView {
  private readonly records = new Map<string, Uint8Array>();
  private readonly watchers: Array<{ prefix: number; onWrite: (key: Uint8Array, value: Uint8Array | null) => void }> = [];

  get size(): number {
    return this.records.size;
  }

  get(key: Uint8Array): Uint8Array | undefined {
    return this.records.get(toKey(key));
  }

  /** Call `onWrite` for every loaded or written record whose key starts with `prefix`. */
  watch(prefix: number, onWrite: (key: Uint8Array, value: Uint8Array | null) => void): void {
    this.watchers.push({ prefix, onWrite });
    for (const [key, value] of this.records) {
      if (key.charCodeAt(0) === prefix) onWrite(fromKey(key), value);
    }
  }

  load(key: Uint8Array, value: Uint8Array): void {
    this.set(key, value);
  }

  apply(writes: StateWrite[]): void {
    for (const { key, value } of writes) this.set(key, value);
  }

  private set(key: Uint8Array, value: Uint8Array | null): void {
    const k = toKey(key);
    if (value === null) this.records.delete(k);
    else this.records.set(k, value);
    for (const watcher of this.watchers) {
      if (key[0] === watcher.prefix) watcher.onWrite(key, value);
    }
  }
}

function toKey(key: Uint8Array): string {
  return Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString('latin1');
}

function fromKey(key: string): Uint8Array {
  return new Uint8Array(Buffer.from(key, 'latin1'));
}
