/**
 * Signed EVM transactions as native bundles (spec §4.18; docs/eth.md "Sending"). No EVM runs: a
 * transaction is a native-coin transfer (empty calldata), an ERC-20 `transfer(to, amount)`,
 * `approve(spender, amount)` or `transferFrom(from, to, amount)` on a token's EVM-form address
 * (docs/allowances.md), or an ERC-721/1155 transfer on a collection's (collection-transfers.ts),
 * and maps to exactly one bundle holding one operation.
 * The raw signed transaction is the bundle's `signature`, so the mapping is a pure function of
 * those bytes (plus the token table) and anyone can re-verify a bundle: recover the sender,
 * rebuild the bundle, compare the bytes (`verifyEvmBundle`). RLP, secp256k1 and keccak are viem's.
 */
import { keccak256, parseTransaction, recoverTransactionAddress, type Hex, type TransactionSerializable } from 'viem';
import { encodeBundle, type Bundle, type Operation } from '../../codec/bundle.js';
import { NATIVE_MINT } from '../../codec/address.js';
import { evmRefusal } from './refusal.js';
import type { BundleAuth, EvmFees } from '../mempool.js';
import type { EvmTokenIndex } from './tokens.js';
import { collectionActionOf, type CollectionAction } from './collection-transfers.js';
import { accountOfEvm, allowanceOfEvm, hex, U64_MAX, WEI_PER_NANO } from './units.js';
import { AUTH_EVM, ED25519_SIGNATURE_BYTES, GAS_BASE, ML_DSA_65_SIGNATURE_BYTES, OPERATION_GAS } from '../../abi/constants.js';

/** BundleInput.auth of a bundle whose signature is a secp256k1-signed EVM transaction (docs/core-abi.md). */
export { AUTH_EVM };
/**
 * Largest raw transaction accepted. A transfer is ~110–180 bytes; the bound leaves room for a
 * small EIP-2930 access list and stays far below ML-DSA-65's 3,309 bytes, so the signature length
 * alone never makes an EVM transaction look like a native signature (64 is below any signed tx).
 */
export const MAX_RAW_TX_BYTES = 2048;
/** ERC-20 `transfer(address,uint256)`. */
export const SELECTOR_TRANSFER = '0xa9059cbb';
/** ERC-20 `approve(address,uint256)` and `transferFrom(address,address,uint256)` (docs/allowances.md). */
export const SELECTOR_APPROVE = '0x095ea7b3';
export const SELECTOR_TRANSFER_FROM = '0x23b872dd';
/** An EVM transaction never expires; the bundle's valid_until is the largest u64. */
const NO_EXPIRY = U64_MAX;

export interface EvmTransaction {
  /** keccak256 of the raw bytes: the hash wallets know the transaction by */
  hash: Hex;
  raw: Uint8Array;
  type: 'legacy' | 'eip2930' | 'eip1559';
  chainId: number;
  from: Hex;
  nonce: bigint;
  gas: bigint;
  to: Hex;
  value: bigint;
  data: Hex;
  /** legacy and EIP-2930 */
  gasPrice?: bigint;
  /** EIP-1559 */
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
  accessList: ReadonlyArray<{ address: Hex; storageKeys: readonly Hex[] }>;
  v?: bigint;
  yParity?: number;
  r: Hex;
  s: Hex;
}

/** What a transaction does on the native side. */
export type EvmAction =
  | { kind: 'native'; to: Uint8Array; amountNano: bigint }
  | { kind: 'token'; to: Uint8Array; mint: Uint8Array; amount: bigint }
  /** `amount` is the core's: 2^128−1 (infinite) for any EVM amount at or above it */
  | { kind: 'approve'; spender: Uint8Array; mint: Uint8Array; amount: bigint }
  | { kind: 'transferFrom'; from: Uint8Array; to: Uint8Array; mint: Uint8Array; amount: bigint }
  | CollectionAction;

/**
 * Gas the core charges for an action's bundle: GAS_BASE plus the operation's (docs/core-abi.md
 * "Rules", docs/collections.md "Gas"; the figures are the ABI table's), so eth_estimateGas answers what
 * the receipt will show: 21,000 for a Transfer, as on Ethereum.
 */
export function actionGas(action: EvmAction): bigint {
  if (action.kind === 'native' || action.kind === 'token') return GAS_BASE + OPERATION_GAS.Transfer.base;
  if (action.kind === 'approve') return GAS_BASE + OPERATION_GAS.Approve.base;
  if (action.kind === 'transferFrom') return GAS_BASE + OPERATION_GAS.TransferFrom.base; // docs/allowances.md "Gas"
  if (action.kind === 'nft') return GAS_BASE + OPERATION_GAS.TransferNft.base;
  if (!action.batch) return GAS_BASE + OPERATION_GAS.TransferMultiToken.base;
  const batch = OPERATION_GAS.BatchTransferMultiToken;
  return GAS_BASE + batch.base + batch.perEntry * BigInt(action.entries.length);
}

export { evmRefusal };

/** The first byte tells a typed transaction (EIP-2718) from a legacy RLP list. */
export function looksLikeEvmTransaction(bytes: Uint8Array): boolean {
  if (bytes.length === 0 || bytes.length === ED25519_SIGNATURE_BYTES || bytes.length === ML_DSA_65_SIGNATURE_BYTES || bytes.length > MAX_RAW_TX_BYTES) return false;
  return bytes[0] === 0x01 || bytes[0] === 0x02 || bytes[0]! >= 0xc0;
}

/**
 * Decodes a raw signed transaction and recovers its sender. Refuses (ChainError BUNDLE_INVALID)
 * what cannot be a transfer here: other types (blob, set-code), pre-EIP-155 legacy signatures (no
 * chain ID: replayable on any chain), a chain ID other than `chainId`, contract creation.
 */
export async function decodeEvmTransaction(raw: Uint8Array, chainId: number): Promise<EvmTransaction> {
  if (raw.length === 0 || raw.length > MAX_RAW_TX_BYTES) {
    throw evmRefusal('MALFORMED_TRANSACTION', `a raw transaction has 1 to ${MAX_RAW_TX_BYTES} bytes, got ${raw.length}`);
  }
  const serialized = hex(raw);
  let tx: TransactionSerializable & { v?: bigint; yParity?: number; r?: Hex; s?: Hex };
  try {
    tx = parseTransaction(serialized) as typeof tx;
  } catch (error) {
    throw evmRefusal('MALFORMED_TRANSACTION', `not a valid signed transaction: ${shortMessage(error)}`);
  }
  const type = tx.type;
  if (type !== 'legacy' && type !== 'eip2930' && type !== 'eip1559') {
    throw evmRefusal('UNSUPPORTED_TX_TYPE', `transaction type ${String(type)} is not supported; send a legacy (EIP-155), EIP-2930 or EIP-1559 transaction`);
  }
  if (tx.r === undefined || tx.s === undefined) throw evmRefusal('MALFORMED_TRANSACTION', 'the transaction is not signed');
  if (tx.chainId === undefined) {
    throw evmRefusal('WRONG_CHAIN_ID', `the transaction has no chain ID (pre-EIP-155 signature); sign for chain ${chainId}`, { expected: chainId });
  }
  if (tx.chainId !== chainId) {
    throw evmRefusal('WRONG_CHAIN_ID', `the transaction is signed for chain ${tx.chainId}; this node is chain ${chainId}`, { expected: chainId, got: tx.chainId });
  }
  if (!tx.to) throw evmRefusal('UNSUPPORTED_CALL', 'contract creation is not supported: this node executes no EVM code');
  let from: Hex;
  try {
    from = (await recoverTransactionAddress({ serializedTransaction: serialized as never })).toLowerCase() as Hex;
  } catch (error) {
    throw evmRefusal('BAD_SIGNATURE', `the signature does not recover a sender: ${shortMessage(error)}`);
  }
  return {
    hash: keccak256(raw),
    raw,
    type,
    chainId: tx.chainId,
    from,
    nonce: BigInt(tx.nonce ?? 0),
    gas: tx.gas ?? 0n,
    to: tx.to.toLowerCase() as Hex,
    value: tx.value ?? 0n,
    data: (tx.data ?? '0x') as Hex,
    ...(type === 'eip1559'
      ? { maxFeePerGas: tx.maxFeePerGas ?? 0n, maxPriorityFeePerGas: tx.maxPriorityFeePerGas ?? 0n }
      : { gasPrice: tx.gasPrice ?? 0n }),
    accessList: (tx as { accessList?: EvmTransaction['accessList'] }).accessList ?? [],
    ...(tx.v !== undefined ? { v: tx.v } : {}),
    ...(tx.yParity !== undefined ? { yParity: tx.yParity } : {}),
    r: tx.r,
    s: tx.s,
  };
}

/**
 * What the call does natively. `to`/`data`/`value` are the EVM call's; shared by
 * eth_sendRawTransaction and eth_estimateGas so both refuse the same things.
 */
export function actionOf(call: { to: Hex; data: Hex; value: bigint; from?: Hex }, tokens: EvmTokenIndex): EvmAction {
  const data = call.data.toLowerCase();
  if (data === '0x') {
    if (call.value % WEI_PER_NANO !== 0n) {
      throw evmRefusal('VALUE_NOT_REPRESENTABLE',
        `value ${call.value} wei is not a whole number of nanoNTV (NTV has 9 decimals: use a multiple of 10^9 wei)`);
    }
    return { kind: 'native', to: accountOfEvm(call.to), amountNano: call.value / WEI_PER_NANO };
  }
  const token = tokens.lookup(call.to);
  if (!token) {
    const collection = tokens.collection(call.to);
    if (collection) return collectionActionOf(collection, data as Hex, call.value, call.from);
    throw evmRefusal('UNSUPPORTED_CALL', `${call.to} is not a token or collection address and this node executes no EVM code; only native transfers (no calldata), ERC-20 transfer, approve and transferFrom on a token and ERC-721/1155 transfers on a collection are accepted`);
  }
  // ERC-20 calls: the selector, then 32-byte words (addresses left-padded); nothing else.
  const selector = data.slice(0, 10);
  const words = (n: number, addresses: number): string[] | undefined => {
    if (data.length !== 10 + 64 * n) return undefined;
    const out = Array.from({ length: n }, (_, i) => data.slice(10 + 64 * i, 74 + 64 * i));
    return out.slice(0, addresses).every((w) => /^0{24}/.test(w)) ? out : undefined;
  };
  const args = selector === SELECTOR_TRANSFER || selector === SELECTOR_APPROVE ? words(2, 1) : selector === SELECTOR_TRANSFER_FROM ? words(3, 2) : undefined;
  if (!args) {
    throw evmRefusal('UNSUPPORTED_CALL', `only ERC-20 transfer(address,uint256) (${SELECTOR_TRANSFER}, 68 bytes of calldata), approve(address,uint256) (${SELECTOR_APPROVE}, 68 bytes) and transferFrom(address,address,uint256) (${SELECTOR_TRANSFER_FROM}, 100 bytes) can be sent to token ${token.symbol}`);
  }
  if (call.value !== 0n) throw evmRefusal('UNSUPPORTED_CALL', 'an ERC-20 call carries no native value');
  const account = (word: string) => accountOfEvm(`0x${word.slice(24)}`);
  const amount = BigInt(`0x${args.at(-1)}`);
  // approve: any amount from 2^128−1 up is the infinite allowance (docs/allowances.md), so the
  // usual approve(spender, 2^256−1) is accepted.
  if (selector === SELECTOR_APPROVE) return { kind: 'approve', spender: account(args[0]!), mint: token.mint, amount: allowanceOfEvm(amount) };
  if (amount >= 1n << 128n) throw evmRefusal('VALUE_NOT_REPRESENTABLE', `amount ${amount} is beyond u128, the ledger's amount range`);
  if (selector === SELECTOR_TRANSFER_FROM) return { kind: 'transferFrom', from: account(args[0]!), to: account(args[1]!), mint: token.mint, amount };
  return { kind: 'token', to: account(args[0]!), mint: token.mint, amount };
}

/** The one operation a call maps to. */
export function operationOf(action: EvmAction): Operation {
  switch (action.kind) {
    case 'native':
      return { type: 'Transfer', to: action.to, token: NATIVE_MINT, amount: action.amountNano };
    case 'token':
      return { type: 'Transfer', to: action.to, token: action.mint, amount: action.amount };
    case 'approve':
      return { type: 'Approve', token: action.mint, spender: action.spender, amount: action.amount };
    case 'transferFrom':
      return { type: 'TransferFrom', token: action.mint, from: action.from, to: action.to, amount: action.amount };
    case 'nft':
      return { type: 'TransferNft', collection: action.collection, tokenId: action.tokenId, to: action.to };
    case 'multi': {
      if (action.batch) return { type: 'BatchTransferMultiToken', collection: action.collection, to: action.to, entries: action.entries };
      const [{ typeId, amount }] = action.entries as [{ typeId: bigint; amount: bigint }];
      return { type: 'TransferMultiToken', collection: action.collection, typeId, to: action.to, amount };
    }
  }
}

/**
 * The tip in nanoNTV per gas the bundle carries: an EIP-1559 maxPriorityFeePerGas, rounded down to
 * whole nanoNTV (never more than signed for); legacy and EIP-2930 transactions tip nothing, their
 * gasPrice is only a cap (checked at admission against the node's price).
 */
export function priorityFeeOf(tx: EvmTransaction): bigint {
  return tx.type === 'eip1559' ? (tx.maxPriorityFeePerGas ?? 0n) / WEI_PER_NANO : 0n;
}

/** The native bundle of a decoded transaction (docs/eth.md "Sending", field by field). */
export function bundleOf(tx: EvmTransaction, tokens: EvmTokenIndex, action: EvmAction = actionOf(tx, tokens)): Bundle {
  if (tx.gas > U64_MAX) throw evmRefusal('MALFORMED_TRANSACTION', 'gas limit beyond u64');
  if (tx.nonce > U64_MAX) throw evmRefusal('MALFORMED_TRANSACTION', 'nonce beyond u64');
  const tip = priorityFeeOf(tx);
  if (tip > U64_MAX) throw evmRefusal('MALFORMED_TRANSACTION', 'maxPriorityFeePerGas beyond u64 nanoNTV');
  return {
    userAccount: accountOfEvm(tx.from),
    operations: [operationOf(action)],
    maxGas: tx.gas,
    maxPriorityFee: tip,
    validUntil: NO_EXPIRY,
    nonce: tx.nonce,
    signature: tx.raw,
    expiryTimestamp: undefined,
    senderPubkey: undefined,
  };
}

/** The fee fields geth's txpool compares for a replacement, wei per gas: a legacy gas price is both. */
export function evmFeesOf(tx: EvmTransaction): EvmFees {
  return tx.type === 'eip1559'
    ? { tip: tx.maxPriorityFeePerGas ?? 0n, cap: tx.maxFeePerGas ?? 0n }
    : { tip: tx.gasPrice ?? 0n, cap: tx.gasPrice ?? 0n };
}

/**
 * The fee cap the signer agreed to, in wei per gas, must cover what the core charges: the node's
 * gas price plus the tip. The core charges gas × (gas_price + max_priority_fee) and does not see
 * the cap, so the host checks it here, at admission, against this node's --gas-price.
 */
export function checkFeeCap(tx: EvmTransaction, gasPriceNano: bigint): void {
  const cap = tx.type === 'eip1559' ? tx.maxFeePerGas ?? 0n : tx.gasPrice ?? 0n;
  const charged = (gasPriceNano + priorityFeeOf(tx)) * WEI_PER_NANO;
  if (cap < charged) {
    throw evmRefusal('FEE_CAP_TOO_LOW',
      `the transaction allows ${cap} wei per gas; this node charges ${charged} (gas price ${gasPriceNano * WEI_PER_NANO} + tip); see eth_gasPrice`,
      { cap: cap.toString(), required: charged.toString() });
  }
}

/**
 * Admission of a bundle carrying an EVM transaction as its signature (called by the submission
 * gate): decode, recover, rebuild the bundle and require the exact same bytes, so a relayer cannot
 * wrap someone's signed transaction in a different bundle. The auth handed to the core is kind 3
 * with key_hash = the right-aligned sender account (the core accepts it only for that account).
 */
export async function verifyEvmBundle(bytes: Uint8Array, signature: Uint8Array, ctx: { chainId: number; gasPrice: bigint; tokens: EvmTokenIndex }): Promise<BundleAuth> {
  const tx = await decodeEvmTransaction(signature, ctx.chainId);
  const rebuilt = encodeBundle(bundleOf(tx, ctx.tokens));
  if (Buffer.compare(Buffer.from(rebuilt), Buffer.from(bytes)) !== 0) {
    throw evmRefusal('BAD_SIGNATURE', 'the bundle is not the one its EVM transaction maps to (docs/eth.md "Sending")');
  }
  checkFeeCap(tx, ctx.gasPrice);
  return { kind: AUTH_EVM, keyHash: accountOfEvm(tx.from), pubkey: new Uint8Array(0), evmFees: evmFeesOf(tx) };
}

function shortMessage(error: unknown): string {
  const e = error as { shortMessage?: string; message?: string };
  return (e.shortMessage ?? e.message ?? String(error)).split('\n')[0]!;
}
