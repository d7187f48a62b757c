/**
 * OpenRPC examples and descriptions of the methods in src/rpc/methods/ledger.ts (spec §4.1),
 * recorded from a testnet node (the accounts, the AUR token, pool and collections of
 * src/rpc/examples/recorded-run.ts, created by the calls shown); long lists are cut to two items.
 * test/unit/rpc-openrpc.test.ts holds each to its method's own param and result schemas.
 */
import type { MethodExample } from '../registry.js';
import { ALICE, BOB, VALIDATOR } from './recorded-run.js';

export const EXAMPLES: Record<string, MethodExample[]> = {
  svc_getBalance: [{
    name: 'USDC balance of an account',
    params: [{ name: 'address', value: ALICE }, { name: 'token_symbol', value: 'USDC' }],
    result: { name: 'balance', value: '249998500000' },
  }],
  svc_transfer: [{
    name: '1.5 USDC',
    params: [{ name: 'from', value: ALICE }, { name: 'to', value: BOB }, { name: 'token', value: 'USDC' }, { name: 'amount', value: '1500000' }],
    result: {
      name: 'receipt',
      value: {
        bundle_hash: 'Nxh6cMDcw8SbyehrEcjmt5b3LcWaSNoTHe1jhjYcJvthVXZ',
        block_height: 6,
        block_hash: 'Nxh8wLhN3gAJc9CNyTTnpoRqLgkEHXx9Ziqs4DN44EKeAdH',
        index: 0,
        timestamp: 1795621903,
        from: ALICE,
        nonce: '0',
        status: 'success',
        status_code: 0,
        status_name: 'OK',
        gas_used: 21000,
        fee: '210000',
        events: [
          {
            type: 'Fee',
            op_index: null,
            payer: ALICE,
            proposer: VALIDATOR,
            to_proposer: '168000',
            treasury: '0x0000000000000000000000000000000000000000000000000000000000000003',
            to_treasury: '42000',
          },
          {
            type: 'Transfer',
            op_index: 0,
            from: ALICE,
            to: BOB,
            token: 'Nx16tz1b1pUjr5F5msnsErZ2G1VUVgF9M9F16E2Vmu3CAbb',
            symbol: 'USDC',
            amount: '1500000',
          },
        ],
      },
    },
  }],
  svc_faucet: [{
    name: '100 NTV to a new account',
    params: [{ name: 'address', value: ALICE }],
    result: {
      name: 'receipt',
      value: {
        bundle_hash: 'NxhFHgjJ3gZa24HeB3BV2uybJKa1FPoQqFK1UUgqbVZK7dQ',
        block_height: 1,
        block_hash: 'NxhBwLGJkVv2TTebMnPgY7rdV3EQqFSPYzFdTSmF41f4rgv',
        index: 0,
        timestamp: 1795621901,
        from: '0x0000000000000000000000000000000000000000000000000000000000000007',
        nonce: '0',
        status: 'success',
        status_code: 0,
        status_name: 'OK',
        gas_used: 21000,
        fee: '210000',
        events: [
          {
            type: 'Fee',
            op_index: null,
            payer: '0x0000000000000000000000000000000000000000000000000000000000000007',
            proposer: VALIDATOR,
            to_proposer: '168000',
            treasury: '0x0000000000000000000000000000000000000000000000000000000000000003',
            to_treasury: '42000',
          },
          {
            type: 'Transfer',
            op_index: 0,
            from: '0x0000000000000000000000000000000000000000000000000000000000000007',
            to: ALICE,
            token: 'Nx111111111111111111111111111111111',
            symbol: 'NTV',
            amount: '100000000000',
          },
        ],
      },
    },
  }],
  svc_getAccount: [{
    name: "keys and a pending recovery",
    params: [{"name":"address","value":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW"}],
    result: { name: "account", value: {"address":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW","evm_address":"0x3c95be6fabb3766d091c008a7e21214844b020b5","nonce":"4","pending_nonce":"4","balance":"49998948080","keys":[],"recovery":{"guardians":["Nx05hWbJCorvfuDYyYLwV58azvCufrScch3wLQjrAobcKA1","Nx0FAXrATczuSd1t1oHeVeWS8JbDFiVNid4h5mFXNpJtVEx"],"threshold":2,"timelock":172800,"pending":{"key_hash":"c9b04dc80791126082e4ae04f918156194935b345351aefb0e94bba704205326","key_type":"Ed25519","public_key":"7e584359283a4d21e8940aa729fd24cbbf247a800d5286a93c6dd38156a8d04b","initiated_at":1795696214,"initiated_height":9,"executable_at":1795869014,"approvals":["Nx05hWbJCorvfuDYyYLwV58azvCufrScch3wLQjrAobcKA1"]}}} },
  }],
};

/** What each method does, its errors by name and its spec section, for OpenRPC `description`. */
export const DESCRIPTIONS: Record<string, string> = {
  svc_getBalance:
    'Reads the committed balance of `address` in one token (spec §4.1); the token by symbol (any case) or mint, NTV when absent. An account that never held the token has "0". Errors: UNKNOWN_TOKEN when no token has that symbol or mint.',
  svc_getAccount:
    'Reads an account for a wallet about to build a bundle (spec §5.8): its EVM form, the next executable nonce, the next nonce after its queued bundles, its NTV balance, its registered keys with type, hash, role and the block that added them (none until its first signed send), and its guardian recovery configuration with any pending recovery (docs/accounts.md). Any well-formed address answers; an unknown one has nonce "0" and no keys. No application errors.',
  svc_transfer:
    'Sends `amount` raw units of a token from `from` to `to` as an unsigned bundle and answers with its receipt once in a block (spec §4.1, §5.5, §5.6). Errors: UNAVAILABLE_ON_NETWORK on mainnet (sign a Transfer and use svc_submitBundle), UNKNOWN_TOKEN, BUNDLE_FAILED with the reverted receipt (e.g. status INSUFFICIENT_BALANCE), BUNDLE_INVALID when admission refuses the bundle.',
  svc_faucet:
    "Pays 100 NTV from the testnet-rewards system account 0x00…07 (spec §1.9, §1.11) and answers with the receipt. Errors: FAUCET_LIMIT within an hour of the address's last payout (data.retry_after_seconds), UNAVAILABLE_ON_NETWORK on mainnet.",
};
