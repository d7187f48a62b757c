import { Type } from '@sinclair/typebox';
import { keccak256, type Hex } from 'viem';
import type { Block } from '../../chain/block.js';
import type { ChainApi } from '../../chain/interface.js';
import { blockView, formatReceipt, formatTransaction } from '../../eth/format.js';
import { evmOf, quantity } from '../../chain/evm/units.js';
import { APP_ERRORS } from '../errors.js';
import { defineMethod, type MethodDefinition } from '../registry.js';
import { HexBytes } from '../schemas.js';
import type { MethodDependencies } from './context.js';
import type { EvmSimulator } from '../../eth/simulate.js';
import { BlockParam, blockOfHash, CallObject, estimateGasOf, EvmAddress, Hash32, heightOf, Quantity, STATE_ERRORS, stateAt, type BlockParamValue } from './eth.js';
import { BLOCK_EXAMPLE, EthReceiptObject, EthTransactionObject, RECEIPT_EXAMPLE, TRANSACTION_EXAMPLE } from './eth-schemas.js';

/** The wire-protocol version eth_protocolVersion reports: eth/68, the JSON-RPC conventions followed (docs/eth.md). */
const PROTOCOL_VERSION = '0x44';
const ZERO_WORD = `0x${'00'.repeat(32)}`;
const Index = Type.String({ pattern: '^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$', description: 'a position in the block as a hex quantity' });
const BlockNumberOrTag = BlockParam();

async function blockOf(chain: ChainApi, param: BlockParamValue): Promise<Block | undefined> {
  if (typeof param === 'object' && 'blockHash' in param) return blockOfHash(chain, param.blockHash);
  const height = heightOf(chain, typeof param === 'object' ? param.blockNumber : param);
  return height === undefined ? undefined : chain.blockByHeight(height);
}

/**
 * The rest of what common EVM tools call (docs/eth.md "More reads"; issue 26 item 2): block
 * receipts, counts and transactions by position, storage, access lists, and the net_/web3_ basics.
 */
export function ethReadMethods({ chain, readers, validator, p2p, simulator }: MethodDependencies & { simulator: EvmSimulator }): MethodDefinition[] {
  const position = async (block: Block | undefined, index: string) => {
    if (!block) return null;
    const view = await blockView(chain, block);
    const item = view.items[Number(BigInt(index))];
    return item ? formatTransaction(view, item) : null;
  };
  return [
    defineMethod({
      name: 'eth_getBlockReceipts',
      summary: 'The receipts of every transaction of a block, in block order; null for an unknown block.',
      description: 'The block by tag, hex number, or EIP-1898 {blockNumber} / {blockHash}. Receipts as eth_getTransactionReceipt returns them.',
      paramsNote: '(tag, number or EIP-1898 object)',
      params: [{ name: 'block', schema: BlockNumberOrTag }] as const,
      result: {
        name: 'receipts', schema: Type.Union([Type.Array(EthReceiptObject), Type.Null()]),
        description: 'the block\'s receipts in order, `null` for an unknown block',
      },
      examples: [{ name: 'a block with one ERC-20 transfer', params: [{ name: 'block', value: '0x2a' }], result: { name: 'receipts', value: [RECEIPT_EXAMPLE] } }],
      handler: async ([param]) => {
        const block = await blockOf(chain, param);
        if (!block) return null;
        const view = await blockView(chain, block);
        return view.items.map((item) => formatReceipt(view, item)).filter((r) => r !== null) as never;
      },
    }),
    defineMethod({
      name: 'eth_getBlockTransactionCountByNumber',
      summary: 'The number of transactions (bundles) in a block by tag or number; null above the head.',
      params: [{ name: 'block', schema: BlockNumberOrTag }] as const,
      result: {
        name: 'count', schema: Type.Union([Quantity, Type.Null()]),
        description: 'bundles in the block, `null` above the head',
      },
      examples: [{ name: 'a block with one transaction', params: [{ name: 'block', value: '0x2a' }], result: { name: 'count', value: '0x1' } }],
      handler: async ([param]) => {
        const block = await blockOf(chain, param);
        return block ? quantity(block.bundles.length) : null;
      },
    }),
    defineMethod({
      name: 'eth_getBlockTransactionCountByHash',
      summary: 'The number of transactions (bundles) in a block by hash; null when unknown.',
      params: [{ name: 'hash', schema: Hash32('block hash') }] as const,
      result: {
        name: 'count', schema: Type.Union([Quantity, Type.Null()]),
        description: 'same, `null` when unknown',
      },
      examples: [{ name: 'a block with one transaction', params: [{ name: 'hash', value: BLOCK_EXAMPLE.hash }], result: { name: 'count', value: '0x1' } }],
      handler: async ([hash]) => {
        const block = await blockOfHash(chain, hash);
        return block ? quantity(block.bundles.length) : null;
      },
    }),
    defineMethod({
      name: 'eth_getTransactionByBlockNumberAndIndex',
      summary: 'The transaction at a position of a block by tag or number; null when the block or position does not exist.',
      params: [{ name: 'block', schema: BlockNumberOrTag }, { name: 'index', schema: Index }] as const,
      result: {
        name: 'transaction', schema: Type.Union([EthTransactionObject, Type.Null()]),
        description: 'the transaction at that position or `null`',
      },
      examples: [{ name: 'the first transaction', params: [{ name: 'block', value: '0x2a' }, { name: 'index', value: '0x0' }], result: { name: 'transaction', value: TRANSACTION_EXAMPLE } }],
      handler: async ([param, index]) => (await position(await blockOf(chain, param), index)) as never,
    }),
    defineMethod({
      name: 'eth_getTransactionByBlockHashAndIndex',
      summary: 'The transaction at a position of a block by hash; null when the block or position does not exist.',
      params: [{ name: 'hash', schema: Hash32('block hash') }, { name: 'index', schema: Index }] as const,
      result: {
        name: 'transaction', schema: Type.Union([EthTransactionObject, Type.Null()]),
        description: 'same',
      },
      examples: [{ name: 'the first transaction', params: [{ name: 'hash', value: BLOCK_EXAMPLE.hash }, { name: 'index', value: '0x0' }], result: { name: 'transaction', value: TRANSACTION_EXAMPLE } }],
      handler: async ([hash, index]) => (await position(await blockOfHash(chain, hash), index)) as never,
    }),
    defineMethod({
      name: 'eth_getStorageAt',
      summary: 'Always the zero word: no EVM storage exists (token and collection state is native, read it with eth_call). A past block is -32013 as for every state read.',
      description: 'Decision (docs/eth.md "eth_getStorageAt"): no slot layout is mapped, since native records are not Solidity storage; zero is what an EVM node answers for an unset slot.',
      params: [
        { name: 'address', schema: EvmAddress() },
        { name: 'slot', schema: Type.String({ pattern: '^0x[0-9a-fA-F]{1,64}$', description: 'storage slot, up to 32 bytes hex' }) },
        { name: 'block', schema: BlockParam({ default: 'latest' }), required: false },
      ] as const,
      result: {
        name: 'value', schema: Type.String({ pattern: '^0x[0-9a-f]{64}$' }),
        description: 'always the zero word: no EVM storage exists (eth.md "More reads")',
      },
      errors: STATE_ERRORS,
      examples: [{ name: 'slot 0 of a token', params: [{ name: 'address', value: TRANSACTION_EXAMPLE.to }, { name: 'slot', value: '0x0' }, { name: 'block', value: 'latest' }], result: { name: 'value', value: ZERO_WORD } }],
      handler: async ([, , tag]) => {
        await stateAt(chain, tag);
        return ZERO_WORD;
      },
    }),
    defineMethod({
      name: 'eth_createAccessList',
      summary: 'An empty access list and the gas eth_estimateGas answers: no EVM storage is touched, so no list lowers the cost.',
      paramsNote: '— `transaction` is `{from?, to, value?, data?}`',
      params: [{ name: 'transaction', schema: CallObject }, { name: 'block', schema: BlockParam({ default: 'latest' }), required: false }] as const,
      result: {
        description: '`{accessList: [], gasUsed}` with `eth_estimateGas`\'s figure',
        name: 'accessList',
        schema: Type.Object({ accessList: Type.Array(Type.Object({ address: Type.String(), storageKeys: Type.Array(Type.String()) })), gasUsed: Quantity }),
      },
      errors: [APP_ERRORS.SERVER_BUSY.code, 3, ...STATE_ERRORS],
      examples: [{
        name: 'an ERC-20 transfer', params: [{ name: 'transaction', value: { from: TRANSACTION_EXAMPLE.from, to: TRANSACTION_EXAMPLE.to, data: TRANSACTION_EXAMPLE.input } }],
        result: { name: 'accessList', value: { accessList: [], gasUsed: '0x5460' } },
      }],
      handler: async ([call, tag]) => ({ accessList: [], gasUsed: await estimateGasOf(chain, readers, simulator, call, tag) }),
    }),
    defineMethod({
      name: 'eth_getUncleCountByBlockNumber',
      summary: 'Always 0x0 for an existing block (no uncles: one validator, no proof of work); null above the head.',
      params: [{ name: 'block', schema: BlockNumberOrTag }] as const,
      result: {
        name: 'count', schema: Type.Union([Type.Literal('0x0'), Type.Null()]),
        description: '`0x0`, `null` for an unknown block',
      },
      examples: [{ name: 'any block', params: [{ name: 'block', value: 'latest' }], result: { name: 'count', value: '0x0' } }],
      handler: async ([param]) => ((await blockOf(chain, param)) ? '0x0' : null),
    }),
    defineMethod({
      name: 'eth_getUncleCountByBlockHash',
      summary: 'Always 0x0 for a known block (no uncles); null when unknown.',
      params: [{ name: 'hash', schema: Hash32('block hash') }] as const,
      result: {
        name: 'count', schema: Type.Union([Type.Literal('0x0'), Type.Null()]),
        description: '`0x0`, `null` for an unknown block',
      },
      examples: [{ name: 'any block', params: [{ name: 'hash', value: BLOCK_EXAMPLE.hash }], result: { name: 'count', value: '0x0' } }],
      handler: async ([hash]) => ((await blockOfHash(chain, hash)) ? '0x0' : null),
    }),
    defineMethod({
      name: 'eth_protocolVersion',
      summary: `${PROTOCOL_VERSION} (eth/68): the Ethereum protocol version whose JSON-RPC conventions this adapter follows; the node speaks no devp2p.`,
      params: [] as const,
      result: {
        name: 'version', schema: Quantity,
        description: '`0x44` (eth/68, the conventions followed; no devp2p)',
      },
      examples: [{ name: 'version', params: [], result: { name: 'version', value: PROTOCOL_VERSION } }],
      handler: () => PROTOCOL_VERSION,
    }),
    defineMethod({
      name: 'eth_coinbase',
      summary: 'The EVM form (last 20 bytes) of this node\'s validator account, the address blocks it proposes show as miner.',
      params: [] as const,
      result: {
        name: 'address', schema: Type.String({ pattern: '^0x[0-9a-f]{40}$' }),
        description: 'EVM form of this node\'s validator account (blocks\' `miner`)',
      },
      examples: [{ name: 'coinbase', params: [], result: { name: 'address', value: BLOCK_EXAMPLE.miner } }],
      handler: () => evmOf(validator.address),
    }),
    defineMethod({
      name: 'eth_mining',
      summary: 'false: blocks are proposed by validators in turn (spec §1.8), not mined.',
      params: [] as const,
      result: {
        name: 'mining', schema: Type.Literal(false),
        description: '`false`: blocks are proposed, not mined',
      },
      examples: [{ name: 'mining', params: [], result: { name: 'mining', value: false } }],
      handler: () => false as const,
    }),
    defineMethod({
      name: 'net_listening',
      summary: 'true: the node answers this call, so it is listening for clients.',
      params: [] as const,
      result: {
        name: 'listening', schema: Type.Boolean(),
        description: '`true`',
      },
      examples: [{ name: 'listening', params: [], result: { name: 'listening', value: true } }],
      handler: () => true,
    }),
    defineMethod({
      name: 'net_peerCount',
      summary: 'Connected p2p peers as a hex quantity (0x0 without p2p).',
      params: [] as const,
      result: {
        name: 'count', schema: Quantity,
        description: 'connected p2p peers, hex',
      },
      examples: [{ name: 'two peers', params: [], result: { name: 'count', value: '0x2' } }],
      handler: () => quantity(p2p?.connectedPeers().length ?? 0),
    }),
    defineMethod({
      name: 'web3_sha3',
      summary: 'keccak256 of the given bytes (not SHA3-256), as Ethereum nodes answer.',
      params: [{ name: 'data', schema: HexBytes() }] as const,
      result: {
        name: 'hash', schema: Type.String({ pattern: '^0x[0-9a-f]{64}$' }),
        description: 'keccak256 of the bytes',
      },
      examples: [{ name: 'keccak256 of 0x68656c6c6f20776f726c64', params: [{ name: 'data', value: '0x68656c6c6f20776f726c64' }], result: { name: 'hash', value: '0x47173285a8d7341e5e972fc677286384f802f8ef42a5ec5f03bbfa254cb01fad' } }],
      handler: ([data]) => keccak256((data.startsWith('0x') ? data : `0x${data}`) as Hex),
    }),
  ];
}

