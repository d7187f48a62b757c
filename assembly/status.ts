// The status table (docs/core-abi.md "Statuses"). ONE line per status, in the form
//   export const NAME: u32 = code; // human message
// scripts/gen-status.mjs parses exactly these lines into src/core/status.ts for the host.
// Codes 1-63: the bundle is INVALID (never included in a block, no effect).
// Codes >= 64: the bundle FAILED (included with a failed receipt; reverted whole: no fee, no nonce,
// no state change — spec §5.8, §7.5).

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
