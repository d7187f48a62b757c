import { BorshWriter } from '../codec/borsh.js';
import { writeOperation, type Operation } from '../codec/operations.js';

/**
 * The gas the core charges, for wallets that set `max_gas` before sending (spec §8: a bundle's gas
 * follows from its operations alone). The core's table is assembly/gas.ts, documented in
 * docs/core-abi.md "Rules" and the domain pages (dex.md, names.md, nfts.md "Gas", staking.md
 * "Operations", intents.md); the ABI table (abi/) does not carry gas, so the client keeps this one
 * copy of the documented figures, and test/unit/client-helpers.test.ts checks every entry against
 * the core itself (src/intents/gas.ts measures it on a scratch core; the client may not load the
 * core, so it cannot use that directly).
 */
export const GAS = {
  /** Every bundle, whatever it holds. */
  BASE: 5_000n,
  TRANSFER: 16_000n,
  CREATE_TOKEN: 45_000n,
  // docs/dex.md "Fees"
  CREATE_POOL: 80_000n,
  ADD_LIQUIDITY: 50_000n,
  REMOVE_LIQUIDITY: 50_000n,
  SWAP: 40_000n,
  UPDATE_TOKEN_METADATA: 30_000n,
  LOCK_TOKEN_METADATA: 20_000n,
  // docs/names.md "Operation"
  REGISTER_NAME: 40_000n,
  // docs/staking.md "Operations": Stake … SetValidatorMetadata and RotateConsensusKey
  STAKING: 30_000n,
  REPORT_DOUBLE_SIGN: 50_000n,
  // docs/nfts.md "Gas"
  CREATE_COLLECTION: 60_000n,
  DEFINE_TOKEN_TYPE: 40_000n,
  COLLECTION_MINT: 30_000n,
  COLLECTION_MOVE: 25_000n,
  BATCH_BASE: 15_000n,
  BATCH_ENTRY: 5_000n,
  // docs/intents.md "Programs on chain" and "Schedules on chain"
  REGISTER_PROGRAM: 30_000n,
  PROGRAM_BYTE: 3n,
  CREATE_SCHEDULE: 40_000n,
  SCHEDULE_BYTE: 3n,
  CANCEL_SCHEDULE: 20_000n,
} as const;

/**
 * Gas of one operation, without the bundle's 5,000 base. Throws for AddKey, RemoveKey and RotateKey:
 * their discriminants are reserved (docs/core-abi.md "Decoding": OP_NOT_ENABLED), so no bundle
 * holding them is ever charged.
 */
export function gasOf(op: Operation): bigint {
  switch (op.type) {
    case 'Transfer': return GAS.TRANSFER;
    case 'CreateToken': return GAS.CREATE_TOKEN;
    case 'CreatePool': return GAS.CREATE_POOL;
    case 'AddLiquidity': return GAS.ADD_LIQUIDITY;
    case 'RemoveLiquidity': return GAS.REMOVE_LIQUIDITY;
    case 'Swap': return GAS.SWAP;
    case 'UpdateTokenMetadata': return GAS.UPDATE_TOKEN_METADATA;
    case 'LockTokenMetadata': return GAS.LOCK_TOKEN_METADATA;
    case 'RegisterName': return GAS.REGISTER_NAME;
    case 'Stake': case 'Unstake': case 'ClaimUnstake': case 'Delegate': case 'Undelegate': case 'ClaimRewards':
    case 'SetCommission': case 'Unjail': case 'SetAutoCompound': case 'SetPoolConfig': case 'SetValidatorMetadata':
    case 'RotateConsensusKey':
      return GAS.STAKING;
    case 'ReportDoubleSign': return GAS.REPORT_DOUBLE_SIGN;
    case 'CreateNftCollection': case 'CreateMultiTokenCollection': return GAS.CREATE_COLLECTION;
    case 'DefineTokenType': return GAS.DEFINE_TOKEN_TYPE;
    case 'MintNft': case 'MintMultiToken': return GAS.COLLECTION_MINT;
    case 'TransferNft': case 'BurnNft': case 'TransferMultiToken': case 'BurnMultiToken': return GAS.COLLECTION_MOVE;
    case 'BatchMintMultiToken': case 'BatchTransferMultiToken':
      return GAS.BATCH_BASE + GAS.BATCH_ENTRY * BigInt(op.entries.length);
    case 'RegisterProgram':
      // Per UTF-8 byte of the JSON text, as the core's decoder records its length.
      return GAS.REGISTER_PROGRAM + GAS.PROGRAM_BYTE * BigInt(Buffer.byteLength(op.program, 'utf8'));
    case 'CreateSchedule': {
      // Per byte of the held operations' Borsh Vec, its u32 count included (docs/intents.md).
      const w = new BorshWriter();
      w.u32(op.operations.length, 'operations');
      for (const inner of op.operations) writeOperation(w, inner);
      return GAS.CREATE_SCHEDULE + GAS.SCHEDULE_BYTE * BigInt(w.finish().length);
    }
    case 'CancelSchedule': return GAS.CANCEL_SCHEDULE;
    case 'AddKey': case 'RemoveKey': case 'RotateKey':
      throw new Error(`${op.type} is not enabled (OP_NOT_ENABLED, docs/core-abi.md "Decoding"): no bundle holding it is charged gas`);
    default: {
      // A new operation in the ABI table needs its gas here: this stops the typecheck until it has.
      const unpriced: never = op;
      throw new Error(`no gas known for operation ${(unpriced as { type: string }).type}`);
    }
  }
}

/** Gas of a bundle of `operations`: the 5,000 base plus each operation's (what a helper sets as max_gas). */
export function bundleGasOf(operations: readonly Operation[]): bigint {
  let gas = GAS.BASE;
  for (const op of operations) gas += gasOf(op);
  return gas;
}
