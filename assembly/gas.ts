// Gas schedule (spec §8, docs/core-abi.md "Rules"). A bundle's gas is known from its operations
// alone, before any state is read, so the block gas check and the fee need no execution.

import { OP_APPROVE, OP_TRANSFER_FROM } from "./abi";

export const GAS_BASE: u64 = 5000;
export const GAS_TRANSFER: u64 = 16000;
export const GAS_CREATE_TOKEN: u64 = 45000;

/** Fee split (spec §1.8): 20% to the treasury 0x00…03 rounded down, the rest to the proposer. */
export const TREASURY_DIVISOR: u32 = 5; // fee × 20 / 100 == fee / 5 exactly (floor), and cannot overflow

// DEX and metadata operations (docs/dex.md "Gas"). Each stays under the 100,000 per-bundle
// ceiling the node's block gas limit assumes, with the 5,000 base.
export const GAS_CREATE_POOL: u64 = 80000;
export const GAS_ADD_LIQUIDITY: u64 = 50000;
export const GAS_REMOVE_LIQUIDITY: u64 = 50000;
export const GAS_SWAP: u64 = 40000;
export const GAS_UPDATE_TOKEN_METADATA: u64 = 30000;
export const GAS_LOCK_TOKEN_METADATA: u64 = 20000;
// RegisterName (docs/names.md): a name record and, for a first name, the reverse record.
export const GAS_REGISTER_NAME: u64 = 40000;
/** Staking operations (docs/staking.md "Gas"): a few record reads and writes each. */
export const GAS_STAKING: u64 = 30000;
/** ReportDoubleSign hashes two headers and jails (docs/staking.md). */
export const GAS_REPORT_DOUBLE_SIGN: u64 = 50000;

// NFT and multi-token collections (docs/nfts.md "Gas"). A batch's gas depends on its entry count,
// which the decoder puts in the op record, so gas is still known before any state is read.
export const GAS_CREATE_COLLECTION: u64 = 60000;
export const GAS_DEFINE_TOKEN_TYPE: u64 = 40000;
export const GAS_COLLECTION_MINT: u64 = 30000;
export const GAS_COLLECTION_MOVE: u64 = 25000;
export const GAS_BATCH_BASE: u64 = 15000;
export const GAS_BATCH_ENTRY: u64 = 5000;

// RegisterProgram (docs/intents.md "Programs on chain"): a base plus a price per JSON byte stored,
// so the largest program (16,384 bytes) stays under the 100,000 client default with the base gas.
export const GAS_REGISTER_PROGRAM: u64 = 30000;
export const GAS_PROGRAM_BYTE: u64 = 3;

// Schedules (docs/intents.md "Schedules on chain"): CreateSchedule a base plus a price per byte of
// the stored operations (at most 4,096: 52,288 gas); CancelSchedule rewrites a record and a list.
// A run is paid when it runs, like a bundle of its operations (GAS_BASE + their gas).
export const GAS_CREATE_SCHEDULE: u64 = 40000;
export const GAS_SCHEDULE_BYTE: u64 = 3;
export const GAS_CANCEL_SCHEDULE: u64 = 20000;

// ERC-20 allowances (docs/allowances.md "Gas"): Approve writes one record, as a Transfer writes a
// balance; TransferFrom is a Transfer plus the allowance's read and write. With the base gas an
// EVM approve is 21,000 and a transferFrom 26,000.
export const GAS_APPROVE: u64 = 16000;
export const GAS_TRANSFER_FROM: u64 = 21000;

/**
 * Gas of one operation (docs/bundle-format.md "Operation"; only enabled ones reach here), from its
 * decoded record in OPS (assembly/bundle.ts): the kind, and the entry count of a batch at +12.
 */
export function opGas(op: usize): u64 {
  let kind = load<u32>(op);
  switch (kind) {
    case 0: return GAS_TRANSFER;
    case 28: return GAS_CREATE_POOL;
    case 29: return GAS_ADD_LIQUIDITY;
    case 30: return GAS_REMOVE_LIQUIDITY;
    case 31: return GAS_SWAP;
    case 34: return GAS_UPDATE_TOKEN_METADATA;
    case 35: return GAS_LOCK_TOKEN_METADATA;
    case 32: return GAS_REGISTER_NAME;
    case 36: return GAS_REPORT_DOUBLE_SIGN;
    case 4: case 5: case 6: case 7: case 8: case 9: case 10: case 11: case 12: case 13: case 14: case 119:
      return GAS_STAKING;
    case 37: case 41: return GAS_CREATE_COLLECTION;
    case 42: return GAS_DEFINE_TOKEN_TYPE;
    case 38: case 43: return GAS_COLLECTION_MINT;
    case 39: case 40: case 44: case 45: return GAS_COLLECTION_MOVE;
    case 46: case 47: return GAS_BATCH_BASE + GAS_BATCH_ENTRY * <u64>load<u32>(op, 12);
    case 48: return GAS_REGISTER_PROGRAM + GAS_PROGRAM_BYTE * <u64>load<u32>(op, 16);
    case 49: return GAS_CREATE_SCHEDULE + GAS_SCHEDULE_BYTE * <u64>load<u32>(op, 16);
    case 50: return GAS_CANCEL_SCHEDULE;
    case OP_APPROVE: return GAS_APPROVE;
    case OP_TRANSFER_FROM: return GAS_TRANSFER_FROM;
    default: return GAS_CREATE_TOKEN;
  }
}
