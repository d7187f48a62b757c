/**
 * OpenRPC examples and descriptions of the methods in src/rpc/methods/names.ts (docs/names.md),
 * recorded from a testnet node (the accounts, the AUR token, pool and collections of
 * src/rpc/examples/recorded-run.ts, created by the calls shown); long lists are cut to two items.
 * test/unit/rpc-openrpc.test.ts holds each to its method's own param and result schemas.
 */
import type { MethodExample } from '../registry.js';
import { ALICE, VALIDATOR } from './recorded-run.js';

export const EXAMPLES: Record<string, MethodExample[]> = {
  svc_registerName: [{
    name: 'alice.vex',
    params: [{ name: 'name', value: 'alice' }, { name: 'sender', value: ALICE }],
    result: {
      name: 'receipt',
      value: {
        bundle_hash: 'NxhB9mYu4ZPbgRYVhZJoLDZXhZ5j5u1acUn5GKQ7Un5yy71',
        block_height: 24,
        block_hash: 'Nxh9u4AuRxNYNUtx1StvRUdy58FjkuKYj6PCuVPXdqp7Qc5',
        index: 0,
        timestamp: 1795621914,
        from: ALICE,
        nonce: '13',
        status: 'success',
        status_code: 0,
        status_name: 'OK',
        gas_used: 45000,
        fee: '450000',
        events: [
          {
            type: 'Fee',
            op_index: null,
            payer: ALICE,
            proposer: VALIDATOR,
            to_proposer: '360000',
            treasury: '0x0000000000000000000000000000000000000000000000000000000000000003',
            to_treasury: '90000',
          },
        ],
      },
    },
  }],
  svc_resolveName: [{ name: 'alice.vex', params: [{ name: 'name', value: 'alice.vex' }], result: { name: 'address', value: ALICE } }],
  svc_reverseResolve: [{ name: 'an account with a name', params: [{ name: 'address', value: ALICE }], result: { name: 'name', value: 'alice.vex' } }],
  svc_getNameInfo: [{
    name: 'alice.vex',
    params: [{ name: 'name', value: 'alice' }],
    result: {
      name: 'info',
      value: {
        name: 'alice.vex',
        label: 'alice',
        id: 'Nx9GsBJ8D1VYfEUMGQo7GJszPFUXxnsES3JGpzHWnTHFrBN',
        owner: ALICE,
        owner_evm: '0x186aa50b5aebc8e90865ad028ab5a1420b3f6afb',
        registered_height: 24,
        registered_at: 1795621914,
        is_primary: true,
      },
    },
  }],
};

/** What each method does, its errors by name and its spec section, for OpenRPC `description`. */
export const DESCRIPTIONS: Record<string, string> = {
  svc_registerName:
    'Spec §4.12. Errors: UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED (NAME_TAKEN, or a name that breaks the rule).',
  svc_resolveName:
    'The Nx0… owner of a name, with or without ".vex", any case (spec §4.12). Errors: NOT_FOUND when the name is not registered.',
  svc_reverseResolve:
    'The primary name of an address, with its ".vex" suffix, or null when it registered none (spec §4.12). No application errors.',
  svc_getNameInfo:
    "The name's record (spec §4.12): label, id (its hash), owner in both forms, registration height and time, and whether it is the owner's primary name. Errors: NOT_FOUND when the name is not registered.",
};
