/**
 * OpenRPC examples and descriptions of the methods in src/rpc/methods/transaction.ts (spec §4.2),
 * recorded from a testnet node (the accounts, the AUR token, pool and collections of
 * src/rpc/examples/recorded-run.ts, created by the calls shown); long lists are cut to two items.
 * test/unit/rpc-openrpc.test.ts holds each to its method's own param and result schemas.
 */
import type { MethodExample } from '../registry.js';
import { ALICE, BOB, VALIDATOR } from './recorded-run.js';

export const EXAMPLES: Record<string, MethodExample[]> = {
  svc_submitBundle: [{
    name: 'a signed NTV transfer',
    params: [
      {
        name: 'borsh_hex',
        value: '0xe8a21963a7476a9f06328047aa0487e54bbfefc385a1d44ce0d4ce85b52bd4ba01000000005b58e694e8305a66a2badf70186aa50b5aebc8e90865ad028ab5a1420b3f6afb000000000000000000000000000000000000000000000000000000000000000000f90295000000000000000000000000a08601000000000000000000000000003312076b000000000900000000000000400000008d2654925936b646d266e50c88464ae5ccfc70e017281aa10d351ebbf5f8fc46dbba5704499902e7907ff99fd09f8ee704b21fd2e96c51c2dba696b9043614080001200000000f95a2cc6839f7acd9531d1915fb96a4f0b4b6b19d1b8014e1fdee2012aac60c',
      },
    ],
    result: {
      name: 'receipt',
      value: {
        bundle_hash: 'NxhAGGhSmv4vwdwKiXW4REthui89PubaSdoivuhs5bQWh4Q',
        block_height: 42,
        block_hash: 'Nxh4ZfkTn8kvthdG3JPvDKkC6c2kQBwLRouc6X2u61cvqtQ',
        index: 0,
        timestamp: 1795621923,
        from: BOB,
        nonce: '9',
        status: 'success',
        status_code: 0,
        status_name: 'OK',
        gas_used: 21000,
        fee: '210000',
        events: [
          {
            type: 'KeyRegistered',
            op_index: null,
            account: BOB,
            key_hash: 'e8a21963a7476a9f06328047aa0487e54bbfefc385a1d44ce0d4ce85b52bd4ba',
            key_type: 'Ed25519',
          },
          {
            type: 'Fee',
            op_index: null,
            payer: BOB,
            proposer: VALIDATOR,
            to_proposer: '168000',
            treasury: '0x0000000000000000000000000000000000000000000000000000000000000003',
            to_treasury: '42000',
          },
        ],
      },
    },
  }],
  svc_getTransactionReceipt: [{
    name: 'a USDC transfer',
    params: [{ name: 'tx_hash', value: 'Nxh6cMDcw8SbyehrEcjmt5b3LcWaSNoTHe1jhjYcJvthVXZ' }],
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
};

/** What each method does, its errors by name and its spec section, for OpenRPC `description`. */
export const DESCRIPTIONS: Record<string, string> = {
  svc_submitBundle:
    "Spec §5 (bundle format, signing), §7.6 (nonces). Errors: BUNDLE_INVALID (malformed, bad signature, nonce too low, fee too low, wrong chain), BUNDLE_FAILED with the reverted receipt, MEMPOOL_FULL, MEMPOOL_LIMIT (the account's queue is full), INCLUSION_TIMEOUT.",
  svc_getTransactionReceipt:
    'Looks a bundle up by its Nxh… (or 0x) hash in committed blocks (spec §4.11); the receipt is the one svc_submitBundle answers with. Errors: SERVER_BUSY (-32000, data.reason TX_INDEXING) while the lookup index catches up after a sync.',
};
