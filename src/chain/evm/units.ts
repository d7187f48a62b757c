/**
 * Units and address forms of the EVM adapter (spec §4.18; docs/eth.md). Wallets count the native
 * coin in 18 decimals (wei); NTV has 9 (nanoNTV), so one nanoNTV is 10^9 wei, and a gas price of
 * g nanoNTV per gas is g × 10^9 wei per gas.
 */
import { NATIVE_MINT } from '../../codec/address.js';

export const WEI_PER_NANO = 1_000_000_000n;
export const U64_MAX = (1n << 64n) - 1n;
export const ZERO_HASH = `0x${'00'.repeat(32)}` as const;

/** A bigint or number as an EVM hex quantity (`0x0`, `0x1a`: no leading zeros). */
export function quantity(value: bigint | number): `0x${string}` {
  return `0x${value.toString(16)}`;
}

export function hex(bytes: Uint8Array): `0x${string}` {
  return `0x${Buffer.from(bytes).toString('hex')}`;
}

export function unhex(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text.startsWith('0x') ? text.slice(2) : text, 'hex'));
}

/** A 20-byte EVM address right-aligned into the 32-byte native account (facts.md "Addresses"). */
export function accountOfEvm(address: string | Uint8Array): Uint8Array {
  const raw = typeof address === 'string' ? unhex(address) : address;
  if (raw.length !== 20) throw new RangeError(`an EVM address has 20 bytes, got ${raw.length}`);
  const out = new Uint8Array(32);
  out.set(raw, 12);
  return out;
}

/** The EVM form of a 32-byte account or mint: its last 20 bytes (lossy for native accounts). */
export function evmOf(bytes32: Uint8Array): `0x${string}` {
  return hex(bytes32.subarray(12, 32));
}

/** True for an account an EVM key can own: its first 12 bytes are zero. */
export function isEvmAccount(bytes32: Uint8Array): boolean {
  for (let i = 0; i < 12; i++) if (bytes32[i] !== 0) return false;
  return true;
}

export function isNativeMintBytes(mint: Uint8Array): boolean {
  return Buffer.compare(mint, NATIVE_MINT) === 0;
}

/**
 * ERC-20 allowances (docs/allowances.md): the core's allowance is a u128 and 2^128−1 is infinite
 * (never decremented). An EVM `approve` of 2^128−1 or more maps to that infinite value, and the
 * infinite allowance reads and logs as 2^256−1, so `approve(spender, maxUint256)` reads back as it
 * was sent. Every finite allowance is below 2^128−1 and reads as itself.
 */
export const INFINITE_ALLOWANCE = (1n << 128n) - 1n;
export const EVM_MAX_UINT256 = (1n << 256n) - 1n;
export function allowanceOfEvm(amount: bigint): bigint {
  return amount >= INFINITE_ALLOWANCE ? INFINITE_ALLOWANCE : amount;
}
export function evmAllowance(allowance: bigint): bigint {
  return allowance === INFINITE_ALLOWANCE ? EVM_MAX_UINT256 : allowance;
}
