// Presales, anti-rug (spec §4.5; docs/presales.md): CreatePresale (95), ContributePresale (96),
// FinalizePresale (97), RefundPresale (98), ClaimPresaleTokens (99).
//
// Anti-rug: the tokens for sale and for liquidity at the hard cap (and the DEX's 100 NTV pool fee)
// move into the presale's escrow account at creation; contributions move into it too. Nothing
// leaves the escrow for the creator before finalization: finalizing creates the DEX pool from the
// escrow (assembly/domains/dex/ops.ts createPoolFor) with the liquidity share, the creator's LP locked in
// the pool record for lp_lock_duration, and only then releases the rest of the raise and the unsold
// tokens to the creator. Contributors then claim their tokens one by one (constant work per
// operation). Below the soft cap each contributor refunds in full and the creator takes its escrow
// back. Presale address = Blake3("ntv.presale.v1" ‖ id u64 LE).

import * as S from "../../status";
import * as U from "../../u128";
import * as M from "../../amm";
import * as D from "../dex/ops";
import { contributionEntry, presaleEntry, tokenEntry } from "../../keys";
import { exists, setValue, valPtr } from "../../state";
import { bytesEq } from "../../mem";
import { ctxHeight, ctxTimestamp, NTV_MINT } from "../../context";
import { ld, moveAmount, nextId, st128 } from "../../ops/escrow";
import { emitPresaleCreated } from "../../events-gen";
import {
  P_PRESALE_COUNT, PRESALE_RATE_SCALE, PRESALE_MIN_LOCK,
  R_PRESALE_VERSION, R_PRESALE_ID, R_PRESALE_CREATOR, R_PRESALE_TOKEN, R_PRESALE_PAY_TOKEN, R_PRESALE_RATE, R_PRESALE_SOFT_CAP,
  R_PRESALE_HARD_CAP, R_PRESALE_MIN_CONTRIBUTION, R_PRESALE_MAX_CONTRIBUTION, R_PRESALE_START_TIME, R_PRESALE_END_TIME,
  R_PRESALE_LIQUIDITY_BPS, R_PRESALE_LP_LOCK_DURATION, R_PRESALE_RAISED, R_PRESALE_CONTRIBUTORS, R_PRESALE_FLAGS,
  R_PRESALE_SALE_ESCROW, R_PRESALE_LIQUIDITY_ESCROW, R_PRESALE_CREATED_AT, R_PRESALE_CREATED_HEIGHT, R_PRESALE_FINALIZED_AT,
  R_PRESALE_FINALIZED_HEIGHT, R_PRESALE_LIQUIDITY_PAID, R_PRESALE_LIQUIDITY_TOKENS, R_PRESALE_LP_LOCKED, R_PRESALE_LP_LOCK_UNTIL,
  R_PRESALE_TOKENS_SOLD, R_PRESALE_CREATOR_PROCEEDS, R_PRESALE_BYTES, R_CONTRIB_AMOUNT, R_CONTRIB_STATE, R_CONTRIB_BYTES,
  OPF_CREATE_PRESALE_END_TIME, OPF_CREATE_PRESALE_HARD_CAP, OPF_CREATE_PRESALE_LIQUIDITY_BPS, OPF_CREATE_PRESALE_LP_LOCK_DURATION, OPF_CREATE_PRESALE_MAX_CONTRIBUTION, OPF_CREATE_PRESALE_MIN_CONTRIBUTION, OPF_CREATE_PRESALE_PAY_TOKEN, OPF_CREATE_PRESALE_RATE, OPF_CREATE_PRESALE_SOFT_CAP, OPF_CREATE_PRESALE_START_TIME,
  OPF_CONTRIBUTE_PRESALE_AMOUNT,
} from "../../abi";

/** flags: bit0 finalized, bit1 the creator took its escrow back (a failed presale). */
const FINALIZED: u8 = 1;
const CREATOR_REFUNDED: u8 = 2;
/** contribution state */
const OPEN: u8 = 0;
const CLAIMED: u8 = 1;
const REFUNDED: u8 = 2;

const REC = memory.data(R_PRESALE_BYTES);
const CON = memory.data(R_CONTRIB_BYTES);
const ADDR = memory.data(32);
/** "ntv.presale.v1" (14 ASCII bytes): the presale address domain. */
const DOMAIN = memory.data<u8>([0x6e, 0x74, 0x76, 0x2e, 0x70, 0x72, 0x65, 0x73, 0x61, 0x6c, 0x65, 0x2e, 0x76, 0x31]);



/** Load the presale at `addr` into REC; 0 when absent. */
function loadPresale(addr: usize): usize {
  let e = presaleEntry(addr);
  if (!exists(e)) return 0;
  memory.copy(REC, valPtr(e), R_PRESALE_BYTES);
  return e;
}

/** floor(x·rate / PRESALE_RATE_SCALE) into U; false when it exceeds u128. */
function tokensFor(xl: u64, xh: u64): bool {
  return M.mulDiv(xl, xh, ld(REC, R_PRESALE_RATE), ld(REC, R_PRESALE_RATE + 8), PRESALE_RATE_SCALE, 0);
}
/** floor(x·liquidity_bps / 10,000) into U (always fits). */
function liquidityShare(xl: u64, xh: u64): void {
  M.mulDiv(xl, xh, <u64>load<u16>(REC + R_PRESALE_LIQUIDITY_BPS), 0, 10_000, 0);
}

/**
 * CreatePresale { token, pay_token, rate, soft_cap, hard_cap, min_contribution, max_contribution,
 * start_time, end_time, liquidity_bps u16, lp_lock_duration } (docs/presales.md "Order of checks").
 */
export function execCreatePresale(user: usize, f: usize, bundleIndex: u32, opIndex: u32): u32 {
  let token = f, pay = f + OPF_CREATE_PRESALE_PAY_TOKEN;
  let softL = ld(f, OPF_CREATE_PRESALE_SOFT_CAP), softH = ld(f, OPF_CREATE_PRESALE_SOFT_CAP + 8), hardL = ld(f, OPF_CREATE_PRESALE_HARD_CAP), hardH = ld(f, OPF_CREATE_PRESALE_HARD_CAP + 8);
  let minL = ld(f, OPF_CREATE_PRESALE_MIN_CONTRIBUTION), minH = ld(f, OPF_CREATE_PRESALE_MIN_CONTRIBUTION + 8), maxL = ld(f, OPF_CREATE_PRESALE_MAX_CONTRIBUTION), maxH = ld(f, OPF_CREATE_PRESALE_MAX_CONTRIBUTION + 8);
  let start = ld(f, OPF_CREATE_PRESALE_START_TIME), end = ld(f, OPF_CREATE_PRESALE_END_TIME);
  let bps = load<u16>(f + OPF_CREATE_PRESALE_LIQUIDITY_BPS);
  let lock = ld(f, OPF_CREATE_PRESALE_LP_LOCK_DURATION);
  if (bytesEq(token, pay, 32)) return S.IDENTICAL_TOKENS;
  if (!exists(tokenEntry(token)) || !exists(tokenEntry(pay))) return S.UNKNOWN_TOKEN;
  if ((softL | softH) == 0 || U.lt128(hardL, hardH, softL, softH) || (minL | minH) == 0
      || U.lt128(maxL, maxH, minL, minH) || U.lt128(hardL, hardH, minL, minH)) return S.INVALID_PRESALE_CAPS;
  if (end <= start || end <= ctxTimestamp || end - ctxTimestamp > D.MAX_LOCK_SECONDS) return S.INVALID_PRESALE_WINDOW;
  if (bps == 0 || bps > 10_000) return S.INVALID_LIQUIDITY_SHARE;
  if (lock < PRESALE_MIN_LOCK || lock > D.MAX_LOCK_SECONDS) return S.INVALID_PRESALE_LOCK;
  // The record under construction holds rate and bps for the helpers.
  memory.fill(REC, 0, R_PRESALE_BYTES);
  memory.copy(REC + R_PRESALE_RATE, f + OPF_CREATE_PRESALE_RATE, 16);
  store<u16>(REC + R_PRESALE_LIQUIDITY_BPS, bps);
  if (!tokensFor(minL, minH) || (U.lo | U.hi) == 0) return S.INVALID_PRESALE_RATE;
  if (!tokensFor(hardL, hardH)) return S.INVALID_PRESALE_RATE;
  let saleL = U.lo, saleH = U.hi;
  liquidityShare(hardL, hardH);
  if (!tokensFor(U.lo, U.hi)) return S.INVALID_PRESALE_RATE;
  let liqL = U.lo, liqH = U.hi;
  if (U.add128(saleL, saleH, liqL, liqH)) return S.INVALID_PRESALE_RATE;
  let escL = U.lo, escH = U.hi;
  // At the soft cap the pool must mint more than the DEX's 1,000 permanently locked LP units.
  liquidityShare(softL, softH);
  let lpL = U.lo, lpH = U.hi;
  tokensFor(lpL, lpH);
  M.sqrtProduct(lpL, lpH, U.lo, U.hi);
  if (!U.lt128(M.MINIMUM_LIQUIDITY, 0, U.lo, U.hi)) return S.PRESALE_LIQUIDITY_TOO_LOW;
  if (D.poolExists(token, pay)) return S.POOL_EXISTS;
  let id = nextId(P_PRESALE_COUNT, DOMAIN, 14, ADDR);
  let st = moveAmount(user, ADDR, token, escL, escH, bundleIndex, opIndex);
  if (st != S.OK) return st;
  st = moveAmount(user, ADDR, NTV_MINT, D.POOL_CREATION_FEE, 0, bundleIndex, opIndex);
  if (st != S.OK) return st;
  store<u8>(REC + R_PRESALE_VERSION, 1);
  store<u64>(REC + R_PRESALE_ID, id);
  memory.copy(REC + R_PRESALE_CREATOR, user, 32);
  memory.copy(REC + R_PRESALE_TOKEN, f, R_PRESALE_LIQUIDITY_BPS - R_PRESALE_TOKEN); // token … end_time: the op's layout
  store<u64>(REC + R_PRESALE_LP_LOCK_DURATION, lock);
  st128(REC + R_PRESALE_SALE_ESCROW, saleL, saleH);
  st128(REC + R_PRESALE_LIQUIDITY_ESCROW, liqL, liqH);
  store<u64>(REC + R_PRESALE_CREATED_AT, ctxTimestamp);
  store<u64>(REC + R_PRESALE_CREATED_HEIGHT, ctxHeight);
  setValue(presaleEntry(ADDR), REC, R_PRESALE_BYTES);
  emitPresaleCreated(bundleIndex, <u16>opIndex, ADDR, user, f, f + OPF_CREATE_PRESALE_PAY_TOKEN); // the operation's token, pay token

  return S.OK;
}

/** ContributePresale { presale, amount }: into the escrow, within the window, caps and limits. */
export function execContributePresale(user: usize, f: usize, bundleIndex: u32, opIndex: u32): u32 {
  let aL = ld(f, OPF_CONTRIBUTE_PRESALE_AMOUNT), aH = ld(f, OPF_CONTRIBUTE_PRESALE_AMOUNT + 8);
  if ((aL | aH) == 0) return S.ZERO_AMOUNT;
  let pe = loadPresale(f);
  if (pe == 0) return S.PRESALE_NOT_FOUND;
  if ((load<u8>(REC + R_PRESALE_FLAGS) & FINALIZED) != 0 || ctxTimestamp < ld(REC, R_PRESALE_START_TIME)
      || ctxTimestamp >= ld(REC, R_PRESALE_END_TIME)) return S.PRESALE_NOT_ACTIVE;
  if (U.add128(ld(REC, R_PRESALE_RAISED), ld(REC, R_PRESALE_RAISED + 8), aL, aH)
      || U.lt128(ld(REC, R_PRESALE_HARD_CAP), ld(REC, R_PRESALE_HARD_CAP + 8), U.lo, U.hi)) return S.PRESALE_HARD_CAP_EXCEEDED;
  let rL = U.lo, rH = U.hi;
  let ce = contributionEntry(f, user);
  let fresh = !exists(ce);
  if (fresh) memory.fill(CON, 0, R_CONTRIB_BYTES);
  else memory.copy(CON, valPtr(ce), R_CONTRIB_BYTES);
  // A contributor's total is at most the hard cap, so the sum fits.
  U.add128(ld(CON, R_CONTRIB_AMOUNT), ld(CON, R_CONTRIB_AMOUNT + 8), aL, aH);
  let tL = U.lo, tH = U.hi;
  if (U.lt128(tL, tH, ld(REC, R_PRESALE_MIN_CONTRIBUTION), ld(REC, R_PRESALE_MIN_CONTRIBUTION + 8))
      || U.lt128(ld(REC, R_PRESALE_MAX_CONTRIBUTION), ld(REC, R_PRESALE_MAX_CONTRIBUTION + 8), tL, tH)) return S.CONTRIBUTION_OUT_OF_RANGE;
  let st = moveAmount(user, f, REC + R_PRESALE_PAY_TOKEN, aL, aH, bundleIndex, opIndex);
  if (st != S.OK) return st;
  st128(CON + R_CONTRIB_AMOUNT, tL, tH);
  setValue(ce, CON, R_CONTRIB_BYTES);
  st128(REC + R_PRESALE_RAISED, rL, rH);
  if (fresh) store<u32>(REC + R_PRESALE_CONTRIBUTORS, load<u32>(REC + R_PRESALE_CONTRIBUTORS) + 1);
  setValue(pe, REC, R_PRESALE_BYTES);
  return S.OK;
}

/**
 * FinalizePresale { presale }, by anyone: after end_time with the soft cap met, or at the hard cap.
 * Pool first (its LP locked for the creator), then the creator's share of the raise and the unsold
 * tokens; the sold tokens stay in escrow for ClaimPresaleTokens.
 */
export function execFinalizePresale(user: usize, f: usize, bundleIndex: u32, opIndex: u32): u32 {
  let pe = loadPresale(f);
  if (pe == 0) return S.PRESALE_NOT_FOUND;
  if ((load<u8>(REC + R_PRESALE_FLAGS) & FINALIZED) != 0) return S.PRESALE_FINALIZED;
  let rL = ld(REC, R_PRESALE_RAISED), rH = ld(REC, R_PRESALE_RAISED + 8);
  if (ctxTimestamp < ld(REC, R_PRESALE_END_TIME)
      && U.lt128(rL, rH, ld(REC, R_PRESALE_HARD_CAP), ld(REC, R_PRESALE_HARD_CAP + 8))) return S.PRESALE_NOT_ENDED;
  if (U.lt128(rL, rH, ld(REC, R_PRESALE_SOFT_CAP), ld(REC, R_PRESALE_SOFT_CAP + 8))) return S.SOFT_CAP_NOT_MET;
  // Every amount below is at most its hard-cap counterpart escrowed at creation, so all fit.
  liquidityShare(rL, rH);
  let lpayL = U.lo, lpayH = U.hi;
  tokensFor(lpayL, lpayH);
  let ltokL = U.lo, ltokH = U.hi;
  tokensFor(rL, rH);
  let soldL = U.lo, soldH = U.hi;
  let creator = REC + R_PRESALE_CREATOR, token = REC + R_PRESALE_TOKEN, pay = REC + R_PRESALE_PAY_TOKEN;
  let lock = ld(REC, R_PRESALE_LP_LOCK_DURATION);
  let st = D.createPoolFor(f, creator, token, pay, ltokL, ltokH, lpayL, lpayH, lock, bundleIndex, opIndex);
  if (st != S.OK) return st;
  U.sub128(rL, rH, lpayL, lpayH);
  let procL = U.lo, procH = U.hi;
  st = moveAmount(f, creator, pay, procL, procH, bundleIndex, opIndex);
  if (st != S.OK) return st;
  U.add128(ld(REC, R_PRESALE_SALE_ESCROW), ld(REC, R_PRESALE_SALE_ESCROW + 8), ld(REC, R_PRESALE_LIQUIDITY_ESCROW), ld(REC, R_PRESALE_LIQUIDITY_ESCROW + 8));
  U.sub128(U.lo, U.hi, ltokL, ltokH);
  U.sub128(U.lo, U.hi, soldL, soldH);
  st = moveAmount(f, creator, token, U.lo, U.hi, bundleIndex, opIndex); // the unsold tokens
  if (st != S.OK) return st;
  store<u8>(REC + R_PRESALE_FLAGS, load<u8>(REC + R_PRESALE_FLAGS) | FINALIZED);
  store<u64>(REC + R_PRESALE_FINALIZED_AT, ctxTimestamp);
  store<u64>(REC + R_PRESALE_FINALIZED_HEIGHT, ctxHeight);
  st128(REC + R_PRESALE_LIQUIDITY_PAID, lpayL, lpayH);
  st128(REC + R_PRESALE_LIQUIDITY_TOKENS, ltokL, ltokH);
  st128(REC + R_PRESALE_LP_LOCKED, D.createdLpLo, D.createdLpHi);
  store<u64>(REC + R_PRESALE_LP_LOCK_UNTIL, ctxTimestamp + lock);
  st128(REC + R_PRESALE_TOKENS_SOLD, soldL, soldH);
  st128(REC + R_PRESALE_CREATOR_PROCEEDS, procL, procH);
  setValue(pe, REC, R_PRESALE_BYTES);
  return S.OK;
}

/**
 * RefundPresale { presale }: once failed (after end_time, below the soft cap, or its pair's pool
 * created by someone else so it cannot list), a contributor takes back its whole contribution and
 * the creator its escrow (tokens and the pool fee); both in one operation when the creator
 * contributed too.
 */
export function execRefundPresale(user: usize, f: usize, bundleIndex: u32, opIndex: u32): u32 {
  let pe = loadPresale(f);
  if (pe == 0) return S.PRESALE_NOT_FOUND;
  let flags = load<u8>(REC + R_PRESALE_FLAGS);
  if ((flags & FINALIZED) != 0) return S.PRESALE_FINALIZED;
  let token = REC + R_PRESALE_TOKEN, pay = REC + R_PRESALE_PAY_TOKEN;
  let failed = ctxTimestamp >= ld(REC, R_PRESALE_END_TIME)
    && (U.lt128(ld(REC, R_PRESALE_RAISED), ld(REC, R_PRESALE_RAISED + 8), ld(REC, R_PRESALE_SOFT_CAP), ld(REC, R_PRESALE_SOFT_CAP + 8))
      || D.poolExists(token, pay));
  if (!failed) return S.PRESALE_NOT_FAILED;
  let done = false;
  let ce = contributionEntry(f, user);
  if (exists(ce)) {
    memory.copy(CON, valPtr(ce), R_CONTRIB_BYTES);
    if (load<u8>(CON + R_CONTRIB_STATE) == OPEN) {
      let st = moveAmount(f, user, pay, ld(CON, R_CONTRIB_AMOUNT), ld(CON, R_CONTRIB_AMOUNT + 8), bundleIndex, opIndex);
      if (st != S.OK) return st;
      store<u8>(CON + R_CONTRIB_STATE, REFUNDED);
      setValue(ce, CON, R_CONTRIB_BYTES);
      done = true;
    }
  }
  if (bytesEq(user, REC + R_PRESALE_CREATOR, 32) && (flags & CREATOR_REFUNDED) == 0) {
    U.add128(ld(REC, R_PRESALE_SALE_ESCROW), ld(REC, R_PRESALE_SALE_ESCROW + 8), ld(REC, R_PRESALE_LIQUIDITY_ESCROW), ld(REC, R_PRESALE_LIQUIDITY_ESCROW + 8));
    let st = moveAmount(f, user, token, U.lo, U.hi, bundleIndex, opIndex);
    if (st != S.OK) return st;
    st = moveAmount(f, user, NTV_MINT, D.POOL_CREATION_FEE, 0, bundleIndex, opIndex);
    if (st != S.OK) return st;
    store<u8>(REC + R_PRESALE_FLAGS, flags | CREATOR_REFUNDED);
    setValue(pe, REC, R_PRESALE_BYTES);
    done = true;
  }
  return done ? S.OK : S.NOTHING_TO_REFUND;
}

/** ClaimPresaleTokens { presale }: after finalization, floor(contribution·rate/scale) tokens, once. */
export function execClaimPresaleTokens(user: usize, f: usize, bundleIndex: u32, opIndex: u32): u32 {
  let pe = loadPresale(f);
  if (pe == 0) return S.PRESALE_NOT_FOUND;
  if ((load<u8>(REC + R_PRESALE_FLAGS) & FINALIZED) == 0) return S.PRESALE_NOT_FINALIZED;
  let ce = contributionEntry(f, user);
  if (!exists(ce)) return S.PRESALE_NOTHING_TO_CLAIM;
  memory.copy(CON, valPtr(ce), R_CONTRIB_BYTES);
  if (load<u8>(CON + R_CONTRIB_STATE) != OPEN) return S.PRESALE_NOTHING_TO_CLAIM;
  tokensFor(ld(CON, R_CONTRIB_AMOUNT), ld(CON, R_CONTRIB_AMOUNT + 8)); // ≤ tokens_sold, which fit
  let st = moveAmount(f, user, REC + R_PRESALE_TOKEN, U.lo, U.hi, bundleIndex, opIndex);
  if (st != S.OK) return st;
  store<u8>(CON + R_CONTRIB_STATE, CLAIMED);
  setValue(ce, CON, R_CONTRIB_BYTES);
  return S.OK;
}
