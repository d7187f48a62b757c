import { bundleHash } from '../codec/bundle.js';
import { parseAddress } from '../codec/address.js';
import { balanceKey, decodeBalance, Prefix as StatePrefix } from '../core/records.js';
import { IndexKeys, type ChainStore, type IndexOp, type StateWrite } from '../storage/chain-store.js';
import { decodeBlock } from './block.js';
import { decodeReceipt, type Receipt } from './receipts.js';
import type { StateView } from './state-view.js';

/**
 * The explorer indexes of spec §4.11 (layouts: docs/explorer.md). Index records are derived data:
 * they are computed from a produced block and written in that block's own level batch, so they are
 * never ahead of or behind the blocks; `--backfill-indexes` (spec §4.20) rebuilds them from stored
 * blocks, receipts and state. Bundle → (height, index) needs no record of its own: the receipt,
 * stored by bundle hash, carries `block_height` and `index`.
 */

/** Bumped when a layout changes; a database indexed with another version wants --backfill-indexes. */
export const INDEX_VERSION = 1;

/** What the indexer needs from one block. */
export interface IndexedBlock {
  height: number;
  bundleHashes: Uint8Array[];
  receipts: Receipt[];
  /** the sender of each bundle as bytes, when the caller has them (spares a base58 decode) */
  senders?: Uint8Array[];
  /** the block's state writes; balance records feed the holder and tokens-held indexes */
  writes?: StateWrite[];
}

/** A position in the chain: the block height and the bundle's index in it. */
export interface TxRef {
  height: number;
  index: number;
}

const BALANCE_KEY_LENGTH = 65; // 0x02 + address + mint (docs/core-abi.md "State layout")
const ADDRESS_CACHE_LIMIT = 65_536;

export class Indexer {
  /**
   * Balance records of blocks executed but not yet durable: the StateView is updated only after a
   * block's write, and the next block executes while that write is in flight, so the previous
   * balance of a key (whose holder entry must be deleted) is read here first.
   */
  private readonly pending = new Map<string, { value: Uint8Array | null; height: number }>();
  private readonly pendingByHeight = new Map<number, string[]>();
  /** base58 text → bytes of recipients and other event addresses, which repeat across blocks */
  private readonly addresses = new Map<string, Uint8Array>();

  /** `state` is absent for the backfill, which indexes no balance writes. */
  constructor(private readonly store: ChainStore, private readonly state?: StateView) {}

  // ---- writing ------------------------------------------------------------------------------

  /** The index records of one block, for its BlockWrite (spec §4.11). */
  forBlock(block: IndexedBlock): IndexOp[] {
    const ops: IndexOp[] = [];
    const { height, bundleHashes, receipts } = block;
    if (height === 0) ops.push({ type: 'put', key: IndexKeys.marker(), value: Uint8Array.of(INDEX_VERSION) });
    if (bundleHashes.length > 0) ops.push({ type: 'put', key: IndexKeys.blockTxs(height), value: concat32(bundleHashes) });
    this.historyOps(block, ops);
    if (block.writes) this.balanceOps(block.writes, height, ops);
    return ops;
  }

  /** The block at `height` is durable and its writes are in the StateView. */
  durable(height: number): void {
    for (const [h, keys] of this.pendingByHeight) {
      if (h > height) continue;
      for (const key of keys) if (this.pending.get(key)?.height === h) this.pending.delete(key);
      this.pendingByHeight.delete(h);
    }
  }

  /**
   * Address history and token transfers. Per address (and per mint) one record per block holding
   * every bundle index, so a 10,000-bundle block to one recipient is one record, not 10,000.
   * Addresses: each bundle's sender, and every `Nx0…` field of its events except `Fee` (the fee
   * would put the proposer and the treasury in every bundle's history). Event kinds other than the
   * ones named here are scanned generically, so later events (DEX, staking) index without a change.
   */
  private historyOps(block: IndexedBlock, ops: IndexOp[]): void {
    const { height, receipts, senders } = block;
    const history = new Map<string, { bytes: Uint8Array; indexes: number[] }>();
    const transfers = new Map<string, { bytes: Uint8Array; refs: number[] }>();
    const touch = (address: string, index: number, bytes?: Uint8Array) => {
      let entry = history.get(address);
      if (!entry) {
        const resolved = bytes ?? this.bytesOf(address);
        if (!resolved) return;
        history.set(address, (entry = { bytes: resolved, indexes: [] }));
      }
      if (entry.indexes[entry.indexes.length - 1] !== index) entry.indexes.push(index);
    };
    for (let i = 0; i < receipts.length; i++) {
      const receipt = receipts[i]!;
      touch(receipt.from, i, senders?.[i]);
      const events = receipt.events;
      for (let j = 0; j < events.length; j++) {
        const event = events[j]!;
        switch (event.type) {
          case 'Fee':
            break;
          case 'Transfer': {
            touch(event.from, i);
            touch(event.to, i);
            let entry = transfers.get(event.token);
            if (!entry) {
              const mint = this.bytesOf(event.token);
              if (!mint) break;
              transfers.set(event.token, (entry = { bytes: mint, refs: [] }));
            }
            entry.refs.push(i, j);
            break;
          }
          case 'TokenCreated':
            touch(event.creator, i);
            touch(event.owner, i);
            break;
          case 'KeyRegistered':
            touch(event.account, i);
            break;
          default:
            for (const value of Object.values(event as Record<string, unknown>)) {
              if (typeof value === 'string' && value.startsWith('Nx0')) touch(value, i);
            }
        }
      }
    }
    for (const { bytes, indexes } of history.values()) {
      const value = new Uint8Array(indexes.length * 4);
      const view = new DataView(value.buffer);
      for (let k = 0; k < indexes.length; k++) view.setUint32(k * 4, indexes[k]!);
      ops.push({ type: 'put', key: IndexKeys.addressHistory(bytes, height), value });
    }
    for (const { bytes, refs } of transfers.values()) {
      const value = new Uint8Array((refs.length / 2) * 6);
      const view = new DataView(value.buffer);
      for (let k = 0, o = 0; k < refs.length; k += 2, o += 6) {
        view.setUint32(o, refs[k]!);
        view.setUint16(o + 4, refs[k + 1]!);
      }
      ops.push({ type: 'put', key: IndexKeys.tokenTransfers(bytes, height), value });
    }
  }

  /**
   * Holders and tokens held, from the block's balance writes: right whatever changed the balance
   * (transfers, fees, token creation, later swaps), with no event arithmetic. A holder entry is keyed
   * by its balance's power-of-two class, so it is rewritten only when the class changes; the exact
   * balance is read from state when the holders are listed.
   */
  private balanceOps(writes: StateWrite[], height: number, ops: IndexOp[]): void {
    let keys: string[] | undefined;
    for (const { key, value } of writes) {
      if (key[0] !== StatePrefix.BALANCE || key.length !== BALANCE_KEY_LENGTH) continue;
      const text = Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString('latin1');
      const pending = this.pending.get(text);
      const previous = pending ? pending.value : (this.state?.get(key) ?? null);
      this.pending.set(text, { value, height });
      (keys ??= []).push(text);
      const before = previous === null ? 0 : bitLength(previous);
      const after = value === null ? 0 : bitLength(value);
      if (before === after) continue;
      const address = key.subarray(1, 33);
      const mint = key.subarray(33, 65);
      const had = before > 0;
      const has = after > 0;
      if (had) ops.push({ type: 'del', key: IndexKeys.tokenHolder(mint, before, address) });
      if (has) ops.push({ type: 'put', key: IndexKeys.tokenHolder(mint, after, address), value: EMPTY });
      if (had !== has) {
        ops.push(has ? { type: 'put', key: IndexKeys.tokensHeld(address, mint), value: EMPTY } : { type: 'del', key: IndexKeys.tokensHeld(address, mint) });
      }
    }
    if (keys) this.pendingByHeight.set(height, keys);
  }

  private bytesOf(address: string): Uint8Array | undefined {
    let bytes = this.addresses.get(address);
    if (bytes) return bytes;
    try {
      bytes = parseAddress(address);
    } catch {
      return undefined; // a receipt field that is not an address; nothing to index
    }
    if (this.addresses.size >= ADDRESS_CACHE_LIMIT) this.addresses.clear();
    this.addresses.set(address, bytes);
    return bytes;
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
    const [value] = await this.store.getBlockTxs([height]);
    if (!value) return [];
    const hashes: Uint8Array[] = [];
    for (let o = 0; o < value.length; o += 32) hashes.push(value.subarray(o, o + 32));
    return this.receipts(hashes);
  }

  /** Bundles that involve `address`, newest first. */
  async addressHistory(address: Uint8Array, limit: number): Promise<Receipt[]> {
    const refs: TxRef[] = [];
    await this.store.scanIndex(IndexKeys.addressHistoryPrefix(address), (key, value) => {
      const height = IndexKeys.heightOf(key);
      const view = new DataView(value.buffer, value.byteOffset, value.byteLength);
      for (let o = value.length - 4; o >= 0 && refs.length < limit; o -= 4) refs.push({ height, index: view.getUint32(o) });
      return refs.length < limit;
    });
    return this.resolve(refs);
  }

  /** Transfer events of `mint`, newest first, each with the receipt that holds it. */
  async tokenTransfers(mint: Uint8Array, limit: number): Promise<Array<{ receipt: Receipt; eventIndex: number }>> {
    const refs: Array<TxRef & { eventIndex: number }> = [];
    await this.store.scanIndex(IndexKeys.tokenTransfersPrefix(mint), (key, value) => {
      const height = IndexKeys.heightOf(key);
      const view = new DataView(value.buffer, value.byteOffset, value.byteLength);
      for (let o = value.length - 6; o >= 0 && refs.length < limit; o -= 6) {
        refs.push({ height, index: view.getUint32(o), eventIndex: view.getUint16(o + 4) });
      }
      return refs.length < limit;
    });
    const receipts = await this.resolve(refs);
    return receipts.map((receipt, i) => ({ receipt, eventIndex: refs[i]!.eventIndex }));
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
    let found = false;
    await this.store.scanIndex(IndexKeys.addressHistoryPrefix(address), () => {
      found = true;
      return false;
    });
    return found;
  }

  /** Receipts of (height, index) positions, in the order given. */
  private async resolve(refs: TxRef[]): Promise<Receipt[]> {
    const heights = [...new Set(refs.map((r) => r.height))];
    const lists = await this.store.getBlockTxs(heights);
    const byHeight = new Map(heights.map((h, i) => [h, lists[i]]));
    const hashes: Uint8Array[] = [];
    for (const { height, index } of refs) {
      const list = byHeight.get(height);
      if (list && (index + 1) * 32 <= list.length) hashes.push(list.subarray(index * 32, index * 32 + 32));
    }
    return this.receipts(hashes);
  }

  private async receipts(hashes: Uint8Array[]): Promise<Receipt[]> {
    if (hashes.length === 0) return [];
    const stored = await this.store.getReceipts(hashes);
    return stored.filter((r) => r !== undefined).map(decodeReceipt);
  }
}

/**
 * `--backfill-indexes` (spec §4.20): clear every index record and rebuild them from the stored
 * blocks and receipts, and the holder indexes from the current state. Idempotent: it always starts
 * from nothing. Runs before the RPC opens and before production starts.
 */
export async function backfillIndexes(
  store: ChainStore,
  onProgress: (done: number, total: number) => void = () => {},
): Promise<{ blocks: number; bundles: number; holders: number }> {
  const head = (await store.head()) ?? 0;
  await store.clearIndexes();
  // No StateView: block-derived records only; holders come from the state scan below.
  const indexer = new Indexer(store);
  const STEP = 64;
  let bundles = 0;
  let batch: IndexOp[] = [];
  onProgress(0, head);
  for (let from = 1; from <= head; from += STEP) {
    const heights = Array.from({ length: Math.min(STEP, head - from + 1) }, (_, i) => from + i);
    const blocks = await store.getBlocks(heights);
    for (let i = 0; i < heights.length; i++) {
      const bytes = blocks[i];
      if (!bytes) throw new Error(`backfill: no stored block at height ${heights[i]} (head ${head})`);
      const block = decodeBlock(bytes, bundleHash);
      const stored = await store.getReceipts(block.bundleHashes);
      const receipts = stored.map((r, k) => {
        if (!r) throw new Error(`backfill: no receipt for bundle ${k} of block ${heights[i]}`);
        return decodeReceipt(r);
      });
      batch.push(...indexer.forBlock({ height: heights[i]!, bundleHashes: block.bundleHashes, receipts }));
      bundles += receipts.length;
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
    const bits = bitLength(value);
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
  return { blocks: head, bundles, holders };
}

const EMPTY = new Uint8Array(0);

/** Bit length of a little-endian unsigned integer (a u128 balance record): 0 for zero. */
function bitLength(le: Uint8Array): number {
  for (let i = le.length - 1; i >= 0; i--) if (le[i] !== 0) return i * 8 + 32 - Math.clz32(le[i]!);
  return 0;
}

function concat32(hashes: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(hashes.length * 32);
  for (let i = 0; i < hashes.length; i++) out.set(hashes[i]!, i * 32);
  return out;
}
