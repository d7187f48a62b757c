import { type TOptional, type TString, Type } from '@sinclair/typebox';
import { RECEIPT_CREATED, type ReceiptCreated } from '../../abi/events.js';

/** The receipt's `created` keys, each an optional string (their static type for TypeBox). */
type CreatedProperties = { [K in keyof ReceiptCreated]-?: TOptional<TString> };

/** Result shapes for rpc.discover; docs/methods.md describes each field. */

const Str = (description: string) => Type.String({ description });
const Int = (description: string) => Type.Integer({ description });

export const ReceiptSchema = Type.Object({
  bundle_hash: Str('Nxh… hash of the bundle'),
  block_height: Int('height of the block that holds it'),
  block_hash: Str('Nxh… hash of that block'),
  index: Int('position of the bundle in the block'),
  timestamp: Int('block time, unix seconds'),
  from: Str('Nx0… sender'),
  nonce: Str('the bundle nonce, decimal'),
  status: Type.Union([Type.Literal('success'), Type.Literal('failed')]),
  status_code: Int('core status code (docs/core-abi.md "Statuses")'),
  status_name: Str('core status name'),
  error: Type.Optional(Str('why it failed')),
  gas_used: Int('gas used'),
  fee: Str('fee paid in raw NTV units, decimal'),
  events: Type.Array(Type.Object({ type: Str('Transfer, TokenCreated, KeyRegistered, Fee, Approval, the DEX and metadata events, or the collection events (docs/methods.md "Receipt")'), op_index: Type.Union([Type.Integer(), Type.Null()], { description: 'operation index; null for bundle-level events (Fee)' }) }, { additionalProperties: true })),
  // the identifiers the bundle created, from the events that create them (abi/events.mjs `creates`)
  created: Type.Optional(Type.Object(Object.fromEntries(Object.entries(RECEIPT_CREATED).map(([key, what]) => [key, Type.Optional(Str(what))])) as CreatedProperties)),
}, { title: 'Receipt', additionalProperties: false });

/** svc_submitBundle's answer for a bundle behind a nonce gap (docs/mempool.md "Queued bundles"). */
export const QueuedBundleSchema = Type.Object({
  bundle_hash: Str('Nxh… hash of the bundle'),
  from: Str('Nx0… sender'),
  nonce: Str('the bundle nonce, decimal'),
  status: Type.Literal('queued'),
  next_nonce: Str('the nonce the account needs next, decimal; the bundle executes once every nonce before its own has'),
}, { title: 'QueuedBundle', additionalProperties: false });

export const TokenSchema = Type.Object({
  name: Str('token name'),
  symbol: Str('token symbol'),
  decimals: Int('decimals'),
  mint_address: Str('Nx1… mint'),
  evm_address: Type.Union([Type.String(), Type.Null()], { description: 'ERC-20 contract address (0x + 40 hex): the mint\'s last 20 bytes (docs/eth.md "Token addresses"); null for NTV, the native coin' }),
  total_supply: Str('raw units, decimal'),
  max_supply: Type.Optional(Str('NTV only: the most that will ever exist, raw units (spec §1.4)')),
  initial_supply: Str('raw units, decimal'),
  creator: Str('Nx0… creator'),
  owner: Str('Nx0… owner'),
  created_at: Int('unix seconds'),
  created_height: Int('block height'),
  standard: Str('native, STD-7, STD-8 or STD-7 (bridge-canonical)'),
  features: Type.Object({ mintable: Type.Boolean(), burnable: Type.Boolean(), pausable: Type.Boolean(), freezable: Type.Boolean() }, { description: 'what an operation can do to the token now, read from its record (docs/methods.md "Token features")' }),
  is_mutable: Type.Boolean({ description: 'metadata can still be updated' }),
  badge: Type.Union([Type.String(), Type.Null()], { description: 'Official Stablecoin, Memecoin or null' }),
  origin_chain: Type.Union([Type.String(), Type.Null()]),
  origin_contract: Type.Union([Type.String(), Type.Null()]),
}, { title: 'Token', additionalProperties: true });

export const HeaderSchema = Type.Object({
  height: Int('block height'),
  hash: Str('Nxh… block hash'),
  parentHash: Str('Nxh… parent hash'),
  timestamp: Int('unix seconds'),
  proposer: Str('Nx0… proposer'),
  stateRoot: Str('Nxh… state root after the block'),
  transactionsRoot: Str('Nxh… Merkle root of the bundle hashes'),
  gasUsed: Int('gas used'),
  gasLimit: Int('gas limit'),
  baseFee: Int('nanoNTV per gas unit'),
  bundleCount: Int('bundles in the block'),
  chainId: Int('chain ID'),
  proposerPublicKey: Str('hex Ed25519 key of the proposer'),
  signature: Str('hex Ed25519 signature of the hash (empty for genesis)'),
  round: Int('failover round: 0 when the slot leader proposed (docs/consensus.md)'),
  missed: Type.Array(Str('hex consensus key'), { description: 'leaders of rounds 0..round-1, skipped' }),
}, { title: 'BlockHeader', additionalProperties: true });
