// Event kinds and data (docs/core-abi.md "Event kinds and data"): Event { bundle_index u32,
// op_index u16, kind u8, data Vec<u8> }; one row per kind with its data fields in order. Field
// types: bytes32 u8 u16 u32 u64 u128; 'entries' (count u32, then count × { type_id u64, amount u128 });
// 'rest' (the remaining bytes). `bytes` is the data length of a fixed-size kind, checked by the
// generator against the fields. `accounts` lists the account fields the explorer's address
// history indexes (src/chain/indexer.ts); Fee names the proposer and the treasury in every bundle
// and is left out on purpose.

export const events = [
  { name: 'Transfer', code: 0, core: 'EV_TRANSFER', bytes: 112, accounts: ['from', 'to'], fields: [['from', 'bytes32'], ['to', 'bytes32'], ['token', 'bytes32'], ['amount', 'u128']] },
  { name: 'TokenCreated', code: 1, core: 'EV_TOKEN_CREATED', bytes: 112, accounts: ['creator', 'owner'], fields: [['mint', 'bytes32'], ['creator', 'bytes32'], ['owner', 'bytes32'], ['supply', 'u128']] },
  { name: 'KeyRegistered', code: 2, core: 'EV_KEY_REGISTERED', bytes: 65, accounts: ['account'], fields: [['account', 'bytes32'], ['keyHash', 'bytes32'], ['keyType', 'u8']] },
  { name: 'Fee', code: 3, core: 'EV_FEE', bytes: 128, accounts: [], fields: [['payer', 'bytes32'], ['proposer', 'bytes32'], ['toProposer', 'u128'], ['treasury', 'bytes32'], ['toTreasury', 'u128']] },
  // DEX and token metadata (docs/dex.md "Events"); token0 < token1 bytewise. The pool is indexed as
  // well as the trader or provider: tokens move both ways between them.
  { name: 'PoolCreated', code: 4, core: 'EV_POOL_CREATED', bytes: 200, accounts: ['pool', 'creator'], fields: [
    ['pool', 'bytes32'], ['token0', 'bytes32'], ['token1', 'bytes32'], ['creator', 'bytes32'],
    ['amount0', 'u128'], ['amount1', 'u128'], ['lpSupply', 'u128'], ['lockUntil', 'u64'], ['fee', 'u128']] },
  { name: 'LiquidityAdded', code: 5, core: 'EV_LIQUIDITY_ADDED', bytes: 112, accounts: ['pool', 'provider'], fields: [
    ['pool', 'bytes32'], ['provider', 'bytes32'], ['amount0', 'u128'], ['amount1', 'u128'], ['lp', 'u128']] },
  { name: 'LiquidityRemoved', code: 6, core: 'EV_LIQUIDITY_REMOVED', bytes: 112, accounts: ['pool', 'provider'], fields: [
    ['pool', 'bytes32'], ['provider', 'bytes32'], ['amount0', 'u128'], ['amount1', 'u128'], ['lp', 'u128']] },
  { name: 'Swap', code: 7, core: 'EV_SWAP', bytes: 160, accounts: ['pool', 'trader'], fields: [
    ['pool', 'bytes32'], ['trader', 'bytes32'], ['tokenIn', 'bytes32'], ['amountIn', 'u128'], ['amountOut', 'u128'], ['reserve0', 'u128'], ['reserve1', 'u128']] },
  { name: 'TokenMetadataUpdated', code: 8, core: 'EV_TOKEN_METADATA_UPDATED', bytes: 65, accounts: ['creator'], fields: [['mint', 'bytes32'], ['creator', 'bytes32'], ['fieldsSet', 'u8']] },
  { name: 'TokenMetadataLocked', code: 9, core: 'EV_TOKEN_METADATA_LOCKED', bytes: 64, accounts: ['creator'], fields: [['mint', 'bytes32'], ['creator', 'bytes32']] },
  // NFT and multi-token collections (docs/collections.md "Events"); a zero `from` is a mint, a zero `to` a burn.
  { name: 'CollectionCreated', code: 10, core: 'EV_COLLECTION_CREATED', bytes: 97, accounts: ['owner', 'creator'], fields: [
    ['collection', 'bytes32'], ['collectionKind', 'u8'], ['owner', 'bytes32'], ['creator', 'bytes32']] },
  { name: 'NftTransfer', code: 11, core: 'EV_NFT_TRANSFER', bytes: 104, accounts: ['from', 'to'], fields: [['collection', 'bytes32'], ['from', 'bytes32'], ['to', 'bytes32'], ['tokenId', 'u64']] },
  { name: 'TokenTypeDefined', code: 12, core: 'EV_TOKEN_TYPE_DEFINED', bytes: 57, accounts: [], fields: [['collection', 'bytes32'], ['typeId', 'u64'], ['maxSupply', 'u128'], ['isFungible', 'u8']] },
  { name: 'MultiTransferSingle', code: 13, core: 'EV_MULTI_TRANSFER_SINGLE', bytes: 152, accounts: ['operator', 'from', 'to'], fields: [
    ['collection', 'bytes32'], ['operator', 'bytes32'], ['from', 'bytes32'], ['to', 'bytes32'], ['typeId', 'u64'], ['amount', 'u128']] },
  { name: 'MultiTransferBatch', code: 14, core: 'EV_MULTI_TRANSFER_BATCH', accounts: ['operator', 'from', 'to'], fields: [
    ['collection', 'bytes32'], ['operator', 'bytes32'], ['from', 'bytes32'], ['to', 'bytes32'], ['entries', 'entries']] },
  // Intent programs (docs/intents.md "Programs on chain"): the name's bytes (3–64) fill the rest.
  { name: 'ProgramRegistered', code: 15, core: 'EV_PROGRAM_REGISTERED', accounts: ['owner'], fields: [['owner', 'bytes32'], ['revision', 'u32'], ['hash', 'bytes32'], ['name', 'rest']] },
  // Schedules on chain (docs/intents.md "Schedules on chain"): a run's events carry bundle_index
  // SCHEDULE_RUN_INDEX and come after every bundle's; its ScheduleRun closes them.
  { name: 'ScheduleRun', code: 16, core: 'EV_SCHEDULE_RUN', bytes: 94, accounts: ['owner'], fields: [
    ['scheduleId', 'bytes32'], ['owner', 'bytes32'], ['run', 'u32'], ['status', 'u16'], ['gasUsed', 'u64'], ['fee', 'u128']] },
  { name: 'ScheduleCreated', code: 17, core: 'EV_SCHEDULE_CREATED', bytes: 73, accounts: ['owner'], fields: [
    ['scheduleId', 'bytes32'], ['owner', 'bytes32'], ['scheduleKind', 'u8'], ['nextDue', 'u64']] },
  { name: 'ScheduleCancelled', code: 18, core: 'EV_SCHEDULE_CANCELLED', bytes: 64, accounts: ['owner'], fields: [['scheduleId', 'bytes32'], ['owner', 'bytes32']] },
  // ERC-20 allowances (docs/allowances.md): the allowance an Approve set (a TransferFrom emits Transfer).
  { name: 'Approval', code: 19, core: 'EV_APPROVAL', bytes: 112, accounts: ['owner', 'spender'], fields: [['owner', 'bytes32'], ['spender', 'bytes32'], ['token', 'bytes32'], ['amount', 'u128']] },
  // Protocol proposals (docs/governance.md "Events"); a treasury spend also emits Transfer.
  { name: 'ProposalCreated', code: 45, core: 'EV_PROPOSAL_CREATED', bytes: 49, accounts: ['proposer'], fields: [['proposalId', 'u64'], ['proposer', 'bytes32'], ['proposalKind', 'u8'], ['endHeight', 'u64']] },
  { name: 'ProposalVoted', code: 46, core: 'EV_PROPOSAL_VOTED', bytes: 57, accounts: ['voter'], fields: [['proposalId', 'u64'], ['voter', 'bytes32'], ['approve', 'u8'], ['weight', 'u128']] },
  { name: 'ProposalExecuted', code: 47, core: 'EV_PROPOSAL_EXECUTED', bytes: 41, accounts: ['executor'], fields: [['proposalId', 'u64'], ['executor', 'bytes32'], ['proposalKind', 'u8']] },
  { name: 'ProposalCancelled', code: 48, core: 'EV_PROPOSAL_CANCELLED', bytes: 40, accounts: ['proposer'], fields: [['proposalId', 'u64'], ['proposer', 'bytes32']] },
  { name: 'ChainParamChanged', code: 49, core: 'EV_CHAIN_PARAM_CHANGED', bytes: 41, accounts: [], fields: [['proposalId', 'u64'], ['key', 'u8'], ['oldValue', 'u128'], ['newValue', 'u128']] },
  // DAOs (docs/governance.md "DAOs"); locking and unlocking votes also emit Transfer.
  { name: 'DaoCreated', code: 51, core: 'EV_DAO_CREATED', bytes: 104, accounts: ['dao', 'creator'], fields: [['dao', 'bytes32'], ['creator', 'bytes32'], ['tokenMint', 'bytes32'], ['daoId', 'u64']] },
  { name: 'DaoProposalEvent', code: 52, core: 'EV_DAO_PROPOSAL', bytes: 89, accounts: ['dao', 'account'], fields: [['dao', 'bytes32'], ['proposalId', 'u64'], ['action', 'u8'], ['account', 'bytes32'], ['amount', 'u128']] },
  { name: 'SafetyLevelSet', code: 50, core: 'EV_SAFETY_LEVEL_SET', bytes: 42, accounts: [], fields: [['proposalId', 'u64'], ['target', 'bytes32'], ['targetKind', 'u8'], ['level', 'u8']] },
  // Presales and token staking pools (docs/presales.md, docs/staking-pools.md "Events"): the new
  // record's address, so a receipt names it (created.presale, created.staking_pool); the tokens move
  // as Transfer events.
  { name: 'PresaleCreated', code: 57, core: 'EV_PRESALE_CREATED', bytes: 128, accounts: ['presale', 'creator'], fields: [
    ['presale', 'bytes32'], ['creator', 'bytes32'], ['token', 'bytes32'], ['payToken', 'bytes32']] },
  { name: 'StakingPoolCreated', code: 58, core: 'EV_STAKING_POOL_CREATED', bytes: 128, accounts: ['pool', 'creator'], fields: [
    ['pool', 'bytes32'], ['creator', 'bytes32'], ['stakeMint', 'bytes32'], ['rewardMint', 'bytes32']] },
  // Accounts, recovery and multi-sig (docs/accounts.md "Events").
  { name: 'KeyAdded', code: 35, core: 'EV_KEY_ADDED', bytes: 66, accounts: ['account'], fields: [['account', 'bytes32'], ['keyHash', 'bytes32'], ['keyType', 'u8'], ['role', 'u8']] },
  { name: 'KeyRemoved', code: 36, core: 'EV_KEY_REMOVED', bytes: 64, accounts: ['account'], fields: [['account', 'bytes32'], ['keyHash', 'bytes32']] },
  { name: 'RecoverySet', code: 37, core: 'EV_RECOVERY_SET', bytes: 42, accounts: ['account'], fields: [['account', 'bytes32'], ['threshold', 'u8'], ['guardianCount', 'u8'], ['timelock', 'u64']] },
  { name: 'RecoveryInitiated', code: 38, core: 'EV_RECOVERY_INITIATED', bytes: 105, accounts: ['account', 'guardian'], fields: [['account', 'bytes32'], ['guardian', 'bytes32'], ['keyHash', 'bytes32'], ['keyType', 'u8'], ['executableAt', 'u64']] },
  { name: 'RecoveryApproved', code: 39, core: 'EV_RECOVERY_APPROVED', bytes: 65, accounts: ['account', 'guardian'], fields: [['account', 'bytes32'], ['guardian', 'bytes32'], ['approvals', 'u8']] },
  { name: 'RecoveryCancelled', code: 40, core: 'EV_RECOVERY_CANCELLED', bytes: 32, accounts: ['account'], fields: [['account', 'bytes32']] },
  { name: 'RecoveryFinalized', code: 41, core: 'EV_RECOVERY_FINALIZED', bytes: 65, accounts: ['account'], fields: [['account', 'bytes32'], ['keyHash', 'bytes32'], ['keyType', 'u8']] },
  { name: 'MultiSigCreated', code: 42, core: 'EV_MULTISIG_CREATED', bytes: 66, accounts: ['multisig', 'creator'], fields: [['multisig', 'bytes32'], ['creator', 'bytes32'], ['threshold', 'u8'], ['signerCount', 'u8']] },
  { name: 'MultiSigTxUpdated', code: 43, core: 'EV_MULTISIG_TX_UPDATED', bytes: 74, accounts: ['multisig', 'signer'], fields: [['multisig', 'bytes32'], ['txId', 'u64'], ['signer', 'bytes32'], ['action', 'u8'], ['approvals', 'u8']] },
  { name: 'MultiSigTxExecuted', code: 44, core: 'EV_MULTISIG_TX_EXECUTED', bytes: 42, accounts: ['multisig'], fields: [['multisig', 'bytes32'], ['txId', 'u64'], ['status', 'u16']] },
  // Upgrade governance (docs/upgrades.md "Events"): the plan's name fills the rest of the data.
  { name: 'UpgradeScheduled', code: 53, core: 'EV_UPGRADE_SCHEDULED', accounts: ['proposer'], fields: [['proposer', 'bytes32'], ['height', 'u64'], ['state', 'u8'], ['name', 'rest']] },
  { name: 'UpgradeVoted', code: 54, core: 'EV_UPGRADE_VOTED', accounts: ['voter'], fields: [['voter', 'bytes32'], ['approve', 'u8'], ['state', 'u8'], ['name', 'rest']] },
  { name: 'UpgradeCancelled', code: 55, core: 'EV_UPGRADE_CANCELLED', accounts: ['by'], fields: [['by', 'bytes32'], ['name', 'rest']] },
  // STD-8 stablecoins (docs/stablecoins.md "Events"); mints and burns are Transfer events from and to the zero account.
  { name: 'StableCreated', code: 20, core: 'EV_STABLE_CREATED', bytes: 160, accounts: ['owner'], fields: [
    ['mint', 'bytes32'], ['owner', 'bytes32'], ['masterMinter', 'bytes32'], ['pauser', 'bytes32'], ['blacklister', 'bytes32']] },
  { name: 'StableAdmin', code: 21, core: 'EV_STABLE_ADMIN', bytes: 98, accounts: ['by', 'subject'], fields: [
    ['mint', 'bytes32'], ['by', 'bytes32'], ['subject', 'bytes32'], ['action', 'u8'], ['value', 'u8']] },
  { name: 'StablePending', code: 22, core: 'EV_STABLE_PENDING', bytes: 82, accounts: ['by'], fields: [
    ['mint', 'bytes32'], ['by', 'bytes32'], ['pendingId', 'u64'], ['pendingKind', 'u8'], ['outcome', 'u8'], ['effectiveHeight', 'u64']] },
  { name: 'StableMinter', code: 23, core: 'EV_STABLE_MINTER', bytes: 129, accounts: ['by', 'minter'], fields: [
    ['mint', 'bytes32'], ['by', 'bytes32'], ['minter', 'bytes32'], ['action', 'u8'], ['allowance', 'u128'], ['epochLimit', 'u128']] },
  // The bridge (docs/bridge.md "Events"); mints and burns also leave Transfer events from/to zero.
  { name: 'BridgeDeposited', code: 30, core: 'EV_BRIDGE_DEPOSITED', bytes: 113, accounts: ['recipient'], fields: [
    ['depositId', 'bytes32'], ['recipient', 'bytes32'], ['mint', 'bytes32'], ['amount', 'u128'], ['credited', 'u8']] },
  { name: 'BridgeWithdrawn', code: 31, core: 'EV_BRIDGE_WITHDRAWN', bytes: 104, accounts: ['sender'], fields: [
    ['sequence', 'u64'], ['sender', 'bytes32'], ['mint', 'bytes32'], ['amount', 'u128'], ['fee', 'u128']] },
  { name: 'BridgeWithdrawalAttested', code: 32, core: 'EV_BRIDGE_WITHDRAWAL_ATTESTED', bytes: 8, accounts: [], fields: [['sequence', 'u64']] },
  { name: 'BridgeMappingRegistered', code: 33, core: 'EV_BRIDGE_MAPPING_REGISTERED', bytes: 64, accounts: [], fields: [['target', 'bytes32'], ['mint', 'bytes32']] },
  { name: 'BridgeAttestersSet', code: 34, core: 'EV_BRIDGE_ATTESTERS_SET', bytes: 2, accounts: [], fields: [['threshold', 'u8'], ['count', 'u8']] },
  { name: 'StableIssuerProof', code: 24, core: 'EV_STABLE_ISSUER_PROOF', bytes: 99, accounts: ['by'], fields: [
    ['mint', 'bytes32'], ['by', 'bytes32'], ['subject', 'bytes32'], ['method', 'u8'], ['proofs', 'u8'], ['verification', 'u8']] },
  // Validator staking (docs/staking.md "Events"): one event per staking operation, naming the
  // validator's staking account (and the delegator's) so both addresses' history lists it. NTV moves
  // between the balance and the stake without a Transfer event (the stake is no account).
  { name: 'Staked', code: 59, core: 'EV_STAKED', bytes: 97, accounts: ['validator'], fields: [
    ['validator', 'bytes32'], ['consensusKey', 'bytes32'], ['amount', 'u128'], ['selfStake', 'u128'], ['created', 'u8']] },
  { name: 'Delegated', code: 60, core: 'EV_DELEGATED', bytes: 96, accounts: ['validator', 'delegator'], fields: [
    ['validator', 'bytes32'], ['delegator', 'bytes32'], ['amount', 'u128'], ['delegation', 'u128']] },
  { name: 'Unstaked', code: 61, core: 'EV_UNSTAKED', bytes: 104, accounts: ['validator'], fields: [
    ['validator', 'bytes32'], ['delegator', 'bytes32'], ['amount', 'u128'], ['remaining', 'u128'], ['releaseTime', 'u64']] },
  { name: 'Undelegated', code: 62, core: 'EV_UNDELEGATED', bytes: 104, accounts: ['validator', 'delegator'], fields: [
    ['validator', 'bytes32'], ['delegator', 'bytes32'], ['amount', 'u128'], ['remaining', 'u128'], ['releaseTime', 'u64']] },
  { name: 'UnstakeClaimed', code: 63, core: 'EV_UNSTAKE_CLAIMED', bytes: 52, accounts: ['account'], fields: [['account', 'bytes32'], ['amount', 'u128'], ['pendingEntries', 'u32']] },
  { name: 'RewardsClaimed', code: 64, core: 'EV_REWARDS_CLAIMED', bytes: 48, accounts: ['account'], fields: [['account', 'bytes32'], ['amount', 'u128']] },
  { name: 'CommissionSet', code: 65, core: 'EV_COMMISSION_SET', bytes: 36, accounts: ['validator'], fields: [['validator', 'bytes32'], ['oldBps', 'u16'], ['newBps', 'u16']] },
  { name: 'ValidatorUnjailed', code: 66, core: 'EV_VALIDATOR_UNJAILED', bytes: 32, accounts: ['validator'], fields: [['validator', 'bytes32']] },
  { name: 'AutoCompoundSet', code: 67, core: 'EV_AUTO_COMPOUND_SET', bytes: 65, accounts: ['validator', 'delegator'], fields: [['validator', 'bytes32'], ['delegator', 'bytes32'], ['enabled', 'u8']] },
  // The pool's name fills the rest.
  { name: 'PoolConfigSet', code: 68, core: 'EV_POOL_CONFIG_SET', accounts: ['validator'], fields: [
    ['validator', 'bytes32'], ['enabled', 'u8'], ['minDelegation', 'u128'], ['autoCompoundDefault', 'u8'], ['name', 'rest']] },
  // The four Borsh strings of the operation (name, description, website, avatar_url) fill the rest.
  { name: 'ValidatorMetadataSet', code: 69, core: 'EV_VALIDATOR_METADATA_SET', accounts: ['validator'], fields: [['validator', 'bytes32'], ['metadata', 'rest']] },
  { name: 'DoubleSignReported', code: 70, core: 'EV_DOUBLE_SIGN_REPORTED', bytes: 116, accounts: ['validator', 'reporter'], fields: [
    ['validator', 'bytes32'], ['consensusKey', 'bytes32'], ['reporter', 'bytes32'], ['height', 'u64'], ['offences', 'u32'], ['jailedUntil', 'u64']] },
  { name: 'ConsensusKeyRotationQueued', code: 71, core: 'EV_CONSENSUS_KEY_ROTATION_QUEUED', bytes: 72, accounts: ['validator'], fields: [
    ['validator', 'bytes32'], ['newKey', 'bytes32'], ['epoch', 'u64']] },
];
