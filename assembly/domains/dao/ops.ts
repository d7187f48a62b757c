// DAOs (issue 22 item 5; docs/dao.md): CreateDao (disc. 85), DaoPropose (86), DaoVote
// (87), DaoExecute (88), DaoCancel (89), DaoUnlock (90). OpenZeppelin's Governor is the model, with
// an escrow in place of ERC20Votes checkpoints: a vote locks the voter's whole balance of the DAO's
// token in the DAO's escrow account until the proposal's voting ends, and the weight is what is
// locked, so the same tokens cannot vote again from another account (docs/dao.md "Why an
// escrow"). A passed proposal's operations run as the DAO account: its treasury.
//
//   0x61 dao[32]                   → Dao (abi/state.mjs); dao = Blake3("ntv-dao" ‖ id u64 LE)
//   0x62                           → u64 DAOs created (ids run 1…count)
//   0x63 dao[32] id u64 BE         → DaoProposal (same offsets as ProposalRecord up to its action)
//   0x64 dao[32] id u64 BE voter   → DaoVote: approve, weight u128, height u64, unlocked
//   escrow = Blake3("ntv-dao-escrow" ‖ dao), an account moved only through moveBalance.

import * as S from "../../status";
import * as U from "../../u128";
import { KEY, balanceEntry, tokenEntry } from "../../keys";
import { lookup, exists, setValue, valPtr, valLen, beginWrite } from "../../state";
import { ctxHeight } from "../../context";
import { emitDaoCreated, emitDaoProposalEvent } from "../../events-gen";
import { bufNew, bufPtr, bufLen, bufSetLen, bufBytes, bufU32, bytesEq, isZero } from "../../mem";
import { balLoad, tokenSupplyOffset } from "../../ledger";
import { addToTally, passed, runCarried, STATE_VOTING, STATE_EXECUTED, STATE_CANCELLED } from "../governance/ops";
import { deriveAddress, moveAmount, nextId } from "../../ops/escrow";
import {
  P_DAO, P_DAO_COUNT, P_DAO_PROPOSAL, P_DAO_VOTE, DAO_ACTION_OPERATIONS,
  MAX_PROPOSAL_TITLE, MAX_PROPOSAL_DESCRIPTION, MAX_PROPOSAL_OPS_BYTES,
  R_DAO_VERSION, R_DAO_ID, R_DAO_CREATOR, R_DAO_TOKEN_MINT, R_DAO_QUORUM_BPS, R_DAO_THRESHOLD_BPS, R_DAO_VOTING_PERIOD,
  R_DAO_EXECUTION_DELAY, R_DAO_PROPOSAL_THRESHOLD, R_DAO_CREATED_HEIGHT, R_DAO_PROPOSAL_COUNT, R_DAO_NAME,
  R_DAO_PROPOSAL_VERSION, R_DAO_PROPOSAL_PROPOSER, R_DAO_PROPOSAL_PROPOSAL_KIND, R_DAO_PROPOSAL_STATE,
  R_DAO_PROPOSAL_CREATED_HEIGHT, R_DAO_PROPOSAL_END_HEIGHT, R_DAO_PROPOSAL_EXECUTION_DELAY, R_DAO_PROPOSAL_QUORUM_BPS,
  R_DAO_PROPOSAL_THRESHOLD_BPS, R_DAO_PROPOSAL_SUPPLY,
  R_DAO_PROPOSAL_EXECUTED_HEIGHT, R_DAO_PROPOSAL_ACTION, R_DAO_PROPOSAL_ACTION_DATA,
  R_DAO_VOTE_APPROVE, R_DAO_VOTE_WEIGHT, R_DAO_VOTE_HEIGHT, R_DAO_VOTE_UNLOCKED, R_DAO_VOTE_BYTES,
  OPF_CREATE_DAO_EXECUTION_DELAY_AFTER_NAME, OPF_CREATE_DAO_QUORUM_BPS_AFTER_NAME, OPF_CREATE_DAO_THRESHOLD_BPS_AFTER_NAME, OPF_CREATE_DAO_VOTING_PERIOD_AFTER_NAME, OPF_DAO_CANCEL_PROPOSAL_ID, OPF_DAO_EXECUTE_PROPOSAL_ID, OPF_DAO_VOTE_APPROVE, OPF_DAO_VOTE_PROPOSAL_ID,
  OPF_DAO_UNLOCK_PROPOSAL_ID,
} from "../../abi";
import { OPR_CREATE_DAO_NAME, OPR_CREATE_DAO_NAME_LEN, OPR_CREATE_DAO_FIELDS, OPR_DAO_PROPOSE_TITLE, OPR_DAO_PROPOSE_TITLE_LEN, OPR_DAO_PROPOSE_DESCRIPTION, OPR_DAO_PROPOSE_DESCRIPTION_LEN, OPR_DAO_PROPOSE_ACTION, OPR_DAO_PROPOSE_ACTION_LEN } from "../../decode-ops";

// DaoProposalEvent actions (docs/dao.md "Events")
// @ts-ignore: decorator
@inline const ACT_PROPOSED: u8 = 0;
// @ts-ignore: decorator
@inline const ACT_VOTED_YES: u8 = 1;
// @ts-ignore: decorator
@inline const ACT_VOTED_NO: u8 = 2;
// @ts-ignore: decorator
@inline const ACT_EXECUTED: u8 = 3;
// @ts-ignore: decorator
@inline const ACT_CANCELLED: u8 = 4;
// @ts-ignore: decorator
@inline const ACT_UNLOCKED: u8 = 5;
// @ts-ignore: decorator
@inline const RECORD_VERSION: u8 = 1;
// Config bounds (docs/dao.md "Params")
// @ts-ignore: decorator
@inline const MAX_DAO_NAME: u32 = 64;
// @ts-ignore: decorator
@inline const MAX_DAO_BLOCKS: u64 = 1_000_000;

const DAO_TAG = memory.data<u8>([0x6e, 0x74, 0x76, 0x2d, 0x64, 0x61, 0x6f]); // "ntv-dao"
const ESCROW_TAG = memory.data<u8>([0x6e, 0x74, 0x76, 0x2d, 0x64, 0x61, 0x6f, 0x2d, 0x65, 0x73, 0x63, 0x72, 0x6f, 0x77]); // "ntv-dao-escrow"
const DAO = memory.data(32);
const MINT = memory.data(32);
const ESCROW = memory.data(32);
const ACTOR = memory.data(32);
const VOTE = memory.data(R_DAO_VOTE_BYTES);
const ACTION = memory.data(MAX_PROPOSAL_OPS_BYTES + 16);
const REC = bufNew(256 + MAX_PROPOSAL_OPS_BYTES + MAX_PROPOSAL_TITLE + MAX_PROPOSAL_DESCRIPTION);

function daoEntry(dao: usize): usize {
  store<u8>(KEY, P_DAO);
  memory.copy(KEY + 1, dao, 32);
  return lookup(KEY, 33);
}

function proposalEntry(dao: usize, id: u64): usize {
  store<u8>(KEY, P_DAO_PROPOSAL);
  memory.copy(KEY + 1, dao, 32);
  store<u64>(KEY + 33, bswap<u64>(id));
  return lookup(KEY, 41);
}

function voteEntry(dao: usize, id: u64, voter: usize): usize {
  store<u8>(KEY, P_DAO_VOTE);
  memory.copy(KEY + 1, dao, 32);
  store<u64>(KEY + 33, bswap<u64>(id));
  memory.copy(KEY + 41, voter, 32);
  return lookup(KEY, 73);
}

/** DaoProposalEvent: dao[32], proposal_id u64, action u8, account[32], amount u128. */
function daoEvent(dao: usize, id: u64, action: u8, account: usize, lo: u64, hi: u64, bundleIndex: u32, opIndex: u32): void {
  emitDaoProposalEvent(bundleIndex, <u16>opIndex, dao, id, action, account, lo, hi);
}

/** The token's total supply (TokenRecord, after its name and symbol) into U.lo/U.hi. */
function tokenSupply(mint: usize): void {
  let p = valPtr(tokenEntry(mint));
  let at = p + tokenSupplyOffset(p);
  U.lo = load<u64>(at);
  U.hi = load<u64>(at, 8);
}

/**
 * CreateDao { name, token_mint, quorum_bps, threshold_bps, voting_period, execution_delay,
 * proposal_threshold }: INVALID_DAO_CONFIG → UNKNOWN_TOKEN. The DAO's address is
 * Blake3("ntv-dao" ‖ id u64 LE) for the next id of the 0x62 counter.
 */
export function execCreateDao(user: usize, op: usize, bundleIndex: u32, opIndex: u32): u32 {
  let name = <usize>load<u32>(op, OPR_CREATE_DAO_NAME), nameLen = load<u32>(op, OPR_CREATE_DAO_NAME_LEN);
  let f = <usize>load<u32>(op, OPR_CREATE_DAO_FIELDS);
  let quorum = load<u16>(f, OPF_CREATE_DAO_QUORUM_BPS_AFTER_NAME), threshold = load<u16>(f, OPF_CREATE_DAO_THRESHOLD_BPS_AFTER_NAME);
  let period = load<u64>(f, OPF_CREATE_DAO_VOTING_PERIOD_AFTER_NAME), delay = load<u64>(f, OPF_CREATE_DAO_EXECUTION_DELAY_AFTER_NAME);
  if (nameLen == 0 || nameLen > MAX_DAO_NAME || isZero(f, 32) || quorum == 0 || quorum > 10000 || threshold < 5000 || threshold > 9999
    || period == 0 || period > MAX_DAO_BLOCKS || delay > MAX_DAO_BLOCKS) return S.INVALID_DAO_CONFIG;
  if (!exists(tokenEntry(f))) return S.UNKNOWN_TOKEN;
  memory.copy(MINT, f, 32);
  let id = nextId(P_DAO_COUNT, DAO_TAG, 7, DAO);
  bufSetLen(REC, 0);
  let p = bufPtr(REC);
  store<u8>(p + R_DAO_VERSION, RECORD_VERSION);
  store<u64>(p + R_DAO_ID, id);
  memory.copy(p + R_DAO_CREATOR, user, 32);
  memory.copy(p + R_DAO_TOKEN_MINT, MINT, 32);
  memory.copy(p + R_DAO_QUORUM_BPS, f + OPF_CREATE_DAO_QUORUM_BPS_AFTER_NAME, 36); // quorum, threshold, period, delay, proposal_threshold
  store<u64>(p + R_DAO_CREATED_HEIGHT, ctxHeight);
  store<u64>(p + R_DAO_PROPOSAL_COUNT, 0);
  bufSetLen(REC, <u32>R_DAO_NAME);
  bufU32(REC, nameLen);
  bufBytes(REC, name, nameLen);
  setValue(daoEntry(DAO), bufPtr(REC), bufLen(REC));
  // DaoCreated: dao[32], creator[32], token_mint[32], dao_id u64
  emitDaoCreated(bundleIndex, <u16>opIndex, DAO, user, MINT, id);

  return S.OK;
}

/**
 * DaoPropose { dao, title, description, action }: DAO_NOT_FOUND → INVALID_PROPOSAL_TEXT →
 * BELOW_PROPOSAL_THRESHOLD (the proposer's balance of the token now) → INVALID_PROPOSAL_OPERATIONS
 * (over 4,096 bytes). Voting runs to end_height = height + voting_period; the quorum base is the
 * token's total supply now.
 */
export function execDaoPropose(user: usize, op: usize, bundleIndex: u32, opIndex: u32): u32 {
  let title = <usize>load<u32>(op, OPR_DAO_PROPOSE_TITLE), titleLen = load<u32>(op, OPR_DAO_PROPOSE_TITLE_LEN);
  let desc = <usize>load<u32>(op, OPR_DAO_PROPOSE_DESCRIPTION), descLen = load<u32>(op, OPR_DAO_PROPOSE_DESCRIPTION_LEN);
  let action = <usize>load<u32>(op, OPR_DAO_PROPOSE_ACTION), actionLen = load<u32>(op, OPR_DAO_PROPOSE_ACTION_LEN);
  memory.copy(DAO, title - 36, 32);
  let e = daoEntry(DAO);
  if (!exists(e)) return S.DAO_NOT_FOUND;
  if (titleLen == 0 || titleLen > MAX_PROPOSAL_TITLE || descLen > MAX_PROPOSAL_DESCRIPTION) return S.INVALID_PROPOSAL_TEXT;
  let r = valPtr(e);
  memory.copy(MINT, r + R_DAO_TOKEN_MINT, 32);
  balLoad(balanceEntry(user, MINT));
  e = daoEntry(DAO); // looked up again: a lookup may move cached values
  r = valPtr(e);
  if (U.lt128(U.lo, U.hi, load<u64>(r + R_DAO_PROPOSAL_THRESHOLD), load<u64>(r + R_DAO_PROPOSAL_THRESHOLD, 8))) return S.BELOW_PROPOSAL_THRESHOLD;
  let tag = load<u8>(action);
  if (tag == DAO_ACTION_OPERATIONS && actionLen - 1 > MAX_PROPOSAL_OPS_BYTES) return S.INVALID_PROPOSAL_OPERATIONS;
  let quorum = load<u16>(r + R_DAO_QUORUM_BPS), threshold = load<u16>(r + R_DAO_THRESHOLD_BPS);
  let end = ctxHeight + load<u64>(r + R_DAO_VOTING_PERIOD); // ≤ 1,000,000 more: no overflow
  let delay = load<u64>(r + R_DAO_EXECUTION_DELAY);
  let id = load<u64>(r + R_DAO_PROPOSAL_COUNT) + 1;
  let w = beginWrite(e, <u32>valLen(e));
  store<u64>(w + R_DAO_PROPOSAL_COUNT, id);
  tokenSupply(MINT);
  bufSetLen(REC, 0);
  let p = bufPtr(REC);
  memory.fill(p, 0, R_DAO_PROPOSAL_ACTION);
  store<u8>(p + R_DAO_PROPOSAL_VERSION, RECORD_VERSION);
  memory.copy(p + R_DAO_PROPOSAL_PROPOSER, user, 32);
  store<u8>(p + R_DAO_PROPOSAL_PROPOSAL_KIND, tag);
  store<u8>(p + R_DAO_PROPOSAL_STATE, STATE_VOTING);
  store<u64>(p + R_DAO_PROPOSAL_CREATED_HEIGHT, ctxHeight);
  store<u64>(p + R_DAO_PROPOSAL_END_HEIGHT, end);
  store<u64>(p + R_DAO_PROPOSAL_EXECUTION_DELAY, delay);
  store<u16>(p + R_DAO_PROPOSAL_QUORUM_BPS, quorum);
  store<u16>(p + R_DAO_PROPOSAL_THRESHOLD_BPS, threshold);
  store<u64>(p + R_DAO_PROPOSAL_SUPPLY, U.lo);
  store<u64>(p + R_DAO_PROPOSAL_SUPPLY, U.hi, 8);
  bufSetLen(REC, <u32>R_DAO_PROPOSAL_ACTION);
  bufU32(REC, actionLen);
  bufBytes(REC, action, actionLen);
  bufU32(REC, titleLen);
  bufBytes(REC, title, titleLen);
  bufU32(REC, descLen);
  bufBytes(REC, desc, descLen);
  setValue(proposalEntry(DAO, id), bufPtr(REC), bufLen(REC));
  daoEvent(DAO, id, ACT_PROPOSED, user, 0, 0, bundleIndex, opIndex);
  return S.OK;
}

/**
 * DaoVote { dao, proposal_id, approve }: DAO_NOT_FOUND → PROPOSAL_NOT_FOUND → VOTING_CLOSED
 * (executed, cancelled or past end_height) → ALREADY_VOTED → NO_VOTING_POWER (no tokens of the
 * DAO's own; an allowance or tokens locked in another vote are not the voter's balance). The whole
 * balance moves into the escrow (a Transfer event) and is the vote's weight.
 */
export function execDaoVote(user: usize, f: usize, bundleIndex: u32, opIndex: u32): u32 {
  memory.copy(DAO, f, 32);
  let id = load<u64>(f, OPF_DAO_VOTE_PROPOSAL_ID);
  let approve = load<u8>(f, OPF_DAO_VOTE_APPROVE);
  let de = daoEntry(DAO);
  if (!exists(de)) return S.DAO_NOT_FOUND;
  memory.copy(MINT, valPtr(de) + R_DAO_TOKEN_MINT, 32);
  let e = proposalEntry(DAO, id);
  if (!exists(e)) return S.PROPOSAL_NOT_FOUND;
  let r = valPtr(e);
  if (load<u8>(r + R_DAO_PROPOSAL_STATE) != STATE_VOTING || ctxHeight > load<u64>(r + R_DAO_PROPOSAL_END_HEIGHT)) return S.VOTING_CLOSED;
  if (exists(voteEntry(DAO, id, user))) return S.ALREADY_VOTED;
  balLoad(balanceEntry(user, MINT));
  let wLo = U.lo, wHi = U.hi;
  if ((wLo | wHi) == 0) return S.NO_VOTING_POWER;
  deriveAddress(ESCROW_TAG, 14, DAO, 32, ESCROW);
  let st = moveAmount(user, ESCROW, MINT, wLo, wHi, bundleIndex, opIndex);
  if (st != S.OK) return st; // the escrow's total is bounded by the supply: no overflow
  store<u8>(VOTE + R_DAO_VOTE_APPROVE, approve);
  store<u64>(VOTE + R_DAO_VOTE_WEIGHT, wLo);
  store<u64>(VOTE + R_DAO_VOTE_WEIGHT + 8, wHi);
  store<u64>(VOTE + R_DAO_VOTE_HEIGHT, ctxHeight);
  store<u8>(VOTE + R_DAO_VOTE_UNLOCKED, 0);
  setValue(voteEntry(DAO, id, user), VOTE, R_DAO_VOTE_BYTES);
  addToTally(proposalEntry(DAO, id), approve, wLo, wHi); // the offsets of ProposalRecord
  daoEvent(DAO, id, approve == 1 ? ACT_VOTED_YES : ACT_VOTED_NO, user, wLo, wHi, bundleIndex, opIndex);
  return S.OK;
}

/**
 * The DAO and proposal of a DaoExecute/DaoCancel/DaoUnlock { dao, proposal_id } into DAO and the
 * returned entry; 0 with `lastStatus` DAO_NOT_FOUND or PROPOSAL_NOT_FOUND.
 */
let lastStatus: u32 = 0;
function findProposal(f: usize): usize {
  memory.copy(DAO, f, 32);
  if (!exists(daoEntry(DAO))) { lastStatus = S.DAO_NOT_FOUND; return 0; }
  let e = proposalEntry(DAO, load<u64>(f, OPF_DAO_EXECUTE_PROPOSAL_ID)); // DaoCancel.proposal_id: the same offset
  if (!exists(e)) { lastStatus = S.PROPOSAL_NOT_FOUND; return 0; }
  return e;
}

/**
 * DaoExecute { dao, proposal_id }, by anyone: DAO_NOT_FOUND → PROPOSAL_NOT_FOUND →
 * PROPOSAL_NOT_EXECUTABLE (executed or cancelled) → VOTING_NOT_ENDED → PROPOSAL_REJECTED →
 * EXECUTION_DELAY_PENDING (height ≤ end_height + execution_delay) → the carried operations'
 * statuses, run as the DAO account. A failing operation fails the bundle; the proposal stays passed.
 */
export function execDaoExecute(user: usize, f: usize, bundleIndex: u32, opIndex: u32): u32 {
  let e = findProposal(f);
  if (e == 0) return lastStatus;
  let id = load<u64>(f, OPF_DAO_EXECUTE_PROPOSAL_ID);
  let r = valPtr(e);
  if (load<u8>(r + R_DAO_PROPOSAL_STATE) != STATE_VOTING) return S.PROPOSAL_NOT_EXECUTABLE;
  let end = load<u64>(r + R_DAO_PROPOSAL_END_HEIGHT);
  if (ctxHeight <= end) return S.VOTING_NOT_ENDED;
  if (!passed(r)) return S.PROPOSAL_REJECTED;
  if (ctxHeight - end <= load<u64>(r + R_DAO_PROPOSAL_EXECUTION_DELAY)) return S.EXECUTION_DELAY_PENDING;
  let tag = load<u8>(r + R_DAO_PROPOSAL_PROPOSAL_KIND);
  let st = S.OK;
  if (tag == DAO_ACTION_OPERATIONS) {
    // Copied out: running the operations writes state, which may move the record's bytes.
    let actionLen = load<u32>(r + R_DAO_PROPOSAL_ACTION);
    memory.copy(ACTION, r + R_DAO_PROPOSAL_ACTION_DATA, actionLen);
    memory.copy(ACTOR, DAO, 32);
    st = runCarried(ACTOR, id, ACTION + 1, actionLen - 1, bundleIndex, opIndex);
    if (st != S.OK) return st;
    e = proposalEntry(ACTOR, id);
    memory.copy(DAO, ACTOR, 32);
  }
  let w = beginWrite(e, <u32>valLen(e));
  store<u8>(w + R_DAO_PROPOSAL_STATE, STATE_EXECUTED);
  store<u64>(w + R_DAO_PROPOSAL_EXECUTED_HEIGHT, ctxHeight);
  daoEvent(DAO, id, ACT_EXECUTED, user, 0, 0, bundleIndex, opIndex);
  return S.OK;
}

/** DaoCancel { dao, proposal_id }: DAO_NOT_FOUND → PROPOSAL_NOT_FOUND → NOT_PROPOSER → PROPOSAL_NOT_CANCELLABLE. */
export function execDaoCancel(user: usize, f: usize, bundleIndex: u32, opIndex: u32): u32 {
  let e = findProposal(f);
  if (e == 0) return lastStatus;
  let r = valPtr(e);
  if (!bytesEq(r + R_DAO_PROPOSAL_PROPOSER, user, 32)) return S.NOT_PROPOSER;
  if (load<u8>(r + R_DAO_PROPOSAL_STATE) != STATE_VOTING || ctxHeight > load<u64>(r + R_DAO_PROPOSAL_END_HEIGHT)) return S.PROPOSAL_NOT_CANCELLABLE;
  let w = beginWrite(e, <u32>valLen(e));
  store<u8>(w + R_DAO_PROPOSAL_STATE, STATE_CANCELLED);
  daoEvent(DAO, load<u64>(f, OPF_DAO_CANCEL_PROPOSAL_ID), ACT_CANCELLED, user, 0, 0, bundleIndex, opIndex);
  return S.OK;
}

/**
 * DaoUnlock { dao, proposal_id }: the voter takes its locked tokens back from the escrow once the
 * proposal's voting is over (past end_height, or cancelled): DAO_NOT_FOUND → PROPOSAL_NOT_FOUND →
 * NO_LOCKED_VOTE (no vote, or unlocked already) → VOTE_STILL_LOCKED.
 */
export function execDaoUnlock(user: usize, f: usize, bundleIndex: u32, opIndex: u32): u32 {
  let e = findProposal(f);
  if (e == 0) return lastStatus;
  let id = load<u64>(f, OPF_DAO_UNLOCK_PROPOSAL_ID);
  let r = valPtr(e);
  let ve = voteEntry(DAO, id, user);
  if (!exists(ve) || load<u8>(valPtr(ve) + R_DAO_VOTE_UNLOCKED) != 0) return S.NO_LOCKED_VOTE;
  if (load<u8>(r + R_DAO_PROPOSAL_STATE) == STATE_VOTING && ctxHeight <= load<u64>(r + R_DAO_PROPOSAL_END_HEIGHT)) return S.VOTE_STILL_LOCKED;
  let wLo = load<u64>(valPtr(ve) + R_DAO_VOTE_WEIGHT), wHi = load<u64>(valPtr(ve) + R_DAO_VOTE_WEIGHT + 8);
  memory.copy(MINT, valPtr(daoEntry(DAO)) + R_DAO_TOKEN_MINT, 32);
  deriveAddress(ESCROW_TAG, 14, DAO, 32, ESCROW);
  let st = moveAmount(ESCROW, user, MINT, wLo, wHi, bundleIndex, opIndex);
  if (st != S.OK) return st; // the escrow holds every unreturned vote's weight
  ve = voteEntry(DAO, id, user);
  let w = beginWrite(ve, <u32>valLen(ve));
  store<u8>(w + R_DAO_VOTE_UNLOCKED, 1);
  daoEvent(DAO, id, ACT_UNLOCKED, user, wLo, wHi, bundleIndex, opIndex);
  return S.OK;
}
