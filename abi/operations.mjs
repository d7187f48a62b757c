// Operations (docs/bundle-format.md "Operation"; facts.md "Transaction bundle"): one row per enum
// variant, in Borsh field order. Discriminants are stable forever once released; numbers 1–119
// without a row are reserved (the core answers OP_NOT_ENABLED), anything above is malformed.
//
// Field types: u8 u16 u32 u64 u128 bool; bytes32, bytes64 (fixed arrays); ['vec', BOUND] (Vec<u8>);
// ['string', BOUND] (String, strict UTF-8); ['option-string', BOUND]; 'entries' (Vec of
// { type_id u64, amount u128 }, bounded by CODEC_BATCH_BOUND); ['choice', [A, B, …]] (a u8 that
// names one of the values, 0 = A; the host type is the string); ['tagged', ENUM] (a u8 tag, then
// that variant's fields: one of `enums` below; the host type is { kind: VARIANT, …fields });
// ['operations', BOUND, WHAT] (a nested Vec<Operation> of 1 to BOUND operations, each encoded as
// in a bundle; operations whose row says `nested: false` may not appear inside; WHAT names the
// holder in the CodecError messages). `wire` is the field's name in the
// Borsh layout and in CodecError messages. BOUNDs are the host codec's limits before allocating;
// the exact semantic limits (name lengths, decimals, …) are the core's, answered with a status.
//
// `gas` is what the operation adds to the bundle's GAS_BASE (spec §8; docs/core-abi.md "Rules"):
// `base` names a figure of `gasFigures` below, and `perEntry` (a batch's entries) or `perByte`
// (the bytes a RegisterProgram or CreateSchedule stores) one charged per unit. The decoder records
// the count, so gas is known from the operations alone, before any state is read. Every operation
// the core enables has one; the core's opGas and the host's estimates use the generated names.
//
// `handler` is the core's function that runs the operation, as `module:function(args)` with module a
// file under assembly/ (a domain's rules in domains/<group>/, the core's own operations in ops/) and
// args from: kind, user, op (its decoded 32-byte record), fields (the pointer the record holds at
// +4), at (bundleIndex, opIndex), nonce, payer, true, false, or a
// constant of assembly/abi.ts. The generator writes the dispatch from it (assembly/ops/dispatch.ts,
// and assembly/ops/dispatch-top.ts for rows with `top: true`: operations run only at a bundle's top
// level, by assembly/block.ts, never inside a schedule, a proposal or a multi-sig transaction), so an
// operation needs no hand edit of a dispatch. Its decoding is generated too: assembly/decode-ops.ts
// for an operation whose fields are all fixed, assembly/decode-var-ops.ts for the others
// (docs/core-abi.md "Operation records").
//
// `record` names the u32 slots (+4, +8, …; null: a slot left unused) of the 32-byte record the core's
// decoder leaves for an operation with its own layout; without it the record is +4 the fields and +8
// their length. A slot is a field (its pointer, or the value of a u8, bool or choice), or a field
// with `Len` (bytes), `Count` (items), `Tag` or `Body` (a tagged field's tag and its variant's
// fields); [SLOT, SOURCE] where the slot's name is not its source, and SOURCE `gasBytes` or
// `heldGas` for the two below. The core reads the slots by their generated names
// (OPR_<OPERATION>_<SLOT>, and OPR_FIELDS, OPR_FIELDS_LEN); a per-byte gas count sits in the fourth
// slot (+16), a batch's entry count in the third (+12).
// `gasBytes` (with gas.perByte): the field or fields whose bytes the per-byte gas counts (their sum is
// the fourth slot). `heldGas: FIELD`: the slot with source `heldGas` holds the own gas of the
// operations FIELD holds (a multi-sig proposal prepays them; a hand-written hook of assembly/bundle.ts).
// `nested: false`: not inside a schedule's, a proposal's or a multi-sig transaction's operations.
// `firstOnly: true`: only as the first operation of its list (the bridge's attested operations,
// which the host finds at byte 36 of the bundle). A field with `checkedAt: 'execution'` is any
// byte to the core's decoder; its handler answers an out-of-range value with a status.
//
// `group` gathers operations into the host's union types (StakingOperation, CollectionOperation).
// `core: false` marks a variant the host codec knows but the core does not enable yet (the core
// answers OP_NOT_ENABLED).

export const bounds = {
  MAX_PUBKEY_BYTES: { value: 4096, doc: "public key vec bound for AddKey/RotateKey/sender_pubkey: the largest key is ML-DSA-65's 1,952 bytes" },
  MAX_TOKEN_NAME_BYTES: { value: 1024, doc: 'CreateToken name, before allocating (the core applies the exact 64)' },
  MAX_TOKEN_SYMBOL_BYTES: { value: 1024, doc: 'CreateToken symbol, before allocating (the core applies the exact 16)' },
  MAX_METADATA_FIELD_BYTES: { value: 4096, doc: 'one token metadata string; the core applies the exact per-field limits (docs/dex.md)' },
  MAX_NAME_BYTES: { value: 1024, doc: 'a RegisterName string; the core applies the exact rule (INVALID_NAME_FORMAT)' },
  MAX_PROGRAM_NAME_BYTES: { value: 1024, doc: 'a RegisterProgram name; the core checks 3–64 of [a-z0-9_-] (INVALID_PROGRAM_NAME)' },
  MAX_PROGRAM_JSON_BYTES: { value: 65_536, doc: 'a RegisterProgram JSON text; the core checks 1–16,384 bytes (INVALID_PROGRAM)' },
  MAX_STAKING_STRING_BYTES: { value: 4096, doc: 'staking strings (the core applies the exact limits, docs/staking.md)' },
  MAX_HEADER_BYTES: { value: 4096, doc: 'a ReportDoubleSign header' },
  MAX_COLLECTION_STRING_BYTES: { value: 4096, doc: 'collection strings; the core applies the exact limits (docs/collections.md)' },
  MAX_PROPOSAL_STRING_BYTES: { value: 8192, doc: 'a proposal title, description or ContractSafety string, before allocating (the core applies the exact limits, docs/governance.md)' },
  MAX_UPGRADE_STRING_BYTES: { value: 4096, doc: 'an upgrade name or URL before allocating; the core applies the exact limits (docs/upgrades.md)' },
  MAX_STD8_STRING_BYTES: { value: 1024, doc: 'a CreateStableToken string; the core applies the exact limits (docs/stablecoins.md)' },
  MAX_STD8_LIST_BYTES: { value: 4096, doc: 'a CreateStableToken guardians/cosigners/origin_mappings vec; the core applies the exact limits (docs/stablecoins.md)' },
  MAX_BATCH_ENTRIES: { value: 16, doc: 'entries of one batch operation (docs/collections.md: 1–16; the core refuses others with INVALID_BATCH)' },
  MAX_ANCHOR_STRING_BYTES: { value: 1024, doc: 'an Anchor namespace or key, before allocating (the core applies 1–64 and 1–256 bytes: docs/anchors.md)' },
  MAX_PASSPORT_STRING_BYTES: { value: 4096, doc: 'a gamertag, game id, game name or profile data, before allocating (the core applies the exact limits: docs/passports.md)' },
  CODEC_BATCH_BOUND: { value: 1024, doc: "the codec's own bound on a batch's length prefix, so a test can still send 17 and see the core refuse it" },
  MAX_BRIDGE_STRING_BYTES: { value: 1024, doc: 'a bridge chain, tx hash, contract, symbol or destination string, before allocating (the core applies the exact limits: docs/bridge.md)' },
  MAX_BRIDGE_LIST_BYTES: { value: 4096, doc: 'a bridge attester list (n × 32) or signature list (n × 96), before allocating (the core applies BRIDGE_MAX_ATTESTERS)' },
  MAX_ACCOUNT_LIST: { value: 64, doc: 'a guardian or signer list, before allocating (the core applies the exact 1–10 guardians and 1–16 signers; docs/accounts.md)' },
  MAX_MULTISIG_STRING_BYTES: { value: 1024, doc: 'a multi-sig label or proposal description, before allocating (the core applies 64 and 256 bytes)' },
};

// Gas figures, each named once (docs/core-abi.md "Rules", docs/dex.md, docs/names.md,
// docs/staking.md, docs/collections.md, docs/intents.md "Gas"); rows below refer to them by name.
export const gasFigures = {
  GAS_TRANSFER: { value: 16000, doc: 'Transfer (with GAS_BASE, the 21,000 of an EVM transfer)' },
  GAS_APPROVE: { value: 16000, doc: 'Approve: one allowance record (docs/allowances.md "Gas"; with GAS_BASE the 21,000 of an EVM approve)' },
  GAS_TRANSFER_FROM: { value: 21000, doc: 'TransferFrom: the allowance and a Transfer (docs/allowances.md "Gas")' },
  GAS_CREATE_TOKEN: { value: 45000, doc: 'CreateToken' },
  GAS_CREATE_POOL: { value: 80000, doc: 'CreatePool (docs/dex.md "Gas")' },
  GAS_ADD_LIQUIDITY: { value: 50000, doc: 'AddLiquidity' },
  GAS_REMOVE_LIQUIDITY: { value: 50000, doc: 'RemoveLiquidity' },
  GAS_SWAP: { value: 40000, doc: 'Swap' },
  GAS_UPDATE_TOKEN_METADATA: { value: 30000, doc: 'UpdateTokenMetadata' },
  GAS_LOCK_TOKEN_METADATA: { value: 20000, doc: 'LockTokenMetadata' },
  GAS_REGISTER_NAME: { value: 40000, doc: 'RegisterName: a name record and, for a first name, the reverse record (docs/names.md)' },
  GAS_STAKING: { value: 30000, doc: 'each staking operation and RotateConsensusKey: a few record reads and writes (docs/staking.md "Gas")' },
  GAS_REPORT_DOUBLE_SIGN: { value: 50000, doc: 'ReportDoubleSign: hashes two headers and jails (docs/staking.md)' },
  GAS_CREATE_COLLECTION: { value: 60000, doc: 'CreateNftCollection, CreateMultiTokenCollection (docs/collections.md "Gas")' },
  GAS_DEFINE_TOKEN_TYPE: { value: 40000, doc: 'DefineTokenType' },
  GAS_COLLECTION_MINT: { value: 30000, doc: 'MintNft, MintMultiToken' },
  GAS_COLLECTION_MOVE: { value: 25000, doc: 'TransferNft, BurnNft, TransferMultiToken, BurnMultiToken' },
  GAS_BATCH_BASE: { value: 15000, doc: 'a batch multi-token operation, plus GAS_BATCH_ENTRY per entry' },
  GAS_BATCH_ENTRY: { value: 5000, doc: 'per entry of a batch' },
  GAS_REGISTER_PROGRAM: { value: 30000, doc: 'RegisterProgram, plus GAS_PROGRAM_BYTE per JSON byte: the largest program (16,384 bytes) stays under the 100,000 client default with the base gas (docs/intents.md "Programs on chain")' },
  GAS_PROGRAM_BYTE: { value: 3, doc: 'per byte of a RegisterProgram JSON' },
  GAS_CREATE_SCHEDULE: { value: 40000, doc: 'CreateSchedule, plus GAS_SCHEDULE_BYTE per byte of the stored operations (at most 4,096: 52,288 gas; docs/schedules.md)' },
  GAS_SCHEDULE_BYTE: { value: 3, doc: "per byte of a schedule's operations (their Borsh Vec)" },
  GAS_GOV_CREATE_PROPOSAL: { value: 30000, doc: 'CreateProposal, plus GAS_GOV_PROPOSAL_BYTE per byte of its title, description and action (docs/governance.md "Gas")' },
  GAS_GOV_PROPOSAL_BYTE: { value: 3, doc: 'per byte a CreateProposal stores' },
  GAS_GOV_VOTE: { value: 25000, doc: 'VoteProposal: reads the voter\'s delegations (at most 32), writes a vote and the tally' },
  GAS_GOV_EXECUTE: { value: 80000, doc: "ExecuteProposal, flat: the proposal's action, including its at most MAX_PROPOSAL_OPS operations run as GOVERNANCE (docs/governance.md \"Gas\")" },
  GAS_GOV_CANCEL: { value: 20000, doc: 'CancelProposal' },
  GAS_UPGRADE_SCHEDULE: { value: 60000, doc: 'ScheduleUpgrade: a plan record with two URLs and the upgrade state (docs/upgrades.md "Gas")' },
  GAS_UPGRADE_VOTE: { value: 60000, doc: 'VoteUpgrade: a vote record and, in full mode, a tally over the active set (up to 100 validators)' },
  GAS_UPGRADE_CANCEL: { value: 30000, doc: 'CancelUpgrade: rewrites the plan and the upgrade state' },
  GAS_DAO_CREATE: { value: 60000, doc: 'CreateDao: the DAO record and the counter (docs/dao.md)' },
  GAS_DAO_PROPOSE: { value: 30000, doc: 'DaoPropose, plus GAS_GOV_PROPOSAL_BYTE per byte of its title, description and action' },
  GAS_DAO_VOTE: { value: 35000, doc: "DaoVote: locks the voter's whole token balance in the DAO's escrow (a Transfer), a vote record and the tally" },
  GAS_DAO_EXECUTE: { value: 80000, doc: "DaoExecute, flat: the proposal's at most MAX_PROPOSAL_OPS operations run as the DAO account" },
  GAS_DAO_CANCEL: { value: 20000, doc: 'DaoCancel' },
  GAS_DAO_UNLOCK: { value: 25000, doc: "DaoUnlock: returns a vote's locked tokens from the escrow (a Transfer)" },
  GAS_CANCEL_SCHEDULE: { value: 20000, doc: 'CancelSchedule: rewrites a record and a list' },
  GAS_PRESALE_CREATE: { value: 60000, doc: 'CreatePresale: the record, the counter and two escrow moves (docs/presales.md "Gas")' },
  GAS_PRESALE_CONTRIBUTE: { value: 30000, doc: 'ContributePresale: a move and two records' },
  GAS_PRESALE_FINALIZE: { value: 90000, doc: 'FinalizePresale: a CreatePool from the escrow plus two moves' },
  GAS_PRESALE_SETTLE: { value: 30000, doc: 'RefundPresale, ClaimPresaleTokens: up to three moves and two records' },
  GAS_STAKING_POOL_CREATE: { value: 40000, doc: 'CreateStakingPool: the record and the counter (docs/staking-pools.md "Gas")' },
  GAS_STAKING_POOL_OP: { value: 30000, doc: 'StakeToPool, UnstakeFromPool, ClaimPoolRewards, FundStakingPool: constant work whatever the number of stakers' },
  GAS_ATOMENCE_MM: { value: 30000, doc: 'settlement: RegisterMarketMaker, DeregisterMarketMaker: a record, the stake move and the counters (docs/settlement.md "Gas")' },
  GAS_ATOMENCE_ORDER: { value: 40000, doc: 'settlement: CreateAtomenceOrder, MatchAtomenceOrder: the order record and one escrow move' },
  GAS_ATOMENCE_SETTLE: { value: 60000, doc: 'settlement: SettleAtomenceOrder: two escrow moves, three stats records and three index entries' },
  GAS_ATOMENCE_CANCEL: { value: 35000, doc: 'settlement: CancelAtomenceOrder: the order record and up to two refunds' },
  GAS_ANCHOR: { value: 35000, doc: 'anchoring: Anchor: the anchor, its index entry and the namespace record (strings are bounded: 64 + 256 bytes; docs/anchors.md)' },
  GAS_PASSPORT: { value: 35000, doc: 'passports: CreatePassport, RegisterGame, SetGameProfile: a record, an index or counter and the stats (data at most 1,024 bytes; docs/passports.md)' },
  GAS_ACCOUNT_KEY: { value: 20000, doc: 'AddKey, RemoveKey, RotateKey, plus GAS_ACCOUNT_KEY_BYTE per byte of a new public key (docs/accounts.md "Gas")' },
  GAS_ACCOUNT_KEY_BYTE: { value: 3, doc: 'per byte of a public key AddKey, RotateKey or InitiateRecovery stores (an ML-DSA-65 key: 5,856)' },
  GAS_ACCOUNT_RECOVERY: { value: 25000, doc: 'SetRecovery, InitiateRecovery, ApproveRecovery, CancelRecovery, FinalizeRecovery (docs/accounts.md "Gas")' },
  GAS_MULTISIG_CREATE: { value: 40000, doc: 'CreateMultiSig (docs/accounts.md "Gas")' },
  GAS_MULTISIG_PROPOSE: { value: 30000, doc: "ProposeMultiSigTx, plus GAS_MULTISIG_BYTE per byte of its operations and the held operations' own gas, prepaid by the proposer (docs/accounts.md \"Gas\")" },
  GAS_MULTISIG_BYTE: { value: 3, doc: "per byte of a multi-sig proposal's operations (their Borsh Vec)" },
  GAS_MULTISIG_APPROVE: { value: 20000, doc: 'ApproveMultiSigTx, RevokeMultiSigApproval; the execution an approval triggers was paid by the proposal' },
  GAS_STD8_CREATE: { value: 80000, doc: 'CreateStableToken: the token, symbol, reserved symbol, STD-8 record and profile (docs/stablecoins.md "Gas")' },
  GAS_STD8_MINT: { value: 30000, doc: 'StableMint, StableBurn, StableApproveMint: the STD-8 record, a balance and the supply' },
  GAS_BRIDGE_DEPOSIT: { value: 60000, doc: 'bridge: BridgeDeposit, ClaimBridgeDeposit: the deposit record, a mint (and on first deposit the token record), the supply record (docs/bridge.md "Gas"); the attester signatures are verified by the host' },
  GAS_BRIDGE_WITHDRAW: { value: 45000, doc: 'bridge: BridgeWithdraw: the fee move, the burn, the withdrawal record and the config' },
  GAS_BRIDGE_ADMIN: { value: 30000, doc: 'bridge: RegisterBridgeMapping, SetBridgeAttesters, AttestBridgeWithdrawal, SetContractSafety: one or two records' },
  GAS_STD8_ADMIN: { value: 25000, doc: 'every other STD-8 operation: the STD-8 record (and a blacklist entry or the token record)' },
};

const f = (name, wire, type, doc) => ({ name, wire, type, doc });
const s = (name, wire, bound, doc) => f(name, wire, ['string', bound], doc);

// Tagged enums an operation field can hold (['tagged', NAME]): `what` names the field in the
// CodecError of an unknown tag; each variant's fields follow its u8 tag in Borsh order.
export const enums = {
  // Protocol proposals (spec §4.14; docs/governance.md "Proposal types"): what a passed proposal does.
  ProposalAction: { what: 'proposal type', doc: 'what a passed proposal does (docs/governance.md "Proposal types")', variants: [
    { name: 'Text', tag: 0, fields: [] },
    { name: 'ParameterChange', tag: 1, fields: [
      f('key', 'key', ['choice', ['min_stake', 'unbonding_seconds', 'commission_cooldown_blocks', 'max_commission_bps', 'missed_skip_threshold', 'max_active_validators', 'voting_period_blocks', 'quorum_bps', 'threshold_bps']], 'the chain parameter (docs/governance.md "Parameters")'),
      f('value', 'value', 'u128', 'the new value; the core checks its allowed range'),
    ] },
    { name: 'TreasurySpend', tag: 2, fields: [f('recipient', 'recipient', 'bytes32'), f('amount', 'amount', 'u128', 'raw NTV from the foundation treasury 0x00…03')] },
    { name: 'ContractSafety', tag: 3, fields: [
      s('chain', 'chain', 'MAX_PROPOSAL_STRING_BYTES', 'origin chain name, e.g. ethereum (1–128 bytes)'),
      s('contract', 'contract', 'MAX_PROPOSAL_STRING_BYTES', 'contract address on that chain (1–128 bytes)'),
      f('level', 'level', 'u8', '0 unreviewed, 1 verified, 2 caution, 3 blocked'),
    ] },
    { name: 'CollectionSafety', tag: 4, fields: [f('collection', 'collection', 'bytes32'), f('level', 'level', 'u8', '0 unreviewed, 1 verified, 2 caution, 3 blocked')] },
    { name: 'CreateStablecoin', tag: 5, fields: [f('operations', 'operations', ['operations', 'MAX_PROPOSAL_OPS', 'a proposal'], 'run as GOVERNANCE: the STD-8 creation operation')] },
    { name: 'VerifyIssuer', tag: 6, fields: [f('operations', 'operations', ['operations', 'MAX_PROPOSAL_OPS', 'a proposal'], 'run as GOVERNANCE: the issuer verification operation')] },
    { name: 'RaiseSupplyCap', tag: 7, fields: [f('operations', 'operations', ['operations', 'MAX_PROPOSAL_OPS', 'a proposal'], 'run as GOVERNANCE: the supply cap operation')] },
    { name: 'BridgeAttesters', tag: 8, fields: [f('operations', 'operations', ['operations', 'MAX_PROPOSAL_OPS', 'a proposal'], 'run as GOVERNANCE: the attester set operation')] },
  ] },
  // DAOs (issue 22 item 5; docs/dao.md): what a passed DAO proposal does.
  DaoAction: { what: 'DAO proposal type', doc: 'what a passed DAO proposal does (docs/dao.md)', variants: [
    { name: 'Text', tag: 0, fields: [] },
    { name: 'Operations', tag: 1, fields: [f('operations', 'operations', ['operations', 'MAX_PROPOSAL_OPS', 'a DAO proposal'], "run as the DAO account: spends from the DAO's treasury")] },
  ] },
  ScheduleTrigger: { what: 'schedule trigger', doc: 'when a schedule runs (docs/schedules.md)', variants: [
    { name: 'Recurring', tag: 0, fields: [
      f('intervalSeconds', 'interval_seconds', 'u64', 'seconds between runs (the core allows 60 to ten years)'),
      f('runs', 'runs', 'u32', 'how many runs in all (at least 1)'),
      f('firstRun', 'first_run', 'u64', 'unix seconds of the first run; 0 = one interval from creation'),
    ] },
    { name: 'Conditional', tag: 1, fields: [
      f('base', 'base', 'bytes32'), f('quote', 'quote', 'bytes32'),
      { ...f('direction', 'direction', ['choice', ['below', 'above']], "run when the pool's price of base in quote is at or below / at or above the limit"), checkedAt: 'execution' },
      f('priceNum', 'price_num', 'u128'), f('priceDen', 'price_den', 'u128'),
      f('expiry', 'expiry', 'u64', 'unix seconds after which the schedule expires unrun'),
    ] },
  ] },
};
const META = ['metadataUri', 'image', 'description', 'externalUrl', 'twitter', 'discord', 'telegram', 'github'];
const details = [
  s('description', 'description', 'MAX_COLLECTION_STRING_BYTES'),
  s('iconUri', 'icon_uri', 'MAX_COLLECTION_STRING_BYTES'),
  s('bannerUri', 'banner_uri', 'MAX_COLLECTION_STRING_BYTES'),
  s('externalUrl', 'external_url', 'MAX_COLLECTION_STRING_BYTES'),
];
const cs = (name, wire) => s(name, wire, 'MAX_COLLECTION_STRING_BYTES');

export const operations = [
  { name: 'Transfer', code: 0, handler: 'ops/transfer:execTransfer(user, fields, at, payer)', top: true, gas: { base: 'GAS_TRANSFER' }, group: 'core', fields: [
    f('to', 'to', 'bytes32', 'recipient account'),
    f('token', 'token', 'bytes32', 'token mint; 32 zero bytes = NTV (spec §1.4)'),
    f('amount', 'amount', 'u128', 'raw units'),
  ] },
  // Account keys (spec §2.5, §3 "Account key", §5.9; docs/accounts.md): owner-role keys only (the
  // core refuses them from an operator key with KEY_ROLE_NOT_ALLOWED); never inside a schedule or a
  // multi-sig proposal (nested: false), so a held operation cannot change who signs for an account.
  { name: 'AddKey', code: 1, handler: 'ops/accounts:execAddKey(user, op, at)', record: ['pubkey', 'keyType', 'role', 'pubkeyLen'], gas: { base: 'GAS_ACCOUNT_KEY', perByte: 'GAS_ACCOUNT_KEY_BYTE' }, gasBytes: 'pubkey', group: 'keys', nested: false, fields: [
    f('pubkey', 'pubkey', ['vec', 'MAX_PUBKEY_BYTES'], '32 bytes (Ed25519) or 1,952 bytes (ML-DSA-65)'),
    f('keyType', 'key_type', 'u8', '0 = Ed25519, 1 = ML-DSA-65 (KEY_TYPE_*)'),
    f('role', 'role', 'u8', '0 = owner (everything), 1 = operator (everything but key and recovery management; docs/accounts.md "Roles")'),
  ] },
  { name: 'RemoveKey', code: 2, handler: 'ops/accounts:execRemoveKey(user, op, at)', gas: { base: 'GAS_ACCOUNT_KEY' }, group: 'keys', nested: false, fields: [f('pubkeyHash', 'pubkey_hash', 'bytes32', 'SHA256 of the public key to remove')] },
  { name: 'RotateKey', code: 3, handler: 'ops/accounts:execRotateKey(user, op, at)', record: [['oldKeyHash', 'oldPubkeyHash'], ['keyType', 'newKeyType'], ['pubkey', 'newPubkey'], ['pubkeyLen', 'newPubkeyLen']], gas: { base: 'GAS_ACCOUNT_KEY', perByte: 'GAS_ACCOUNT_KEY_BYTE' }, gasBytes: 'newPubkey', group: 'keys', nested: false, fields: [
    f('oldPubkeyHash', 'old_pubkey_hash', 'bytes32', 'SHA256 of the registered key to replace'),
    f('newPubkey', 'new_pubkey', ['vec', 'MAX_PUBKEY_BYTES'], 'takes the old key\'s role'),
    f('newKeyType', 'new_key_type', 'u8'),
  ] },
  // Staking (docs/staking.md "Operations"). `validator` names a validator by its staking account;
  // validatorPubkey, newConsensusPubkey and ReportDoubleSign's validator are Ed25519 consensus keys.
  { name: 'Stake', code: 4, handler: 'domains/staking/ops:execStaking(kind, user, fields, at)', gas: { base: 'GAS_STAKING' }, group: 'staking', fields: [f('amount', 'amount', 'u128'), f('validatorPubkey', 'validator_pubkey', 'bytes32')] },
  { name: 'Unstake', code: 5, handler: 'domains/staking/ops:execStaking(kind, user, fields, at)', gas: { base: 'GAS_STAKING' }, group: 'staking', fields: [f('amount', 'amount', 'u128')] },
  { name: 'ClaimUnstake', code: 6, handler: 'domains/staking/ops:execStaking(kind, user, fields, at)', gas: { base: 'GAS_STAKING' }, group: 'staking', fields: [] },
  { name: 'Delegate', code: 7, handler: 'domains/staking/ops:execStaking(kind, user, fields, at)', gas: { base: 'GAS_STAKING' }, group: 'staking', fields: [f('validator', 'validator', 'bytes32'), f('amount', 'amount', 'u128')] },
  { name: 'Undelegate', code: 8, handler: 'domains/staking/ops:execStaking(kind, user, fields, at)', gas: { base: 'GAS_STAKING' }, group: 'staking', fields: [f('validator', 'validator', 'bytes32'), f('amount', 'amount', 'u128')] },
  { name: 'ClaimRewards', code: 9, handler: 'domains/staking/ops:execStaking(kind, user, fields, at)', gas: { base: 'GAS_STAKING' }, group: 'staking', fields: [] },
  { name: 'SetCommission', code: 10, handler: 'domains/staking/ops:execStaking(kind, user, fields, at)', gas: { base: 'GAS_STAKING' }, group: 'staking', fields: [f('rate', 'rate', 'u16')] },
  { name: 'Unjail', code: 11, handler: 'domains/staking/ops:execStaking(kind, user, fields, at)', gas: { base: 'GAS_STAKING' }, group: 'staking', fields: [] },
  { name: 'SetAutoCompound', code: 12, handler: 'domains/staking/ops:execStaking(kind, user, fields, at)', gas: { base: 'GAS_STAKING' }, group: 'staking', fields: [f('validator', 'validator', 'bytes32'), f('enable', 'enable', 'bool')] },
  { name: 'SetPoolConfig', code: 13, handler: 'domains/staking/ops:execStaking(kind, user, fields, at)', gas: { base: 'GAS_STAKING' }, group: 'staking', fields: [
    f('poolEnabled', 'pool_enabled', 'bool'),
    s('poolName', 'pool_name', 'MAX_STAKING_STRING_BYTES'),
    f('minDelegation', 'min_delegation', 'u128'),
    f('autoCompoundDefault', 'auto_compound_default', 'bool'),
  ] },
  { name: 'SetValidatorMetadata', code: 14, handler: 'domains/staking/ops:execStaking(kind, user, fields, at)', gas: { base: 'GAS_STAKING' }, group: 'staking', fields: [
    s('name', 'name', 'MAX_STAKING_STRING_BYTES'),
    s('description', 'description', 'MAX_STAKING_STRING_BYTES'),
    s('website', 'website', 'MAX_STAKING_STRING_BYTES'),
    s('avatarUrl', 'avatar_url', 'MAX_STAKING_STRING_BYTES'),
  ] },
  // Protocol proposals (spec §4.14; docs/governance.md) at facts.md's order. Voting weight is bonded
  // stake; a passed proposal's action runs as GOVERNANCE 0x00…09. None may sit inside a schedule or
  // a proposal (a proposal executing proposals would recurse).
  { name: 'CreateProposal', code: 18, handler: 'domains/governance/ops:execCreateProposal(user, op, at)', top: true, record: ['title', 'titleLen', 'description', ['storedBytes', 'gasBytes'], 'descriptionLen', 'action', 'actionLen'], gas: { base: 'GAS_GOV_CREATE_PROPOSAL', perByte: 'GAS_GOV_PROPOSAL_BYTE' }, gasBytes: ['title', 'description', 'action'], group: 'governance', nested: false, fields: [
    s('title', 'title', 'MAX_PROPOSAL_STRING_BYTES', '1–128 bytes'),
    s('description', 'description', 'MAX_PROPOSAL_STRING_BYTES', 'at most 4,096 bytes'),
    f('action', 'action', ['tagged', 'ProposalAction']),
  ] },
  { name: 'VoteProposal', code: 19, handler: 'domains/governance/ops:execVoteProposal(user, fields, at)', top: true, gas: { base: 'GAS_GOV_VOTE' }, group: 'governance', nested: false, fields: [f('proposalId', 'proposal_id', 'u64'), f('approve', 'approve', 'bool')] },
  { name: 'ExecuteProposal', code: 20, handler: 'domains/governance/ops:execExecuteProposal(user, fields, at)', top: true, gas: { base: 'GAS_GOV_EXECUTE' }, group: 'governance', nested: false, fields: [f('proposalId', 'proposal_id', 'u64')] },
  { name: 'CancelProposal', code: 21, handler: 'domains/governance/ops:execCancelProposal(user, fields, at)', top: true, gas: { base: 'GAS_GOV_CANCEL' }, group: 'governance', nested: false, fields: [f('proposalId', 'proposal_id', 'u64')] },
  // Multi-sig accounts (spec §4.14; docs/multisig.md): the account is Blake3-derived
  // (Nx5…); a proposal's operations run as it once `threshold` signers approved, all or nothing.
  { name: 'CreateMultiSig', code: 22, handler: 'domains/multisig/ops:execCreateMultiSig(user, op, nonce, at)', top: true, record: ['signers', ['signerCount', 'signersCount'], 'threshold', null, 'label', 'labelLen'], gas: { base: 'GAS_MULTISIG_CREATE' }, group: 'multisig', nested: false, fields: [
    f('signers', 'signers', ['accounts', 'MAX_ACCOUNT_LIST'], '1–16 distinct accounts'),
    f('threshold', 'threshold', 'u8', 'approvals needed: 1 to the number of signers'),
    s('label', 'label', 'MAX_MULTISIG_STRING_BYTES', 'at most 64 bytes'),
  ] },
  { name: 'ProposeMultiSigTx', code: 23, handler: 'domains/multisig/ops:execProposeMultiSigTx(user, op, at)', top: true, record: ['multisig', 'description', 'operations', 'operationsLen', ['operationCount', 'operationsCount'], 'descriptionLen', ['heldGas', 'heldGas']], gas: { base: 'GAS_MULTISIG_PROPOSE', perByte: 'GAS_MULTISIG_BYTE' }, gasBytes: 'operations', heldGas: 'operations', group: 'multisig', nested: false, fields: [
    f('multisig', 'multisig_address', 'bytes32'),
    f('operations', 'operations', ['operations', 'MAX_MULTISIG_OPS', 'a multi-sig proposal'], 'run in order as the multi-sig account once approved'),
    s('description', 'description', 'MAX_MULTISIG_STRING_BYTES', 'at most 256 bytes'),
  ] },
  { name: 'ApproveMultiSigTx', code: 24, handler: 'domains/multisig/ops:execApproveMultiSigTx(user, op, true, at)', top: true, gas: { base: 'GAS_MULTISIG_APPROVE' }, group: 'multisig', nested: false, fields: [f('multisig', 'multisig_address', 'bytes32'), f('txId', 'tx_id', 'u64')] },
  { name: 'RevokeMultiSigApproval', code: 25, handler: 'domains/multisig/ops:execApproveMultiSigTx(user, op, false, at)', top: true, gas: { base: 'GAS_MULTISIG_APPROVE' }, group: 'multisig', nested: false, fields: [f('multisig', 'multisig_address', 'bytes32'), f('txId', 'tx_id', 'u64')] },
  // Upgrade governance (spec §4.13, §9.4; docs/upgrades.md) at facts.md's slots 15–17.
  { name: 'ScheduleUpgrade', code: 15, handler: 'domains/upgrades/ops:execScheduleUpgrade(user, op, at)', record: ['name', 'nameLen', 'height', 'binaryUrl', 'binaryUrlLen', 'checksum'], gas: { base: 'GAS_UPGRADE_SCHEDULE' }, group: 'upgrades', fields: [
    s('name', 'name', 'MAX_UPGRADE_STRING_BYTES', "the release's name, 1–64 of [A-Za-z0-9._-] (for example v0.2.0); never reused"),
    f('height', 'height', 'u64', 'the first block the new release executes; above the current height'),
    s('binaryUrl', 'binary_url', 'MAX_UPGRADE_STRING_BYTES', 'where the packed release can be fetched (0–512 bytes; may be empty when operators place it themselves)'),
    f('checksum', 'checksum', 'bytes32', 'SHA-256 of the packed release; the supervisor refuses a file that does not match'),
    s('infoUrl', 'info_url', 'MAX_UPGRADE_STRING_BYTES', 'release notes (0–512 bytes)'),
  ] },
  { name: 'CancelUpgrade', code: 16, handler: 'domains/upgrades/ops:execCancelUpgrade(user, op, at)', record: ['name', 'nameLen'], gas: { base: 'GAS_UPGRADE_CANCEL' }, group: 'upgrades', fields: [s('name', 'name', 'MAX_UPGRADE_STRING_BYTES')] },
  { name: 'VoteUpgrade', code: 17, handler: 'domains/upgrades/ops:execVoteUpgrade(user, op, at)', record: ['name', 'nameLen', 'approve'], gas: { base: 'GAS_UPGRADE_VOTE' }, group: 'upgrades', fields: [
    s('name', 'name', 'MAX_UPGRADE_STRING_BYTES'), f('approve', 'approve', 'bool'),
  ] },
  // DAOs (issue 22 item 5; docs/dao.md): token-weighted votes lock the voter's tokens
  // in the DAO's escrow until the vote ends; a passed proposal's operations run as the DAO account.
  { name: 'CreateDao', code: 85, handler: 'domains/dao/ops:execCreateDao(user, op, at)', top: true, record: ['name', 'nameLen', ['fields', 'tokenMint']], gas: { base: 'GAS_DAO_CREATE' }, group: 'dao', nested: false, fields: [
    s('name', 'name', 'MAX_PROPOSAL_STRING_BYTES', '1–64 bytes'),
    f('tokenMint', 'token_mint', 'bytes32', 'the voting token (not NTV)'),
    f('quorumBps', 'quorum_bps', 'u16', 'votes cast ≥ this share of the token supply (1–10,000)'),
    f('thresholdBps', 'threshold_bps', 'u16', 'yes > this share of the votes cast (5,000–9,999)'),
    f('votingPeriod', 'voting_period', 'u64', 'blocks (1–1,000,000)'),
    f('executionDelay', 'execution_delay', 'u64', 'blocks after the vote before execution (0–1,000,000)'),
    f('proposalThreshold', 'proposal_threshold', 'u128', 'raw token units a proposer must hold'),
  ] },
  { name: 'DaoPropose', code: 86, handler: 'domains/dao/ops:execDaoPropose(user, op, at)', top: true, record: ['title', 'titleLen', 'description', ['storedBytes', 'gasBytes'], 'descriptionLen', 'action', 'actionLen'], gas: { base: 'GAS_DAO_PROPOSE', perByte: 'GAS_GOV_PROPOSAL_BYTE' }, gasBytes: ['title', 'description', 'action'], group: 'dao', nested: false, fields: [
    f('dao', 'dao', 'bytes32'),
    s('title', 'title', 'MAX_PROPOSAL_STRING_BYTES', '1–128 bytes'),
    s('description', 'description', 'MAX_PROPOSAL_STRING_BYTES', 'at most 4,096 bytes'),
    f('action', 'action', ['tagged', 'DaoAction']),
  ] },
  { name: 'DaoVote', code: 87, handler: 'domains/dao/ops:execDaoVote(user, fields, at)', top: true, gas: { base: 'GAS_DAO_VOTE' }, group: 'dao', nested: false, fields: [f('dao', 'dao', 'bytes32'), f('proposalId', 'proposal_id', 'u64'), f('approve', 'approve', 'bool')] },
  { name: 'DaoExecute', code: 88, handler: 'domains/dao/ops:execDaoExecute(user, fields, at)', top: true, gas: { base: 'GAS_DAO_EXECUTE' }, group: 'dao', nested: false, fields: [f('dao', 'dao', 'bytes32'), f('proposalId', 'proposal_id', 'u64')] },
  { name: 'DaoCancel', code: 89, handler: 'domains/dao/ops:execDaoCancel(user, fields, at)', top: true, gas: { base: 'GAS_DAO_CANCEL' }, group: 'dao', nested: false, fields: [f('dao', 'dao', 'bytes32'), f('proposalId', 'proposal_id', 'u64')] },
  { name: 'DaoUnlock', code: 90, handler: 'domains/dao/ops:execDaoUnlock(user, fields, at)', top: true, gas: { base: 'GAS_DAO_UNLOCK' }, group: 'dao', nested: false, fields: [f('dao', 'dao', 'bytes32'), f('proposalId', 'proposal_id', 'u64')] },
  // The DEX (spec §4.2, docs/dex.md) at the discriminants facts.md's order gives them. Token
  // order is the caller's; the core sorts the pair.
  { name: 'CreatePool', code: 28, handler: 'domains/dex/ops:execCreatePool(user, fields, at)', gas: { base: 'GAS_CREATE_POOL' }, group: 'dex', fields: [
    f('tokenA', 'token_a', 'bytes32'), f('tokenB', 'token_b', 'bytes32'),
    f('amountA', 'amount_a', 'u128'), f('amountB', 'amount_b', 'u128'),
    f('lpLockDuration', 'lp_lock_duration', 'u64', "seconds the creator's initial LP stays locked (the core allows at most 10 years)"),
  ] },
  { name: 'AddLiquidity', code: 29, handler: 'domains/dex/ops:execAddLiquidity(user, fields, at)', gas: { base: 'GAS_ADD_LIQUIDITY' }, group: 'dex', fields: [
    f('tokenA', 'token_a', 'bytes32'), f('tokenB', 'token_b', 'bytes32'),
    f('amountA', 'amount_a', 'u128'), f('amountB', 'amount_b', 'u128'), f('minLp', 'min_lp_tokens', 'u128'),
  ] },
  { name: 'RemoveLiquidity', code: 30, handler: 'domains/dex/ops:execRemoveLiquidity(user, fields, at)', gas: { base: 'GAS_REMOVE_LIQUIDITY' }, group: 'dex', fields: [
    f('tokenA', 'token_a', 'bytes32'), f('tokenB', 'token_b', 'bytes32'),
    f('lpAmount', 'lp_amount', 'u128'), f('minAmountA', 'min_amount_a', 'u128'), f('minAmountB', 'min_amount_b', 'u128'),
  ] },
  { name: 'Swap', code: 31, handler: 'domains/dex/ops:execSwap(user, fields, at)', gas: { base: 'GAS_SWAP' }, group: 'dex', fields: [
    f('fromToken', 'from_token', 'bytes32'), f('toToken', 'to_token', 'bytes32'),
    f('amountIn', 'amount_in', 'u128'), f('minAmountOut', 'min_amount_out', 'u128'),
  ] },
  // Names (spec §4.12, docs/names.md): the core lower-cases, drops ".vex" and checks 3–64 of [a-z0-9-].
  { name: 'RegisterName', code: 32, handler: 'domains/names/ops:execRegisterName(user, op)', record: ['name', 'nameLen'], gas: { base: 'GAS_REGISTER_NAME' }, group: 'names', fields: [s('name', 'name', 'MAX_NAME_BYTES')] },
  { name: 'CreateToken', code: 33, handler: 'ops/token:execCreateToken(user, op, nonce, at)', top: true, record: ['name', 'nameLen', 'symbol', 'symbolLen', 'decimals', 'supply', 'owner'], gas: { base: 'GAS_CREATE_TOKEN' }, group: 'core', fields: [
    s('name', 'name', 'MAX_TOKEN_NAME_BYTES'),
    s('symbol', 'symbol', 'MAX_TOKEN_SYMBOL_BYTES'),
    f('decimals', 'decimals', 'u8'),
    f('supply', 'supply', 'u128', 'raw units'),
    f('owner', 'owner', 'bytes32'),
  ] },
  // Token metadata (spec §2.3/§4.1): creator only; an absent field is kept, an empty string clears it.
  { name: 'UpdateTokenMetadata', code: 34, handler: 'ops/token:execUpdateTokenMetadata(user, op, at)', record: ['mint', ['options', 'metadataUri']], gas: { base: 'GAS_UPDATE_TOKEN_METADATA' }, group: 'dex', fields: [
    f('mint', 'mint', 'bytes32'),
    ...META.map((m) => f(m, m, ['option-string', 'MAX_METADATA_FIELD_BYTES'])),
  ] },
  { name: 'LockTokenMetadata', code: 35, handler: 'ops/token:execLockTokenMetadata(user, op, at)', gas: { base: 'GAS_LOCK_TOKEN_METADATA' }, group: 'dex', fields: [f('mint', 'mint', 'bytes32')] },
  // Contract D: two signed headers (src/chain/block.ts headerSigningBytes) of one validator at one height.
  { name: 'ReportDoubleSign', code: 36, handler: 'domains/staking/ops:execStaking(kind, user, fields, at)', gas: { base: 'GAS_REPORT_DOUBLE_SIGN' }, group: 'staking', fields: [
    f('validator', 'validator', 'bytes32'), f('height', 'height', 'u64'),
    f('headerA', 'header_a', ['vec', 'MAX_HEADER_BYTES']), f('sigA', 'sig_a', 'bytes64'),
    f('headerB', 'header_b', ['vec', 'MAX_HEADER_BYTES']), f('sigB', 'sig_b', 'bytes64'),
  ] },
  // NFT and multi-token collections (spec §4.3, §4.4; docs/collections.md "Operations").
  { name: 'CreateNftCollection', code: 37, handler: 'domains/collections/nfts:execCreateCollection(COLLECTION_KIND_NFT, user, op, at)', gas: { base: 'GAS_CREATE_COLLECTION' }, group: 'collections', fields: [
    cs('name', 'name'), cs('symbol', 'symbol'), cs('baseUri', 'base_uri'),
    f('maxSupply', 'max_supply', 'u64', '0 = unlimited'),
    f('royaltyBps', 'royalty_bps', 'u16'), f('owner', 'owner', 'bytes32'), ...details,
  ] },
  { name: 'MintNft', code: 38, handler: 'domains/collections/nfts:execNft(kind, user, op, at)', gas: { base: 'GAS_COLLECTION_MINT' }, group: 'collections', fields: [
    f('collection', 'collection', 'bytes32'), f('tokenId', 'token_id', 'u64'), cs('metadataUri', 'metadata_uri'), f('recipient', 'recipient', 'bytes32'),
  ] },
  { name: 'TransferNft', code: 39, handler: 'domains/collections/nfts:execNft(kind, user, op, at)', gas: { base: 'GAS_COLLECTION_MOVE' }, group: 'collections', fields: [f('collection', 'collection', 'bytes32'), f('tokenId', 'token_id', 'u64'), f('to', 'to', 'bytes32')] },
  { name: 'BurnNft', code: 40, handler: 'domains/collections/nfts:execNft(kind, user, op, at)', gas: { base: 'GAS_COLLECTION_MOVE' }, group: 'collections', fields: [f('collection', 'collection', 'bytes32'), f('tokenId', 'token_id', 'u64')] },
  // Only an NFT collection caps its supply; a multi-token type carries its own (DefineTokenType).
  { name: 'CreateMultiTokenCollection', code: 41, handler: 'domains/collections/multitokens:execMultiToken(kind, user, op, at)', gas: { base: 'GAS_CREATE_COLLECTION' }, group: 'collections', fields: [
    cs('name', 'name'), cs('symbol', 'symbol'), cs('baseUri', 'base_uri'),
    f('royaltyBps', 'royalty_bps', 'u16'), f('owner', 'owner', 'bytes32'), ...details,
  ] },
  { name: 'DefineTokenType', code: 42, handler: 'domains/collections/multitokens:execMultiToken(kind, user, op, at)', gas: { base: 'GAS_DEFINE_TOKEN_TYPE' }, group: 'collections', fields: [
    f('collection', 'collection', 'bytes32'), f('typeId', 'type_id', 'u64'), cs('name', 'name'), cs('metadataUri', 'metadata_uri'),
    f('maxSupply', 'max_supply', 'u128', '0 = unlimited; a non-fungible type has exactly 1'), f('isFungible', 'is_fungible', 'bool'),
  ] },
  { name: 'MintMultiToken', code: 43, handler: 'domains/collections/multitokens:execMultiToken(kind, user, op, at)', gas: { base: 'GAS_COLLECTION_MINT' }, group: 'collections', fields: [
    f('collection', 'collection', 'bytes32'), f('typeId', 'type_id', 'u64'), f('recipient', 'recipient', 'bytes32'), f('amount', 'amount', 'u128'),
  ] },
  { name: 'TransferMultiToken', code: 44, handler: 'domains/collections/multitokens:execMultiToken(kind, user, op, at)', gas: { base: 'GAS_COLLECTION_MOVE' }, group: 'collections', fields: [
    f('collection', 'collection', 'bytes32'), f('typeId', 'type_id', 'u64'), f('to', 'to', 'bytes32'), f('amount', 'amount', 'u128'),
  ] },
  { name: 'BurnMultiToken', code: 45, handler: 'domains/collections/multitokens:execMultiToken(kind, user, op, at)', gas: { base: 'GAS_COLLECTION_MOVE' }, group: 'collections', fields: [f('collection', 'collection', 'bytes32'), f('typeId', 'type_id', 'u64'), f('amount', 'amount', 'u128')] },
  { name: 'BatchMintMultiToken', code: 46, handler: 'domains/collections/multitokens:execMultiToken(kind, user, op, at)', gas: { base: 'GAS_BATCH_BASE', perEntry: 'GAS_BATCH_ENTRY' }, group: 'collections', fields: [f('collection', 'collection', 'bytes32'), f('recipient', 'recipient', 'bytes32'), f('entries', 'entries', 'entries')] },
  { name: 'BatchTransferMultiToken', code: 47, handler: 'domains/collections/multitokens:execMultiToken(kind, user, op, at)', gas: { base: 'GAS_BATCH_BASE', perEntry: 'GAS_BATCH_ENTRY' }, group: 'collections', fields: [f('collection', 'collection', 'bytes32'), f('to', 'to', 'bytes32'), f('entries', 'entries', 'entries')] },
  // Intent programs (spec §4.9, docs/intents.md "Programs on chain"): `program` is the JSON text.
  { name: 'RegisterProgram', code: 48, handler: 'domains/programs/ops:execRegisterProgram(user, op, at)', record: ['name', 'nameLen', 'program', 'programLen'], gas: { base: 'GAS_REGISTER_PROGRAM', perByte: 'GAS_PROGRAM_BYTE' }, gasBytes: 'program', group: 'programs', fields: [s('name', 'name', 'MAX_PROGRAM_NAME_BYTES'), s('program', 'program', 'MAX_PROGRAM_JSON_BYTES')] },
  // Schedules on chain (docs/schedules.md): the operations run as the owner at
  // each due run; the core refuses CreateToken inside and checks the trigger's ranges
  // (INVALID_SCHEDULE_TRIGGER / INVALID_SCHEDULE_OPERATIONS). Neither can sit inside a schedule.
  { name: 'CreateSchedule', code: 49, handler: 'domains/schedules/ops:execCreateSchedule(user, op, nonce, at)', top: true, record: ['triggerTag', ['trigger', 'triggerBody'], 'operations', 'operationsLen', ['operationCount', 'operationsCount']], gas: { base: 'GAS_CREATE_SCHEDULE', perByte: 'GAS_SCHEDULE_BYTE' }, gasBytes: 'operations', group: 'schedules', nested: false, fields: [
    f('trigger', 'trigger', ['tagged', 'ScheduleTrigger']),
    f('operations', 'operations', ['operations', 'MAX_SCHEDULE_OPS', 'a schedule'], 'run in order as one bundle of the owner at each run'),
  ] },
  { name: 'CancelSchedule', code: 50, handler: 'domains/schedules/ops:execCancelSchedule(user, op, at)', top: true, gas: { base: 'GAS_CANCEL_SCHEDULE' }, group: 'schedules', nested: false, fields: [f('scheduleId', 'schedule_id', 'bytes32')] },
  // ERC-20 allowances (docs/allowances.md): the owner lets a spender move up to `amount` of a token
  // for it; TransferFrom is sent by the spender and moves the owner's balance like a Transfer.
  { name: 'Approve', code: 51, handler: 'ops/allowances:execApprove(user, fields, at)', gas: { base: 'GAS_APPROVE' }, group: 'core', fields: [
    f('token', 'token', 'bytes32', 'token mint; NTV (32 zero bytes) is refused with NATIVE_NOT_APPROVABLE'),
    f('spender', 'spender', 'bytes32', 'the account allowed to spend'),
    f('amount', 'amount', 'u128', 'raw units; replaces the allowance (0 revokes it, 2^128−1 is infinite)'),
  ] },
  { name: 'TransferFrom', code: 52, handler: 'ops/allowances:execTransferFrom(user, fields, at)', gas: { base: 'GAS_TRANSFER_FROM' }, group: 'core', fields: [
    f('token', 'token', 'bytes32', 'token mint'),
    f('from', 'from', 'bytes32', 'the owner whose balance moves; the sender is the spender'),
    f('to', 'to', 'bytes32', 'recipient account'),
    f('amount', 'amount', 'u128', 'raw units'),
  ] },
  // Presales, anti-rug (spec §4.5, docs/presales.md): a presale is named by its escrow account.
  { name: 'CreatePresale', code: 95, handler: 'domains/presales/ops:execCreatePresale(user, fields, at)', gas: { base: 'GAS_PRESALE_CREATE' }, group: 'presales', fields: [
    f('token', 'token', 'bytes32', 'the token sold; the sale and liquidity tokens for the hard cap are escrowed now'),
    f('payToken', 'pay_token', 'bytes32', 'the token contributions are paid in'),
    f('rate', 'rate', 'u128', 'sale-token raw units per 10^9 raw units of the pay token (also the listing price)'),
    f('softCap', 'soft_cap', 'u128'), f('hardCap', 'hard_cap', 'u128'),
    f('minContribution', 'min_contribution', 'u128'), f('maxContribution', 'max_contribution', 'u128', 'per contributor, in total'),
    f('startTime', 'start_time', 'u64', 'unix seconds'), f('endTime', 'end_time', 'u64', 'unix seconds'),
    f('liquidityBps', 'liquidity_bps', 'u16', 'share of the raise paired into the DEX pool, 1–10,000'),
    f('lpLockDuration', 'lp_lock_duration', 'u64', 'seconds the pool LP stays locked: 1 day to 10 years'),
  ] },
  { name: 'ContributePresale', code: 96, handler: 'domains/presales/ops:execContributePresale(user, fields, at)', gas: { base: 'GAS_PRESALE_CONTRIBUTE' }, group: 'presales', fields: [f('presale', 'presale', 'bytes32'), f('amount', 'amount', 'u128', 'pay-token raw units')] },
  { name: 'FinalizePresale', code: 97, handler: 'domains/presales/ops:execFinalizePresale(user, fields, at)', gas: { base: 'GAS_PRESALE_FINALIZE' }, group: 'presales', fields: [f('presale', 'presale', 'bytes32')] },
  { name: 'RefundPresale', code: 98, handler: 'domains/presales/ops:execRefundPresale(user, fields, at)', gas: { base: 'GAS_PRESALE_SETTLE' }, group: 'presales', fields: [f('presale', 'presale', 'bytes32')] },
  { name: 'ClaimPresaleTokens', code: 99, handler: 'domains/presales/ops:execClaimPresaleTokens(user, fields, at)', gas: { base: 'GAS_PRESALE_SETTLE' }, group: 'presales', fields: [f('presale', 'presale', 'bytes32')] },
  // Token staking pools (spec §4.10, docs/staking-pools.md): a pool is named by its stake escrow account (Nx6…).
  { name: 'CreateStakingPool', code: 100, handler: 'domains/staking-pools/ops:execCreateStakingPool(user, fields, at)', gas: { base: 'GAS_STAKING_POOL_CREATE' }, group: 'staking-pools', fields: [
    f('tokenMint', 'token_mint', 'bytes32', 'the token staked'),
    f('rewardSource', 'reward_source', 'bytes32', "the reward token's mint; rewards come from the pool's reward account, funded with FundStakingPool"),
    f('rewardRate', 'reward_rate', 'u128', 'reward raw units per block for the whole pool'),
    f('lockPeriod', 'lock_period', 'u64', 'seconds a stake stays locked after the last StakeToPool (at most 10 years)'),
    f('capacity', 'capacity', 'u128', 'most staked in all; 0 = no limit'),
    f('perUserCap', 'per_user_cap', 'u128', 'most staked by one account; 0 = no limit'),
  ] },
  { name: 'StakeToPool', code: 101, handler: 'domains/staking-pools/ops:execStakeToPool(user, fields, at)', gas: { base: 'GAS_STAKING_POOL_OP' }, group: 'staking-pools', fields: [f('pool', 'pool_address', 'bytes32'), f('amount', 'amount', 'u128')] },
  { name: 'UnstakeFromPool', code: 102, handler: 'domains/staking-pools/ops:execUnstakeFromPool(user, fields, at)', gas: { base: 'GAS_STAKING_POOL_OP' }, group: 'staking-pools', fields: [f('pool', 'pool_address', 'bytes32'), f('amount', 'amount', 'u128')] },
  { name: 'ClaimPoolRewards', code: 103, handler: 'domains/staking-pools/ops:execClaimPoolRewards(user, fields, at)', gas: { base: 'GAS_STAKING_POOL_OP' }, group: 'staking-pools', fields: [f('pool', 'pool_address', 'bytes32')] },
  { name: 'FundStakingPool', code: 104, handler: 'domains/staking-pools/ops:execFundStakingPool(user, fields, at)', gas: { base: 'GAS_STAKING_POOL_OP' }, group: 'staking-pools', fields: [f('pool', 'pool_address', 'bytes32'), f('amount', 'amount', 'u128')] },
  // Settlement with market makers (spec §2.7, §4.17; facts.md "Settlement market makers";
  // docs/settlement.md). Tokens move only through moveBalance into and out of escrow accounts.
  { name: 'RegisterMarketMaker', code: 105, handler: 'domains/settlement/ops:execSettlement(kind, user, fields, at)', gas: { base: 'GAS_ATOMENCE_MM' }, group: 'settlement', fields: [
    f('tier', 'tier', 'u8', '1, 2 or 3: stakes the tier\'s NTV (tier 1: 10,000 NTV, at most 50 bps spread); a registered maker changes tier, topping up or getting back the difference'),
  ] },
  { name: 'DeregisterMarketMaker', code: 106, handler: 'domains/settlement/ops:execSettlement(kind, user, fields, at)', gas: { base: 'GAS_ATOMENCE_MM' }, group: 'settlement', fields: [] },
  { name: 'CreateAtomenceOrder', code: 107, handler: 'domains/settlement/ops:execSettlement(kind, user, fields, at)', gas: { base: 'GAS_ATOMENCE_ORDER' }, group: 'settlement', fields: [
    f('sellToken', 'sell_token', 'bytes32', 'the token the creator delivers (escrowed now)'),
    f('sellAmount', 'sell_amount', 'u128', 'raw units'),
    f('buyToken', 'buy_token', 'bytes32', 'the token the creator is paid in'),
    f('minBuyAmount', 'min_buy_amount', 'u128', 'the least the creator accepts for the whole sell amount (raw units, at least 1)'),
    f('expiry', 'expiry', 'u64', 'unix seconds after which the order can no longer be matched or settled (at most 30 days ahead)'),
  ] },
  { name: 'MatchAtomenceOrder', code: 108, handler: 'domains/settlement/ops:execSettlement(kind, user, fields, at)', gas: { base: 'GAS_ATOMENCE_ORDER' }, group: 'settlement', fields: [
    f('orderId', 'order_id', 'bytes32'),
    f('bidAmount', 'bid_amount', 'u128', 'what the market maker pays (in buy_token) for the whole sell amount: escrowed now'),
    f('askAmount', 'ask_amount', 'u128', "the other side of the maker's two-sided quote for the same amount; the spread (ask − bid) / mid must be within the tier's"),
  ] },
  { name: 'SettleAtomenceOrder', code: 109, handler: 'domains/settlement/ops:execSettlement(kind, user, fields, at)', gas: { base: 'GAS_ATOMENCE_SETTLE' }, group: 'settlement', fields: [f('orderId', 'order_id', 'bytes32')] },
  { name: 'CancelAtomenceOrder', code: 110, handler: 'domains/settlement/ops:execSettlement(kind, user, fields, at)', gas: { base: 'GAS_ATOMENCE_CANCEL' }, group: 'settlement', fields: [f('orderId', 'order_id', 'bytes32')] },
  // Anchoring (spec §4.7; docs/anchors.md): the first writer of a namespace owns it; keys are write-once.
  { name: 'Anchor', code: 111, handler: 'domains/anchors/ops:execAnchor(user, op)', gas: { base: 'GAS_ANCHOR' }, group: 'anchors', fields: [
    s('namespace', 'namespace', 'MAX_ANCHOR_STRING_BYTES', '1–64 of [a-z0-9._-]'),
    s('key', 'key', 'MAX_ANCHOR_STRING_BYTES', '1–256 bytes of UTF-8'),
    f('valueHash', 'value_hash', 'bytes32', 'the hash being anchored (any 32-byte digest)'),
  ] },
  // Passports and game profiles (spec §4.17; docs/passports.md): one non-transferable passport per account.
  { name: 'CreatePassport', code: 112, handler: 'domains/passports/ops:execPassport(kind, user, op)', gas: { base: 'GAS_PASSPORT' }, group: 'passports', fields: [s('gamertag', 'gamertag', 'MAX_PASSPORT_STRING_BYTES', '3–24 of [A-Za-z0-9_], unique case-insensitively')] },
  { name: 'RegisterGame', code: 113, handler: 'domains/passports/ops:execPassport(kind, user, op)', gas: { base: 'GAS_PASSPORT' }, group: 'passports', fields: [
    s('gameId', 'game_id', 'MAX_PASSPORT_STRING_BYTES', '3–64 of [a-z0-9._-]; the sender becomes its publisher'),
    s('name', 'name', 'MAX_PASSPORT_STRING_BYTES', '1–64 bytes of UTF-8'),
  ] },
  { name: 'SetGameProfile', code: 114, handler: 'domains/passports/ops:execPassport(kind, user, op)', gas: { base: 'GAS_PASSPORT' }, group: 'passports', fields: [
    s('gameId', 'game_id', 'MAX_PASSPORT_STRING_BYTES', "a game the sender publishes"),
    f('player', 'player', 'bytes32', 'a passport owner'),
    f('score', 'score', 'u64'),
    s('data', 'data', 'MAX_PASSPORT_STRING_BYTES', 'at most 1,024 bytes of UTF-8 (for example JSON stats)'),
  ] },
  // Guardian recovery (spec §2.5, §3 "Account recovery"; docs/accounts.md "Recovery"). SetRecovery
  // and CancelRecovery manage the sender's own account (owner keys only, never held); a guardian
  // may send the others from a multi-sig.
  { name: 'SetRecovery', code: 77, handler: 'ops/accounts:execSetRecovery(user, op, at)', record: ['guardians', ['guardianCount', 'guardiansCount'], 'threshold', null, null, 'timelock'], gas: { base: 'GAS_ACCOUNT_RECOVERY' }, group: 'recovery', nested: false, fields: [
    f('guardians', 'guardians', ['accounts', 'MAX_ACCOUNT_LIST'], '1–10 distinct accounts, not the account itself'),
    f('threshold', 'threshold', 'u8', 'guardian approvals needed: 1 to the number of guardians'),
    f('timelock', 'timelock', 'u64', 'seconds of block time between initiation and finalization (docs/accounts.md "Timelock")'),
  ] },
  { name: 'InitiateRecovery', code: 78, handler: 'ops/accounts:execInitiateRecovery(user, op, at)', record: ['account', 'keyType', ['pubkey', 'newPubkey'], ['pubkeyLen', 'newPubkeyLen']], gas: { base: 'GAS_ACCOUNT_RECOVERY', perByte: 'GAS_ACCOUNT_KEY_BYTE' }, gasBytes: 'newPubkey', group: 'recovery', fields: [
    f('account', 'account', 'bytes32', 'the account to recover'),
    f('newPubkey', 'new_pubkey', ['vec', 'MAX_PUBKEY_BYTES'], 'the key that replaces all of its keys'),
    f('keyType', 'key_type', 'u8'),
  ] },
  { name: 'ApproveRecovery', code: 79, handler: 'ops/accounts:execApproveRecovery(user, op, at)', gas: { base: 'GAS_ACCOUNT_RECOVERY' }, group: 'recovery', fields: [
    f('account', 'account', 'bytes32'),
    f('newKeyHash', 'new_key_hash', 'bytes32', 'SHA256 of the pending recovery key: the approval is for that key only'),
  ] },
  { name: 'CancelRecovery', code: 80, handler: 'ops/accounts:execCancelRecovery(user, at)', gas: { base: 'GAS_ACCOUNT_RECOVERY' }, group: 'recovery', nested: false, fields: [] },
  { name: 'FinalizeRecovery', code: 81, handler: 'ops/accounts:execFinalizeRecovery(user, op, at)', gas: { base: 'GAS_ACCOUNT_RECOVERY' }, group: 'recovery', fields: [f('account', 'account', 'bytes32')] },
  // The bridge (spec §1.7, §4.6; issue 20; docs/bridge.md). BridgeDeposit and AttestBridgeWithdrawal
  // carry attester signatures (n × 96 bytes: pubkey[32] ‖ Ed25519 signature[64]) that the host
  // verifies (src/domains/bridge/attestations.ts) before the core sees them; both may only be a bundle's first
  // operation and never nested, so the host finds them at byte 36 without decoding every bundle.
  { name: 'BridgeDeposit', code: 26, handler: 'domains/bridge/ops:execBridge(kind, user, op, at)', gas: { base: 'GAS_BRIDGE_DEPOSIT' }, group: 'bridge', nested: false, firstOnly: true, fields: [
    s('chain', 'source_chain', 'MAX_BRIDGE_STRING_BYTES', 'origin chain name (docs/bridge.md "Chains")'),
    s('txHash', 'source_tx_hash', 'MAX_BRIDGE_STRING_BYTES', 'the transfer on the origin chain (1–128 bytes)'),
    s('contract', 'token_contract', 'MAX_BRIDGE_STRING_BYTES', 'the token contract on the origin chain (1–128 bytes)'),
    s('symbol', 'symbol', 'MAX_BRIDGE_STRING_BYTES', '1–16 of [A-Za-z0-9]'),
    f('amount', 'amount', 'u128', 'raw units of the token'), f('decimals', 'decimals', 'u8', '0–18'),
    f('recipient', 'destination', 'bytes32'),
    f('signatures', 'proof_bytes', ['vec', 'MAX_BRIDGE_LIST_BYTES'], 'n × (attester pubkey[32] ‖ signature[64]) over the deposit digest (docs/bridge.md "Digests")'),
  ] },
  { name: 'BridgeWithdraw', code: 71, handler: 'domains/bridge/ops:execBridge(kind, user, op, at)', gas: { base: 'GAS_BRIDGE_WITHDRAW' }, group: 'bridge', fields: [
    f('token', 'token_mint', 'bytes32'), f('amount', 'amount', 'u128'),
    s('chain', 'chain', 'MAX_BRIDGE_STRING_BYTES', 'destination chain (docs/bridge.md "Chains")'),
    s('destination', 'destination', 'MAX_BRIDGE_STRING_BYTES', 'the address on that chain (1–128 bytes)'),
  ] },
  { name: 'RegisterBridgeMapping', code: 72, handler: 'domains/bridge/ops:execBridge(kind, user, op, at)', gas: { base: 'GAS_BRIDGE_ADMIN' }, group: 'bridge', fields: [
    s('chain', 'chain', 'MAX_BRIDGE_STRING_BYTES'), s('contract', 'contract', 'MAX_BRIDGE_STRING_BYTES'), f('mint', 'mint', 'bytes32', 'an STD-8 or bridge-canonical token'),
  ] },
  { name: 'SetBridgeAttesters', code: 73, handler: 'domains/bridge/ops:execBridge(kind, user, op, at)', gas: { base: 'GAS_BRIDGE_ADMIN' }, group: 'bridge', fields: [
    f('attesters', 'attesters', ['vec', 'MAX_BRIDGE_LIST_BYTES'], 'n × 32-byte Ed25519 public keys (1–BRIDGE_MAX_ATTESTERS, distinct)'),
    f('threshold', 'threshold', 'u8', '1 to n'),
  ] },
  { name: 'ClaimBridgeDeposit', code: 74, handler: 'domains/bridge/ops:execBridge(kind, user, op, at)', gas: { base: 'GAS_BRIDGE_DEPOSIT' }, group: 'bridge', fields: [
    s('chain', 'source_chain', 'MAX_BRIDGE_STRING_BYTES'), s('txHash', 'source_tx_hash', 'MAX_BRIDGE_STRING_BYTES'),
  ] },
  { name: 'AttestBridgeWithdrawal', code: 75, handler: 'domains/bridge/ops:execBridge(kind, user, op, at)', gas: { base: 'GAS_BRIDGE_ADMIN' }, group: 'bridge', nested: false, firstOnly: true, fields: [
    f('sequence', 'sequence', 'u64'), s('chain', 'chain', 'MAX_BRIDGE_STRING_BYTES'), s('destination', 'destination', 'MAX_BRIDGE_STRING_BYTES'),
    f('token', 'token_mint', 'bytes32'), f('amount', 'amount', 'u128'),
    f('signatures', 'signatures', ['vec', 'MAX_BRIDGE_LIST_BYTES'], 'n × (attester pubkey[32] ‖ signature[64]) over the withdrawal digest'),
  ] },
  { name: 'SetContractSafety', code: 76, handler: 'domains/bridge/ops:execBridge(kind, user, op, at)', gas: { base: 'GAS_BRIDGE_ADMIN' }, group: 'bridge', fields: [
    s('chain', 'chain', 'MAX_PROPOSAL_STRING_BYTES', 'origin chain name (1–128 bytes)'), s('contract', 'contract', 'MAX_PROPOSAL_STRING_BYTES', '1–128 bytes'),
    f('level', 'level', 'u8', '0 unreviewed (clears), 1 verified, 2 caution, 3 blocked'),
  ] },
  // STD-8 stablecoins (spec §2.1, §3, §4.16; docs/stablecoins.md "Operations"). `guardians` and
  // `cosigners` are n × 32-byte accounts back to back; `originMappings` is the Borsh
  // Vec<{chain String, contract String}> of StableProfile.origins. Governance-only ones need the
  // user GOVERNANCE (0x00…09).
  { name: 'CreateStableToken', code: 53, handler: 'domains/stablecoins/ops:execStable(kind, user, op, at)', gas: { base: 'GAS_STD8_CREATE' }, group: 'stablecoins', fields: [
    f('name', 'name', ['string', 'MAX_STD8_STRING_BYTES']), f('symbol', 'symbol', ['string', 'MAX_STD8_STRING_BYTES']), f('decimals', 'decimals', 'u8'),
    f('currency', 'currency', ['string', 'MAX_STD8_STRING_BYTES']), f('issuer', 'issuer', ['string', 'MAX_STD8_STRING_BYTES']),
    f('owner', 'owner', 'bytes32'), f('masterMinter', 'master_minter', 'bytes32'), f('pauser', 'pauser', 'bytes32'), f('blacklister', 'blacklister', 'bytes32'),
    f('guardians', 'guardians', ['vec', 'MAX_STD8_LIST_BYTES'], 'n × 32-byte accounts (at most STD8_MAX_GUARDIANS)'),
    f('originMappings', 'origin_mappings', ['vec', 'MAX_STD8_LIST_BYTES'], 'Borsh Vec<{chain String, contract String}> (at most STD8_MAX_ORIGINS)'),
    f('supplyCap', 'supply_cap', 'u128', '0 = no cap'), f('quantumRequired', 'quantum_required', 'bool'),
    f('mintThreshold', 'mint_threshold', 'u128', '0 = no cosigning'), f('requiredSigners', 'required_signers', 'u8'),
    f('cosigners', 'authorized_cosigners', ['vec', 'MAX_STD8_LIST_BYTES'], 'n × 32-byte accounts (at most STD8_MAX_COSIGNERS)'),
    f('timelock', 'timelock', 'u64', 'blocks; 0 = STD8_DEFAULT_TIMELOCK'), f('epochLength', 'epoch_length', 'u64', 'blocks; 0 = STD8_DEFAULT_EPOCH_LENGTH'),
  ] },
  { name: 'StableMint', code: 54, handler: 'domains/stablecoins/ops:execStable(kind, user, op, at)', gas: { base: 'GAS_STD8_MINT' }, group: 'stablecoins', fields: [f('token', 'token', 'bytes32'), f('to', 'to', 'bytes32'), f('amount', 'amount', 'u128')] },
  { name: 'StableBurn', code: 55, handler: 'domains/stablecoins/ops:execStable(kind, user, op, at)', gas: { base: 'GAS_STD8_MINT' }, group: 'stablecoins', fields: [f('token', 'token', 'bytes32'), f('amount', 'amount', 'u128')] },
  { name: 'StablePause', code: 56, handler: 'domains/stablecoins/ops:execStable(kind, user, op, at)', gas: { base: 'GAS_STD8_ADMIN' }, group: 'stablecoins', fields: [f('token', 'token', 'bytes32'), f('pause', 'pause', 'bool', 'true pauses, false unpauses')] },
  { name: 'StableBlacklist', code: 57, handler: 'domains/stablecoins/ops:execStable(kind, user, op, at)', gas: { base: 'GAS_STD8_ADMIN' }, group: 'stablecoins', fields: [f('token', 'token', 'bytes32'), f('account', 'account', 'bytes32'), f('add', 'add', 'bool', 'true adds, false removes')] },
  { name: 'StableTransferRole', code: 58, handler: 'domains/stablecoins/ops:execStable(kind, user, op, at)', gas: { base: 'GAS_STD8_ADMIN' }, group: 'stablecoins', fields: [
    f('token', 'token', 'bytes32'), f('role', 'role', ['choice', ['owner', 'master_minter', 'pauser', 'blacklister']]), f('newAddress', 'new_address', 'bytes32'),
  ] },
  { name: 'StableConfigureMinter', code: 59, handler: 'domains/stablecoins/ops:execStable(kind, user, op, at)', gas: { base: 'GAS_STD8_ADMIN' }, group: 'stablecoins', fields: [
    f('token', 'token', 'bytes32'), f('action', 'action', ['choice', ['add', 'remove', 'configure']]), f('minter', 'minter', 'bytes32'),
    f('allowance', 'allowance', 'u128', 'add, configure: the total the minter may still mint'), f('epochLimit', 'epoch_limit', 'u128', 'add, configure: most mintable per epoch; 0 = no epoch limit'),
  ] },
  { name: 'StableHandover', code: 60, handler: 'domains/stablecoins/ops:execStable(kind, user, op, at)', gas: { base: 'GAS_STD8_ADMIN' }, group: 'stablecoins', fields: [
    f('token', 'token', 'bytes32'), f('newOwner', 'new_owner', 'bytes32'), f('newMasterMinter', 'new_master_minter', 'bytes32'),
    f('newPauser', 'new_pauser', 'bytes32'), f('newBlacklister', 'new_blacklister', 'bytes32'),
  ] },
  { name: 'StableCancelPending', code: 61, handler: 'domains/stablecoins/ops:execStable(kind, user, op, at)', gas: { base: 'GAS_STD8_ADMIN' }, group: 'stablecoins', fields: [f('token', 'token', 'bytes32'), f('pendingId', 'pending_id', 'u64')] },
  { name: 'StableExecutePending', code: 62, handler: 'domains/stablecoins/ops:execStable(kind, user, op, at)', gas: { base: 'GAS_STD8_ADMIN' }, group: 'stablecoins', fields: [f('token', 'token', 'bytes32'), f('pendingId', 'pending_id', 'u64')] },
  { name: 'StableFreezeMint', code: 63, handler: 'domains/stablecoins/ops:execStable(kind, user, op, at)', gas: { base: 'GAS_STD8_ADMIN' }, group: 'stablecoins', fields: [f('token', 'token', 'bytes32')] },
  { name: 'StableUnfreezeMint', code: 64, handler: 'domains/stablecoins/ops:execStable(kind, user, op, at)', gas: { base: 'GAS_STD8_ADMIN' }, group: 'stablecoins', fields: [f('token', 'token', 'bytes32')] },
  { name: 'StableSetGuardians', code: 65, handler: 'domains/stablecoins/ops:execStable(kind, user, op, at)', gas: { base: 'GAS_STD8_ADMIN' }, group: 'stablecoins', fields: [
    f('token', 'token', 'bytes32'), f('guardians', 'guardians', ['vec', 'MAX_STD8_LIST_BYTES'], 'n × 32-byte accounts; replaces the list'),
  ] },
  { name: 'StableConfigureSecurity', code: 66, handler: 'domains/stablecoins/ops:execStable(kind, user, op, at)', gas: { base: 'GAS_STD8_ADMIN' }, group: 'stablecoins', fields: [
    f('token', 'token', 'bytes32'), f('timelock', 'timelock', 'u64', 'blocks, at least 1'), f('mintThreshold', 'mint_threshold', 'u128', '0 = no cosigning'),
    f('requiredSigners', 'required_signers', 'u8'), f('cosigners', 'authorized_cosigners', ['vec', 'MAX_STD8_LIST_BYTES'], 'n × 32-byte accounts; replaces the list'),
    f('quantumRequired', 'quantum_required', 'bool'),
  ] },
  { name: 'StableApproveMint', code: 67, handler: 'domains/stablecoins/ops:execStable(kind, user, op, at)', gas: { base: 'GAS_STD8_MINT' }, group: 'stablecoins', fields: [f('token', 'token', 'bytes32'), f('pendingId', 'pending_id', 'u64')] },
  { name: 'StableRaiseSupplyCap', code: 68, handler: 'domains/stablecoins/ops:execStable(kind, user, op, at)', gas: { base: 'GAS_STD8_ADMIN' }, group: 'stablecoins', fields: [f('token', 'token', 'bytes32'), f('supplyCap', 'supply_cap', 'u128', '0 = no cap')] },
  { name: 'StableVerifyIssuer', code: 69, handler: 'domains/stablecoins/ops:execStable(kind, user, op, at)', gas: { base: 'GAS_STD8_ADMIN' }, group: 'stablecoins', fields: [f('token', 'token', 'bytes32')] },
  // Issuer onboarding (spec §4.16; docs/stablecoins.md "Issuer onboarding"): one of the three proofs,
  // recorded by the foundation (or governance); the second distinct proof makes the issuer Verified.
  // An admin_signature's EVM personal_sign signature is verified by the host before admission
  // (src/chain/issuer-proof.ts); the core checks the shape and the rule.
  { name: 'StableIssuerProof', code: 70, handler: 'domains/stablecoins/ops:execStable(kind, user, op, at)', gas: { base: 'GAS_STD8_ADMIN' }, group: 'stablecoins', fields: [
    f('token', 'token', 'bytes32'), f('method', 'method', ['choice', ['admin_signature', 'domain', 'documents']]),
    f('chainId', 'chain_id', 'u64', 'admin_signature: the origin EVM chain id the message names; 0 otherwise'),
    f('subject', 'subject', 'bytes32', 'admin_signature: the admin EVM address in the last 20 bytes (12 zero bytes first); domain, documents: SHA-256 of the evidence the foundation checked'),
    f('detail', 'detail', ['vec', 'MAX_STD8_STRING_BYTES'], 'domain, documents: 1–128 bytes of UTF-8 (the domain name; the documents reference); admin_signature: empty'),
    f('signature', 'signature', ['vec', 'MAX_STD8_STRING_BYTES'], 'admin_signature: the 65-byte personal_sign signature r‖s‖v; otherwise empty'),
  ] },
  { name: 'RotateConsensusKey', code: 119, handler: 'domains/staking/ops:execStaking(kind, user, fields, at)', gas: { base: 'GAS_STAKING' }, group: 'keys', fields: [f('newConsensusPubkey', 'new_consensus_pubkey', 'bytes32')] },
];

/** The batch entry of BatchMint/BatchTransferMultiToken: type_id u64, amount u128 (24 bytes). */
export const BATCH_ENTRY_BYTES = 24;
