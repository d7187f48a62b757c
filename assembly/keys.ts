// State key builders (docs/core-abi.md "State layout"): a one-byte prefix then fixed fields.
// Each builder writes into the static KEY scratch and returns the key length; `lookup` copies it.

import { lookup } from "./state";
// Prefixes are generated from the ABI table (abi/state.mjs; docs/core-abi.md "How the ABI is generated").
import {
  P_MARKET_MAKER, P_MARKET_MAKER_INDEX, P_ATOMENCE_ORDER, P_ATOMENCE_SETTLEMENT, P_ATOMENCE_TOKEN_SETTLEMENT, P_ATOMENCE_TOKEN_STATS,
  P_ANCHOR_NAMESPACE, P_ANCHOR, P_ANCHOR_INDEX, P_PASSPORT, P_GAMERTAG, P_GAME, P_GAME_PROFILE,
  P_ACCOUNT, P_BALANCE, P_TOKEN, P_SYMBOL, P_RESERVED, P_KEY, P_BUCKET, P_NODE, P_POOL, P_LP, P_TOKEN_META, P_NAME, P_NAME_REVERSE, P_ALLOWANCE, P_VALIDATOR, P_CONSENSUS_KEY, P_DELEGATION, P_UNBONDING, P_STAKING_STATE, P_CHAIN_PARAMS, P_EVIDENCE, P_AUTO_COMPOUND, P_DELEGATOR_INDEX, P_COLLECTION, P_NFT, P_NFT_COUNT, P_TOKEN_TYPE, P_MULTI_BALANCE,
  P_PRESALE, P_PRESALE_CONTRIBUTION, P_STAKING_POOL, P_POOL_STAKE,
  P_ACCOUNT, P_BALANCE, P_TOKEN, P_SYMBOL, P_RESERVED, P_KEY, P_BUCKET, P_NODE, P_POOL, P_LP, P_TOKEN_META, P_NAME, P_NAME_REVERSE, P_ALLOWANCE, P_VALIDATOR, P_CONSENSUS_KEY, P_DELEGATION, P_UNBONDING, P_STAKING_STATE, P_CHAIN_PARAMS, P_EVIDENCE, P_AUTO_COMPOUND, P_DELEGATOR_INDEX, P_COLLECTION, P_NFT, P_NFT_COUNT, P_TOKEN_TYPE, P_MULTI_BALANCE, P_STABLE, P_STABLE_BLACKLIST, P_STABLE_PROFILE, P_STABLE_BLACKLIST_INDEX, P_STABLE_ONBOARDING,
} from "./abi";

export const KEY = memory.data(320);

// @ts-ignore: decorator
@inline function copy32(dst: usize, src: usize): void {
  store<u64>(dst, load<u64>(src, 0), 0);
  store<u64>(dst, load<u64>(src, 8), 8);
  store<u64>(dst, load<u64>(src, 16), 16);
  store<u64>(dst, load<u64>(src, 24), 24);
}

/** The entry of key `prefix ‖ a[32]` (the domains' per-account and per-id records). */
export function entry32(prefix: u8, a: usize): usize {
  store<u8>(KEY, prefix);
  copy32(KEY + 1, a);
  return lookup(KEY, 33);
}

/** The entry of key `prefix ‖ a[32] ‖ b[32]`. */
function entry64(prefix: u8, a: usize, b: usize): usize {
  store<u8>(KEY, prefix);
  copy32(KEY + 1, a);
  copy32(KEY + 33, b);
  return lookup(KEY, 65);
}

export function accountEntry(addr: usize): usize {
  return entry32(P_ACCOUNT, addr);
}

export function balanceEntry(addr: usize, mint: usize): usize {
  return entry64(P_BALANCE, addr, mint);
}

export function tokenEntry(mint: usize): usize {
  return entry32(P_TOKEN, mint);
}

export function keyRecordEntry(addr: usize, keyHash: usize): usize {
  return entry64(P_KEY, addr, keyHash);
}

/** ASCII upper-casing of a symbol into dst (symbols compare case-insensitively, spec §2.1). */
export function upperInto(dst: usize, src: usize, n: u32): void {
  for (let i: u32 = 0; i < n; i++) {
    let c = load<u8>(src + i);
    if (c >= 0x61 && c <= 0x7a) c -= 0x20;
    store<u8>(dst + i, c);
  }
}

/** 0x04 UPPER(symbol) (n ≤ 255). */
export function symbolEntry(sym: usize, n: u32): usize {
  store<u8>(KEY, P_SYMBOL);
  upperInto(KEY + 1, sym, n);
  return lookup(KEY, n + 1);
}

/** 0x05 UPPER(symbol). */
export function reservedEntry(sym: usize, n: u32): usize {
  store<u8>(KEY, P_RESERVED);
  upperInto(KEY + 1, sym, n);
  return lookup(KEY, n + 1);
}

// DEX and token-metadata records (docs/dex.md "State layout"; docs/core-abi.md "State layout").

/** 0x07 pool_address[32] → PoolRecord. */
export function poolEntry(pool: usize): usize {
  return entry32(P_POOL, pool);
}

/** 0x08 pool_address[32] owner[32] → u128 LP balance (deleted at zero). */
export function lpEntry(pool: usize, owner: usize): usize {
  return entry64(P_LP, pool, owner);
}

/** 0x09 mint[32] → TokenMetadata (spec §2.3 metadata fields). */
export function tokenMetaEntry(mint: usize): usize {
  return entry32(P_TOKEN_META, mint);
}

// Names (spec §4.12, docs/names.md): the lower-cased label without its ".vex" suffix.

/** 0x0A label (3–64 bytes of [a-z0-9-]) → NameRecord { version u8 = 1, owner[32], height u64, time u64 }. */
export function nameEntry(label: usize, n: u32): usize {
  store<u8>(KEY, P_NAME);
  memory.copy(KEY + 1, label, n);
  return lookup(KEY, n + 1);
}

/** 0x0B owner[32] → the owner's primary name (the label bytes, no length prefix). */
export function nameReverseEntry(owner: usize): usize {
  return entry32(P_NAME_REVERSE, owner);
}

// ERC-20 allowances (docs/allowances.md).

/** 0x0C owner[32] token[32] spender[32] → u128 allowance (deleted at zero; 2^128−1 infinite). */
export function allowanceEntry(owner: usize, token: usize, spender: usize): usize {
  store<u8>(KEY, P_ALLOWANCE);
  copy32(KEY + 1, owner);
  copy32(KEY + 33, token);
  copy32(KEY + 65, spender);
  return lookup(KEY, 97);
}

// Staking and validators (docs/staking.md "State layout"; layouts in abi/state.mjs).

/** 0x10 account[32] → ValidatorRecord. */
export function validatorEntry(account: usize): usize {
  return entry32(P_VALIDATOR, account);
}
/** 0x11 consensus_key[32] → account[32]. */
export function consensusKeyEntry(key: usize): usize {
  return entry32(P_CONSENSUS_KEY, key);
}
/** 0x12 validator_account[32] delegator[32] → DelegationRecord. */
export function delegationEntry(validator: usize, delegator: usize): usize {
  return entry64(P_DELEGATION, validator, delegator);
}
/** 0x13 account[32] → unbonding list. */
export function unbondingEntry(account: usize): usize {
  return entry32(P_UNBONDING, account);
}
/** 0x17 validator_account[32] → delegators with auto_compound on. */
export function autoCompoundEntry(validator: usize): usize {
  return entry32(P_AUTO_COMPOUND, validator);
}
/** 0x18 delegator[32] → validators the account delegates to (its own included). */
export function delegatorIndexEntry(delegator: usize): usize {
  return entry32(P_DELEGATOR_INDEX, delegator);
}
/** A one-byte singleton key (0x14 staking state, 0x15 chain params). */
export function singletonEntry(prefix: u8): usize {
  store<u8>(KEY, prefix);
  return lookup(KEY, 1);
}
/** 0x16 account[32] height u64 → u8 1. */
export function evidenceEntry(account: usize, height: u64): usize {
  store<u8>(KEY, P_EVIDENCE);
  copy32(KEY + 1, account);
  store<u64>(KEY + 33, height);
  return lookup(KEY, 41);
}

// NFT and multi-token collections (spec §4.3, §4.4; docs/collections.md "State layout"). Ids in keys are
// big-endian so a collection's tokens and types sort by id.

/** Write `prefix ‖ a[32] ‖ id u64 BE` into KEY (41 bytes). */
function keyWithId(prefix: u8, a: usize, id: u64): void {
  store<u8>(KEY, prefix);
  copy32(KEY + 1, a);
  store<u64>(KEY + 33, bswap<u64>(id));
}

/** 0x20 collection[32] → CollectionRecord. */
export function collectionEntry(collection: usize): usize {
  return entry32(P_COLLECTION, collection);
}
/** 0x21 collection[32] token_id u64 BE → NftRecord. */
export function nftEntry(collection: usize, tokenId: u64): usize {
  keyWithId(P_NFT, collection, tokenId);
  return lookup(KEY, 41);
}
/** 0x22 collection[32] owner[32] → u64 NFTs held (deleted at zero). */
export function nftCountEntry(collection: usize, owner: usize): usize {
  return entry64(P_NFT_COUNT, collection, owner);
}
/** 0x23 collection[32] type_id u64 BE → TokenTypeRecord. */
export function tokenTypeEntry(collection: usize, typeId: u64): usize {
  keyWithId(P_TOKEN_TYPE, collection, typeId);
  return lookup(KEY, 41);
}
/** 0x24 collection[32] type_id u64 BE owner[32] → u128 balance (deleted at zero). */
export function multiBalanceEntry(collection: usize, typeId: u64, owner: usize): usize {
  keyWithId(P_MULTI_BALANCE, collection, typeId);
  copy32(KEY + 41, owner);
  return lookup(KEY, 73);
}

// Presales and token staking pools (docs/presales.md, docs/staking-pools.md).

/** 0x68 presale[32] → PresaleRecord. */
export function presaleEntry(presale: usize): usize {
  return entry32(P_PRESALE, presale);
}
/** 0x69 presale[32] contributor[32] → PresaleContribution. */
export function contributionEntry(presale: usize, contributor: usize): usize {
  return entry64(P_PRESALE_CONTRIBUTION, presale, contributor);
}
/** 0x6B pool[32] → StakingPoolRecord. */
export function stakingPoolEntry(pool: usize): usize {
  return entry32(P_STAKING_POOL, pool);
}
/** 0x6C pool[32] staker[32] → PoolStake. */
export function poolStakeEntry(pool: usize, staker: usize): usize {
  return entry64(P_POOL_STAKE, pool, staker);
}

// Settlement with market makers (docs/settlement.md "State layout").

/** `prefix ‖ index u64 BE` (lists that sort by position). */
export function indexEntry(prefix: u8, index: u64): usize {
  store<u8>(KEY, prefix);
  store<u64>(KEY + 1, bswap<u64>(index));
  return lookup(KEY, 9);
}
/** 0x70 account[32] → MarketMaker. */
export function marketMakerEntry(account: usize): usize {
  return entry32(P_MARKET_MAKER, account);
}
/** 0x71 index u64 BE → the market maker's account. */
export function marketMakerIndexEntry(index: u64): usize {
  return indexEntry(P_MARKET_MAKER_INDEX, index);
}
/** 0x72 order_id[32] → AtomenceOrder. */
export function orderEntry(id: usize): usize {
  return entry32(P_ATOMENCE_ORDER, id);
}
/** 0x73 index u64 BE → order_id of the settlement at that position. */
export function settlementIndexEntry(index: u64): usize {
  return indexEntry(P_ATOMENCE_SETTLEMENT, index);
}
/** 0x74 token[32] index u64 BE → order_id of the token's settlement at that position. */
export function tokenSettlementIndexEntry(token: usize, index: u64): usize {
  keyWithId(P_ATOMENCE_TOKEN_SETTLEMENT, token, index);
  return lookup(KEY, 41);
}
/** 0x75 token[32] → AtomenceStats of that token. */
export function tokenStatsEntry(token: usize): usize {
  return entry32(P_ATOMENCE_TOKEN_STATS, token);
}

// Anchoring (docs/anchoring.md "State layout").

/** 0x77 namespace_id[32] → AnchorNamespace. */
export function anchorNamespaceEntry(nsId: usize): usize {
  return entry32(P_ANCHOR_NAMESPACE, nsId);
}
/** 0x78 anchor_id[32] → Anchor. */
export function anchorEntry(anchorId: usize): usize {
  return entry32(P_ANCHOR, anchorId);
}
/** 0x79 namespace_id[32] index u64 BE → anchor_id. */
export function anchorIndexEntry(nsId: usize, index: u64): usize {
  keyWithId(P_ANCHOR_INDEX, nsId, index);
  return lookup(KEY, 41);
}

// Passports and game profiles (docs/passports.md "State layout").

/** 0x7A owner[32] → Passport. */
export function passportEntry(owner: usize): usize {
  return entry32(P_PASSPORT, owner);
}
/** `prefix ‖ bytes` for a label-keyed record (n ≤ 64). */
function labelEntry(prefix: u8, p: usize, n: u32): usize {
  store<u8>(KEY, prefix);
  memory.copy(KEY + 1, p, n);
  return lookup(KEY, n + 1);
}
/** 0x7B lower-cased gamertag (3–24 bytes) → owner[32]. */
export function gamertagEntry(lower: usize, n: u32): usize {
  return labelEntry(P_GAMERTAG, lower, n);
}
/** 0x7C game_id (3–64 bytes) → Game. */
export function gameEntry(id: usize, n: u32): usize {
  return labelEntry(P_GAME, id, n);
}
/** 0x7D owner[32] game_id (3–64 bytes) → GameProfile. */
export function gameProfileEntry(owner: usize, id: usize, n: u32): usize {
  store<u8>(KEY, P_GAME_PROFILE);
  copy32(KEY + 1, owner);
  memory.copy(KEY + 33, id, n);
  return lookup(KEY, n + 33);
}

// STD-8 stablecoins (docs/stablecoins.md "State layout").

/** 0x40 mint[32] → StableCoin. */
export function stableEntry(mint: usize): usize {
  return entry32(P_STABLE, mint);
}
/** 0x41 mint[32] account[32] → u8 1 while the account is blacklisted. */
export function stableBlacklistEntry(mint: usize, account: usize): usize {
  return entry64(P_STABLE_BLACKLIST, mint, account);
}
/** 0x42 mint[32] → StableProfile. */
export function stableProfileEntry(mint: usize): usize {
  return entry32(P_STABLE_PROFILE, mint);
}
/** 0x44 mint[32] → StableOnboarding, the issuer-onboarding proofs (spec §4.16; docs/stablecoins.md). */
export function stableOnboardingEntry(mint: usize): usize {
  return entry32(P_STABLE_ONBOARDING, mint);
}
/** 0x43 mint[32] → 256 × u32 blacklisted addresses per last address byte (docs/stablecoins.md). */
export function stableBlacklistIndexEntry(mint: usize): usize {
  return entry32(P_STABLE_BLACKLIST_INDEX, mint);
}
