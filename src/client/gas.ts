import { GAS_BASE, OPERATION_GAS } from '../abi/constants.js';
import { BorshWriter } from '../codec/borsh.js';
import { writeOperation, type Operation } from '../codec/operations.js';

/**
 * The gas the core charges, for wallets that set `max_gas` before sending (spec §8: a bundle's gas
 * follows from its operations alone). The figures are the ABI table's (abi/operations.mjs `gas`,
 * generated into src/abi/constants.ts OPERATION_GAS and into the core's assembly/gas.ts); this
 * file only counts what a figure is multiplied by. test/unit/client-helpers.test.ts checks every
 * operation against gas measured on the core itself.
 */
export { GAS_BASE } from '../abi/constants.js';

/**
 * Gas of one operation, without the bundle's 5,000 base. A ProposeMultiSigTx also prepays the gas
 * of the operations it holds (docs/accounts.md "Gas").
 */
export function gasOf(op: Operation): bigint {
  const gas: { base: bigint; perEntry?: bigint; perByte?: bigint } = OPERATION_GAS[op.type];
  let total = gas.base;
  if (gas.perEntry !== undefined && 'entries' in op) total += gas.perEntry * BigInt(op.entries.length);
  if (gas.perByte !== undefined) total += gas.perByte * BigInt(chargedBytes(op));
  if (op.type === 'ProposeMultiSigTx') for (const inner of op.operations) total += gasOf(inner);
  return total;
}

/** The bytes a per-byte operation is charged for, as the core's decoder records their length. */
function chargedBytes(op: Operation): number {
  // RegisterProgram: the JSON text's UTF-8 bytes.
  if (op.type === 'RegisterProgram') return Buffer.byteLength(op.program, 'utf8');
  // A new public key's bytes (docs/accounts.md "Gas").
  if (op.type === 'AddKey') return op.pubkey.length;
  if (op.type === 'RotateKey' || op.type === 'InitiateRecovery') return op.newPubkey.length;
  // CreateSchedule, ProposeMultiSigTx: the held operations' Borsh Vec, its u32 count included
  // (docs/intents.md, docs/accounts.md).
  if (op.type === 'CreateSchedule' || op.type === 'ProposeMultiSigTx') {
    const w = new BorshWriter();
    w.u32(op.operations.length, 'operations');
    for (const inner of op.operations) writeOperation(w, inner);
    return w.finish().length;
  }
  // CreateProposal: title, description and action bytes (docs/governance.md "Gas"): the operation's
  // Borsh without its discriminant and the two strings' u32 lengths.
  if (op.type === 'CreateProposal') {
    const w = new BorshWriter();
    writeOperation(w, op);
    return w.finish().length - 1 - 8;
  }
  // DaoPropose: the same bytes, after the DAO address (docs/dao.md).
  if (op.type === 'DaoPropose') {
    const w = new BorshWriter();
    writeOperation(w, op);
    return w.finish().length - 1 - 32 - 8;
  }
  throw new Error(`no per-byte gas rule for operation ${op.type}`);
}

/** Gas of a bundle of `operations`: the 5,000 base plus each operation's (what a helper sets as max_gas). */
export function bundleGasOf(operations: readonly Operation[]): bigint {
  let gas = GAS_BASE;
  for (const op of operations) gas += gasOf(op);
  return gas;
}
