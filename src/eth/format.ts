/**
 * Blocks, transactions, receipts and logs in the shapes of the Ethereum execution-apis (spec §4.18;
 * docs/eth.md "Shapes"): hex quantities, 0x data, `null` where a wallet expects it. Every bundle of
 * a block is shown as a transaction; a bundle that carries an EVM transaction shows that
 * transaction, any other bundle a synthesized one (docs/eth.md "Native bundles").
 */
import { keccak256, parseTransaction, type Hex } from 'viem';
import { decodeBundle, type Bundle } from '../codec/bundle.js';
import type { ChainApi } from '../chain/interface.js';
import type { Block, BlockHeader } from '../chain/block.js';
import type { Receipt } from '../chain/receipts.js';
import { evmTransactionOf, ethHashOf } from '../chain/evm/bundles.js';
import { eventLogs } from './event-logs.js';
import { SELECTOR_TRANSFER } from '../chain/evm/transaction.js';
import { evmOf, hex, isNativeMintBytes, quantity, WEI_PER_NANO, ZERO_HASH } from '../chain/evm/units.js';

/** keccak256(rlp([])): a block without uncles. */
const EMPTY_UNCLES: Hex = '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347';
/** Root of an empty Merkle-Patricia trie. */
const EMPTY_TRIE: Hex = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421';
/** Fixed header fields (headerSigningBytes) plus the 64-byte signature. */
const HEADER_BYTES = 212 + 64;

export type EthLog = {
  address: Hex;
  topics: Hex[];
  data: Hex;
  blockNumber: Hex;
  blockHash: Hex;
  transactionHash: Hex;
  transactionIndex: Hex;
  logIndex: Hex;
  removed: false;
};

/** One bundle of a block with everything the eth_* shapes need. */
export interface BlockItem {
  index: number;
  bundle: Bundle;
  bundleHash: Uint8Array;
  ethHash: Hex;
  receipt: Receipt | undefined;
  logs: EthLog[];
  cumulativeGasUsed: number;
}

export interface BlockView {
  block: Block;
  items: BlockItem[];
}

/** Decodes a block's bundles and loads their receipts; logs get block-wide indexes. */
export async function blockView(chain: ChainApi, block: Block): Promise<BlockView> {
  return blockViewOf(block, await chain.blockReceipts(block));
}

/** blockView from receipts already at hand (a produced block's, for subscriptions and filters). */
export function blockViewOf(block: Block, receipts: ReadonlyArray<Receipt | undefined>): BlockView {
  const blockHash = hex(block.header.hash);
  const number = quantity(block.header.height);
  let logIndex = 0;
  let cumulative = 0;
  const items = block.bundles.map((bytes, index): BlockItem => {
    const bundle = decodeBundle(bytes);
    const bundleHash = block.bundleHashes[index]!;
    const ethHash = ethHashOf(bundle, bundleHash);
    const receipt = receipts[index];
    cumulative += receipt?.gas_used ?? 0;
    const logs: EthLog[] = [];
    for (const event of receipt?.status === 'success' ? receipt.events : []) {
      for (const log of eventLogs(event)) logs.push({ ...log, blockNumber: number, blockHash, transactionHash: ethHash, transactionIndex: quantity(index), logIndex: quantity(logIndex++), removed: false });
    }
    return { index, bundle, bundleHash, ethHash, receipt, logs, cumulativeGasUsed: cumulative };
  });
  return { block, items };
}

/** An Ethereum logs bloom (yellow paper §4.3.1) over addresses and topics. */
export function logsBloom(logs: readonly EthLog[]): Hex {
  const bloom = new Uint8Array(256);
  const add = (value: Hex) => {
    const h = Buffer.from(keccak256(value).slice(2), 'hex');
    for (let i = 0; i < 6; i += 2) {
      const bit = ((h[i]! << 8) | h[i + 1]!) & 2047;
      bloom[255 - (bit >> 3)]! |= 1 << (bit & 7);
    }
  };
  for (const log of logs) {
    add(log.address);
    for (const topic of log.topics) add(topic);
  }
  return hex(bloom);
}

/** The effective price a bundle paid per gas, in wei: (block gas price + its tip) × 10^9. */
function effectiveGasPrice(header: BlockHeader, bundle: Bundle): bigint {
  return (BigInt(header.baseFee) + bundle.maxPriorityFee) * WEI_PER_NANO;
}

export function formatTransaction(view: BlockView, item: BlockItem): Record<string, unknown> {
  const { header } = view.block;
  const position = { blockHash: hex(header.hash), blockNumber: quantity(header.height), transactionIndex: quantity(item.index) };
  const raw = evmTransactionOf(item.bundle);
  return { ...(raw ? evmTransactionFields(raw, item.bundle, effectiveGasPrice(header, item.bundle)) : nativeTransactionFields(item.bundle, effectiveGasPrice(header, item.bundle))), hash: item.ethHash, ...position };
}

/** A transaction still in the mempool: no block yet. */
export function formatPendingTransaction(bundle: Bundle, ethHash: Hex, gasPriceNano: bigint): Record<string, unknown> {
  const raw = evmTransactionOf(bundle);
  const price = (gasPriceNano + bundle.maxPriorityFee) * WEI_PER_NANO;
  return { ...(raw ? evmTransactionFields(raw, bundle, price) : nativeTransactionFields(bundle, price)), hash: ethHash, blockHash: null, blockNumber: null, transactionIndex: null };
}

function evmTransactionFields(raw: Uint8Array, bundle: Bundle, effective: bigint): Record<string, unknown> {
  const tx = parseTransaction(hex(raw)) as Record<string, unknown> & { type: string };
  const type = tx.type === 'eip1559' ? '0x2' : tx.type === 'eip2930' ? '0x1' : '0x0';
  const common = {
    type,
    from: evmOf(bundle.userAccount),
    to: (tx.to as string).toLowerCase(),
    nonce: quantity(bundle.nonce),
    gas: quantity((tx.gas as bigint | undefined) ?? 0n),
    value: quantity((tx.value as bigint | undefined) ?? 0n),
    input: (tx.data as string | undefined) ?? '0x',
    chainId: quantity((tx.chainId as number | undefined) ?? 0),
    r: quantity(BigInt((tx.r as string | undefined) ?? 0)),
    s: quantity(BigInt((tx.s as string | undefined) ?? 0)),
  };
  if (type === '0x0') return { ...common, gasPrice: quantity((tx.gasPrice as bigint | undefined) ?? 0n), v: quantity((tx.v as bigint | undefined) ?? 0n) };
  const parity = quantity((tx.yParity as number | undefined) ?? 0);
  const access = { accessList: tx.accessList ?? [], v: parity, yParity: parity };
  if (type === '0x1') return { ...common, ...access, gasPrice: quantity((tx.gasPrice as bigint | undefined) ?? 0n) };
  return {
    ...common, ...access, gasPrice: quantity(effective),
    maxFeePerGas: quantity((tx.maxFeePerGas as bigint | undefined) ?? 0n),
    maxPriorityFeePerGas: quantity((tx.maxPriorityFeePerGas as bigint | undefined) ?? 0n),
  };
}

/**
 * A native (Ed25519, ML-DSA-65 or unsigned) bundle as a legacy-shaped transaction. Its `from`/`to`
 * are EVM forms (last 20 bytes) and so lossy for native accounts; `v`, `r`, `s` are 0 because
 * the signature is not ECDSA. A single Transfer shows as a value transfer (NTV, scaled to wei) or
 * an ERC-20 transfer call; other bundles have `to` null and empty input.
 */
function nativeTransactionFields(bundle: Bundle, effective: bigint): Record<string, unknown> {
  const op = bundle.operations.length === 1 ? bundle.operations[0]! : undefined;
  let to: string | null = null;
  let value = 0n;
  let input = '0x';
  if (op?.type === 'Transfer') {
    if (isNativeMintBytes(op.token)) {
      to = evmOf(op.to);
      value = op.amount * WEI_PER_NANO;
    } else {
      to = evmOf(op.token);
      input = SELECTOR_TRANSFER + Buffer.from(op.to).toString('hex') + op.amount.toString(16).padStart(64, '0');
    }
  }
  return {
    type: '0x0', from: evmOf(bundle.userAccount), to, nonce: quantity(bundle.nonce), gas: quantity(bundle.maxGas),
    gasPrice: quantity(effective), value: quantity(value), input, v: '0x0', r: '0x0', s: '0x0',
  };
}

export function formatReceipt(view: BlockView, item: BlockItem): Record<string, unknown> | null {
  const receipt = item.receipt;
  if (!receipt) return null;
  const tx = formatTransaction(view, item);
  const price = receipt.gas_used > 0 ? (BigInt(receipt.fee) / BigInt(receipt.gas_used)) * WEI_PER_NANO : effectiveGasPrice(view.block.header, item.bundle);
  return {
    transactionHash: item.ethHash,
    transactionIndex: quantity(item.index),
    blockHash: hex(view.block.header.hash),
    blockNumber: quantity(view.block.header.height),
    from: tx.from,
    to: tx.to,
    cumulativeGasUsed: quantity(item.cumulativeGasUsed),
    gasUsed: quantity(receipt.gas_used),
    effectiveGasPrice: quantity(price),
    contractAddress: null,
    logs: item.logs,
    logsBloom: logsBloom(item.logs),
    status: receipt.status === 'success' ? '0x1' : '0x0',
    type: tx.type,
  };
}

/**
 * A block header as eth_subscribe("newHeads") sends it (geth's header JSON): the block's fields
 * without transactions, uncles, size and totalDifficulty.
 */
export function formatHead(view: BlockView): Record<string, unknown> {
  const { transactions: _t, uncles: _u, size: _s, totalDifficulty: _d, ...head } = formatBlock(view, false);
  return head;
}

export function formatBlock(view: BlockView, full: boolean): Record<string, unknown> {
  const { header } = view.block;
  const size = HEADER_BYTES + view.block.bundles.reduce((n, b) => n + b.length, 0);
  return {
    number: quantity(header.height),
    hash: hex(header.hash),
    parentHash: hex(header.parentHash),
    nonce: '0x0000000000000000',
    sha3Uncles: EMPTY_UNCLES,
    logsBloom: logsBloom(view.items.flatMap((i) => i.logs)),
    transactionsRoot: hex(header.transactionsRoot),
    stateRoot: hex(header.stateRoot),
    // No receipt trie exists natively: the empty-trie root for an empty block, otherwise keccak256
    // over the block's transaction hashes in order (docs/eth.md "Blocks").
    receiptsRoot: view.items.length === 0 ? EMPTY_TRIE : keccak256(`0x${view.items.map((i) => i.ethHash.slice(2)).join('')}`),
    miner: evmOf(header.proposer),
    difficulty: '0x0',
    totalDifficulty: '0x0',
    extraData: '0x',
    size: quantity(size),
    gasLimit: quantity(header.gasLimit),
    gasUsed: quantity(header.gasUsed),
    timestamp: quantity(header.timestamp),
    baseFeePerGas: quantity(BigInt(header.baseFee) * WEI_PER_NANO),
    mixHash: ZERO_HASH,
    transactions: full ? view.items.map((i) => formatTransaction(view, i)) : view.items.map((i) => i.ethHash),
    uncles: [],
  };
}

/**
 * geth's sync status (eth_syncing, eth_subscribe("syncing")): where the catch-up started, the height
 * reached, and its target, the best height a peer announced (never below the height reached).
 */
export function syncStatus(height: number, progress: { startingHeight: number; highestHeight: number } | undefined): { startingBlock: string; currentBlock: string; highestBlock: string } {
  return {
    startingBlock: quantity(progress?.startingHeight ?? 0), currentBlock: quantity(height), highestBlock: quantity(Math.max(height, progress?.highestHeight ?? 0)),
  };
}
