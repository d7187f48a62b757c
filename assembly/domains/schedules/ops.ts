// Schedules on chain: CreateSchedule (disc. 49), CancelSchedule (disc. 50) and the due runs of
// apply_block (docs/schedules.md; docs/core-abi.md "Schedules").
//
// A Recurring or Conditional intent is chain state so that every node runs it at the same height
// and every replay agrees. The record holds the owner, the trigger and the operations the host's
// planner compiled (a Borsh Vec<Operation>, as in a bundle). Runs happen inside apply_block, after
// the block's bundles: the core has only point lookups, so a due index keyed by a 60-second time
// slot (0x34 slot → ids) and a cursor (0x35: the first slot not yet fully processed) say what is
// due; a block walks the slots from the cursor up to its own, bounded per block, and what does not
// fit carries over to the next block. The current slot stays open: an entry in it runs once the
// block time reaches its due time, and entries added to it later still run on time.
//
//   0x33 id[32]                 → ScheduleRecord (below)
//   0x34 slot u64 BE            → the ids queued in that slot, 32 bytes each, in queue order
//   0x35                        → next_slot u64, active u64 (schedules still active)
//   0x36 id[32] run u32 BE      → ScheduleRunRecord: height u64, time u64, status u16, gas u64, fee u128

import * as S from "../../status";
import * as U from "../../u128";
import * as W from "../../wide";
import { mulDiv } from "../../amm";
import { KEY } from "../../keys";
import { lookup, exists, setValue, deleteValue, valPtr, valLen } from "../../state";
import { ctxHeight, ctxTimestamp } from "../../context";
import { blake3 } from "../../blake3";
import { emitScheduleCancelled, emitScheduleCreated, emitScheduleRun } from "../../events-gen";
import { bufNew, bufPtr, bufLen, bufSetLen, bufBytes, bytesEq } from "../../mem";
import { readerInit, atEnd } from "../../borsh";
import { decodeOps, opsCount } from "../../bundle";
import {
  BUNDLE_LEVEL_OP,
  MAX_SCHEDULE_OPS, OP_CREATE_TOKEN, OP_CREATE_ATOMENCE_ORDER, OP_SWAP, P_SCHEDULE, P_SCHEDULE_SLOT, P_SCHEDULE_CURSOR, P_SCHEDULE_RUN,
  SCHEDULE_RUN_INDEX, SCHEDULE_SLOT_SECONDS, SCHEDULE_MAX_SLOTS_PER_BLOCK, SCHEDULE_MAX_DUE_PER_BLOCK, SCHEDULE_MIN_INTERVAL,
  SCHEDULE_MAX_HORIZON, MAX_SCHEDULE_BYTES, MAX_CONDITIONAL_FAILURES, SCHEDULE_TRIGGER_RECURRING, SCHEDULE_TRIGGER_CONDITIONAL,
  R_SCHEDULE_VERSION, R_SCHEDULE_OWNER, R_SCHEDULE_KIND, R_SCHEDULE_STATE, R_SCHEDULE_CREATED_HEIGHT, R_SCHEDULE_CREATED_AT,
  R_SCHEDULE_NEXT_DUE, R_SCHEDULE_QUEUED_SLOT, R_SCHEDULE_RUNS_DONE, R_SCHEDULE_RUNS_OK, R_SCHEDULE_LAST_HEIGHT, R_SCHEDULE_LAST_STATUS,
  R_SCHEDULE_INTERVAL_SECONDS, R_SCHEDULE_RUNS_TOTAL, R_SCHEDULE_EXPIRY, R_SCHEDULE_DIRECTION, R_SCHEDULE_BASE, R_SCHEDULE_QUOTE,
  R_SCHEDULE_PRICE_NUM, R_SCHEDULE_PRICE_DEN, R_SCHEDULE_OPERATIONS, R_SCHEDULE_OPERATIONS_DATA,
  R_SCHEDULE_CURSOR_NEXT_SLOT, R_SCHEDULE_CURSOR_ACTIVE, R_SCHEDULE_CURSOR_BYTES,
  R_SCHEDULE_RUN_HEIGHT, R_SCHEDULE_RUN_TIME, R_SCHEDULE_RUN_STATUS, R_SCHEDULE_RUN_GAS_USED, R_SCHEDULE_RUN_FEE, R_SCHEDULE_RUN_BYTES, OP_SWAP_BYTES, OPF_SWAP_TO_TOKEN, OPF_SWAP_AMOUNT_IN, OPF_SWAP_MIN_AMOUNT_OUT, OPF_SCHEDULE_TRIGGER_RECURRING_RUNS, OPF_SCHEDULE_TRIGGER_RECURRING_FIRST_RUN, OPF_SCHEDULE_TRIGGER_CONDITIONAL_QUOTE, OPF_SCHEDULE_TRIGGER_CONDITIONAL_DIRECTION, OPF_SCHEDULE_TRIGGER_CONDITIONAL_PRICE_NUM, OPF_SCHEDULE_TRIGGER_CONDITIONAL_PRICE_DEN, OPF_SCHEDULE_TRIGGER_CONDITIONAL_EXPIRY,
} from "../../abi";
import { poolReserves, resALo, resAHi, resBLo, resBHi } from "../dex/ops";
import { OPR_FIELDS, OPR_CREATE_SCHEDULE_TRIGGER_TAG, OPR_CREATE_SCHEDULE_TRIGGER, OPR_CREATE_SCHEDULE_OPERATIONS, OPR_CREATE_SCHEDULE_OPERATIONS_LEN } from "../../decode-ops";

// Key prefixes, event kinds, the trigger tags (the record's kind) and the bounds below come from
// the ABI table (abi/*.mjs → assembly/abi.ts; docs/core-abi.md "How the ABI is generated").
// @ts-ignore: decorator
@inline export const STATE_ACTIVE: u8 = 0;
// @ts-ignore: decorator
@inline export const STATE_COMPLETED: u8 = 1;
// @ts-ignore: decorator
@inline export const STATE_FAILED: u8 = 2;
// @ts-ignore: decorator
@inline export const STATE_EXPIRED: u8 = 3;
// @ts-ignore: decorator
@inline export const STATE_CANCELLED: u8 = 4;

// ScheduleRecord, ScheduleCursor and ScheduleRunRecord offsets come from their rows in
// abi/state.mjs (R_SCHEDULE_*, R_SCHEDULE_CURSOR_*, R_SCHEDULE_RUN_*; docs/core-abi.md "Schedules").
// @ts-ignore: decorator
@inline const RECORD_VERSION: u8 = 1;

/** The operations of the run being executed, decoded (32-byte op records, as assembly/bundle.ts OPS). */
export const RUN_OPS = memory.data(MAX_SCHEDULE_OPS * 32);
export let runOpCount: u32 = 0;
/** The schedule whose run is executing (its owner acts). */
export const RUN_OWNER = memory.data(32);

const REC = memory.data(<i32>(R_SCHEDULE_OPERATIONS_DATA + MAX_SCHEDULE_BYTES));
const ID = memory.data(32);
const PRE = memory.data(8 + 32 + 8 + 4);
const SWAP = memory.data(OP_SWAP_BYTES); // a copy of the run's Swap fields
const RUNREC = memory.data(R_SCHEDULE_RUN_BYTES);
const CTL = memory.data(R_SCHEDULE_CURSOR_BYTES);
const WA = memory.data(48);
const WB = memory.data(48);
const WC = memory.data(48);
const WD = memory.data(48);
const list = bufNew(4096);
const keep = bufNew(4096);
const tmp = bufNew(4096);

let runGas: u64 = 0;
let runFeeLo: u64 = 0;
let runFeeHi: u64 = 0;

/** What the run executor (assembly/block.ts) charged for the run that just executed. */
export function setRunCost(gas: u64, feeLo: u64, feeHi: u64): void {
  runGas = gas;
  runFeeLo = feeLo;
  runFeeHi = feeHi;
}

function scheduleEntry(id: usize): usize {
  store<u8>(KEY, P_SCHEDULE);
  memory.copy(KEY + 1, id, 32);
  return lookup(KEY, 33);
}

function slotEntry(slot: u64): usize {
  store<u8>(KEY, P_SCHEDULE_SLOT);
  store<u64>(KEY + 1, bswap<u64>(slot));
  return lookup(KEY, 9);
}

function cursorEntry(): usize {
  store<u8>(KEY, P_SCHEDULE_CURSOR);
  return lookup(KEY, 1);
}

function runEntry(id: usize, run: u32): usize {
  store<u8>(KEY, P_SCHEDULE_RUN);
  memory.copy(KEY + 1, id, 32);
  store<u32>(KEY + 33, bswap<u32>(run));
  return lookup(KEY, 37);
}

/** Load 0x35 into CTL (next_slot, active); false when absent. */
function loadCursor(): bool {
  let c = cursorEntry();
  if (!exists(c) || valLen(c) != R_SCHEDULE_CURSOR_BYTES) return false;
  memory.copy(CTL, valPtr(c), R_SCHEDULE_CURSOR_BYTES);
  return true;
}

function storeCursor(nextSlot: u64, active: u64): void {
  store<u64>(CTL + R_SCHEDULE_CURSOR_NEXT_SLOT, nextSlot);
  store<u64>(CTL + R_SCHEDULE_CURSOR_ACTIVE, active);
  setValue(cursorEntry(), CTL, R_SCHEDULE_CURSOR_BYTES);
}

/** Append id to the list of `slot`. */
function enqueue(id: usize, slot: u64): void {
  let e = slotEntry(slot);
  bufSetLen(tmp, 0);
  if (exists(e)) bufBytes(tmp, valPtr(e), <u32>valLen(e));
  bufBytes(tmp, id, 32);
  setValue(e, bufPtr(tmp), bufLen(tmp));
}

/** Remove id from the list of `slot` (CancelSchedule). */
function dequeue(id: usize, slot: u64): void {
  let e = slotEntry(slot);
  if (!exists(e)) return;
  let n = <u32>valLen(e) >> 5;
  let p = valPtr(e);
  bufSetLen(tmp, 0);
  for (let i: u32 = 0; i < n; i++) {
    if (!bytesEq(p + (<usize>i << 5), id, 32)) bufBytes(tmp, p + (<usize>i << 5), 32);
  }
  if (bufLen(tmp) == 0) deleteValue(e);
  else setValue(e, bufPtr(tmp), bufLen(tmp));
}

/**
 * Decode a schedule's operations (Borsh Vec<Operation>) into RUN_OPS; false when they are not a
 * canonical list of 1–16 operations without CreateSchedule/CancelSchedule.
 */
function decodeRunOps(p: usize, n: u32): bool {
  readerInit(p, n);
  let st = decodeOps(RUN_OPS, MAX_SCHEDULE_OPS, true);
  if (st != S.OK || !atEnd()) return false;
  runOpCount = opsCount;
  return true;
}

/**
 * CreateSchedule { trigger, operations } (op record: +4 tag +8 triggerPtr +12 opsPtr +16 opsLen).
 * Order of checks: INVALID_SCHEDULE_TRIGGER → INVALID_SCHEDULE_OPERATIONS. The id is
 * Blake3("schedule" ‖ owner ‖ nonce u64 LE ‖ op_index u32 LE): unique, since a nonce is used once.
 */
export function execCreateSchedule(user: usize, op: usize, nonce: u64, bundleIndex: u32, opIndex: u32): u32 {
  let tag = <u8>load<u32>(op, OPR_CREATE_SCHEDULE_TRIGGER_TAG);
  let t = <usize>load<u32>(op, OPR_CREATE_SCHEDULE_TRIGGER);
  let ops = <usize>load<u32>(op, OPR_CREATE_SCHEDULE_OPERATIONS);
  let opsLen = load<u32>(op, OPR_CREATE_SCHEDULE_OPERATIONS_LEN);
  let now = ctxTimestamp;
  memory.fill(REC, 0, R_SCHEDULE_OPERATIONS_DATA);
  store<u8>(REC + R_SCHEDULE_VERSION, RECORD_VERSION);
  memory.copy(REC + R_SCHEDULE_OWNER, user, 32);
  store<u8>(REC + R_SCHEDULE_KIND, tag);
  store<u8>(REC + R_SCHEDULE_STATE, STATE_ACTIVE);
  store<u64>(REC + R_SCHEDULE_CREATED_HEIGHT, ctxHeight);
  store<u64>(REC + R_SCHEDULE_CREATED_AT, now);
  let due = now;
  if (tag == SCHEDULE_TRIGGER_RECURRING) {
    let interval = load<u64>(t);
    let runs = load<u32>(t, OPF_SCHEDULE_TRIGGER_RECURRING_RUNS);
    let first = load<u64>(t, OPF_SCHEDULE_TRIGGER_RECURRING_FIRST_RUN);
    if (interval < SCHEDULE_MIN_INTERVAL || interval > SCHEDULE_MAX_HORIZON || runs == 0) return S.INVALID_SCHEDULE_TRIGGER;
    if (first > now && first - now > SCHEDULE_MAX_HORIZON) return S.INVALID_SCHEDULE_TRIGGER;
    if (first > now) due = first;
    store<u64>(REC + R_SCHEDULE_INTERVAL_SECONDS, interval);
    store<u32>(REC + R_SCHEDULE_RUNS_TOTAL, runs);
  } else {
    let base = t, quote = t + OPF_SCHEDULE_TRIGGER_CONDITIONAL_QUOTE;
    let dir = load<u8>(t, OPF_SCHEDULE_TRIGGER_CONDITIONAL_DIRECTION);
    let numL = load<u64>(t, OPF_SCHEDULE_TRIGGER_CONDITIONAL_PRICE_NUM), numH = load<u64>(t, OPF_SCHEDULE_TRIGGER_CONDITIONAL_PRICE_NUM + 8), denL = load<u64>(t, OPF_SCHEDULE_TRIGGER_CONDITIONAL_PRICE_DEN), denH = load<u64>(t, OPF_SCHEDULE_TRIGGER_CONDITIONAL_PRICE_DEN + 8);
    let expiry = load<u64>(t, OPF_SCHEDULE_TRIGGER_CONDITIONAL_EXPIRY);
    if (dir > 1 || (numL | numH) == 0 || (denL | denH) == 0 || bytesEq(base, quote, 32)) return S.INVALID_SCHEDULE_TRIGGER;
    if (expiry <= now || expiry - now > SCHEDULE_MAX_HORIZON) return S.INVALID_SCHEDULE_TRIGGER;
    store<u32>(REC + R_SCHEDULE_RUNS_TOTAL, 1);
    store<u64>(REC + R_SCHEDULE_EXPIRY, expiry);
    store<u8>(REC + R_SCHEDULE_DIRECTION, dir);
    memory.copy(REC + R_SCHEDULE_BASE, base, 32);
    memory.copy(REC + R_SCHEDULE_QUOTE, quote, 32);
    memory.copy(REC + R_SCHEDULE_PRICE_NUM, t + OPF_SCHEDULE_TRIGGER_CONDITIONAL_PRICE_NUM, 32); // price_num and price_den
  }
  if (opsLen > MAX_SCHEDULE_BYTES || !decodeRunOps(ops, opsLen)) return S.INVALID_SCHEDULE_OPERATIONS;
  for (let k: u32 = 0; k < runOpCount; k++) {
    // CreateToken and CreateAtomenceOrder derive their mint or order id from the bundle's nonce,
    // which a run does not have (docs/settlement.md "Addresses").
    let heldKind = load<u32>(RUN_OPS + (<usize>k << 5));
    if (heldKind == OP_CREATE_TOKEN || heldKind == OP_CREATE_ATOMENCE_ORDER) return S.INVALID_SCHEDULE_OPERATIONS;
  }
  if (tag == SCHEDULE_TRIGGER_CONDITIONAL) {
    // A Conditional run is one Swap of the trigger's pair, in either direction.
    if (runOpCount != 1 || load<u32>(RUN_OPS) != OP_SWAP) return S.INVALID_SCHEDULE_OPERATIONS;
    let f = <usize>load<u32>(RUN_OPS, OPR_FIELDS);
    let pairOk = (bytesEq(f, REC + R_SCHEDULE_BASE, 32) && bytesEq(f + OPF_SWAP_TO_TOKEN, REC + R_SCHEDULE_QUOTE, 32))
      || (bytesEq(f, REC + R_SCHEDULE_QUOTE, 32) && bytesEq(f + OPF_SWAP_TO_TOKEN, REC + R_SCHEDULE_BASE, 32));
    if (!pairOk) return S.INVALID_SCHEDULE_OPERATIONS;
  }
  memory.copy(PRE, memory.data<u8>([0x73, 0x63, 0x68, 0x65, 0x64, 0x75, 0x6c, 0x65]), 8); // "schedule"
  memory.copy(PRE + 8, user, 32);
  store<u64>(PRE + 40, nonce);
  store<u32>(PRE + 48, opIndex);
  blake3(PRE, 52, ID);
  let e = scheduleEntry(ID);
  if (exists(e)) return S.INVALID_SCHEDULE_TRIGGER; // unreachable: the id hashes a used-once nonce
  // The cursor starts at the current slot when nothing is queued (its lists are all empty then).
  let nextSlot = now / SCHEDULE_SLOT_SECONDS;
  let active: u64 = 0;
  if (loadCursor()) {
    active = load<u64>(CTL + R_SCHEDULE_CURSOR_ACTIVE);
    if (active > 0) nextSlot = load<u64>(CTL + R_SCHEDULE_CURSOR_NEXT_SLOT);
  }
  let slot = due / SCHEDULE_SLOT_SECONDS;
  if (slot < nextSlot) slot = nextSlot;
  store<u64>(REC + R_SCHEDULE_NEXT_DUE, due);
  store<u64>(REC + R_SCHEDULE_QUEUED_SLOT, slot);
  store<u32>(REC + R_SCHEDULE_OPERATIONS, opsLen);
  memory.copy(REC + R_SCHEDULE_OPERATIONS_DATA, ops, opsLen);
  setValue(e, REC, <u32>R_SCHEDULE_OPERATIONS_DATA + opsLen);
  enqueue(ID, slot);
  storeCursor(nextSlot, active + 1);
  // ScheduleCreated: id[32] owner[32] kind u8 next_due u64
  emitScheduleCreated(bundleIndex, <u16>opIndex, ID, user, tag, due);
  return S.OK;
}

/** CancelSchedule { schedule_id[32] }: SCHEDULE_NOT_FOUND → NOT_SCHEDULE_OWNER → SCHEDULE_NOT_ACTIVE. */
export function execCancelSchedule(user: usize, op: usize, bundleIndex: u32, opIndex: u32): u32 {
  let id = <usize>load<u32>(op, OPR_FIELDS);
  let e = scheduleEntry(id);
  if (!exists(e)) return S.SCHEDULE_NOT_FOUND;
  let r = valPtr(e);
  if (!bytesEq(r + R_SCHEDULE_OWNER, user, 32)) return S.NOT_SCHEDULE_OWNER;
  if (load<u8>(r + R_SCHEDULE_STATE) != STATE_ACTIVE) return S.SCHEDULE_NOT_ACTIVE;
  let len = <u32>valLen(e);
  memory.copy(REC, r, len);
  memory.copy(ID, id, 32);
  store<u8>(REC + R_SCHEDULE_STATE, STATE_CANCELLED);
  setValue(e, REC, len);
  dequeue(ID, load<u64>(REC + R_SCHEDULE_QUEUED_SLOT));
  loadCursor();
  storeCursor(load<u64>(CTL + R_SCHEDULE_CURSOR_NEXT_SLOT), load<u64>(CTL + R_SCHEDULE_CURSOR_ACTIVE) - 1);
  // ScheduleCancelled: id[32] owner[32]
  emitScheduleCancelled(bundleIndex, <u16>opIndex, ID, user);
  return S.OK;
}

/** Whether the spot price of the record's base in its quote (raw units) is below/above num/den. */
function conditionMet(): bool {
  if (!poolReserves(REC + R_SCHEDULE_BASE, REC + R_SCHEDULE_QUOTE)) return false;
  // price = reserve_quote / reserve_base vs num/den, cross-multiplied in 256 bits (no division).
  W.wSet128(WA, resBLo, resBHi);
  W.wSet128(WB, load<u64>(REC + R_SCHEDULE_PRICE_DEN), load<u64>(REC + R_SCHEDULE_PRICE_DEN + 8));
  W.wMul(WC, WA, WB);
  W.wSet128(WA, load<u64>(REC + R_SCHEDULE_PRICE_NUM), load<u64>(REC + R_SCHEDULE_PRICE_NUM + 8));
  W.wSet128(WB, resALo, resAHi);
  W.wMul(WD, WA, WB);
  let c = W.wCmp(WC, WD);
  return load<u8>(REC + R_SCHEDULE_DIRECTION) == 0 ? c < 0 : c > 0;
}

/**
 * The Conditional run's Swap with its min_amount_out raised to what the limit price guarantees:
 * buying base with quote, amount_in × den / num; selling base for quote, amount_in × num / den
 * (floor; a quotient beyond u128 makes the swap fail SLIPPAGE_EXCEEDED). The larger of that and
 * the Swap's own minimum applies.
 */
function limitSwap(): void {
  let f = <usize>load<u32>(RUN_OPS, OPR_FIELDS);
  memory.copy(SWAP, f, OP_SWAP_BYTES);
  let inL = load<u64>(SWAP, OPF_SWAP_AMOUNT_IN), inH = load<u64>(SWAP, OPF_SWAP_AMOUNT_IN + 8);
  let numL = load<u64>(REC + R_SCHEDULE_PRICE_NUM), numH = load<u64>(REC + R_SCHEDULE_PRICE_NUM + 8);
  let denL = load<u64>(REC + R_SCHEDULE_PRICE_DEN), denH = load<u64>(REC + R_SCHEDULE_PRICE_DEN + 8);
  let buying = bytesEq(SWAP, REC + R_SCHEDULE_QUOTE, 32);
  let fits = buying ? mulDiv(inL, inH, denL, denH, numL, numH) : mulDiv(inL, inH, numL, numH, denL, denH);
  let mL = fits ? U.lo : 0xffffffffffffffff, mH = fits ? U.hi : 0xffffffffffffffff;
  if (U.lt128(load<u64>(SWAP, OPF_SWAP_MIN_AMOUNT_OUT), load<u64>(SWAP, OPF_SWAP_MIN_AMOUNT_OUT + 8), mL, mH)) {
    store<u64>(SWAP, mL, OPF_SWAP_MIN_AMOUNT_OUT);
    store<u64>(SWAP, mH, OPF_SWAP_MIN_AMOUNT_OUT + 8);
  }
  store<u32>(RUN_OPS, <u32>SWAP, OPR_FIELDS);
}

/** Run the schedule in REC (id in ID) through `run`; record the run and emit ScheduleRun. */
function runOnce(run: () => u32): u32 {
  let opsLen = load<u32>(REC + R_SCHEDULE_OPERATIONS);
  assert(decodeRunOps(REC + R_SCHEDULE_OPERATIONS_DATA, opsLen), "stored schedule operations decode"); // checked at creation
  if (load<u8>(REC + R_SCHEDULE_KIND) == SCHEDULE_TRIGGER_CONDITIONAL) limitSwap();
  memory.copy(RUN_OWNER, REC + R_SCHEDULE_OWNER, 32);
  setRunCost(0, 0, 0);
  let st = run();
  let n = load<u32>(REC + R_SCHEDULE_RUNS_DONE) + 1;
  store<u32>(REC + R_SCHEDULE_RUNS_DONE, n);
  if (st == S.OK) store<u32>(REC + R_SCHEDULE_RUNS_OK, load<u32>(REC + R_SCHEDULE_RUNS_OK) + 1);
  store<u64>(REC + R_SCHEDULE_LAST_HEIGHT, ctxHeight);
  store<u16>(REC + R_SCHEDULE_LAST_STATUS, <u16>st);
  store<u64>(RUNREC + R_SCHEDULE_RUN_HEIGHT, ctxHeight);
  store<u64>(RUNREC + R_SCHEDULE_RUN_TIME, ctxTimestamp);
  store<u16>(RUNREC + R_SCHEDULE_RUN_STATUS, <u16>st);
  store<u64>(RUNREC + R_SCHEDULE_RUN_GAS_USED, runGas);
  store<u64>(RUNREC + R_SCHEDULE_RUN_FEE, runFeeLo);
  store<u64>(RUNREC + R_SCHEDULE_RUN_FEE + 8, runFeeHi);
  setValue(runEntry(ID, n), RUNREC, R_SCHEDULE_RUN_BYTES);
  // ScheduleRun: id[32] owner[32] run u32 status u16 gas u64 fee u128 (after the run's own events)
  emitScheduleRun(SCHEDULE_RUN_INDEX, BUNDLE_LEVEL_OP, ID, REC + R_SCHEDULE_OWNER, n, <u16>st, runGas, runFeeLo, runFeeHi);

  return st;
}

/**
 * Handle one due schedule (its record in REC, its id in ID) in slot `s`: run it or check its
 * condition, then requeue it (at slot ≥ s + 1, so it never runs twice in one block) or end it.
 * Returns whether it stays active.
 */
function handleDue(run: () => u32, s: u64): bool {
  let now = ctxTimestamp;
  let due = load<u64>(REC + R_SCHEDULE_NEXT_DUE);
  let next: u64 = 0;
  let state = STATE_ACTIVE;
  if (load<u8>(REC + R_SCHEDULE_KIND) == SCHEDULE_TRIGGER_RECURRING) {
    runOnce(run);
    let interval = load<u64>(REC + R_SCHEDULE_INTERVAL_SECONDS);
    if (load<u32>(REC + R_SCHEDULE_RUNS_DONE) >= load<u32>(REC + R_SCHEDULE_RUNS_TOTAL)) {
      state = load<u32>(REC + R_SCHEDULE_RUNS_OK) > 0 ? STATE_COMPLETED : STATE_FAILED;
    } else {
      // The next run an interval after this one was due; a schedule that fell behind (the chain
      // was down) resumes an interval from now instead of running its missed runs back to back.
      next = due + interval;
      if (next <= now) next = now + interval;
    }
  } else if (now > load<u64>(REC + R_SCHEDULE_EXPIRY)) {
    state = STATE_EXPIRED;
  } else if (!conditionMet()) {
    next = now + SCHEDULE_SLOT_SECONDS;
  } else {
    let st = runOnce(run);
    let failed = load<u32>(REC + R_SCHEDULE_RUNS_DONE) - load<u32>(REC + R_SCHEDULE_RUNS_OK);
    if (st == S.OK) state = STATE_COMPLETED;
    else if (failed >= MAX_CONDITIONAL_FAILURES) state = STATE_FAILED;
    else next = now + SCHEDULE_SLOT_SECONDS;
  }
  store<u8>(REC + R_SCHEDULE_STATE, state);
  if (state == STATE_ACTIVE) {
    let slot = next / SCHEDULE_SLOT_SECONDS;
    if (slot <= s) slot = s + 1;
    store<u64>(REC + R_SCHEDULE_NEXT_DUE, next);
    store<u64>(REC + R_SCHEDULE_QUEUED_SLOT, slot);
    enqueue(ID, slot);
  }
  setValue(scheduleEntry(ID), REC, <u32>R_SCHEDULE_OPERATIONS_DATA + load<u32>(REC + R_SCHEDULE_OPERATIONS));
  return state == STATE_ACTIVE;
}

/**
 * The due schedules of the open block (one call from apply_block, after its bundles): slots from
 * the cursor up to the block's slot, at most SCHEDULE_MAX_SLOTS_PER_BLOCK slots and SCHEDULE_MAX_DUE_PER_BLOCK due
 * entries; what is left stays queued for the next block. `run` executes the decoded RUN_OPS as
 * RUN_OWNER, charges the fee and reports it with setRunCost (assembly/block.ts).
 */
export function processSchedules(run: () => u32): void {
  if (!loadCursor()) return;
  let nextSlot = load<u64>(CTL + R_SCHEDULE_CURSOR_NEXT_SLOT);
  let active = load<u64>(CTL + R_SCHEDULE_CURSOR_ACTIVE);
  if (active == 0) return;
  let now = ctxTimestamp;
  let cur = now / SCHEDULE_SLOT_SECONDS;
  let handled: u32 = 0;
  let slots: u32 = 0;
  let s = nextSlot;
  while (s <= cur && slots < SCHEDULE_MAX_SLOTS_PER_BLOCK && handled < SCHEDULE_MAX_DUE_PER_BLOCK && active > 0) {
    let e = slotEntry(s);
    let left = false;
    if (exists(e)) {
      bufSetLen(list, 0);
      bufBytes(list, valPtr(e), <u32>valLen(e));
      bufSetLen(keep, 0);
      let n = bufLen(list) >> 5;
      for (let i: u32 = 0; i < n; i++) {
        let id = bufPtr(list) + (<usize>i << 5);
        let re = scheduleEntry(id);
        let len = <u32>valLen(re);
        if (handled >= SCHEDULE_MAX_DUE_PER_BLOCK || load<u64>(valPtr(re) + R_SCHEDULE_NEXT_DUE) > now) {
          bufBytes(keep, id, 32);
          continue;
        }
        handled++;
        memory.copy(REC, valPtr(re), len);
        memory.copy(ID, id, 32);
        if (!handleDue(run, s)) active--;
      }
      left = bufLen(keep) > 0;
      if (left) setValue(e, bufPtr(keep), bufLen(keep));
      else deleteValue(e);
    }
    // The block's own slot stays open; a slot with entries left is resumed by the next block.
    if (left || s == cur) break;
    s++;
    slots++;
  }
  if (s != nextSlot || active != load<u64>(CTL + R_SCHEDULE_CURSOR_ACTIVE)) storeCursor(s, active);
}
