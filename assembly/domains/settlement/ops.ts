// Settlement with market makers (spec §2.7, §4.17; facts.md "Settlement market makers";
// docs/settlement.md): RegisterMarketMaker (disc. 105), DeregisterMarketMaker (106),
// CreateAtomenceOrder (107), MatchAtomenceOrder (108), SettleAtomenceOrder (109),
// CancelAtomenceOrder (110).
//
// Delivery versus payment through escrow accounts: an order's sell leg moves from its creator into
// the order's escrow account at creation, the market maker's payment leg into the same escrow at
// the match, and the settlement pays both legs out of it in one operation — the sell leg to the
// maker, the payment to the creator. Every movement is a moveBalance (assembly/ops/transfer.ts)
// with its Transfer event, so rules on token movements apply here too; if any movement fails, the
// operation returns its status and the bundle checkpoint reverts the other (spec §7.5), so a
// settlement moves both legs or neither. Market-maker stakes sit in a stake escrow per maker.
//
// Addresses (Blake3, docs/settlement.md "Addresses"):
//   order id     = Blake3("ntv.atomence.order" ‖ creator ‖ nonce u64 LE ‖ op_index u16 LE)
//   order escrow = Blake3("ntv.atomence.escrow" ‖ order id)
//   stake escrow = Blake3("ntv.atomence.stake" ‖ market maker)

import * as S from "../../status";
import * as U from "../../u128";
import { bNonce } from "../../bundle";
import { balanceEntry, marketMakerEntry, marketMakerIndexEntry, orderEntry, settlementIndexEntry, singletonEntry, tokenEntry, tokenSettlementIndexEntry, tokenStatsEntry } from "../../keys";
import { exists, setValue, valLen, valPtr } from "../../state";
import { blake3 } from "../../blake3";
import { bytesEq } from "../../mem";
import { ctxHeight, ctxTimestamp, NTV_MINT } from "../../context";
import { moveBalance } from "../../ops/transfer";
import { wAdd, wCmp, wDiv, wMulSmall, wRemNonZero, wSet128, wSub } from "../../wide";
import {
  ATOMENCE_MAX_ORDER_SECONDS, ATOMENCE_TIER1_SPREAD_BPS, ATOMENCE_TIER1_STAKE, ATOMENCE_TIER2_SPREAD_BPS, ATOMENCE_TIER2_STAKE,
  ATOMENCE_TIER3_SPREAD_BPS, ATOMENCE_TIER3_STAKE, OP_CANCEL_ATOMENCE_ORDER, OP_CREATE_ATOMENCE_ORDER, OP_DEREGISTER_MARKET_MAKER,
  OP_MATCH_ATOMENCE_ORDER, OP_REGISTER_MARKET_MAKER, P_ATOMENCE_STATS,
  R_MM_ACTIVE, R_MM_BYTES, R_MM_INDEX, R_MM_OPEN_MATCHES, R_MM_REGISTERED_HEIGHT, R_MM_SETTLED_COUNT, R_MM_SPREAD_SUM, R_MM_STAKE, R_MM_TIER,
  R_MM_UPDATED_HEIGHT, R_MM_VERSION,
  R_ORDER_ASK_AMOUNT, R_ORDER_BID_AMOUNT, R_ORDER_BUY_TOKEN, R_ORDER_BYTES, R_ORDER_CLOSED_AT, R_ORDER_CLOSED_HEIGHT, R_ORDER_CREATED_AT,
  R_ORDER_CREATED_HEIGHT, R_ORDER_CREATOR, R_ORDER_EXPIRY, R_ORDER_MARKET_MAKER, R_ORDER_MATCHED_AT, R_ORDER_MATCHED_HEIGHT,
  R_ORDER_MIN_BUY_AMOUNT, R_ORDER_SELL_AMOUNT, R_ORDER_SELL_TOKEN, R_ORDER_SPREAD_BPS, R_ORDER_STATE, R_ORDER_VERSION,
  R_ASTATS_ACTIVE_MARKET_MAKERS, R_ASTATS_BYTES, R_ASTATS_LAST_SETTLEMENT_BLOCK, R_ASTATS_MARKET_MAKERS, R_ASTATS_SETTLED_COUNT,
  R_ASTATS_SPREAD_SUM, R_ASTATS_TOTAL_VOLUME,
  OPF_CREATE_ATOMENCE_ORDER_BUY_TOKEN, OPF_CREATE_ATOMENCE_ORDER_EXPIRY, OPF_CREATE_ATOMENCE_ORDER_MIN_BUY_AMOUNT, OPF_CREATE_ATOMENCE_ORDER_SELL_AMOUNT,
  OPF_MATCH_ATOMENCE_ORDER_ASK_AMOUNT, OPF_MATCH_ATOMENCE_ORDER_BID_AMOUNT,
} from "../../abi";

/** Order states (AtomenceOrder.state; docs/settlement.md "States"). */
// @ts-ignore: decorator
@inline export const ORDER_OPEN: u8 = 0;
// @ts-ignore: decorator
@inline export const ORDER_MATCHED: u8 = 1;
// @ts-ignore: decorator
@inline export const ORDER_SETTLED: u8 = 2;
// @ts-ignore: decorator
@inline export const ORDER_CANCELLED: u8 = 3;
// @ts-ignore: decorator
@inline export const ORDER_EXPIRED: u8 = 4;
// @ts-ignore: decorator
@inline const RECORD_VERSION: u8 = 1;

const MM = memory.data(64);
const ORDER = memory.data(256);
const STATS = memory.data(72);
const TSTATS = memory.data(72);
const ID = memory.data(32);
const ESCROW = memory.data(32);
const AMT = memory.data(16);
const PRE = memory.data(64);
// Wide scratch for the spread (assembly/wide.ts: 48-byte numbers).
const W_A = memory.data(48);
const W_B = memory.data(48);
const W_N = memory.data(48);
const W_Q = memory.data(48);

/** "ntv.atomence.order" (18), "ntv.atomence.escrow" (19), "ntv.atomence.stake" (18): address domains. */
const TAG_ORDER = memory.data<u8>([0x6e, 0x74, 0x76, 0x2e, 0x61, 0x74, 0x6f, 0x6d, 0x65, 0x6e, 0x63, 0x65, 0x2e, 0x6f, 0x72, 0x64, 0x65, 0x72]);
const TAG_ESCROW = memory.data<u8>([0x6e, 0x74, 0x76, 0x2e, 0x61, 0x74, 0x6f, 0x6d, 0x65, 0x6e, 0x63, 0x65, 0x2e, 0x65, 0x73, 0x63, 0x72, 0x6f, 0x77]);
const TAG_STAKE = memory.data<u8>([0x6e, 0x74, 0x76, 0x2e, 0x61, 0x74, 0x6f, 0x6d, 0x65, 0x6e, 0x63, 0x65, 0x2e, 0x73, 0x74, 0x61, 0x6b, 0x65]);

export function isSettlementOp(kind: u32): bool {
  return kind >= OP_REGISTER_MARKET_MAKER && kind <= OP_CANCEL_ATOMENCE_ORDER;
}

export function execSettlement(kind: u32, user: usize, f: usize, bundleIndex: u32, opIndex: u32): u32 {
  if (kind == OP_REGISTER_MARKET_MAKER) return execRegisterMarketMaker(user, load<u8>(f), bundleIndex, opIndex);
  if (kind == OP_DEREGISTER_MARKET_MAKER) return execDeregisterMarketMaker(user, bundleIndex, opIndex);
  if (kind == OP_CREATE_ATOMENCE_ORDER) return execCreateOrder(user, f, bundleIndex, opIndex);
  if (kind == OP_MATCH_ATOMENCE_ORDER) return execMatchOrder(user, f, bundleIndex, opIndex);
  if (kind == OP_CANCEL_ATOMENCE_ORDER) return execCancelOrder(user, f, bundleIndex, opIndex);
  return execSettleOrder(user, f, bundleIndex, opIndex);
}

// ---- helpers

/** out = Blake3(tag ‖ a[32]). */
function derive(tag: usize, tagLen: u32, a: usize, out: usize): void {
  memory.copy(PRE, tag, tagLen);
  memory.copy(PRE + tagLen, a, 32);
  blake3(PRE, tagLen + 32, out);
}

/** The stake of a tier in raw NTV units (0 for no tier). */
function tierStake(tier: u8): u64 {
  if (tier == 1) return ATOMENCE_TIER1_STAKE;
  if (tier == 2) return ATOMENCE_TIER2_STAKE;
  if (tier == 3) return ATOMENCE_TIER3_STAKE;
  return 0;
}
/** The widest spread a tier may quote, in bps. */
function tierSpread(tier: u8): u32 {
  if (tier == 1) return ATOMENCE_TIER1_SPREAD_BPS;
  if (tier == 2) return ATOMENCE_TIER2_SPREAD_BPS;
  return ATOMENCE_TIER3_SPREAD_BPS;
}

/** Move `lo/hi` of `token` from `from` to `to` through moveBalance (with its Transfer event). */
function move(from: usize, to: usize, token: usize, lo: u64, hi: u64, bundleIndex: u32, opIndex: u32): u32 {
  store<u64>(AMT, lo, 0);
  store<u64>(AMT, hi, 8);
  return moveBalance(balanceEntry(from, token), from, to, token, AMT, bundleIndex, opIndex);
}

/** Copy a record's value into dst (len bytes), or zeros when absent. */
function loadRecord(e: usize, dst: usize, len: u32): bool {
  if (valLen(e) == <i32>len) {
    memory.copy(dst, valPtr(e), len);
    return true;
  }
  memory.fill(dst, 0, len);
  return false;
}

/** A u64 counter at p += d; false on overflow. */
function addU64(p: usize, d: u64): bool {
  let v = load<u64>(p);
  if (v + d < v) return false;
  store<u64>(p, v + d);
  return true;
}

/** The 256-bit little-endian volume at p += lo/hi (cannot overflow in practice: 2^256 raw units). */
function addVolume(p: usize, lo: u64, hi: u64): void {
  let a0 = load<u64>(p, 0), a1 = load<u64>(p, 8), a2 = load<u64>(p, 16), a3 = load<u64>(p, 24);
  let s0 = a0 + lo;
  let c: u64 = s0 < a0 ? 1 : 0;
  let s1 = a1 + hi;
  let c1: u64 = s1 < a1 ? 1 : 0;
  let s1c = s1 + c;
  if (s1c < s1) c1 = 1;
  let s2 = a2 + c1;
  let c2: u64 = s2 < a2 ? 1 : 0;
  store<u64>(p, s0, 0);
  store<u64>(p, s1c, 8);
  store<u64>(p, s2, 16);
  store<u64>(p, a3 + c2, 24);
}

/** The 0x76 singleton into STATS; its entry. */
function loadStats(): usize {
  let e = singletonEntry(P_ATOMENCE_STATS);
  loadRecord(e, STATS, R_ASTATS_BYTES);
  return e;
}

/**
 * The spread of a two-sided quote in bps, rounded up: ⌈(ask − bid) · 20,000 / (ask + bid)⌉, i.e.
 * (ask − bid) over the mid (ask + bid) / 2. Needs ask ≥ bid, ask + bid > 0; at most 20,000.
 */
export function spreadBps(bidLo: u64, bidHi: u64, askLo: u64, askHi: u64): u32 {
  wSet128(W_A, askLo, askHi);
  wSet128(W_B, bidLo, bidHi);
  wSub(W_N, W_A, W_B);
  wMulSmall(W_N, W_N, 20000);
  wAdd(W_A, W_A, W_B); // ask + bid: up to 129 bits
  wDiv(W_Q, W_N, W_A);
  let q = load<u32>(W_Q); // ≤ 20,000
  return wRemNonZero ? q + 1 : q;
}

// ---- market makers

/**
 * RegisterMarketMaker { tier }: INVALID_MM_TIER → MM_TIER_UNCHANGED → the stake difference moved
 * between the maker and its stake escrow (INSUFFICIENT_BALANCE). A new maker is appended to the
 * 0x71 list; an inactive one is reactivated.
 */
function execRegisterMarketMaker(user: usize, tier: u8, bundleIndex: u32, opIndex: u32): u32 {
  let want = tierStake(tier);
  if (want == 0) return S.INVALID_MM_TIER;
  let e = marketMakerEntry(user);
  let known = loadRecord(e, MM, R_MM_BYTES);
  let active = known && load<u8>(MM + R_MM_ACTIVE) == 1;
  if (active && load<u8>(MM + R_MM_TIER) == tier) return S.MM_TIER_UNCHANGED;
  let have: u64 = active ? load<u64>(MM + R_MM_STAKE) : 0; // stakes are tier amounts: < 2^64
  derive(TAG_STAKE, 18, user, ESCROW);
  let st = S.OK;
  if (want > have) st = move(user, ESCROW, NTV_MINT, want - have, 0, bundleIndex, opIndex);
  else st = move(ESCROW, user, NTV_MINT, have - want, 0, bundleIndex, opIndex);
  if (st != S.OK) return st;
  let se = loadStats();
  if (!known) {
    let index = load<u64>(STATS + R_ASTATS_MARKET_MAKERS);
    store<u64>(MM + R_MM_INDEX, index);
    setValue(marketMakerIndexEntry(index), user, 32);
    store<u64>(STATS + R_ASTATS_MARKET_MAKERS, index + 1);
  }
  if (!active) {
    store<u64>(STATS + R_ASTATS_ACTIVE_MARKET_MAKERS, load<u64>(STATS + R_ASTATS_ACTIVE_MARKET_MAKERS) + 1);
    store<u64>(MM + R_MM_REGISTERED_HEIGHT, ctxHeight);
  }
  if (!known || !active) setValue(se, STATS, R_ASTATS_BYTES);
  store<u8>(MM + R_MM_VERSION, RECORD_VERSION);
  store<u8>(MM + R_MM_TIER, tier);
  store<u8>(MM + R_MM_ACTIVE, 1);
  store<u64>(MM + R_MM_STAKE, want);
  store<u64>(MM + R_MM_STAKE + 8, 0);
  store<u64>(MM + R_MM_UPDATED_HEIGHT, ctxHeight);
  setValue(marketMakerEntry(user), MM, R_MM_BYTES);
  return S.OK;
}

/** DeregisterMarketMaker: NOT_MARKET_MAKER → MM_HAS_OPEN_MATCHES → the whole stake back. */
function execDeregisterMarketMaker(user: usize, bundleIndex: u32, opIndex: u32): u32 {
  let e = marketMakerEntry(user);
  if (!loadRecord(e, MM, R_MM_BYTES) || load<u8>(MM + R_MM_ACTIVE) != 1) return S.NOT_MARKET_MAKER;
  if (load<u32>(MM + R_MM_OPEN_MATCHES) != 0) return S.MM_HAS_OPEN_MATCHES;
  derive(TAG_STAKE, 18, user, ESCROW);
  let st = move(ESCROW, user, NTV_MINT, load<u64>(MM + R_MM_STAKE), load<u64>(MM + R_MM_STAKE + 8), bundleIndex, opIndex);
  if (st != S.OK) return st;
  store<u8>(MM + R_MM_ACTIVE, 0);
  store<u64>(MM + R_MM_STAKE, 0);
  store<u64>(MM + R_MM_STAKE + 8, 0);
  store<u64>(MM + R_MM_UPDATED_HEIGHT, ctxHeight);
  setValue(marketMakerEntry(user), MM, R_MM_BYTES);
  let se = loadStats();
  store<u64>(STATS + R_ASTATS_ACTIVE_MARKET_MAKERS, load<u64>(STATS + R_ASTATS_ACTIVE_MARKET_MAKERS) - 1);
  setValue(se, STATS, R_ASTATS_BYTES);
  return S.OK;
}

// ---- orders

/**
 * CreateAtomenceOrder { sell_token, sell_amount, buy_token, min_buy_amount, expiry }:
 * ZERO_AMOUNT → IDENTICAL_TOKENS → UNKNOWN_TOKEN → INVALID_ORDER_EXPIRY → the sell leg into the
 * order's escrow (INSUFFICIENT_BALANCE), then the open order record.
 */
function execCreateOrder(user: usize, f: usize, bundleIndex: u32, opIndex: u32): u32 {
  let sellToken = f, buyToken = f + OPF_CREATE_ATOMENCE_ORDER_BUY_TOKEN;
  let sLo = load<u64>(f, OPF_CREATE_ATOMENCE_ORDER_SELL_AMOUNT), sHi = load<u64>(f, OPF_CREATE_ATOMENCE_ORDER_SELL_AMOUNT + 8);
  let mLo = load<u64>(f, OPF_CREATE_ATOMENCE_ORDER_MIN_BUY_AMOUNT), mHi = load<u64>(f, OPF_CREATE_ATOMENCE_ORDER_MIN_BUY_AMOUNT + 8);
  let expiry = load<u64>(f, OPF_CREATE_ATOMENCE_ORDER_EXPIRY);
  if ((sLo | sHi) == 0 || (mLo | mHi) == 0) return S.ZERO_AMOUNT;
  if (bytesEq(sellToken, buyToken, 32)) return S.IDENTICAL_TOKENS;
  if (!exists(tokenEntry(sellToken)) || !exists(tokenEntry(buyToken))) return S.UNKNOWN_TOKEN;
  if (expiry <= ctxTimestamp || expiry - ctxTimestamp > ATOMENCE_MAX_ORDER_SECONDS) return S.INVALID_ORDER_EXPIRY;
  memory.copy(PRE, TAG_ORDER, 18);
  memory.copy(PRE + 18, user, 32);
  store<u64>(PRE + 50, bNonce);
  store<u16>(PRE + 58, <u16>opIndex);
  blake3(PRE, 60, ID);
  derive(TAG_ESCROW, 19, ID, ESCROW);
  let st = move(user, ESCROW, sellToken, sLo, sHi, bundleIndex, opIndex);
  if (st != S.OK) return st;
  memory.fill(ORDER, 0, R_ORDER_BYTES);
  store<u8>(ORDER + R_ORDER_VERSION, RECORD_VERSION);
  store<u8>(ORDER + R_ORDER_STATE, ORDER_OPEN);
  memory.copy(ORDER + R_ORDER_CREATOR, user, 32);
  memory.copy(ORDER + R_ORDER_SELL_TOKEN, sellToken, 32);
  memory.copy(ORDER + R_ORDER_SELL_AMOUNT, f + OPF_CREATE_ATOMENCE_ORDER_SELL_AMOUNT, 16);
  memory.copy(ORDER + R_ORDER_BUY_TOKEN, buyToken, 32);
  memory.copy(ORDER + R_ORDER_MIN_BUY_AMOUNT, f + OPF_CREATE_ATOMENCE_ORDER_MIN_BUY_AMOUNT, 16);
  store<u64>(ORDER + R_ORDER_EXPIRY, expiry);
  store<u64>(ORDER + R_ORDER_CREATED_HEIGHT, ctxHeight);
  store<u64>(ORDER + R_ORDER_CREATED_AT, ctxTimestamp);
  // The id hashes a nonce used once (CreateAtomenceOrder may not sit in a schedule, which has none).
  setValue(orderEntry(ID), ORDER, R_ORDER_BYTES);
  return S.OK;
}

/** The order `id` into ORDER and ESCROW; its entry, or 0 when there is none. */
function loadOrder(id: usize): usize {
  let e = orderEntry(id);
  if (!loadRecord(e, ORDER, R_ORDER_BYTES)) return 0;
  derive(TAG_ESCROW, 19, id, ESCROW);
  return e;
}

/**
 * MatchAtomenceOrder { order_id, bid_amount, ask_amount }: NOT_MARKET_MAKER → ORDER_NOT_FOUND →
 * ORDER_NOT_OPEN → ORDER_EXPIRED → SELF_MATCH → INVALID_QUOTE → QUOTE_BELOW_LIMIT →
 * SPREAD_TOO_WIDE → the payment leg (bid of buy_token) into the escrow (INSUFFICIENT_BALANCE).
 */
function execMatchOrder(user: usize, f: usize, bundleIndex: u32, opIndex: u32): u32 {
  let me = marketMakerEntry(user);
  if (!loadRecord(me, MM, R_MM_BYTES) || load<u8>(MM + R_MM_ACTIVE) != 1) return S.NOT_MARKET_MAKER;
  let e = loadOrder(f);
  if (e == 0) return S.ORDER_NOT_FOUND;
  if (load<u8>(ORDER + R_ORDER_STATE) != ORDER_OPEN) return S.ORDER_NOT_OPEN;
  if (ctxTimestamp > load<u64>(ORDER + R_ORDER_EXPIRY)) return S.ORDER_EXPIRED;
  if (bytesEq(ORDER + R_ORDER_CREATOR, user, 32)) return S.SELF_MATCH;
  let bLo = load<u64>(f, OPF_MATCH_ATOMENCE_ORDER_BID_AMOUNT), bHi = load<u64>(f, OPF_MATCH_ATOMENCE_ORDER_BID_AMOUNT + 8);
  let aLo = load<u64>(f, OPF_MATCH_ATOMENCE_ORDER_ASK_AMOUNT), aHi = load<u64>(f, OPF_MATCH_ATOMENCE_ORDER_ASK_AMOUNT + 8);
  if ((bLo | bHi) == 0 || U.lt128(aLo, aHi, bLo, bHi)) return S.INVALID_QUOTE;
  if (U.lt128(bLo, bHi, load<u64>(ORDER + R_ORDER_MIN_BUY_AMOUNT), load<u64>(ORDER + R_ORDER_MIN_BUY_AMOUNT + 8))) return S.QUOTE_BELOW_LIMIT;
  let spread = spreadBps(bLo, bHi, aLo, aHi);
  if (spread > tierSpread(load<u8>(MM + R_MM_TIER))) return S.SPREAD_TOO_WIDE;
  let st = move(user, ESCROW, ORDER + R_ORDER_BUY_TOKEN, bLo, bHi, bundleIndex, opIndex);
  if (st != S.OK) return st;
  store<u8>(ORDER + R_ORDER_STATE, ORDER_MATCHED);
  memory.copy(ORDER + R_ORDER_MARKET_MAKER, user, 32);
  memory.copy(ORDER + R_ORDER_BID_AMOUNT, f + OPF_MATCH_ATOMENCE_ORDER_BID_AMOUNT, 16);
  memory.copy(ORDER + R_ORDER_ASK_AMOUNT, f + OPF_MATCH_ATOMENCE_ORDER_ASK_AMOUNT, 16);
  store<u16>(ORDER + R_ORDER_SPREAD_BPS, <u16>spread);
  store<u64>(ORDER + R_ORDER_MATCHED_HEIGHT, ctxHeight);
  store<u64>(ORDER + R_ORDER_MATCHED_AT, ctxTimestamp);
  setValue(e, ORDER, R_ORDER_BYTES);
  store<u32>(MM + R_MM_OPEN_MATCHES, load<u32>(MM + R_MM_OPEN_MATCHES) + 1);
  setValue(me, MM, R_MM_BYTES);
  return S.OK;
}

/** Is `user` the order's creator or its matched market maker? */
function isParty(user: usize): bool {
  return bytesEq(ORDER + R_ORDER_CREATOR, user, 32) || (load<u8>(ORDER + R_ORDER_STATE) == ORDER_MATCHED && bytesEq(ORDER + R_ORDER_MARKET_MAKER, user, 32));
}

/** Close the order in ORDER at entry e with `state`, and release its maker's open match. */
function closeOrder(e: usize, state: u8): void {
  let wasMatched = load<u8>(ORDER + R_ORDER_STATE) == ORDER_MATCHED;
  store<u8>(ORDER + R_ORDER_STATE, state);
  store<u64>(ORDER + R_ORDER_CLOSED_HEIGHT, ctxHeight);
  store<u64>(ORDER + R_ORDER_CLOSED_AT, ctxTimestamp);
  setValue(e, ORDER, R_ORDER_BYTES);
  if (!wasMatched) return;
  let me = marketMakerEntry(ORDER + R_ORDER_MARKET_MAKER);
  loadRecord(me, MM, R_MM_BYTES);
  store<u32>(MM + R_MM_OPEN_MATCHES, load<u32>(MM + R_MM_OPEN_MATCHES) - 1);
  if (state == ORDER_SETTLED) {
    store<u64>(MM + R_MM_SETTLED_COUNT, load<u64>(MM + R_MM_SETTLED_COUNT) + 1);
    store<u64>(MM + R_MM_SPREAD_SUM, load<u64>(MM + R_MM_SPREAD_SUM) + <u64>load<u16>(ORDER + R_ORDER_SPREAD_BPS));
  }
  setValue(me, MM, R_MM_BYTES);
}

/** One settlement into a stats record at p (count, volume, spread, block); false on a counter overflow. */
function recordSettlement(p: usize, lo: u64, hi: u64, spread: u64): bool {
  if (!addU64(p + R_ASTATS_SETTLED_COUNT, 1) || !addU64(p + R_ASTATS_SPREAD_SUM, spread)) return false;
  addVolume(p + R_ASTATS_TOTAL_VOLUME, lo, hi);
  store<u64>(p + R_ASTATS_LAST_SETTLEMENT_BLOCK, ctxHeight);
  return true;
}

/** A token's stats and index entry for this settlement (either leg). */
function recordTokenSettlement(token: usize, lo: u64, hi: u64, spread: u64): bool {
  let e = tokenStatsEntry(token);
  loadRecord(e, TSTATS, R_ASTATS_BYTES);
  let index = load<u64>(TSTATS + R_ASTATS_SETTLED_COUNT);
  if (!recordSettlement(TSTATS, lo, hi, spread)) return false;
  setValue(e, TSTATS, R_ASTATS_BYTES);
  setValue(tokenSettlementIndexEntry(token, index), ID, 32);
  return true;
}

/**
 * SettleAtomenceOrder { order_id }: ORDER_NOT_FOUND → ORDER_NOT_MATCHED → NOT_ORDER_PARTY →
 * ORDER_EXPIRED → both legs out of the escrow (the sell leg to the maker, the payment to the
 * creator), then the record, the maker's and the stats' counters and the settlement indexes.
 */
function execSettleOrder(user: usize, f: usize, bundleIndex: u32, opIndex: u32): u32 {
  let e = loadOrder(f);
  if (e == 0) return S.ORDER_NOT_FOUND;
  if (load<u8>(ORDER + R_ORDER_STATE) != ORDER_MATCHED) return S.ORDER_NOT_MATCHED;
  if (!isParty(user)) return S.NOT_ORDER_PARTY;
  if (ctxTimestamp > load<u64>(ORDER + R_ORDER_EXPIRY)) return S.ORDER_EXPIRED;
  memory.copy(ID, f, 32);
  let sLo = load<u64>(ORDER + R_ORDER_SELL_AMOUNT), sHi = load<u64>(ORDER + R_ORDER_SELL_AMOUNT + 8);
  let bLo = load<u64>(ORDER + R_ORDER_BID_AMOUNT), bHi = load<u64>(ORDER + R_ORDER_BID_AMOUNT + 8);
  let st = move(ESCROW, ORDER + R_ORDER_MARKET_MAKER, ORDER + R_ORDER_SELL_TOKEN, sLo, sHi, bundleIndex, opIndex);
  if (st != S.OK) return st;
  st = move(ESCROW, ORDER + R_ORDER_CREATOR, ORDER + R_ORDER_BUY_TOKEN, bLo, bHi, bundleIndex, opIndex);
  if (st != S.OK) return st;
  let spread = <u64>load<u16>(ORDER + R_ORDER_SPREAD_BPS);
  let se = loadStats();
  let index = load<u64>(STATS + R_ASTATS_SETTLED_COUNT);
  if (!recordSettlement(STATS, sLo, sHi, spread)) return S.AMOUNT_OVERFLOW;
  addVolume(STATS + R_ASTATS_TOTAL_VOLUME, bLo, bHi);
  setValue(se, STATS, R_ASTATS_BYTES);
  setValue(settlementIndexEntry(index), ID, 32);
  if (!recordTokenSettlement(ORDER + R_ORDER_SELL_TOKEN, sLo, sHi, spread)) return S.AMOUNT_OVERFLOW;
  if (!recordTokenSettlement(ORDER + R_ORDER_BUY_TOKEN, bLo, bHi, spread)) return S.AMOUNT_OVERFLOW;
  closeOrder(e, ORDER_SETTLED);
  return S.OK;
}

/**
 * CancelAtomenceOrder { order_id }: ORDER_NOT_FOUND → ORDER_CLOSED → NOT_ORDER_PARTY (an open
 * order: its creator; a matched one: either party) → ORDER_NOT_EXPIRED (a matched order before its
 * expiry must settle) → the refunds out of the escrow: the sell leg to the creator and, when
 * matched, the payment back to the maker. The order ends cancelled, or expired after its expiry.
 */
function execCancelOrder(user: usize, f: usize, bundleIndex: u32, opIndex: u32): u32 {
  let e = loadOrder(f);
  if (e == 0) return S.ORDER_NOT_FOUND;
  let state = load<u8>(ORDER + R_ORDER_STATE);
  if (state != ORDER_OPEN && state != ORDER_MATCHED) return S.ORDER_CLOSED;
  if (!isParty(user)) return S.NOT_ORDER_PARTY;
  let expired = ctxTimestamp > load<u64>(ORDER + R_ORDER_EXPIRY);
  if (state == ORDER_MATCHED && !expired) return S.ORDER_NOT_EXPIRED;
  let st = move(ESCROW, ORDER + R_ORDER_CREATOR, ORDER + R_ORDER_SELL_TOKEN, load<u64>(ORDER + R_ORDER_SELL_AMOUNT), load<u64>(ORDER + R_ORDER_SELL_AMOUNT + 8), bundleIndex, opIndex);
  if (st != S.OK) return st;
  if (state == ORDER_MATCHED) {
    st = move(ESCROW, ORDER + R_ORDER_MARKET_MAKER, ORDER + R_ORDER_BUY_TOKEN, load<u64>(ORDER + R_ORDER_BID_AMOUNT), load<u64>(ORDER + R_ORDER_BID_AMOUNT + 8), bundleIndex, opIndex);
    if (st != S.OK) return st;
  }
  closeOrder(e, expired ? ORDER_EXPIRED : ORDER_CANCELLED);
  return S.OK;
}
