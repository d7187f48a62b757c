// State layout (docs/core-abi.md "State layout"): key prefixes with their key fields, and the
// record layouts stored under them. Keys are a one-byte prefix then the fields; integers in
// records are little-endian, in keys as stated (ids and indexes that must sort are big-endian).
//
// Key field types: bytes32; u64be, u64le, u16be, u32be; 'upper' (the rest of the key: ASCII
// upper-cased symbol bytes); 'rest' (the rest of the key: a label or name's bytes, latin1 from a
// string). `check` names a 32-byte field whose length the host builder checks (RangeError
// "<check> must be 32 bytes"). `host` is the host builder's name ('const' builders of a key with
// no fields are constants). `core` names the core's P_* constant. The core's builder of a key with
// fields is generated into assembly/keys.ts as `<host name without Key>Entry` (it looks the key up
// and returns its state entry), or under `entry` where the core's name differs.
//
// Record field types: u8 u16 u32 u64 u128 u256 bytes32 string flag (u8, 1 = true); 'vec32'
// (u32 count, count × [32]); 'vecu64' (u32 count, count × u64); 'rest32' (the rest of the value
// as 32-byte items, no count); ['list', Record] (u32 count, then
// count records); ['tail', Record] (optional to the end: count u8, count records). Host decoders
// are strict: a short record or trailing bytes throw RangeError.
//
// Every record's field offsets are generated for the core, which reads and writes records in place
// (assembly/abi.ts: <prefix>_<FIELD> up to and including the first variable field, then
// <prefix>_BYTES for an all-fixed record or <prefix>_<FIELD>_DATA for where that variable field's
// bytes or items begin). The prefix is R_<NAME> (R_VALIDATOR_SELF_STAKE), or the record's `core`
// where the core named it before every record had offsets (R_MM for MarketMaker).

export const prefixes = [
  { name: 'ACCOUNT', code: 0x01, core: 'P_ACCOUNT', host: 'accountKey', key: [['addr', 'bytes32', 'address']], value: 'Account' },
  { name: 'BALANCE', code: 0x02, core: 'P_BALANCE', host: 'balanceKey', key: [['addr', 'bytes32', 'address'], ['mint', 'bytes32', 'mint']], value: 'u128; deleted at 0' },
  { name: 'TOKEN', code: 0x03, core: 'P_TOKEN', host: 'tokenKey', key: [['mint', 'bytes32', 'mint']], value: 'Token' },
  { name: 'SYMBOL', code: 0x04, core: 'P_SYMBOL', host: 'symbolKey', key: [['symbol', 'upper']], value: 'mint[32] (symbols are unique, case-insensitive)' },
  { name: 'RESERVED_SYMBOL', code: 0x05, core: 'P_RESERVED', host: 'reservedSymbolKey', entry: 'reservedEntry', key: [['symbol', 'upper']], value: 'u8 1: refused for CreateToken (spec §2.1)' },
  { name: 'KEY', code: 0x06, core: 'P_KEY', host: 'keyRecordKey', key: [['addr', 'bytes32', 'address'], ['keyHash', 'bytes32', 'key hash']], value: 'Key' },
  // DEX and token metadata (docs/dex.md "State layout").
  { name: 'POOL', code: 0x07, core: 'P_POOL', host: 'poolKey', key: [['pool', 'bytes32']], value: 'Pool' },
  { name: 'LP', code: 0x08, core: 'P_LP', host: 'lpKey', key: [['pool', 'bytes32'], ['owner', 'bytes32']], value: 'u128 LP balance; deleted at 0' },
  { name: 'TOKEN_METADATA', code: 0x09, core: 'P_TOKEN_META', host: 'tokenMetadataKey', entry: 'tokenMetaEntry', key: [['mint', 'bytes32']], value: 'TokenMetadata' },
  // Names (spec §4.12, docs/names.md): the lower-cased label without ".vex".
  { name: 'NAME', code: 0x0a, core: 'P_NAME', host: 'nameKey', key: [['label', 'rest']], value: 'Name' },
  { name: 'NAME_REVERSE', code: 0x0b, core: 'P_NAME_REVERSE', host: 'nameReverseKey', key: [['owner', 'bytes32', 'owner']], value: "the owner's primary label (raw bytes)" },
  // ERC-20 allowances (docs/allowances.md): what `spender` may still move of `owner`'s `token`.
  { name: 'ALLOWANCE', code: 0x0c, core: 'P_ALLOWANCE', host: 'allowanceKey', key: [['owner', 'bytes32', 'owner'], ['token', 'bytes32', 'mint'], ['spender', 'bytes32', 'spender']], value: 'u128 allowance; deleted at 0; 2^128−1 is infinite (never decremented)' },
  // Staking and validators (docs/staking.md "State layout").
  { name: 'VALIDATOR', code: 0x10, core: 'P_VALIDATOR', host: 'validatorKey', key: [['account', 'bytes32']], value: 'Validator' },
  { name: 'CONSENSUS_KEY', code: 0x11, core: 'P_CONSENSUS_KEY', host: 'consensusKeyIndexKey', entry: 'consensusKeyEntry', key: [['consensusKey', 'bytes32']], value: 'account[32] of the validator using it' },
  { name: 'DELEGATION', code: 0x12, core: 'P_DELEGATION', host: 'delegationKey', key: [['validator', 'bytes32'], ['delegator', 'bytes32']], value: 'Delegation' },
  { name: 'UNBONDING', code: 0x13, core: 'P_UNBONDING', host: 'unbondingKey', key: [['account', 'bytes32']], value: 'Unbonding' },
  { name: 'STAKING_STATE', code: 0x14, core: 'P_STAKING_STATE', host: 'STAKING_STATE_KEY', key: [], value: 'StakingState' },
  { name: 'CHAIN_PARAMS', code: 0x15, core: 'P_CHAIN_PARAMS', host: 'CHAIN_PARAMS_KEY', key: [], value: 'ChainParams' },
  { name: 'EVIDENCE', code: 0x16, core: 'P_EVIDENCE', host: 'evidenceKey', key: [['account', 'bytes32'], ['height', 'u64le']], value: 'u8 1: one offence per (validator, height)' },
  { name: 'AUTO_COMPOUND', code: 0x17, core: 'P_AUTO_COMPOUND', host: 'autoCompoundKey', key: [['validator', 'bytes32']], value: 'AccountList: delegators with auto_compound on' },
  { name: 'DELEGATOR_INDEX', code: 0x18, core: 'P_DELEGATOR_INDEX', host: 'delegatorIndexKey', key: [['delegator', 'bytes32']], value: 'AccountList: validators the account delegates to (its own included)' },
  // NFT and multi-token collections (spec §4.3, §4.4; docs/collections.md "State layout").
  { name: 'COLLECTION', code: 0x20, core: 'P_COLLECTION', host: 'collectionKey', key: [['collection', 'bytes32']], value: 'Collection' },
  { name: 'NFT', code: 0x21, core: 'P_NFT', host: 'nftKey', key: [['collection', 'bytes32'], ['tokenId', 'u64be']], value: 'Nft' },
  { name: 'NFT_COUNT', code: 0x22, core: 'P_NFT_COUNT', host: 'nftCountKey', key: [['collection', 'bytes32'], ['owner', 'bytes32']], value: 'u64 NFTs held; deleted at 0' },
  { name: 'TOKEN_TYPE', code: 0x23, core: 'P_TOKEN_TYPE', host: 'tokenTypeKey', key: [['collection', 'bytes32'], ['typeId', 'u64be']], value: 'TokenType' },
  { name: 'MULTI_BALANCE', code: 0x24, core: 'P_MULTI_BALANCE', host: 'multiBalanceKey', key: [['collection', 'bytes32'], ['typeId', 'u64be'], ['owner', 'bytes32']], value: 'u128; deleted at 0' },
  // Intent programs (spec §4.9, docs/intents.md "Programs on chain").
  { name: 'PROGRAM', code: 0x30, core: 'P_PROGRAM', host: 'programKey', key: [['name', 'rest']], value: 'Program' },
  { name: 'PROGRAM_COUNT', code: 0x31, core: 'P_PROGRAM_COUNT', host: 'PROGRAM_COUNT_KEY', key: [], value: 'u64 names registered so far' },
  { name: 'PROGRAM_INDEX', code: 0x32, core: 'P_PROGRAM_INDEX', host: 'programIndexKey', key: [['index', 'u64be']], value: 'the name registered at that position (raw bytes)' },
  // Schedules on chain (docs/schedules.md; assembly/domains/schedules/ops.ts).
  { name: 'SCHEDULE', code: 0x33, core: 'P_SCHEDULE', host: 'scheduleKey', key: [['id', 'bytes32']], value: 'Schedule' },
  { name: 'SCHEDULE_SLOT', code: 0x34, core: 'P_SCHEDULE_SLOT', host: 'scheduleSlotKey', key: [['slot', 'u64be']], value: 'ScheduleSlot: the ids queued in that SCHEDULE_SLOT_SECONDS slot, in queue order' },
  { name: 'SCHEDULE_CURSOR', code: 0x35, core: 'P_SCHEDULE_CURSOR', host: 'SCHEDULE_CURSOR_KEY', key: [], value: 'ScheduleCursor' },
  { name: 'SCHEDULE_RUN', code: 0x36, core: 'P_SCHEDULE_RUN', host: 'scheduleRunKey', key: [['id', 'bytes32'], ['run', 'u32be']], value: 'ScheduleRun' },
  // Protocol proposals (spec §4.14; docs/governance.md "State layout"; assembly/domains/governance/ops.ts).
  { name: 'PROPOSAL', code: 0x58, core: 'P_PROPOSAL', host: 'proposalKey', key: [['id', 'u64be']], value: 'Proposal' },
  { name: 'PROPOSAL_VOTE', code: 0x59, core: 'P_PROPOSAL_VOTE', host: 'proposalVoteKey', key: [['id', 'u64be'], ['voter', 'bytes32', 'voter']], value: 'ProposalVote' },
  { name: 'PROPOSAL_COUNT', code: 0x5a, core: 'P_PROPOSAL_COUNT', host: 'PROPOSAL_COUNT_KEY', key: [], value: 'u64 proposals created so far (ids run 1…count)' },
  { name: 'CONTRACT_SAFETY', code: 0x5b, core: 'P_CONTRACT_SAFETY', host: 'contractSafetyKey', key: [['target', 'bytes32', 'target']], value: 'ContractSafety; target = Blake3("contract-safety" ‖ chain ‖ 0x00 ‖ contract)' },
  // DAOs (issue 22 item 5; docs/dao.md; assembly/domains/dao/ops.ts).
  { name: 'DAO', code: 0x61, core: 'P_DAO', host: 'daoKey', key: [['dao', 'bytes32', 'dao']], value: 'Dao' },
  { name: 'DAO_COUNT', code: 0x62, core: 'P_DAO_COUNT', host: 'DAO_COUNT_KEY', key: [], value: 'u64 DAOs created so far (the DAO of id n is Blake3("ntv-dao" ‖ n u64 LE))' },
  { name: 'DAO_PROPOSAL', code: 0x63, core: 'P_DAO_PROPOSAL', host: 'daoProposalKey', key: [['dao', 'bytes32', 'dao'], ['id', 'u64be']], value: 'DaoProposal' },
  { name: 'DAO_VOTE', code: 0x64, core: 'P_DAO_VOTE', host: 'daoVoteKey', key: [['dao', 'bytes32', 'dao'], ['id', 'u64be'], ['voter', 'bytes32', 'voter']], value: 'DaoVote' },
  { name: 'COLLECTION_SAFETY', code: 0x60, core: 'P_COLLECTION_SAFETY', host: 'collectionSafetyKey', key: [['collection', 'bytes32', 'collection']], value: 'CollectionSafety' },
  // Presales (spec §4.5, docs/presales.md): a presale is named by its escrow account.
  { name: 'PRESALE', code: 0x68, core: 'P_PRESALE', host: 'presaleKey', key: [['presale', 'bytes32']], value: 'Presale' },
  { name: 'PRESALE_CONTRIBUTION', code: 0x69, core: 'P_PRESALE_CONTRIBUTION', host: 'presaleContributionKey', entry: 'contributionEntry', key: [['presale', 'bytes32'], ['contributor', 'bytes32']], value: 'PresaleContribution' },
  { name: 'PRESALE_COUNT', code: 0x6a, core: 'P_PRESALE_COUNT', host: 'PRESALE_COUNT_KEY', key: [], value: 'u64 presales created so far (the next id)' },
  // Token staking pools (spec §4.10, docs/staking-pools.md): a pool is named by its stake escrow account (Nx6…).
  { name: 'STAKING_POOL', code: 0x6b, core: 'P_STAKING_POOL', host: 'stakingPoolKey', key: [['pool', 'bytes32']], value: 'StakingPool' },
  { name: 'POOL_STAKE', code: 0x6c, core: 'P_POOL_STAKE', host: 'poolStakeKey', key: [['pool', 'bytes32'], ['staker', 'bytes32']], value: 'PoolStake; deleted when amount and pending are 0' },
  { name: 'STAKING_POOL_COUNT', code: 0x6d, core: 'P_STAKING_POOL_COUNT', host: 'STAKING_POOL_COUNT_KEY', key: [], value: 'u64 staking pools created so far (the next id)' },
  // Settlement with market makers (docs/settlement.md "State layout").
  { name: 'MARKET_MAKER', code: 0x70, core: 'P_MARKET_MAKER', host: 'marketMakerKey', key: [['account', 'bytes32', 'account']], value: 'MarketMaker' },
  { name: 'MARKET_MAKER_INDEX', code: 0x71, core: 'P_MARKET_MAKER_INDEX', host: 'marketMakerIndexKey', key: [['index', 'u64be']], value: 'account[32] of the market maker registered at that position' },
  { name: 'ATOMENCE_ORDER', code: 0x72, core: 'P_ATOMENCE_ORDER', host: 'atomenceOrderKey', entry: 'orderEntry', key: [['orderId', 'bytes32', 'order id']], value: 'AtomenceOrder' },
  { name: 'ATOMENCE_SETTLEMENT', code: 0x73, core: 'P_ATOMENCE_SETTLEMENT', host: 'atomenceSettlementKey', entry: 'settlementIndexEntry', key: [['index', 'u64be']], value: 'order_id[32] of the settlement at that position' },
  { name: 'ATOMENCE_TOKEN_SETTLEMENT', code: 0x74, core: 'P_ATOMENCE_TOKEN_SETTLEMENT', host: 'atomenceTokenSettlementKey', entry: 'tokenSettlementIndexEntry', key: [['token', 'bytes32', 'mint'], ['index', 'u64be']], value: "order_id[32] of the token's settlement at that position (either leg)" },
  { name: 'ATOMENCE_TOKEN_STATS', code: 0x75, core: 'P_ATOMENCE_TOKEN_STATS', host: 'atomenceTokenStatsKey', entry: 'tokenStatsEntry', key: [['token', 'bytes32', 'mint']], value: 'AtomenceStats of the settlements with this token as a leg' },
  { name: 'ATOMENCE_STATS', code: 0x76, core: 'P_ATOMENCE_STATS', host: 'ATOMENCE_STATS_KEY', key: [], value: 'AtomenceStats of all settlements' },
  // Anchoring (docs/anchors.md "State layout"): ids are Blake3 of the namespace and key.
  { name: 'ANCHOR_NAMESPACE', code: 0x77, core: 'P_ANCHOR_NAMESPACE', host: 'anchorNamespaceKey', key: [['namespaceId', 'bytes32', 'namespace id']], value: 'AnchorNamespace' },
  { name: 'ANCHOR', code: 0x78, core: 'P_ANCHOR', host: 'anchorKey', key: [['anchorId', 'bytes32', 'anchor id']], value: 'Anchor' },
  { name: 'ANCHOR_INDEX', code: 0x79, core: 'P_ANCHOR_INDEX', host: 'anchorIndexKey', key: [['namespaceId', 'bytes32', 'namespace id'], ['index', 'u64be']], value: "anchor_id[32] of the namespace's anchor at that position" },
  // Passports and game profiles (docs/passports.md "State layout").
  { name: 'PASSPORT', code: 0x7a, core: 'P_PASSPORT', host: 'passportKey', key: [['owner', 'bytes32', 'owner']], value: 'Passport' },
  { name: 'GAMERTAG', code: 0x7b, core: 'P_GAMERTAG', host: 'gamertagKey', key: [['gamertag', 'rest']], value: 'owner[32]; the key is the gamertag lower-cased' },
  { name: 'GAME', code: 0x7c, core: 'P_GAME', host: 'gameKey', key: [['gameId', 'rest']], value: 'Game' },
  { name: 'GAME_PROFILE', code: 0x7d, core: 'P_GAME_PROFILE', host: 'gameProfileKey', key: [['owner', 'bytes32', 'owner'], ['gameId', 'rest']], value: 'GameProfile' },
  { name: 'PASSPORT_STATS', code: 0x7e, core: 'P_PASSPORT_STATS', host: 'PASSPORT_STATS_KEY', key: [], value: 'PassportStats' },
  // Accounts: recovery, key lists and multi-sig (docs/accounts.md "State layout").
  { name: 'RECOVERY', code: 0x50, core: 'P_RECOVERY', host: 'recoveryKey', key: [['account', 'bytes32', 'account']], value: 'RecoveryConfig' },
  { name: 'RECOVERY_PENDING', code: 0x51, core: 'P_RECOVERY_PENDING', host: 'pendingRecoveryKey', key: [['account', 'bytes32', 'account']], value: 'PendingRecovery' },
  { name: 'KEY_LIST', code: 0x52, core: 'P_KEY_LIST', host: 'keyListKey', key: [['account', 'bytes32', 'account']], value: 'KeyList: hashes of the keys registered other than by revelation' },
  { name: 'MULTISIG', code: 0x53, core: 'P_MULTISIG', host: 'multiSigKey', key: [['multisig', 'bytes32', 'multi-sig address']], value: 'MultiSig' },
  { name: 'MULTISIG_TX', code: 0x54, core: 'P_MULTISIG_TX', host: 'multiSigTxKey', key: [['multisig', 'bytes32', 'multi-sig address'], ['txId', 'u64be']], value: 'MultiSigTx' },
  // Upgrade governance (spec §4.13; docs/upgrades.md "State layout").
  { name: 'UPGRADE_CONFIG', code: 0x5c, core: 'P_UPGRADE_CONFIG', host: 'UPGRADE_CONFIG_KEY', key: [], value: 'UpgradeConfig (absent: the defaults, seed-authority without an authority key, 67%, 500 blocks)' },
  { name: 'UPGRADE_PLAN', code: 0x5d, core: 'P_UPGRADE_PLAN', host: 'upgradePlanKey', key: [['name', 'rest']], value: 'UpgradePlan' },
  { name: 'UPGRADE_VOTE', code: 0x5e, core: 'P_UPGRADE_VOTE', host: 'upgradeVoteKey', key: [['voter', 'bytes32', 'voter'], ['name', 'rest']], value: 'u8 1 approve, 0 reject' },
  { name: 'UPGRADE_STATE', code: 0x5f, core: 'P_UPGRADE_STATE', host: 'UPGRADE_STATE_KEY', key: [], value: 'UpgradeState' },
  // STD-8 stablecoins (spec §2.1; docs/stablecoins.md "State layout").
  // The bridge (spec §4.6; docs/bridge.md "State layout").
  { name: 'BRIDGE_CONFIG', code: 0x48, core: 'P_BRIDGE_CONFIG', host: 'BRIDGE_CONFIG_KEY', key: [], value: 'BridgeConfig (singleton)' },
  { name: 'BRIDGE_DEPOSIT', code: 0x49, core: 'P_BRIDGE_DEPOSIT', host: 'bridgeDepositKey', key: [['id', 'bytes32', 'deposit id']], value: 'BridgeDepositRecord; id = Blake3("bridge-deposit" ‖ chain ‖ 0x00 ‖ tx_hash)' },
  { name: 'BRIDGE_MAPPING', code: 0x4a, core: 'P_BRIDGE_MAPPING', host: 'bridgeMappingKey', key: [['target', 'bytes32', 'target']], value: 'BridgeMapping; target = Blake3("bridge-mapping" ‖ chain ‖ 0x00 ‖ contract)' },
  { name: 'BRIDGE_TOKEN', code: 0x4b, core: 'P_BRIDGE_TOKEN', host: 'bridgeTokenKey', key: [['mint', 'bytes32', 'mint']], value: 'BridgedToken: what the bridge minted and burned of a token' },
  { name: 'BRIDGE_WITHDRAWAL', code: 0x4c, core: 'P_BRIDGE_WITHDRAWAL', host: 'bridgeWithdrawalKey', key: [['sequence', 'u64be']], value: 'BridgeWithdrawalRecord' },
  { name: 'STABLE', code: 0x40, core: 'P_STABLE', host: 'stableKey', key: [['mint', 'bytes32', 'mint']], value: 'StableCoin' },
  { name: 'STABLE_BLACKLIST', code: 0x41, core: 'P_STABLE_BLACKLIST', host: 'stableBlacklistKey', key: [['mint', 'bytes32', 'mint'], ['account', 'bytes32', 'account']], value: 'u8 1: the account is blacklisted for the token' },
  { name: 'STABLE_BLACKLIST_INDEX', code: 0x43, core: 'P_STABLE_BLACKLIST_INDEX', host: 'stableBlacklistIndexKey', key: [['mint', 'bytes32', 'mint']], value: '256 × u32: blacklisted addresses per last address byte (the movement check looks an address up in 0x41 only when its byte counts some); deleted when the blacklist is empty' },
  { name: 'STABLE_PROFILE', code: 0x42, core: 'P_STABLE_PROFILE', host: 'stableProfileKey', key: [['mint', 'bytes32', 'mint']], value: 'StableProfile' },
  { name: 'STABLE_ONBOARDING', code: 0x44, core: 'P_STABLE_ONBOARDING', host: 'stableOnboardingKey', key: [['mint', 'bytes32', 'mint']], value: 'StableOnboarding: the issuer-onboarding proofs recorded for the token (spec §4.16); absent until the first' },
  // The state root's derived records (docs/core-abi.md "State root").
  { name: 'ROOT_BUCKET', code: 0xf0, core: 'P_BUCKET', host: 'bucketKey', key: [['bucket', 'u16be']], value: 'sorted (path[32], leaf[32]) pairs of a bucket of at most 16 entries (a larger one is stored as 0xf3 slices; a record written before slices may be larger)' },
  { name: 'ROOT_NODE', code: 0xf1, core: 'P_NODE', host: 'nodeKey', key: [['index', 'u32be']], value: 'hash[32] of an internal node' },
  { name: 'ROOT_GROUP', code: 0xf2, core: 'P_GROUP', host: 'groupKey', key: [['group', 'u16be']], value: 'hash[32] × 16: the bucket hashes of buckets 16·group … 16·group + 15 (zero for an empty bucket); absent when all 16 are empty' },
  { name: 'ROOT_SLICE', code: 0xf3, core: 'P_SLICE', host: 'sliceKey', key: [['bucket', 'u16be'], ['slice', 'u8']], value: 'sorted (path[32], leaf[32]) pairs: the entries of a bucket of more than 16 entries whose path[2] >> 4 is the slice (0–15); absent when none. A bucket is stored as one 0xf0 record or as these, never both (docs/state-root.md "Bucket slices")' },
];

const r = (name, type, doc) => ({ name, type, doc });

export const records = {
  FailedBundle: { doc: 'a bundle that failed at the account\'s current nonce and may not be included again', fields: [
    r('hash', 'bytes32'), r('expiry', 'u64', 'unix seconds: min(valid_until, expiry_timestamp)'),
  ] },
  Account: { doc: 'docs/core-abi.md "Failed bundles: fee and replay" for the list', hostOffsets: true, fields: [
    r('nonce', 'u64'), r('keyCount', 'u16'),
    r('failed', ['tail', 'FailedBundle'], 'present only while bundles that failed at this nonce are listed'),
  ] },
  Token: { doc: 'TokenRecord (docs/core-abi.md "State layout")', fields: [
    r('version', 'u8'), r('name', 'string'), r('symbol', 'string'), r('decimals', 'u8'),
    r('totalSupply', 'u128'), r('initialSupply', 'u128'), r('creator', 'bytes32'), r('owner', 'bytes32'),
    r('createdAt', 'u64'), r('createdHeight', 'u64'),
    r('kind', 'u8', '0 native, 1 STD-7, 2 STD-8 stablecoin, 3 bridge-canonical'), r('flags', 'u8', 'bit0 metadata mutable'),
    r('originChain', 'string'), r('originContract', 'string'),
  ] },
  Key: { doc: 'a registered signing key (docs/accounts.md)', fields: [
    r('keyType', 'u8', '0 Ed25519, 1 ML-DSA-65'), r('role', 'u8', '0 owner (full authority), 1 operator'), r('pubkey', 'bytes'),
    r('addedHeight', 'u64', 'the block that registered it'), r('addedAt', 'u64', 'unix seconds of that block'),
  ] },
  KeyList: { doc: 'the keys of an account registered by AddKey, RotateKey or recovery (0x52); a revealed key (its hash is the account) is not listed', fields: [r('keyHashes', 'rest32')] },
  RecoveryConfig: { doc: 'an account\'s guardians (0x50, docs/accounts.md "Recovery")', fields: [
    r('version', 'u8'), r('threshold', 'u8'), r('timelock', 'u64', 'seconds'), r('guardians', 'vec32'),
  ] },
  PendingRecovery: { doc: 'a recovery in progress (0x51)', fields: [
    r('version', 'u8'), r('keyType', 'u8'), r('initiatedAt', 'u64', 'unix seconds'), r('initiatedHeight', 'u64'),
    r('approvals', 'vec32', 'guardians that approved, in order'), r('pubkey', 'bytes', 'the recovery key'),
  ] },
  MultiSig: { doc: 'a multi-sig account (0x53, docs/multisig.md)', fields: [
    r('version', 'u8'), r('threshold', 'u8'), r('creator', 'bytes32'), r('createdHeight', 'u64'), r('createdAt', 'u64'),
    r('nextTxId', 'u64', 'the id the next proposal gets'), r('signers', 'vec32'), r('label', 'string'),
  ] },
  MultiSigTx: { doc: 'a multi-sig proposal (0x54)', fields: [
    r('version', 'u8'), r('state', 'u8', '0 pending, 1 executed, 2 failed (its operations reverted)'), r('proposer', 'bytes32'),
    r('createdHeight', 'u64'), r('createdAt', 'u64'), r('expiresAt', 'u64', 'unix seconds after which it can no longer be approved'),
    r('executedHeight', 'u64', '0 while pending'), r('status', 'u16', 'the status of its execution (0 OK)'),
    r('approvals', 'vec32', 'signers that approve it now'), r('description', 'string'), r('operations', 'bytes', 'the Borsh Vec<Operation>'),
  ] },
  Pool: { doc: 'PoolRecord (docs/dex.md "State layout")', hostOffsets: true, fields: [
    r('version', 'u8'), r('token0', 'bytes32'), r('token1', 'bytes32'),
    r('reserve0', 'u128'), r('reserve1', 'u128'), r('lpSupply', 'u128'), r('creator', 'bytes32'),
    r('createdAt', 'u64'), r('createdHeight', 'u64'), r('lockUntil', 'u64'), r('creatorLockedLp', 'u128'),
    r('price0Cumulative', 'u256', 'Σ floor(reserve1·2^64/reserve0)·Δt, Q64.64 × seconds, mod 2^256'), r('price1Cumulative', 'u256'),
    r('lastUpdate', 'u64'),
  ] },
  TokenMetadata: { doc: 'spec §2.3/§4.1 metadata; an empty string is unset', fields: [
    r('version', 'u8'), r('metadataUri', 'string'), r('image', 'string'), r('description', 'string'), r('externalUrl', 'string'),
    r('twitter', 'string'), r('discord', 'string'), r('telegram', 'string'), r('github', 'string'),
  ] },
  Name: { doc: 'docs/names.md', fields: [r('version', 'u8'), r('owner', 'bytes32'), r('registeredHeight', 'u64'), r('registeredAt', 'u64', 'unix seconds')] },
  Validator: { doc: 'ValidatorRecord (docs/staking.md "State layout"); u64 MAX = never', fields: [
    r('version', 'u8'), r('consensusKey', 'bytes32'), r('selfStake', 'u128'), r('delegated', 'u128'), r('commissionBps', 'u16'),
    r('lastCommissionChange', 'u64'), r('jailed', 'flag'), r('jailReleaseTime', 'u64'), r('offences', 'u32'), r('missedInRow', 'u32'),
    r('blocksProposed', 'u64'), r('blocksMissed', 'u64'), r('performanceBps', 'u16'), r('active', 'flag'),
    r('createdHeight', 'u64'), r('createdTime', 'u64'), r('accRewardPerShare', 'u128'), r('rewardPool', 'u128'), r('totalRewards', 'u128'),
    r('hasPendingKey', 'flag'), r('pendingKey', 'bytes32'), r('lastRotationEpoch', 'u64'), r('poolEnabled', 'flag'),
    r('minDelegation', 'u128'), r('autoCompoundDefault', 'flag'), r('bundlesIncluded', 'u64'),
    r('name', 'string'), r('description', 'string'), r('website', 'string'), r('avatarUrl', 'string'), r('poolName', 'string'),
  ] },
  Delegation: { doc: 'deleted when amount and pending are 0', fields: [
    r('amount', 'u128'), r('rewardDebt', 'u128'), r('pending', 'u128', 'rewards settled but not yet claimed'), r('autoCompound', 'flag'), r('since', 'u64'),
  ] },
  UnbondingEntry: { doc: 'one unbonding', fields: [r('amount', 'u128'), r('releaseTime', 'u64', 'unix seconds from which ClaimUnstake pays it out')] },
  Unbonding: { doc: 'at most 32 entries', fields: [r('entries', ['list', 'UnbondingEntry'])] },
  AccountList: { doc: 'the lists of 0x17 (delegators with auto_compound on) and 0x18 (validators an account delegates to)', fields: [r('accounts', 'vec32')] },
  StakingState: { doc: 'the singleton 0x14 (docs/staking.md)', fields: [
    r('version', 'u8'), r('epoch', 'u64'), r('emissionStart', 'u64'), r('lastTimestamp', 'u64'),
    r('emitted', 'u128'), r('carry', 'u128'), r('totalStaked', 'u128'), r('validators', 'vec32'), r('active', 'vec32'),
  ] },
  ChainParams: { doc: 'the singleton 0x15, also the genesis encoding (docs/staking.md "Chain parameters")', encode: true, fields: [
    r('version', 'u8'), r('epochLength', 'u64'), r('slotLength', 'u64'), r('maxActiveValidators', 'u32'), r('minStake', 'u128'),
    r('unbondingSeconds', 'u64'), r('commissionCooldownBlocks', 'u64'), r('maxCommissionBps', 'u16'), r('missedSkipThreshold', 'u32'),
    r('jailDurations', 'vecu64', '1–16 entries'),
    r('governance', ['tail', 'GovParams'], 'protocol governance parameters (docs/governance.md "Parameters"): absent = the defaults; written when a parameter-change proposal sets one'),
  ] },
  GovParams: { doc: 'the governance part of ChainParams (docs/governance.md "Parameters")', fields: [
    r('votingPeriodBlocks', 'u64'), r('quorumBps', 'u16', 'votes cast ≥ this share of the bonded stake at creation'),
    r('thresholdBps', 'u16', 'yes > this share of the votes cast'),
  ] },
  Proposal: { doc: 'ProposalRecord (docs/governance.md "State layout")', core: 'R_PROPOSAL', fields: [
    r('version', 'u8'), r('proposer', 'bytes32'), r('proposalKind', 'u8', 'the ProposalAction tag'),
    r('state', 'u8', '0 voting (passed or rejected once end_height is behind), 1 executed, 2 cancelled'),
    r('createdHeight', 'u64'), r('createdAt', 'u64'), r('endHeight', 'u64', 'the last height at which votes count'),
    r('quorumBps', 'u16'), r('thresholdBps', 'u16'), r('totalStake', 'u128', 'bonded stake when it was created (the quorum base)'),
    r('yes', 'u128'), r('no', 'u128'), r('voters', 'u32'), r('executedHeight', 'u64'),
    r('action', 'bytes', 'the ProposalAction as in the operation: its tag, then its fields'),
    r('title', 'string'), r('description', 'string'),
  ] },
  ProposalVote: { doc: 'one vote (0x59)', core: 'R_PROPOSAL_VOTE', fields: [r('approve', 'flag'), r('weight', 'u128', "the voter's bonded stake when it voted"), r('height', 'u64')] },
  Dao: { doc: 'a DAO (0x61; docs/dao.md)', core: 'R_DAO', fields: [
    r('version', 'u8'), r('id', 'u64'), r('creator', 'bytes32'), r('tokenMint', 'bytes32'),
    r('quorumBps', 'u16'), r('thresholdBps', 'u16'), r('votingPeriod', 'u64'), r('executionDelay', 'u64'),
    r('proposalThreshold', 'u128'), r('createdHeight', 'u64'), r('proposalCount', 'u64', 'proposals created (ids run 1…count)'),
    r('name', 'string'),
  ] },
  DaoProposal: { doc: 'a DAO proposal (0x63)', core: 'R_DAO_PROPOSAL', fields: [
    r('version', 'u8'), r('proposer', 'bytes32'), r('proposalKind', 'u8', 'the DaoAction tag'),
    r('state', 'u8', '0 voting (passed or rejected once end_height is behind), 1 executed, 2 cancelled'),
    r('createdHeight', 'u64'), r('endHeight', 'u64', 'the last height at which votes count'),
    r('executionDelay', 'u64', 'executable once height > end_height + this'),
    r('quorumBps', 'u16'), r('thresholdBps', 'u16'), r('supply', 'u128', "the token's total supply when it was created (the quorum base)"),
    r('yes', 'u128'), r('no', 'u128'), r('voters', 'u32'), r('executedHeight', 'u64'),
    r('action', 'bytes', 'the DaoAction as in the operation: its tag, then its fields'),
    r('title', 'string'), r('description', 'string'),
  ] },
  DaoVote: { doc: 'one DAO vote (0x64)', core: 'R_DAO_VOTE', fields: [r('approve', 'flag'), r('weight', 'u128', 'the tokens locked in the escrow'), r('height', 'u64'), r('unlocked', 'flag', 'the locked tokens were returned')] },
  ContractSafety: { doc: 'a contract safety level set by governance (0x5B)', fields: [
    r('version', 'u8'), r('level', 'u8', '1 verified, 2 caution, 3 blocked'), r('proposalId', 'u64'), r('height', 'u64'), r('chain', 'string'), r('contract', 'string'),
  ] },
  CollectionSafety: { doc: 'a collection safety level set by governance (0x60)', core: 'R_COLLECTION_SAFETY', fields: [
    r('version', 'u8'), r('level', 'u8', '1 verified, 2 caution, 3 blocked'), r('proposalId', 'u64'), r('height', 'u64'),
  ] },
  Collection: { doc: 'CollectionRecord (docs/collections.md "State layout")', fields: [
    r('version', 'u8'), r('kind', 'u8', '0 NFT, 1 multi-token'), r('owner', 'bytes32'), r('creator', 'bytes32'), r('royaltyBps', 'u16'),
    r('maxSupply', 'u64'), r('minted', 'u64'), r('burned', 'u64'), r('createdHeight', 'u64'), r('createdAt', 'u64'),
    r('name', 'string'), r('symbol', 'string'), r('baseUri', 'string'), r('description', 'string'),
    r('iconUri', 'string'), r('bannerUri', 'string'), r('externalUrl', 'string'),
  ] },
  Nft: { doc: 'deleted on a burn', fields: [r('version', 'u8'), r('owner', 'bytes32'), r('mintedHeight', 'u64'), r('mintedAt', 'u64'), r('metadataUri', 'string')] },
  TokenType: { doc: 'TokenTypeRecord (docs/collections.md "State layout")', fields: [
    r('version', 'u8'), r('isFungible', 'flag'), r('maxSupply', 'u128'), r('minted', 'u128'), r('burned', 'u128'), r('createdHeight', 'u64'),
    r('name', 'string'), r('metadataUri', 'string'),
  ] },
  Program: { doc: 'ProgramRecord (docs/intents.md "Programs on chain")', fields: [
    r('version', 'u8'), r('owner', 'bytes32'), r('revision', 'u32'), r('index', 'u64'), r('registeredHeight', 'u64'), r('registeredAt', 'u64'),
    r('updatedHeight', 'u64'), r('updatedAt', 'u64'), r('hash', 'bytes32', 'Blake3 of the JSON'), r('json', 'string', 'the program JSON text'),
  ] },
  Schedule: { doc: 'ScheduleRecord (docs/schedules.md); a Recurring one leaves the Conditional fields zero and the other way round', core: 'R_SCHEDULE', fields: [
    r('version', 'u8'), r('owner', 'bytes32'), r('kind', 'u8', 'the trigger tag: 0 Recurring, 1 Conditional'),
    r('state', 'u8', '0 active, 1 completed, 2 failed, 3 expired, 4 cancelled'),
    r('createdHeight', 'u64'), r('createdAt', 'u64'), r('nextDue', 'u64', 'unix seconds of the next run or condition check'),
    r('queuedSlot', 'u64'), r('runsDone', 'u32'), r('runsOk', 'u32'), r('lastHeight', 'u64'), r('lastStatus', 'u16'),
    r('intervalSeconds', 'u64'), r('runsTotal', 'u32'), r('expiry', 'u64'), r('direction', 'u8', '0 below, 1 above'),
    r('base', 'bytes32'), r('quote', 'bytes32'), r('priceNum', 'u128'), r('priceDen', 'u128'),
    r('operations', 'bytes', 'the Borsh Vec<Operation> each run executes'),
  ] },
  MarketMaker: { doc: 'docs/settlement.md "State layout"; kept after deregistering (active 0, stake 0)', core: 'R_MM', fields: [
    r('version', 'u8'), r('tier', 'u8', '1–3'), r('active', 'flag'), r('stake', 'u128', 'NTV held in its stake escrow'),
    r('index', 'u64', 'its position in 0x71'), r('registeredHeight', 'u64'), r('updatedHeight', 'u64'),
    r('openMatches', 'u32', 'matched orders not yet settled or cancelled'), r('settledCount', 'u64'), r('spreadSum', 'u64', 'Σ spread_bps of its settlements'),
  ] },
  AtomenceOrder: { doc: 'the full lifecycle record (docs/settlement.md "States")', core: 'R_ORDER', fields: [
    r('version', 'u8'), r('state', 'u8', '0 open, 1 matched, 2 settled, 3 cancelled, 4 expired (refunded after its expiry)'),
    r('creator', 'bytes32'), r('sellToken', 'bytes32'), r('sellAmount', 'u128'), r('buyToken', 'bytes32'), r('minBuyAmount', 'u128'),
    r('expiry', 'u64'), r('createdHeight', 'u64'), r('createdAt', 'u64'),
    r('marketMaker', 'bytes32', 'zero until matched'), r('bidAmount', 'u128'), r('askAmount', 'u128'), r('spreadBps', 'u16'),
    r('matchedHeight', 'u64'), r('matchedAt', 'u64'), r('closedHeight', 'u64', 'settled, cancelled or expired at'), r('closedAt', 'u64'),
  ] },
  AtomenceStats: { doc: '0x75 per token and 0x76 for all (docs/settlement.md "Statistics"); 0x75 leaves the last two 0', core: 'R_ASTATS', fields: [
    r('settledCount', 'u64'), r('totalVolume', 'u256', 'Σ raw units of the legs (of this token for 0x75; of both legs, whatever the token, for 0x76)'),
    r('spreadSum', 'u64', 'Σ spread_bps'), r('lastSettlementBlock', 'u64'),
    r('marketMakers', 'u64', 'makers ever registered: the length of 0x71'), r('activeMarketMakers', 'u64'),
  ] },
  AnchorNamespace: { doc: 'docs/anchors.md: the first writer owns the namespace', core: 'R_ANS', fields: [
    r('version', 'u8'), r('owner', 'bytes32'), r('createdHeight', 'u64'), r('createdAt', 'u64'), r('count', 'u64', 'anchors in it: the length of its 0x79 index'), r('name', 'string'),
  ] },
  Anchor: { doc: 'docs/anchors.md: write-once', core: 'R_ANCHOR', fields: [
    r('version', 'u8'), r('anchorer', 'bytes32'), r('valueHash', 'bytes32'), r('height', 'u64'), r('time', 'u64'), r('index', 'u64', 'its position in the namespace'),
    r('namespace', 'string'), r('key', 'string'),
  ] },
  Passport: { doc: 'docs/passports.md: one per account, never transferred', core: 'R_PASSPORT', fields: [
    r('version', 'u8'), r('createdHeight', 'u64'), r('createdAt', 'u64'), r('games', 'u32', 'games with a profile for it'), r('gamertag', 'string', 'as its owner wrote it'),
  ] },
  Game: { doc: 'docs/passports.md', core: 'R_GAME', fields: [
    r('version', 'u8'), r('publisher', 'bytes32'), r('createdHeight', 'u64'), r('createdAt', 'u64'), r('profiles', 'u64'), r('name', 'string'),
  ] },
  GameProfile: { doc: "docs/passports.md: written by the game's publisher", core: 'R_PROFILE', fields: [
    r('version', 'u8'), r('score', 'u64'), r('revision', 'u32', '1 at the first write'), r('createdHeight', 'u64'), r('updatedHeight', 'u64'), r('updatedAt', 'u64'), r('data', 'string'),
  ] },
  PassportStats: { doc: 'the singleton 0x7E', core: 'R_PSTATS', fields: [r('passports', 'u64'), r('games', 'u64'), r('profiles', 'u64')] },
  UpgradeConfig: { doc: 'the singleton 0x5C, written at genesis from the governance flags (docs/upgrades.md "Governance configuration")', core: 'R_UPGRADE_CONFIG', encode: true, fields: [
    r('version', 'u8'), r('mode', 'u8', '0 seed-authority, 1 full'), r('quorumPct', 'u8', '1–100: percent of the active stake whose approval passes a plan in full mode'),
    r('votingPeriod', 'u64', 'blocks from scheduling during which votes count'), r('authority', 'bytes32', 'seed-authority: the account of --upgrade-authority (zero: none)'),
  ] },
  UpgradePlan: { doc: 'one plan by name (0x5D; docs/upgrades.md "Plans")', core: 'R_UPGRADE_PLAN', fields: [
    r('version', 'u8'), r('state', 'u8', '0 pending, 1 approved, 2 rejected, 3 cancelled, 4 expired, 5 applied'),
    r('proposer', 'bytes32'), r('height', 'u64', 'the first block of the new release'), r('createdHeight', 'u64'),
    r('deadline', 'u64', 'the last block in which a vote counts'), r('decidedHeight', 'u64', 'when it left pending (0 while pending)'),
    r('checksum', 'bytes32', 'SHA-256 of the packed release'), r('yes', 'u128', 'full mode: the approving stake at the last tally; seed-authority: 1 once approved'),
    r('no', 'u128', 'full mode: the rejecting stake at the last tally'), r('binaryUrl', 'string'), r('infoUrl', 'string'),
  ] },
  UpgradeState: { doc: 'the singleton 0x5F (docs/upgrades.md "Plans")', core: 'R_UPGRADE_STATE', fields: [
    r('version', 'u8'), r('appliedHeight', 'u64', 'the height of the last applied upgrade (0: none); grace lasts UPGRADE_GRACE_BLOCKS from it'),
    r('active', 'string', 'the pending or approved plan (empty: none)'), r('applied', 'string', 'the last applied plan (empty: none)'),
  ] },
  ScheduleSlot: { doc: 'the ids queued in one slot of the due index (0x34)', fields: [r('ids', 'rest32')] },
  ScheduleCursor: { doc: 'the due index cursor (0x35)', core: 'R_SCHEDULE_CURSOR', fields: [
    r('nextSlot', 'u64', 'the first slot not yet fully processed'), r('active', 'u64', 'schedules still active'),
  ] },
  ScheduleRun: { doc: 'one run of a schedule (0x36)', core: 'R_SCHEDULE_RUN', fields: [
    r('height', 'u64'), r('time', 'u64'), r('status', 'u16'), r('gasUsed', 'u64'), r('fee', 'u128'),
  ] },
  Presale: { doc: 'PresaleRecord (docs/presales.md "State layout"); amounts in raw units', core: 'R_PRESALE', fields: [
    r('version', 'u8'), r('id', 'u64'), r('creator', 'bytes32'), r('token', 'bytes32', 'the token sold'), r('payToken', 'bytes32', 'the token contributions are paid in'),
    r('rate', 'u128', 'sale-token raw units per PRESALE_RATE_SCALE raw units of the pay token'),
    r('softCap', 'u128'), r('hardCap', 'u128'), r('minContribution', 'u128'), r('maxContribution', 'u128', 'per contributor, in total'),
    r('startTime', 'u64'), r('endTime', 'u64'), r('liquidityBps', 'u16', 'share of the raise paired into the DEX pool'), r('lpLockDuration', 'u64', 'seconds'),
    r('raised', 'u128'), r('contributors', 'u32'), r('flags', 'u8', 'bit0 finalized, bit1 the creator took its escrow back'),
    r('saleEscrow', 'u128', 'tokens escrowed for contributors at the hard cap'), r('liquidityEscrow', 'u128', 'tokens escrowed for the pool at the hard cap'),
    r('createdAt', 'u64'), r('createdHeight', 'u64'), r('finalizedAt', 'u64'), r('finalizedHeight', 'u64'),
    r('liquidityPaid', 'u128', 'pay tokens put into the pool'), r('liquidityTokens', 'u128', 'sale tokens put into the pool'),
    r('lpLocked', 'u128', "the creator's LP units, locked in the pool record"), r('lpLockUntil', 'u64'),
    r('tokensSold', 'u128', 'floor(raised·rate/scale): reserved in escrow for the claims'), r('creatorProceeds', 'u128', 'the raise released to the creator'),
  ] },
  PresaleContribution: { doc: "one contributor's total (docs/presales.md)", core: 'R_CONTRIB', fields: [
    r('amount', 'u128'), r('state', 'u8', '0 open, 1 tokens claimed, 2 refunded'),
  ] },
  StakingPool: { doc: 'StakingPoolRecord (docs/staking-pools.md "State layout")', core: 'R_SPOOL', fields: [
    r('version', 'u8'), r('id', 'u64'), r('creator', 'bytes32'), r('stakeMint', 'bytes32'), r('rewardMint', 'bytes32', 'the reward source: the token rewards are paid in, from the pool reward account'),
    r('rewardRate', 'u128', 'reward raw units per block for the whole pool'), r('lockPeriod', 'u64', 'seconds a stake stays locked after the last StakeToPool'),
    r('capacity', 'u128', 'most staked in all; 0 = no limit'), r('perUserCap', 'u128', 'most staked by one account; 0 = no limit'),
    r('totalStaked', 'u128'), r('accRewardPerShare', 'u128', 'Σ reward·STAKING_POOL_ACC_SCALE/totalStaked'), r('lastHeight', 'u64'),
    r('allocated', 'u128', 'accrued to stakers and not yet claimed: held back from the reward account'), r('paid', 'u128', 'claimed in all'),
    r('stakers', 'u32'), r('createdAt', 'u64'), r('createdHeight', 'u64'),
  ] },
  PoolStake: { doc: "one staker's position (docs/staking-pools.md)", core: 'R_PSTAKE', fields: [
    r('amount', 'u128'), r('accSnapshot', 'u128', 'accRewardPerShare when pending was last settled'), r('pending', 'u128', 'settled, not yet claimed'), r('unlockAt', 'u64', 'unix seconds'),
  ] },
  // STD-8 stablecoins (docs/stablecoins.md "State layout"). `paused` is TokenRecord.flags bit 1.
  StableMinter: { doc: 'a configured minter', fields: [
    r('minter', 'bytes32'), r('allowance', 'u128', 'what it may still mint in all'), r('epochLimit', 'u128', 'most per epoch; 0 = none'),
    r('epoch', 'u64', 'the epoch (height / epoch_length) mintedInEpoch counts'), r('mintedInEpoch', 'u128'),
  ] },
  StablePending: { doc: 'a pending change or mint', fields: [
    r('id', 'u64'), r('kind', 'u8', '0 role change, 1 minter addition, 2 handover, 3 mint awaiting cosigners'),
    r('role', 'u8', 'kind 0: 0 owner, 1 master_minter, 2 pauser, 3 blacklister'),
    r('effectiveHeight', 'u64', 'kinds 0–2: executable from this height; kind 3: the height it was requested'),
    r('proposer', 'bytes32', 'who queued it'),
    r('a', 'bytes32', 'role: the new address; minter addition: the minter; handover: the new owner; mint: the minter'),
    r('b', 'bytes32', 'handover: the new master minter; mint: the recipient'), r('c', 'bytes32', 'handover: the new pauser'), r('d', 'bytes32', 'handover: the new blacklister'),
    r('amount', 'u128', 'minter addition: allowance; mint: the amount'), r('amount2', 'u128', 'minter addition: epoch limit'),
    r('approvals', 'u8', 'mint: bit i = cosigner i approved'),
  ] },
  StableCoin: { doc: 'the STD-8 record (0x40)', core: 'R_STABLE', fields: [
    r('version', 'u8'), r('owner', 'bytes32'), r('masterMinter', 'bytes32'), r('pauser', 'bytes32'), r('blacklister', 'bytes32'),
    r('flags', 'u8', 'bit 0 mint_frozen, bit 1 quantum_required'), r('verification', 'u8', 'spec §2.2: 0 Pending, 1 Verified, 2 Issuer-Held'),
    r('timelock', 'u64', 'blocks'), r('epochLength', 'u64', 'blocks'), r('mintThreshold', 'u128', '0 = no cosigning'), r('requiredSigners', 'u8'),
    r('supplyCap', 'u128', '0 = no cap'), r('blacklisted', 'u64', 'addresses blacklisted now'), r('nextPendingId', 'u64'), r('createdHeight', 'u64'),
    r('guardians', 'vec32'), r('cosigners', 'vec32'), r('minters', ['list', 'StableMinter']), r('pending', ['list', 'StablePending']),
  ] },
  BridgeConfig: { doc: 'the attester set and the withdrawal counter (0x48)', fields: [
    r('version', 'u8'), r('threshold', 'u8'), r('nextSequence', 'u64', 'the sequence number of the next withdrawal'), r('attesters', 'vec32'),
  ] },
  BridgeDepositRecord: { doc: 'one attested deposit (0x49): credited, or held as a pending receive', fields: [
    r('version', 'u8'), r('state', 'u8', '0 pending, 1 credited'), r('reason', 'u16', 'pending: the status that holds it (TOKEN_PAUSED, MINT_FROZEN, SUPPLY_CAP_EXCEEDED)'),
    r('mint', 'bytes32'), r('recipient', 'bytes32'), r('amount', 'u128'), r('height', 'u64', 'attested at'), r('creditedHeight', 'u64', '0 while pending'),
    r('chain', 'string'), r('txHash', 'string'), r('contract', 'string'),
  ] },
  BridgeMapping: { doc: 'a registered origin contract (0x4A)', fields: [r('version', 'u8'), r('mint', 'bytes32'), r('height', 'u64'), r('chain', 'string'), r('contract', 'string')] },
  BridgedToken: { doc: 'bridge totals of a token (0x4B)', core: 'R_BRIDGED', fields: [
    r('version', 'u8'), r('flags', 'u8', 'bit 0 impersonation (reserved symbol, contract not in the mappings)'), r('deposited', 'u128'), r('withdrawn', 'u128'),
  ] },
  BridgeWithdrawalRecord: { doc: 'one withdrawal (0x4C)', fields: [
    r('version', 'u8'), r('state', 'u8', '0 pending, 1 attested'), r('sender', 'bytes32'), r('mint', 'bytes32'), r('amount', 'u128'), r('fee', 'u128', 'raw NTV to the treasury'),
    r('height', 'u64'), r('attestedHeight', 'u64'), r('chain', 'string'), r('destination', 'string'),
  ] },
  StableIssuerProof: { doc: 'one issuer-onboarding proof (spec §4.16; docs/stablecoins.md "Issuer onboarding")', fields: [
    r('method', 'u8', '0 admin_signature, 1 domain, 2 documents'), r('by', 'bytes32', 'who recorded it (the foundation or governance)'), r('height', 'u64'),
    r('chainId', 'u64', 'admin_signature: the origin EVM chain id; 0 otherwise'),
    r('subject', 'bytes32', 'admin_signature: the admin EVM address (last 20 bytes); otherwise SHA-256 of the evidence'),
    r('detail', 'string', 'domain: the domain; documents: the reference; admin_signature: empty'), r('signature', 'bytes', 'admin_signature: the 65-byte signature; otherwise empty'),
  ] },
  StableOnboarding: { doc: 'the issuer-onboarding record (0x44): the proofs in the order recorded, at most one per method', fields: [
    r('version', 'u8'), r('proofs', ['list', 'StableIssuerProof']),
  ] },
  StableOrigin: { doc: 'an origin-chain mapping', fields: [r('chain', 'string'), r('contract', 'string')] },
  StableProfile: { doc: 'the STD-8 profile (0x42), written at creation', fields: [
    r('version', 'u8'), r('currency', 'string'), r('issuer', 'string'), r('launchOrigin', 'string', 'spec §2.1 launch_origin; empty for STD-8'),
    r('origins', ['list', 'StableOrigin']),
  ] },
};
