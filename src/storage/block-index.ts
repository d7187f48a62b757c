import { NATIVE_MINT } from '../codec/address.js';
import { Bytes32Map } from '../codec/bytes32-map.js';
import type { BlockResultView } from '../core/block-result.js';
import { ACCOUNT_FIELDS, EventKind, LAST_KNOWN_KIND, SCHEDULE_RUN_INDEX } from '../core/events.js';
import { TOKEN_FIELDS } from '../abi/events.js';
import type { IndexOp } from './block-batch.js';
import { IndexKeys } from './keys.js';

/**
 * The explorer index records (docs/explorer.md "Index layouts") a block derives from itself and
 * its execution result alone: its bundle list, address history and token transfers. No state is
 * read, so the block writer's thread builds them inside the block's batch (BlockWrite.deriveIndexes,
 * src/storage/block-writer-worker.ts); the backfill builds the same records through Indexer.forBlock.
 */
export function blockIndexOps(height: number, bundleHashes: Uint8Array, bundles: readonly Uint8Array[], result: BlockResultView | undefined, ops: IndexOp[]): void {
  bundleListOps(height, bundleHashes, ops);
  historyOps(height, bundles, result, ops);
}

/** The block's bundle list (`t`): the hashes in block order. */
export function bundleListOps(height: number, bundleHashes: Uint8Array, ops: IndexOp[]): void {
  if (bundleHashes.length > 0) ops.push({ type: 'put', key: IndexKeys.blockTxs(height), value: bundleHashes });
}


/**
 * Address history and token transfers. Per address (and per mint) one record per block holding
 * every bundle index, so a 10,000-bundle block to one recipient is one record, not 10,000.
 * Addresses: each bundle's sender, and the account fields of its events (ACCOUNT_FIELDS, which
 * leaves out Fee: it would put the proposer and the treasury in every bundle's history). Read
 * straight from the result bytes: no event objects, no base58.
 */
export function historyOps(height: number, bundles: readonly Uint8Array[], result: BlockResultView | undefined, ops: IndexOp[]): void {
  const history = new Bytes32Map<{ bytes: Uint8Array; indexes: number[] }>();
  const transfers = new Bytes32Map<{ bytes: Uint8Array; refs: number[] }>();
  const touch = (bytes: Uint8Array, at: number, index: number) => {
    let entry = history.getAt(bytes, at);
    if (!entry) history.setAt(bytes, at, (entry = { bytes: bytes.subarray(at, at + 32), indexes: [] }));
    if (entry.indexes[entry.indexes.length - 1] !== index) entry.indexes.push(index);
  };
  const transfer = (bytes: Uint8Array, at: number, index: number, ordinal: number) => {
    let entry = transfers.getAt(bytes, at);
    if (!entry) transfers.setAt(bytes, at, (entry = { bytes: bytes.subarray(at, at + 32), refs: [] }));
    // One ref per event and key: a PoolCreated of an NTV pair names NTV twice.
    if (entry.refs[entry.refs.length - 2] === index && entry.refs[entry.refs.length - 1] === ordinal) return;
    entry.refs.push(index, ordinal);
  };
  // Senders and event parties bundle by bundle (events come in bundle order), so each record's
  // indexes are ascending and a repeat is always the last one.
  let sender = 0;
  if (result) {
    const data = result.bytes;
    // The event's index within its bundle's receipt (receipts list the known kinds only).
    let bundle = -1;
    let ordinal = 0;
    result.forEachEvent((bundleIndex, _op, kind, at) => {
      for (; sender <= bundleIndex && sender < bundles.length; sender++) touch(bundles[sender]!, 0, sender);
      // Schedule runs' events belong to no bundle, and history records hold bundle indexes: a run
      // is found through its schedule (svc_getIntentStatus), not the address history.
      if (kind > LAST_KNOWN_KIND || bundleIndex === SCHEDULE_RUN_INDEX) return;
      if (bundleIndex !== bundle) {
        bundle = bundleIndex;
        ordinal = 0;
      }
      for (const field of ACCOUNT_FIELDS[kind]!) touch(data, at + field, bundleIndex);
      // Token transfers (docs/explorer.md "Token transfers"): under the mint an event moves, or for
      // swaps and liquidity the pool, whose two tokens the event does not name (the reader looks the
      // pools of a token up and reads their keys too); TOKEN_FIELDS is the table's `tokens` column.
      // Every event that moves a token (src/chain/token-movements.ts) is found under each token it moves.
      for (const field of TOKEN_FIELDS[kind] ?? []) transfer(data, at + field, bundleIndex, ordinal);

      if (kind === EventKind.PoolCreated) transfer(NATIVE_MINT, 0, bundleIndex, ordinal); // the 100 NTV creation fee
      ordinal++;
    });
  }
  for (; sender < bundles.length; sender++) touch(bundles[sender]!, 0, sender);
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
