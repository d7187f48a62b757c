// Genesis (docs/core-abi.md GenesisConfig): tokens, balances and reserved symbols written into the
// open block, to be closed by commit_block. A genesis token's total (and initial) supply is the sum
// of its genesis balances (spec §1.9 shares are the host's business; the core only adds them up).

import * as S from "./status";
import * as U from "./u128";
import { readerInit, take, rU8, rU32, rU64, rVec, vecLen, bad, atEnd, validUtf8, rp } from "./borsh";
import { balanceEntry, reservedEntry, symbolEntry, tokenEntry } from "./keys";
import { beginWrite, exists, setValue, valLen, valPtr } from "./state";
import { credit, tokenSymbolEnd } from "./ledger";
import { encodeTokenRecord } from "./ops/token";
import { bufNew, bufLen, bufPtr } from "./mem";
import { singletonEntry } from "./keys";
import { P_CHAIN_PARAMS, TOKEN_KIND_STD8, R_TOKEN_TOTAL_SUPPLY_AFTER_SYMBOL, R_TOKEN_INITIAL_SUPPLY_AFTER_SYMBOL } from "./abi";
import { paramsValid, stakingState } from "./domains/staking/validators";
import { genesisValidator } from "./domains/staking/ops";
import { setContext } from "./context";
import { genesisUpgradeConfig } from "./domains/upgrades/ops";
import { genesisStable, writeProfile } from "./domains/stablecoins/ops";
import { genesisBridge } from "./domains/bridge/ops";
import { stableEntry } from "./keys";


const ZERO16 = memory.data(16);
const NO_PROPOSER = memory.data(32);
const ONE = memory.data<u8>([1]);
const rec = bufNew(512);

// @ts-ignore: decorator
@inline const MAX_GENESIS_SYMBOL: u32 = 32;

export function applyGenesis(ptr: usize, len: u32): u32 {
  readerInit(ptr, len);
  rU64(); // chain_id: carried for the host's records, not part of state
  let timestamp = rU64();
  let nTokens = rU32();
  if (bad) return S.INVALID_INPUT;
  for (let i: u32 = 0; i < nTokens; i++) {
    let mint = take(32);
    let name = rVec();
    let nameLen = vecLen;
    let sym = rVec();
    let symLen = vecLen;
    let decimals = rU8();
    let kind = rU8();
    let creator = take(32);
    let oc = rVec();
    let ocLen = vecLen;
    let ok = rVec();
    let okLen = vecLen;
    if (bad) return S.INVALID_INPUT;
    if (!validUtf8(name, nameLen) || !validUtf8(sym, symLen) || !validUtf8(oc, ocLen) || !validUtf8(ok, okLen)) {
      return S.INVALID_GENESIS;
    }
    if (symLen == 0 || symLen > MAX_GENESIS_SYMBOL || decimals > 18) return S.INVALID_GENESIS;
    let tokE = tokenEntry(mint);
    if (exists(tokE)) return S.INVALID_GENESIS; // duplicate mint
    let symE = symbolEntry(sym, symLen);
    encodeTokenRecord(rec, name, nameLen, sym, symLen, decimals, ZERO16, creator, creator, timestamp, 0,
                      kind, 0, oc, ocLen, ok, okLen);
    setValue(tokE, bufPtr(rec), bufLen(rec));
    // A bridged asset may have several origins under one symbol (WETH on ethereum and base,
    // facts.md "Genesis"): the symbol names the first in genesis order, the others are reached by mint.
    if (!exists(symE)) setValue(symE, mint, 32);
    // An STD-8 stablecoin is a full record from genesis (spec §2.1 "Genesis"; docs/stablecoins.md):
    // the governance authority holds its roles until the issuer's handover.
    if (kind == TOKEN_KIND_STD8) genesisStable(mint);
  }
  let nBalances = rU32();
  if (bad) return S.INVALID_INPUT;
  for (let i: u32 = 0; i < nBalances; i++) {
    let account = take(32);
    let mint = take(32);
    let amount = take(16);
    if (bad) return S.INVALID_INPUT;
    let aLo = load<u64>(amount, 0), aHi = load<u64>(amount, 8);
    let tokE = tokenEntry(mint);
    if (!exists(tokE)) return S.INVALID_GENESIS; // a balance of a token not in the list
    if ((aLo | aHi) == 0) continue; // zero balances are not stored
    if (!credit(balanceEntry(account, mint), aLo, aHi)) return S.AMOUNT_OVERFLOW;
    // total_supply and initial_supply follow decimals in the record.
    let n = <u32>valLen(tokE);
    let vp = valPtr(tokE);
    let off = tokenSymbolEnd(vp) + R_TOKEN_TOTAL_SUPPLY_AFTER_SYMBOL;
    let init = tokenSymbolEnd(vp) + R_TOKEN_INITIAL_SUPPLY_AFTER_SYMBOL;
    let tLo = load<u64>(vp + off), tHi = load<u64>(vp + off, 8);
    if (U.add128(tLo, tHi, aLo, aHi)) return S.AMOUNT_OVERFLOW;
    let wp = beginWrite(tokE, n); // same length: the bytes stay in place, the journal keeps the old copy
    store<u64>(wp + off, U.lo);
    store<u64>(wp + off, U.hi, 8);
    store<u64>(wp + init, U.lo);
    store<u64>(wp + init, U.hi, 8);
  }
  let nReserved = rU32();
  if (bad) return S.INVALID_INPUT;
  for (let i: u32 = 0; i < nReserved; i++) {
    let sym = rVec();
    let symLen = vecLen;
    if (bad) return S.INVALID_INPUT;
    if (symLen == 0 || symLen > MAX_GENESIS_SYMBOL || !validUtf8(sym, symLen)) return S.INVALID_GENESIS;
    setValue(reservedEntry(sym, symLen), ONE, 1);
  }
  // Chain parameters and genesis validators (docs/staking.md "Genesis"). Empty parameters: a ledger
  // without staking (no rewards, no epochs), as the core tests' minimal genesis uses.
  let params = rVec();
  let paramsLen = vecLen;
  let nValidators = rU32();
  if (bad) return S.INVALID_INPUT;
  if (paramsLen > 0) {
    if (!paramsValid(params, paramsLen)) return S.INVALID_GENESIS;
    setValue(singletonEntry(P_CHAIN_PARAMS), params, paramsLen);
    stakingState();
  } else if (nValidators > 0) {
    return S.INVALID_GENESIS;
  }
  setContext(0, timestamp, NO_PROPOSER, 0, 0, false, 0); // created_time of genesis records
  for (let i: u32 = 0; i < nValidators; i++) {
    let key = take(32);
    let account = take(32);
    let amount = take(16);
    let source = take(32);
    if (bad) return S.INVALID_INPUT;
    if (!genesisValidator(key, account, load<u64>(amount), load<u64>(amount, 8), source)) return S.INVALID_GENESIS;
  }
  // Appended, optional: the profiles of the genesis stablecoins (GenesisStable { mint[32], currency
  // String, issuer String, origins Vec<{chain String, contract String}> }); a config that ends
  // before it has none. Each names a token of kind 2 listed above.
  if (!atEnd()) {
    let nStable = rU32();
    if (bad) return S.INVALID_INPUT;
    for (let i: u32 = 0; i < nStable; i++) {
      let mint = take(32);
      let cur = rVec();
      let curLen = vecLen;
      let iss = rVec();
      let issLen = vecLen;
      let o = rp;
      let nO = rU32();
      for (let k: u32 = 0; k < nO * 2 && !bad; k++) {
        let sp = rVec();
        if (!bad && !validUtf8(sp, vecLen)) return S.INVALID_GENESIS;
      }
      if (bad) return S.INVALID_INPUT;
      if (!validUtf8(cur, curLen) || !validUtf8(iss, issLen) || !exists(stableEntry(mint))) return S.INVALID_GENESIS;
      writeProfile(mint, cur, curLen, iss, issLen, o, <u32>(rp - o));
    }
  }
  // Optional trailer (appended for upgrade governance, docs/upgrades.md "Governance configuration"):
  // the UpgradeConfig record as a Vec<u8>. Absent: the defaults, and no record is written, so the
  // genesis of a chain that keeps the defaults is the one it was before the trailer existed.
  if (!atEnd()) {
    let cfg = rVec();
    let cfgLen = vecLen;
    if (bad) return S.INVALID_INPUT;
    // Empty: the defaults (written so that the bridge trailer after it has a fixed place).
    if (cfgLen > 0 && !genesisUpgradeConfig(cfg, cfgLen)) return S.INVALID_GENESIS;
  }
  // Optional trailer (the bridge, docs/bridge.md "Genesis"): attesters Vec<u8> (n × 32-byte
  // Ed25519 keys), threshold u8. Absent: no attester set (deposits answer BRIDGE_NOT_CONFIGURED).
  if (!atEnd()) {
    let att = rVec();
    let attLen = vecLen;
    let threshold = rU8();
    if (bad) return S.INVALID_INPUT;
    if (!genesisBridge(att, attLen, threshold)) return S.INVALID_GENESIS;
  }
  if (!atEnd()) return S.INVALID_INPUT;
  return S.OK;
}
