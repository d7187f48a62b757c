import { Type, type Static } from '@sinclair/typebox';
import type { Hex } from 'viem';
import { bundleHash, decodeBundle, encodeBundle } from '../../codec/bundle.js';
import type { ChainApi, DomainReaders } from '../../chain/interface.js';
import type { Block } from '../../chain/block.js';
import { ChainError } from '../../chain/errors.js';
import { callToken, COLLECTION_CODE_STUB, TOKEN_CODE_STUB } from '../../eth/calls.js';
import { callCollection } from '../../eth/collection-calls.js';
import { callMulticall, MULTICALL3_ADDRESS, MULTICALL3_CODE_STUB } from '../../eth/multicall.js';
import { blockView, formatBlock, formatPendingTransaction, formatReceipt, formatTransaction, syncStatus, type BlockView, type EthLog } from '../../eth/format.js';
import { actionGas, actionOf, bundleOf, decodeEvmTransaction, evmRefusal, MAX_RAW_TX_BYTES, type EvmAction } from '../../chain/evm/transaction.js';
import { accountOfEvm, quantity, unhex, WEI_PER_NANO } from '../../chain/evm/units.js';
import { logMatcher } from '../../eth/log-filter.js';
import { EvmSimulator } from '../../eth/simulate.js';
import {
  BLOCK_EXAMPLE, ETH_EXAMPLES, EthBlockObject, EthFeeHistoryObject, EthLogObject, EthReceiptObject, EthTransactionObject, HASH_EXAMPLE, LOG_EXAMPLE, RECEIPT_EXAMPLE, TRANSACTION_EXAMPLE,
} from './eth-schemas.js';
import { APP_ERRORS, RpcError, STANDARD_ERRORS } from '../errors.js';
import { GETH_ERROR_CODE, gethAdmissionError } from '../eth-errors.js';
import { defineMethod, type MethodDefinition } from '../registry.js';
import { HexBytes, HexQuantity, parsed, withExpected } from '../schemas.js';
import { positionIn } from './params.js';
import type { MethodParam } from '../method.js';
import type { MethodDependencies } from './context.js';
import { callCollectionAt, callTokenAt, collectionExistedAt, multicallBlockAt, nonceAt, tokenExistedAt } from './eth-past.js';

/** eth_getLogs: blocks per query and logs per answer at most (LIMIT_EXCEEDED beyond). */
export const MAX_LOG_BLOCKS = 10_000;
export const MAX_LOGS = 10_000;
/** eth_feeHistory: blocks per query at most (execution-apis let servers cap it). */
const MAX_FEE_HISTORY = 1024;

const HEX_QTY = '0x(0|[1-9a-fA-F][0-9a-fA-F]*)';
export const EvmAddress = (description = 'A 20-byte EVM address.') =>
  withExpected(Type.String({ title: 'EvmAddress', pattern: '^0x[0-9a-fA-F]{40}$', description }), 'an EVM address (0x + 40 hex digits)');
export const Hash32 = (description: string) =>
  withExpected(Type.String({ title: 'Hash32', pattern: '^0x[0-9a-fA-F]{64}$', description }), 'a 32-byte hash (0x + 64 hex digits)');
export const BlockTag = (options: { default?: string } = {}) =>
  withExpected(Type.String({
    title: 'BlockTag',
    pattern: `^(latest|earliest|pending|safe|finalized|${HEX_QTY})$`,
    description: 'A block number as hex quantity, or latest, earliest, pending, safe, finalized (one validator: safe = finalized = latest; no pending block, pending = latest).',
    ...options,
  }), 'a block tag (latest, earliest, pending, safe, finalized) or a hex block number');
/**
 * EIP-1898: a block by number or by hash as an object, for the state methods. `requireCanonical`
 * is accepted and always holds: one validator, no forks (docs/eth.md "Block parameters").
 */
export const BlockParam = (options: { default?: string } = {}) => withExpected(Type.Union([
  BlockTag(),
  Type.Object({ blockNumber: withExpected(Type.String({ pattern: `^${HEX_QTY}$` }), 'a hex block number') }, { additionalProperties: false }),
  Type.Object({ blockHash: Hash32('block hash'), requireCanonical: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
], { title: 'BlockNumberOrTagOrHash', description: 'A block tag, a hex block number, or an EIP-1898 object {blockNumber} or {blockHash, requireCanonical?}.', ...options }),
'a block tag, a hex block number, or an EIP-1898 object {blockNumber} or {blockHash, requireCanonical?}');
export type BlockParamValue = string | { blockNumber: string } | { blockHash: string; requireCanonical?: boolean };
export const CallObject = Type.Object({
  from: Type.Optional(EvmAddress()),
  to: Type.Optional(Type.Union([EvmAddress(), Type.Null()])),
  gas: Type.Optional(HexQuantity()),
  gasPrice: Type.Optional(HexQuantity()),
  maxFeePerGas: Type.Optional(HexQuantity()),
  maxPriorityFeePerGas: Type.Optional(HexQuantity()),
  value: Type.Optional(HexQuantity()),
  data: Type.Optional(HexBytes()),
  input: Type.Optional(HexBytes()),
  nonce: Type.Optional(HexQuantity()),
}, { title: 'CallObject', description: 'An EVM call: to, data (or input), value, from; gas and fee fields are accepted and ignored.' });
const Topic = Type.Union([Hash32('a topic'), Type.Null(), Type.Array(Type.Union([Hash32('a topic'), Type.Null()]))]);
export const LogFilter = Type.Object({
  fromBlock: Type.Optional(BlockTag()),
  toBlock: Type.Optional(BlockTag()),
  address: Type.Optional(Type.Union([EvmAddress(), Type.Array(EvmAddress())])),
  topics: Type.Optional(Type.Array(Topic, { maxItems: 4 })),
  blockHash: Type.Optional(Hash32('only this block')),
}, { title: 'LogFilter' });
export const Quantity = Type.String({ pattern: '^0x[0-9a-f]+$' });
const GET_LOGS_PARAMS = [{ name: 'filter', schema: LogFilter }] as const;
const CALL_PARAMS = [{ name: 'transaction', schema: CallObject }, { name: 'block', schema: BlockParam({ default: 'latest' }), required: false }] as const;
const Anything = Type.Unknown();

/** Spec §4.18 wallet adapter: no EVM runs, every call maps to native state and bundles (docs/eth.md). */
export function ethMethods({ chain, readers, simulator }: MethodDependencies & { simulator: EvmSimulator }): MethodDefinition[] {
  /** EVM transactions sent through this node and not yet in a stored block: eth hash → bundle bytes. */
  const pending = new Map<string, Uint8Array>();
  /** NFT and multi-token collections (docs/collections.md), answered as ERC-721/1155 contracts. */
  const collections = () => readers.collections;

  /** eth_sendRawTransaction without the error mapping (docs/eth.md "Sending"). */
  async function sendRaw(rawHex: string): Promise<string> {
    const raw = unhex(rawHex);
    const tx = await decodeEvmTransaction(raw, chain.chainId);
    const action = actionOf(tx, readers.evmTokens);
    const bundle = bundleOf(tx, readers.evmTokens, action);
    const bytes = encodeBundle(bundle);
    // geth's order: a transaction it holds is "already known", a used nonce "nonce too low" (the
    // same transaction already in a block included: docs/eth.md "Answer"), before fees and funds.
    if (chain.isPending(Buffer.from(bundleHash(bytes)).toString('hex'))) throw evmRefusal('ALREADY_KNOWN', 'already known', { hash: tx.hash });
    const stateNonce = chain.stateNonce(bundle.userAccount);
    if (tx.nonce < stateNonce) throw evmRefusal('NONCE_TOO_LOW', `address ${tx.from}, tx: ${tx.nonce} state: ${stateNonce}`, { hash: tx.hash });
    const gas = actionGas(action);
    // geth refuses a gas limit below what the transaction needs before it pools it; the core would
    // fail the bundle at execution otherwise.
    if (tx.gas < gas) throw evmRefusal('INTRINSIC_GAS_TOO_LOW', `intrinsic gas too low: have ${tx.gas}, want ${gas}`, { gas: tx.gas.toString(), required: gas.toString() });
    // Ethereum pools refuse what the sender cannot pay for; so does this one, rather than
    // admitting a bundle the core would fail at execution (INSUFFICIENT_FEE_BALANCE, NOT_NFT_OWNER, …).
    // The fee is the gas limit's, as geth's txpool counts it and as admission's funds rule does
    // (src/chain/admission/funds.ts, which counts the bundle's max_gas, here tx.gas).
    await checkFunds(chain, simulator, bundle.userAccount, tx.from, action, tx.gas * (chain.gasPrice + bundle.maxPriorityFee));
    const { hash, known, included } = await chain.enqueueBundle(bytes).catch((error: unknown) => {
      // Admission's funds rule also counts the sender's waiting transactions (the pending state,
      // docs/mempool.md "Funds"): its refusal is worded as this adapter's, EVM address and wei.
      if (error instanceof ChainError && error.data.status === 'INSUFFICIENT_FUNDS') {
        throw insufficientFunds(tx.from, BigInt(String(error.data.have)), BigInt(String(error.data.want)));
      }
      throw error;
    });
    // Admitted meanwhile by another request (already known), or included meanwhile (nonce too low).
    if (known) {
      if (chain.isPending(Buffer.from(hash).toString('hex'))) throw evmRefusal('ALREADY_KNOWN', 'already known', { hash: tx.hash });
      throw evmRefusal('NONCE_TOO_LOW', `address ${tx.from}, tx: ${tx.nonce} state: ${chain.stateNonce(bundle.userAccount)}`, { hash: tx.hash });
    }
    const key = tx.hash.toLowerCase();
    pending.set(key, bytes);
    // The receipt is read back with eth_getTransactionReceipt; here only the bookkeeping.
    included.then(() => pending.delete(key), () => pending.delete(key));
    return tx.hash;
  }

  /** eth_call's dispatch by address, also each inner call of Multicall3 (src/eth/multicall.ts). */
  async function callAt(to: string, data: Hex, from: string | undefined, height?: number): Promise<Hex> {
    if (to.toLowerCase() === MULTICALL3_ADDRESS) {
      // At a past block every inner call runs at that block too, and the block helpers answer its
      // header (docs/eth.md "Multicall3"): wagmi and viem clients batching reads through Multicall3
      // read at receipt.blockNumber as a direct call does (issue 42 item 1).
      const block = height === undefined ? undefined : await multicallBlockAt(chain, height);
      return callMulticall(chain, data, (target, inner) => callAt(target, inner, MULTICALL3_ADDRESS, height), block);
    }
    const token = readers.evmTokens.lookup(to);
    if (token && height !== undefined) return callTokenAt(chain, height, token, data, from, (sender, action) => simulator.checkAt(height, sender, action));
    if (token) return callToken(chain, token, data, from, (sender, action) => simulator.check(sender, action));
    const collection = readers.evmTokens.collection(to);
    if (collection && height !== undefined) return callCollectionAt(chain, height, collection.address, data);
    if (collection) return callCollection(collections(), collection, data);
    // Calling an address without code succeeds with empty output on Ethereum too.
    return '0x';
  }

  return withExamples([
    defineMethod({
      name: 'eth_chainId',
      summary: 'Chain ID as a hex quantity: 0x18b070 testnet, 0x18b071 mainnet (spec §9.2).',
      params: [] as const,
      result: {
        name: 'chainId', schema: Type.String({ pattern: '^0x[0-9a-f]+$' }),
        description: '`"0x18b070"` testnet, `"0x18b071"` mainnet',
      },
      handler: () => `0x${chain.chainId.toString(16)}`,
    }),
    defineMethod({
      name: 'net_version',
      summary: 'Chain ID as a decimal string, as net_version has it.',
      params: [] as const,
      result: {
        name: 'version', schema: Type.String({ pattern: '^[0-9]+$' }),
        description: 'chain ID, decimal string',
      },
      handler: () => String(chain.chainId),
    }),
    defineMethod({
      name: 'eth_blockNumber',
      summary: 'Latest block height as a hex quantity (spec §4.18).',
      params: [] as const,
      result: {
        name: 'blockNumber', schema: Type.String({ pattern: '^0x[0-9a-f]+$' }),
        description: 'head height, hex quantity',
      },
      handler: () => `0x${chain.height.toString(16)}`,
    }),
    defineMethod({
      name: 'eth_getBalance',
      summary: 'Native NTV balance in wei: raw nanoNTV × 10^9, so 18 decimals as wallets expect (spec §4.18).',
      description: 'At the block the parameter names: any block on an archive node, the last 128 at least on a pruning one; below that -32013 naming the oldest served (docs/eth.md "Block parameters"); a block above the head is -32003.',
      params: [{ name: 'address', schema: EvmAddress() }, { name: 'block', schema: BlockParam({ default: 'latest' }), required: false }] as const,
      result: {
        name: 'balance', schema: Quantity,
        description: 'NTV balance in wei (nanoNTV × 10^9), as of `block` ([eth.md](eth.md) "Block parameters": past blocks within the state window;'
          + ' below it `-32013` naming the oldest served)',
      },
      errors: STATE_ERRORS,
      handler: async ([address, tag]) => {
        const height = await stateAt(chain, tag);
        const account = accountOfEvm(address);
        const balance = height === undefined ? chain.balance(account, new Uint8Array(32)) : await chain.balanceAt(account, new Uint8Array(32), height);
        return quantity(balance * WEI_PER_NANO);
      },
    }),
    defineMethod({
      name: 'eth_getTransactionCount',
      summary: 'The account nonce: "pending" counts the mempool (the nonce to sign next), other tags the committed one; "earliest" is 0.',
      params: [{ name: 'address', schema: EvmAddress() }, { name: 'block', schema: BlockParam({ default: 'latest' }), required: false }] as const,
      result: {
        name: 'nonce', schema: Quantity,
        description: 'nonce as of `block`; `pending` counts the mempool, `earliest` is `0x0`',
      },
      errors: STATE_ERRORS,
      handler: async ([address, tag]) => {
        const account = accountOfEvm(address);
        // Every account starts at nonce 0 in the genesis state: that past state is known.
        if (tag === 'earliest') return '0x0';
        if (tag === 'pending') return quantity(chain.pendingNonce(account));
        const height = await stateAt(chain, tag);
        return height === undefined ? quantity(chain.stateNonce(account)) : nonceAt(chain, height, account);
      },
    }),
    defineMethod({
      name: 'eth_getBlockByNumber',
      summary: 'A block in execution-apis form, with transaction hashes or (full = true) objects; null above the head.',
      params: [{ name: 'block', schema: BlockTag() }, { name: 'full', schema: Type.Boolean() }] as const,
      result: {
        name: 'block', schema: Type.Union([EthBlockObject, Type.Null()]),
        description: 'execution-apis block (hashes, or transaction objects when `full`), `null` above the head',
      },
      examples: [{ name: 'a block with transaction hashes', params: [{ name: 'block', value: '0x2a' }, { name: 'full', value: false }], result: { name: 'block', value: BLOCK_EXAMPLE } }],
      handler: async ([tag, full]) => {
        const height = heightOf(chain, tag);
        const block = height === undefined ? undefined : await chain.blockByHeight(height);
        return (block ? formatBlock(await blockView(chain, block), full) : null) as never;
      },
    }),
    defineMethod({
      name: 'eth_getBlockByHash',
      summary: 'A block by its 32-byte hash in execution-apis form; null when unknown.',
      params: [{ name: 'hash', schema: Hash32('block hash') }, { name: 'full', schema: Type.Boolean() }] as const,
      result: {
        name: 'block', schema: Type.Union([EthBlockObject, Type.Null()]),
        description: 'same, `null` when unknown',
      },
      examples: [{ name: 'a block with transaction hashes', params: [{ name: 'hash', value: BLOCK_EXAMPLE.hash }, { name: 'full', value: false }], result: { name: 'block', value: BLOCK_EXAMPLE } }],
      handler: async ([hash, full]) => {
        const block = await blockOfHash(chain, hash);
        return (block ? formatBlock(await blockView(chain, block), full) : null) as never;
      },
    }),
    defineMethod({
      name: 'eth_getTransactionByHash',
      summary: 'A transaction by its eth hash (keccak of the raw EVM tx) or, for native bundles, the 0x bundle hash; pending ones have null block fields; null when unknown. ' +
        'While the transaction lookup index trails the head after a catch-up sync, one it cannot find yet is -32000 "transaction indexing is in progress", as geth answers.',
      params: [{ name: 'hash', schema: Hash32('transaction hash') }] as const,
      result: {
        name: 'transaction', schema: Type.Union([EthTransactionObject, Type.Null()]),
        description: 'transaction (block fields `null` while pending) or `null`; EVM transactions by keccak hash, native bundles by `0x` bundle hash',
      },
      errors: [APP_ERRORS.SERVER_BUSY.code],
      examples: [{ name: 'an ERC-20 transfer', params: [{ name: 'hash', value: HASH_EXAMPLE }], result: { name: 'transaction', value: TRANSACTION_EXAMPLE } }],
      handler: async ([hash]) => {
        const found = await findTransaction(chain, hash);
        if (found) return formatTransaction(found.view, found.view.items[found.index]!) as never;
        const waiting = pending.get(hash.toLowerCase());
        if (waiting) return formatPendingTransaction(decodeBundle(waiting), hash.toLowerCase() as Hex, chain.gasPrice) as never;
        return null;
      },
    }),
    defineMethod({
      name: 'eth_getTransactionReceipt',
      summary: 'The receipt of a transaction in a block (status 0x1/0x0, gas, ERC-20 Transfer logs); null when unknown or still pending. ' +
        'While the transaction lookup index trails the head after a catch-up sync, one it cannot find yet is -32000 "transaction indexing is in progress".',
      params: [{ name: 'hash', schema: Hash32('transaction hash') }] as const,
      result: {
        name: 'receipt', schema: Type.Union([EthReceiptObject, Type.Null()]),
        description: 'receipt (`status` `0x1`/`0x0`, ERC-20 `Transfer` logs) or `null`',
      },
      errors: [APP_ERRORS.SERVER_BUSY.code],
      examples: [{ name: 'an ERC-20 transfer', params: [{ name: 'hash', value: HASH_EXAMPLE }], result: { name: 'receipt', value: RECEIPT_EXAMPLE } }],
      handler: async ([hash]) => {
        const found = await findTransaction(chain, hash);
        return (found ? formatReceipt(found.view, found.view.items[found.index]!) : null) as never;
      },
    }),
    defineMethod({
      name: 'eth_getLogs',
      summary: `ERC-20 Transfer, ERC-721 Transfer and ERC-1155 TransferSingle/TransferBatch logs, filtered by block range or hash, address and topics; at most ${MAX_LOG_BLOCKS} blocks and ${MAX_LOGS} logs.`,
      paramsNote: '— `filter` is `{fromBlock?, toBlock?, blockHash?, address?, topics?}`',
      params: GET_LOGS_PARAMS,
      result: {
        name: 'logs', schema: Type.Array(EthLogObject),
        description: 'ERC-20 `Transfer` logs of every STD-7 token movement: transfers, swaps, liquidity, pool and token creation (docs/eth.md "Logs");'
          + ' from > to and blockHash with a range are `-32602`; over 10,000 blocks or logs `-32015`',
      },
      errors: [APP_ERRORS.LIMIT_EXCEEDED.code],
      examples: [{ name: 'Transfer logs of a token', params: [{ name: 'filter', value: { fromBlock: '0x0', toBlock: 'latest', address: LOG_EXAMPLE.address } }], result: { name: 'logs', value: [LOG_EXAMPLE] } }],
      handler: async ([filter]) => (await getLogs(chain, filter, paramAt(GET_LOGS_PARAMS, 'filter'))) as never,
    }),
    defineMethod({
      name: 'eth_call',
      summary: 'Read calls: ERC-20 on token addresses (with transfer, approve and transferFrom simulated, docs/allowances.md), ERC-721 on NFT collections, ERC-1155 on multi-token collections (docs/eth.md "eth_call"); 0x for an address without either.',
      paramsNote: '— `transaction` is `{from?, to, data}`',
      params: CALL_PARAMS,
      result: {
        name: 'data', schema: Type.String({ pattern: '^0x([0-9a-f]{2})*$' }),
        description: 'ERC-20 `name`, `symbol`, `decimals`, `totalSupply`, `balanceOf`, `allowance(owner, spender)` ([allowances.md](allowances.md); the'
          + ' infinite allowance as 2^256−1), ERC-165 `supportsInterface` on token addresses; `transfer`, `approve` and `transferFrom` run'
          + ' through the core as the EVM transaction would for `from` (`true`, or code `3` "execution reverted: ERC20: transfer amount'
          + ' exceeds balance" / "ERC20: insufficient allowance" / "ERC20: transfer to the zero address"; eth.md "EVM semantics"); Multicall3'
          + ' at `0xcA11bde05977b3631167028862bE2a173976CA11` (`aggregate`, `aggregate3`, `aggregate3Value`, `tryAggregate`,'
          + ' `blockAndAggregate`, `tryBlockAndAggregate`, `getEthBalance`, `getBlockNumber`, `getCurrentBlockTimestamp`, `getChainId`,'
          + ' `getBasefee`, `getBlockHash`, `getLastBlockHash`, `getCurrentBlockCoinbase`, `getCurrentBlockGasLimit`,'
          + ' `getCurrentBlockDifficulty`; eth.md "Multicall3"); at a past `block` the reads and simulated writes run over the state as'
          + ' of it (collections and Multicall3 too, its block fields that block\'s; [eth.md](eth.md) "Block parameters"); `0x` for other'
          + ' addresses; a function the address does not have, or malformed arguments, revert (code `3`, data `0x`)',
      },
      errors: [...STATE_ERRORS, STANDARD_ERRORS.EXECUTION_REVERTED.code],
      handler: async ([call, tag]) => {
        const height = await stateAt(chain, tag);
        const to = call.to;
        const data = ((call.input ?? call.data ?? '0x').startsWith('0x') ? call.input ?? call.data ?? '0x' : `0x${call.input ?? call.data}`) as Hex;
        if (!to) throw RpcError.invalidParams('eth_call needs "to": this node executes no EVM code', paramAt(CALL_PARAMS, 'transaction'));
        return callAt(to, data, call.from, height);
      },
    }),
    defineMethod({
      name: 'eth_getCode',
      summary: 'A stub bytecode (0xfe + "ntv-std-token" or "ntv-collection") for token and collection addresses, 0x otherwise: no EVM code exists.',
      params: [{ name: 'address', schema: EvmAddress() }, { name: 'block', schema: BlockParam({ default: 'latest' }), required: false }] as const,
      result: {
        name: 'code', schema: Type.String({ pattern: '^0x([0-9a-f]{2})*$' }),
        description: 'a stub (`0xfe` + ASCII `ntv-std-token`, `ntv-collection` or `ntv-multicall3`) for token, collection and Multicall3 addresses'
          + ' (tokens and collections as they existed at `block`), `0x` otherwise',
      },
      errors: STATE_ERRORS,
      handler: async ([address, tag]) => {
        const height = await stateAt(chain, tag);
        if (address.toLowerCase() === MULTICALL3_ADDRESS) return MULTICALL3_CODE_STUB;
        const token = readers.evmTokens.lookup(address);
        if (token) return height === undefined || await tokenExistedAt(chain, height, token.mint) ? TOKEN_CODE_STUB : '0x';
        const collection = readers.evmTokens.collection(address);
        if (!collection) return '0x';
        return height === undefined || await collectionExistedAt(chain, height, collection.address) ? COLLECTION_CODE_STUB : '0x';
      },
    }),
    defineMethod({
      name: 'eth_estimateGas',
      summary: 'Gas of what the call maps to: 21000 (0x5208) for a native or ERC-20 transfer or approve, 26000 for transferFrom (docs/allowances.md), the core\'s charge for an ERC-721/1155 transfer (docs/collections.md "Gas"), never below the calldata\'s intrinsic gas; refuses what eth_sendRawTransaction would.',
      paramsNote: '— `transaction` is `{from?, to, value?, data?}`',
      params: [{ name: 'transaction', schema: CallObject }, { name: 'block', schema: BlockParam({ default: 'latest' }), required: false }] as const,
      result: {
        name: 'gas', schema: Quantity,
        description: 'the core\'s charge, never below the calldata\'s intrinsic gas (`0x5208` for a native transfer, ~21,600 for an ERC-20 transfer or'
          + ' approve, 26,000 for a transferFrom); with `from` the call runs through the core as execution would, so it refuses what'
          + ' `eth_sendRawTransaction` would, in the same geth form; at a past `block` over the state as of it ([eth.md](eth.md) "Block parameters")',
      },
      errors: [GETH_ERROR_CODE, STANDARD_ERRORS.EXECUTION_REVERTED.code, ...STATE_ERRORS],
      handler: async ([call, tag]) => estimateGasOf(chain, readers, simulator, call, tag),
    }),
    defineMethod({
      name: 'eth_gasPrice',
      summary: 'The node\'s gas price in wei per gas: --gas-price nanoNTV × 10^9.',
      params: [] as const,
      result: {
        name: 'gasPrice', schema: Quantity,
        description: '`--gas-price` × 10^9 wei',
      },
      handler: () => quantity(chain.gasPrice * WEI_PER_NANO),
    }),
    defineMethod({
      name: 'eth_maxPriorityFeePerGas',
      summary: 'Suggested tip: 0x0. One validator includes bundles by arrival and nonce, so a tip buys no earlier inclusion (it is charged if sent).',
      params: [] as const,
      result: {
        name: 'tip', schema: Quantity,
        description: '`0x0` (a tip buys no earlier inclusion on one validator)',
      },
      handler: () => '0x0',
    }),
    defineMethod({
      name: 'eth_feeHistory',
      summary: `Base fee per gas (wei), gas used ratio and tip percentiles of up to ${MAX_FEE_HISTORY} blocks ending at newestBlock (EIP-1559 fee history).`,
      params: [
        {
          name: 'blockCount',
          schema: parsed(Type.Union([HexQuantity(), Type.Integer({ minimum: 0 })]), (value, param, position) => {
            const count = Number(value);
            if (!Number.isSafeInteger(count) || count < 0) throw RpcError.invalidParam(param, position, 'a non-negative block count');
            return count;
          }),
        },
        { name: 'newestBlock', schema: BlockTag() },
        {
          name: 'rewardPercentiles',
          schema: parsed(Type.Array(Type.Number({ minimum: 0, maximum: 100 }), { maxItems: 100 }), (percentiles, param, position) => {
            if (percentiles.some((p, i) => i > 0 && p < percentiles[i - 1]!)) throw RpcError.invalidParam(param, position, 'percentiles in ascending order');
            return percentiles;
          }),
          required: false,
        },
      ] as const,
      result: {
        name: 'feeHistory', schema: EthFeeHistoryObject,
        description: '`{oldestBlock, baseFeePerGas, gasUsedRatio, reward?}`, at most 1,024 blocks',
      },
      handler: async ([count, tag, percentiles]) => feeHistory(chain, count, tag, percentiles),
    }),
    defineMethod({
      name: 'eth_sendRawTransaction',
      summary: 'Submits a signed legacy (EIP-155), EIP-2930 or EIP-1559 transaction: a native transfer, an ERC-20 transfer(to, amount), approve(spender, amount) or transferFrom(from, to, amount) on a token (docs/allowances.md), or an ERC-721/1155 transfer on a collection, executed as a native bundle. Answers the transaction hash once it waits in the mempool.',
      description: 'Refusals are -32000 with go-ethereum\'s message for the condition, so ethers and viem raise their typed errors: "nonce too low: …", '
        + '"already known", "replacement transaction underpriced: …", "insufficient funds for gas * price + value: …", "max fee per gas less than block base fee: …", '
        + '"transaction underpriced: …", "intrinsic gas too low: …", "nonce too high: …", "txpool is full: …", "invalid sender: …", "transaction type not supported: …", '
        + '"invalid chain id for signer: …"; data.status names the node\'s status (NONCE_TOO_LOW, UNSUPPORTED_CALL, VALUE_NOT_REPRESENTABLE, …). '
        + 'An ERC-20, ERC-721 or ERC-1155 transfer of more than the sender holds, or an ERC-20 transferFrom beyond the allowance or the owner\'s balance, is code 3 "execution reverted: …" as the contract would revert (docs/eth.md "Errors").',
      paramsNote: '— legacy (EIP-155), EIP-2930 or EIP-1559, at most 2,048 bytes',
      params: [{ name: 'transaction', schema: HexBytes({ maxBytes: MAX_RAW_TX_BYTES }) }] as const,
      result: {
        name: 'hash', schema: Type.String({ pattern: '^0x[0-9a-f]{64}$' }),
        description: 'the keccak transaction hash, once the bundle waits in the mempool; refusals `-32000` with geth\'s message (`already known` for a'
          + ' pending one, `nonce too low: address …, tx: n state: m` for a used nonce, also the same transaction once included; `replacement'
          + ' transaction underpriced` quoting wei: +10% on tip and fee cap, a legacy gas price counting as both, eth.md "Replacement";'
          + ' `insufficient funds for gas * price + value`, `max fee per gas less than block base fee`, …) and the node\'s `data.status`; a'
          + ' token amount above the balance, or a `transferFrom` beyond the allowance, is code `3` "execution reverted: …" (eth.md "Errors").'
          + ' ERC-20 `approve`/`transferFrom` on a token map to `Approve`/`TransferFrom` ([allowances.md](allowances.md))',
      },
      errors: [GETH_ERROR_CODE, STANDARD_ERRORS.EXECUTION_REVERTED.code],
      handler: async ([rawHex]) => {
        try {
          return await sendRaw(rawHex);
        } catch (error) {
          throw gethAdmissionError(error, chain.gasPrice);
        }
      },
    }),

    defineMethod({
      name: 'eth_accounts',
      summary: 'Accounts the node holds keys for: none (keys stay with the wallet).',
      params: [] as const,
      result: {
        name: 'accounts', schema: Type.Array(Type.String()),
        description: '`[]`: the node holds no wallet keys',
      },
      handler: () => [],
    }),
    defineMethod({
      name: 'eth_syncing',
      summary: 'false, or a sync status while the node catches up with the network.',
      params: [] as const,
      result: {
        name: 'syncing', schema: Type.Union([Type.Literal(false), Type.Record(Type.String(), Anything)]),
        description: '`false`, or `{startingBlock, currentBlock, highestBlock}` during initial sync',
      },
      handler: () => (chain.syncing ? syncStatus(chain.height, chain.syncProgress) : false),
    }),
  ]);
}

/** Adds the OpenRPC examples kept in eth-schemas.ts to the definitions that have none in place. */
function withExamples(definitions: MethodDefinition[]): MethodDefinition[] {
  return definitions.map((d) => (d.examples || !ETH_EXAMPLES[d.name] ? d : { ...d, examples: ETH_EXAMPLES[d.name] }));
}

/** Errors of a state read at a block: unknown block, or a past block whose state is not kept. */
export const STATE_ERRORS = [GETH_ERROR_CODE, APP_ERRORS.UNAVAILABLE_ON_NODE.code];

/** A block tag's height, or undefined for a number above the head. */
export function heightOf(chain: ChainApi, tag: string): number | undefined {
  if (tag === 'earliest') return 0;
  if (tag === 'latest' || tag === 'pending' || tag === 'safe' || tag === 'finalized') return chain.height;
  const n = Number(BigInt(tag));
  return n > chain.height ? undefined : n;
}

/**
 * The height a block param (tag, number or EIP-1898 object) names. Beyond the head or an unknown
 * hash is geth's "header not found" with geth's code -32000 (issue 42 item 8: viem words -32003 as
 * "Transaction creation failed"); data.reason HEADER_NOT_FOUND.
 */
export async function blockParamHeight(chain: ChainApi, param: BlockParamValue): Promise<number> {
  if (typeof param === 'object' && 'blockHash' in param) {
    const height = await chain.heightOfHash(unhex(param.blockHash));
    if (height === undefined) throw new RpcError(GETH_ERROR_CODE, `header for hash not found: ${param.blockHash}`, { blockHash: param.blockHash, reason: 'HEADER_NOT_FOUND' });
    return height;
  }
  const tag = typeof param === 'object' ? param.blockNumber : param;
  const height = heightOf(chain, tag);
  if (height === undefined) throw new RpcError(GETH_ERROR_CODE, `header not found: block ${tag} is above the head ${quantity(chain.height)}`, { block: tag, head: quantity(chain.height), reason: 'HEADER_NOT_FOUND' });
  return height;
}

/**
 * The past block a state read names, or undefined for the head (docs/eth.md "Block parameters"):
 * state is served at every block from `chain.oldestState` on (every block on an archive node, the
 * last 128 at least on a pruning one, docs/storage.md "State history"). A block above the head is
 * "header not found" (-32000); a block below the window is -32013 "missing trie node", as geth
 * answers for state it no longer holds, naming the oldest height served. Tags (latest, pending,
 * safe, finalized) all name the head.
 */
export async function stateAt(chain: ChainApi, param: BlockParamValue | undefined): Promise<number | undefined> {
  if (param === undefined) return undefined;
  const height = await blockParamHeight(chain, param);
  const head = chain.height;
  if (height >= head) return undefined;
  const oldest = chain.oldestState;
  if (height < oldest) {
    throw RpcError.app('UNAVAILABLE_ON_NODE', `missing trie node: the state at block ${quantity(height)} is not kept; this node serves state from block ${quantity(oldest)} to the head ${quantity(head)}`, {
      block: quantity(height), head: quantity(head), oldest_block: quantity(oldest), reason: 'HISTORICAL_STATE',
    });
  }
  return height;
}

export async function blockOfHash(chain: ChainApi, hash: string): Promise<Block | undefined> {
  const height = await chain.heightOfHash(unhex(hash));
  return height === undefined ? undefined : chain.blockByHeight(height);
}

/** The block and position of a transaction by eth hash or by native bundle hash. */
export async function findTransaction(chain: ChainApi, hash: string): Promise<{ view: BlockView; index: number } | undefined> {
  const bytes = unhex(hash);
  const bundleHash = (await chain.bundleHashOfEthHash(bytes)) ?? bytes;
  const receipt = await chain.receiptByHash(bundleHash);
  if (!receipt) return undefined;
  const block = await chain.blockByHeight(receipt.block_height);
  if (!block) return undefined;
  const view = await blockView(chain, block);
  const item = view.items[receipt.index];
  // A native bundle whose hash matched but that carries an EVM tx is known by its keccak hash only.
  if (!item || item.ethHash !== hash.toLowerCase()) return undefined;
  return { view, index: receipt.index };
}

export interface LogFilterValue {
  fromBlock?: string; toBlock?: string; address?: string | string[]; topics?: Array<string | null | Array<string | null>>; blockHash?: string;
}

/**
 * The param a -32602 about the filter names, at its position as the registry counts it (issue 44
 * item 4: no position numbered by hand): eth_getLogs' filter, or eth_getFilterLogs' filter id.
 */
export type ParamAt = { param: string; position: number };
export const paramAt = <const P extends readonly MethodParam[]>(params: P, name: P[number]['name']): ParamAt => ({ param: name, position: positionIn(params, name) });

export async function getLogs(chain: ChainApi, filter: LogFilterValue, at: ParamAt): Promise<EthLog[]> {
  let from: number;
  let to: number;
  if (filter.blockHash !== undefined) {
    if (filter.fromBlock !== undefined || filter.toBlock !== undefined) {
      throw RpcError.invalidParams('blockHash cannot be combined with fromBlock/toBlock', at);
    }
    const height = await chain.heightOfHash(unhex(filter.blockHash));
    if (height === undefined) throw RpcError.app('NOT_FOUND', `unknown block ${filter.blockHash}`, { blockHash: filter.blockHash });
    from = to = height;
  } else {
    // Tags resolve against the head; numbers are taken as given, so a range beyond the head is
    // checked for order first and then clipped (execution-apis: from > to is invalid params).
    const head = chain.height;
    const requested = (tag: string) => (/^0x/.test(tag) ? Number(BigInt(tag)) : tag === 'earliest' ? 0 : head);
    from = requested(filter.fromBlock ?? 'latest');
    to = requested(filter.toBlock ?? 'latest');
    if (from > to) {
      throw RpcError.invalidParams(`fromBlock ${quantity(from)} is after toBlock ${quantity(to)}`, at);
    }
    // The span limit applies to the range asked for, before clipping to the head.
    if (to - from + 1 > MAX_LOG_BLOCKS) {
      throw RpcError.app('LIMIT_EXCEEDED', `a log query spans at most ${MAX_LOG_BLOCKS} blocks; asked ${to - from + 1}`, { maxBlocks: MAX_LOG_BLOCKS });
    }
    to = Math.min(to, head);
    if (from > to) return [];
  }
  const matches = logMatcher(filter);
  const out: EthLog[] = [];
  for (let h = from; h <= to; h++) {
    const block = await chain.blockByHeight(h);
    if (!block || block.bundles.length === 0) continue;
    const view = await blockView(chain, block);
    for (const item of view.items) {
      for (const log of item.logs) {
        if (!matches(log)) continue;
        out.push(log);
        if (out.length > MAX_LOGS) {
          throw RpcError.app('LIMIT_EXCEEDED', `more than ${MAX_LOGS} logs match; narrow the block range`, { maxLogs: MAX_LOGS });
        }
      }
    }
  }
  return out;
}

/** eth_feeHistory's answer; blockCount and rewardPercentiles are checked by their params' parsers. */
async function feeHistory(chain: ChainApi, count: number, tag: string, percentiles: number[] | undefined): Promise<Static<typeof EthFeeHistoryObject>> {
  const newest = heightOf(chain, tag);
  if (newest === undefined) throw new RpcError(GETH_ERROR_CODE, `header not found: block ${tag} is above the head ${quantity(chain.height)}`, { block: tag, head: quantity(chain.height), reason: 'HEADER_NOT_FOUND' });
  const n = Math.min(count, MAX_FEE_HISTORY, newest + 1);
  const oldest = newest - n + 1;
  const baseFeePerGas: string[] = [];
  const gasUsedRatio: number[] = [];
  const reward: string[][] = [];
  for (let h = oldest; h <= newest; h++) {
    const block = await chain.blockByHeight(h);
    if (!block) throw new ChainError('NOT_FOUND', `block ${h} is missing from storage`);
    const base = BigInt(block.header.baseFee) * WEI_PER_NANO;
    baseFeePerGas.push(quantity(base));
    gasUsedRatio.push(block.header.gasLimit > 0 ? block.header.gasUsed / block.header.gasLimit : 0);
    if (percentiles) {
      // Tips weighted by gas used, as execution-apis define the percentiles.
      const view = await blockView(chain, block);
      const tips = view.items
        .filter((i) => i.receipt && i.receipt.gas_used > 0)
        .map((i) => ({ tip: i.bundle.maxPriorityFee * WEI_PER_NANO, gas: i.receipt!.gas_used }))
        .sort((a, b) => (a.tip < b.tip ? -1 : a.tip > b.tip ? 1 : 0));
      const total = tips.reduce((s, t) => s + t.gas, 0);
      reward.push(percentiles.map((p) => {
        if (total === 0) return '0x0';
        const threshold = (p / 100) * total;
        let sum = 0;
        for (const t of tips) {
          sum += t.gas;
          if (sum >= threshold) return quantity(t.tip);
        }
        return quantity(tips.at(-1)!.tip);
      }));
    }
  }
  // The next block's base fee: the node's price does not move with demand.
  baseFeePerGas.push(quantity(chain.gasPrice * WEI_PER_NANO));
  return { oldestBlock: quantity(Math.max(oldest, 0)), baseFeePerGas: n === 0 ? [] : baseFeePerGas, gasUsedRatio, ...(percentiles ? { reward } : {}) };
}

/** geth's "insufficient funds" (core/txpool ErrInsufficientFunds) for amounts in nanoNTV: the EVM sender and wei, as wallets read it. */
function insufficientFunds(fromEvm: string, haveNano: bigint, wantNano: bigint): RpcError {
  return RpcError.app('INSUFFICIENT_BALANCE', `insufficient funds for gas * price + value: address ${fromEvm} have ${haveNano * WEI_PER_NANO} want ${wantNano * WEI_PER_NANO}`,
    { from: fromEvm, status: 'INSUFFICIENT_FUNDS' });
}

/**
 * Refuses what `from` cannot do: too little NTV for the fee (and a native value) is geth's
 * "insufficient funds for gas * price + value", the txpool's rule; the rest is execution's: the
 * action runs through the core as the EVM transaction's bundle (src/eth/simulate.ts), and a
 * failure is what the contract would revert with (code 3), as on Ethereum (docs/eth.md "Errors").
 */
async function checkFunds(chain: ChainApi, simulator: EvmSimulator, from: Uint8Array, fromEvm: string, action: EvmAction, fee: bigint, height?: number): Promise<void> {
  const ntv = height === undefined ? chain.balance(from, new Uint8Array(32)) : await chain.balanceAt(from, new Uint8Array(32), height);
  const want = action.kind === 'native' ? action.amountNano + fee : fee;
  if (ntv < want) throw insufficientFunds(fromEvm, ntv, want);
  if (height === undefined) await simulator.check(from, action);
  else await simulator.checkAt(height, from, action);
}

/**
 * Intrinsic gas of a transaction's calldata (Yellow Paper G_transaction + G_txdatazero/nonzero):
 * 21,000 + 4 per zero byte + 16 per non-zero byte. wallets (web3.js) refuse to sign a gas limit
 * below it, so eth_estimateGas never answers less, although the core charges actionGas.
 */
export function intrinsicGas(data: string): bigint {
  let gas = 21_000n;
  for (let i = 2; i + 1 < data.length; i += 2) gas += data.slice(i, i + 2) === '00' ? 4n : 16n;
  return gas;
}

/** eth_estimateGas as answered: refusals in geth's form (src/eth/errors.ts). */
export async function estimateGasOf(chain: ChainApi, readers: DomainReaders, simulator: EvmSimulator, call: Static<typeof CallObject>, tag: BlockParamValue | undefined): Promise<string> {
  const height = await stateAt(chain, tag);
  try {
    return quantity(await estimateGas(chain, readers, simulator, call, height));
  } catch (error) {
    throw gethAdmissionError(error, chain.gasPrice);
  }
}

/**
 * eth_estimateGas: the core's charge for what the call maps to, at least the calldata's intrinsic
 * gas. With `from`, the call runs through the core as execution would (checkFunds), so an estimate
 * succeeds exactly when the transaction would; without it only the mapping is checked (geth would
 * run it from the zero address, which holds nothing). At a past block (`height`) the funds and the
 * call are judged over the state as of it, as geth estimates at a block; a token or collection
 * created after it had no code then, so the call is one to an address without code: its intrinsic
 * gas, as eth_call answers `0x` there (docs/eth.md "Block parameters").
 */
async function estimateGas(chain: ChainApi, readers: DomainReaders, simulator: EvmSimulator, call: { to?: string | null; from?: string; input?: string; data?: string; value?: string }, height?: number): Promise<bigint> {
  if (!call.to) throw evmRefusal('UNSUPPORTED_CALL', 'contract creation is not supported: this node executes no EVM code');
  const raw = (call.input ?? call.data ?? '0x') as string;
  const data = (raw.startsWith('0x') ? raw : `0x${raw}`).toLowerCase() as Hex;
  const action = actionOf({ to: call.to as Hex, data, value: BigInt(call.value ?? '0x0'), ...(call.from ? { from: call.from as Hex } : {}) }, readers.evmTokens);
  if (height !== undefined && !(await targetExistedAt(chain, height, action))) {
    const gas = intrinsicGas(data);
    if (call.from) {
      const ntv = await chain.balanceAt(accountOfEvm(call.from), new Uint8Array(32), height);
      if (ntv < gas * chain.gasPrice) throw insufficientFunds(call.from, ntv, gas * chain.gasPrice);
    }
    return gas;
  }
  const charged = actionGas(action);
  const gas = charged > intrinsicGas(data) ? charged : intrinsicGas(data);
  if (call.from) await checkFunds(chain, simulator, accountOfEvm(call.from), call.from, action, charged * chain.gasPrice, height);
  return gas;
}

/** Whether the token or collection an action calls existed at a past block (a native transfer's target always does). */
function targetExistedAt(chain: ChainApi, height: number, action: EvmAction): Promise<boolean> {
  if (action.kind === 'native') return Promise.resolve(true);
  if (action.kind === 'nft' || action.kind === 'multi') return collectionExistedAt(chain, height, action.collection);
  return tokenExistedAt(chain, height, action.mint);
}
