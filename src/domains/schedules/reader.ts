import { blake3 } from '../../codec/hash.js';
import { BorshReader } from '../../codec/borsh.js';
import { readOperation, type Operation } from '../../codec/operations.js';
import {
  MAX_CONDITIONAL_FAILURES, MAX_SCHEDULE_BYTES, MAX_SCHEDULE_OPS, SCHEDULE_MAX_DUE_PER_BLOCK, SCHEDULE_MAX_HORIZON,
  SCHEDULE_MAX_SLOTS_PER_BLOCK, SCHEDULE_MIN_INTERVAL, SCHEDULE_SLOT_SECONDS, SCHEDULE_TRIGGER_RECURRING,
} from '../../abi/constants.js';
import {
  SCHEDULE_CURSOR_KEY, decodeScheduleCursorFields, decodeScheduleFields, decodeScheduleRunFields, decodeScheduleSlotFields,
  scheduleKey, scheduleRunKey, scheduleSlotKey, type ScheduleFields,
} from '../../abi/state.js';
import type { StateReader } from '../../chain/state-reader.js';

/**
 * Schedules in chain state (docs/schedules.md; docs/core-abi.md "State layout"),
 * written only by CreateSchedule/CancelSchedule and by the due runs of apply_block
 * (assembly/domains/schedules/ops.ts). The keys (0x33 schedule, 0x34 due slot, 0x35 cursor, 0x36 run) and
 * the record layouts come from the ABI table (abi/state.mjs → src/abi/state.ts); this file turns
 * them into the domain's shapes.
 */
export { scheduleKey, scheduleRunKey, scheduleSlotKey } from '../../abi/state.js';

/** The due index's slot length (abi/constants.mjs SCHEDULE_SLOT_SECONDS). */
export const SLOT_SECONDS = SCHEDULE_SLOT_SECONDS;
/** Bounds the core applies (abi/constants.mjs; assembly/domains/schedules/ops.ts). */
export const SCHEDULE_LIMITS = {
  minIntervalSeconds: SCHEDULE_MIN_INTERVAL, horizonSeconds: SCHEDULE_MAX_HORIZON, maxOperations: MAX_SCHEDULE_OPS,
  maxOperationBytes: MAX_SCHEDULE_BYTES, maxConditionalFailures: MAX_CONDITIONAL_FAILURES,
  maxDuePerBlock: SCHEDULE_MAX_DUE_PER_BLOCK, maxSlotsPerBlock: SCHEDULE_MAX_SLOTS_PER_BLOCK,
} as const;

export type ScheduleState = 'active' | 'completed' | 'failed' | 'expired' | 'cancelled';
const STATES: readonly ScheduleState[] = ['active', 'completed', 'failed', 'expired', 'cancelled'];

/**
 * A schedule's record: its id (the key), the generated fields (abi/state.mjs Schedule) but the
 * layout version, with the trigger, state and direction by name and the operations decoded.
 * `nextDue`: unix seconds the next run (Recurring) or condition check (Conditional) is due.
 */
export interface ScheduleRecord extends Omit<ScheduleFields, 'version' | 'kind' | 'state' | 'direction' | 'operations'> {
  id: Uint8Array;
  kind: 'Recurring' | 'Conditional';
  state: ScheduleState;
  direction: 'below' | 'above';
  operations: Operation[];
}

export interface ScheduleRunRecord {
  run: number;
  height: bigint;
  time: bigint;
  status: number;
  gasUsed: bigint;
  fee: bigint;
}

/**
 * A schedule's id: Blake3("schedule" ‖ owner ‖ nonce u64 LE ‖ op_index u32 LE) of the bundle and
 * operation that created it (a nonce is used once, so ids never repeat).
 */
export function scheduleId(owner: Uint8Array, nonce: bigint, opIndex: number): Uint8Array {
  const pre = new Uint8Array(52);
  const dv = new DataView(pre.buffer);
  pre.set(Buffer.from('schedule', 'latin1'), 0);
  pre.set(owner, 8);
  dv.setBigUint64(40, nonce, true);
  dv.setUint32(48, opIndex, true);
  return blake3(pre);
}

/** The record's version the host reads (the core writes 1). */
const SCHEDULE_VERSION = 1;

export function decodeScheduleRecord(id: Uint8Array, v: Uint8Array): ScheduleRecord {
  if (v[0] !== SCHEDULE_VERSION) throw new RangeError(`schedule record of ${v.length} bytes, version ${v[0]}`);
  const { version: _version, kind, state, direction, operations: held, ...fields } = decodeScheduleFields(v);
  const r = new BorshReader(held);
  const n = r.u32('operations');
  const operations: Operation[] = [];
  for (let i = 0; i < n; i++) operations.push(readOperation(r));
  return {
    id: id.slice(), ...fields, kind: kind === SCHEDULE_TRIGGER_RECURRING ? 'Recurring' : 'Conditional', state: STATES[state] ?? 'failed',
    direction: direction === 0 ? 'below' : 'above', operations,
  };
}

export function lookupSchedule(state: StateReader, id: Uint8Array): ScheduleRecord | undefined {
  const v = state.get(scheduleKey(id));
  return v ? decodeScheduleRecord(id, v) : undefined;
}

export function lookupScheduleRun(state: StateReader, id: Uint8Array, run: number): ScheduleRunRecord | undefined {
  const v = state.get(scheduleRunKey(id, run));
  return v ? { run, ...decodeScheduleRunFields(v) } : undefined;
}

/** The runs of a schedule, the last `limit` of them (point lookups, oldest first). */
export function scheduleRuns(state: StateReader, rec: ScheduleRecord, limit = 100): ScheduleRunRecord[] {
  const out: ScheduleRunRecord[] = [];
  for (let run = Math.max(1, rec.runsDone - limit + 1); run <= rec.runsDone; run++) {
    const r = lookupScheduleRun(state, rec.id, run);
    if (r) out.push(r);
  }
  return out;
}

/** The due index's cursor: the first slot not yet fully processed, and the active schedule count. */
export function scheduleCursor(state: StateReader): { nextSlot: bigint; active: bigint } | undefined {
  const v = state.get(SCHEDULE_CURSOR_KEY);
  return v ? decodeScheduleCursorFields(v) : undefined;
}

/** The ids queued in a slot of the due index. */
export function scheduleSlot(state: StateReader, slot: bigint): Uint8Array[] {
  const v = state.get(scheduleSlotKey(slot));
  return v ? decodeScheduleSlotFields(v).ids : [];
}
