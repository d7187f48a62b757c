// The status table (docs/core-abi.md "Statuses"). ONE line per status, in the form
//   export const NAME: u32 = code; // human message
// scripts/gen-status.mjs parses exactly these lines into src/core/status.ts for the host.
// Codes 1-63: the bundle is INVALID (never included in a block, no effect).
// Codes >= 64: the bundle FAILED (included with a failed receipt; its effects reverted, its nonce
// kept — spec §5.8, §7.5 — but its gas paid, and its hash listed so the same bytes are not
// included again: docs/core-abi.md "Failed bundles: fee and replay").

export const OK: u32 = 0; // success
export const MALFORMED_BUNDLE: u32 = 1; // the bundle is not a canonical Borsh bundle (bad lengths, tags, UTF-8, trailing bytes, unknown operation)
export const EMPTY_BUNDLE: u32 = 2; // the bundle has no operations
export const TOO_MANY_OPS: u32 = 3; // the bundle has more than 64 operations
export const OP_NOT_ENABLED: u32 = 4; // the bundle uses an operation that is reserved and not enabled yet
export const UNSIGNED_NOT_ALLOWED: u32 = 5; // unsigned bundles are not accepted on this network
export const KEY_NOT_AUTHORIZED: u32 = 6; // the signing key is not registered for the account
export const PUBKEY_MISMATCH: u32 = 7; // the revealed public key does not match the account or the signature
export const EXPIRED: u32 = 8; // the block time is past the bundle's valid_until or expiry_timestamp
export const NONCE_TOO_LOW: u32 = 9; // the nonce was already used
export const NONCE_TOO_HIGH: u32 = 10; // the nonce is ahead of the account's next nonce
export const MAX_GAS_TOO_LOW: u32 = 11; // max_gas is below the intrinsic 5,000 gas of a bundle
export const INSUFFICIENT_FEE_BALANCE: u32 = 12; // the sender's NTV balance does not cover the fee
export const BLOCK_GAS_LIMIT: u32 = 13; // the bundle would exceed the block gas limit; it may fit a later block
export const INVALID_GENESIS: u32 = 14; // the genesis configuration is inconsistent (duplicate or unknown token, bad symbol)
export const INVALID_INPUT: u32 = 15; // the host passed a malformed block input or bundle envelope
export const ALREADY_INCLUDED: u32 = 16; // this exact bundle already failed in a block at this nonce; sign a new one to retry
export const OUT_OF_GAS: u32 = 64; // the operations need more gas than max_gas
export const INSUFFICIENT_BALANCE: u32 = 65; // sender balance is lower than the amount plus fee
export const UNKNOWN_TOKEN: u32 = 66; // no token exists with this mint
export const ZERO_AMOUNT: u32 = 67; // the amount must be greater than zero
export const AMOUNT_OVERFLOW: u32 = 68; // the amount overflows a u128 balance or supply
export const SYMBOL_RESERVED: u32 = 69; // the token symbol is reserved
export const SYMBOL_TAKEN: u32 = 70; // a token with this symbol already exists (compared case-insensitively)
export const INVALID_SYMBOL: u32 = 71; // the symbol must be 1-16 characters of A-Z, a-z, 0-9
export const INVALID_NAME: u32 = 72; // the token name must be 1-64 bytes of UTF-8
export const INVALID_DECIMALS: u32 = 73; // decimals must be between 0 and 18
export const ZERO_SUPPLY: u32 = 74; // the initial supply must be greater than zero
export const IDENTICAL_TOKENS: u32 = 75; // the two tokens of a pool or swap must differ
export const POOL_EXISTS: u32 = 76; // a pool for this token pair already exists
export const POOL_NOT_FOUND: u32 = 77; // no pool exists for this token pair
export const INSUFFICIENT_LIQUIDITY: u32 = 78; // the initial liquidity must exceed the 1,000 units locked forever (sqrt(amount_a x amount_b) > 1000)
export const INSUFFICIENT_LIQUIDITY_MINTED: u32 = 79; // the deposit is too small to mint any LP units
export const INSUFFICIENT_OUTPUT_AMOUNT: u32 = 80; // the swap or withdrawal would pay out zero of a token
export const SLIPPAGE_EXCEEDED: u32 = 81; // the result is below the given minimum (min_amount_out, min_lp_tokens, min_amount_a/b)
export const INSUFFICIENT_LP_BALANCE: u32 = 82; // the sender holds fewer LP units of this pool than it tries to remove
export const LP_LOCKED: u32 = 83; // the pool creator's initial LP units are locked until the pool's lock ends
export const INVALID_LOCK_DURATION: u32 = 84; // the LP lock duration must be at most 10 years (315,360,000 s)
export const NOT_TOKEN_CREATOR: u32 = 85; // only the token's creator may change its metadata
export const METADATA_LOCKED: u32 = 86; // the token's metadata is locked (immutable)
export const INVALID_METADATA: u32 = 87; // a metadata field is too long (uri, image, external_url 256 bytes; description 1024; socials 128)
export const NAME_TAKEN: u32 = 88; // the name is already registered (names are first come, first served; docs/names.md)
export const INVALID_NAME_FORMAT: u32 = 89; // a name must be 3-64 characters of a-z, 0-9 and hyphens, optionally ending in .vex
export const STAKE_BELOW_MINIMUM: u32 = 90; // a validator's self stake must be at least the minimum stake (spec §8: 1,000 NTV)
export const UNKNOWN_VALIDATOR: u32 = 91; // no validator is registered for this account or consensus key
export const NOT_VALIDATOR: u32 = 92; // only a validator's staking account may do this (spec §5.7)
export const COMMISSION_TOO_HIGH: u32 = 93; // the commission must be at most 5,000 bps (spec §8)
export const COMMISSION_COOLDOWN: u32 = 94; // the commission was changed less than 50,400 blocks ago (spec §8: one change per 7 days)
export const NOT_JAILED: u32 = 95; // the validator is not jailed
export const JAIL_NOT_EXPIRED: u32 = 96; // the validator's jail period has not ended (spec §7.8)
export const ROTATION_LIMIT: u32 = 97; // a consensus key rotation is already queued or was requested this epoch (spec §8: one per epoch)
export const INSUFFICIENT_STAKE: u32 = 98; // the amount is more than is staked or delegated
export const NOTHING_TO_CLAIM: u32 = 99; // there are no released unbonding entries or rewards to claim
export const VALIDATOR_KEY_MISMATCH: u32 = 100; // the account already runs a validator with another consensus key
export const CONSENSUS_KEY_TAKEN: u32 = 101; // this consensus key is registered to another validator
export const DELEGATION_BELOW_MINIMUM: u32 = 102; // the delegation is below the validator pool's min_delegation
export const INVALID_EVIDENCE: u32 = 103; // the double-sign evidence does not show two different headers of this validator at this height
export const DUPLICATE_EVIDENCE: u32 = 104; // this double-sign offence (validator, height) was already punished
export const TOO_MANY_ENTRIES: u32 = 105; // a staking list is full (32 unbonding entries or delegations per account, 1,000 validators)
export const NO_DELEGATION: u32 = 106; // the account has no delegation to this validator
export const INVALID_VALIDATOR_METADATA: u32 = 107; // a validator metadata field is too long (name, pool_name 64 bytes; description 512; website, avatar_url 256)
// NFT and multi-token collections (spec §4.3, §4.4; docs/nfts.md "Statuses").
export const COLLECTION_NOT_FOUND: u32 = 108; // no collection at this address
export const NOT_COLLECTION_OWNER: u32 = 109; // only the collection's owner may mint or define token types
export const NFT_EXISTS: u32 = 110; // this token id is already minted in the collection
export const NFT_NOT_FOUND: u32 = 111; // no such token id in the collection (never minted, or burned)
export const NOT_NFT_OWNER: u32 = 112; // only the NFT's owner may transfer or burn it
export const MAX_SUPPLY_REACHED: u32 = 113; // the mint would exceed the collection's or the type's max supply
export const INVALID_ROYALTY: u32 = 114; // royalty_bps must be at most 10,000
export const TOKEN_TYPE_EXISTS: u32 = 115; // this type id is already defined in the collection
export const TOKEN_TYPE_NOT_FOUND: u32 = 116; // no such type id in the collection
export const INVALID_COLLECTION_FIELD: u32 = 117; // a name, symbol, uri or description is empty or too long, or the symbol has characters outside A-Z a-z 0-9
export const WRONG_COLLECTION_KIND: u32 = 118; // an NFT operation on a multi-token collection, or the reverse
export const INVALID_BATCH: u32 = 119; // a batch has 0 or more than 16 entries
export const NON_FUNGIBLE_SUPPLY: u32 = 120; // a non-fungible type has a supply of one: max_supply 0 or 1, amounts of 1
export const ZERO_RECIPIENT: u32 = 121; // collection tokens cannot be minted or sent to the zero address: it marks mints and burns in transfer events
// Intent programs and schedules (docs/intents.md "Programs on chain"; codes 122-139).
export const INVALID_PROGRAM_NAME: u32 = 122; // a program name must be 3-64 characters of a-z, 0-9, - and _, starting with a letter or digit
export const INVALID_PROGRAM: u32 = 123; // the program JSON must be 1-16,384 bytes
export const NOT_PROGRAM_OWNER: u32 = 124; // the program name is registered by another account; only its owner can replace it
export const INVALID_SCHEDULE_TRIGGER: u32 = 125; // a schedule's trigger is out of range: a Recurring interval of 60 s to 10 years and at least one run, a first run at most 10 years ahead; a Conditional direction 0 or 1, a nonzero price_num and price_den, two different tokens, an expiry after the block time and at most 10 years ahead
export const INVALID_SCHEDULE_OPERATIONS: u32 = 126; // a schedule's operations must be 1-16 operations of at most 4,096 bytes without CreateToken; a Conditional schedule's must be one Swap between its base and quote
export const SCHEDULE_NOT_FOUND: u32 = 127; // no schedule with this id
export const NOT_SCHEDULE_OWNER: u32 = 128; // only the schedule's owner can cancel it
export const SCHEDULE_NOT_ACTIVE: u32 = 129; // the schedule has already completed, failed, expired or been cancelled
// ERC-20 allowances (docs/allowances.md; codes 140-149: 130-139 stay free for schedules).
export const INSUFFICIENT_ALLOWANCE: u32 = 140; // the spender's allowance from this owner for this token is lower than the amount (Approve sets it)
export const NATIVE_NOT_APPROVABLE: u32 = 141; // NTV pays every fee and has no ERC-20 contract, so it cannot be approved or moved with TransferFrom; only its holder sends it
// Settlement with market makers (spec §2.7, §4.17; docs/settlement.md "Statuses"; codes 310-329).
export const INVALID_MM_TIER: u32 = 310; // a market maker tier must be 1, 2 or 3 (docs/settlement.md "Tiers")
export const MM_TIER_UNCHANGED: u32 = 311; // the market maker is already registered at this tier
export const NOT_MARKET_MAKER: u32 = 312; // the sender is not an active registered market maker
export const MM_HAS_OPEN_MATCHES: u32 = 313; // the market maker has matched orders that are not settled or cancelled yet
export const INVALID_ORDER_EXPIRY: u32 = 314; // an order's expiry must be after the block time and at most 30 days ahead
export const ORDER_NOT_FOUND: u32 = 315; // no settlement order with this id
export const ORDER_NOT_OPEN: u32 = 316; // the order is not open: it is already matched, settled, cancelled or expired
export const ORDER_EXPIRED: u32 = 317; // the order is past its expiry: it can only be cancelled (both legs refunded)
export const ORDER_NOT_MATCHED: u32 = 318; // only a matched order can be settled (this one is open, settled, cancelled or expired)
export const NOT_ORDER_PARTY: u32 = 319; // only the order's creator or its matched market maker may do this
export const SELF_MATCH: u32 = 320; // a market maker cannot match its own order
export const QUOTE_BELOW_LIMIT: u32 = 321; // the bid is below the order's min_buy_amount
export const INVALID_QUOTE: u32 = 322; // a quote needs a bid above zero and an ask at least the bid
export const SPREAD_TOO_WIDE: u32 = 323; // the quote's spread is wider than the market maker's tier allows (tier 1: 50 bps, 2: 25, 3: 10)
export const ORDER_NOT_EXPIRED: u32 = 324; // a matched order can be cancelled only after its expiry (before, it settles)
export const ORDER_CLOSED: u32 = 325; // the order is already settled, cancelled or expired
// Anchoring (spec §4.7; docs/anchoring.md "Statuses"; codes 330-339).
export const INVALID_NAMESPACE: u32 = 330; // a namespace must be 1-64 characters of a-z, 0-9, '.', '_' and '-'
export const INVALID_ANCHOR_KEY: u32 = 331; // an anchor key must be 1-256 bytes
export const NOT_NAMESPACE_OWNER: u32 = 332; // the namespace belongs to the account that anchored in it first; only it may anchor there
export const ANCHOR_EXISTS: u32 = 333; // this key is already anchored in the namespace; anchors are write-once (anchor a new key)
// Passports and game profiles (spec §4.17; docs/passports.md "Statuses"; codes 340-349).
export const INVALID_GAMERTAG: u32 = 340; // a gamertag must be 3-24 characters of A-Z, a-z, 0-9 and '_'
export const GAMERTAG_TAKEN: u32 = 341; // the gamertag is taken (compared case-insensitively)
export const PASSPORT_EXISTS: u32 = 342; // the account already has a passport (one per account)
export const INVALID_GAME: u32 = 343; // a game id must be 3-64 characters of a-z, 0-9, '.', '_' and '-', and its name 1-64 bytes
export const GAME_EXISTS: u32 = 344; // a game with this id is already registered
export const GAME_NOT_FOUND: u32 = 345; // no game is registered with this id
export const NOT_GAME_PUBLISHER: u32 = 346; // only the game's publisher may write its profiles
export const NO_PASSPORT: u32 = 347; // the player has no passport
export const INVALID_PROFILE: u32 = 348; // profile data must be at most 1,024 bytes
