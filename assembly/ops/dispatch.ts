// Dispatch of the operations after Transfer and CreateToken (docs/bundle-format.md "Operation"):
// the DEX (docs/dex.md), token metadata, names, staking, NFT and multi-token collections
// (docs/nfts.md), ERC-20 allowances (docs/allowances.md), STD-8 stablecoins (docs/stablecoins.md). The decoder only lets enabled discriminants through.

import * as S from "../status";
import { execAddLiquidity, execCreatePool, execRemoveLiquidity, execSwap } from "./dex";
import { execLockTokenMetadata, execUpdateTokenMetadata } from "./token";
import { execRegisterName } from "./names";
import { execStaking, isStakingOp } from "./staking";
import { execCreateCollection, execNft, isNftOp, KIND_NFT } from "./nfts";
import { execMultiToken, isMultiTokenOp } from "./multitokens";
import { execRegisterProgram } from "./programs";
import { execApprove, execTransferFrom } from "./allowance";
import { execStable, isStableOp } from "./stablecoins";
import { clearGuardRefusal, guardRefusal } from "../ledger";
import { OP_APPROVE, OP_TRANSFER_FROM } from "../abi";
import { OP_ADD_LIQUIDITY, OP_CREATE_NFT_COLLECTION, OP_CREATE_POOL, OP_LOCK_TOKEN_METADATA, OP_REGISTER_NAME, OP_REGISTER_PROGRAM, OP_REMOVE_LIQUIDITY, OP_SWAP, OP_UPDATE_TOKEN_METADATA } from "../abi";

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
  // NFT and multi-token collections (spec §4.3, §4.4; docs/nfts.md)
  if (kind == OP_CREATE_NFT_COLLECTION) return execCreateCollection(KIND_NFT, user, op, bundleIndex, opIndex);
  if (isNftOp(kind)) return execNft(kind, user, op, bundleIndex, opIndex);
  if (isMultiTokenOp(kind)) return execMultiToken(kind, user, op, bundleIndex, opIndex);
  if (kind == OP_REGISTER_PROGRAM) return execRegisterProgram(user, op, bundleIndex, opIndex); // programs (docs/intents.md)
  // ERC-20 allowances (docs/allowances.md)
  if (kind == OP_APPROVE) return execApprove(user, f, bundleIndex, opIndex);
  if (kind == OP_TRANSFER_FROM) return execTransferFrom(user, f, bundleIndex, opIndex);
  if (isStakingOp(kind)) return execStaking(kind, user, f); // staking (docs/staking.md)
  if (isStableOp(kind)) return execStable(kind, user, op, bundleIndex, opIndex); // STD-8 (docs/stablecoins.md)
  return S.OP_NOT_ENABLED; // unreachable: decodeBundle refuses other discriminants
}
