/**
 * Typed result schemas of the eth_* methods, after the Ethereum execution-apis (src/schemas:
 * block.yaml, transaction.yaml, receipt.yaml; docs/eth.md "Shapes"), so rpc.discover describes
 * every field a client generator needs. Patterns follow execution-apis' base types (uint, bytes32,
 * address, …) with the lower-case hex this node writes. test/e2e/eth-tools.test.ts checks live
 * answers against these and against an independent transcription of execution-apis.
 */
import { Type, type TSchema } from '@sinclair/typebox';

const uint = (description: string) => Type.String({ pattern: '^0x(0|[1-9a-f][0-9a-f]*)$', description });
const bytes32 = (description: string) => Type.String({ pattern: '^0x[0-9a-f]{64}$', description });
const address = (description: string) => Type.String({ pattern: '^0x[0-9a-f]{40}$', description });
const bytes = (description: string) => Type.String({ pattern: '^0x([0-9a-f]{2})*$', description });
const bloom = Type.String({ pattern: '^0x[0-9a-f]{512}$', description: 'Ethereum logs bloom (2048 bits) over the logs\' addresses and topics' });
const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const EthLogObject = Type.Object({
  address: address('the token\'s or collection\'s EVM address'),
  topics: Type.Array(bytes32('a topic: event signature hash, then the indexed arguments (32-byte accounts)'), { maxItems: 4 }),
  data: bytes('the non-indexed arguments, ABI-encoded'),
  blockNumber: uint('block height'),
  blockHash: bytes32('block hash'),
  transactionHash: bytes32('the transaction\'s eth hash'),
  transactionIndex: uint('position of the transaction in its block'),
  logIndex: uint('position of the log in its block'),
  removed: Type.Literal(false, { description: 'always false: blocks are final (one validator, no reorganisations)' }),
}, { title: 'Log', description: 'An ERC-20 Transfer, ERC-721 Transfer or ERC-1155 TransferSingle/TransferBatch log (docs/eth.md "Logs").' });

const accessList = Type.Array(Type.Object({ address: Type.String(), storageKeys: Type.Array(Type.String()) }), { description: 'EIP-2930 access list as signed' });

export const EthTransactionObject = Type.Object({
  type: Type.Union([Type.Literal('0x0'), Type.Literal('0x1'), Type.Literal('0x2')], { description: 'legacy 0x0 (also every native bundle), EIP-2930 0x1, EIP-1559 0x2' }),
  hash: bytes32('keccak256 of the raw EVM transaction, or the native bundle hash'),
  from: address('the sender (EVM form: last 20 bytes of a native account)'),
  to: nullable(address('the recipient, token or collection; null for bundles that are not one transfer')),
  nonce: uint('the account nonce'),
  gas: uint('gas limit'),
  gasPrice: uint('wei per gas: the legacy price, or for EIP-1559 the effective price paid'),
  maxFeePerGas: Type.Optional(uint('EIP-1559 fee cap, wei per gas')),
  maxPriorityFeePerGas: Type.Optional(uint('EIP-1559 tip cap, wei per gas')),
  value: uint('wei sent'),
  input: bytes('calldata'),
  chainId: Type.Optional(uint('EIP-155 chain ID')),
  accessList: Type.Optional(accessList),
  v: uint('signature v (0x0 for native bundles: not ECDSA)'),
  yParity: Type.Optional(uint('signature y parity (typed transactions)')),
  r: uint('signature r (0x0 for native bundles)'),
  s: uint('signature s (0x0 for native bundles)'),
  blockHash: nullable(bytes32('block hash; null while pending')),
  blockNumber: nullable(uint('block height; null while pending')),
  transactionIndex: nullable(uint('position in the block; null while pending')),
}, { title: 'Transaction', description: 'A transaction in execution-apis form (docs/eth.md "Shapes"): an EVM transaction as signed, a native bundle as a legacy-shaped one.' });

export const EthReceiptObject = Type.Object({
  transactionHash: bytes32('the transaction\'s eth hash'),
  transactionIndex: uint('position in the block'),
  blockHash: bytes32('block hash'),
  blockNumber: uint('block height'),
  from: address('the sender'),
  to: nullable(address('the recipient, token or collection')),
  cumulativeGasUsed: uint('gas used in the block up to and including this transaction'),
  gasUsed: uint('gas charged'),
  effectiveGasPrice: uint('wei per gas paid'),
  contractAddress: Type.Null({ description: 'always null: no contracts are created' }),
  logs: Type.Array(EthLogObject),
  logsBloom: bloom,
  status: Type.Union([Type.Literal('0x1'), Type.Literal('0x0')], { description: '0x1 success, 0x0 failed (reverted, gas charged)' }),
  type: Type.Union([Type.Literal('0x0'), Type.Literal('0x1'), Type.Literal('0x2')]),
}, { title: 'Receipt' });

const headerFields = {
  number: uint('block height'),
  hash: bytes32('the native Blake3 header hash'),
  parentHash: bytes32('parent block hash'),
  nonce: Type.String({ pattern: '^0x[0-9a-f]{16}$', description: 'always 0x0000000000000000 (no proof of work)' }),
  sha3Uncles: bytes32('keccak256 of an empty uncle list'),
  logsBloom: bloom,
  transactionsRoot: bytes32('the native transactions root'),
  stateRoot: bytes32('the native state root'),
  receiptsRoot: bytes32('empty-trie root for an empty block, else keccak256 over the transaction hashes in order (docs/eth.md "Shapes")'),
  miner: address('EVM form of the proposer'),
  difficulty: uint('always 0x0'),
  extraData: bytes('always 0x'),
  gasLimit: uint('block gas limit'),
  gasUsed: uint('gas used by the block'),
  timestamp: uint('unix seconds'),
  baseFeePerGas: uint('the node\'s gas price in wei per gas'),
  mixHash: bytes32('always zero'),
};

export const EthBlockHeader = Type.Object(headerFields, { title: 'BlockHeader', description: 'A block header as eth_subscribe("newHeads") sends it.' });

export const EthBlockObject = Type.Object({
  ...headerFields,
  totalDifficulty: uint('always 0x0'),
  size: uint('bytes of header, signature and bundles'),
  transactions: Type.Union([Type.Array(bytes32('transaction hash')), Type.Array(EthTransactionObject)], { description: 'hashes, or objects when full = true' }),
  uncles: Type.Array(bytes32('uncle hash'), { maxItems: 0, description: 'always empty' }),
}, { title: 'Block' });

/** eth_feeHistory's answer (EIP-1559 fee history; execution-apis feeHistoryResults). */
export const EthFeeHistoryObject = Type.Object({
  oldestBlock: uint('height of the oldest block of the range'),
  baseFeePerGas: Type.Array(uint('base fee per gas, wei'), { description: 'one per block, plus the next block\'s; empty for a zero blockCount' }),
  gasUsedRatio: Type.Array(Type.Number({ minimum: 0, maximum: 1 }), { description: 'gas used / gas limit of each block' }),
  reward: Type.Optional(Type.Array(Type.Array(uint('tip at a percentile, wei')), { description: 'per block, the tips at the requested percentiles; present when rewardPercentiles is given' })),
}, { title: 'FeeHistory' });

// ------------------------------------------------------------------ examples (OpenRPC)

export const HASH_EXAMPLE = '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060';
const BLOCK_HASH_EXAMPLE = '0x8a2b6f10b3c14a5f8d51b0e0a55f3c9d0c1e2f3a4b5c6d7e8f90a1b2c3d4e5f6';
const EMPTY_BLOOM = `0x${'00'.repeat(256)}`;

export const LOG_EXAMPLE = {
  address: '0x7d2a3b0a1f8c9e4d5b6a7c8d9e0f1a2b3c4d5e6f',
  topics: [
    '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
    '0x000000000000000000000000a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7',
    '0x000000000000000000000000b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7',
  ],
  data: '0x000000000000000000000000000000000000000000000000000000000013d620',
  blockNumber: '0x2a',
  blockHash: BLOCK_HASH_EXAMPLE,
  transactionHash: HASH_EXAMPLE,
  transactionIndex: '0x0',
  logIndex: '0x0',
  removed: false,
} as const;

export const TRANSACTION_EXAMPLE = {
  type: '0x2', hash: HASH_EXAMPLE, from: '0xa7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7', to: LOG_EXAMPLE.address, nonce: '0x0', gas: '0x5460',
  gasPrice: '0x2540be400', maxFeePerGas: '0x4a817c800', maxPriorityFeePerGas: '0x0', value: '0x0',
  input: '0xa9059cbb000000000000000000000000b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7000000000000000000000000000000000000000000000000000000000013d620',
  chainId: '0x18b070', accessList: [], v: '0x1', yParity: '0x1',
  r: '0x3c8a7d1f0e2b4c6d8e0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f', s: '0x1f2e3d4c5b6a79887766554433221100ffeeddccbbaa99887766554433221100',
  blockHash: BLOCK_HASH_EXAMPLE, blockNumber: '0x2a', transactionIndex: '0x0',
} as const;

export const RECEIPT_EXAMPLE = {
  transactionHash: HASH_EXAMPLE, transactionIndex: '0x0', blockHash: BLOCK_HASH_EXAMPLE, blockNumber: '0x2a',
  from: TRANSACTION_EXAMPLE.from, to: LOG_EXAMPLE.address, cumulativeGasUsed: '0x5208', gasUsed: '0x5208', effectiveGasPrice: '0x2540be400',
  contractAddress: null, logs: [LOG_EXAMPLE], logsBloom: EMPTY_BLOOM, status: '0x1', type: '0x2',
} as const;

export const BLOCK_EXAMPLE = {
  number: '0x2a', hash: BLOCK_HASH_EXAMPLE, parentHash: `0x${'11'.repeat(32)}`, nonce: '0x0000000000000000',
  sha3Uncles: '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347', logsBloom: EMPTY_BLOOM,
  transactionsRoot: `0x${'22'.repeat(32)}`, stateRoot: `0x${'33'.repeat(32)}`, receiptsRoot: `0x${'44'.repeat(32)}`,
  miner: '0x9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c', difficulty: '0x0', totalDifficulty: '0x0', extraData: '0x', size: '0x1b4',
  gasLimit: '0x3b9aca00', gasUsed: '0x5208', timestamp: '0x6a3f1c00', baseFeePerGas: '0x2540be400', mixHash: `0x${'00'.repeat(32)}`,
  transactions: [HASH_EXAMPLE], uncles: [],
} as const;

type Example = { name: string; params: Array<{ name: string; value: unknown }>; result: { name: string; value: unknown } };
const ex = (name: string, params: Array<[string, unknown]>, result: [string, unknown]): Example[] =>
  [{ name, params: params.map(([n, value]) => ({ name: n, value })), result: { name: result[0], value: result[1] } }];
const HOLDER = TRANSACTION_EXAMPLE.from;
const TOKEN = LOG_EXAMPLE.address;
/** A real signature (key 0x11…11, chain 1618032) of the transfer in TRANSACTION_EXAMPLE's input. */
const SIGNED = '0x02f8af8318b07080808504a817c800825460947d2a3b0a1f8c9e4d5b6a7c8d9e0f1a2b3c4d5e6f80b844a9059cbb000000000000000000000000b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7000000000000000000000000000000000000000000000000000000000013d620c001a005b8aedf9b7aab8458924027094269c27db78cc5d9216d1051c0484da0a1c2b0a0245e1b530765abe56c397c906c66a79bcd197826edaa59c102891d7bfbb193f2';
const SIGNED_HASH = '0xdb7459ee5dab49042f6d1ce2cb485edaf5d829c31871805e3cbf8daaf1b7cb06';

/** OpenRPC examples of the eth.ts methods, by name (the other eth files keep theirs in place). */
export const ETH_EXAMPLES: Record<string, Example[]> = {
  eth_chainId: ex('testnet', [], ['chainId', '0x18b070']),
  net_version: ex('testnet', [], ['version', '1618032']),
  eth_blockNumber: ex('height 42', [], ['blockNumber', '0x2a']),
  eth_getBalance: ex('1 NTV in wei', [['address', HOLDER], ['block', 'latest']], ['balance', '0xde0b6b3a7640000']),
  eth_getTransactionCount: ex('the next nonce to sign', [['address', HOLDER], ['block', 'pending']], ['nonce', '0x1']),
  eth_call: ex('ERC-20 balanceOf', [['transaction', { to: TOKEN, data: `0x70a08231000000000000000000000000${HOLDER.slice(2)}` }], ['block', 'latest']],
    ['data', '0x00000000000000000000000000000000000000000000000000000000002625a0']),
  eth_getCode: ex('a token address', [['address', TOKEN], ['block', 'latest']], ['code', '0xfe6e74762d7374642d746f6b656e']),
  eth_estimateGas: ex('an ERC-20 transfer (intrinsic gas of its calldata)', [['transaction', { from: HOLDER, to: TOKEN, data: TRANSACTION_EXAMPLE.input }]], ['gas', '0x5460']),
  eth_gasPrice: ex('10 nanoNTV per gas', [], ['gasPrice', '0x2540be400']),
  eth_maxPriorityFeePerGas: ex('no tip', [], ['tip', '0x0']),
  eth_feeHistory: ex('two blocks', [['blockCount', '0x2'], ['newestBlock', 'latest'], ['rewardPercentiles', [50]]],
    ['feeHistory', { oldestBlock: '0x29', baseFeePerGas: ['0x2540be400', '0x2540be400', '0x2540be400'], gasUsedRatio: [0, 0.000021], reward: [['0x0'], ['0x0']] }]),
  eth_sendRawTransaction: ex('a signed EIP-1559 ERC-20 transfer', [['transaction', SIGNED]], ['hash', SIGNED_HASH]),
  eth_accounts: ex('no keys held', [], ['accounts', []]),
  eth_syncing: ex('in step with the network', [], ['syncing', false]),
};
