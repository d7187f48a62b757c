// Typed decoding of the core's events (docs/core-abi.md "Event kinds and data"). The field
// offsets below follow the rows of abi/events.mjs; roots.test.ts and the core tests pin them.

// Kinds, data lengths and the account fields the explorer indexes come from the ABI table
// (abi/events.mjs → src/abi/constants.ts; docs/core-abi.md "How the ABI is generated").
import {
  EventKind, EV_TRANSFER_BYTES, EV_TOKEN_CREATED_BYTES, EV_KEY_REGISTERED_BYTES, EV_FEE_BYTES, EV_POOL_CREATED_BYTES, EV_SWAP_BYTES, EV_COLLECTION_CREATED_BYTES, EV_NFT_TRANSFER_BYTES, EV_TOKEN_TYPE_DEFINED_BYTES, EV_LIQUIDITY_ADDED_BYTES, EV_TOKEN_METADATA_UPDATED_BYTES, EV_TOKEN_METADATA_LOCKED_BYTES,
  EV_SCHEDULE_RUN_BYTES, EV_SCHEDULE_CREATED_BYTES, EV_SCHEDULE_CANCELLED_BYTES, EV_APPROVAL_BYTES,
  EV_PROPOSAL_CREATED_BYTES, EV_PROPOSAL_VOTED_BYTES, EV_PROPOSAL_EXECUTED_BYTES, EV_PROPOSAL_CANCELLED_BYTES, EV_CHAIN_PARAM_CHANGED_BYTES,
  EV_SAFETY_LEVEL_SET_BYTES, EV_DAO_CREATED_BYTES, EV_DAO_PROPOSAL_BYTES,
  EV_PRESALE_CREATED_BYTES, EV_STAKING_POOL_CREATED_BYTES,
  EV_KEY_ADDED_BYTES, EV_KEY_REMOVED_BYTES, EV_RECOVERY_SET_BYTES, EV_RECOVERY_INITIATED_BYTES, EV_RECOVERY_APPROVED_BYTES,
  EV_RECOVERY_CANCELLED_BYTES, EV_RECOVERY_FINALIZED_BYTES, EV_MULTISIG_CREATED_BYTES, EV_MULTISIG_TX_UPDATED_BYTES, EV_MULTISIG_TX_EXECUTED_BYTES,
  EV_STABLE_CREATED_BYTES, EV_STABLE_ADMIN_BYTES, EV_STABLE_PENDING_BYTES, EV_STABLE_MINTER_BYTES, EV_STABLE_ISSUER_PROOF_BYTES,
} from '../abi/constants.js';
import { decodeStakingEventAt, isStakingEventKind, type StakingEvent } from './staking-events.js';

/**
 * The chain parameters a ParameterChange may set, in the order of its key (abi/operations.mjs
 * ProposalAction; docs/governance.md "Parameters").
 */
export const PARAMETER_KEYS = [
  'min_stake', 'unbonding_seconds', 'commission_cooldown_blocks', 'max_commission_bps', 'missed_skip_threshold', 'max_active_validators',
  'voting_period_blocks', 'quorum_bps', 'threshold_bps',
] as const;
export type ParameterKey = (typeof PARAMETER_KEYS)[number];

export { EventKind, LAST_KNOWN_KIND, ACCOUNT_FIELDS, BUNDLE_LEVEL_OP } from '../abi/constants.js';
/**
 * bundle_index of the events of a schedule run (assembly/ops/schedules.ts): they belong to no
 * bundle and come after every bundle's events in the block (docs/intents.md "Schedules on chain").
 */
export { SCHEDULE_RUN_INDEX } from '../abi/constants.js';

interface EventBase {
  bundleIndex: number;
  /** 0xFFFF for bundle-level events */
  opIndex: number;
}
export interface TransferEvent extends EventBase {
  kind: 'Transfer';
  from: Uint8Array;
  to: Uint8Array;
  token: Uint8Array;
  amount: bigint;
}
export interface TokenCreatedEvent extends EventBase {
  kind: 'TokenCreated';
  mint: Uint8Array;
  creator: Uint8Array;
  owner: Uint8Array;
  supply: bigint;
}
export interface KeyRegisteredEvent extends EventBase {
  kind: 'KeyRegistered';
  account: Uint8Array;
  keyHash: Uint8Array;
  keyType: number;
}
export interface FeeEvent extends EventBase {
  kind: 'Fee';
  payer: Uint8Array;
  proposer: Uint8Array;
  toProposer: bigint;
  treasury: Uint8Array;
  toTreasury: bigint;
}
export interface UnknownEvent extends EventBase {
  kind: 'Unknown';
  code: number;
  data: Uint8Array;
}
/** DEX events (docs/dex.md "Events"); token0 < token1 bytewise, amounts in that order. */
export interface PoolCreatedEvent extends EventBase {
  kind: 'PoolCreated';
  pool: Uint8Array;
  token0: Uint8Array;
  token1: Uint8Array;
  creator: Uint8Array;
  amount0: bigint;
  amount1: bigint;
  lpSupply: bigint;
  lockUntil: bigint;
  fee: bigint;
}
export interface LiquidityEvent extends EventBase {
  kind: 'LiquidityAdded' | 'LiquidityRemoved';
  pool: Uint8Array;
  provider: Uint8Array;
  amount0: bigint;
  amount1: bigint;
  lp: bigint;
}
export interface SwapEvent extends EventBase {
  kind: 'Swap';
  pool: Uint8Array;
  trader: Uint8Array;
  tokenIn: Uint8Array;
  amountIn: bigint;
  amountOut: bigint;
  reserve0: bigint;
  reserve1: bigint;
}
export interface TokenMetadataEvent extends EventBase {
  kind: 'TokenMetadataUpdated' | 'TokenMetadataLocked';
  mint: Uint8Array;
  creator: Uint8Array;
  /** bit i: metadata field i was given (Updated only; 0 for Locked) */
  fieldsSet: number;
}
/** Collections (docs/collections.md "Events"); a zero `from` is a mint, a zero `to` a burn. */
export interface CollectionCreatedEvent extends EventBase {
  kind: 'CollectionCreated';
  collection: Uint8Array;
  /** 0 NFT, 1 multi-token */
  collectionKind: number;
  owner: Uint8Array;
  creator: Uint8Array;
}
export interface NftTransferEvent extends EventBase {
  kind: 'NftTransfer';
  collection: Uint8Array;
  from: Uint8Array;
  to: Uint8Array;
  tokenId: bigint;
}
export interface TokenTypeDefinedEvent extends EventBase {
  kind: 'TokenTypeDefined';
  collection: Uint8Array;
  typeId: bigint;
  maxSupply: bigint;
  isFungible: boolean;
}
export interface MultiTransferEvent extends EventBase {
  kind: 'MultiTransfer';
  /** ERC-1155 TransferSingle (one entry) or TransferBatch */
  batch: boolean;
  collection: Uint8Array;
  operator: Uint8Array;
  from: Uint8Array;
  to: Uint8Array;
  entries: Array<{ typeId: bigint; amount: bigint }>;
}
/** RegisterProgram: owner[32] revision u32 hash[32] name (the rest). */
export interface ProgramRegisteredEvent extends EventBase {
  kind: 'ProgramRegistered';
  owner: Uint8Array;
  revision: number;
  /** Blake3 of the program JSON as stored */
  hash: Uint8Array;
  name: string;
}
/** ScheduleRun: id[32] owner[32] run u32 status u16 gas u64 fee u128; closes the run's events. */
export interface ScheduleRunEvent extends EventBase {
  kind: 'ScheduleRun';
  scheduleId: Uint8Array;
  owner: Uint8Array;
  run: number;
  status: number;
  gasUsed: bigint;
  fee: bigint;
}
/** ScheduleCreated: id[32] owner[32] kind u8 (0 Recurring, 1 Conditional) next_due u64. */
export interface ScheduleCreatedEvent extends EventBase {
  kind: 'ScheduleCreated';
  scheduleId: Uint8Array;
  owner: Uint8Array;
  scheduleKind: 'Recurring' | 'Conditional';
  nextDue: bigint;
}
/** ScheduleCancelled: id[32] owner[32]. */
export interface ScheduleCancelledEvent extends EventBase {
  kind: 'ScheduleCancelled';
  scheduleId: Uint8Array;
  owner: Uint8Array;
}
/** ERC-20 allowances (docs/allowances.md): the allowance an Approve set; a TransferFrom emits Transfer. */
export interface ApprovalEvent extends EventBase {
  kind: 'Approval';
  owner: Uint8Array;
  spender: Uint8Array;
  token: Uint8Array;
  amount: bigint;
}
/** Protocol proposals (docs/governance.md "Events"). */
export interface ProposalCreatedEvent extends EventBase {
  kind: 'ProposalCreated';
  proposalId: bigint;
  proposer: Uint8Array;
  /** the ProposalAction tag */
  proposalKind: number;
  endHeight: bigint;
}
export interface ProposalVotedEvent extends EventBase {
  kind: 'ProposalVoted';
  proposalId: bigint;
  voter: Uint8Array;
  approve: boolean;
  weight: bigint;
}
export interface ProposalExecutedEvent extends EventBase {
  kind: 'ProposalExecuted';
  proposalId: bigint;
  executor: Uint8Array;
  proposalKind: number;
}
export interface ProposalCancelledEvent extends EventBase {
  kind: 'ProposalCancelled';
  proposalId: bigint;
  proposer: Uint8Array;
}
export interface ChainParamChangedEvent extends EventBase {
  kind: 'ChainParamChanged';
  proposalId: bigint;
  key: ParameterKey;
  oldValue: bigint;
  newValue: bigint;
}
export interface SafetyLevelSetEvent extends EventBase {
  kind: 'SafetyLevelSet';
  proposalId: bigint;
  /** a collection address, or the contract's Blake3 target (docs/governance.md "Safety levels") */
  target: Uint8Array;
  targetKind: 'contract' | 'collection';
  level: number;
}
/** DAOs (docs/governance.md "DAOs"): a DAO created, and each step of a DAO proposal. */
export interface DaoCreatedEvent extends EventBase {
  kind: 'DaoCreated';
  dao: Uint8Array;
  creator: Uint8Array;
  tokenMint: Uint8Array;
  daoId: bigint;
}
/** The DaoProposalEvent actions in their u8 order (assembly/ops/dao.ts). */
export const DAO_EVENT_ACTIONS = ['proposed', 'voted_yes', 'voted_no', 'executed', 'cancelled', 'unlocked'] as const;
export interface DaoProposalEvent extends EventBase {
  kind: 'DaoProposalEvent';
  dao: Uint8Array;
  proposalId: bigint;
  action: (typeof DAO_EVENT_ACTIONS)[number];
  account: Uint8Array;
  /** the tokens locked (a vote) or returned (an unlock); 0 otherwise */
  amount: bigint;
}
export type GovernanceEvent = DaoCreatedEvent | DaoProposalEvent | ProposalCreatedEvent | ProposalVotedEvent | ProposalExecutedEvent | ProposalCancelledEvent | ChainParamChangedEvent | SafetyLevelSetEvent;
/** Presales and staking pools (docs/presales.md, docs/staking-pools.md): the new record's address and its two tokens. */
export interface PresaleCreatedEvent extends EventBase {
  kind: 'PresaleCreated';
  presale: Uint8Array;
  creator: Uint8Array;
  token: Uint8Array;
  payToken: Uint8Array;
}
export interface StakingPoolCreatedEvent extends EventBase {
  kind: 'StakingPoolCreated';
  pool: Uint8Array;
  creator: Uint8Array;
  stakeMint: Uint8Array;
  rewardMint: Uint8Array;
}
/**
 * Accounts, recovery and multi-sig (docs/accounts.md "Events"), kinds 35–44. `account` is the
 * account (or the multi-sig) the event is about; `actor` the guardian, creator or signer.
 */
export interface AccountsEvent extends EventBase {
  kind: 'KeyAdded' | 'KeyRemoved' | 'RecoverySet' | 'RecoveryInitiated' | 'RecoveryApproved' | 'RecoveryCancelled' | 'RecoveryFinalized'
    | 'MultiSigCreated' | 'MultiSigTxUpdated' | 'MultiSigTxExecuted';
  account: Uint8Array;
  actor?: Uint8Array;
  keyHash?: Uint8Array;
  keyType?: number;
  role?: number;
  /** recovery or multi-sig threshold; approvals so far for RecoveryApproved and MultiSigTxUpdated */
  count?: number;
  threshold?: number;
  /** RecoverySet: the timelock; RecoveryInitiated: when it can be finalized; MultiSigTx*: the tx id */
  value?: bigint;
  /** MultiSigTxUpdated: 0 proposed, 1 approved, 2 revoked; MultiSigTxExecuted: the status */
  code?: number;
}

/** Upgrade governance (docs/upgrades.md "Events"): the plan's name fills the rest of the data. */
export interface UpgradeScheduledEvent extends EventBase {
  kind: 'UpgradeScheduled';
  proposer: Uint8Array;
  height: bigint;
  /** the plan's state after scheduling: 0 pending, 1 approved */
  state: number;
  name: string;
}
export interface UpgradeVotedEvent extends EventBase {
  kind: 'UpgradeVoted';
  voter: Uint8Array;
  approve: boolean;
  /** the plan's state after the vote (0 pending, 1 approved, 2 rejected) */
  state: number;
  name: string;
}
export interface UpgradeCancelledEvent extends EventBase {
  kind: 'UpgradeCancelled';
  by: Uint8Array;
  name: string;
}
/** The bridge (docs/bridge.md "Events"); its mints and burns are Transfer events from and to zero. */
export interface BridgeDepositedEvent extends EventBase { kind: 'BridgeDeposited'; depositId: Uint8Array; recipient: Uint8Array; mint: Uint8Array; amount: bigint; credited: boolean }
export interface BridgeWithdrawnEvent extends EventBase { kind: 'BridgeWithdrawn'; sequence: bigint; sender: Uint8Array; mint: Uint8Array; amount: bigint; fee: bigint }
export interface BridgeWithdrawalAttestedEvent extends EventBase { kind: 'BridgeWithdrawalAttested'; sequence: bigint }
export interface BridgeMappingRegisteredEvent extends EventBase { kind: 'BridgeMappingRegistered'; target: Uint8Array; mint: Uint8Array }
export interface BridgeAttestersSetEvent extends EventBase { kind: 'BridgeAttestersSet'; threshold: number; count: number }
export type BridgeEvent = BridgeDepositedEvent | BridgeWithdrawnEvent | BridgeWithdrawalAttestedEvent | BridgeMappingRegisteredEvent | BridgeAttestersSetEvent;
/** STD-8 stablecoins (docs/stablecoins.md "Events"). */
export interface StableCreatedEvent extends EventBase {
  kind: 'StableCreated';
  mint: Uint8Array;
  owner: Uint8Array;
  masterMinter: Uint8Array;
  pauser: Uint8Array;
  blacklister: Uint8Array;
}
/** action: STABLE_ADMIN_ACTIONS[action]; value: the flag set (pause, blacklist add, freeze), the role index, a count. */
export interface StableAdminEvent extends EventBase {
  kind: 'StableAdmin';
  mint: Uint8Array;
  by: Uint8Array;
  subject: Uint8Array;
  action: number;
  value: number;
}
export interface StablePendingEvent extends EventBase {
  kind: 'StablePending';
  mint: Uint8Array;
  by: Uint8Array;
  pendingId: bigint;
  pendingKind: number;
  /** 0 queued, 1 executed, 2 cancelled, 3 approved (a cosigner's approval short of the threshold) */
  outcome: number;
  effectiveHeight: bigint;
}
export interface StableMinterEvent extends EventBase {
  kind: 'StableMinter';
  mint: Uint8Array;
  by: Uint8Array;
  minter: Uint8Array;
  /** 0 added (the timelocked addition executed), 1 removed, 2 configured */
  action: number;
  allowance: bigint;
  epochLimit: bigint;
}
/** An issuer-onboarding proof recorded (docs/stablecoins.md "Issuer onboarding"). */
export interface StableIssuerProofEvent extends EventBase {
  kind: 'StableIssuerProof';
  mint: Uint8Array;
  by: Uint8Array;
  /** admin_signature: the admin EVM address in the last 20 bytes; otherwise the evidence digest */
  subject: Uint8Array;
  /** 0 admin_signature, 1 domain, 2 documents */
  method: number;
  /** distinct proofs recorded now (two make the issuer Verified) */
  proofs: number;
  /** StableCoin.verification after the proof */
  verification: number;
}
/** StableIssuerProof.method names (abi/operations.mjs). */
export const ISSUER_PROOF_METHODS = ['admin_signature', 'domain', 'documents'] as const;
/** StableAdmin.action names (docs/stablecoins.md "Events"). */
export const STABLE_ADMIN_ACTIONS = ['pause', 'blacklist', 'mint_freeze', 'guardians', 'security', 'supply_cap', 'issuer_verified', 'role_applied'] as const;
/** StablePending kind and outcome names. */
export const STABLE_PENDING_KINDS = ['role_change', 'minter_addition', 'handover', 'mint'] as const;
export const STABLE_PENDING_OUTCOMES = ['queued', 'executed', 'cancelled', 'approved'] as const;

export type CoreEvent = StakingEvent | BridgeEvent | AccountsEvent | GovernanceEvent | PresaleCreatedEvent | StakingPoolCreatedEvent | UpgradeScheduledEvent | UpgradeVotedEvent | UpgradeCancelledEvent | StableCreatedEvent | StableAdminEvent | StablePendingEvent | StableMinterEvent | StableIssuerProofEvent | ApprovalEvent | ScheduleRunEvent | ScheduleCreatedEvent | ScheduleCancelledEvent | ProgramRegisteredEvent | TransferEvent | TokenCreatedEvent | KeyRegisteredEvent | FeeEvent | PoolCreatedEvent | LiquidityEvent | SwapEvent
  | TokenMetadataEvent | CollectionCreatedEvent | NftTransferEvent | TokenTypeDefinedEvent | MultiTransferEvent | UnknownEvent;

/**
 * The u128 at `o` as its decimal text (a receipt's amounts): read as a double when below 2^53, which
 * prints the same digits as the bigint, without making one.
 */
export function u128DecimalAt(dv: DataView, o: number): string {
  const w1 = dv.getUint32(o + 4, true);
  if (w1 < 0x20_0000 && dv.getUint32(o + 8, true) === 0 && dv.getUint32(o + 12, true) === 0) return String(w1 * 0x1_0000_0000 + dv.getUint32(o, true));
  return u128(dv, o).toString();
}

function u128(dv: DataView, o: number): bigint {
  const lo = dv.getBigUint64(o, true);
  const hi = dv.getBigUint64(o + 8, true);
  return hi === 0n ? lo : lo | (hi << 64n);
}

/**
 * Interns the 32-byte fields of a block's events: the proposer, the treasury, a bundle's sender and
 * the common tokens repeat across tens of thousands of events, and a typed-array view costs ~100 ns
 * plus GC, so equal values share one read-only Uint8Array.
 */
export class Bytes32Interner {
  private readonly slots: Uint8Array[] = [];
  private next = 0;
  constructor(private readonly size = 8) {}
  get(b: Uint8Array, o: number): Uint8Array {
    const slots = this.slots;
    for (let s = 0; s < slots.length; s++) {
      const c = slots[s]!;
      let i = 31;
      while (i >= 0 && c[i] === b[o + i]) i--;
      if (i < 0) return c;
    }
    const v = b.subarray(o, o + 32);
    if (slots.length < this.size) slots.push(v);
    else {
      slots[this.next] = v;
      this.next = (this.next + 1) % this.size;
    }
    return v;
  }
}

const noIntern = { get: (b: Uint8Array, o: number) => b.subarray(o, o + 32) };

/**
 * Decode the event whose data is b[o, o+len) (views into b; dv is a DataView over the same bytes as
 * b). Plain object literals, no spreads: a block carries tens of thousands of events.
 */
export function decodeEventAt(b: Uint8Array, dv: DataView, o: number, len: number, bundleIndex: number, opIndex: number, kind: number, ids: { get(b: Uint8Array, o: number): Uint8Array } = noIntern): CoreEvent {
  switch (kind) {
    case EventKind.Transfer:
      if (len === EV_TRANSFER_BYTES)
        return { bundleIndex, opIndex, kind: 'Transfer', from: ids.get(b, o), to: b.subarray(o + 32, o + 64), token: ids.get(b, o + 64), amount: u128(dv, o + 96) };
      break;
    case EventKind.TokenCreated:
      if (len === EV_TOKEN_CREATED_BYTES)
        return { bundleIndex, opIndex, kind: 'TokenCreated', mint: b.subarray(o, o + 32), creator: b.subarray(o + 32, o + 64), owner: b.subarray(o + 64, o + 96), supply: u128(dv, o + 96) };
      break;
    case EventKind.KeyRegistered:
      if (len === EV_KEY_REGISTERED_BYTES) return { bundleIndex, opIndex, kind: 'KeyRegistered', account: b.subarray(o, o + 32), keyHash: b.subarray(o + 32, o + 64), keyType: b[o + 64]! };
      break;
    case EventKind.Fee:
      if (len === EV_FEE_BYTES)
        return {
          bundleIndex,
          opIndex,
          kind: 'Fee',
          payer: ids.get(b, o),
          proposer: ids.get(b, o + 32),
          toProposer: u128(dv, o + 64),
          treasury: ids.get(b, o + 80),
          toTreasury: u128(dv, o + 112),
        };
      break;
    case EventKind.PoolCreated:
      if (len === EV_POOL_CREATED_BYTES)
        return {
          bundleIndex, opIndex, kind: 'PoolCreated', pool: b.subarray(o, o + 32), token0: b.subarray(o + 32, o + 64), token1: b.subarray(o + 64, o + 96),
          creator: b.subarray(o + 96, o + 128), amount0: u128(dv, o + 128), amount1: u128(dv, o + 144), lpSupply: u128(dv, o + 160),
          lockUntil: dv.getBigUint64(o + 176, true), fee: u128(dv, o + 184),
        };
      break;
    case EventKind.LiquidityAdded:
    case EventKind.LiquidityRemoved:
      if (len === EV_LIQUIDITY_ADDED_BYTES) // = EV_LIQUIDITY_REMOVED_BYTES
        return {
          bundleIndex, opIndex, kind: kind === EventKind.LiquidityAdded ? 'LiquidityAdded' : 'LiquidityRemoved', pool: b.subarray(o, o + 32),
          provider: b.subarray(o + 32, o + 64), amount0: u128(dv, o + 64), amount1: u128(dv, o + 80), lp: u128(dv, o + 96),
        };
      break;
    case EventKind.Swap:
      if (len === EV_SWAP_BYTES)
        return {
          bundleIndex, opIndex, kind: 'Swap', pool: b.subarray(o, o + 32), trader: b.subarray(o + 32, o + 64), tokenIn: b.subarray(o + 64, o + 96),
          amountIn: u128(dv, o + 96), amountOut: u128(dv, o + 112), reserve0: u128(dv, o + 128), reserve1: u128(dv, o + 144),
        };
      break;
    case EventKind.TokenMetadataUpdated:
    case EventKind.TokenMetadataLocked:
      if (len === (kind === EventKind.TokenMetadataUpdated ? EV_TOKEN_METADATA_UPDATED_BYTES : EV_TOKEN_METADATA_LOCKED_BYTES))
        return {
          bundleIndex, opIndex, kind: kind === EventKind.TokenMetadataUpdated ? 'TokenMetadataUpdated' : 'TokenMetadataLocked',
          mint: b.subarray(o, o + 32), creator: b.subarray(o + 32, o + 64), fieldsSet: kind === EventKind.TokenMetadataUpdated ? b[o + 64]! : 0,
        };
      break;
    case EventKind.CollectionCreated:
      if (len === EV_COLLECTION_CREATED_BYTES)
        return { bundleIndex, opIndex, kind: 'CollectionCreated', collection: b.subarray(o, o + 32), collectionKind: b[o + 32]!, owner: b.subarray(o + 33, o + 65), creator: b.subarray(o + 65, o + 97) };
      break;
    case EventKind.NftTransfer:
      if (len === EV_NFT_TRANSFER_BYTES)
        return { bundleIndex, opIndex, kind: 'NftTransfer', collection: b.subarray(o, o + 32), from: b.subarray(o + 32, o + 64), to: b.subarray(o + 64, o + 96), tokenId: dv.getBigUint64(o + 96, true) };
      break;
    case EventKind.TokenTypeDefined:
      if (len === EV_TOKEN_TYPE_DEFINED_BYTES)
        return { bundleIndex, opIndex, kind: 'TokenTypeDefined', collection: b.subarray(o, o + 32), typeId: dv.getBigUint64(o + 32, true), maxSupply: u128(dv, o + 40), isFungible: b[o + 56] === 1 };
      break;
    case EventKind.MultiTransferSingle:
    case EventKind.MultiTransferBatch: {
      const batch = kind === EventKind.MultiTransferBatch;
      const count = batch ? (len >= 132 ? dv.getUint32(o + 128, true) : -1) : 1;
      const first = o + (batch ? 132 : 128);
      if (count < 0 || len !== first - o + count * 24) break;
      const entries: Array<{ typeId: bigint; amount: bigint }> = [];
      for (let i = 0; i < count; i++) entries.push({ typeId: dv.getBigUint64(first + i * 24, true), amount: u128(dv, first + i * 24 + 8) });
      return {
        bundleIndex, opIndex, kind: 'MultiTransfer', batch, collection: b.subarray(o, o + 32), operator: b.subarray(o + 32, o + 64),
        from: b.subarray(o + 64, o + 96), to: b.subarray(o + 96, o + 128), entries,
      };
    }
    case EventKind.ProgramRegistered:
      if (len >= 71 && len <= 132)
        return {
          bundleIndex, opIndex, kind: 'ProgramRegistered', owner: b.subarray(o, o + 32), revision: dv.getUint32(o + 32, true),
          hash: b.subarray(o + 36, o + 68), name: Buffer.from(b.subarray(o + 68, o + len)).toString('latin1'),
        };
      break;
    case EventKind.ScheduleRun:
      if (len === EV_SCHEDULE_RUN_BYTES)
        return {
          bundleIndex, opIndex, kind: 'ScheduleRun', scheduleId: b.subarray(o, o + 32), owner: b.subarray(o + 32, o + 64), run: dv.getUint32(o + 64, true),
          status: dv.getUint16(o + 68, true), gasUsed: dv.getBigUint64(o + 70, true), fee: u128(dv, o + 78),
        };
      break;
    case EventKind.ScheduleCreated:
      if (len === EV_SCHEDULE_CREATED_BYTES)
        return {
          bundleIndex, opIndex, kind: 'ScheduleCreated', scheduleId: b.subarray(o, o + 32), owner: b.subarray(o + 32, o + 64),
          scheduleKind: b[o + 64] === 0 ? 'Recurring' : 'Conditional', nextDue: dv.getBigUint64(o + 65, true),
        };
      break;
    case EventKind.ScheduleCancelled:
      if (len === EV_SCHEDULE_CANCELLED_BYTES) return { bundleIndex, opIndex, kind: 'ScheduleCancelled', scheduleId: b.subarray(o, o + 32), owner: b.subarray(o + 32, o + 64) };
      break;
    case EventKind.PresaleCreated:
      if (len === EV_PRESALE_CREATED_BYTES) {
        return { bundleIndex, opIndex, kind: 'PresaleCreated', presale: b.subarray(o, o + 32), creator: b.subarray(o + 32, o + 64), token: b.subarray(o + 64, o + 96), payToken: b.subarray(o + 96, o + 128) };
      }
      break;
    case EventKind.StakingPoolCreated:
      if (len === EV_STAKING_POOL_CREATED_BYTES) {
        return { bundleIndex, opIndex, kind: 'StakingPoolCreated', pool: b.subarray(o, o + 32), creator: b.subarray(o + 32, o + 64), stakeMint: b.subarray(o + 64, o + 96), rewardMint: b.subarray(o + 96, o + 128) };
      }
      break;
    case EventKind.Approval:
      if (len === EV_APPROVAL_BYTES)
        return { bundleIndex, opIndex, kind: 'Approval', owner: b.subarray(o, o + 32), spender: b.subarray(o + 32, o + 64), token: b.subarray(o + 64, o + 96), amount: u128(dv, o + 96) };
      break;
    case EventKind.ProposalCreated:
      if (len === EV_PROPOSAL_CREATED_BYTES)
        return { bundleIndex, opIndex, kind: 'ProposalCreated', proposalId: dv.getBigUint64(o, true), proposer: b.subarray(o + 8, o + 40), proposalKind: b[o + 40]!, endHeight: dv.getBigUint64(o + 41, true) };
      break;
    case EventKind.ProposalVoted:
      if (len === EV_PROPOSAL_VOTED_BYTES)
        return { bundleIndex, opIndex, kind: 'ProposalVoted', proposalId: dv.getBigUint64(o, true), voter: b.subarray(o + 8, o + 40), approve: b[o + 40] === 1, weight: u128(dv, o + 41) };
      break;
    case EventKind.ProposalExecuted:
      if (len === EV_PROPOSAL_EXECUTED_BYTES)
        return { bundleIndex, opIndex, kind: 'ProposalExecuted', proposalId: dv.getBigUint64(o, true), executor: b.subarray(o + 8, o + 40), proposalKind: b[o + 40]! };
      break;
    case EventKind.ProposalCancelled:
      if (len === EV_PROPOSAL_CANCELLED_BYTES) return { bundleIndex, opIndex, kind: 'ProposalCancelled', proposalId: dv.getBigUint64(o, true), proposer: b.subarray(o + 8, o + 40) };
      break;
    case EventKind.ChainParamChanged:
      if (len === EV_CHAIN_PARAM_CHANGED_BYTES && b[o + 8]! < PARAMETER_KEYS.length)
        return { bundleIndex, opIndex, kind: 'ChainParamChanged', proposalId: dv.getBigUint64(o, true), key: PARAMETER_KEYS[b[o + 8]!]!, oldValue: u128(dv, o + 9), newValue: u128(dv, o + 25) };
      break;
    case EventKind.DaoCreated:
      if (len === EV_DAO_CREATED_BYTES)
        return { bundleIndex, opIndex, kind: 'DaoCreated', dao: b.subarray(o, o + 32), creator: b.subarray(o + 32, o + 64), tokenMint: b.subarray(o + 64, o + 96), daoId: dv.getBigUint64(o + 96, true) };
      break;
    case EventKind.DaoProposalEvent:
      if (len === EV_DAO_PROPOSAL_BYTES && b[o + 40]! < DAO_EVENT_ACTIONS.length)
        return { bundleIndex, opIndex, kind: 'DaoProposalEvent', dao: b.subarray(o, o + 32), proposalId: dv.getBigUint64(o + 32, true), action: DAO_EVENT_ACTIONS[b[o + 40]!]!, account: b.subarray(o + 41, o + 73), amount: u128(dv, o + 73) };
      break;
    case EventKind.SafetyLevelSet:
      if (len === EV_SAFETY_LEVEL_SET_BYTES)
        return { bundleIndex, opIndex, kind: 'SafetyLevelSet', proposalId: dv.getBigUint64(o, true), target: b.subarray(o + 8, o + 40), targetKind: b[o + 40] === 0 ? 'contract' : 'collection', level: b[o + 41]! };
      break;
    // Accounts, recovery and multi-sig (docs/accounts.md "Events")
    case EventKind.KeyAdded:
      if (len === EV_KEY_ADDED_BYTES) return { bundleIndex, opIndex, kind: 'KeyAdded', account: b.subarray(o, o + 32), keyHash: b.subarray(o + 32, o + 64), keyType: b[o + 64]!, role: b[o + 65]! };
      break;
    case EventKind.KeyRemoved:
      if (len === EV_KEY_REMOVED_BYTES) return { bundleIndex, opIndex, kind: 'KeyRemoved', account: b.subarray(o, o + 32), keyHash: b.subarray(o + 32, o + 64) };
      break;
    case EventKind.RecoverySet:
      if (len === EV_RECOVERY_SET_BYTES) return { bundleIndex, opIndex, kind: 'RecoverySet', account: b.subarray(o, o + 32), threshold: b[o + 32]!, count: b[o + 33]!, value: dv.getBigUint64(o + 34, true) };
      break;
    case EventKind.RecoveryInitiated:
      if (len === EV_RECOVERY_INITIATED_BYTES)
        return { bundleIndex, opIndex, kind: 'RecoveryInitiated', account: b.subarray(o, o + 32), actor: b.subarray(o + 32, o + 64), keyHash: b.subarray(o + 64, o + 96), keyType: b[o + 96]!, value: dv.getBigUint64(o + 97, true) };
      break;
    case EventKind.RecoveryApproved:
      if (len === EV_RECOVERY_APPROVED_BYTES) return { bundleIndex, opIndex, kind: 'RecoveryApproved', account: b.subarray(o, o + 32), actor: b.subarray(o + 32, o + 64), count: b[o + 64]! };
      break;
    case EventKind.RecoveryCancelled:
      if (len === EV_RECOVERY_CANCELLED_BYTES) return { bundleIndex, opIndex, kind: 'RecoveryCancelled', account: b.subarray(o, o + 32) };
      break;
    case EventKind.RecoveryFinalized:
      if (len === EV_RECOVERY_FINALIZED_BYTES) return { bundleIndex, opIndex, kind: 'RecoveryFinalized', account: b.subarray(o, o + 32), keyHash: b.subarray(o + 32, o + 64), keyType: b[o + 64]! };
      break;
    case EventKind.MultiSigCreated:
      if (len === EV_MULTISIG_CREATED_BYTES) return { bundleIndex, opIndex, kind: 'MultiSigCreated', account: b.subarray(o, o + 32), actor: b.subarray(o + 32, o + 64), threshold: b[o + 64]!, count: b[o + 65]! };
      break;
    case EventKind.MultiSigTxUpdated:
      if (len === EV_MULTISIG_TX_UPDATED_BYTES)
        return { bundleIndex, opIndex, kind: 'MultiSigTxUpdated', account: b.subarray(o, o + 32), value: dv.getBigUint64(o + 32, true), actor: b.subarray(o + 40, o + 72), code: b[o + 72]!, count: b[o + 73]! };
      break;
    case EventKind.MultiSigTxExecuted:
      if (len === EV_MULTISIG_TX_EXECUTED_BYTES) return { bundleIndex, opIndex, kind: 'MultiSigTxExecuted', account: b.subarray(o, o + 32), value: dv.getBigUint64(o + 32, true), code: dv.getUint16(o + 40, true) };
      break;
    case EventKind.UpgradeScheduled:
      if (len > 41)
        return { bundleIndex, opIndex, kind: 'UpgradeScheduled', proposer: b.subarray(o, o + 32), height: dv.getBigUint64(o + 32, true), state: b[o + 40]!, name: latin1(b, o + 41, o + len) };
      break;
    case EventKind.UpgradeVoted:
      if (len > 34) return { bundleIndex, opIndex, kind: 'UpgradeVoted', voter: b.subarray(o, o + 32), approve: b[o + 32] === 1, state: b[o + 33]!, name: latin1(b, o + 34, o + len) };
      break;
    case EventKind.UpgradeCancelled:
      if (len > 32) return { bundleIndex, opIndex, kind: 'UpgradeCancelled', by: b.subarray(o, o + 32), name: latin1(b, o + 32, o + len) };
      break;
    case EventKind.StableCreated:
      if (len === EV_STABLE_CREATED_BYTES)
        return {
          bundleIndex, opIndex, kind: 'StableCreated', mint: b.subarray(o, o + 32), owner: b.subarray(o + 32, o + 64), masterMinter: b.subarray(o + 64, o + 96),
          pauser: b.subarray(o + 96, o + 128), blacklister: b.subarray(o + 128, o + 160),
        };
      break;
    case EventKind.StableAdmin:
      if (len === EV_STABLE_ADMIN_BYTES)
        return { bundleIndex, opIndex, kind: 'StableAdmin', mint: b.subarray(o, o + 32), by: b.subarray(o + 32, o + 64), subject: b.subarray(o + 64, o + 96), action: b[o + 96]!, value: b[o + 97]! };
      break;
    case EventKind.StablePending:
      if (len === EV_STABLE_PENDING_BYTES)
        return {
          bundleIndex, opIndex, kind: 'StablePending', mint: b.subarray(o, o + 32), by: b.subarray(o + 32, o + 64), pendingId: dv.getBigUint64(o + 64, true),
          pendingKind: b[o + 72]!, outcome: b[o + 73]!, effectiveHeight: dv.getBigUint64(o + 74, true),
        };
      break;
    case EventKind.StableMinter:
      if (len === EV_STABLE_MINTER_BYTES)
        return {
          bundleIndex, opIndex, kind: 'StableMinter', mint: b.subarray(o, o + 32), by: b.subarray(o + 32, o + 64), minter: b.subarray(o + 64, o + 96),
          action: b[o + 96]!, allowance: u128(dv, o + 97), epochLimit: u128(dv, o + 113),
        };
      break;
    case EventKind.StableIssuerProof:
      if (len === EV_STABLE_ISSUER_PROOF_BYTES)
        return {
          bundleIndex, opIndex, kind: 'StableIssuerProof', mint: b.subarray(o, o + 32), by: b.subarray(o + 32, o + 64), subject: b.subarray(o + 64, o + 96),
          method: b[o + 96]!, proofs: b[o + 97]!, verification: b[o + 98]!,
        };
      break;
    case EventKind.BridgeDeposited:
      if (len === 113) return { bundleIndex, opIndex, kind: 'BridgeDeposited', depositId: b.subarray(o, o + 32), recipient: b.subarray(o + 32, o + 64), mint: b.subarray(o + 64, o + 96), amount: u128(dv, o + 96), credited: b[o + 112] === 1 };
      break;
    case EventKind.BridgeWithdrawn:
      if (len === 104) return { bundleIndex, opIndex, kind: 'BridgeWithdrawn', sequence: dv.getBigUint64(o, true), sender: b.subarray(o + 8, o + 40), mint: b.subarray(o + 40, o + 72), amount: u128(dv, o + 72), fee: u128(dv, o + 88) };
      break;
    case EventKind.BridgeWithdrawalAttested:
      if (len === 8) return { bundleIndex, opIndex, kind: 'BridgeWithdrawalAttested', sequence: dv.getBigUint64(o, true) };
      break;
    case EventKind.BridgeMappingRegistered:
      if (len === 64) return { bundleIndex, opIndex, kind: 'BridgeMappingRegistered', target: b.subarray(o, o + 32), mint: b.subarray(o + 32, o + 64) };
      break;
    case EventKind.BridgeAttestersSet:
      if (len === 2) return { bundleIndex, opIndex, kind: 'BridgeAttestersSet', threshold: b[o]!, count: b[o + 1]! };
      break;
  }
  if (isStakingEventKind(kind)) {
    const staking = decodeStakingEventAt(b, dv, o, len, bundleIndex, opIndex, kind);
    if (staking) return staking;
  }
  return { bundleIndex, opIndex, kind: 'Unknown', code: kind, data: b.subarray(o, o + len) };
}

/** An upgrade name ([A-Za-z0-9._-], ASCII) from event bytes. */
function latin1(b: Uint8Array, from: number, to: number): string {
  return Buffer.from(b.buffer, b.byteOffset + from, to - from).toString('latin1');
}

/** Decode one event's data by kind. Byte fields are views into `data` (read-only). */
export function decodeEvent(bundleIndex: number, opIndex: number, kind: number, data: Uint8Array): CoreEvent {
  return decodeEventAt(data, new DataView(data.buffer, data.byteOffset, data.byteLength), 0, data.length, bundleIndex, opIndex, kind);
}
