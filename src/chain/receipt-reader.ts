import { bundleHash } from '../codec/bundle.js';
import { BlockResultView } from '../core/block-result.js';
import type { ChainStore } from '../storage/chain-store.js';
import { decodeStoredBlock, type BlockHeader } from './block.js';
import { receiptAt, type Receipt } from './receipts.js';
import type { TokenRegistry } from './token-registry.js';

/** A position in the chain: the block height and the bundle's index in it. */
export interface TxRef {
  height: number;
  index: number;
}

interface StoredExecution {
  header: BlockHeader;
  bundles: Uint8Array[];
  result: BlockResultView;
}

/** Blocks kept decoded: the latest ones are read most (explorer lists, receipts of fresh bundles). */
const CACHED_BLOCKS = 32;

/**
 * Receipts from storage (docs/storage.md "Receipts"): a bundle's position record names its block,
 * and the receipt is built from the stored block and its execution result. The last blocks read
 * stay decoded, so the receipts of one block cost one read of it. Durable blocks never change (a
 * final block is never replaced), so the cache needs no invalidation.
 */
export class ReceiptReader {
  private readonly cache = new Map<number, Promise<StoredExecution | undefined>>();

  constructor(private readonly store: ChainStore, private readonly tokens: TokenRegistry) {}

  /** Receipts of bundles by hash, in the order given; undefined for a bundle in no stored block. */
  async byHashes(hashes: readonly Uint8Array[]): Promise<Array<Receipt | undefined>> {
    if (hashes.length === 0) return [];
    const positions = await this.store.getPositions(hashes);
    const found = positions.map((p, i) => (p ? { ...p, hash: hashes[i] } : undefined));
    const receipts = await this.at(found.filter((p) => p !== undefined));
    let next = 0;
    return found.map((p) => (p ? receipts[next++] : undefined));
  }

  /** Receipts at positions, in the order given (undefined where no block or bundle is stored). */
  async at(refs: ReadonlyArray<TxRef & { hash?: Uint8Array }>): Promise<Array<Receipt | undefined>> {
    const heights = [...new Set(refs.map((r) => r.height))];
    const blocks = new Map<number, StoredExecution | undefined>();
    await Promise.all(heights.map(async (h) => blocks.set(h, await this.block(h))));
    return refs.map(({ height, index, hash }) => {
      const block = blocks.get(height);
      const bytes = block?.bundles[index];
      if (!block || !bytes || index >= block.result.count) return undefined;
      return receiptAt(block.header, bytes, hash ?? bundleHash(bytes), index, block.result, this.tokens);
    });
  }

  /** Every receipt of the block at `height`, in block order (empty when none is stored). */
  async ofBlock(height: number): Promise<Receipt[]> {
    const block = await this.block(height);
    if (!block) return [];
    return (await this.at(block.bundles.map((_, index) => ({ height, index })))).filter((r) => r !== undefined);
  }

  private block(height: number): Promise<StoredExecution | undefined> {
    let entry = this.cache.get(height);
    if (entry) {
      // most recently used last
      this.cache.delete(height);
      this.cache.set(height, entry);
      return entry;
    }
    entry = this.load(height);
    this.cache.set(height, entry);
    if (this.cache.size > CACHED_BLOCKS) this.cache.delete(this.cache.keys().next().value!);
    // A block not stored yet may be stored soon: do not remember the miss.
    const pending = entry;
    void pending.then((found) => {
      if (!found && this.cache.get(height) === pending) this.cache.delete(height);
    }, () => this.cache.delete(height));
    return entry;
  }

  private async load(height: number): Promise<StoredExecution | undefined> {
    const [stored] = await this.store.getExecutedBlocks([height]);
    if (!stored?.outcome) return undefined;
    const { header, bundles } = decodeStoredBlock(stored.block);
    return { header, bundles, result: new BlockResultView(stored.outcome) };
  }
}
