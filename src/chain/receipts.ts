import type { BlockResultView } from '../core/block-result.js';
import { encodeStakingPool } from '../domains/staking-pools/reader.js';
import { BUNDLE_LEVEL_OP, decodeEventAt, EventKind, u128DecimalAt, STABLE_ADMIN_ACTIONS, ISSUER_PROOF_METHODS, STABLE_PENDING_KINDS, STABLE_PENDING_OUTCOMES, type AccountsEvent, type CoreEvent } from '../core/events.js';
import { PLAN_STATES } from './upgrades.js';
import { statusOf } from './status.js';
import { encodePool, METADATA_FIELD_NAMES } from '../core/amm.js';
import { encodeAccount, encodeAccountAt, encodeHash, encodeMint, encodeMintAt, encodeMultiSig } from '../codec/address.js';
import { EV_FEE_BYTES, EV_TRANSFER_BYTES } from '../abi/constants.js';
import { CollectionKind, encodeCollection } from './collections.js';
import { PROPOSAL_KINDS, PROPOSAL_TYPES, SAFETY_LEVELS } from './governance.js';
import { encodeDao } from './dao.js';
import type { Block, BlockHeader } from './block.js';
import type { TokenRegistry } from './token-registry.js';
import { formatStakingEvent, type StakingReceiptEvent } from '../domains/staking/receipts.js';

/**
 * A bundle's receipt as `svc_getTransactionReceipt` returns it (docs/methods.md "Receipt"), built on read.
 * Hashes and addresses in native formats (spec §6.3), amounts as raw-unit decimal strings.
 */
export interface Receipt {
  bundle_hash: string;
  block_height: number;
  block_hash: string;
  index: number;
  timestamp: number;
  from: string;
  nonce: string;
  status: 'success' | 'failed';
  status_code: number;
  status_name: string;
  /** why it failed, when it did */
  error?: string;
  gas_used: number;
  fee: string;
  events: ReceiptEvent[];
  /** identifiers the bundle created, e.g. the mint of a new token */
  created?: { mint?: string; pool?: string; collection?: string; presale?: string; staking_pool?: string; multisig?: string };
}

/** `op_index` is null for bundle-level events (the fee). */
export type ReceiptEvent =
  // Validator staking (docs/staking.md "Events")
  | StakingReceiptEvent
  | { type: 'Transfer'; op_index: number | null; from: string; to: string; token: string; symbol?: string; amount: string }
  | { type: 'TokenCreated'; op_index: number | null; mint: string; creator: string; owner: string; supply: string }
  | { type: 'KeyRegistered'; op_index: number | null; account: string; key_hash: string; key_type: string }
  | { type: 'Fee'; op_index: number | null; payer: string; proposer: string; to_proposer: string; treasury: string; to_treasury: string }
  // DEX and token metadata (docs/dex.md "Events"): token0 < token1, amounts in that order
  | { type: 'PoolCreated'; op_index: number | null; pool: string; token0: string; token1: string; creator: string; amount0: string; amount1: string; lp_total_supply: string; lock_until: number; fee: string }
  // token0/token1 and token_out are the pool's, looked up by the host (the core's event names the
  // pool only): what docs/eth.md "Logs" turns into the ERC-20 Transfer of each token moved
  | { type: 'LiquidityAdded' | 'LiquidityRemoved'; op_index: number | null; pool: string; token0?: string; token1?: string; provider: string; amount0: string; amount1: string; lp: string }
  | { type: 'Swap'; op_index: number | null; pool: string; trader: string; token_in: string; token_out?: string; amount_in: string; amount_out: string; reserve0: string; reserve1: string }
  | { type: 'TokenMetadataUpdated' | 'TokenMetadataLocked'; op_index: number | null; mint: string; creator: string; fields_set?: string[] }
  // Collections (docs/collections.md "Events"): a zero `from` is a mint, a zero `to` a burn
  | { type: 'CollectionCreated'; op_index: number | null; collection: string; kind: 'nft' | 'multi'; owner: string; creator: string }
  | { type: 'NftTransfer'; op_index: number | null; collection: string; from: string; to: string; token_id: string }
  | { type: 'TokenTypeDefined'; op_index: number | null; collection: string; type_id: string; max_supply: string; is_fungible: boolean }
  | { type: 'MultiTokenTransfer'; op_index: number | null; collection: string; operator: string; from: string; to: string; batch: boolean; entries: Array<{ type_id: string; amount: string }> }
  // Intent programs (docs/intents.md "Programs on chain")
  | { type: 'ProgramRegistered'; op_index: number | null; name: string; owner: string; revision: number; program_hash: string }
  // Schedules on chain (docs/intents.md "Schedules on chain"): schedule ids are Nxh… like hashes
  | { type: 'ScheduleCreated'; op_index: number | null; schedule_id: string; owner: string; kind: 'Recurring' | 'Conditional'; next_due: number }
  | { type: 'ScheduleCancelled'; op_index: number | null; schedule_id: string; owner: string }
  // ERC-20 allowances (docs/allowances.md): the allowance now set (a TransferFrom shows as Transfer)
  | { type: 'Approval'; op_index: number | null; owner: string; spender: string; token: string; symbol?: string; amount: string }
  // Protocol proposals (docs/governance.md "Events"); a treasury spend also shows as Transfer
  | { type: 'ProposalCreated'; op_index: number | null; proposal_id: string; proposer: string; proposal_type: string; end_height: number }
  | { type: 'ProposalVoted'; op_index: number | null; proposal_id: string; voter: string; approve: boolean; weight: string }
  | { type: 'ProposalExecuted'; op_index: number | null; proposal_id: string; executor: string; proposal_type: string }
  | { type: 'ProposalCancelled'; op_index: number | null; proposal_id: string; proposer: string }
  | { type: 'ChainParamChanged'; op_index: number | null; proposal_id: string; key: string; old_value: string; new_value: string }
  | { type: 'SafetyLevelSet'; op_index: number | null; proposal_id: string; target: string; target_kind: 'contract' | 'collection'; level: string }
  // DAOs (docs/governance.md "DAOs"): locking and unlocking a vote's tokens also show as Transfer
  | { type: 'DaoCreated'; op_index: number | null; dao_address: string; dao_id: string; creator: string; token_mint: string }
  | { type: 'DaoProposal'; op_index: number | null; dao_address: string; proposal_id: string; action: string; account: string; amount: string }
  // Presales and staking pools (docs/presales.md, docs/staking-pools.md): the tokens move as Transfer events
  | { type: 'PresaleCreated'; op_index: number | null; presale: string; creator: string; token: string; pay_token: string }
  | { type: 'StakingPoolCreated'; op_index: number | null; pool: string; creator: string; token_mint: string; reward_mint: string }
  | { type: 'ScheduleRun'; op_index: number | null; schedule_id: string; owner: string; run: number; status_code: number; status_name: string; gas_used: number; fee: string }
  // Accounts, recovery and multi-sig (docs/accounts.md "Events"): key hashes as 64 hex, multi-sigs as Nx5…
  | { type: 'KeyAdded' | 'KeyRemoved'; op_index: number | null; account: string; key_hash: string; key_type?: string; role?: string }
  | { type: 'RecoverySet'; op_index: number | null; account: string; threshold: number; guardians: number; timelock: number }
  | { type: 'RecoveryInitiated' | 'RecoveryApproved' | 'RecoveryCancelled' | 'RecoveryFinalized'; op_index: number | null; account: string; guardian?: string; key_hash?: string; key_type?: string; approvals?: number; executable_at?: number }
  | { type: 'MultiSigCreated'; op_index: number | null; multisig: string; creator: string; threshold: number; signers: number }
  | { type: 'MultiSigTxUpdated'; op_index: number | null; multisig: string; tx_id: string; signer: string; action: 'proposed' | 'approved' | 'revoked'; approvals: number }
  | { type: 'MultiSigTxExecuted'; op_index: number | null; multisig: string; tx_id: string; status_code: number; status_name: string }
  // Upgrade governance (docs/upgrades.md "Events"): `state` is the plan's after the operation
  | { type: 'UpgradeScheduled'; op_index: number | null; name: string; proposer: string; height: number; state: string }
  | { type: 'UpgradeVoted'; op_index: number | null; name: string; voter: string; approve: boolean; state: string }
  | { type: 'UpgradeCancelled'; op_index: number | null; name: string; by: string }
  // The bridge (docs/bridge.md "Events"); mints and burns are Transfer events from and to the zero account
  | { type: 'BridgeDeposited'; op_index: number | null; deposit_id: string; recipient: string; mint: string; amount: string; credited: boolean }
  | { type: 'BridgeWithdrawn'; op_index: number | null; sequence: string; sender: string; mint: string; amount: string; fee: string }
  | { type: 'BridgeWithdrawalAttested'; op_index: number | null; sequence: string }
  | { type: 'BridgeMappingRegistered'; op_index: number | null; target: string; mint: string }
  | { type: 'BridgeAttestersSet'; op_index: number | null; threshold: number; count: number }
  // STD-8 stablecoins (docs/stablecoins.md "Events"); mints and burns are Transfer events from and to the zero account
  | { type: 'StableCreated'; op_index: number | null; mint: string; owner: string; master_minter: string; pauser: string; blacklister: string }
  | { type: 'StableAdmin'; op_index: number | null; mint: string; by: string; subject: string; action: string; value: number }
  | { type: 'StablePending'; op_index: number | null; mint: string; by: string; pending_id: string; kind: string; outcome: string; effective_height: number }
  | { type: 'StableMinter'; op_index: number | null; mint: string; by: string; minter: string; action: 'added' | 'removed' | 'configured'; allowance: string; epoch_limit: string }
  | { type: 'StableIssuerProof'; op_index: number | null; mint: string; by: string; method: string; subject: string; proofs: number; verification_status: string };

/**
 * The receipt of the bundle at `index` of a block, from the block's stored execution result
 * (docs/storage.md "Receipts"): receipts are not stored as such, so a block of 1,000 transfers
 * writes its ~290 KB result once instead of ~0.8 MB of receipt JSON, and a receipt always shows
 * the token symbols known when it is read.
 */
export function receiptAt(header: BlockHeader, bundle: Uint8Array, hash: Uint8Array, index: number, result: BlockResultView, tokens: TokenRegistry,
  block: { hash: string; pairs: PoolPairs } = { hash: encodeHash(header.hash), pairs: poolPairs(result, tokens) }): Receipt {
  const info = statusOf(result.status(index));
  const receipt: Receipt = {
    bundle_hash: encodeHash(hash),
    block_height: header.height,
    block_hash: block.hash,
    index,
    timestamp: header.timestamp,
    // docs/bundle-format.md: user_account is the bundle's first field
    from: encodeAccount(bundle.subarray(0, 32)),
    nonce: result.nonce(index).toString(),
    status: info.class === 'ok' ? 'success' : 'failed',
    status_code: info.code,
    status_name: info.name,
    ...(info.class === 'ok' ? {} : { error: info.message }),
    gas_used: result.gasUsedOf(index),
    fee: result.fee(index).toString(),
    events: [],
  };
  result.forEachEventOf(index, (op, kind, at, len) => {
    const opIndex = op === BUNDLE_LEVEL_OP ? null : op;
    const event = formatInPlace(result, kind, at, len, opIndex, tokens)
      ?? formatEvent(decodeEventAt(result.bytes, result.dv, at, len, index, op, kind), opIndex, tokens, block.pairs);
    if (!event) return;
    receipt.events.push(event);
    if (event.type === 'TokenCreated') receipt.created = { ...receipt.created, mint: event.mint };
    if (event.type === 'PoolCreated') receipt.created = { ...receipt.created, pool: event.pool };
    if (event.type === 'CollectionCreated') receipt.created = { ...receipt.created, collection: event.collection };
    if (event.type === 'PresaleCreated') receipt.created = { ...receipt.created, presale: event.presale };
    if (event.type === 'StakingPoolCreated') receipt.created = { ...receipt.created, staking_pool: event.pool };
    if (event.type === 'MultiSigCreated') receipt.created = { ...receipt.created, multisig: event.multisig };
  });
  return receipt;
}

/**
 * The two events nearly every receipt holds, Transfer and the bundle's Fee, formatted straight from
 * the result's bytes: the same object `formatEvent` makes of the decoded event, without the decoded
 * event, its views and its bigints (a 10,000-transfer block's receipts have 20,000 of them;
 * docs/performance.md "2026-11-27, fifth round"). Undefined for every other event (and a malformed
 * one), which takes the general path.
 */
function formatInPlace(result: BlockResultView, kind: number, at: number, len: number, opIndex: number | null, tokens: TokenRegistry): ReceiptEvent | undefined {
  const { bytes, dv } = result;
  if (kind === EventKind.Transfer && len === EV_TRANSFER_BYTES) {
    return transferEvent(opIndex, encodeAccountAt(bytes, at), encodeAccountAt(bytes, at + 32), encodeMintAt(bytes, at + 64),
      tokens.byMintAt(bytes, at + 64)?.symbol, u128DecimalAt(dv, at + 96));
  }
  if (kind === EventKind.Fee && len === EV_FEE_BYTES) {
    return feeEvent(opIndex, encodeAccountAt(bytes, at), encodeAccountAt(bytes, at + 32), u128DecimalAt(dv, at + 64),
      encodeAccountAt(bytes, at + 80), u128DecimalAt(dv, at + 112));
  }
  return undefined;
}

/**
 * A Transfer event of a receipt, its fields in the order every reply has them: built here for both
 * the in-place path and `formatEvent` (schedule runs, docs/methods.md "Receipt").
 */
function transferEvent(opIndex: number | null, from: string, to: string, token: string, symbol: string | undefined, amount: string): ReceiptEvent {
  return { type: 'Transfer', op_index: opIndex, from, to, token, ...(symbol ? { symbol } : {}), amount };
}

/** A bundle's (or a schedule run's) Fee event, as `transferEvent`. */
function feeEvent(opIndex: number | null, payer: string, proposer: string, toProposer: string, treasury: string, toTreasury: string): ReceiptEvent {
  return { type: 'Fee', op_index: opIndex, payer, proposer, to_proposer: toProposer, treasury, to_treasury: toTreasury };
}

/** Every receipt of a block, in block order. */
export function blockReceipts(block: Block, result: BlockResultView, tokens: TokenRegistry): Receipt[] {
  // the block's hash in base58 and its pools once, not once a receipt (10,000 of them in a full block)
  const shared = { hash: encodeHash(block.header.hash), pairs: poolPairs(result, tokens) };
  return block.bundles.map((bytes, i) => receiptAt(block.header, bytes, block.bundleHashes[i]!, i, result, tokens, shared));
}

type PoolPairs = (pool: Uint8Array) => [Uint8Array, Uint8Array] | undefined;

/**
 * A pool's two tokens: from committed state, else from the PoolCreated event of the same block (a
 * receipt of the block being made is read before its writes reach the StateView). Pools are only
 * created by PoolCreated and never deleted, so one of the two always knows it.
 */
function poolPairs(result: BlockResultView, tokens: TokenRegistry): PoolPairs {
  let created: Map<string, [Uint8Array, Uint8Array]> | undefined;
  return (pool) => {
    const committed = tokens.poolPair(pool);
    if (committed) return committed;
    if (!created) {
      created = new Map();
      for (const e of result.events) if (e.kind === 'PoolCreated') created.set(Buffer.from(e.pool).toString('hex'), [e.token0, e.token1]);
    }
    return created.get(Buffer.from(pool).toString('hex'));
  };
}

function formatEvent(event: CoreEvent, opIndex: number | null, tokens: TokenRegistry, pairs: PoolPairs): ReceiptEvent | undefined {
  switch (event.kind) {
    case 'Transfer':
      return transferEvent(opIndex, encodeAccount(event.from), encodeAccount(event.to), encodeMint(event.token), tokens.byMintBytes(event.token)?.symbol, event.amount.toString());
    case 'PresaleCreated':
      return {
        type: 'PresaleCreated', op_index: opIndex, presale: encodeAccount(event.presale), creator: encodeAccount(event.creator),
        token: encodeMint(event.token), pay_token: encodeMint(event.payToken),
      };
    case 'StakingPoolCreated':
      return {
        type: 'StakingPoolCreated', op_index: opIndex, pool: encodeStakingPool(event.pool), creator: encodeAccount(event.creator),
        token_mint: encodeMint(event.stakeMint), reward_mint: encodeMint(event.rewardMint),
      };
    case 'Approval': {
      const symbol = tokens.byMintBytes(event.token)?.symbol;
      return {
        type: 'Approval', op_index: opIndex, owner: encodeAccount(event.owner), spender: encodeAccount(event.spender),
        token: encodeMint(event.token), ...(symbol ? { symbol } : {}), amount: event.amount.toString(),
      };
    }
    case 'TokenCreated':
      return {
        type: 'TokenCreated', op_index: opIndex, mint: encodeMint(event.mint), creator: encodeAccount(event.creator),
        owner: encodeAccount(event.owner), supply: event.supply.toString(),
      };
    case 'KeyRegistered':
      return {
        type: 'KeyRegistered', op_index: opIndex, account: encodeAccount(event.account),
        key_hash: Buffer.from(event.keyHash).toString('hex'), key_type: event.keyType === 0 ? 'Ed25519' : 'ML-DSA-65',
      };
    case 'Fee':
      return feeEvent(opIndex, encodeAccount(event.payer), encodeAccount(event.proposer), event.toProposer.toString(), encodeAccount(event.treasury), event.toTreasury.toString());
    case 'PoolCreated':
      return {
        type: 'PoolCreated', op_index: opIndex, pool: encodePool(event.pool), token0: encodeMint(event.token0), token1: encodeMint(event.token1),
        creator: encodeAccount(event.creator), amount0: event.amount0.toString(), amount1: event.amount1.toString(),
        lp_total_supply: event.lpSupply.toString(), lock_until: Number(event.lockUntil), fee: event.fee.toString(),
      };
    case 'LiquidityAdded':
    case 'LiquidityRemoved': {
      const pair = pairs(event.pool);
      return {
        type: event.kind, op_index: opIndex, pool: encodePool(event.pool),
        ...(pair ? { token0: encodeMint(pair[0]), token1: encodeMint(pair[1]) } : {}), provider: encodeAccount(event.provider),
        amount0: event.amount0.toString(), amount1: event.amount1.toString(), lp: event.lp.toString(),
      };
    }
    case 'Swap': {
      const pair = pairs(event.pool);
      const out = pair && (Buffer.compare(pair[0], event.tokenIn) === 0 ? pair[1] : pair[0]);
      return {
        type: 'Swap', op_index: opIndex, pool: encodePool(event.pool), trader: encodeAccount(event.trader), token_in: encodeMint(event.tokenIn),
        ...(out ? { token_out: encodeMint(out) } : {}), amount_in: event.amountIn.toString(), amount_out: event.amountOut.toString(), reserve0: event.reserve0.toString(), reserve1: event.reserve1.toString(),
      };
    }
    case 'TokenMetadataUpdated':
      return {
        type: 'TokenMetadataUpdated', op_index: opIndex, mint: encodeMint(event.mint), creator: encodeAccount(event.creator),
        fields_set: METADATA_FIELD_NAMES.filter((_, i) => (event.fieldsSet >> i) & 1),
      };
    case 'TokenMetadataLocked':
      return { type: 'TokenMetadataLocked', op_index: opIndex, mint: encodeMint(event.mint), creator: encodeAccount(event.creator) };
    case 'CollectionCreated':
      return {
        type: 'CollectionCreated', op_index: opIndex, collection: encodeCollection(event.collection), kind: event.collectionKind === CollectionKind.MULTI ? 'multi' : 'nft',
        owner: encodeAccount(event.owner), creator: encodeAccount(event.creator),
      };
    case 'NftTransfer':
      return {
        type: 'NftTransfer', op_index: opIndex, collection: encodeCollection(event.collection), from: encodeAccount(event.from), to: encodeAccount(event.to),
        token_id: event.tokenId.toString(),
      };
    case 'TokenTypeDefined':
      return {
        type: 'TokenTypeDefined', op_index: opIndex, collection: encodeCollection(event.collection), type_id: event.typeId.toString(),
        max_supply: event.maxSupply.toString(), is_fungible: event.isFungible,
      };
    case 'MultiTransfer':
      return {
        type: 'MultiTokenTransfer', op_index: opIndex, collection: encodeCollection(event.collection), operator: encodeAccount(event.operator),
        from: encodeAccount(event.from), to: encodeAccount(event.to), batch: event.batch,
        entries: event.entries.map((e) => ({ type_id: e.typeId.toString(), amount: e.amount.toString() })),
      };
    case 'ProgramRegistered':
      return {
        type: 'ProgramRegistered', op_index: opIndex, name: event.name, owner: encodeAccount(event.owner), revision: event.revision,
        program_hash: '0x' + Buffer.from(event.hash).toString('hex'),
      };
    case 'ScheduleCreated':
      return {
        type: 'ScheduleCreated', op_index: opIndex, schedule_id: encodeHash(event.scheduleId), owner: encodeAccount(event.owner),
        kind: event.scheduleKind, next_due: Number(event.nextDue),
      };
    case 'ScheduleCancelled':
      return { type: 'ScheduleCancelled', op_index: opIndex, schedule_id: encodeHash(event.scheduleId), owner: encodeAccount(event.owner) };
    case 'ScheduleRun':
      return {
        type: 'ScheduleRun', op_index: null, schedule_id: encodeHash(event.scheduleId), owner: encodeAccount(event.owner), run: event.run,
        status_code: event.status, status_name: statusOf(event.status).name, gas_used: Number(event.gasUsed), fee: event.fee.toString(),
      };
    case 'ProposalCreated':
      return { type: 'ProposalCreated', op_index: opIndex, proposal_id: event.proposalId.toString(), proposer: encodeAccount(event.proposer), proposal_type: proposalTypeOf(event.proposalKind), end_height: Number(event.endHeight) };
    case 'ProposalVoted':
      return { type: 'ProposalVoted', op_index: opIndex, proposal_id: event.proposalId.toString(), voter: encodeAccount(event.voter), approve: event.approve, weight: event.weight.toString() };
    case 'ProposalExecuted':
      return { type: 'ProposalExecuted', op_index: opIndex, proposal_id: event.proposalId.toString(), executor: encodeAccount(event.executor), proposal_type: proposalTypeOf(event.proposalKind) };
    case 'ProposalCancelled':
      return { type: 'ProposalCancelled', op_index: opIndex, proposal_id: event.proposalId.toString(), proposer: encodeAccount(event.proposer) };
    case 'ChainParamChanged':
      return { type: 'ChainParamChanged', op_index: opIndex, proposal_id: event.proposalId.toString(), key: event.key, old_value: event.oldValue.toString(), new_value: event.newValue.toString() };
    case 'SafetyLevelSet':
      return {
        type: 'SafetyLevelSet', op_index: opIndex, proposal_id: event.proposalId.toString(),
        target: event.targetKind === 'collection' ? encodeCollection(event.target) : encodeHash(event.target), target_kind: event.targetKind,
        level: SAFETY_LEVELS[event.level] ?? String(event.level),
      };
    case 'KeyAdded':
    case 'KeyRemoved':
    case 'RecoverySet':
    case 'RecoveryInitiated':
    case 'RecoveryApproved':
    case 'RecoveryCancelled':
    case 'RecoveryFinalized':
    case 'MultiSigCreated':
    case 'MultiSigTxUpdated':
    case 'MultiSigTxExecuted':
      return formatAccountsEvent(event, opIndex);
    case 'UpgradeScheduled':
      return { type: 'UpgradeScheduled', op_index: opIndex, name: event.name, proposer: encodeAccount(event.proposer), height: Number(event.height), state: PLAN_STATES[event.state] ?? String(event.state) };
    case 'UpgradeVoted':
      return { type: 'UpgradeVoted', op_index: opIndex, name: event.name, voter: encodeAccount(event.voter), approve: event.approve, state: PLAN_STATES[event.state] ?? String(event.state) };
    case 'UpgradeCancelled':
      return { type: 'UpgradeCancelled', op_index: opIndex, name: event.name, by: encodeAccount(event.by) };
    case 'StableCreated':
      return {
        type: 'StableCreated', op_index: opIndex, mint: encodeMint(event.mint), owner: encodeAccount(event.owner), master_minter: encodeAccount(event.masterMinter),
        pauser: encodeAccount(event.pauser), blacklister: encodeAccount(event.blacklister),
      };
    case 'StableAdmin':
      return {
        type: 'StableAdmin', op_index: opIndex, mint: encodeMint(event.mint), by: encodeAccount(event.by), subject: encodeAccount(event.subject),
        action: STABLE_ADMIN_ACTIONS[event.action] ?? String(event.action), value: event.value,
      };
    case 'StablePending':
      return {
        type: 'StablePending', op_index: opIndex, mint: encodeMint(event.mint), by: encodeAccount(event.by), pending_id: event.pendingId.toString(),
        kind: STABLE_PENDING_KINDS[event.pendingKind] ?? String(event.pendingKind), outcome: STABLE_PENDING_OUTCOMES[event.outcome] ?? String(event.outcome),
        effective_height: Number(event.effectiveHeight),
      };
    case 'StableMinter':
      return {
        type: 'StableMinter', op_index: opIndex, mint: encodeMint(event.mint), by: encodeAccount(event.by), minter: encodeAccount(event.minter),
        action: (['added', 'removed', 'configured'] as const)[event.action] ?? 'configured', allowance: event.allowance.toString(), epoch_limit: event.epochLimit.toString(),
      };
    case 'StableIssuerProof':
      return {
        type: 'StableIssuerProof', op_index: opIndex, mint: encodeMint(event.mint), by: encodeAccount(event.by),
        method: ISSUER_PROOF_METHODS[event.method] ?? String(event.method),
        // the admin's EVM address, or the evidence digest (docs/stablecoins.md "Issuer onboarding")
        subject: event.method === 0 ? `0x${Buffer.from(event.subject.subarray(12)).toString('hex')}` : `0x${Buffer.from(event.subject).toString('hex')}`,
        proofs: event.proofs, verification_status: (['Pending', 'Verified', 'Issuer-Held'] as const)[event.verification] ?? String(event.verification),
      };
    case 'BridgeDeposited':
      return { type: 'BridgeDeposited', op_index: opIndex, deposit_id: encodeHash(event.depositId), recipient: encodeAccount(event.recipient), mint: encodeMint(event.mint), amount: event.amount.toString(), credited: event.credited };
    case 'BridgeWithdrawn':
      return { type: 'BridgeWithdrawn', op_index: opIndex, sequence: event.sequence.toString(), sender: encodeAccount(event.sender), mint: encodeMint(event.mint), amount: event.amount.toString(), fee: event.fee.toString() };
    case 'BridgeWithdrawalAttested':
      return { type: 'BridgeWithdrawalAttested', op_index: opIndex, sequence: event.sequence.toString() };
    case 'BridgeMappingRegistered':
      return { type: 'BridgeMappingRegistered', op_index: opIndex, target: encodeHash(event.target), mint: encodeMint(event.mint) };
    case 'BridgeAttestersSet':
      return { type: 'BridgeAttestersSet', op_index: opIndex, threshold: event.threshold, count: event.count };
    case 'DaoCreated':
      return { type: 'DaoCreated', op_index: opIndex, dao_address: encodeDao(event.dao), dao_id: event.daoId.toString(), creator: encodeAccount(event.creator), token_mint: encodeMint(event.tokenMint) };
    case 'DaoProposalEvent':
      return {
        type: 'DaoProposal', op_index: opIndex, dao_address: encodeDao(event.dao), proposal_id: event.proposalId.toString(), action: event.action,
        account: encodeAccount(event.account), amount: event.amount.toString(),
      };
    case 'Unknown':
      return undefined;
    case 'Staked': case 'Delegated': case 'Unstaked': case 'Undelegated': case 'UnstakeClaimed': case 'RewardsClaimed': case 'CommissionSet':
    case 'ValidatorUnjailed': case 'AutoCompoundSet': case 'PoolConfigSet': case 'ValidatorMetadataSet': case 'DoubleSignReported': case 'ConsensusKeyRotationQueued':
      return formatStakingEvent(event, opIndex);
  }
}

/** The proposal_type of a ProposalAction tag (docs/governance.md "Proposal types"). */
function proposalTypeOf(kind: number): string {
  const k = PROPOSAL_KINDS[kind];
  return k ? PROPOSAL_TYPES[k] : String(kind);
}

const KEY_TYPES = ['Ed25519', 'ML-DSA-65'];
const ROLES = ['owner', 'operator'];
const TX_ACTIONS = ['proposed', 'approved', 'revoked'] as const;

/** Receipt JSON of the accounts events (docs/accounts.md "Events"). */
function formatAccountsEvent(e: AccountsEvent, opIndex: number | null): ReceiptEvent {
  const account = encodeAccount(e.account);
  const hash = e.keyHash ? Buffer.from(e.keyHash).toString('hex') : undefined;
  const keyType = e.keyType !== undefined ? KEY_TYPES[e.keyType] ?? String(e.keyType) : undefined;
  switch (e.kind) {
    case 'KeyAdded':
      return { type: 'KeyAdded', op_index: opIndex, account, key_hash: hash!, key_type: keyType, role: ROLES[e.role!] ?? String(e.role) };
    case 'KeyRemoved':
      return { type: 'KeyRemoved', op_index: opIndex, account, key_hash: hash! };
    case 'RecoverySet':
      return { type: 'RecoverySet', op_index: opIndex, account, threshold: e.threshold!, guardians: e.count!, timelock: Number(e.value) };
    case 'RecoveryInitiated':
      return { type: 'RecoveryInitiated', op_index: opIndex, account, guardian: encodeAccount(e.actor!), key_hash: hash, key_type: keyType, executable_at: Number(e.value) };
    case 'RecoveryApproved':
      return { type: 'RecoveryApproved', op_index: opIndex, account, guardian: encodeAccount(e.actor!), approvals: e.count };
    case 'RecoveryCancelled':
      return { type: 'RecoveryCancelled', op_index: opIndex, account };
    case 'RecoveryFinalized':
      return { type: 'RecoveryFinalized', op_index: opIndex, account, key_hash: hash, key_type: keyType };
    case 'MultiSigCreated':
      return { type: 'MultiSigCreated', op_index: opIndex, multisig: encodeMultiSig(e.account), creator: encodeAccount(e.actor!), threshold: e.threshold!, signers: e.count! };
    case 'MultiSigTxUpdated':
      return { type: 'MultiSigTxUpdated', op_index: opIndex, multisig: encodeMultiSig(e.account), tx_id: e.value!.toString(), signer: encodeAccount(e.actor!), action: TX_ACTIONS[e.code!] ?? 'proposed', approvals: e.count! };
    case 'MultiSigTxExecuted':
      return { type: 'MultiSigTxExecuted', op_index: opIndex, multisig: encodeMultiSig(e.account), tx_id: e.value!.toString(), status_code: e.code!, status_name: statusOf(e.code!).name };
  }
}

/**
 * The schedule runs of a block (docs/intents.md "Schedules on chain"): each run's events (its
 * Fee, its operations' events) with its closing ScheduleRun, in block order. They belong to no
 * bundle, so no bundle receipt lists them.
 */
export function scheduleRunsOf(result: BlockResultView, tokens: TokenRegistry): Array<{ run: Extract<ReceiptEvent, { type: 'ScheduleRun' }>; events: ReceiptEvent[] }> {
  const pairs = poolPairs(result, tokens);
  const out: Array<{ run: Extract<ReceiptEvent, { type: 'ScheduleRun' }>; events: ReceiptEvent[] }> = [];
  let events: ReceiptEvent[] = [];
  for (const raw of result.scheduleRunEvents()) {
    const event = formatEvent(raw, raw.opIndex === BUNDLE_LEVEL_OP ? null : raw.opIndex, tokens, pairs);
    if (!event) continue;
    if (event.type === 'ScheduleRun') {
      out.push({ run: event, events });
      events = [];
    } else events.push(event);
  }
  return out;
}
