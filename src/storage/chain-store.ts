import { Level } from 'level';

/**
 * The node's one database (level): state, blocks, receipts and indexes, each under a one-byte
 * prefix. Everything a block changes is written in ONE batch with `sync: true`, so a crash or a
 * kill at any moment leaves either the whole block or none of it (DESIGN.md, storage/).
 */
const enum Prefix {
  State = 0x73, // 's' + state key → value
  Block = 0x62, // 'b' + height u64 BE → stored block
  BlockHash = 0x68, // 'h' + block hash → height u64 BE
  Receipt = 0x72, // 'r' + bundle hash → receipt JSON
  Meta = 0x6d, // 'm' + name → value
  Local = 0x6c, // 'l' + name → node-local, non-consensus records (faucet bookkeeping)
}

const HEAD = metaKey('head');

export interface StateWrite {
  key: Uint8Array;
  /** null deletes the key */
  value: Uint8Array | null;
}

export interface BlockWrite {
  height: number;
  hash: Uint8Array;
  block: Uint8Array;
  receipts: Array<{ bundleHash: Uint8Array; receipt: Uint8Array }>;
  state: StateWrite[];
  local?: Array<{ key: string; value: Uint8Array }>;
}

type Op = { type: 'put'; key: Uint8Array; value: Uint8Array } | { type: 'del'; key: Uint8Array };

export class ChainStore {
  private readonly db: Level<Uint8Array, Uint8Array>;

  constructor(readonly path: string) {
    this.db = new Level<Uint8Array, Uint8Array>(path, { keyEncoding: 'view', valueEncoding: 'view' });
  }

  async open(): Promise<void> {
    await this.db.open();
  }

  async close(): Promise<void> {
    await this.db.close();
  }

  /** Height of the last committed block, or undefined for an empty database. */
  async head(): Promise<number | undefined> {
    const value = await this.db.get(HEAD);
    return value === undefined ? undefined : readU64(value);
  }

  /** Stream every state record, in key order, to `onRecord` (used once at start-up). */
  async loadState(onRecord: (key: Uint8Array, value: Uint8Array) => void): Promise<number> {
    let count = 0;
    const iterator = this.db.iterator({ gte: Uint8Array.of(Prefix.State), lt: Uint8Array.of(Prefix.State + 1) });
    try {
      for (;;) {
        const entries = await iterator.nextv(4096);
        if (entries.length === 0) break;
        for (const [key, value] of entries) {
          onRecord(key.subarray(1), value);
          count++;
        }
      }
    } finally {
      await iterator.close();
    }
    return count;
  }

  /** The single atomic, synced write of one block (DESIGN.md: one level batch per block). */
  async commitBlock(write: BlockWrite): Promise<void> {
    const ops: Op[] = [];
    for (const { key, value } of write.state) {
      const stateKey = prefixed(Prefix.State, key);
      ops.push(value === null ? { type: 'del', key: stateKey } : { type: 'put', key: stateKey, value });
    }
    ops.push({ type: 'put', key: blockKey(write.height), value: write.block });
    ops.push({ type: 'put', key: prefixed(Prefix.BlockHash, write.hash), value: u64(write.height) });
    for (const { bundleHash, receipt } of write.receipts) {
      ops.push({ type: 'put', key: prefixed(Prefix.Receipt, bundleHash), value: receipt });
    }
    for (const { key, value } of write.local ?? []) ops.push({ type: 'put', key: localKey(key), value });
    ops.push({ type: 'put', key: HEAD, value: u64(write.height) });
    await this.db.batch(ops, { sync: true });
  }

  async getBlock(height: number): Promise<Uint8Array | undefined> {
    return this.db.get(blockKey(height));
  }

  async getBlocks(heights: number[]): Promise<Array<Uint8Array | undefined>> {
    return this.db.getMany(heights.map(blockKey));
  }

  async heightOfHash(hash: Uint8Array): Promise<number | undefined> {
    const value = await this.db.get(prefixed(Prefix.BlockHash, hash));
    return value === undefined ? undefined : readU64(value);
  }

  async getReceipt(bundleHash: Uint8Array): Promise<Uint8Array | undefined> {
    return this.db.get(prefixed(Prefix.Receipt, bundleHash));
  }

  async getLocal(key: string): Promise<Uint8Array | undefined> {
    return this.db.get(localKey(key));
  }

  async putLocal(key: string, value: Uint8Array): Promise<void> {
    await this.db.put(localKey(key), value);
  }
}

function metaKey(name: string): Uint8Array {
  return prefixed(Prefix.Meta, new TextEncoder().encode(name));
}

function localKey(name: string): Uint8Array {
  return prefixed(Prefix.Local, new TextEncoder().encode(name));
}

function blockKey(height: number): Uint8Array {
  return prefixed(Prefix.Block, u64(height));
}

function prefixed(prefix: number, key: Uint8Array): Uint8Array {
  const out = new Uint8Array(key.length + 1);
  out[0] = prefix;
  out.set(key, 1);
  return out;
}

/** Heights are stored big-endian so that key order is height order. */
function u64(value: number): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(value));
  return out;
}

function readU64(bytes: Uint8Array): number {
  return Number(new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0));
}
