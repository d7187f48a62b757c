// Event kinds and data (docs/core-abi.md "Event kinds and data"): Event { bundle_index u32,
// op_index u16, kind u8, data Vec<u8> }; one row per kind with its data fields in order. Field
// types: bytes32 u8 u16 u32 u64 u128; 'entries' (count u32, then count × { type_id u64, amount u128 });
// 'rest' (the remaining bytes). `bytes` is the data length of a fixed-size kind, checked by the
// generator against the fields. `accounts` lists the account fields the explorer's address
// history indexes (src/chain/indexer.ts); Fee names the proposer and the treasury in every bundle
// and is left out on purpose. `tokens` lists the fields its token transfers are indexed under
// (docs/explorer.md "Token transfers"): the mint it moves, or for swaps and liquidity the pool,
// whose two tokens the event does not name.
//
// From each row scripts/gen-abi.mjs writes the core's writer (assembly/events-gen.ts emit<Name>),
// the host's typed event and decoder, and its receipt JSON (src/abi/events.ts). A field's optional
// third element says how the host shows it:
//   host: 'name'   the decoded event's name for it (the accounts events share account/actor/count/value/code)
//   as: 'bool'     a u8 that is 0 or 1;  enum: 'LIST'  a u8 naming eventEnums.LIST[value] (past the end: Unknown)
//   as: 'latin1' | 'utf8' (min, max bytes)  a 'rest' as text;  as: 'strings'  a 'rest' of Borsh strings
//   intern: true   a 32-byte field that repeats across a block's events, shared (src/core/events.ts Bytes32Interner)
//   json: 'key'    its receipt key (else the field's name in snake_case)
//   j: 'format'    its receipt value: dec (a decimal string), num (a number), raw, hex, 0xhex, or a
//                  named formatter src/chain/receipts.ts supplies (account, the default of bytes32; mint, pool, …)
// `creates: [key, field, description]` marks an event that makes a new identifier: a receipt's
// `created.<key>` is the event's receipt field `field` (docs/methods.md "Receipt"; generated
// createdOf, and RECEIPT_CREATED for the receipt's schema).
// A row's `host` merges kinds into one decoded kind (`kind`, constant fields `set`, a single
// `entry` shown as entries) and its `receipt` sets the JSON's `type`, a fixed `opIndex`, keys
// moved `first`, and `extra` keys computed from a field: [key, field, format (optional when it ends
// in ?), after which key].


export const events = [
  { name: 'Transfer', code: 0, core: 'EV_TRANSFER', bytes: 112, accounts: ['from', 'to'], tokens: ['token'], receipt: { inPlace: true, extra: [['symbol', 'token', 'symbol?', 'token']] }, fields: [['from', 'bytes32', { intern: true }], ['to', 'bytes32'], ['token', 'bytes32', { intern: true, j: 'mint' }], ['amount', 'u128']] },
  { name: 'TokenCreated', code: 1, core: 'EV_TOKEN_CREATED', bytes: 112, creates: ['mint', 'mint', 'Nx1… mint of a created token'], accounts: ['creator', 'owner'], tokens: ['mint'], fields: [['mint', 'bytes32', { j: 'mint' }], ['creator', 'bytes32'], ['owner', 'bytes32'], ['supply', 'u128']] },
  { name: 'KeyRegistered', code: 2, core: 'EV_KEY_REGISTERED', bytes: 65, accounts: ['account'], fields: [['account', 'bytes32'], ['keyHash', 'bytes32', { j: 'hex' }], ['keyType', 'u8', { j: 'keyTypeOfRegistration' }]] },
  { name: 'Fee', code: 3, core: 'EV_FEE', bytes: 128, accounts: [], receipt: { inPlace: true }, fields: [['payer', 'bytes32', { intern: true }], ['proposer', 'bytes32', { intern: true }], ['toProposer', 'u128'], ['treasury', 'bytes32', { intern: true }], ['toTreasury', 'u128']] },
  // DEX and token metadata (docs/dex.md "Events"); token0 < token1 bytewise. The pool is indexed as
  // well as the trader or provider: tokens move both ways between them.
  { name: 'PoolCreated', code: 4, core: 'EV_POOL_CREATED', bytes: 200, creates: ['pool', 'pool', 'Nx8… address of a created pool'], accounts: ['pool', 'creator'], tokens: ['token0', 'token1'], fields: [
    ['pool', 'bytes32', { j: 'pool' }], ['token0', 'bytes32', { j: 'mint' }], ['token1', 'bytes32', { j: 'mint' }], ['creator', 'bytes32'],
    ['amount0', 'u128'], ['amount1', 'u128'], ['lpSupply', 'u128', { json: 'lp_total_supply' }], ['lockUntil', 'u64'], ['fee', 'u128']] },
  { name: 'LiquidityAdded', code: 5, core: 'EV_LIQUIDITY_ADDED', bytes: 112, accounts: ['pool', 'provider'], tokens: ['pool'], receipt: { extra: [['token0', 'pool', 'pairToken0?', 'pool'], ['token1', 'pool', 'pairToken1?', 'token0']] }, fields: [
    ['pool', 'bytes32', { j: 'pool' }], ['provider', 'bytes32'], ['amount0', 'u128'], ['amount1', 'u128'], ['lp', 'u128']] },
  { name: 'LiquidityRemoved', code: 6, core: 'EV_LIQUIDITY_REMOVED', bytes: 112, accounts: ['pool', 'provider'], tokens: ['pool'], receipt: { extra: [['token0', 'pool', 'pairToken0?', 'pool'], ['token1', 'pool', 'pairToken1?', 'token0']] }, fields: [
    ['pool', 'bytes32', { j: 'pool' }], ['provider', 'bytes32'], ['amount0', 'u128'], ['amount1', 'u128'], ['lp', 'u128']] },
  { name: 'Swap', code: 7, core: 'EV_SWAP', bytes: 160, accounts: ['pool', 'trader'], tokens: ['pool'], receipt: { extra: [['token_out', 'pool', 'swapTokenOut?', 'token_in']] }, fields: [
    ['pool', 'bytes32', { j: 'pool' }], ['trader', 'bytes32'], ['tokenIn', 'bytes32', { j: 'mint' }], ['amountIn', 'u128'], ['amountOut', 'u128'], ['reserve0', 'u128'], ['reserve1', 'u128']] },
  { name: 'TokenMetadataUpdated', code: 8, core: 'EV_TOKEN_METADATA_UPDATED', bytes: 65, accounts: ['creator'], fields: [['mint', 'bytes32', { j: 'mint' }], ['creator', 'bytes32'], ['fieldsSet', 'u8', { j: 'metadataFields', jt: 'string[]' }]
] },
  { name: 'TokenMetadataLocked', code: 9, core: 'EV_TOKEN_METADATA_LOCKED', bytes: 64, accounts: ['creator'], host: { set: { fieldsSet: 0 } }, fields: [['mint', 'bytes32', { j: 'mint' }], ['creator', 'bytes32']] },
  // NFT and multi-token collections (docs/collections.md "Events"); a zero `from` is a mint, a zero `to` a burn.
  { name: 'CollectionCreated', code: 10, core: 'EV_COLLECTION_CREATED', bytes: 97, creates: ['collection', 'collection', 'Nx2… address of a created NFT or multi-token collection'], accounts: ['owner', 'creator'], fields: [
    ['collection', 'bytes32', { j: 'collection' }], ['collectionKind', 'u8', { json: 'kind', j: 'collectionKind' }], ['owner', 'bytes32'], ['creator', 'bytes32']] },
  { name: 'NftTransfer', code: 11, core: 'EV_NFT_TRANSFER', bytes: 104, accounts: ['from', 'to'], fields: [['collection', 'bytes32', { j: 'collection' }], ['from', 'bytes32'], ['to', 'bytes32'], ['tokenId', 'u64', { j: 'dec' }]] },
  { name: 'TokenTypeDefined', code: 12, core: 'EV_TOKEN_TYPE_DEFINED', bytes: 57, accounts: [], fields: [['collection', 'bytes32', { j: 'collection' }], ['typeId', 'u64', { j: 'dec' }], ['maxSupply', 'u128'], ['isFungible', 'u8', { as: 'bool' }]] },
  { name: 'MultiTransferSingle', code: 13, core: 'EV_MULTI_TRANSFER_SINGLE', bytes: 152, accounts: ['operator', 'from', 'to'], host: { kind: 'MultiTransfer', set: { batch: false }, entry: ['typeId', 'amount'] }, receipt: { type: 'MultiTokenTransfer', extra: [['batch', 'batch', 'raw', 'to']] }, fields: [
    ['collection', 'bytes32', { j: 'collection' }], ['operator', 'bytes32'], ['from', 'bytes32'], ['to', 'bytes32'], ['typeId', 'u64'], ['amount', 'u128']] },
  { name: 'MultiTransferBatch', code: 14, core: 'EV_MULTI_TRANSFER_BATCH', accounts: ['operator', 'from', 'to'], host: { kind: 'MultiTransfer', set: { batch: true } }, receipt: { type: 'MultiTokenTransfer', extra: [['batch', 'batch', 'raw', 'to']] }, fields: [
    ['collection', 'bytes32', { j: 'collection' }], ['operator', 'bytes32'], ['from', 'bytes32'], ['to', 'bytes32'], ['entries', 'entries']] },
  // Intent programs (docs/intents.md "Programs on chain"): the name's bytes (3–64) fill the rest.
  { name: 'ProgramRegistered', code: 15, core: 'EV_PROGRAM_REGISTERED', accounts: ['owner'], receipt: { first: ['name'] }, fields: [['owner', 'bytes32'], ['revision', 'u32'], ['hash', 'bytes32', { json: 'program_hash', j: '0xhex' }], ['name', 'rest', { as: 'latin1', min: 3, max: 64 }]] },
  // Schedules on chain (docs/schedules.md): a run's events carry bundle_index
  // SCHEDULE_RUN_INDEX and come after every bundle's; its ScheduleRun closes them.
  { name: 'ScheduleRun', code: 16, core: 'EV_SCHEDULE_RUN', bytes: 94, accounts: ['owner'], receipt: { opIndex: null, extra: [['status_name', 'status', 'statusName', 'status_code']] }, fields: [
    ['scheduleId', 'bytes32', { j: 'hash' }], ['owner', 'bytes32'], ['run', 'u32'], ['status', 'u16', { json: 'status_code' }], ['gasUsed', 'u64'], ['fee', 'u128']] },
  { name: 'ScheduleCreated', code: 17, core: 'EV_SCHEDULE_CREATED', bytes: 73, accounts: ['owner'], fields: [
    ['scheduleId', 'bytes32', { j: 'hash' }], ['owner', 'bytes32'], ['scheduleKind', 'u8', { json: 'kind', enum: 'SCHEDULE_KINDS' }], ['nextDue', 'u64']] },
  { name: 'ScheduleCancelled', code: 18, core: 'EV_SCHEDULE_CANCELLED', bytes: 64, accounts: ['owner'], fields: [['scheduleId', 'bytes32', { j: 'hash' }], ['owner', 'bytes32']] },
  // ERC-20 allowances (docs/allowances.md): the allowance an Approve set (a TransferFrom emits Transfer).
  { name: 'Approval', code: 19, core: 'EV_APPROVAL', bytes: 112, accounts: ['owner', 'spender'], receipt: { extra: [['symbol', 'token', 'symbol?', 'token']] }, fields: [['owner', 'bytes32'], ['spender', 'bytes32'], ['token', 'bytes32', { j: 'mint' }], ['amount', 'u128']] },
  // Protocol proposals (docs/governance.md "Events"); a treasury spend also emits Transfer.
  { name: 'ProposalCreated', code: 45, core: 'EV_PROPOSAL_CREATED', bytes: 49, accounts: ['proposer'], fields: [['proposalId', 'u64', { j: 'dec' }], ['proposer', 'bytes32'], ['proposalKind', 'u8', { json: 'proposal_type', j: 'proposalType' }], ['endHeight', 'u64']] },
  { name: 'ProposalVoted', code: 46, core: 'EV_PROPOSAL_VOTED', bytes: 57, accounts: ['voter'], fields: [['proposalId', 'u64', { j: 'dec' }], ['voter', 'bytes32'], ['approve', 'u8', { as: 'bool' }], ['weight', 'u128']] },
  { name: 'ProposalExecuted', code: 47, core: 'EV_PROPOSAL_EXECUTED', bytes: 41, accounts: ['executor'], fields: [['proposalId', 'u64', { j: 'dec' }], ['executor', 'bytes32'], ['proposalKind', 'u8', { json: 'proposal_type', j: 'proposalType' }]] },
  { name: 'ProposalCancelled', code: 48, core: 'EV_PROPOSAL_CANCELLED', bytes: 40, accounts: ['proposer'], fields: [['proposalId', 'u64', { j: 'dec' }], ['proposer', 'bytes32']] },
  { name: 'ChainParamChanged', code: 49, core: 'EV_CHAIN_PARAM_CHANGED', bytes: 41, accounts: [], fields: [['proposalId', 'u64', { j: 'dec' }], ['key', 'u8', { enum: 'PARAMETER_KEYS' }], ['oldValue', 'u128'], ['newValue', 'u128']] },
  // DAOs (docs/dao.md); locking and unlocking votes also emit Transfer.
  { name: 'DaoCreated', code: 51, core: 'EV_DAO_CREATED', bytes: 104, accounts: ['dao', 'creator'], receipt: { first: ['dao_address', 'dao_id'] }, fields: [['dao', 'bytes32', { json: 'dao_address', j: 'dao' }], ['creator', 'bytes32'], ['tokenMint', 'bytes32', { j: 'mint' }], ['daoId', 'u64', { j: 'dec' }]] },
  { name: 'DaoProposalEvent', code: 52, core: 'EV_DAO_PROPOSAL', bytes: 89, accounts: ['dao', 'account'], receipt: { type: 'DaoProposal' }, fields: [['dao', 'bytes32', { json: 'dao_address', j: 'dao' }], ['proposalId', 'u64', { j: 'dec' }], ['action', 'u8', { enum: 'DAO_EVENT_ACTIONS' }], ['account', 'bytes32'], ['amount', 'u128']] },
  { name: 'SafetyLevelSet', code: 50, core: 'EV_SAFETY_LEVEL_SET', bytes: 42, accounts: [], fields: [['proposalId', 'u64', { j: 'dec' }], ['target', 'bytes32', { j: 'safetyTarget' }], ['targetKind', 'u8', { enum: 'SAFETY_TARGET_KINDS' }], ['level', 'u8', { j: 'safetyLevel' }]] },
  // Presales and token staking pools (docs/presales.md, docs/staking-pools.md "Events"): the new
  // record's address, so a receipt names it (created.presale, created.staking_pool); the tokens move
  // as Transfer events.
  { name: 'PresaleCreated', code: 57, core: 'EV_PRESALE_CREATED', bytes: 128, creates: ['presale', 'presale', 'Nx0… address (escrow account) of a created presale'], accounts: ['presale', 'creator'], fields: [
    ['presale', 'bytes32'], ['creator', 'bytes32'], ['token', 'bytes32', { j: 'mint' }], ['payToken', 'bytes32', { j: 'mint' }]] },
  { name: 'StakingPoolCreated', code: 58, core: 'EV_STAKING_POOL_CREATED', bytes: 128, creates: ['staking_pool', 'pool', 'Nx6… address of a created token staking pool'], accounts: ['pool', 'creator'], fields: [
    ['pool', 'bytes32', { j: 'stakingPool' }], ['creator', 'bytes32'], ['stakeMint', 'bytes32', { json: 'token_mint', j: 'mint' }], ['rewardMint', 'bytes32', { j: 'mint' }]] },
  // Accounts, recovery and multi-sig (docs/accounts.md "Events").
  { name: 'KeyAdded', code: 35, core: 'EV_KEY_ADDED', bytes: 66, accounts: ['account'], fields: [['account', 'bytes32'], ['keyHash', 'bytes32', { j: 'hex' }], ['keyType', 'u8', { j: 'keyType' }], ['role', 'u8', { j: 'keyRole' }]] },
  { name: 'KeyRemoved', code: 36, core: 'EV_KEY_REMOVED', bytes: 64, accounts: ['account'], fields: [['account', 'bytes32'], ['keyHash', 'bytes32', { j: 'hex' }]] },
  { name: 'RecoverySet', code: 37, core: 'EV_RECOVERY_SET', bytes: 42, accounts: ['account'], fields: [['account', 'bytes32'], ['threshold', 'u8'], ['guardianCount', 'u8', { host: 'count', json: 'guardians' }], ['timelock', 'u64', { host: 'value' }]] },
  { name: 'RecoveryInitiated', code: 38, core: 'EV_RECOVERY_INITIATED', bytes: 105, accounts: ['account', 'guardian'], fields: [['account', 'bytes32'], ['guardian', 'bytes32', { host: 'actor' }], ['keyHash', 'bytes32', { j: 'hex' }], ['keyType', 'u8', { j: 'keyType' }], ['executableAt', 'u64', { host: 'value' }]] },
  { name: 'RecoveryApproved', code: 39, core: 'EV_RECOVERY_APPROVED', bytes: 65, accounts: ['account', 'guardian'], fields: [['account', 'bytes32'], ['guardian', 'bytes32', { host: 'actor' }], ['approvals', 'u8', { host: 'count' }]] },
  { name: 'RecoveryCancelled', code: 40, core: 'EV_RECOVERY_CANCELLED', bytes: 32, accounts: ['account'], fields: [['account', 'bytes32']] },
  { name: 'RecoveryFinalized', code: 41, core: 'EV_RECOVERY_FINALIZED', bytes: 65, accounts: ['account'], fields: [['account', 'bytes32'], ['keyHash', 'bytes32', { j: 'hex' }], ['keyType', 'u8', { j: 'keyType' }]] },
  { name: 'MultiSigCreated', code: 42, core: 'EV_MULTISIG_CREATED', bytes: 66, creates: ['multisig', 'multisig', 'Nx5… address of a created multi-sig account (docs/accounts.md)'], accounts: ['multisig', 'creator'], fields: [['multisig', 'bytes32', { host: 'account', j: 'multisig' }], ['creator', 'bytes32', { host: 'actor' }], ['threshold', 'u8'], ['signerCount', 'u8', { host: 'count', json: 'signers' }]] },
  { name: 'MultiSigTxUpdated', code: 43, core: 'EV_MULTISIG_TX_UPDATED', bytes: 74, accounts: ['multisig', 'signer'], fields: [['multisig', 'bytes32', { host: 'account', j: 'multisig' }], ['txId', 'u64', { host: 'value', j: 'dec' }], ['signer', 'bytes32', { host: 'actor' }], ['action', 'u8', { host: 'code', j: 'multiSigTxAction' }], ['approvals', 'u8', { host: 'count' }]] },
  { name: 'MultiSigTxExecuted', code: 44, core: 'EV_MULTISIG_TX_EXECUTED', bytes: 42, accounts: ['multisig'], receipt: { extra: [['status_name', 'code', 'statusName', 'status_code']] }, fields: [['multisig', 'bytes32', { host: 'account', j: 'multisig' }], ['txId', 'u64', { host: 'value', j: 'dec' }], ['status', 'u16', { host: 'code', json: 'status_code' }]] },
  // Upgrade governance (docs/upgrades.md "Events"): the plan's name fills the rest of the data.
  { name: 'UpgradeScheduled', code: 53, core: 'EV_UPGRADE_SCHEDULED', accounts: ['proposer'], receipt: { first: ['name'] }, fields: [['proposer', 'bytes32'], ['height', 'u64'], ['state', 'u8', { j: 'planState' }], ['name', 'rest', { as: 'latin1', min: 1 }]] },
  { name: 'UpgradeVoted', code: 54, core: 'EV_UPGRADE_VOTED', accounts: ['voter'], receipt: { first: ['name'] }, fields: [['voter', 'bytes32'], ['approve', 'u8', { as: 'bool' }], ['state', 'u8', { j: 'planState' }], ['name', 'rest', { as: 'latin1', min: 1 }]] },
  { name: 'UpgradeCancelled', code: 55, core: 'EV_UPGRADE_CANCELLED', accounts: ['by'], receipt: { first: ['name'] }, fields: [['by', 'bytes32'], ['name', 'rest', { as: 'latin1', min: 1 }]] },
  // STD-8 stablecoins (docs/stablecoins.md "Events"); mints and burns are Transfer events from and to the zero account.
  { name: 'StableCreated', code: 20, core: 'EV_STABLE_CREATED', bytes: 160, accounts: ['owner'], fields: [
    ['mint', 'bytes32', { j: 'mint' }], ['owner', 'bytes32'], ['masterMinter', 'bytes32'], ['pauser', 'bytes32'], ['blacklister', 'bytes32']] },
  { name: 'StableAdmin', code: 21, core: 'EV_STABLE_ADMIN', bytes: 98, accounts: ['by', 'subject'], fields: [
    ['mint', 'bytes32', { j: 'mint' }], ['by', 'bytes32'], ['subject', 'bytes32'], ['action', 'u8', { j: 'stableAdminAction' }], ['value', 'u8']] },
  { name: 'StablePending', code: 22, core: 'EV_STABLE_PENDING', bytes: 82, accounts: ['by'], fields: [
    ['mint', 'bytes32', { j: 'mint' }], ['by', 'bytes32'], ['pendingId', 'u64', { j: 'dec' }], ['pendingKind', 'u8', { json: 'kind', j: 'stablePendingKind' }], ['outcome', 'u8', { j: 'stablePendingOutcome' }], ['effectiveHeight', 'u64']] },
  { name: 'StableMinter', code: 23, core: 'EV_STABLE_MINTER', bytes: 129, accounts: ['by', 'minter'], fields: [
    ['mint', 'bytes32', { j: 'mint' }], ['by', 'bytes32'], ['minter', 'bytes32'], ['action', 'u8', { j: 'stableMinterAction' }], ['allowance', 'u128'], ['epochLimit', 'u128']] },
  // The bridge (docs/bridge.md "Events"); mints and burns also leave Transfer events from/to zero.
  { name: 'BridgeDeposited', code: 30, core: 'EV_BRIDGE_DEPOSITED', bytes: 113, accounts: ['recipient'], fields: [
    ['depositId', 'bytes32', { j: 'hash' }], ['recipient', 'bytes32'], ['mint', 'bytes32', { j: 'mint' }], ['amount', 'u128'], ['credited', 'u8', { as: 'bool' }]] },
  { name: 'BridgeWithdrawn', code: 31, core: 'EV_BRIDGE_WITHDRAWN', bytes: 104, accounts: ['sender'], fields: [
    ['sequence', 'u64', { j: 'dec' }], ['sender', 'bytes32'], ['mint', 'bytes32', { j: 'mint' }], ['amount', 'u128'], ['fee', 'u128']] },
  { name: 'BridgeWithdrawalAttested', code: 32, core: 'EV_BRIDGE_WITHDRAWAL_ATTESTED', bytes: 8, accounts: [], fields: [['sequence', 'u64', { j: 'dec' }]] },
  { name: 'BridgeMappingRegistered', code: 33, core: 'EV_BRIDGE_MAPPING_REGISTERED', bytes: 64, accounts: [], fields: [['target', 'bytes32', { j: 'hash' }], ['mint', 'bytes32', { j: 'mint' }]] },
  { name: 'BridgeAttestersSet', code: 34, core: 'EV_BRIDGE_ATTESTERS_SET', bytes: 2, accounts: [], fields: [['threshold', 'u8'], ['count', 'u8']] },
  { name: 'StableIssuerProof', code: 24, core: 'EV_STABLE_ISSUER_PROOF', bytes: 99, accounts: ['by'], receipt: { first: ['mint', 'by', 'method'] }, fields: [
    ['mint', 'bytes32', { j: 'mint' }], ['by', 'bytes32'], ['subject', 'bytes32', { j: 'issuerProofSubject' }], ['method', 'u8', { j: 'issuerProofMethod' }], ['proofs', 'u8'], ['verification', 'u8', { json: 'verification_status', j: 'issuerVerification' }]] },
  // Validator staking (docs/staking.md "Events"): one event per staking operation, naming the
  // validator's staking account (and the delegator's) so both addresses' history lists it. NTV moves
  // between the balance and the stake without a Transfer event (the stake is no account).
  { name: 'Staked', code: 59, core: 'EV_STAKED', bytes: 97, accounts: ['validator'], fields: [
    ['validator', 'bytes32'], ['consensusKey', 'bytes32', { j: 'hex' }], ['amount', 'u128'], ['selfStake', 'u128'], ['created', 'u8', { as: 'bool' }]] },
  { name: 'Delegated', code: 60, core: 'EV_DELEGATED', bytes: 96, accounts: ['validator', 'delegator'], fields: [
    ['validator', 'bytes32'], ['delegator', 'bytes32'], ['amount', 'u128'], ['delegation', 'u128']] },
  { name: 'Unstaked', code: 61, core: 'EV_UNSTAKED', bytes: 104, accounts: ['validator'], fields: [
    ['validator', 'bytes32'], ['delegator', 'bytes32'], ['amount', 'u128'], ['remaining', 'u128'], ['releaseTime', 'u64']] },
  { name: 'Undelegated', code: 62, core: 'EV_UNDELEGATED', bytes: 104, accounts: ['validator', 'delegator'], fields: [
    ['validator', 'bytes32'], ['delegator', 'bytes32'], ['amount', 'u128'], ['remaining', 'u128'], ['releaseTime', 'u64']] },
  { name: 'UnstakeClaimed', code: 63, core: 'EV_UNSTAKE_CLAIMED', bytes: 52, accounts: ['account'], fields: [['account', 'bytes32'], ['amount', 'u128'], ['pendingEntries', 'u32']] },
  { name: 'RewardsClaimed', code: 64, core: 'EV_REWARDS_CLAIMED', bytes: 48, accounts: ['account'], fields: [['account', 'bytes32'], ['amount', 'u128']] },
  { name: 'CommissionSet', code: 65, core: 'EV_COMMISSION_SET', bytes: 36, accounts: ['validator'], fields: [['validator', 'bytes32'], ['oldBps', 'u16', { json: 'old_commission_bps' }], ['newBps', 'u16', { json: 'commission_bps' }]] },
  { name: 'ValidatorUnjailed', code: 66, core: 'EV_VALIDATOR_UNJAILED', bytes: 32, accounts: ['validator'], fields: [['validator', 'bytes32']] },
  { name: 'AutoCompoundSet', code: 67, core: 'EV_AUTO_COMPOUND_SET', bytes: 65, accounts: ['validator', 'delegator'], fields: [['validator', 'bytes32'], ['delegator', 'bytes32'], ['enabled', 'u8', { as: 'bool' }]] },
  // The pool's name fills the rest.
  { name: 'PoolConfigSet', code: 68, core: 'EV_POOL_CONFIG_SET', accounts: ['validator'], receipt: { first: ['validator', 'pool_enabled', 'pool_name'] }, fields: [
    ['validator', 'bytes32'], ['enabled', 'u8', { as: 'bool', json: 'pool_enabled' }], ['minDelegation', 'u128'], ['autoCompoundDefault', 'u8', { as: 'bool' }], ['name', 'rest', { as: 'utf8', json: 'pool_name' }]] },
  // The four Borsh strings of the operation (name, description, website, avatar_url) fill the rest.
  { name: 'ValidatorMetadataSet', code: 69, core: 'EV_VALIDATOR_METADATA_SET', accounts: ['validator'], fields: [['validator', 'bytes32'], ['metadata', 'rest', { as: 'strings', strings: ['name', 'description', 'website', 'avatarUrl'] }]] },
  { name: 'DoubleSignReported', code: 70, core: 'EV_DOUBLE_SIGN_REPORTED', bytes: 116, accounts: ['validator', 'reporter'], fields: [
    ['validator', 'bytes32'], ['consensusKey', 'bytes32', { j: 'hex' }], ['reporter', 'bytes32'], ['height', 'u64'], ['offences', 'u32'], ['jailedUntil', 'u64']] },
  { name: 'ConsensusKeyRotationQueued', code: 71, core: 'EV_CONSENSUS_KEY_ROTATION_QUEUED', bytes: 72, accounts: ['validator'], fields: [
    ['validator', 'bytes32'], ['newKey', 'bytes32', { json: 'new_consensus_key', j: 'hex' }], ['epoch', 'u64']] },
];

// The header before each event's data (docs/core-abi.md "Event kinds and data"): Event { bundle_index
// u32, op_index u16, kind u8, data Vec<u8> }, the data's u32 length last. Its length is EVENT_HEADER_BYTES.
export const eventHeader = [['bundleIndex', 'u32'], ['opIndex', 'u16'], ['kind', 'u8'], ['dataLen', 'u32']];

// Names the host gives an enum field of an event (a field's `enum` hint): its value indexes the
// list, and a value past its end decodes as 'Unknown'.
export const eventEnums = {
  /** The chain parameters a ParameterChange may set, in the order of its key (abi/operations.mjs ProposalAction; docs/governance.md "Parameters"). */
  PARAMETER_KEYS: ['min_stake', 'unbonding_seconds', 'commission_cooldown_blocks', 'max_commission_bps', 'missed_skip_threshold', 'max_active_validators',
    'voting_period_blocks', 'quorum_bps', 'threshold_bps'],
  /** The DaoProposalEvent actions in their u8 order (assembly/domains/dao/ops.ts). */
  DAO_EVENT_ACTIONS: ['proposed', 'voted_yes', 'voted_no', 'executed', 'cancelled', 'unlocked'],
  /** ScheduleCreated.scheduleKind (docs/schedules.md). */
  SCHEDULE_KINDS: ['Recurring', 'Conditional'],
  /** SafetyLevelSet.targetKind: a contract's Blake3 target or a collection (docs/governance.md "Safety levels"). */
  SAFETY_TARGET_KINDS: ['contract', 'collection'],
};
