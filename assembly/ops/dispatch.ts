// Dispatch of the operations that may also run nested (inside a schedule, a protocol or DAO
// proposal, or a multi-sig transaction; docs/bundle-format.md "Operation"): the DEX (docs/dex.md),
// token metadata, names, staking, NFT and multi-token collections (docs/collections.md), ERC-20 allowances
// (docs/allowances.md), presales and staking pools, upgrades, settlement, anchoring, passports, account
// keys and recovery (docs/accounts.md) and STD-8 stablecoins (docs/stablecoins.md). The operations
// that are never nested (CreateToken's nonce, schedules, proposals, DAOs, multi-sig) are dispatched by
// assembly/block.ts, so the domains that run held operations import this file and not the reverse.
// The decoder only lets enabled discriminants through.

import * as S from "../status";
import { execAddLiquidity, execCreatePool, execRemoveLiquidity, execSwap } from "./dex";
import { execLockTokenMetadata, execUpdateTokenMetadata } from "./token";
import { execRegisterName } from "./names";
import { execStaking, isStakingOp } from "./staking";
import { execCreateCollection, execNft, isNftOp } from "./nfts";
import { execMultiToken, isMultiTokenOp } from "./multitokens";
import { execRegisterProgram } from "./programs";
import { execApprove, execTransferFrom } from "./allowances";
import { execStable, isStableOp } from "./stablecoins";
import { execBridge, isBridgeOp } from "./bridge";
import { clearGuardRefusal, guardRefusal } from "../ledger";
import { OP_APPROVE, OP_TRANSFER_FROM } from "../abi";
import { execClaimPresaleTokens, execContributePresale, execCreatePresale, execFinalizePresale, execRefundPresale } from "./presales";
import { execClaimPoolRewards, execCreateStakingPool, execFundStakingPool, execStakeToPool, execUnstakeFromPool } from "./staking-pools";
import { OP_CLAIM_POOL_REWARDS, OP_CLAIM_PRESALE_TOKENS, OP_CONTRIBUTE_PRESALE, OP_CREATE_PRESALE, OP_CREATE_STAKING_POOL, OP_FINALIZE_PRESALE, OP_FUND_STAKING_POOL, OP_REFUND_PRESALE, OP_STAKE_TO_POOL, OP_UNSTAKE_FROM_POOL } from "../abi";
import { OP_ANCHOR } from "../abi";
import { execSettlement, isSettlementOp } from "./settlement";
import { execAnchor } from "./anchors";
import { execPassport, isPassportOp } from "./passports";
import { execAddKey, execRemoveKey, execRotateKey, execSetRecovery, execInitiateRecovery, execApproveRecovery, execCancelRecovery, execFinalizeRecovery } from "./accounts";
import { OP_ADD_KEY, OP_REMOVE_KEY, OP_ROTATE_KEY, OP_SET_RECOVERY, OP_INITIATE_RECOVERY, OP_APPROVE_RECOVERY, OP_CANCEL_RECOVERY, OP_FINALIZE_RECOVERY } from "../abi";
import { OP_SCHEDULE_UPGRADE, OP_CANCEL_UPGRADE, OP_VOTE_UPGRADE } from "../abi";
import { execCancelUpgrade, execScheduleUpgrade, execVoteUpgrade } from "./upgrades";
import { COLLECTION_KIND_NFT, OP_ADD_LIQUIDITY, OP_CREATE_NFT_COLLECTION, OP_CREATE_POOL, OP_LOCK_TOKEN_METADATA, OP_REGISTER_NAME, OP_REGISTER_PROGRAM, OP_REMOVE_LIQUIDITY, OP_SWAP, OP_UPDATE_TOKEN_METADATA } from "../abi";

/**
 * Every operation but Transfer, CreateToken and the schedule operations. A credit or debit the
 * STD-8 rules refused (assembly/ledger.ts) makes the operation fail with that rule's status
 * (TOKEN_PAUSED, ADDRESS_BLACKLISTED) whatever status the domain mapped the refusal to, so every
 * domain reports the rule without knowing about it.
 */
export function execOther(kind: u32, user: usize, op: usize, bundleIndex: u32, opIndex: u32): u32 {
  clearGuardRefusal();
  let st = execOtherKind(kind, user, op, bundleIndex, opIndex);
  if (st != S.OK && guardRefusal != 0) st = guardRefusal;
  clearGuardRefusal();
  return st;
}

function execOtherKind(kind: u32, user: usize, op: usize, bundleIndex: u32, opIndex: u32): u32 {
  let f = <usize>load<u32>(op, 4);
  if (kind == OP_SWAP) return execSwap(user, f, bundleIndex, opIndex);
  if (kind == OP_ADD_LIQUIDITY) return execAddLiquidity(user, f, bundleIndex, opIndex);
  if (kind == OP_REMOVE_LIQUIDITY) return execRemoveLiquidity(user, f, bundleIndex, opIndex);
  if (kind == OP_CREATE_POOL) return execCreatePool(user, f, bundleIndex, opIndex);
  if (kind == OP_UPDATE_TOKEN_METADATA) return execUpdateTokenMetadata(user, op, bundleIndex, opIndex);
  if (kind == OP_LOCK_TOKEN_METADATA) return execLockTokenMetadata(user, op, bundleIndex, opIndex);
  if (kind == OP_REGISTER_NAME) return execRegisterName(user, op); // names (docs/names.md)
  // NFT and multi-token collections (spec §4.3, §4.4; docs/collections.md)
  if (kind == OP_CREATE_NFT_COLLECTION) return execCreateCollection(COLLECTION_KIND_NFT, user, op, bundleIndex, opIndex);
  if (isNftOp(kind)) return execNft(kind, user, op, bundleIndex, opIndex);
  if (isMultiTokenOp(kind)) return execMultiToken(kind, user, op, bundleIndex, opIndex);
  if (kind == OP_REGISTER_PROGRAM) return execRegisterProgram(user, op, bundleIndex, opIndex); // programs (docs/intents.md)
  // ERC-20 allowances (docs/allowances.md)
  if (kind == OP_APPROVE) return execApprove(user, f, bundleIndex, opIndex);
  if (kind == OP_TRANSFER_FROM) return execTransferFrom(user, f, bundleIndex, opIndex);
  // Presales (docs/presales.md) and token staking pools (docs/staking-pools.md)
  if (kind == OP_CREATE_PRESALE) return execCreatePresale(user, f, bundleIndex, opIndex);
  if (kind == OP_CONTRIBUTE_PRESALE) return execContributePresale(user, f, bundleIndex, opIndex);
  if (kind == OP_FINALIZE_PRESALE) return execFinalizePresale(user, f, bundleIndex, opIndex);
  if (kind == OP_REFUND_PRESALE) return execRefundPresale(user, f, bundleIndex, opIndex);
  if (kind == OP_CLAIM_PRESALE_TOKENS) return execClaimPresaleTokens(user, f, bundleIndex, opIndex);
  if (kind == OP_CREATE_STAKING_POOL) return execCreateStakingPool(user, f, bundleIndex, opIndex);
  if (kind == OP_STAKE_TO_POOL) return execStakeToPool(user, f, bundleIndex, opIndex);
  if (kind == OP_UNSTAKE_FROM_POOL) return execUnstakeFromPool(user, f, bundleIndex, opIndex);
  if (kind == OP_CLAIM_POOL_REWARDS) return execClaimPoolRewards(user, f, bundleIndex, opIndex);
  if (kind == OP_FUND_STAKING_POOL) return execFundStakingPool(user, f, bundleIndex, opIndex);
  // Upgrade governance (docs/upgrades.md)
  if (kind == OP_SCHEDULE_UPGRADE) return execScheduleUpgrade(user, op, bundleIndex, opIndex);
  if (kind == OP_VOTE_UPGRADE) return execVoteUpgrade(user, op, bundleIndex, opIndex);
  if (kind == OP_CANCEL_UPGRADE) return execCancelUpgrade(user, op, bundleIndex, opIndex);
  if (isStakingOp(kind)) return execStaking(kind, user, f, bundleIndex, opIndex); // staking (docs/staking.md)
  // Settlement, anchoring, passports (docs/settlement.md, docs/anchoring.md, docs/passports.md)
  if (isSettlementOp(kind)) return execSettlement(kind, user, f, bundleIndex, opIndex);
  if (kind == OP_ANCHOR) return execAnchor(user, op);
  if (isPassportOp(kind)) return execPassport(kind, user, op);
  // Account keys and guardian recovery (docs/accounts.md); multi-sig is dispatched by assembly/block.ts.
  if (kind == OP_ADD_KEY) return execAddKey(user, op, bundleIndex, opIndex);
  if (kind == OP_REMOVE_KEY) return execRemoveKey(user, op, bundleIndex, opIndex);
  if (kind == OP_ROTATE_KEY) return execRotateKey(user, op, bundleIndex, opIndex);
  if (kind == OP_SET_RECOVERY) return execSetRecovery(user, op, bundleIndex, opIndex);
  if (kind == OP_INITIATE_RECOVERY) return execInitiateRecovery(user, op, bundleIndex, opIndex);
  if (kind == OP_APPROVE_RECOVERY) return execApproveRecovery(user, op, bundleIndex, opIndex);
  if (kind == OP_CANCEL_RECOVERY) return execCancelRecovery(user, bundleIndex, opIndex);
  if (kind == OP_FINALIZE_RECOVERY) return execFinalizeRecovery(user, op, bundleIndex, opIndex);
  if (isStableOp(kind)) return execStable(kind, user, op, bundleIndex, opIndex); // STD-8 (docs/stablecoins.md)
  if (isBridgeOp(kind)) return execBridge(kind, user, op, bundleIndex, opIndex); // the bridge (docs/bridge.md)
  return S.OP_NOT_ENABLED; // unreachable: decodeBundle refuses other discriminants
}
