// Gas schedule (spec §8, docs/core-abi.md "Rules"). A bundle's gas is known from its operations
// alone, before any state is read, so the block gas check and the fee need no execution.

export const GAS_BASE: u64 = 5000;
export const GAS_TRANSFER: u64 = 16000;
export const GAS_CREATE_TOKEN: u64 = 45000;

/** Fee split (spec §1.8): 20% to the treasury 0x00…03 rounded down, the rest to the proposer. */
export const TREASURY_DIVISOR: u32 = 5; // fee × 20 / 100 == fee / 5 exactly (floor), and cannot overflow
