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
  // Protocol governance (spec §4.14, §8; docs/governance.md): the core's bounds, named once for both sides.
  { name: 'MAX_PROPOSAL_OPS', value: 8, as: 'u32', doc: 'operations one proposal carries at most (CreateStablecoin, VerifyIssuer, RaiseSupplyCap, BridgeAttesters)' },
  { name: 'MAX_PROPOSAL_TITLE', value: 128, as: 'u32', doc: "a proposal's title: 1 to this many bytes of UTF-8" },
  { name: 'MAX_PROPOSAL_DESCRIPTION', value: 4096, as: 'u32', doc: "a proposal's description: at most this many bytes of UTF-8" },
  { name: 'MAX_PROPOSAL_OPS_BYTES', value: 4096, as: 'u32', doc: "a proposal's operations: at most this many bytes of Borsh" },
  { name: 'MAX_SAFETY_TEXT', value: 128, as: 'u32', doc: 'a ContractSafety chain (1 to this many bytes) and contract (1 to this many bytes)' },
  { name: 'SAFETY_LEVEL_MAX', value: 3, as: 'u8', doc: 'safety levels: 0 unreviewed (clears the record), 1 verified, 2 caution, 3 blocked' },
  { name: 'GOV_DEFAULT_VOTING_PERIOD', value: 500, as: 'u64', doc: 'voting period in blocks when ChainParams carries no governance part (spec §8: 500 blocks)' },
  { name: 'GOV_DEFAULT_QUORUM_BPS', value: 3340, as: 'u16', doc: 'quorum when ChainParams carries no governance part: votes cast ≥ 33.4% of the bonded stake at creation' },
  { name: 'GOV_DEFAULT_THRESHOLD_BPS', value: 5000, as: 'u16', doc: 'threshold when ChainParams carries no governance part: yes > 50% of the votes cast' },
  { name: 'GOV_MIN_VOTING_PERIOD', value: 5, as: 'u64', doc: 'voting_period_blocks allowed range: 5 …' },
  { name: 'GOV_MAX_VOTING_PERIOD', value: 1000000, as: 'u64', doc: '… to 1,000,000 blocks' },
  // Settlement with market makers (facts.md "Settlement market makers"; docs/settlement.md "Tiers").
  { name: 'ATOMENCE_TIER1_STAKE', value: 10000000000000, as: 'u64', host: 'bigint', doc: 'tier 1 stake: 10,000 NTV in raw units (facts.md)' },
  { name: 'ATOMENCE_TIER2_STAKE', value: 100000000000000, as: 'u64', host: 'bigint', doc: 'tier 2 stake: 100,000 NTV' },
  { name: 'ATOMENCE_TIER3_STAKE', value: 1000000000000000, as: 'u64', host: 'bigint', doc: 'tier 3 stake: 1,000,000 NTV' },
  { name: 'ATOMENCE_TIER1_SPREAD_BPS', value: 50, as: 'u32', doc: 'the widest spread a tier 1 maker may quote (facts.md)' },
  { name: 'ATOMENCE_TIER2_SPREAD_BPS', value: 25, as: 'u32', doc: 'tier 2: at most 25 bps' },
  { name: 'ATOMENCE_TIER3_SPREAD_BPS', value: 10, as: 'u32', doc: 'tier 3: at most 10 bps' },
  { name: 'ATOMENCE_MAX_ORDER_SECONDS', value: 2592000, as: 'u64', doc: "an order's expiry lies at most 30 days after its creating block" },
  { name: 'ATOMENCE_LIST_DEFAULT', value: 100, as: 'u32', doc: 'svc_listAtomenceSettlements default limit (spec §8)' },
  { name: 'ATOMENCE_LIST_MAX', value: 1000, as: 'u32', doc: 'svc_listAtomenceSettlements maximum limit (spec §8)' },
  // Accounts, recovery and multi-sig (docs/accounts.md): the core's bounds, named once for both sides.
  { name: 'ROLE_OWNER', value: 0, as: 'u8', doc: 'a key role: full authority, including key and recovery management (docs/accounts.md "Roles")' },
  { name: 'ROLE_OPERATOR', value: 1, as: 'u8', doc: 'a key role: every operation but AddKey, RemoveKey, RotateKey, SetRecovery and CancelRecovery' },
  { name: 'MAX_ACCOUNT_KEYS', value: 8, as: 'u32', doc: 'registered keys one account holds at most' },
  { name: 'MAX_GUARDIANS', value: 10, as: 'u32', doc: 'guardians of one account at most (spec §8)' },
  { name: 'RECOVERY_MIN_TIMELOCK', value: 86400, as: 'u64', doc: 'the shortest recovery timelock on a chain that refuses unsigned bundles (mainnet): 24 hours' },
  { name: 'RECOVERY_MIN_TIMELOCK_TESTNET', value: 10, as: 'u64', doc: 'the shortest recovery timelock on a chain that allows unsigned bundles (testnet), so wallets and tests can run the flow' },
  { name: 'RECOVERY_MAX_TIMELOCK', value: 2592000, as: 'u64', doc: 'the longest recovery timelock: 30 days' },
  { name: 'MAX_MULTISIG_SIGNERS', value: 16, as: 'u32', doc: 'signers of one multi-sig at most' },
  { name: 'MAX_MULTISIG_LABEL_BYTES', value: 64, as: 'u32', doc: "a multi-sig's label at most" },
  { name: 'MAX_MULTISIG_DESCRIPTION_BYTES', value: 256, as: 'u32', doc: "a proposal's description at most" },
  { name: 'MAX_MULTISIG_OPS', value: 16, as: 'u32', doc: 'operations one multi-sig proposal holds at most' },
  { name: 'MAX_MULTISIG_BYTES', value: 4096, as: 'u32', doc: "a proposal's operations: at most this many bytes of Borsh" },
  { name: 'MULTISIG_TX_LIFETIME', value: 604800, as: 'u64', doc: 'a proposal expires this many seconds after it was proposed: 7 days' },
  // Upgrade governance (spec §3 Node upgrade, §8; docs/upgrades.md).
  { name: 'UPGRADE_GRACE_BLOCKS', value: 100, as: 'u64', doc: 'blocks from an applied upgrade in which skipped leaders are not counted as missed (spec §8 grace period)' },
  { name: 'UPGRADE_DEFAULT_QUORUM', value: 67, as: 'u32', doc: 'percent of the active stake that passes a plan in full mode unless genesis says otherwise (spec §8)' },
  { name: 'UPGRADE_DEFAULT_VOTING_PERIOD', value: 500, as: 'u64', doc: 'blocks a plan stays open for votes unless genesis says otherwise (spec §8)' },
  { name: 'UPGRADE_MAX_VOTING_PERIOD', value: 1000000, as: 'u64', doc: 'the longest voting period a genesis may set' },
  { name: 'UPGRADE_NAME_MAX', value: 64, as: 'u32', doc: 'an upgrade name is 1 to this many of [A-Za-z0-9._-]' },
  { name: 'UPGRADE_URL_MAX', value: 512, as: 'u32', doc: 'binary_url and info_url are at most this many bytes' },
  // Gas (spec §8; docs/core-abi.md "Rules"). Each operation's own gas is in its row of abi/operations.mjs.
  { name: 'GAS_BASE', value: 5000, as: 'u64', host: 'bigint', doc: 'the gas every bundle pays before its operations; max_gas below it is MAX_GAS_TOO_LOW' },
  { name: 'BUNDLE_GAS_CEILING', value: 100000, as: 'u64', host: 'bigint', doc: "the per-bundle gas the node's block gas limit assumes (max_txs_per_block × this) and the clients' default max_gas; every single operation's bundle stays under it (docs/dex.md \"Gas\")" },
  // Presales and token staking pools (docs/presales.md, docs/staking-pools.md).
  { name: 'PRESALE_RATE_SCALE', value: 1000000000, as: 'u64', doc: 'a presale rate is sale-token raw units per this many raw units of the pay token' },
  { name: 'PRESALE_MIN_LOCK', value: 86400, as: 'u64', doc: "the shortest LP lock of a presale's pool: one day" },
  { name: 'STAKING_POOL_ACC_SCALE', value: 1_000_000_000_000_000_000, as: 'u64', host: 'bigint', doc: "a staking pool's accRewardPerShare is scaled by this (10^18)" },
  // System accounts (spec §1.4, §1.8; docs/addresses-and-keys.md, system addresses).
  { name: 'NTV_MINT', value: 0, host: 'bytes32', doc: "the native token's mint: 32 zero bytes (spec §1.4)" },
  { name: 'TREASURY', value: 3, host: 'bytes32', doc: 'the foundation treasury 0x00…03 that receives 20% of fees (spec §1.8)' },
  { name: 'GOVERNANCE', value: 9, host: 'bytes32', doc: 'the protocol governance authority 0x00…09: keyless; operations gated to governance (creating an STD-8 stablecoin, verifying an issuer, raising a supply cap, the bridge attester set, chain parameters) are accepted only with this account as their user; passed proposals execute as it, and on testnet the unsigned convenience methods may name it as sender (docs/addresses-and-keys.md)' },
];
