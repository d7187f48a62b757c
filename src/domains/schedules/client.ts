/**
 * Schedules' wallet helpers (CreateSchedule 49, CancelSchedule 50; docs/schedules.md): the signed path of a
 * schedule, which has no RPC method of its own. Composed into Wallet (src/client/wallet.ts), which also
 * re-exports the operation builders below.
 */
import { GAS_BASE, OPERATION_GAS } from '../../abi/constants.js';
import { parseHash } from '../../codec/address.js';
import { BorshWriter } from '../../codec/borsh.js';
import { writeOperation, type CreateScheduleOp, type Operation, type ScheduleTrigger } from '../../codec/bundle.js';
import type { BundleOptions, SubmitResult, WalletCore } from '../../client/wallet-core.js';

export class ScheduleClient {
  /**
   * CreateSchedule (docs/bundle-format.md discriminant 49; docs/schedules.md):
   * `operations` run as this account on every node when the trigger says, each run paying its gas.
   * The schedule id is in the receipt's ScheduleCreated event (or scheduleIdOf: Blake3("schedule"
   * ‖ account ‖ nonce ‖ 0)). svc_getExecutionPlan shows the same operation for a Recurring or
   * Conditional intent.
   */
  async createSchedule(this: WalletCore, trigger: ScheduleTrigger, operations: Operation[], opts: BundleOptions = {}): Promise<SubmitResult> {
    const op = createScheduleOp(trigger, operations);
    return this.send([op], { maxGas: createScheduleGas(op), ...opts });
  }

  /** CancelSchedule (discriminant 50): only the schedule's owner; its id as Nxh… text or 32 bytes. */
  async cancelSchedule(this: WalletCore, scheduleId: string | Uint8Array, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.send([cancelScheduleOp(scheduleId)], { maxGas: GAS_BASE + OPERATION_GAS.CancelSchedule.base, ...opts });
  }
}

/** The CreateSchedule operation (a Conditional trigger runs exactly one Swap between its base and quote). */
export function createScheduleOp(trigger: ScheduleTrigger, operations: Operation[]): CreateScheduleOp {
  return { type: 'CreateSchedule', trigger, operations };
}

/** The CancelSchedule operation of a schedule id (Nxh… text, 0x hex or 32 bytes). */
export function cancelScheduleOp(scheduleId: string | Uint8Array): Operation {
  return { type: 'CancelSchedule', scheduleId: typeof scheduleId === 'string' ? parseHash(scheduleId) : scheduleId };
}

/**
 * Gas of a one-operation CreateSchedule bundle: GAS_BASE + its base + its price per byte of the held
 * operations (their Borsh Vec; 5,000 + 40,000 + 3 per byte, docs/schedules.md).
 */
export function createScheduleGas(op: CreateScheduleOp): bigint {
  const w = new BorshWriter();
  w.u32(op.operations.length, 'operations');
  for (const inner of op.operations) writeOperation(w, inner);
  const gas = OPERATION_GAS.CreateSchedule;
  return GAS_BASE + gas.base + gas.perByte * BigInt(w.finish().length);
}
