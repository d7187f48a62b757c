// Named numbers of the ABI (docs/core-abi.md "How the ABI is generated"): each is written once here
// and generated into assembly/abi.ts (the core) and src/abi/constants.ts (the host). A number that
// docs/ names comes from exactly one of these. `as` is the AssemblyScript type; `host` is 'number'
// (default), 'bigint' (a bigint literal: gas, which the host computes in bigint) or 'bytes32' (a
// 32-byte account written as its last byte, the rest zero).

export const constants = [
  // Keys and signatures (spec §5.2; docs/addresses-and-keys.md "Keys").
  { name: 'KEY_TYPE_ED25519', value: 0, as: 'u8', doc: 'key_type of an Ed25519 key (AddKey, key records, KeyRegistered)' },
  { name: 'KEY_TYPE_ML_DSA_65', value: 1, as: 'u8', doc: 'key_type of an ML-DSA-65 (FIPS 204) key' },
  { name: 'ED25519_PUBLIC_KEY_BYTES', value: 32, as: 'u32', doc: 'an Ed25519 public key (docs/addresses-and-keys.md)' },
  { name: 'ED25519_SIGNATURE_BYTES', value: 64, as: 'u32', doc: 'an Ed25519 signature' },
  { name: 'ED25519_SECRET_KEY_BYTES', value: 32, as: 'u32', doc: 'an Ed25519 seed' },
  { name: 'ML_DSA_65_PUBLIC_KEY_BYTES', value: 1952, as: 'u32', doc: 'an ML-DSA-65 public key (docs/addresses-and-keys.md)' },
  { name: 'ML_DSA_65_SIGNATURE_BYTES', value: 3309, as: 'u32', doc: 'an ML-DSA-65 signature' },
  { name: 'ML_DSA_65_SECRET_KEY_BYTES', value: 4032, as: 'u32', doc: 'an ML-DSA-65 secret key' },
  // The envelope's auth kind of each bundle (docs/core-abi.md "Authorization").
  { name: 'AUTH_UNSIGNED', value: 0, as: 'u8', doc: 'no signature (testnet only, spec §5.6)' },
  { name: 'AUTH_ED25519', value: 1, as: 'u8', doc: 'a 64-byte Ed25519 signature' },
  { name: 'AUTH_ML_DSA_65', value: 2, as: 'u8', doc: 'a 3,309-byte ML-DSA-65 signature' },
  { name: 'AUTH_EVM', value: 3, as: 'u8', doc: 'a secp256k1-signed EVM transaction; key_hash is the recovered account (docs/eth.md)' },
  // Bundle bounds (docs/bundle-format.md).
  { name: 'MAX_OPERATIONS', value: 64, as: 'u32', doc: 'operations in one bundle at most' },
  { name: 'MAX_SIGNATURE_BYTES', value: 4096, as: 'u32', doc: "the codec's bound on the signature vec; the exact lengths follow the auth kind" },
  { name: 'OP_LAST_RESERVED', value: 119, as: 'u32', doc: 'discriminants up to here without a layout are reserved (OP_NOT_ENABLED); above, malformed' },
  { name: 'BUNDLE_LEVEL_OP', value: 0xffff, as: 'u16', doc: 'op_index of events that belong to the whole bundle (Fee, KeyRegistered)' },
  { name: 'MAX_SCHEDULE_OPS', value: 16, as: 'u32', doc: "operations one CreateSchedule holds at most (docs/intents.md \"Schedules on chain\")" },
  { name: 'EVENT_HEADER_BYTES', value: 11, as: 'u32', doc: 'event header: bundle_index u32, op_index u16, kind u8, data length u32' },
  { name: 'SCHEDULE_RUN_INDEX', value: 0xffffffff, as: 'u32', doc: 'bundle_index of the events of a schedule run: they belong to no bundle and come after every bundle\'s (docs/intents.md "Schedules on chain")' },
  // Schedules on chain: the core's bounds (docs/intents.md "Schedules on chain"), named once for both sides.
  { name: 'SCHEDULE_SLOT_SECONDS', value: 60, as: 'u64', doc: "seconds per slot of the schedules' due index (0x34)" },
  { name: 'SCHEDULE_MIN_INTERVAL', value: 60, as: 'u64', doc: 'the shortest Recurring interval: one slot' },
  { name: 'SCHEDULE_MAX_HORIZON', value: 315360000, as: 'u64', doc: 'intervals, first runs and expiries lie at most ten years ahead' },
  { name: 'MAX_SCHEDULE_BYTES', value: 4096, as: 'u32', doc: "a schedule's operations: at most this many bytes of Borsh" },
  { name: 'MAX_CONDITIONAL_FAILURES', value: 3, as: 'u32', doc: 'a Conditional schedule gives up after this many failed runs' },
  { name: 'SCHEDULE_MAX_SLOTS_PER_BLOCK', value: 64, as: 'u32', doc: 'due-index slots one block walks at most' },
  { name: 'SCHEDULE_MAX_DUE_PER_BLOCK', value: 32, as: 'u32', doc: 'due entries one block handles at most: runs, condition checks and expiries together' },
  // Gas (spec §8; docs/core-abi.md "Rules"). Each operation's own gas is in its row of abi/operations.mjs.
  { name: 'GAS_BASE', value: 5000, as: 'u64', host: 'bigint', doc: 'the gas every bundle pays before its operations; max_gas below it is MAX_GAS_TOO_LOW' },
  { name: 'BUNDLE_GAS_CEILING', value: 100000, as: 'u64', host: 'bigint', doc: "the per-bundle gas the node's block gas limit assumes (max_txs_per_block × this) and the clients' default max_gas; every single operation's bundle stays under it (docs/dex.md \"Gas\")" },
  // System accounts (spec §1.4, §1.8; docs/addresses-and-keys.md, system addresses).
  { name: 'NTV_MINT', value: 0, host: 'bytes32', doc: "the native token's mint: 32 zero bytes (spec §1.4)" },
  { name: 'TREASURY', value: 3, host: 'bytes32', doc: 'the foundation treasury 0x00…03 that receives 20% of fees (spec §1.8)' },
  { name: 'FOUNDATION', value: 3, host: 'bytes32', doc: 'the foundation (spec §1.9 "foundation treasury", the same account as TREASURY): may cancel a pending STD-8 handover (spec §3); keyless, so on mainnet a governance proposal acts (docs/stablecoins.md "Authorities")' },
  { name: 'GOVERNANCE', value: 9, host: 'bytes32', doc: 'the protocol governance authority 0x00…09: keyless; operations gated to governance (creating an STD-8 stablecoin, verifying an issuer, raising a supply cap, the bridge attester set, chain parameters) are accepted only with this account as their user; passed proposals execute as it, and on testnet the unsigned convenience methods may name it as sender (docs/addresses-and-keys.md)' },
  // STD-8 stablecoins (spec §2.1, §8; docs/stablecoins.md).
  { name: 'TOKEN_FLAG_METADATA_MUTABLE', value: 1, as: 'u8', doc: 'TokenRecord.flags bit 0: metadata may still be updated' },
  { name: 'TOKEN_FLAG_PAUSED', value: 2, as: 'u8', doc: 'TokenRecord.flags bit 1: an STD-8 token is paused (no movement, no mint)' },
  { name: 'TOKEN_FLAG_BLACKLIST', value: 4, as: 'u8', doc: 'TokenRecord.flags bit 2: an STD-8 token has at least one blacklisted address (movements look the parties up)' },
  { name: 'STD8_DEFAULT_TIMELOCK', value: 720, as: 'u64', doc: 'blocks of delay of a role change or minter addition by default (spec §8)' },
  { name: 'STD8_DEFAULT_EPOCH_LENGTH', value: 720, as: 'u64', doc: 'blocks per minting epoch by default (spec §8)' },
  { name: 'STD8_MIN_HANDOVER_DELAY', value: 720, as: 'u64', doc: 'a full handover waits at least this many blocks, whatever the timelock (spec §3, §8)' },
  { name: 'STD8_MAX_TIMELOCK', value: 1000000, as: 'u64', doc: 'the longest timelock or epoch length in blocks' },
  { name: 'STD8_MAX_GUARDIANS', value: 8, as: 'u32', doc: 'guardians per stablecoin' },
  { name: 'STD8_MAX_COSIGNERS', value: 8, as: 'u32', doc: 'authorized cosigners per stablecoin (approvals are a bitmask over them)' },
  { name: 'STD8_MAX_MINTERS', value: 16, as: 'u32', doc: 'configured minters per stablecoin' },
  { name: 'STD8_MAX_PENDING', value: 16, as: 'u32', doc: 'pending changes and mints per stablecoin' },
  { name: 'STD8_MAX_ORIGINS', value: 8, as: 'u32', doc: 'origin-chain mappings per stablecoin' },
];
