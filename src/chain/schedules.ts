import { blake3 } from '../codec/hash.js';
import { BorshReader } from '../codec/borsh.js';
import { readOperation, type Operation } from '../codec/operations.js';
import type { StateReader } from './names.js';

/**
 * Schedules in chain state (docs/intents.md "Schedules on chain"; docs/core-abi.md "State layout"),
 * written only by CreateSchedule/CancelSchedule and by the due runs of apply_block
 * (assembly/ops/schedules.ts):
 *
 *   0x33 id[32]              → ScheduleRecord (below)
 *   0x34 slot u64 (BE)       → ids queued in that 60-second slot, 32 bytes each
 *   0x35                     → next_slot u64, active u64
 *   0x36 id[32] run u32 (BE) → ScheduleRunRecord { height u64, time u64, status u16, gas u64, fee u128 }
 *
 * ScheduleRecord { version u8 = 1, owner[32], kind u8, state u8, created_height u64, created_at u64,
 *   next_due u64, queued_slot u64, runs_done u32, runs_ok u32, last_height u64, last_status u16,
 *   interval u64, runs_total u32, expiry u64, direction u8, base[32], quote[32], price_num u128,
 *   price_den u128, ops_len u32, operations (Borsh Vec<Operation>, ops_len bytes) }
 */

export const SchedulePrefix = { SCHEDULE: 0x33, SLOT: 0x34, CURSOR: 0x35, RUN: 0x36 } as const;
/** The due index's slot length (assembly/ops/schedules.ts SLOT_SECONDS). */
export const SLOT_SECONDS = 60;
/** Bounds the core applies (assembly/ops/schedules.ts). */
export const SCHEDULE_LIMITS = {
  minIntervalSeconds: 60, horizonSeconds: 315_360_000, maxOperations: 16, maxOperationBytes: 4096, maxConditionalFailures: 3,
  maxDuePerBlock: 32, maxSlotsPerBlock: 64,
} as const;

export type ScheduleState = 'active' | 'completed' | 'failed' | 'expired' | 'cancelled';
const STATES: readonly ScheduleState[] = ['active', 'completed', 'failed', 'expired', 'cancelled'];

export interface ScheduleRecord {
  id: Uint8Array;
  owner: Uint8Array;
  kind: 'Recurring' | 'Conditional';
  state: ScheduleState;
  createdHeight: bigint;
  createdAt: bigint;
  /** unix seconds the next run (Recurring) or condition check (Conditional) is due */
  nextDue: bigint;
  queuedSlot: bigint;
  runsDone: number;
  runsOk: number;
  lastHeight: bigint;
  lastStatus: number;
  intervalSeconds: bigint;
  runsTotal: number;
  expiry: bigint;
  direction: 'below' | 'above';
  base: Uint8Array;
  quote: Uint8Array;
  priceNum: bigint;
  priceDen: bigint;
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

export function scheduleKey(id: Uint8Array): Uint8Array {
  const key = new Uint8Array(33);
  key[0] = SchedulePrefix.SCHEDULE;
  key.set(id, 1);
  return key;
}

export function scheduleSlotKey(slot: bigint): Uint8Array {
  const key = new Uint8Array(9);
  key[0] = SchedulePrefix.SLOT;
  new DataView(key.buffer).setBigUint64(1, slot, false);
  return key;
}

export function scheduleCursorKey(): Uint8Array {
  return Uint8Array.of(SchedulePrefix.CURSOR);
}

export function scheduleRunKey(id: Uint8Array, run: number): Uint8Array {
  const key = new Uint8Array(37);
  key[0] = SchedulePrefix.RUN;
  key.set(id, 1);
  new DataView(key.buffer).setUint32(33, run, false);
  return key;
}

const u128 = (dv: DataView, o: number) => dv.getBigUint64(o, true) | (dv.getBigUint64(o + 8, true) << 64n);

export function decodeScheduleRecord(id: Uint8Array, v: Uint8Array): ScheduleRecord {
  if (v.length < 206 || v[0] !== 1) throw new RangeError(`schedule record of ${v.length} bytes, version ${v[0]}`);
  const dv = new DataView(v.buffer, v.byteOffset, v.byteLength);
  const opsLen = dv.getUint32(202, true);
  const r = new BorshReader(v.subarray(206, 206 + opsLen));
  const n = r.u32('operations');
  const operations: Operation[] = [];
  for (let i = 0; i < n; i++) operations.push(readOperation(r));
  return {
    id: id.slice(), owner: v.slice(1, 33), kind: v[33] === 0 ? 'Recurring' : 'Conditional', state: STATES[v[34]!] ?? 'failed',
    createdHeight: dv.getBigUint64(35, true), createdAt: dv.getBigUint64(43, true), nextDue: dv.getBigUint64(51, true),
    queuedSlot: dv.getBigUint64(59, true), runsDone: dv.getUint32(67, true), runsOk: dv.getUint32(71, true),
    lastHeight: dv.getBigUint64(75, true), lastStatus: dv.getUint16(83, true), intervalSeconds: dv.getBigUint64(85, true),
    runsTotal: dv.getUint32(93, true), expiry: dv.getBigUint64(97, true), direction: v[105] === 0 ? 'below' : 'above',
    base: v.slice(106, 138), quote: v.slice(138, 170), priceNum: u128(dv, 170), priceDen: u128(dv, 186), operations,
  };
}

export function lookupSchedule(state: StateReader, id: Uint8Array): ScheduleRecord | undefined {
  const v = state.get(scheduleKey(id));
  return v ? decodeScheduleRecord(id, v) : undefined;
}

export function lookupScheduleRun(state: StateReader, id: Uint8Array, run: number): ScheduleRunRecord | undefined {
  const v = state.get(scheduleRunKey(id, run));
  if (!v || v.length !== 42) return undefined;
  const dv = new DataView(v.buffer, v.byteOffset, v.byteLength);
  return { run, height: dv.getBigUint64(0, true), time: dv.getBigUint64(8, true), status: dv.getUint16(16, true), gasUsed: dv.getBigUint64(18, true), fee: u128(dv, 26) };
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
  const v = state.get(scheduleCursorKey());
  if (!v || v.length !== 16) return undefined;
  const dv = new DataView(v.buffer, v.byteOffset, v.byteLength);
  return { nextSlot: dv.getBigUint64(0, true), active: dv.getBigUint64(8, true) };
}

/** The ids queued in a slot of the due index. */
export function scheduleSlot(state: StateReader, slot: bigint): Uint8Array[] {
  const v = state.get(scheduleSlotKey(slot));
  const out: Uint8Array[] = [];
  if (v) for (let o = 0; o + 32 <= v.length; o += 32) out.push(v.slice(o, o + 32));
  return out;
}
