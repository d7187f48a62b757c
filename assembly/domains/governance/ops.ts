// Protocol proposals: CreateProposal (disc. 18), VoteProposal (19), ExecuteProposal (20),
// CancelProposal (21) (spec §4.14, §8; docs/governance.md). Cosmos SDK's x/gov is the model:
// bonded stake votes, a proposal passes on quorum and threshold once its voting period is over, and
// a passed proposal's action runs as the keyless governance authority GOVERNANCE 0x00…09.
//
//   0x58 id u64 BE            → ProposalRecord (abi/state.mjs Proposal)
//   0x59 id u64 BE voter[32]  → ProposalVote: approve, weight u128, height u64
//   0x5A                      → u64 proposals created (ids run 1…count)
//   0x5B target[32]           → ContractSafety (target = Blake3("contract-safety" ‖ chain ‖ 0 ‖ contract))
//   0x60 collection[32]       → CollectionSafety
//
// Weight: an account's bonded stake when it votes, the sum of its delegations (a validator's self
// stake is its delegation to itself; docs/staking.md), fixed in its vote record. Stake leaves a
// delegation only through unbonding (21 days by default), so it cannot vote again from another
// account within a voting period (docs/governance.md "Voting weight").

import * as S from "../../status";
import * as U from "../../u128";
import * as W from "../../wide";
import { KEY, balanceEntry, collectionEntry, delegationEntry, delegatorIndexEntry, singletonEntry } from "../../keys";
import { lookup, exists, setValue, deleteValue, valPtr, valLen, beginWrite } from "../../state";
import { ctxHeight, ctxTimestamp, GOVERNANCE, TREASURY, NTV_MINT } from "../../context";
import { blake3 } from "../../blake3";
import { emitChainParamChanged, emitProposalCancelled, emitProposalCreated, emitProposalExecuted, emitProposalVoted } from "../../events-gen";
import { bufNew, bufPtr, bufLen, bufSetLen, bufBytes, bufU8, bufU32, bufU64, bytesEq, bufU16 } from "../../mem";
import { readerInit, atEnd } from "../../borsh";
import { decodeOps, opsCount } from "../../bundle";
import { balLoad } from "../../ledger";
import { listCount, listItem, loadParams } from "../staking/validators";
import { execTransfer, moveBalance } from "../../ops/transfer";
import { execCreateToken } from "../../ops/token";
import { execOther } from "../../ops/dispatch";
import { setCollectionSafety, setContractSafety, validCollectionSafety, validContractSafety } from "../../ops/safety";
import {
  P_PROPOSAL, P_PROPOSAL_VOTE, P_PROPOSAL_COUNT, P_CONTRACT_SAFETY, P_COLLECTION_SAFETY, P_CHAIN_PARAMS, P_STAKING_STATE,
  OP_TRANSFER, OP_CREATE_TOKEN, MAX_PROPOSAL_OPS, MAX_PROPOSAL_TITLE, MAX_PROPOSAL_DESCRIPTION, MAX_PROPOSAL_OPS_BYTES,
  MAX_SAFETY_TEXT, SAFETY_LEVEL_MAX, GOV_DEFAULT_VOTING_PERIOD, GOV_DEFAULT_QUORUM_BPS, GOV_DEFAULT_THRESHOLD_BPS,
  GOV_MIN_VOTING_PERIOD, GOV_MAX_VOTING_PERIOD,
  PROPOSAL_ACTION_PARAMETER_CHANGE, PROPOSAL_ACTION_TREASURY_SPEND, PROPOSAL_ACTION_CONTRACT_SAFETY,
  PROPOSAL_ACTION_COLLECTION_SAFETY, PROPOSAL_ACTION_CREATE_STABLECOIN,
  R_PROPOSAL_VERSION, R_PROPOSAL_PROPOSER, R_PROPOSAL_PROPOSAL_KIND, R_PROPOSAL_STATE, R_PROPOSAL_CREATED_HEIGHT,
  R_PROPOSAL_CREATED_AT, R_PROPOSAL_END_HEIGHT, R_PROPOSAL_QUORUM_BPS, R_PROPOSAL_THRESHOLD_BPS, R_PROPOSAL_TOTAL_STAKE,
  R_PROPOSAL_YES, R_PROPOSAL_NO, R_PROPOSAL_VOTERS, R_PROPOSAL_EXECUTED_HEIGHT, R_PROPOSAL_ACTION, R_PROPOSAL_ACTION_DATA,
  R_PROPOSAL_VOTE_APPROVE, R_PROPOSAL_VOTE_WEIGHT, R_PROPOSAL_VOTE_HEIGHT, R_PROPOSAL_VOTE_BYTES,
  R_COLLECTION_SAFETY_VERSION, R_COLLECTION_SAFETY_LEVEL, R_COLLECTION_SAFETY_PROPOSAL_ID, R_COLLECTION_SAFETY_HEIGHT,
  R_COLLECTION_SAFETY_BYTES,
  R_STAKING_STATE_TOTAL_STAKED,
  R_CHAIN_PARAMS_JAIL_DURATIONS,
  R_GOV_PARAMS_QUORUM_BPS, R_GOV_PARAMS_THRESHOLD_BPS,
  R_CHAIN_PARAMS_COMMISSION_COOLDOWN_BLOCKS, R_CHAIN_PARAMS_JAIL_DURATIONS_DATA, R_CHAIN_PARAMS_MAX_ACTIVE_VALIDATORS, R_CHAIN_PARAMS_MAX_COMMISSION_BPS, R_CHAIN_PARAMS_MIN_STAKE, R_CHAIN_PARAMS_MISSED_SKIP_THRESHOLD, R_CHAIN_PARAMS_UNBONDING_SECONDS, R_GOV_PARAMS_BYTES, R_GOV_PARAMS_VOTING_PERIOD_BLOCKS,
  OPF_PROPOSAL_ACTION_PARAMETER_CHANGE_VALUE,
  OPF_PROPOSAL_ACTION_TREASURY_SPEND_AMOUNT,
  OPF_VOTE_PROPOSAL_APPROVE,
} from "../../abi";
import { OPR_FIELDS, OPR_CREATE_PROPOSAL_TITLE, OPR_CREATE_PROPOSAL_TITLE_LEN, OPR_CREATE_PROPOSAL_DESCRIPTION, OPR_CREATE_PROPOSAL_DESCRIPTION_LEN, OPR_CREATE_PROPOSAL_ACTION, OPR_CREATE_PROPOSAL_ACTION_LEN } from "../../decode-ops";

// @ts-ignore: decorator
@inline export const STATE_VOTING: u8 = 0;
// @ts-ignore: decorator
@inline export const STATE_EXECUTED: u8 = 1;
// @ts-ignore: decorator
@inline export const STATE_CANCELLED: u8 = 2;
// @ts-ignore: decorator
@inline const RECORD_VERSION: u8 = 1;

// ChainParams offsets (abi/state.mjs ChainParams; assembly/domains/staking/validators.ts paramsValid): the parameter
// keys 0–8 of a ParameterChange, in the order of the ProposalAction's choice.
// The governance tail: its count u8 (1), then a GovParams record.
// @ts-ignore: decorator
@inline const GOV_TAIL: u32 = 1 + R_GOV_PARAMS_BYTES;
const KEY_OFFSET = memory.data<u8>([
  <u8>R_CHAIN_PARAMS_MIN_STAKE, <u8>R_CHAIN_PARAMS_UNBONDING_SECONDS, <u8>R_CHAIN_PARAMS_COMMISSION_COOLDOWN_BLOCKS,
  <u8>R_CHAIN_PARAMS_MAX_COMMISSION_BPS, <u8>R_CHAIN_PARAMS_MISSED_SKIP_THRESHOLD, <u8>R_CHAIN_PARAMS_MAX_ACTIVE_VALIDATORS,
  // 6–8: offsets inside the tail (after its count byte)
  1 + <u8>R_GOV_PARAMS_VOTING_PERIOD_BLOCKS, 1 + <u8>R_GOV_PARAMS_QUORUM_BPS, 1 + <u8>R_GOV_PARAMS_THRESHOLD_BPS,
]);
const KEY_SIZE = memory.data<u8>([16, 8, 8, 2, 4, 4, 8, 2, 2]);
// Allowed ranges (docs/governance.md "Parameters"): min_stake 1–10,000,000 NTV, unbonding 1 day–1
// year, cooldown ≤ 1,000,000 blocks, max commission ≤ 10,000 bps, skip threshold 1–1,000, active
// validators 1–1,000, voting period 5–1,000,000 blocks, quorum 1–10,000 bps, threshold 5,000–9,999 bps.
const KEY_MIN = memory.data<u64>([1_000_000_000, 86_400, 0, 0, 1, 1, GOV_MIN_VOTING_PERIOD, 1, 5000]);
const KEY_MAX = memory.data<u64>([10_000_000_000_000_000, 31_536_000, 1_000_000, 10_000, 1000, 1000, GOV_MAX_VOTING_PERIOD, 10_000, 9_999]);
// @ts-ignore: decorator
@inline const GOV_KEY_FIRST: u8 = 6;

const REC = bufNew(256 + MAX_PROPOSAL_OPS_BYTES + MAX_PROPOSAL_TITLE + MAX_PROPOSAL_DESCRIPTION + 2 * MAX_SAFETY_TEXT + 64);
const ACTION = memory.data(MAX_PROPOSAL_OPS_BYTES + 2 * MAX_SAFETY_TEXT + 64);
const PROP_OPS = memory.data(MAX_PROPOSAL_OPS * 32);
const VOTE = memory.data(R_PROPOSAL_VOTE_BYTES);
const SAFETY = memory.data(R_COLLECTION_SAFETY_BYTES);
const TARGET = memory.data(32);
const VAL = memory.data(32);
const PARAMS = bufNew(256);
const hbuf = bufNew(64 + 2 * MAX_SAFETY_TEXT);
const WA = memory.data(48);
const WB = memory.data(48);
const ONE_AMOUNT = memory.data(16);

function proposalEntry(id: u64): usize {
  store<u8>(KEY, P_PROPOSAL);
  store<u64>(KEY + 1, bswap<u64>(id));
  return lookup(KEY, 9);
}

function voteEntry(id: u64, voter: usize): usize {
  store<u8>(KEY, P_PROPOSAL_VOTE);
  store<u64>(KEY + 1, bswap<u64>(id));
  memory.copy(KEY + 9, voter, 32);
  return lookup(KEY, 41);
}

/** Bonded stake of an account into U.lo/U.hi: the sum of its delegations (self stake included). */
export function bondedStake(account: usize): void {
  let lo: u64 = 0, hi: u64 = 0;
  let idx = delegatorIndexEntry(account);
  if (exists(idx)) {
    let n = listCount(idx);
    for (let i: u32 = 0; i < n; i++) {
      memory.copy(VAL, listItem(delegatorIndexEntry(account), i), 32);
      let d = delegationEntry(VAL, account);
      if (!exists(d)) continue;
      // Bounded by the NTV supply, so the sum cannot overflow.
      U.add128(lo, hi, load<u64>(valPtr(d)), load<u64>(valPtr(d), 8));
      lo = U.lo;
      hi = U.hi;
    }
  }
  U.lo = lo;
  U.hi = hi;
}

/** The quorum base: total bonded stake (StakingState.total_staked), 0 on a ledger without staking. */
function totalStake(): void {
  let e = singletonEntry(P_STAKING_STATE);
  if (!exists(e)) { U.lo = 0; U.hi = 0; return; }
  U.lo = load<u64>(valPtr(e) + R_STAKING_STATE_TOTAL_STAKED);
  U.hi = load<u64>(valPtr(e) + R_STAKING_STATE_TOTAL_STAKED, 8);
}

let gPeriod: u64 = 0;
let gQuorum: u16 = 0;
let gThreshold: u16 = 0;

/** The governance parameters: ChainParams' governance tail, or the defaults (spec §8). */
function loadGov(): void {
  gPeriod = GOV_DEFAULT_VOTING_PERIOD;
  gQuorum = GOV_DEFAULT_QUORUM_BPS;
  gThreshold = GOV_DEFAULT_THRESHOLD_BPS;
  let e = singletonEntry(P_CHAIN_PARAMS);
  if (!exists(e)) return;
  let p = valPtr(e);
  let base = <u32>R_CHAIN_PARAMS_JAIL_DURATIONS_DATA + load<u32>(p + R_CHAIN_PARAMS_JAIL_DURATIONS) * 8;
  if (<u32>valLen(e) != base + GOV_TAIL) return;
  let t = p + base + 1;
  gPeriod = load<u64>(t);
  gQuorum = load<u16>(t + R_GOV_PARAMS_QUORUM_BPS);
  gThreshold = load<u16>(t + R_GOV_PARAMS_THRESHOLD_BPS);
}

/** A ParameterChange's value check: INVALID_PARAMETER_VALUE outside the key's range. */
function paramInRange(key: u8, f: usize): bool {
  let lo = load<u64>(f, OPF_PROPOSAL_ACTION_PARAMETER_CHANGE_VALUE), hi = load<u64>(f, OPF_PROPOSAL_ACTION_PARAMETER_CHANGE_VALUE + 8);
  if (hi != 0) return false;
  return lo >= load<u64>(KEY_MIN + (<usize>key << 3)) && lo <= load<u64>(KEY_MAX + (<usize>key << 3));
}

/**
 * The checks of an action that can be made when it is proposed and again when it runs (the state
 * may have changed in between): ranges, the treasury's balance, the safety target.
 */
function checkAction(tag: u8, f: usize, len: u32): u32 {
  if (tag == PROPOSAL_ACTION_PARAMETER_CHANGE) {
    if (!exists(singletonEntry(P_CHAIN_PARAMS))) return S.NO_CHAIN_PARAMS;
    if (!paramInRange(load<u8>(f), f)) return S.INVALID_PARAMETER_VALUE;
  } else if (tag == PROPOSAL_ACTION_TREASURY_SPEND) {
    let aLo = load<u64>(f, OPF_PROPOSAL_ACTION_TREASURY_SPEND_AMOUNT), aHi = load<u64>(f, OPF_PROPOSAL_ACTION_TREASURY_SPEND_AMOUNT + 8);
    if ((aLo | aHi) == 0) return S.ZERO_AMOUNT;
    balLoad(balanceEntry(TREASURY, NTV_MINT));
    if (U.lt128(U.lo, U.hi, aLo, aHi)) return S.TREASURY_INSUFFICIENT;
  } else if (tag == PROPOSAL_ACTION_CONTRACT_SAFETY) {
    if (!validContractSafety(f)) return S.INVALID_SAFETY_TARGET;
  } else if (tag == PROPOSAL_ACTION_COLLECTION_SAFETY) {
    if (!validCollectionSafety(f)) return S.INVALID_SAFETY_TARGET;
  } else if (tag >= PROPOSAL_ACTION_CREATE_STABLECOIN) {
    if (len > MAX_PROPOSAL_OPS_BYTES) return S.INVALID_PROPOSAL_OPERATIONS;
  }
  return S.OK;
}

/**
 * CreateProposal { title, description, action } (op record: see assembly/bundle.ts). Order of checks:
 * NO_VOTING_POWER → INVALID_PROPOSAL_TEXT → the action's (checkAction). The id is the next of the
 * 0x5A counter; voting runs from this block to end_height = height + voting_period_blocks.
 */
export function execCreateProposal(user: usize, op: usize, bundleIndex: u32, opIndex: u32): u32 {
  let title = <usize>load<u32>(op, OPR_CREATE_PROPOSAL_TITLE), titleLen = load<u32>(op, OPR_CREATE_PROPOSAL_TITLE_LEN);
  let desc = <usize>load<u32>(op, OPR_CREATE_PROPOSAL_DESCRIPTION), descLen = load<u32>(op, OPR_CREATE_PROPOSAL_DESCRIPTION_LEN);
  let action = <usize>load<u32>(op, OPR_CREATE_PROPOSAL_ACTION), actionLen = load<u32>(op, OPR_CREATE_PROPOSAL_ACTION_LEN);
  bondedStake(user);
  if ((U.lo | U.hi) == 0) return S.NO_VOTING_POWER;
  if (titleLen == 0 || titleLen > MAX_PROPOSAL_TITLE || descLen > MAX_PROPOSAL_DESCRIPTION) return S.INVALID_PROPOSAL_TEXT;
  let tag = load<u8>(action);
  let st = checkAction(tag, action + 1, actionLen - 1);
  if (st != S.OK) return st;
  loadGov();
  let ce = singletonEntry(P_PROPOSAL_COUNT);
  let id: u64 = (exists(ce) ? load<u64>(valPtr(ce)) : 0) + 1;
  store<u64>(VAL, id);
  setValue(singletonEntry(P_PROPOSAL_COUNT), VAL, 8);
  let end = ctxHeight + gPeriod;
  bufSetLen(REC, 0);
  let p = bufPtr(REC);
  memory.fill(p, 0, R_PROPOSAL_ACTION);
  store<u8>(p + R_PROPOSAL_VERSION, RECORD_VERSION);
  memory.copy(p + R_PROPOSAL_PROPOSER, user, 32);
  store<u8>(p + R_PROPOSAL_PROPOSAL_KIND, tag);
  store<u8>(p + R_PROPOSAL_STATE, STATE_VOTING);
  store<u64>(p + R_PROPOSAL_CREATED_HEIGHT, ctxHeight);
  store<u64>(p + R_PROPOSAL_CREATED_AT, ctxTimestamp);
  store<u64>(p + R_PROPOSAL_END_HEIGHT, end);
  store<u16>(p + R_PROPOSAL_QUORUM_BPS, gQuorum);
  store<u16>(p + R_PROPOSAL_THRESHOLD_BPS, gThreshold);
  totalStake();
  store<u64>(p + R_PROPOSAL_TOTAL_STAKE, U.lo);
  store<u64>(p + R_PROPOSAL_TOTAL_STAKE, U.hi, 8);
  bufSetLen(REC, <u32>R_PROPOSAL_ACTION);
  bufU32(REC, actionLen);
  bufBytes(REC, action, actionLen);
  bufU32(REC, titleLen);
  bufBytes(REC, title, titleLen);
  bufU32(REC, descLen);
  bufBytes(REC, desc, descLen);
  setValue(proposalEntry(id), bufPtr(REC), bufLen(REC));
  // ProposalCreated: id u64, proposer[32], kind u8, end_height u64
  emitProposalCreated(bundleIndex, <u16>opIndex, id, user, tag, end);
  return S.OK;
}

/**
 * VoteProposal { proposal_id u64, approve bool }: PROPOSAL_NOT_FOUND → VOTING_CLOSED (executed,
 * cancelled, or past end_height) → ALREADY_VOTED → NO_VOTING_POWER. One vote per account, weighted
 * by its bonded stake now, added to the tally.
 */
export function execVoteProposal(user: usize, f: usize, bundleIndex: u32, opIndex: u32): u32 {
  let id = load<u64>(f);
  let approve = load<u8>(f, OPF_VOTE_PROPOSAL_APPROVE);
  let e = proposalEntry(id);
  if (!exists(e)) return S.PROPOSAL_NOT_FOUND;
  let r = valPtr(e);
  if (load<u8>(r + R_PROPOSAL_STATE) != STATE_VOTING || ctxHeight > load<u64>(r + R_PROPOSAL_END_HEIGHT)) return S.VOTING_CLOSED;
  let ve = voteEntry(id, user);
  if (exists(ve)) return S.ALREADY_VOTED;
  bondedStake(user);
  let wLo = U.lo, wHi = U.hi;
  if ((wLo | wHi) == 0) return S.NO_VOTING_POWER;
  store<u8>(VOTE + R_PROPOSAL_VOTE_APPROVE, approve);
  store<u64>(VOTE + R_PROPOSAL_VOTE_WEIGHT, wLo);
  store<u64>(VOTE + R_PROPOSAL_VOTE_WEIGHT + 8, wHi);
  store<u64>(VOTE + R_PROPOSAL_VOTE_HEIGHT, ctxHeight);
  setValue(voteEntry(id, user), VOTE, R_PROPOSAL_VOTE_BYTES);
  addToTally(proposalEntry(id), approve, wLo, wHi);
  // ProposalVoted: id u64, voter[32], approve u8, weight u128
  emitProposalVoted(bundleIndex, <u16>opIndex, id, user, approve, wLo, wHi);
  return S.OK;
}

/**
 * Add a vote's weight to the yes or no tally of the proposal record at entry `e` and count its voter,
 * in place (same length). DAO proposals share the offsets (abi/state.mjs DaoProposal). The sum is
 * bounded by the supply of what votes (NTV stake, or the DAO's token), so it cannot overflow.
 */
export function addToTally(e: usize, approve: u8, wLo: u64, wHi: u64): void {
  let w = beginWrite(e, <u32>valLen(e));
  let at = approve == 1 ? R_PROPOSAL_YES : R_PROPOSAL_NO;
  U.add128(load<u64>(w + at), load<u64>(w + at, 8), wLo, wHi);
  store<u64>(w + at, U.lo);
  store<u64>(w + at, U.hi, 8);
  store<u32>(w + R_PROPOSAL_VOTERS, load<u32>(w + R_PROPOSAL_VOTERS) + 1);
}

/** a × m1 >= b × m2 (u128 × bps, in 192 bits). */
function mulGe(aLo: u64, aHi: u64, m1: u32, bLo: u64, bHi: u64, m2: u32): bool {
  W.wSet128(WA, aLo, aHi);
  W.wMulSmall(WA, WA, m1);
  W.wSet128(WB, bLo, bHi);
  W.wMulSmall(WB, WB, m2);
  return W.wCmp(WA, WB) >= 0;
}

/** Whether the proposal at r passed: votes × 10,000 ≥ total × quorum and yes × 10,000 > votes × threshold. */
export function passed(r: usize): bool {
  let yLo = load<u64>(r + R_PROPOSAL_YES), yHi = load<u64>(r + R_PROPOSAL_YES, 8);
  U.add128(yLo, yHi, load<u64>(r + R_PROPOSAL_NO), load<u64>(r + R_PROPOSAL_NO, 8));
  let vLo = U.lo, vHi = U.hi;
  if ((vLo | vHi) == 0) return false;
  if (!mulGe(vLo, vHi, 10000, load<u64>(r + R_PROPOSAL_TOTAL_STAKE), load<u64>(r + R_PROPOSAL_TOTAL_STAKE, 8), <u32>load<u16>(r + R_PROPOSAL_QUORUM_BPS))) return false;
  // yes × 10,000 > votes × threshold ⇔ not (votes × threshold ≥ yes × 10,000)
  return !mulGe(vLo, vHi, <u32>load<u16>(r + R_PROPOSAL_THRESHOLD_BPS), yLo, yHi, 10000);
}

/**
 * ExecuteProposal { proposal_id u64 }, by anyone: PROPOSAL_NOT_FOUND → PROPOSAL_NOT_EXECUTABLE
 * (executed or cancelled) → VOTING_NOT_ENDED (height ≤ end_height) → PROPOSAL_REJECTED → the
 * action's own checks and statuses. A failing action fails the bundle and changes nothing: the
 * proposal stays passed and can be executed later (for example once the treasury holds enough).
 */
export function execExecuteProposal(user: usize, f: usize, bundleIndex: u32, opIndex: u32): u32 {
  let id = load<u64>(f);
  let e = proposalEntry(id);
  if (!exists(e)) return S.PROPOSAL_NOT_FOUND;
  let r = valPtr(e);
  if (load<u8>(r + R_PROPOSAL_STATE) != STATE_VOTING) return S.PROPOSAL_NOT_EXECUTABLE;
  if (ctxHeight <= load<u64>(r + R_PROPOSAL_END_HEIGHT)) return S.VOTING_NOT_ENDED;
  if (!passed(r)) return S.PROPOSAL_REJECTED;
  let tag = load<u8>(r + R_PROPOSAL_PROPOSAL_KIND);
  // The action is copied out: running it writes state, which may move the record's bytes.
  let actionLen = load<u32>(r + R_PROPOSAL_ACTION);
  memory.copy(ACTION, r + R_PROPOSAL_ACTION_DATA, actionLen);
  let a = ACTION + 1;
  let st = checkAction(tag, a, actionLen - 1);
  if (st != S.OK) return st;
  if (tag == PROPOSAL_ACTION_PARAMETER_CHANGE) applyParameter(id, a, bundleIndex, opIndex);
  else if (tag == PROPOSAL_ACTION_TREASURY_SPEND) {
    st = moveBalance(balanceEntry(TREASURY, NTV_MINT), TREASURY, a, NTV_MINT, a + 32, bundleIndex, opIndex);
    if (st == S.INSUFFICIENT_BALANCE) st = S.TREASURY_INSUFFICIENT; // checked above; kept for clarity
  } else if (tag == PROPOSAL_ACTION_CONTRACT_SAFETY) setContractSafety(id, a, bundleIndex, opIndex);
  else if (tag == PROPOSAL_ACTION_COLLECTION_SAFETY) setCollectionSafety(id, a, bundleIndex, opIndex);
  else if (tag >= PROPOSAL_ACTION_CREATE_STABLECOIN) st = runCarried(GOVERNANCE, id, a, actionLen - 1, bundleIndex, opIndex);
  if (st != S.OK) return st;
  e = proposalEntry(id);
  let w = beginWrite(e, <u32>valLen(e));
  store<u8>(w + R_PROPOSAL_STATE, STATE_EXECUTED);
  store<u64>(w + R_PROPOSAL_EXECUTED_HEIGHT, ctxHeight);
  // ProposalExecuted: id u64, executor[32], kind u8 (after the action's own events)
  emitProposalExecuted(bundleIndex, <u16>opIndex, id, user, tag);
  return S.OK;
}

/** CancelProposal { proposal_id u64 }: PROPOSAL_NOT_FOUND → NOT_PROPOSER → PROPOSAL_NOT_CANCELLABLE. */
export function execCancelProposal(user: usize, f: usize, bundleIndex: u32, opIndex: u32): u32 {
  let id = load<u64>(f);
  let e = proposalEntry(id);
  if (!exists(e)) return S.PROPOSAL_NOT_FOUND;
  let r = valPtr(e);
  if (!bytesEq(r + R_PROPOSAL_PROPOSER, user, 32)) return S.NOT_PROPOSER;
  if (load<u8>(r + R_PROPOSAL_STATE) != STATE_VOTING || ctxHeight > load<u64>(r + R_PROPOSAL_END_HEIGHT)) return S.PROPOSAL_NOT_CANCELLABLE;
  let w = beginWrite(e, <u32>valLen(e));
  store<u8>(w + R_PROPOSAL_STATE, STATE_CANCELLED);
  // ProposalCancelled: id u64, proposer[32]
  emitProposalCancelled(bundleIndex, <u16>opIndex, id, user);
  return S.OK;
}

/**
 * Write a ParameterChange into ChainParams (0x15): keys 0–5 in place, keys 6–8 in the governance
 * tail, which is appended with the defaults first when absent. Takes effect at once: the staking
 * parameters are reloaded (later bundles of the block see them), and proposals created from now on
 * take the governance values (running ones keep theirs). ChainParamChanged carries old and new.
 */
function applyParameter(id: u64, f: usize, bundleIndex: u32, opIndex: u32): void {
  let key = load<u8>(f);
  let e = singletonEntry(P_CHAIN_PARAMS);
  let n = <u32>valLen(e);
  let base = <u32>R_CHAIN_PARAMS_JAIL_DURATIONS_DATA + load<u32>(valPtr(e) + R_CHAIN_PARAMS_JAIL_DURATIONS) * 8;
  bufSetLen(PARAMS, 0);
  bufBytes(PARAMS, valPtr(e), base);
  if (n == base + GOV_TAIL) bufBytes(PARAMS, valPtr(e) + base, GOV_TAIL);
  else if (key >= GOV_KEY_FIRST) {
    bufU8(PARAMS, 1);
    bufU64(PARAMS, GOV_DEFAULT_VOTING_PERIOD);
    bufU16(PARAMS, GOV_DEFAULT_QUORUM_BPS);
    bufU16(PARAMS, GOV_DEFAULT_THRESHOLD_BPS);
  }
  let at = bufPtr(PARAMS) + <usize>load<u8>(KEY_OFFSET + key) + (key >= GOV_KEY_FIRST ? <usize>base : 0);
  let size = load<u8>(KEY_SIZE + key);
  let oLo: u64 = 0, oHi: u64 = 0;
  let v = load<u64>(f, OPF_PROPOSAL_ACTION_PARAMETER_CHANGE_VALUE);
  if (size == 16) { oLo = load<u64>(at); oHi = load<u64>(at, 8); store<u64>(at, v); store<u64>(at, 0, 8); }
  else if (size == 8) { oLo = load<u64>(at); store<u64>(at, v); }
  else if (size == 4) { oLo = <u64>load<u32>(at); store<u32>(at, <u32>v); }
  else { oLo = <u64>load<u16>(at); store<u16>(at, <u16>v); }
  setValue(singletonEntry(P_CHAIN_PARAMS), bufPtr(PARAMS), bufLen(PARAMS));
  loadParams();
  // ChainParamChanged: id u64, key u8, old u128, new u128
  emitChainParamChanged(bundleIndex, <u16>opIndex, id, key, oLo, oHi, v, 0);

}

/**
 * The carried operations (CreateStablecoin, VerifyIssuer, RaiseSupplyCap, BridgeAttesters; a DAO
 * proposal's Operations), run in order as `actor` (GOVERNANCE, or the DAO account) inside the
 * executing bundle: the first failure fails the bundle. Their events carry the executing
 * operation's bundle and op index. A CreateToken derives its mint with the proposal id in place of
 * a nonce (neither GOVERNANCE nor a DAO sends bundles, so no nonce of its own can collide).
 */
export function runCarried(actor: usize, id: u64, p: usize, n: u32, bundleIndex: u32, opIndex: u32): u32 {
  readerInit(p, n);
  let st = decodeOps(PROP_OPS, MAX_PROPOSAL_OPS, true);
  if (st != S.OK || !atEnd()) return S.INVALID_PROPOSAL_OPERATIONS; // checked at creation
  let count = opsCount;
  let payer = balanceEntry(actor, NTV_MINT);
  for (let k: u32 = 0; k < count && st == S.OK; k++) {
    let op = PROP_OPS + (<usize>k << 5);
    let kind = load<u32>(op);
    if (kind == OP_TRANSFER) st = execTransfer(actor, <usize>load<u32>(op, OPR_FIELDS), bundleIndex, opIndex, payer);
    else if (kind == OP_CREATE_TOKEN) st = execCreateToken(actor, op, id, bundleIndex, opIndex);
    else st = execOther(kind, actor, op, bundleIndex, opIndex);
  }
  return st;
}
