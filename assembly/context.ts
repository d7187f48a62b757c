// The open block's context (docs/core-abi.md BlockContext) and the bundle being executed.
// Time and height are inputs, never read from a clock (DESIGN.md "Determinism").

export let ctxHeight: u64 = 0;
export let ctxTimestamp: u64 = 0;
export const PROPOSER = memory.data(32);
export let ctxGasPrice: u64 = 0;
export let ctxChainId: u64 = 0;
export let ctxAllowUnsigned: bool = false;
export let ctxBlockGasLimit: u64 = 0;
/** The auth kind of the bundle being executed (AUTH_*; AUTH_UNSIGNED for a schedule run): the STD-8
 *  quantum requirement accepts a mint only from an ML-DSA-65-signed bundle (spec §5.9). */
export let ctxAuth: u8 = 0;
export function setAuth(auth: u8): void {
  ctxAuth = auth;
}

/** Treasury 0x00…03 (spec §1.8, §1.9: the foundation treasury system account). */
export const TREASURY = memory.data<u8>([
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3,
]);
/** The protocol governance authority 0x00…09 (abi/constants.mjs GOVERNANCE; docs/addresses-and-keys.md):
 *  keyless; governance-only operations are accepted only with it as their user. */
export const GOVERNANCE = memory.data<u8>([
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9,
]);
/** The foundation 0x00…03 (abi/constants.mjs FOUNDATION; spec §1.9 "foundation treasury", the
 *  TREASURY account): may cancel a pending STD-8 handover (spec §3; docs/stablecoins.md). */
export const FOUNDATION = TREASURY;
/** The native token's mint: 32 zero bytes (spec §1.4). */
export const NTV_MINT = memory.data(32);

export function setContext(height: u64, timestamp: u64, proposer: usize, gasPrice: u64, chainId: u64,
                           allowUnsigned: bool, blockGasLimit: u64): void {
  ctxHeight = height;
  ctxTimestamp = timestamp;
  memory.copy(PROPOSER, proposer, 32);
  ctxGasPrice = gasPrice;
  ctxChainId = chainId;
  ctxAllowUnsigned = allowUnsigned;
  ctxBlockGasLimit = blockGasLimit;
}
