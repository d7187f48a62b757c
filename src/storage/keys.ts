/**
 * The key layout of the node's database (docs/storage.md): one-byte prefixes, the key builders and
 * the format marker. Shared by the reads on the main thread (chain-store.ts) and the block writer's
 * thread (block-writer-worker.ts), so both build the same keys.
 */
export const enum Prefix {
  State = 0x73, // 's' + state key → value
  Block = 0x62, // 'b' + height u64 BE → where the block and its result are in the block files (block-files.ts)
  BlockHash = 0x68, // 'h' + block hash → height u64 BE
  Position = 0x72, // 'r' + bundle hash → height u64 BE ‖ index u32 BE: where the bundle's receipt comes from
  Outcome = 0x65, // 'e' + height u64 BE → the block's stored execution result: storage format 3 only, now in the block files
  Meta = 0x6d, // 'm' + name → value
  Local = 0x6c, // 'l' + name → node-local, non-consensus records (faucet bookkeeping)
  // Node-local intent records (src/intents/store.ts, docs/intents.md "Storage"): 'i' + kind byte + id → JSON.
  // Not consensus state, not in blocks; written outside the block batch.
  Intent = 0x69,
  Certificate = 0x63, // 'c' + height u64 BE → the block's finality certificate (docs/consensus.md)
  // Explorer indexes (spec §4.11, docs/explorer.md "Index layouts"): derived, non-consensus data,
  // written in the block's own batch and rebuilt whole by --backfill-indexes (spec §4.20).
  BlockTxs = 0x74, // 't' + ~height u64 BE → the block's bundle hashes, 32 bytes each, in block order
  AddressHistory = 0x61, // 'a' + address + ~height u64 BE → u32 BE bundle indexes, ascending
  TokenTransfers = 0x78, // 'x' + mint + ~height u64 BE → (u32 BE bundle index, u16 BE receipt event index)*
  TokenHolders = 0x6f, // 'o' + mint + (255 − bit length of the balance) u8 + address → empty
  TokensHeld = 0x77, // 'w' + address + mint → empty
  // The elastic state's cold tier (src/storage/cold-store.ts, docs/operations.md "Elastic state"):
  // state records not written for a while, moved out of 's' by the block writer's thread.
  Written = 0x79, // 'y' + window u32 BE + state key → empty: the key was written in that window of blocks
  Cold = 0x7a, // 'z' + state key → value: a cold state record (a key is under 's' or 'z', never both)
  // State history (docs/storage.md "State history"): what each block changed, as the previous value
  // of every state key it wrote, so a read at a past block resolves to the value as of that block.
  // Host bookkeeping in the block's own batch; not consensus state, never in the state root.
  History = 0x75, // 'u' + key length u16 BE + state key + height u64 BE → 0 (absent before the block) or 1 ‖ the value before it
  ChangeSet = 0x76, // 'v' + height u64 BE → the block's change set: 0xFF, count u32 BE, per write key length u16 BE ‖ previous value's length i32 BE (-1 absent), then (key ‖ previous value)*; before the lagging index: its keys, (key length u16 BE ‖ key)*
}

export const HEAD = metaKey('head');
export const FORMAT = metaKey('format');
export const INDEX_MARKER = metaKey('index-version');
/**
 * The transaction lookup index's height (docs/storage.md "The transaction lookup index"): every block
 * up to it has its position records. A catch-up sync writes blocks without them; the writer thread
 * builds them behind the head and moves this marker.
 */
export const LOOKUP_MARKER = metaKey('lookup-height');
/**
 * The address history's height (docs/storage.md "The address history"): every block up to it has its
 * address history and token transfer records ('a', 'x'). A live block's are written just after its
 * durable batch, off the receipt's path, and this marker moves with them; a kill in between leaves
 * it behind the head and the writer thread builds the rest from the stored blocks. Absent (a
 * database written before it): equal to LOOKUP_MARKER, which covered these records until then.
 */
export const HISTORY_MARKER = metaKey('history-height');
/**
 * The lowest height whose block is held (docs/operations.md): set by a state import or snapshot
 * restore (and by pruning); absent means 0, every block since genesis.
 */
export const OLDEST_MARKER = metaKey('oldest-height');
/**
 * The state tree's checkpoint (docs/storage.md "The state tree on disk"): the height whose state the
 * stored bucket records and nodes (state keys 0xF0, 0xF1) describe. The state records themselves
 * are always at the head; the tree may trail it and is rebuilt from them at open when it does.
 */
export const TREE_MARKER = metaKey('tree-height');
/**
 * The lowest height whose state is served (docs/storage.md "State history"): every block above it
 * has its change set. 0 on a chain that kept history from genesis; the head when history began on a
 * database written before it, or at a restore; raised by pruning. Absent: no history is kept yet
 * (the next open sets it to the head).
 */
export const STATE_HISTORY_MARKER = metaKey('state-history-from');
/**
 * The state history index's height (docs/storage.md "State history"): every block up to it has its
 * 'u' records built from its change set ('v'). A block's change set is durable with the block; the
 * writer thread builds the index from it behind the head, in its own batches with this marker, so a
 * restart resumes where it stopped. Absent: a database indexed block by block (before the lagging
 * index), every change set indexed (the writer thread sets it to the head at its start).
 */
export const STATE_HISTORY_INDEXED = metaKey('state-history-indexed');
/** State keys from this first byte on are the state tree's derived records (0xF0 buckets, 0xF1 nodes). */
export const TREE_KEY_FIRST = 0xf0;
/**
 * The layout and rules of this database (docs/storage.md "Format marker"). 6: the state tree has
 * group records (0xF2, the 16 bucket hashes under each level-12 node); 5: the state tree's
 * records written at checkpoints (TREE_MARKER), not with every block; 4: blocks and their
 * execution results in the block files, their locations under 'b'; 3: position records may
 * trail the head, up to LOOKUP_MARKER, and blocks are under the current transactions root; 2: every
 * block written with its position records, the first transactions root; 1 (no marker) stored receipt
 * JSON. 6 is opened; 5 is moved to 6 (its tree is rebuilt at that open), 4 to 5 (its tree is at its
 * head) then 6, and 3 to 4, 5 and 6 when opened (migrate-format3.ts, migrate-format4.ts,
 * migrate-format5.ts).
 */
export const STORAGE_FORMAT = 6;
/**
 * The cold tier's settings (src/storage/cold-store.ts): height it was enabled at u64 BE ‖ window in
 * blocks u32 BE. Present: the database has a cold range, and every state write deletes its key there.
 */
export const COLD_MARKER = metaKey('cold');
/** The cold sweep's position: the last state key it looked at (absent: start of the range). */
export const COLD_CURSOR = metaKey('cold-cursor');

/**
 * Key builders of the explorer indexes (docs/explorer.md "Index layouts"). Heights and balances are
 * stored inverted (bitwise NOT, big-endian), so a forward scan of a prefix is newest-first or
 * largest-first: LevelDB's forward iteration is its fast path.
 */
export const IndexKeys = {
  blockTxs: (height: number): Uint8Array => withInvertedHeight(Uint8Array.of(Prefix.BlockTxs), height),
  blockTxsPrefix: (): Uint8Array => Uint8Array.of(Prefix.BlockTxs),
  addressHistory: (address: Uint8Array, height: number): Uint8Array => withInvertedHeight(prefixed(Prefix.AddressHistory, address), height),
  addressHistoryPrefix: (address: Uint8Array): Uint8Array => prefixed(Prefix.AddressHistory, address),
  tokenTransfers: (mint: Uint8Array, height: number): Uint8Array => withInvertedHeight(prefixed(Prefix.TokenTransfers, mint), height),
  tokenTransfersPrefix: (mint: Uint8Array): Uint8Array => prefixed(Prefix.TokenTransfers, mint),
  /**
   * A holder in its power-of-two balance class (`bits`: the bit length of the balance, 1…128), the
   * largest class first. The entry moves only when the balance crosses a power of two, not on every
   * change: a 10,000-transfer block rewrites a handful of these, not 10,000 (docs/explorer.md).
   */
  tokenHolder: (mint: Uint8Array, bits: number, address: Uint8Array): Uint8Array => {
    const key = new Uint8Array(1 + 32 + 1 + 32);
    key[0] = Prefix.TokenHolders;
    key.set(mint, 1);
    key[33] = 255 - bits;
    key.set(address, 34);
    return key;
  },
  tokenHoldersPrefix: (mint: Uint8Array): Uint8Array => prefixed(Prefix.TokenHolders, mint),
  tokensHeld: (address: Uint8Array, mint: Uint8Array): Uint8Array => {
    const key = new Uint8Array(65);
    key[0] = Prefix.TokensHeld;
    key.set(address, 1);
    key.set(mint, 33);
    return key;
  },
  tokensHeldPrefix: (address: Uint8Array): Uint8Array => prefixed(Prefix.TokensHeld, address),
  marker: (): Uint8Array => INDEX_MARKER,
  /** The height of an index key that ends with an inverted height. */
  heightOf: (key: Uint8Array): number => {
    const view = new DataView(key.buffer, key.byteOffset + key.length - 8, 8);
    return (~view.getUint32(0) >>> 0) * 0x1_0000_0000 + (~view.getUint32(4) >>> 0);
  },
  /** The balance class (bit length) and address of a `tokenHolder` key. */
  holderOf: (key: Uint8Array): { bits: number; address: Uint8Array } => ({ bits: 255 - key[33]!, address: key.slice(34, 66) }),
};

function withInvertedHeight(prefix: Uint8Array, height: number): Uint8Array {
  const out = new Uint8Array(prefix.length + 8);
  out.set(prefix, 0);
  // Two u32 halves: BigInt per key is measurable at thousands of keys per block.
  const view = new DataView(out.buffer);
  view.setUint32(prefix.length, ~Math.floor(height / 0x1_0000_0000) >>> 0);
  view.setUint32(prefix.length + 4, ~height >>> 0);
  return out;
}

/** The smallest key greater than every key that starts with `prefix`. */
export function prefixEnd(prefix: Uint8Array): Uint8Array {
  const end = Uint8Array.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i]! < 0xff) {
      end[i] = end[i]! + 1;
      return end.subarray(0, i + 1);
    }
  }
  throw new RangeError('a prefix of 0xff bytes has no end');
}

export function metaKey(name: string): Uint8Array {
  return prefixed(Prefix.Meta, new TextEncoder().encode(name));
}

export function localKey(name: string): Uint8Array {
  return prefixed(Prefix.Local, new TextEncoder().encode(name));
}

export function blockKey(height: number): Uint8Array {
  return prefixed(Prefix.Block, u64(height));
}

/** The key of a block's stored execution result in a storage format 3 database (docs/storage.md "Format marker"). */
export function outcomeKey(height: number): Uint8Array {
  return prefixed(Prefix.Outcome, u64(height));
}

export function prefixed(prefix: number, key: Uint8Array): Uint8Array {
  const out = new Uint8Array(key.length + 1);
  out[0] = prefix;
  out.set(key, 1);
  return out;
}

/** Heights are stored big-endian so that key order is height order. */
export function u64(value: number): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(value));
  return out;
}

export function readU64(bytes: Uint8Array): number {
  return Number(new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0));
}

/** 'u' + key length u16 + key + height: a key's previous value at the block of `height` (docs/storage.md "State history"). */
export function historyKey(key: Uint8Array, height: number): Uint8Array {
  // The length keeps one key's records from running into those of a longer key it is a prefix of.
  // u16: a name's key can be 1 + 1,024 bytes (MAX_NAME_BYTES).
  if (key.length > 0xffff) throw new RangeError(`a state key of ${key.length} bytes is longer than the history's 65,535`);
  const out = new Uint8Array(3 + key.length + 8);
  const view = new DataView(out.buffer);
  out[0] = Prefix.History;
  view.setUint16(1, key.length);
  out.set(key, 3);
  view.setUint32(3 + key.length, Math.floor(height / 0x1_0000_0000));
  view.setUint32(7 + key.length, height >>> 0);
  return out;
}

/** 'v' + height: the block's change set (the keys it wrote and their values before it). */
export function changeSetKey(height: number): Uint8Array {
  return prefixed(Prefix.ChangeSet, u64(height));
}
