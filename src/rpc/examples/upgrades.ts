/**
 * OpenRPC examples and descriptions of the methods in src/rpc/methods/upgrades.ts
 * (docs/upgrades.md), recorded from a testnet node (the accounts, the AUR token, pool and
 * collections of src/rpc/examples/recorded-run.ts, created by the calls shown); long lists are cut
 * to two items. test/unit/rpc-openrpc.test.ts holds each to its method's own param and result
 * schemas.
 */
import type { MethodExample } from '../registry.js';
import { ALICE, VALIDATOR } from './recorded-run.js';

export const EXAMPLES: Record<string, MethodExample[]> = {
  svc_scheduleUpgrade: [{
    name: 'the authority schedules v0.2.0 at block 1200',
    params: [
      { name: 'name', value: 'v0.2.0' },
      { name: 'height', value: 1200 },
      { name: 'binary_url', value: 'https://releases.example.org/ntv-node-0.2.0.tgz' },
      { name: 'checksum', value: '9f2b6c1e0d8a4f3b7c5e2a1d9b8c7f6e5d4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a' },
      { name: 'info_url', value: 'https://releases.example.org/0.2.0' },
      { name: 'sender', value: ALICE },
    ],
    result: {
      name: 'receipt',
      value: {
        bundle_hash: 'NxhB9mYu4ZPbgRYVhZJoLDZXhZ5j5u1acUn5GKQ7Un5yy71', block_height: 1000, block_hash: 'Nxh9u4AuRxNYNUtx1StvRUdy58FjkuKYj6PCuVPXdqp7Qc5',
        index: 0, timestamp: 1795621914, from: ALICE, nonce: '3', status: 'success', status_code: 0, status_name: 'OK', gas_used: 65000, fee: '650000',
        events: [{ type: 'UpgradeScheduled', op_index: 0, name: 'v0.2.0', proposer: ALICE, height: 1200, state: 'approved' }],
      },
    },
  }],
  svc_voteUpgrade: [{
    name: 'a validator approves v0.2.0',
    params: [{ name: 'name', value: 'v0.2.0' }, { name: 'approve', value: true }, { name: 'sender', value: VALIDATOR }],
    result: {
      name: 'receipt',
      value: {
        bundle_hash: 'NxhB9mYu4ZPbgRYVhZJoLDZXhZ5j5u1acUn5GKQ7Un5yy71', block_height: 1010, block_hash: 'Nxh9u4AuRxNYNUtx1StvRUdy58FjkuKYj6PCuVPXdqp7Qc5',
        index: 0, timestamp: 1795621934, from: VALIDATOR, nonce: '8', status: 'success', status_code: 0, status_name: 'OK', gas_used: 65000, fee: '650000',
        events: [{ type: 'UpgradeVoted', op_index: 0, name: 'v0.2.0', voter: VALIDATOR, approve: true, state: 'pending' }],
      },
    },
  }],
  svc_cancelUpgrade: [{
    name: 'the proposer withdraws its pending plan',
    params: [{ name: 'name', value: 'v0.2.0' }, { name: 'sender', value: ALICE }],
    result: {
      name: 'receipt',
      value: {
        bundle_hash: 'NxhB9mYu4ZPbgRYVhZJoLDZXhZ5j5u1acUn5GKQ7Un5yy71', block_height: 1020, block_hash: 'Nxh9u4AuRxNYNUtx1StvRUdy58FjkuKYj6PCuVPXdqp7Qc5',
        index: 0, timestamp: 1795621954, from: ALICE, nonce: '4', status: 'success', status_code: 0, status_name: 'OK', gas_used: 35000, fee: '350000',
        events: [{ type: 'UpgradeCancelled', op_index: 0, name: 'v0.2.0', by: ALICE }],
      },
    },
  }],
  svc_getUpgradePlan: [{
    name: 'an approved plan, after an earlier upgrade',
    params: [],
    result: {
      name: 'overview',
      value: {
        plan: {
          name: 'v0.3.0', state: 'approved', height: 52000, proposer: ALICE, created_height: 51000, voting_deadline: 51500, decided_height: 51012,
          binary_url: 'https://releases.example.org/ntv-node-0.3.0.tgz', checksum: '9f2b6c1e0d8a4f3b7c5e2a1d9b8c7f6e5d4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a',
          info_url: 'https://releases.example.org/0.3.0', yes_stake: '1', no_stake: '0',
        },
        applied: { name: 'v0.2.0', height: 1200 },
        grace_until: 1299,
        node_version: '0.2.0',
        implements: ['v0.2.0'],
        governance: { mode: 'seed-authority', authority: ALICE, quorum_percent: 67, voting_period: 500 },
      },
    },
  }],
};

/** What each method does, its errors by name and its spec section, for OpenRPC `description`. */
export const DESCRIPTIONS: Record<string, string> = {
  svc_scheduleUpgrade:
    'Spec §4.13, docs/upgrades.md. Errors: invalid params for a bad name, a height not above the next block, a checksum that is not 32 non-zero bytes, a URL over 512 bytes; UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED (UPGRADE_PLAN_ACTIVE, UPGRADE_NAME_TAKEN, NOT_UPGRADE_VOTER in full mode).',
  svc_voteUpgrade:
    'Spec §4.13, docs/upgrades.md. Errors: NOT_FOUND for an unknown plan; UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED (NOT_UPGRADE_VOTER, ALREADY_VOTED_UPGRADE, UPGRADE_NOT_PENDING, UPGRADE_VOTING_CLOSED, UPGRADE_HEIGHT_PASSED).',
  svc_cancelUpgrade:
    'Spec §4.13, docs/upgrades.md. Errors: NOT_FOUND for an unknown plan; UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED (NOT_UPGRADE_AUTHORITY, UPGRADE_NOT_ACTIVE, UPGRADE_HEIGHT_PASSED).',
  svc_getUpgradePlan:
    'Spec §4.13, §9.4: `applied` is the version the chain runs since its height, `node_version` the release this node runs. Errors: NOT_FOUND for an unknown plan name.',
};
