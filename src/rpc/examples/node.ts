/**
 * OpenRPC examples and descriptions of the methods in src/rpc/methods/node.ts
 * (docs/operations.md), recorded from a testnet node (the accounts, the AUR token, pool and
 * collections of src/rpc/examples/recorded-run.ts, created by the calls shown); long lists are cut
 * to two items. test/unit/rpc-openrpc.test.ts holds each to its method's own param and result
 * schemas.
 */
import type { MethodExample } from '../registry.js';
import { ALICE, VALIDATOR } from './recorded-run.js';

export const EXAMPLES: Record<string, MethodExample[]> = {
  svc_version: [{
    name: 'a testnet node',
    params: [],
    result: { name: 'version', value: { version: '0.1.0', client: 'ntv-node/0.1.0', network: 'testnet', chain_id: 1618032, validator: VALIDATOR } },
  }],
  svc_generateKeypair: [{
    name: 'a fresh testnet key',
    params: [],
    result: {
      name: 'keypair',
      value: {
        address: ALICE,
        public_key: 'a117b8d89b6e4a9d5c71cab3853859f78b1ce1e8f87184f13cffa6f62da6e430',
        secret_key: 'b8b2bc10febba6ab1100d2eeba4871bc67750c41502bec8d373f5df92a0055d0',
        key_type: 'Ed25519',
      },
    },
  }],
  svc_deriveAddress: [{
    name: 'an Ed25519 key',
    params: [{ name: 'pubkey_hex', value: 'a117b8d89b6e4a9d5c71cab3853859f78b1ce1e8f87184f13cffa6f62da6e430' }],
    result: { name: 'address', value: { address: ALICE, evm_address: '0x186aa50b5aebc8e90865ad028ab5a1420b3f6afb', key_type: 'Ed25519' } },
  }],
  web3_clientVersion: [{ name: 'this node', params: [], result: { name: 'version', value: 'ntv-node/0.1.0' } }],
};

/** What each method does, its errors by name and its spec section, for OpenRPC `description`. */
export const DESCRIPTIONS: Record<string, string> = {
  svc_version:
    "The node's version, client string, network, EIP-155 chain ID and the validator address it produces blocks as (spec §4.17, §9.3). No application errors.",
  svc_generateKeypair:
    'Makes an Ed25519 keypair on the node and returns its secret: for testnet experiments only (spec §2.5, §5.6); the address is Nx0 + base58(SHA256(public key)). Errors: UNAVAILABLE_ON_NETWORK on mainnet.',
  svc_deriveAddress:
    'Computes the account of a public key without touching state (spec §1.6, §5.4): 32 bytes are Ed25519, 1,952 bytes ML-DSA-65; other lengths are -32602. No application errors.',
  web3_clientVersion:
    'The client name and version, "ntv-node/<version>", as EVM tooling prints it (spec §4.18, §9.3). No application errors.',
};
