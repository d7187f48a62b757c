// Dispatch of the operations after Transfer and CreateToken (docs/bundle-format.md "Operation"):
// the DEX (docs/dex.md) and token metadata. The decoder only lets enabled discriminants through.

import * as S from "../status";
import { OP_ADD_LIQUIDITY, OP_CREATE_POOL, OP_LOCK_TOKEN_METADATA, OP_REMOVE_LIQUIDITY, OP_SWAP, OP_UPDATE_TOKEN_METADATA } from "../bundle";
import { execAddLiquidity, execCreatePool, execRemoveLiquidity, execSwap } from "./dex";
import { execLockTokenMetadata, execUpdateTokenMetadata } from "./token";
import { OP_REGISTER_NAME } from "../bundle";
import { execRegisterName } from "./names";
import { execStaking, isStakingOp } from "./staking";

export function execOther(kind: u32, user: usize, op: usize, bundleIndex: u32, opIndex: u32): u32 {
  let f = <usize>load<u32>(op, 4);
  if (kind == OP_SWAP) return execSwap(user, f, bundleIndex, opIndex);
  if (kind == OP_ADD_LIQUIDITY) return execAddLiquidity(user, f, bundleIndex, opIndex);
  if (kind == OP_REMOVE_LIQUIDITY) return execRemoveLiquidity(user, f, bundleIndex, opIndex);
  if (kind == OP_CREATE_POOL) return execCreatePool(user, f, bundleIndex, opIndex);
  if (kind == OP_UPDATE_TOKEN_METADATA) return execUpdateTokenMetadata(user, op, bundleIndex, opIndex);
  if (kind == OP_LOCK_TOKEN_METADATA) return execLockTokenMetadata(user, op, bundleIndex, opIndex);
  if (kind == OP_REGISTER_NAME) return execRegisterName(user, op); // names (docs/names.md)
  if (isStakingOp(kind)) return execStaking(kind, user, f); // staking (docs/staking.md)
  return S.OP_NOT_ENABLED; // unreachable: decodeBundle refuses other discriminants
}
