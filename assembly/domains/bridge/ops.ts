// The bridge (spec §1.7, §2.2 Bridged and Impersonation rows, §4.6; issue 20; docs/bridge.md):
// attested deposits mint, withdrawals burn (escrow-free), mappings, the attester set.
//
// The attester signatures of BridgeDeposit and AttestBridgeWithdrawal are verified by the host
// before a bundle reaches the core (admission, block import, replay: src/domains/bridge/attestations.ts);
// the core has no Ed25519. What the core decides from state: each signer is in the current
// attester set, signers are distinct, their count reaches the threshold, a (chain, tx hash) is
// credited at most once, the contract is not blocked, and which token the deposit credits.
//
// Records (abi/state.mjs):
//   0x48                 → BridgeConfig { version, threshold, nextSequence u64, attesters vec32 }
//   0x49 depositId[32]   → BridgeDepositRecord (id = Blake3("bridge-deposit" ‖ chain ‖ 0 ‖ tx hash))
//   0x4A target[32]      → BridgeMapping (target = Blake3("bridge-mapping" ‖ chain ‖ 0 ‖ contract))
//   0x4B mint[32]        → BridgedToken { version, flags, deposited u128, withdrawn u128 }
//   0x4C sequence u64 BE → BridgeWithdrawalRecord

import * as S from "../../status";
import * as U from "../../u128";
import { KEY, balanceEntry, entry32, reservedEntry, singletonEntry, stableEntry, stableProfileEntry, symbolEntry, tokenEntry } from "../../keys";
import { beginWrite, exists, lookup, setValue, valLen, valPtr } from "../../state";
import { credit, debit, guardRefusal, stableGuard, tokenFlagsOffset, tokenSupplyAdd, tokenSymbolEnd } from "../../ledger";
import { emitBridgeAttestersSet, emitBridgeDeposited, emitBridgeMappingRegistered, emitBridgeWithdrawalAttested, emitBridgeWithdrawn, emitTokenCreated } from "../../events-gen";
import { bufBytes, bufLen, bufNew, bufPtr, bufSetLen, bufU16, bufU32, bufU64, bufU8, bytesEq, isZero } from "../../mem";
import { blake3 } from "../../blake3";
import { ctxHeight, ctxTimestamp, FOUNDATION, GOVERNANCE, NTV_MINT, TREASURY } from "../../context";
import { encodeTokenRecord, validSymbol } from "../../ops/token";
import { moveBalance } from "../../ops/transfer";
import { bridgeMintStable, transferEvent } from "../stablecoins/ops";
import { execSetContractSafety } from "../../ops/safety";
import {
  BRIDGE_MAX_ATTESTERS, BRIDGE_MAX_TEXT,
  OP_ATTEST_BRIDGE_WITHDRAWAL, OP_BRIDGE_DEPOSIT, OP_BRIDGE_WITHDRAW, OP_CLAIM_BRIDGE_DEPOSIT,
  OP_REGISTER_BRIDGE_MAPPING, OP_SET_BRIDGE_ATTESTERS, OP_SET_CONTRACT_SAFETY, P_BRIDGE_CONFIG, P_BRIDGE_DEPOSIT, P_BRIDGE_MAPPING, P_BRIDGE_TOKEN,
  P_BRIDGE_WITHDRAWAL, P_CONTRACT_SAFETY, R_BRIDGED_BYTES, R_BRIDGED_DEPOSITED, R_BRIDGED_FLAGS, R_BRIDGED_WITHDRAWN,
  TOKEN_KIND_BRIDGED, TOKEN_KIND_STD8,
  R_TOKEN_DECIMALS_AFTER_SYMBOL, R_TOKEN_KIND_AFTER_SYMBOL, R_TOKEN_ORIGIN_CHAIN_AFTER_SYMBOL,
  R_BRIDGE_CONFIG_THRESHOLD, R_BRIDGE_CONFIG_ATTESTERS, R_BRIDGE_CONFIG_ATTESTERS_DATA, R_BRIDGE_CONFIG_NEXT_SEQUENCE, R_STABLE_PROFILE_CURRENCY, R_BRIDGE_MAPPING_MINT, R_CONTRACT_SAFETY_LEVEL, R_BRIDGE_DEPOSIT_RECORD_STATE, R_BRIDGE_DEPOSIT_RECORD_MINT, R_BRIDGE_DEPOSIT_RECORD_AMOUNT, R_BRIDGE_DEPOSIT_RECORD_RECIPIENT, R_BRIDGE_DEPOSIT_RECORD_REASON, R_BRIDGE_DEPOSIT_RECORD_CREDITED_HEIGHT, R_BRIDGE_WITHDRAWAL_RECORD_CHAIN, R_BRIDGE_WITHDRAWAL_RECORD_CHAIN_DATA, R_BRIDGE_WITHDRAWAL_RECORD_MINT, R_BRIDGE_WITHDRAWAL_RECORD_AMOUNT, R_BRIDGE_WITHDRAWAL_RECORD_STATE, R_BRIDGE_WITHDRAWAL_RECORD_ATTESTED_HEIGHT,
  OPF_SET_BRIDGE_ATTESTERS_ATTESTERS_DATA, OPF_SET_BRIDGE_ATTESTERS_THRESHOLD_AFTER_ATTESTERS,
} from "../../abi";
import { OPR_FIELDS, OPR_FIELDS_LEN } from "../../decode-ops";

// @ts-ignore: decorator
@inline const SAFETY_BLOCKED: u8 = 3;
// @ts-ignore: decorator
@inline const SIG_ENTRY: u32 = 96; // attester pubkey[32] ‖ Ed25519 signature[64]
// @ts-ignore: decorator
@inline const FLAG_IMPERSONATION: u8 = 1;

/** The bridge system account 0xff…ff (spec §1.9): the creator of tokens the bridge creates. */
const BRIDGE_ACCOUNT = memory.data<u8>([
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
]);

// ---- chains and fees (docs/bridge.md "Chains") ---------------------------------------------------
// The origin chains of the genesis tokens (src/chain/genesis-data.ts) plus the well-known L2s; the
// withdrawal fee in raw NTV, paid to the treasury. src/chain/bridge.ts BRIDGE_CHAINS is the same
// table (test/core/bridge.test.ts checks it against the core).
// "ethereum,solana,base,bsc,polygon,arbitrum,optimism,avalanche,bitcoin,monad,dogecoin,litecoin,ton"
const CHAIN_BUF = memory.data<u8>([101, 116, 104, 101, 114, 101, 117, 109, 44, 115, 111, 108, 97, 110, 97, 44, 98, 97, 115, 101, 44, 98, 115, 99, 44, 112, 111, 108, 121, 103, 111, 110, 44, 97, 114, 98, 105, 116, 114, 117, 109, 44, 111, 112, 116, 105, 109, 105, 115, 109, 44, 97, 118, 97, 108, 97, 110, 99, 104, 101, 44, 98, 105, 116, 99, 111, 105, 110, 44, 109, 111, 110, 97, 100, 44, 100, 111, 103, 101, 99, 111, 105, 110, 44, 108, 105, 116, 101, 99, 111, 105, 110, 44, 116, 111, 110]);
// @ts-ignore: decorator
@inline const CHAIN_TABLE_LEN: u32 = 96;
const FEES: StaticArray<u64> = [2_000_000_000, 500_000_000, 500_000_000, 500_000_000, 500_000_000, 500_000_000,
  500_000_000, 500_000_000, 2_000_000_000, 500_000_000, 1_000_000_000, 1_000_000_000, 500_000_000];

/** The index of the chain named by `n` bytes at `p` in the table, or -1. */
function chainIndex(p: usize, n: u32): i32 {
  let start: u32 = 0;
  let idx: i32 = 0;
  for (let i: u32 = 0; i <= CHAIN_TABLE_LEN; i++) {
    if (i == CHAIN_TABLE_LEN || load<u8>(CHAIN_BUF + i) == 0x2c) {
      if (i - start == n && bytesEq(CHAIN_BUF + start, p, n)) return idx;
      idx++;
      start = i + 1;
    }
  }
  return -1;
}

// ---- field reading -----------------------------------------------------------------------------
// The decoder checked the shape (generated from the rows: assembly/decode-var-ops.ts); these read in place.
let fp: usize = 0;
function sPtr(): usize {
  let p = fp;
  fp += 4 + <usize>load<u32>(p);
  return p; // points at the u32 length; the bytes follow
}
// @ts-ignore: decorator
@inline function sLen(s: usize): u32 { return load<u32>(s); }
// @ts-ignore: decorator
@inline function sData(s: usize): usize { return s + 4; }
function fTake(n: usize): usize {
  let p = fp;
  fp += n;
  return p;
}

const hbuf = bufNew(512);
const rec = bufNew(1024);
const ID = memory.data(32);
const TARGET = memory.data(32);
const MINT = memory.data(32);
const AMOUNT = memory.data(16);
const FEE = memory.data(16);
const ZERO = memory.data(32);
const RECIPIENT = memory.data(32);
const NAMEBUF = bufNew(256);
const TAG_DEPOSIT = memory.data<u8>([98, 114, 105, 100, 103, 101, 45, 100, 101, 112, 111, 115, 105, 116]); // "bridge-deposit"
const TAG_MAPPING = memory.data<u8>([98, 114, 105, 100, 103, 101, 45, 109, 97, 112, 112, 105, 110, 103]); // "bridge-mapping"
const TAG_SAFETY = memory.data<u8>([99, 111, 110, 116, 114, 97, 99, 116, 45, 115, 97, 102, 101, 116, 121]); // "contract-safety"
const UNVERIFIED = memory.data<u8>([46, 117, 110, 118, 101, 114, 105, 102, 105, 101, 100]); // ".unverified"

/** Blake3(tag ‖ a ‖ 0x00 ‖ b) into `out`: the deposit id, the mapping and safety targets. */
function tagged(tag: usize, tagLen: u32, a: usize, b: usize, out: usize): void {
  bufSetLen(hbuf, 0);
  bufBytes(hbuf, tag, tagLen);
  bufBytes(hbuf, sData(a), sLen(a));
  bufU8(hbuf, 0);
  bufBytes(hbuf, sData(b), sLen(b));
  blake3(bufPtr(hbuf), bufLen(hbuf), out);
}

/** Blake3("<chain>_<SYMBOL>") (spec §1.7), or with `contract`: Blake3("<chain>_<SYMBOL>_<contract>"). */
function bridgedMint(chain: usize, sym: usize, contract: usize, out: usize): void {
  bufSetLen(hbuf, 0);
  bufBytes(hbuf, sData(chain), sLen(chain));
  bufU8(hbuf, 0x5f);
  bufBytes(hbuf, sData(sym), sLen(sym));
  if (contract != 0) {
    bufU8(hbuf, 0x5f);
    bufBytes(hbuf, sData(contract), sLen(contract));
  }
  blake3(bufPtr(hbuf), bufLen(hbuf), out);
}

function prefixed32(prefix: u8, a: usize): usize {
  return entry32(prefix, a);
}

// ---- the attester set --------------------------------------------------------------------------

function configEntry(): usize {
  return singletonEntry(P_BRIDGE_CONFIG);
}

/**
 * BRIDGE_NOT_ATTESTER → BRIDGE_DUPLICATE_SIGNER → BRIDGE_BELOW_THRESHOLD for `sigs` (a Borsh Vec
 * of n × 96 bytes at `sigs`) against the set in the config at `cfg`. Malformed lengths (not a
 * multiple of 96, more than BRIDGE_MAX_ATTESTERS entries) are BRIDGE_BELOW_THRESHOLD's sibling:
 * BRIDGE_NOT_ATTESTER cannot be decided, so they answer BRIDGE_INVALID_DEPOSIT.
 */
function checkSigners(cfg: usize, sigs: usize): u32 {
  let len = load<u32>(sigs);
  if (len % SIG_ENTRY != 0 || len / SIG_ENTRY > BRIDGE_MAX_ATTESTERS) return S.BRIDGE_INVALID_DEPOSIT;
  let n = len / SIG_ENTRY;
  let vp = valPtr(cfg);
  let threshold = <u32>load<u8>(vp + R_BRIDGE_CONFIG_THRESHOLD);
  let count = load<u32>(vp + R_BRIDGE_CONFIG_ATTESTERS);
  let set = vp + R_BRIDGE_CONFIG_ATTESTERS_DATA;
  for (let i: u32 = 0; i < n; i++) {
    let pk = sigs + 4 + <usize>(i * SIG_ENTRY);
    let found = false;
    for (let j: u32 = 0; j < count; j++) if (bytesEq(set + (<usize>j << 5), pk, 32)) { found = true; break; }
    if (!found) return S.BRIDGE_NOT_ATTESTER;
    for (let j: u32 = 0; j < i; j++) if (bytesEq(sigs + 4 + <usize>(j * SIG_ENTRY), pk, 32)) return S.BRIDGE_DUPLICATE_SIGNER;
  }
  if (n < threshold) return S.BRIDGE_BELOW_THRESHOLD;
  return S.OK;
}

/** Whether `n` × 32 bytes at `p` with `threshold` make a valid set (1–16 distinct keys, 1 ≤ t ≤ n). */
function validSet(p: usize, len: u32, threshold: u8): bool {
  if (len == 0 || len % 32 != 0) return false;
  let n = len >> 5;
  if (n > BRIDGE_MAX_ATTESTERS || threshold == 0 || <u32>threshold > n) return false;
  for (let i: u32 = 0; i < n; i++) {
    for (let j: u32 = 0; j < i; j++) if (bytesEq(p + (<usize>i << 5), p + (<usize>j << 5), 32)) return false;
  }
  return true;
}

/** Write the config with a new set, keeping the withdrawal counter (1 for a new bridge). */
function writeConfig(p: usize, len: u32, threshold: u8): void {
  let e = configEntry();
  let next: u64 = exists(e) ? load<u64>(valPtr(e) + R_BRIDGE_CONFIG_NEXT_SEQUENCE) : 1;
  bufSetLen(rec, 0);
  bufU8(rec, 1);
  bufU8(rec, threshold);
  bufU64(rec, next);
  bufU32(rec, len >> 5);
  bufBytes(rec, p, len);
  setValue(e, bufPtr(rec), bufLen(rec));
}

/** The genesis attester set (optional genesis trailer, docs/bridge.md "Genesis"); false when invalid. */
export function genesisBridge(p: usize, len: u32, threshold: u8): bool {
  if (!validSet(p, len, threshold)) return false;
  writeConfig(p, len, threshold);
  return true;
}

/** SetBridgeAttesters { attesters, threshold }: NOT_GOVERNANCE → BRIDGE_INVALID_ATTESTERS. */
function execSetAttesters(user: usize, f: usize, bundleIndex: u32, opIndex: u32): u32 {
  if (!bytesEq(user, GOVERNANCE, 32)) return S.NOT_GOVERNANCE;
  let len = load<u32>(f);
  let threshold = load<u8>(f + OPF_SET_BRIDGE_ATTESTERS_ATTESTERS_DATA + len, OPF_SET_BRIDGE_ATTESTERS_THRESHOLD_AFTER_ATTESTERS);
  if (!validSet(f + OPF_SET_BRIDGE_ATTESTERS_ATTESTERS_DATA, len, threshold)) return S.BRIDGE_INVALID_ATTESTERS;
  writeConfig(f + OPF_SET_BRIDGE_ATTESTERS_ATTESTERS_DATA, len, threshold);
  emitBridgeAttestersSet(bundleIndex, <u16>opIndex, threshold, <u8>(len >> 5));
  return S.OK;
}

// ---- token records -------------------------------------------------------------------------------

/** Decimals of the token record at `vp`. */
function tokDecimals(vp: usize): u8 {
  return load<u8>(vp + tokenSymbolEnd(vp) + R_TOKEN_DECIMALS_AFTER_SYMBOL);
}
/** Kind of the token record at `vp`. */
function tokKind(vp: usize): u8 {
  return load<u8>(vp + tokenSymbolEnd(vp) + R_TOKEN_KIND_AFTER_SYMBOL);
}
/** Whether the token record at `vp` has origin chain `chain` and origin contract `contract` (strings). */
function tokOrigin(vp: usize, chain: usize, contract: usize): bool {
  let p = vp + tokenSymbolEnd(vp) + R_TOKEN_ORIGIN_CHAIN_AFTER_SYMBOL;
  let cl = load<u32>(p);
  if (cl != sLen(chain) || !bytesEq(p + 4, sData(chain), cl)) return false;
  p += 4 + <usize>cl;
  let kl = load<u32>(p);
  return kl != 0 && kl == sLen(contract) && bytesEq(p + 4, sData(contract), kl);
}

/** Whether the STD-8 coin `mint`'s profile (0x42) lists (chain, contract) among its origins. */
function stableOrigin(mint: usize, chain: usize, contract: usize): bool {
  let e = stableProfileEntry(mint);
  if (!exists(e)) return false;
  let p = valPtr(e) + R_STABLE_PROFILE_CURRENCY;
  for (let i = 0; i < 3; i++) p += 4 + <usize>load<u32>(p); // currency, issuer, launch origin
  let n = load<u32>(p);
  p += 4;
  for (let i: u32 = 0; i < n; i++) {
    let cl = load<u32>(p);
    let c = p + 4;
    p = c + cl;
    let kl = load<u32>(p);
    let k = p + 4;
    p = k + kl;
    if (cl == sLen(chain) && kl == sLen(contract) && bytesEq(c, sData(chain), cl) && bytesEq(k, sData(contract), kl)) return true;
  }
  return false;
}

/** Add `amount` to the deposited (or withdrawn) total of `mint` (0x4B), creating the record. */
function addBridged(mint: usize, amount: usize, withdrawn: bool, flags: u8): void {
  let e = prefixed32(P_BRIDGE_TOKEN, mint);
  let p: usize;
  if (exists(e)) {
    p = beginWrite(e, R_BRIDGED_BYTES);
  } else {
    p = beginWrite(e, R_BRIDGED_BYTES);
    memory.fill(p, 0, R_BRIDGED_BYTES);
    store<u8>(p, 1);
    store<u8>(p + R_BRIDGED_FLAGS, flags);
  }
  let off: usize = withdrawn ? R_BRIDGED_WITHDRAWN : R_BRIDGED_DEPOSITED;
  // A running total of amounts each ≤ the token's supply bound: saturate rather than wrap (the
  // supply itself is checked, so this never saturates in practice).
  if (U.add128(load<u64>(p + off), load<u64>(p + off, 8), load<u64>(amount), load<u64>(amount, 8))) U.set128(u64.MAX_VALUE, u64.MAX_VALUE);
  store<u64>(p + off, U.lo);
  store<u64>(p + off, U.hi, 8);
}

/**
 * Create the bridged token at MINT (kind 3, supply 0, creator the bridge account 0xff…ff, origin
 * chain and contract). An impersonation gets the symbol `<SYMBOL>.unverified` and no symbol index
 * entry, so it never resolves as the official one (docs/bridge.md "Impersonation").
 */
function createBridged(chain: usize, contract: usize, sym: usize, decimals: u8, impersonation: bool, bundleIndex: u32, opIndex: u32): void {
  let nameBuf = NAMEBUF;
  bufSetLen(nameBuf, 0);
  bufBytes(nameBuf, sData(sym), sLen(sym));
  if (impersonation) bufBytes(nameBuf, UNVERIFIED, 11);
  let symBytes = bufLen(nameBuf);
  bufU8(nameBuf, 0x20); // " ("
  bufU8(nameBuf, 0x28);
  bufBytes(nameBuf, sData(chain), sLen(chain));
  bufU8(nameBuf, 0x29); // ")"
  encodeTokenRecord(rec, bufPtr(nameBuf), bufLen(nameBuf), bufPtr(nameBuf), symBytes, decimals, ZERO, BRIDGE_ACCOUNT, BRIDGE_ACCOUNT,
                    ctxTimestamp, ctxHeight, TOKEN_KIND_BRIDGED, 0, sData(chain), sLen(chain), sData(contract), sLen(contract));
  setValue(tokenEntry(MINT), bufPtr(rec), bufLen(rec));
  if (!impersonation) {
    let symE = symbolEntry(sData(sym), sLen(sym));
    if (!exists(symE)) setValue(symE, MINT, 32);
  }
  addBridged(MINT, ZERO, false, impersonation ? FLAG_IMPERSONATION : 0);
  emitTokenCreated(bundleIndex, <u16>opIndex, MINT, BRIDGE_ACCOUNT, BRIDGE_ACCOUNT, 0, 0);
}

/**
 * Which token a deposit credits, into MINT (docs/bridge.md "Which token"): a registered mapping of
 * (chain, contract) → an STD-8 coin whose profile lists (chain, contract) as an origin (the fast
 * path, spec §4.6) → the canonical Blake3("<chain>_<SYMBOL>") token when its origin is this
 * contract → the contract-qualified Blake3("<chain>_<SYMBOL>_<contract>") token made by an
 * earlier deposit → none (returns false; `createNew` then says which mint to create).
 */
let impersonating: bool = false;
function resolveMint(chain: usize, contract: usize, sym: usize): bool {
  tagged(TAG_MAPPING, 14, chain, contract, TARGET);
  let m = prefixed32(P_BRIDGE_MAPPING, TARGET);
  if (exists(m)) {
    memory.copy(MINT, valPtr(m) + R_BRIDGE_MAPPING_MINT, 32);
    return true;
  }
  let se = symbolEntry(sData(sym), sLen(sym));
  let symbolIsStable = false;
  if (exists(se)) {
    memory.copy(MINT, valPtr(se), 32);
    if (exists(stableEntry(MINT))) {
      if (stableOrigin(MINT, chain, contract)) return true;
      symbolIsStable = true;
    }
  }
  impersonating = symbolIsStable || exists(reservedEntry(sData(sym), sLen(sym)));
  if (!impersonating) {
    bridgedMint(chain, sym, 0, MINT);
    let te = tokenEntry(MINT);
    if (exists(te) && tokOrigin(valPtr(te), chain, contract)) return true;
  }
  bridgedMint(chain, sym, contract, MINT);
  if (exists(tokenEntry(MINT))) return true;
  // A new token: the canonical mint when it is free and the symbol is not an impersonation.
  if (!impersonating) {
    bridgedMint(chain, sym, 0, MINT);
    if (exists(tokenEntry(MINT))) bridgedMint(chain, sym, contract, MINT);
  }
  return false;
}

// ---- deposits ----------------------------------------------------------------------------------

/** Whether a status holds a deposit as a pending receive instead of refusing it (docs/bridge.md "Pending receives"). */
function holds(st: u32): bool {
  return st == S.TOKEN_PAUSED || st == S.MINT_FROZEN || st == S.SUPPLY_CAP_EXCEEDED;
}

/** Mint `AMOUNT` of MINT to `to`: an STD-8 coin through its own rules, any other token here. */
function mintTo(to: usize, bundleIndex: u32, opIndex: u32): u32 {
  if (exists(stableEntry(MINT))) return bridgeMintStable(MINT, to, AMOUNT, bundleIndex, opIndex);
  let te = tokenEntry(MINT);
  let aLo = load<u64>(AMOUNT), aHi = load<u64>(AMOUNT, 8);
  if (!credit(balanceEntry(to, MINT), aLo, aHi)) return guardRefusal != 0 ? guardRefusal : S.AMOUNT_OVERFLOW;
  if (!tokenSupplyAdd(te, aLo, aHi, false)) return S.AMOUNT_OVERFLOW;
  transferEvent(ZERO, to, MINT, AMOUNT, bundleIndex, opIndex);
  return S.OK;
}

function depositEvent(recipient: usize, credited: bool, bundleIndex: u32, opIndex: u32): void {
  emitBridgeDeposited(bundleIndex, <u16>opIndex, ID, recipient, MINT, load<u64>(AMOUNT), load<u64>(AMOUNT, 8), credited ? 1 : 0);
}

/**
 * BridgeDeposit { chain, tx_hash, contract, symbol, amount, decimals, recipient, signatures }.
 * Order: BRIDGE_NOT_CONFIGURED → BRIDGE_UNKNOWN_CHAIN → BRIDGE_INVALID_DEPOSIT → ZERO_AMOUNT →
 * the signers (BRIDGE_NOT_ATTESTER → BRIDGE_DUPLICATE_SIGNER → BRIDGE_BELOW_THRESHOLD) →
 * BRIDGE_ALREADY_PROCESSED → BRIDGE_CONTRACT_BLOCKED → BRIDGE_DECIMALS_MISMATCH → the mint
 * (ADDRESS_BLACKLISTED, AMOUNT_OVERFLOW; an STD-8 coin paused, mint-frozen or at its cap holds the
 * deposit as a pending receive instead).
 */
function execDeposit(f: usize, bundleIndex: u32, opIndex: u32): u32 {
  let cfg = configEntry();
  if (!exists(cfg)) return S.BRIDGE_NOT_CONFIGURED;
  fp = f;
  let chain = sPtr(), tx = sPtr(), contract = sPtr(), sym = sPtr();
  let amount = fTake(16);
  let decimals = load<u8>(fTake(1));
  let recipient = fTake(32);
  let sigs = fp;
  if (chainIndex(sData(chain), sLen(chain)) < 0) return S.BRIDGE_UNKNOWN_CHAIN;
  if (sLen(tx) == 0 || sLen(tx) > BRIDGE_MAX_TEXT || sLen(contract) == 0 || sLen(contract) > BRIDGE_MAX_TEXT
      || !validSymbol(sData(sym), sLen(sym)) || decimals > 18 || isZero(recipient, 32)) return S.BRIDGE_INVALID_DEPOSIT;
  if (isZero(amount, 16)) return S.ZERO_AMOUNT;
  let st = checkSigners(cfg, sigs);
  if (st != S.OK) return st;
  tagged(TAG_DEPOSIT, 14, chain, tx, ID);
  let de = prefixed32(P_BRIDGE_DEPOSIT, ID);
  if (exists(de)) return S.BRIDGE_ALREADY_PROCESSED;
  tagged(TAG_SAFETY, 15, chain, contract, TARGET);
  store<u8>(KEY, P_CONTRACT_SAFETY);
  memory.copy(KEY + 1, TARGET, 32);
  let safety = lookup(KEY, 33);
  if (exists(safety) && load<u8>(valPtr(safety) + R_CONTRACT_SAFETY_LEVEL) == SAFETY_BLOCKED) return S.BRIDGE_CONTRACT_BLOCKED;
  memory.copy(AMOUNT, amount, 16);
  impersonating = false;
  if (resolveMint(chain, contract, sym)) {
    if (tokDecimals(valPtr(tokenEntry(MINT))) != decimals) return S.BRIDGE_DECIMALS_MISMATCH;
  } else {
    createBridged(chain, contract, sym, decimals, impersonating, bundleIndex, opIndex);
  }
  st = mintTo(recipient, bundleIndex, opIndex);
  let credited = st == S.OK;
  if (!credited && !holds(st)) return st;
  if (credited) addBridged(MINT, AMOUNT, false, 0);
  writeDeposit(de, credited ? 0 : <u16>st, recipient, chain, tx, contract);
  depositEvent(recipient, credited, bundleIndex, opIndex);
  return S.OK;
}

/** The 0x49 record: credited (reason 0) or pending with the status that holds it. */
function writeDeposit(de: usize, reason: u16, recipient: usize, chain: usize, tx: usize, contract: usize): void {
  bufSetLen(rec, 0);
  bufU8(rec, 1);
  bufU8(rec, reason == 0 ? 1 : 0);
  bufU16(rec, reason);
  bufBytes(rec, MINT, 32);
  bufBytes(rec, recipient, 32);
  bufBytes(rec, AMOUNT, 16);
  bufU64(rec, ctxHeight);
  bufU64(rec, reason == 0 ? ctxHeight : 0);
  bufBytes(rec, chain, 4 + sLen(chain));
  bufBytes(rec, tx, 4 + sLen(tx));
  bufBytes(rec, contract, 4 + sLen(contract));
  setValue(de, bufPtr(rec), bufLen(rec));
}

/**
 * ClaimBridgeDeposit { chain, tx_hash }: anyone completes a pending receive once what held it has
 * cleared. BRIDGE_NOT_PENDING → the mint's statuses (still paused, frozen or at the cap: the claim
 * fails and the receive stays pending).
 */
function execClaim(f: usize, bundleIndex: u32, opIndex: u32): u32 {
  fp = f;
  let chain = sPtr(), tx = sPtr();
  tagged(TAG_DEPOSIT, 14, chain, tx, ID);
  let de = prefixed32(P_BRIDGE_DEPOSIT, ID);
  if (!exists(de) || load<u8>(valPtr(de) + R_BRIDGE_DEPOSIT_RECORD_STATE) != 0) return S.BRIDGE_NOT_PENDING;
  let vp = valPtr(de);
  memory.copy(MINT, vp + R_BRIDGE_DEPOSIT_RECORD_MINT, 32);
  memory.copy(AMOUNT, vp + R_BRIDGE_DEPOSIT_RECORD_AMOUNT, 16);
  let recipient = RECIPIENT;
  memory.copy(recipient, vp + R_BRIDGE_DEPOSIT_RECORD_RECIPIENT, 32);
  let st = mintTo(recipient, bundleIndex, opIndex);
  if (st != S.OK) return st;
  addBridged(MINT, AMOUNT, false, 0);
  let n = <u32>valLen(de);
  let wp = beginWrite(de, n);
  store<u8>(wp + R_BRIDGE_DEPOSIT_RECORD_STATE, 1);
  store<u16>(wp + R_BRIDGE_DEPOSIT_RECORD_REASON, 0);
  store<u64>(wp + R_BRIDGE_DEPOSIT_RECORD_CREDITED_HEIGHT, ctxHeight);
  depositEvent(recipient, true, bundleIndex, opIndex);
  return S.OK;
}

// ---- withdrawals -------------------------------------------------------------------------------

/**
 * BridgeWithdraw { token, amount, chain, destination }: burns the amount and pays the chain's fee
 * (NTV) to the treasury. Order: BRIDGE_NOT_CONFIGURED → ZERO_AMOUNT → BRIDGE_UNKNOWN_CHAIN →
 * BRIDGE_INVALID_DESTINATION → UNKNOWN_TOKEN → BRIDGE_NOT_BRIDGED_TOKEN → the burn (TOKEN_PAUSED,
 * ADDRESS_BLACKLISTED, INSUFFICIENT_BALANCE) → the fee (INSUFFICIENT_BALANCE).
 */
function execWithdraw(user: usize, f: usize, bundleIndex: u32, opIndex: u32): u32 {
  let cfg = configEntry();
  if (!exists(cfg)) return S.BRIDGE_NOT_CONFIGURED;
  fp = f;
  let token = fTake(32);
  let amount = fTake(16);
  let chain = sPtr(), dest = sPtr();
  if (isZero(amount, 16)) return S.ZERO_AMOUNT;
  let ci = chainIndex(sData(chain), sLen(chain));
  if (ci < 0) return S.BRIDGE_UNKNOWN_CHAIN;
  if (sLen(dest) == 0 || sLen(dest) > BRIDGE_MAX_TEXT) return S.BRIDGE_INVALID_DESTINATION;
  let te = tokenEntry(token);
  if (!exists(te)) return S.UNKNOWN_TOKEN;
  let kind = tokKind(valPtr(te));
  if (kind != TOKEN_KIND_BRIDGED && kind != TOKEN_KIND_STD8) return S.BRIDGE_NOT_BRIDGED_TOKEN;
  let st = stableGuard(token, user);
  if (st != S.OK) return st;
  let aLo = load<u64>(amount), aHi = load<u64>(amount, 8);
  if (!debit(balanceEntry(user, token), aLo, aHi)) return S.INSUFFICIENT_BALANCE;
  tokenSupplyAdd(te, aLo, aHi, true); // the balance was part of the supply
  transferEvent(user, ZERO, token, amount, bundleIndex, opIndex);
  store<u64>(FEE, FEES[ci]);
  store<u64>(FEE, 0, 8);
  st = moveBalance(balanceEntry(user, NTV_MINT), user, TREASURY, NTV_MINT, FEE, bundleIndex, opIndex);
  if (st != S.OK) return st;
  addBridged(token, amount, true, 0);
  let cp = beginWrite(cfg, <u32>valLen(cfg));
  let seq = load<u64>(cp + R_BRIDGE_CONFIG_NEXT_SEQUENCE);
  store<u64>(cp + R_BRIDGE_CONFIG_NEXT_SEQUENCE, seq + 1);
  bufSetLen(rec, 0);
  bufU8(rec, 1);
  bufU8(rec, 0);
  bufBytes(rec, user, 32);
  bufBytes(rec, token, 32);
  bufBytes(rec, amount, 16);
  bufBytes(rec, FEE, 16);
  bufU64(rec, ctxHeight);
  bufU64(rec, 0);
  bufBytes(rec, chain, 4 + sLen(chain));
  bufBytes(rec, dest, 4 + sLen(dest));
  setValue(withdrawalEntry(seq), bufPtr(rec), bufLen(rec));
  emitBridgeWithdrawn(bundleIndex, <u16>opIndex, seq, user, token, load<u64>(amount), load<u64>(amount, 8), load<u64>(FEE), load<u64>(FEE, 8));
  return S.OK;
}

function withdrawalEntry(seq: u64): usize {
  store<u8>(KEY, P_BRIDGE_WITHDRAWAL);
  store<u64>(KEY + 1, bswap<u64>(seq));
  return lookup(KEY, 9);
}

/**
 * AttestBridgeWithdrawal { sequence, chain, destination, token, amount, signatures }: the attesters'
 * signatures over the withdrawal for the destination chain. BRIDGE_NOT_CONFIGURED →
 * BRIDGE_WITHDRAWAL_NOT_FOUND (absent, or its fields differ) → BRIDGE_ALREADY_ATTESTED → the signers.
 */
function execAttestWithdrawal(f: usize, bundleIndex: u32, opIndex: u32): u32 {
  let cfg = configEntry();
  if (!exists(cfg)) return S.BRIDGE_NOT_CONFIGURED;
  fp = f;
  let seq = load<u64>(fTake(8));
  let chain = sPtr(), dest = sPtr();
  let token = fTake(32);
  let amount = fTake(16);
  let sigs = fp;
  let we = withdrawalEntry(seq);
  if (!exists(we)) return S.BRIDGE_WITHDRAWAL_NOT_FOUND;
  let vp = valPtr(we);
  let cl = load<u32>(vp + R_BRIDGE_WITHDRAWAL_RECORD_CHAIN);
  let dp = vp + R_BRIDGE_WITHDRAWAL_RECORD_CHAIN_DATA + cl;
  if (!bytesEq(vp + R_BRIDGE_WITHDRAWAL_RECORD_MINT, token, 32) || !bytesEq(vp + R_BRIDGE_WITHDRAWAL_RECORD_AMOUNT, amount, 16) || cl != sLen(chain) || !bytesEq(vp + R_BRIDGE_WITHDRAWAL_RECORD_CHAIN_DATA, sData(chain), cl)
      || load<u32>(dp) != sLen(dest) || !bytesEq(dp + 4, sData(dest), sLen(dest))) return S.BRIDGE_WITHDRAWAL_NOT_FOUND;
  if (load<u8>(vp + R_BRIDGE_WITHDRAWAL_RECORD_STATE) != 0) return S.BRIDGE_ALREADY_ATTESTED;
  let st = checkSigners(cfg, sigs);
  if (st != S.OK) return st;
  let wp = beginWrite(we, <u32>valLen(we));
  store<u8>(wp + R_BRIDGE_WITHDRAWAL_RECORD_STATE, 1);
  store<u64>(wp + R_BRIDGE_WITHDRAWAL_RECORD_ATTESTED_HEIGHT, ctxHeight);
  emitBridgeWithdrawalAttested(bundleIndex, <u16>opIndex, seq);
  return S.OK;
}

// ---- mappings ----------------------------------------------------------------------------------

/**
 * RegisterBridgeMapping { chain, contract, mint } (foundation-gated, spec §5.7): BRIDGE_NOT_FOUNDATION
 * → BRIDGE_UNKNOWN_CHAIN → BRIDGE_INVALID_MAPPING → BRIDGE_MAPPING_EXISTS.
 */
function execRegisterMapping(user: usize, f: usize, bundleIndex: u32, opIndex: u32): u32 {
  if (!bytesEq(user, FOUNDATION, 32) && !bytesEq(user, GOVERNANCE, 32)) return S.BRIDGE_NOT_FOUNDATION;
  fp = f;
  let chain = sPtr(), contract = sPtr();
  let mint = fTake(32);
  if (chainIndex(sData(chain), sLen(chain)) < 0) return S.BRIDGE_UNKNOWN_CHAIN;
  if (sLen(contract) == 0 || sLen(contract) > BRIDGE_MAX_TEXT) return S.BRIDGE_INVALID_MAPPING;
  let te = tokenEntry(mint);
  if (!exists(te)) return S.BRIDGE_INVALID_MAPPING;
  let kind = tokKind(valPtr(te));
  if (kind != TOKEN_KIND_BRIDGED && kind != TOKEN_KIND_STD8) return S.BRIDGE_INVALID_MAPPING;
  tagged(TAG_MAPPING, 14, chain, contract, TARGET);
  let me = prefixed32(P_BRIDGE_MAPPING, TARGET);
  if (exists(me)) return S.BRIDGE_MAPPING_EXISTS;
  bufSetLen(rec, 0);
  bufU8(rec, 1);
  bufBytes(rec, mint, 32);
  bufU64(rec, ctxHeight);
  bufBytes(rec, chain, 4 + sLen(chain));
  bufBytes(rec, contract, 4 + sLen(contract));
  setValue(me, bufPtr(rec), bufLen(rec));
  emitBridgeMappingRegistered(bundleIndex, <u16>opIndex, TARGET, mint);

  return S.OK;
}

// ---- dispatch ----------------------------------------------------------------------------------

export function isBridgeOp(kind: u32): bool {
  return kind == OP_BRIDGE_DEPOSIT || (kind >= OP_BRIDGE_WITHDRAW && kind <= OP_SET_CONTRACT_SAFETY);
}

/** One bridge operation; `op` is its decoded record (+4: its fields). */
export function execBridge(kind: u32, user: usize, op: usize, bundleIndex: u32, opIndex: u32): u32 {
  let f = <usize>load<u32>(op, OPR_FIELDS);
  if (kind == OP_BRIDGE_DEPOSIT) return execDeposit(f, bundleIndex, opIndex);
  if (kind == OP_BRIDGE_WITHDRAW) return execWithdraw(user, f, bundleIndex, opIndex);
  if (kind == OP_REGISTER_BRIDGE_MAPPING) return execRegisterMapping(user, f, bundleIndex, opIndex);
  if (kind == OP_SET_BRIDGE_ATTESTERS) return execSetAttesters(user, f, bundleIndex, opIndex);
  if (kind == OP_CLAIM_BRIDGE_DEPOSIT) return execClaim(f, bundleIndex, opIndex);
  if (kind == OP_SET_CONTRACT_SAFETY) return execSetContractSafety(user, f, load<u32>(op, OPR_FIELDS_LEN), bundleIndex, opIndex);
  return execAttestWithdrawal(f, bundleIndex, opIndex);
}
