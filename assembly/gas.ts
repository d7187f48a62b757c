// Gas schedule (spec §8, docs/core-abi.md "Rules"). A bundle's gas is known from its operations
// alone, before any state is read, so the block gas check and the fee need no execution. The
// figures and which operation pays which are rows of the ABI table (abi/operations.mjs `gas`,
// generated into assembly/abi.ts: GAS_*, opGasBase, opGasPerEntry, opGasPerByte); the DEX, names,
// staking, collections, programs and schedules pages name them (docs/dex.md, docs/names.md,
// docs/staking.md, docs/collections.md, docs/intents.md).
import { opGasBase, opGasPerEntry, opGasPerByte, OP_PROPOSE_MULTI_SIG_TX } from "./abi";
import { OPR_GAS_ENTRIES, OPR_GAS_BYTES, OPR_PROPOSE_MULTI_SIG_TX_HELD_GAS } from "./decode-ops";

/** Fee split (spec §1.8): 20% to the treasury 0x00…03 rounded down, the rest to the proposer. */
export const TREASURY_DIVISOR: u32 = 5; // fee × 20 / 100 == fee / 5 exactly (floor), and cannot overflow

/**
 * Gas of one operation (docs/bundle-format.md "Operation"; only enabled ones reach here), from its
 * decoded record in OPS (assembly/bundle.ts): the kind, a batch's entry count at +12, and the
 * length of the bytes a RegisterProgram (its JSON) or CreateSchedule (its operations) stores at +16,
 * and a ProposeMultiSigTx's held operations' gas at +28.
 */
export function opGas(op: usize): u64 {
  let kind = load<u32>(op);
  let gas = opGasBase(kind);
  let perEntry = opGasPerEntry(kind);
  if (perEntry != 0) gas += perEntry * <u64>load<u32>(op, OPR_GAS_ENTRIES);
  let perByte = opGasPerByte(kind);
  if (perByte != 0) gas += perByte * <u64>load<u32>(op, OPR_GAS_BYTES);
  // A multi-sig proposal prepays its operations' own gas, recorded by the decoder (docs/accounts.md "Gas").
  if (kind == OP_PROPOSE_MULTI_SIG_TX) gas += <u64>load<u32>(op, OPR_PROPOSE_MULTI_SIG_TX_HELD_GAS);
  return gas;
}
