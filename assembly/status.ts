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
