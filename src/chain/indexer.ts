import { bundleHash } from '../codec/bundle.js';
import { toLatin1 } from '../codec/hash.js';
import { balanceKey, decodeBalance, Prefix as StatePrefix } from '../core/records.js';
import { packHashes } from '../storage/block-batch.js';
import { forEachStateWrite, IndexKeys, type ChainStore, type IndexOp, type StateWrites } from '../storage/chain-store.js';
import { decodeBlock } from './block.js';
import { blockIndexOps } from '../storage/block-index.js';
import { txIndexingError } from './errors.js';
import { BlockResultView } from '../core/block-result.js';
import type { ReceiptReader, TxRef } from './receipt-reader.js';
import type { Receipt } from './receipts.js';
import type { StateView } from './state-view.js';

/**
 * The explorer indexes of spec §4.11 (layouts: docs/explorer.md). Index records are derived data:
 * they are computed from a produced block and written in that block's own level batch, so they are
 * never ahead of or behind the blocks; `--backfill-indexes` (spec §4.20) rebuilds them from stored
 * blocks, their execution results and state. Bundle → (height, index) is the block's own position
 * record (src/storage/chain-store.ts), not an index.
 */

/**
 * Bumped when a layout changes; a database indexed with another version wants --backfill-indexes.
 * 2: token transfers of swaps, liquidity, pool and token creation; pools in address history.
 */
export const INDEX_VERSION = 2;

/** What the indexer needs from one block. */
export interface IndexedBlock {
  height: number;
  bundleHashes: readonly Uint8Array[];
  /** the bundles in block order (each starts with its sender, docs/bundle-format.md) */
  bundles: readonly Uint8Array[];
  /** the block's execution result in block order; absent for the genesis block */
  result?: BlockResultView;
  /** the block's state writes; balance records feed the holder and tokens-held indexes */
  writes?: StateWrites;
}

const BALANCE_KEY_LENGTH = 65; // 0x02 + address + mint (docs/core-abi.md "State layout")
/** How long a history read waits for the live blocks' address history, written just after their batch. */
const HISTORY_WAIT_MS = 2000;

export class Indexer {
  /**
   * Balance records of blocks executed but not yet durable: the StateView is updated only after a
   * block's write, and the next block executes while that write is in flight, so the previous
   * balance of a key (whose holder entry must be deleted) is read here first. Only what the holder
   * index needs is kept, the balance's bit length, with the height that wrote it: one number a key
   * (`pendingEntry`), no object and no view of the block's output (docs/performance.md "2026-11-27,
   * fifth round").
   */
  private readonly pending = new Map<string, number>();
  private readonly pendingByHeight = new Map<number, string[]>();

  /** `reader` and `state` are absent for the backfill, which reads no receipts and indexes no balance writes. */
  constructor(private readonly store: ChainStore, private readonly reader?: ReceiptReader, private readonly state?: StateView) {}

  // ---- writing ------------------------------------------------------------------------------

  /**
   * Every index record of one block (spec §4.11): the ones it derives from itself and its result
   * (block-index.ts) and the balance classes. The genesis write and the backfill use this; an
   * executed block's write takes only `balanceIndexOps`, and the writer thread derives the rest.
   */
  forBlock(block: IndexedBlock): IndexOp[] {
    const ops: IndexOp[] = [];
    const { height, bundleHashes } = block;
    if (height === 0) ops.push({ type: 'put', key: IndexKeys.marker(), value: Uint8Array.of(INDEX_VERSION) });
    blockIndexOps(height, packHashes(bundleHashes), block.bundles, block.result, ops);
    if (block.writes) this.balanceOps(block.writes, height, ops);
    return ops;
  }

  /**
   * The records an executed block's write needs from this indexer: holders and tokens held, which
   * depend on the balances before the block (see `pending`). The rest the writer thread derives
   * (BlockWrite.deriveIndexes).
   */
  balanceIndexOps(height: number, writes: StateWrites, keys?: readonly string[]): IndexOp[] {
    const ops: IndexOp[] = [];
    this.balanceOps(writes, height, ops, keys);
    return ops;
  }

  /** The block at `height` is durable and its writes are in the StateView. */
  durable(height: number): void {
    for (const [h, keys] of this.pendingByHeight) {
      if (h > height) continue;
      for (const key of keys) {
        const entry = this.pending.get(key);
        if (entry !== undefined && pendingHeight(entry) === h) this.pending.delete(key);
      }
      this.pendingByHeight.delete(h);
    }
  }

  /**
   * Holders and tokens held, from the block's balance writes: right whatever changed the balance
   * (transfers, fees, token creation, later swaps), with no event arithmetic. A holder entry is keyed
   * by its balance's power-of-two class, so it is rewritten only when the class changes; the exact
   * balance is read from state when the holders are listed. `latin1Keys`: the packed writes' keys
   * as latin1 in their order, when the caller has them (ChangeSetRecorder.keysOf).
   */
  private balanceOps(writes: StateWrites, height: number, ops: IndexOp[], latin1Keys?: readonly string[]): void {
    let keys: string[] | undefined;
    // `text` is the key's latin1, the StateView's own key: read by it, not converted again; of the
    // value before only its bit length is taken, at once, so a view of it does (no copy)
    const visit = (text: string, keyBytes: Uint8Array, keyAt: number, after: number): void => {
      const pending = this.pending.get(text);
      let before: number;
      if (pending !== undefined) before = pendingBits(pending);
      else {
        const previous = this.state?.peekLatin1(text);
        before = previous === undefined ? 0 : bitLength(previous, 0, previous.length);
      }
      this.pending.set(text, pendingEntry(height, after));
      (keys ??= []).push(text);
      if (before === after) return;
      const address = keyBytes.subarray(keyAt + 1, keyAt + 33);
      const mint = keyBytes.subarray(keyAt + 33, keyAt + 65);
      const had = before > 0;
      const has = after > 0;
      if (had) ops.push({ type: 'del', key: IndexKeys.tokenHolder(mint, before, address) });
      if (has) ops.push({ type: 'put', key: IndexKeys.tokenHolder(mint, after, address), value: EMPTY });
      if (had !== has) {
        ops.push(has ? { type: 'put', key: IndexKeys.tokensHeld(address, mint), value: EMPTY } : { type: 'del', key: IndexKeys.tokensHeld(address, mint) });
      }
    };
    if (Array.isArray(writes)) forEachStateWrite(writes, (key, value) => {
      if (key[0] === StatePrefix.BALANCE && key.length === BALANCE_KEY_LENGTH) visit(toLatin1(key), key, 0, value === null ? 0 : bitLength(value, 0, value.length));
    });
    else {
      // Packed (a block the node executed): the key's string read straight from the bytes, a view
      // made only for a key whose class changes (its index records name it).
      const { bytes, lengths } = writes as Exclude<StateWrites, readonly unknown[]>;
      const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const shared = latin1Keys !== undefined && latin1Keys.length === lengths.length >> 1 ? latin1Keys : undefined;
      for (let i = 0, o = 0; i < lengths.length; i += 2) {
        const keyLength = lengths[i]!;
        const valueLength = lengths[i + 1]!;
        if (bytes[o] === StatePrefix.BALANCE && keyLength === BALANCE_KEY_LENGTH) {
          const valueAt = o + keyLength;
          visit(shared !== undefined ? shared[i >> 1]! : text.toString('latin1', o, valueAt), bytes, o, valueLength < 0 ? 0 : bitLength(bytes, valueAt, valueAt + valueLength));
        }
        o += keyLength + Math.max(0, valueLength);
      }
    }
    if (keys) this.pendingByHeight.set(height, keys);
  }

  // ---- reading (spec §4.11 methods) ----------------------------------------------------------

  /** The latest bundles, newest first, across blocks. */
  async recentTransactions(limit: number): Promise<Receipt[]> {
    const hashes: Uint8Array[] = [];
    await this.store.scanIndex(IndexKeys.blockTxsPrefix(), (_key, value) => {
      for (let o = value.length - 32; o >= 0 && hashes.length < limit; o -= 32) hashes.push(value.subarray(o, o + 32));
      return hashes.length < limit;
    });
    return this.receipts(hashes);
  }

  /** The receipts of the block at `height` in block order; empty when it has no bundles. */
  async blockTransactions(height: number): Promise<Receipt[]> {
    return this.receiptReader.ofBlock(height);
  }

  /**
   * Address history and token transfers of a catch-up's blocks are built behind it with the
   * position records (docs/storage.md "The transaction lookup index"), and a live block's just after
   * its batch (docs/storage.md "The address history"): while their marker trails the durable head an
   * answer could miss blocks, so it is refused with TX_INDEXING after a short wait.
   */
  private async historyIndexed(): Promise<void> {
    const head = await this.store.head();
    if (head === undefined) return;
    // A live block's history is written just after its batch: wait for it briefly rather than refuse.
    if (this.store.historyHeight < head) await this.store.untilHistory(head, HISTORY_WAIT_MS);
    if (this.store.historyHeight < head) throw txIndexingError(this.store.historyHeight, head, this.store.lookupFailure);
  }

  /**
   * Bundles that involve `address`, newest first; with `before`, only those older than that one
   * (the last entry of the previous page: paging, issue 42 item 10). The scan starts at `before`'s
   * block, so a page costs its own entries, not the ones before it.
   */
  async addressHistory(address: Uint8Array, limit: number, before?: TxRef): Promise<Receipt[]> {
    await this.historyIndexed();
    const refs: TxRef[] = [];
    const prefix = IndexKeys.addressHistoryPrefix(address);
    await this.store.scanIndex(prefix, (key, value) => {
      const height = IndexKeys.heightOf(key);
      const view = new DataView(value.buffer, value.byteOffset, value.byteLength);
      for (let o = value.length - 4; o >= 0 && refs.length < limit; o -= 4) {
        const index = view.getUint32(o);
        if (before && height === before.height && index >= before.index) continue;
        refs.push({ height, index });
      }
      return refs.length < limit;
    }, before ? IndexKeys.addressHistory(address, before.height) : prefix);
    return this.resolve(refs);
  }

  /**
   * The events that move a token, newest first, each with the receipt that holds it: those keyed
   * by its mint and, for swaps and liquidity, by each of its pools (`keys`: the mint, then the
   * pools; the table's `tokens`, src/abi/events.ts TOKEN_FIELDS). At most `limit` events.
   */
  async tokenTransfers(keys: readonly Uint8Array[], limit: number): Promise<Array<{ receipt: Receipt; eventIndex: number }>> {
    await this.historyIndexed();
    const refs: Array<TxRef & { eventIndex: number }> = [];
    for (const k of keys) {
      let taken = 0;
      await this.store.scanIndex(IndexKeys.tokenTransfersPrefix(k), (key, value) => {
        const height = IndexKeys.heightOf(key);
        const view = new DataView(value.buffer, value.byteOffset, value.byteLength);
        for (let o = value.length - 6; o >= 0 && taken < limit; o -= 6, taken++) {
          refs.push({ height, index: view.getUint32(o), eventIndex: view.getUint16(o + 4) });
        }
        return taken < limit;
      });
    }
    // Each key's refs are newest first; merged across keys, the newest `limit` of them.
    refs.sort((a, b) => b.height - a.height || b.index - a.index || b.eventIndex - a.eventIndex);
    refs.length = Math.min(refs.length, limit);
    // Paired before dropping a receipt that cannot be read, so each keeps its own event index.
    const receipts = await this.receiptReader.at(refs);
    return receipts.flatMap((receipt, i) => (receipt ? [{ receipt, eventIndex: refs[i]!.eventIndex }] : []));
  }

  /**
   * Holders of `mint` by balance, largest first (ties by address bytes). The index gives the
   * holders class by class, largest class first; within a class they are sorted by their state
   * balance, and the scan stops after the class that fills the limit.
   */
  async tokenHolders(mint: Uint8Array, limit: number): Promise<Array<{ address: Uint8Array; balance: bigint }>> {
    const out: Array<{ address: Uint8Array; balance: bigint }> = [];
    let group: Array<{ address: Uint8Array; balance: bigint }> = [];
    let groupBits = -1;
    const flush = () => {
      group.sort((a, b) => (a.balance > b.balance ? -1 : a.balance < b.balance ? 1 : Buffer.compare(a.address, b.address)));
      for (const holder of group) if (holder.balance > 0n) out.push(holder);
      group = [];
    };
    await this.store.scanIndex(IndexKeys.tokenHoldersPrefix(mint), (key) => {
      const { bits, address } = IndexKeys.holderOf(key);
      if (bits !== groupBits) {
        flush();
        if (out.length >= limit) return false;
        groupBits = bits;
      }
      group.push({ address, balance: this.balanceOf(address, mint) });
      return true;
    });
    flush();
    return out.slice(0, limit);
  }

  private balanceOf(address: Uint8Array, mint: Uint8Array): bigint {
    const record = this.state?.get(balanceKey(address, mint));
    return record ? decodeBalance(record) : 0n;
  }

  /** Mints in which `address` has a non-zero balance, in mint byte order. */
  async tokensHeld(address: Uint8Array): Promise<Uint8Array[]> {
    const out: Uint8Array[] = [];
    await this.store.scanIndex(IndexKeys.tokensHeldPrefix(address), (key) => {
      out.push(key.slice(33, 65));
      return true;
    });
    return out;
  }

  async heightOfBlockHash(hash: Uint8Array): Promise<number | undefined> {
    return this.store.heightOfHash(hash);
  }

  /** True when any history record names `address`. */
  async hasHistory(address: Uint8Array): Promise<boolean> {
    await this.historyIndexed();
    let found = false;
    await this.store.scanIndex(IndexKeys.addressHistoryPrefix(address), () => {
      found = true;
      return false;
    });
    return found;
  }

  /** Receipts of (height, index) positions, in the order given. */
  private async resolve(refs: TxRef[]): Promise<Receipt[]> {
    return (await this.receiptReader.at(refs)).filter((r) => r !== undefined);
  }

  private async receipts(hashes: Uint8Array[]): Promise<Receipt[]> {
    return (await this.receiptReader.byHashes(hashes)).filter((r) => r !== undefined);
  }

  private get receiptReader(): ReceiptReader {
    if (!this.reader) throw new Error('this indexer writes only (backfill): it reads no receipts');
    return this.reader;
  }
}

/**
 * `--backfill-indexes` (spec §4.20): clear every index record and rebuild them from the stored
 * blocks and their execution results, and the holder indexes from the current state. Idempotent: it always starts
 * from nothing. Runs before the RPC opens and before production starts.
 */
export async function backfillIndexes(
  store: ChainStore,
  onProgress: (done: number, total: number) => void = () => {},
): Promise<{ blocks: number; bundles: number; holders: number }> {
  const head = (await store.head()) ?? 0;
  // A node restored from a snapshot or an export, or pruned, holds blocks from its oldest on only
  // (docs/explorer.md "Where history starts"): the indexes are rebuilt from what it holds.
  const oldest = Math.max(1, await store.oldestBlock());
  await store.clearIndexes();
  // No StateView: block-derived records only; holders come from the state scan below.
  const indexer = new Indexer(store);
  const STEP = 64;
  let bundles = 0;
  let batch: IndexOp[] = [];
  onProgress(0, head);
  for (let from = oldest; from <= head; from += STEP) {
    const heights = Array.from({ length: Math.min(STEP, head - from + 1) }, (_, i) => from + i);
    const stored = await store.getExecutedBlocks(heights);
    for (let i = 0; i < heights.length; i++) {
      const record = stored[i];
      // The oldest block of a restore may come without its execution result (an export may omit
      // it): its bundles cannot be indexed, the ones after it are.
      if (heights[i] === oldest && oldest > 1 && !record?.outcome) continue;
      if (!record) throw new Error(`backfill: no stored block at height ${heights[i]} (head ${head})`);
      const block = decodeBlock(record.block, bundleHash);
      const outcome = record.outcome;
      if (!outcome) throw new Error(`backfill: no stored execution result for block ${heights[i]}`);
      const result = new BlockResultView(outcome);
      batch.push(...indexer.forBlock({ height: heights[i]!, bundleHashes: block.bundleHashes, bundles: block.bundles, result }));
      bundles += block.bundles.length;
      if (batch.length >= 10_000) {
        await store.writeIndexes(batch);
        batch = [];
      }
    }
    onProgress(heights.at(-1)!, head);
  }
  await store.writeIndexes(batch);
  batch = [];
  let holders = 0;
  await store.scanState(StatePrefix.BALANCE, (key, value) => {
    const bits = bitLength(value, 0, value.length);
    if (key.length !== BALANCE_KEY_LENGTH || bits === 0) return;
    const address = key.subarray(1, 33);
    const mint = key.subarray(33, 65);
    batch.push({ type: 'put', key: IndexKeys.tokenHolder(mint, bits, address), value: EMPTY });
    batch.push({ type: 'put', key: IndexKeys.tokensHeld(address, mint), value: EMPTY });
    holders++;
  });
  for (let i = 0; i < batch.length; i += 10_000) await store.writeIndexes(batch.slice(i, i + 10_000));
  // The marker last and synced: a backfill cut short leaves none, and the node asks for another.
  await store.writeIndexes([{ type: 'put', key: IndexKeys.marker(), value: Uint8Array.of(INDEX_VERSION) }], true);
  onProgress(head, head);
  return { blocks: Math.max(0, head - oldest + 1), bundles, holders };
}

const EMPTY = new Uint8Array(0);

/** Bit length of the little-endian unsigned integer (a u128 balance record) in `bytes[from, to)`: 0 for zero. */
function bitLength(bytes: Uint8Array, from: number, to: number): number {
  for (let i = to - 1; i >= from; i--) if (bytes[i] !== 0) return (i - from) * 8 + 32 - Math.clz32(bytes[i]!);
  return 0;
}

/** A pending balance as one number: the height that wrote it and its bit length (a u128: at most 128). */
function pendingEntry(height: number, bits: number): number {
  return height * 256 + bits;
}

function pendingHeight(entry: number): number {
  return Math.floor(entry / 256);
}

function pendingBits(entry: number): number {
  return entry % 256;
}
