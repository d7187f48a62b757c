import { BorshReader, BorshWriter, CodecError } from './borsh.js';
import { isCollectionOp, readCollectionOperation, writeCollectionOperation, type CollectionOperation } from './collection-ops.js';

/**
 * Operation variants and their Borsh layout (docs/bundle-format.md "Operation", facts.md
 * "Transaction bundle"). Discriminants are stable forever once released; the collection operations
 * 37–47 live in collection-ops.ts (docs/nfts.md). Reserved numbers (15–27, 49–118) have no layout
 * yet (15–27, 51–118), so the decoder refuses them as unknown; an operation that lands adds its case here and in
 * the core in the same change.
 *
 * Only the Borsh shape is checked here. Semantic ranges (decimals 0–18, symbol characters, name
 * length, supply > 0, key types) are the core's to refuse with a status code, so a test can still
 * build such a bundle and see the node's answer.
 */

export const OpCode = {
  Transfer: 0,
  AddKey: 1,
  RemoveKey: 2,
  RotateKey: 3,
  // Staking (docs/staking.md "Operations").
  Stake: 4,
  Unstake: 5,
  ClaimUnstake: 6,
  Delegate: 7,
  Undelegate: 8,
  ClaimRewards: 9,
  SetCommission: 10,
  Unjail: 11,
  SetAutoCompound: 12,
  SetPoolConfig: 13,
  SetValidatorMetadata: 14,
  ReportDoubleSign: 36,
  CreatePool: 28,
  AddLiquidity: 29,
  RemoveLiquidity: 30,
  Swap: 31,
  RegisterName: 32,
  CreateToken: 33,
  UpdateTokenMetadata: 34,
  LockTokenMetadata: 35,
  // Intent programs (docs/intents.md "Programs on chain").
  RegisterProgram: 48,
  // Schedules on chain (docs/intents.md "Schedules on chain").
  CreateSchedule: 49,
  CancelSchedule: 50,
  RotateConsensusKey: 119,
} as const;
export type OpName = keyof typeof OpCode;

/** Public key length bound for AddKey/RotateKey/sender_pubkey: the largest key is ML-DSA-65's 1,952 bytes. */
export const MAX_PUBKEY_BYTES = 4096;
/** Bounds for CreateToken strings before anything is allocated (the core applies the exact 64/16 limits). */
export const MAX_TOKEN_NAME_BYTES = 1024;
export const MAX_TOKEN_SYMBOL_BYTES = 1024;

export interface TransferOp {
  type: 'Transfer';
  /** Recipient account, 32 bytes. */
  to: Uint8Array;
  /** Token mint, 32 bytes; 32 zero bytes = NTV (spec §1.4). */
  token: Uint8Array;
  /** Raw units, u128. */
  amount: bigint;
}

export interface AddKeyOp {
  type: 'AddKey';
  pubkey: Uint8Array;
  /** 0 = Ed25519, 1 = ML-DSA-65. */
  keyType: number;
  role: number;
}

export interface RemoveKeyOp {
  type: 'RemoveKey';
  /** SHA256 of the public key to remove. */
  pubkeyHash: Uint8Array;
}

export interface RotateKeyOp {
  type: 'RotateKey';
  oldPubkeyHash: Uint8Array;
  newPubkey: Uint8Array;
  newKeyType: number;
}

export interface CreateTokenOp {
  type: 'CreateToken';
  name: string;
  symbol: string;
  decimals: number;
  /** Raw units, u128. */
  supply: bigint;
  owner: Uint8Array;
}

export interface RotateConsensusKeyOp {
  type: 'RotateConsensusKey';
  newConsensusPubkey: Uint8Array;
}

/** The DEX (spec §4.2, docs/dex.md). Token order is the caller's; the core sorts the pair. */
export interface CreatePoolOp {
  type: 'CreatePool';
  tokenA: Uint8Array;
  tokenB: Uint8Array;
  amountA: bigint;
  amountB: bigint;
  /** seconds the creator's initial LP stays locked (u64; the core allows at most 10 years) */
  lpLockDuration: bigint;
}
export interface AddLiquidityOp {
  type: 'AddLiquidity';
  tokenA: Uint8Array;
  tokenB: Uint8Array;
  amountA: bigint;
  amountB: bigint;
  minLp: bigint;
}
export interface RemoveLiquidityOp {
  type: 'RemoveLiquidity';
  tokenA: Uint8Array;
  tokenB: Uint8Array;
  lpAmount: bigint;
  minAmountA: bigint;
  minAmountB: bigint;
}
export interface SwapOp {
  type: 'Swap';
  fromToken: Uint8Array;
  toToken: Uint8Array;
  amountIn: bigint;
  minAmountOut: bigint;
}

/** The eight optional metadata fields of spec §2.3/§4.1, in their Borsh order. */
export const TOKEN_METADATA_FIELDS = ['metadataUri', 'image', 'description', 'externalUrl', 'twitter', 'discord', 'telegram', 'github'] as const;
export type TokenMetadataField = (typeof TOKEN_METADATA_FIELDS)[number];
/** Codec bound per metadata string; the core applies the exact per-field limits (docs/dex.md). */
export const MAX_METADATA_FIELD_BYTES = 4096;

/** Creator only; an absent field is kept, an empty string clears it (docs/bundle-format.md). */
export interface UpdateTokenMetadataOp extends Partial<Record<TokenMetadataField, string>> {
  type: 'UpdateTokenMetadata';
  mint: Uint8Array;
}
export interface LockTokenMetadataOp {
  type: 'LockTokenMetadata';
  mint: Uint8Array;
}

/** Names (spec §4.12, docs/names.md): the core lower-cases, drops ".vex" and checks 3–64 of [a-z0-9-]. */
export interface RegisterNameOp {
  type: 'RegisterName';
  name: string;
}
/** Codec bound for a RegisterName string; the core applies the exact rule (INVALID_NAME_FORMAT). */
export const MAX_NAME_BYTES = 1024;

/**
 * Intent programs (spec §4.9, docs/intents.md "Programs on chain"): `program` is the program's JSON
 * text. The core checks the name (3–64 of [a-z0-9_-], INVALID_PROGRAM_NAME) and the size (1–16,384
 * bytes, INVALID_PROGRAM); the codec only bounds them before allocating.
 */
export interface RegisterProgramOp {
  type: 'RegisterProgram';
  name: string;
  program: string;
}
export const MAX_PROGRAM_NAME_BYTES = 1024;

/**
 * Schedules on chain (docs/intents.md "Schedules on chain"): a Recurring or Conditional trigger and
 * the operations each run executes as the owner (1–16, not CreateToken, CreateSchedule or
 * CancelSchedule; the core checks the ranges with INVALID_SCHEDULE_TRIGGER/_OPERATIONS).
 */
export type ScheduleTrigger =
  | { kind: 'Recurring'; intervalSeconds: bigint; runs: number; firstRun: bigint }
  | { kind: 'Conditional'; base: Uint8Array; quote: Uint8Array; direction: 'below' | 'above'; priceNum: bigint; priceDen: bigint; expiry: bigint };
export interface CreateScheduleOp {
  type: 'CreateSchedule';
  trigger: ScheduleTrigger;
  operations: Operation[];
}
export interface CancelScheduleOp {
  type: 'CancelSchedule';
  scheduleId: Uint8Array;
}
/** Operations one schedule holds (assembly/bundle.ts MAX_SCHEDULE_OPS). */
export const MAX_SCHEDULE_OPS = 16;
export const MAX_PROGRAM_JSON_BYTES = 65_536;

/**
 * Staking (docs/staking.md "Operations"). `validator` fields name a validator by its staking
 * account; `validatorPubkey`, `newConsensusPubkey` and ReportDoubleSign's `validator` are 32-byte
 * Ed25519 consensus keys.
 */
export interface StakeOp { type: 'Stake'; amount: bigint; validatorPubkey: Uint8Array }
export interface UnstakeOp { type: 'Unstake'; amount: bigint }
export interface ClaimUnstakeOp { type: 'ClaimUnstake' }
export interface DelegateOp { type: 'Delegate'; validator: Uint8Array; amount: bigint }
export interface UndelegateOp { type: 'Undelegate'; validator: Uint8Array; amount: bigint }
export interface ClaimRewardsOp { type: 'ClaimRewards' }
export interface SetCommissionOp { type: 'SetCommission'; rate: number }
export interface UnjailOp { type: 'Unjail' }
export interface SetAutoCompoundOp { type: 'SetAutoCompound'; validator: Uint8Array; enable: boolean }
export interface SetPoolConfigOp { type: 'SetPoolConfig'; poolEnabled: boolean; poolName: string; minDelegation: bigint; autoCompoundDefault: boolean }
export interface SetValidatorMetadataOp { type: 'SetValidatorMetadata'; name: string; description: string; website: string; avatarUrl: string }
/** Contract D: two signed headers (src/chain/block.ts headerSigningBytes) of one validator at one height. */
export interface ReportDoubleSignOp {
  type: 'ReportDoubleSign'; validator: Uint8Array; height: bigint;
  headerA: Uint8Array; sigA: Uint8Array; headerB: Uint8Array; sigB: Uint8Array;
}
export type StakingOperation = StakeOp | UnstakeOp | ClaimUnstakeOp | DelegateOp | UndelegateOp | ClaimRewardsOp | SetCommissionOp
  | UnjailOp | SetAutoCompoundOp | SetPoolConfigOp | SetValidatorMetadataOp | ReportDoubleSignOp;
/** Codec bounds of staking strings and evidence headers (the core applies the exact limits). */
export const MAX_STAKING_STRING_BYTES = 4096;
export const MAX_HEADER_BYTES = 4096;

export type Operation = TransferOp | AddKeyOp | RemoveKeyOp | RotateKeyOp | CreateTokenOp | RotateConsensusKeyOp
  | CreatePoolOp | AddLiquidityOp | RemoveLiquidityOp | SwapOp | UpdateTokenMetadataOp | LockTokenMetadataOp | StakingOperation
  | RegisterNameOp | CollectionOperation | RegisterProgramOp | CreateScheduleOp | CancelScheduleOp;

export function writeOperation(w: BorshWriter, op: Operation): void {
  if (isCollectionOp(op)) return writeCollectionOperation(w, op);
  switch (op.type) {
    case 'Transfer':
      w.u8(OpCode.Transfer, 'type');
      w.fixedBytes(op.to, 32, 'to');
      w.fixedBytes(op.token, 32, 'token');
      w.u128(op.amount, 'amount');
      return;
    case 'AddKey':
      w.u8(OpCode.AddKey, 'type');
      w.vecBytes(op.pubkey, 'pubkey', MAX_PUBKEY_BYTES);
      w.u8(op.keyType, 'key_type');
      w.u8(op.role, 'role');
      return;
    case 'RemoveKey':
      w.u8(OpCode.RemoveKey, 'type');
      w.fixedBytes(op.pubkeyHash, 32, 'pubkey_hash');
      return;
    case 'RotateKey':
      w.u8(OpCode.RotateKey, 'type');
      w.fixedBytes(op.oldPubkeyHash, 32, 'old_pubkey_hash');
      w.vecBytes(op.newPubkey, 'new_pubkey', MAX_PUBKEY_BYTES);
      w.u8(op.newKeyType, 'new_key_type');
      return;
    case 'CreateToken':
      w.u8(OpCode.CreateToken, 'type');
      w.string(op.name, 'name', MAX_TOKEN_NAME_BYTES);
      w.string(op.symbol, 'symbol', MAX_TOKEN_SYMBOL_BYTES);
      w.u8(op.decimals, 'decimals');
      w.u128(op.supply, 'supply');
      w.fixedBytes(op.owner, 32, 'owner');
      return;
    case 'RotateConsensusKey':
      w.u8(OpCode.RotateConsensusKey, 'type');
      w.fixedBytes(op.newConsensusPubkey, 32, 'new_consensus_pubkey');
      return;
    case 'CreatePool':
      w.u8(OpCode.CreatePool, 'type');
      w.fixedBytes(op.tokenA, 32, 'token_a');
      w.fixedBytes(op.tokenB, 32, 'token_b');
      w.u128(op.amountA, 'amount_a');
      w.u128(op.amountB, 'amount_b');
      w.u64(op.lpLockDuration, 'lp_lock_duration');
      return;
    case 'AddLiquidity':
      w.u8(OpCode.AddLiquidity, 'type');
      w.fixedBytes(op.tokenA, 32, 'token_a');
      w.fixedBytes(op.tokenB, 32, 'token_b');
      w.u128(op.amountA, 'amount_a');
      w.u128(op.amountB, 'amount_b');
      w.u128(op.minLp, 'min_lp_tokens');
      return;
    case 'RemoveLiquidity':
      w.u8(OpCode.RemoveLiquidity, 'type');
      w.fixedBytes(op.tokenA, 32, 'token_a');
      w.fixedBytes(op.tokenB, 32, 'token_b');
      w.u128(op.lpAmount, 'lp_amount');
      w.u128(op.minAmountA, 'min_amount_a');
      w.u128(op.minAmountB, 'min_amount_b');
      return;
    case 'Swap':
      w.u8(OpCode.Swap, 'type');
      w.fixedBytes(op.fromToken, 32, 'from_token');
      w.fixedBytes(op.toToken, 32, 'to_token');
      w.u128(op.amountIn, 'amount_in');
      w.u128(op.minAmountOut, 'min_amount_out');
      return;
    case 'UpdateTokenMetadata':
      w.u8(OpCode.UpdateTokenMetadata, 'type');
      w.fixedBytes(op.mint, 32, 'mint');
      for (const field of TOKEN_METADATA_FIELDS) {
        const value = op[field];
        w.optionTag(value !== undefined, field);
        if (value !== undefined) w.string(value, field, MAX_METADATA_FIELD_BYTES);
      }
      return;
    case 'LockTokenMetadata':
      w.u8(OpCode.LockTokenMetadata, 'type');
      w.fixedBytes(op.mint, 32, 'mint');
      return;
    case 'RegisterName':
      w.u8(OpCode.RegisterName, 'type');
      w.string(op.name, 'name', MAX_NAME_BYTES);
      return;
    case 'RegisterProgram':
      w.u8(OpCode.RegisterProgram, 'type');
      w.string(op.name, 'name', MAX_PROGRAM_NAME_BYTES);
      w.string(op.program, 'program', MAX_PROGRAM_JSON_BYTES);
      return;
    case 'CreateSchedule': {
      w.u8(OpCode.CreateSchedule, 'type');
      const t = op.trigger;
      if (t.kind === 'Recurring') {
        w.u8(0, 'trigger');
        w.u64(t.intervalSeconds, 'interval_seconds');
        w.u32(t.runs, 'runs');
        w.u64(t.firstRun, 'first_run');
      } else {
        w.u8(1, 'trigger');
        w.fixedBytes(t.base, 32, 'base');
        w.fixedBytes(t.quote, 32, 'quote');
        w.u8(t.direction === 'below' ? 0 : 1, 'direction');
        w.u128(t.priceNum, 'price_num');
        w.u128(t.priceDen, 'price_den');
        w.u64(t.expiry, 'expiry');
      }
      if (op.operations.length === 0 || op.operations.length > MAX_SCHEDULE_OPS) {
        throw new CodecError('BAD_LENGTH', 'operations', `a schedule holds 1 to ${MAX_SCHEDULE_OPS} operations`);
      }
      w.u32(op.operations.length, 'operations');
      for (const inner of op.operations) {
        if (inner.type === 'CreateSchedule' || inner.type === 'CancelSchedule') throw new CodecError('UNKNOWN_DISCRIMINANT', 'operations', `${inner.type} cannot be inside a schedule`);
        writeOperation(w, inner);
      }
      return;
    }
    case 'CancelSchedule':
      w.u8(OpCode.CancelSchedule, 'type');
      w.fixedBytes(op.scheduleId, 32, 'schedule_id');
      return;
    case 'Stake':
      w.u8(OpCode.Stake, 'type');
      w.u128(op.amount, 'amount');
      w.fixedBytes(op.validatorPubkey, 32, 'validator_pubkey');
      return;
    case 'Unstake':
      w.u8(OpCode.Unstake, 'type');
      w.u128(op.amount, 'amount');
      return;
    case 'ClaimUnstake':
      w.u8(OpCode.ClaimUnstake, 'type');
      return;
    case 'Delegate':
    case 'Undelegate':
      w.u8(OpCode[op.type], 'type');
      w.fixedBytes(op.validator, 32, 'validator');
      w.u128(op.amount, 'amount');
      return;
    case 'ClaimRewards':
      w.u8(OpCode.ClaimRewards, 'type');
      return;
    case 'SetCommission':
      w.u8(OpCode.SetCommission, 'type');
      w.u16(op.rate, 'rate');
      return;
    case 'Unjail':
      w.u8(OpCode.Unjail, 'type');
      return;
    case 'SetAutoCompound':
      w.u8(OpCode.SetAutoCompound, 'type');
      w.fixedBytes(op.validator, 32, 'validator');
      w.bool(op.enable, 'enable');
      return;
    case 'SetPoolConfig':
      w.u8(OpCode.SetPoolConfig, 'type');
      w.bool(op.poolEnabled, 'pool_enabled');
      w.string(op.poolName, 'pool_name', MAX_STAKING_STRING_BYTES);
      w.u128(op.minDelegation, 'min_delegation');
      w.bool(op.autoCompoundDefault, 'auto_compound_default');
      return;
    case 'SetValidatorMetadata':
      w.u8(OpCode.SetValidatorMetadata, 'type');
      w.string(op.name, 'name', MAX_STAKING_STRING_BYTES);
      w.string(op.description, 'description', MAX_STAKING_STRING_BYTES);
      w.string(op.website, 'website', MAX_STAKING_STRING_BYTES);
      w.string(op.avatarUrl, 'avatar_url', MAX_STAKING_STRING_BYTES);
      return;
    case 'ReportDoubleSign':
      w.u8(OpCode.ReportDoubleSign, 'type');
      w.fixedBytes(op.validator, 32, 'validator');
      w.u64(op.height, 'height');
      w.vecBytes(op.headerA, 'header_a', MAX_HEADER_BYTES);
      w.fixedBytes(op.sigA, 64, 'sig_a');
      w.vecBytes(op.headerB, 'header_b', MAX_HEADER_BYTES);
      w.fixedBytes(op.sigB, 64, 'sig_b');
      return;
    default: {
      const type = (op as { type?: unknown }).type;
      throw new CodecError('UNKNOWN_DISCRIMINANT', 'type', `unknown operation type ${JSON.stringify(type)}`);
    }
  }
}

export function readOperation(r: BorshReader): Operation {
  const at = r.offset;
  const disc = r.u8('type');
  switch (disc) {
    case OpCode.Transfer:
      return { type: 'Transfer', to: r.fixedBytes(32, 'to'), token: r.fixedBytes(32, 'token'), amount: r.u128('amount') };
    case OpCode.AddKey:
      return { type: 'AddKey', pubkey: r.vecBytes('pubkey', MAX_PUBKEY_BYTES), keyType: r.u8('key_type'), role: r.u8('role') };
    case OpCode.RemoveKey:
      return { type: 'RemoveKey', pubkeyHash: r.fixedBytes(32, 'pubkey_hash') };
    case OpCode.RotateKey:
      return {
        type: 'RotateKey',
        oldPubkeyHash: r.fixedBytes(32, 'old_pubkey_hash'),
        newPubkey: r.vecBytes('new_pubkey', MAX_PUBKEY_BYTES),
        newKeyType: r.u8('new_key_type'),
      };
    case OpCode.CreateToken:
      return {
        type: 'CreateToken',
        name: r.string('name', MAX_TOKEN_NAME_BYTES),
        symbol: r.string('symbol', MAX_TOKEN_SYMBOL_BYTES),
        decimals: r.u8('decimals'),
        supply: r.u128('supply'),
        owner: r.fixedBytes(32, 'owner'),
      };
    case OpCode.RotateConsensusKey:
      return { type: 'RotateConsensusKey', newConsensusPubkey: r.fixedBytes(32, 'new_consensus_pubkey') };
    case OpCode.CreatePool:
      return {
        type: 'CreatePool', tokenA: r.fixedBytes(32, 'token_a'), tokenB: r.fixedBytes(32, 'token_b'),
        amountA: r.u128('amount_a'), amountB: r.u128('amount_b'), lpLockDuration: r.u64('lp_lock_duration'),
      };
    case OpCode.AddLiquidity:
      return {
        type: 'AddLiquidity', tokenA: r.fixedBytes(32, 'token_a'), tokenB: r.fixedBytes(32, 'token_b'),
        amountA: r.u128('amount_a'), amountB: r.u128('amount_b'), minLp: r.u128('min_lp_tokens'),
      };
    case OpCode.RemoveLiquidity:
      return {
        type: 'RemoveLiquidity', tokenA: r.fixedBytes(32, 'token_a'), tokenB: r.fixedBytes(32, 'token_b'),
        lpAmount: r.u128('lp_amount'), minAmountA: r.u128('min_amount_a'), minAmountB: r.u128('min_amount_b'),
      };
    case OpCode.Swap:
      return {
        type: 'Swap', fromToken: r.fixedBytes(32, 'from_token'), toToken: r.fixedBytes(32, 'to_token'),
        amountIn: r.u128('amount_in'), minAmountOut: r.u128('min_amount_out'),
      };
    case OpCode.UpdateTokenMetadata: {
      const op: UpdateTokenMetadataOp = { type: 'UpdateTokenMetadata', mint: r.fixedBytes(32, 'mint') };
      for (const field of TOKEN_METADATA_FIELDS) {
        if (r.optionTag(field)) op[field] = r.string(field, MAX_METADATA_FIELD_BYTES);
      }
      return op;
    }
    case OpCode.LockTokenMetadata:
      return { type: 'LockTokenMetadata', mint: r.fixedBytes(32, 'mint') };
    case OpCode.RegisterName:
      return { type: 'RegisterName', name: r.string('name', MAX_NAME_BYTES) };
    case OpCode.RegisterProgram:
      return { type: 'RegisterProgram', name: r.string('name', MAX_PROGRAM_NAME_BYTES), program: r.string('program', MAX_PROGRAM_JSON_BYTES) };
    case OpCode.CreateSchedule: {
      const tag = r.u8('trigger');
      let trigger: ScheduleTrigger;
      if (tag === 0) trigger = { kind: 'Recurring', intervalSeconds: r.u64('interval_seconds'), runs: r.u32('runs'), firstRun: r.u64('first_run') };
      else if (tag === 1) {
        const base = r.fixedBytes(32, 'base');
        const quote = r.fixedBytes(32, 'quote');
        const dir = r.u8('direction');
        if (dir > 1) throw new CodecError('OUT_OF_RANGE', 'direction', `direction must be 0 (below) or 1 (above), got ${dir}`);
        trigger = { kind: 'Conditional', base, quote, direction: dir === 0 ? 'below' : 'above', priceNum: r.u128('price_num'), priceDen: r.u128('price_den'), expiry: r.u64('expiry') };
      } else throw new CodecError('OUT_OF_RANGE', 'trigger', `schedule trigger must be 0 (Recurring) or 1 (Conditional), got ${tag}`);
      const n = r.u32('operations');
      if (n === 0 || n > MAX_SCHEDULE_OPS) throw new CodecError('BAD_LENGTH', 'operations', `a schedule holds 1 to ${MAX_SCHEDULE_OPS} operations, got ${n}`);
      const operations: Operation[] = [];
      for (let i = 0; i < n; i++) {
        const inner = readOperation(r);
        if (inner.type === 'CreateSchedule' || inner.type === 'CancelSchedule') throw new CodecError('UNKNOWN_DISCRIMINANT', 'operations', `${inner.type} cannot be inside a schedule`);
        operations.push(inner);
      }
      return { type: 'CreateSchedule', trigger, operations };
    }
    case OpCode.CancelSchedule:
      return { type: 'CancelSchedule', scheduleId: r.fixedBytes(32, 'schedule_id') };
    case OpCode.Stake:
      return { type: 'Stake', amount: r.u128('amount'), validatorPubkey: r.fixedBytes(32, 'validator_pubkey') };
    case OpCode.Unstake:
      return { type: 'Unstake', amount: r.u128('amount') };
    case OpCode.ClaimUnstake:
      return { type: 'ClaimUnstake' };
    case OpCode.Delegate:
      return { type: 'Delegate', validator: r.fixedBytes(32, 'validator'), amount: r.u128('amount') };
    case OpCode.Undelegate:
      return { type: 'Undelegate', validator: r.fixedBytes(32, 'validator'), amount: r.u128('amount') };
    case OpCode.ClaimRewards:
      return { type: 'ClaimRewards' };
    case OpCode.SetCommission:
      return { type: 'SetCommission', rate: r.u16('rate') };
    case OpCode.Unjail:
      return { type: 'Unjail' };
    case OpCode.SetAutoCompound:
      return { type: 'SetAutoCompound', validator: r.fixedBytes(32, 'validator'), enable: r.bool('enable') };
    case OpCode.SetPoolConfig:
      return {
        type: 'SetPoolConfig', poolEnabled: r.bool('pool_enabled'), poolName: r.string('pool_name', MAX_STAKING_STRING_BYTES),
        minDelegation: r.u128('min_delegation'), autoCompoundDefault: r.bool('auto_compound_default'),
      };
    case OpCode.SetValidatorMetadata:
      return {
        type: 'SetValidatorMetadata', name: r.string('name', MAX_STAKING_STRING_BYTES), description: r.string('description', MAX_STAKING_STRING_BYTES),
        website: r.string('website', MAX_STAKING_STRING_BYTES), avatarUrl: r.string('avatar_url', MAX_STAKING_STRING_BYTES),
      };
    case OpCode.ReportDoubleSign:
      return {
        type: 'ReportDoubleSign', validator: r.fixedBytes(32, 'validator'), height: r.u64('height'),
        headerA: r.vecBytes('header_a', MAX_HEADER_BYTES), sigA: r.fixedBytes(64, 'sig_a'),
        headerB: r.vecBytes('header_b', MAX_HEADER_BYTES), sigB: r.fixedBytes(64, 'sig_b'),
      };
    default: {
      const collectionOp = readCollectionOperation(r, disc);
      if (collectionOp) return collectionOp;
      throw new CodecError('UNKNOWN_DISCRIMINANT', 'type', `unknown or not yet enabled operation discriminant ${disc}`, at);
    }
  }
}
