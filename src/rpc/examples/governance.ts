/**
 * OpenRPC examples and descriptions of the methods in src/rpc/methods/governance.ts
 * (docs/governance.md), recorded from a testnet node (the accounts, the AUR token, pool and
 * collections of src/rpc/examples/recorded-run.ts, created by the calls shown); long lists are cut
 * to two items. test/unit/rpc-openrpc.test.ts holds each to its method's own param and result
 * schemas.
 */
import type { MethodExample } from '../registry.js';
import { ALICE, VALIDATOR } from './recorded-run.js';

export const EXAMPLES: Record<string, MethodExample[]> = {
  // Protocol proposals (docs/governance.md): the validator proposes a lower commission cap, votes
  // for it with its stake, and anyone executes it once the 500-block voting period is over.
  svc_createProposal: [{
    name: 'a parameter change',
    params: [{ name: 'from', value: VALIDATOR }, { name: 'proposal_type', value: 'parameter_change' }, { name: 'title', value: 'Lower the commission cap' },
      { name: 'description', value: 'Cap commissions at 30%' }, { name: 'parameter_key', value: 'max_commission_bps' }, { name: 'parameter_value', value: '3000' }],
    result: {
      name: 'receipt',
      value: {
        bundle_hash: 'NxhAa1Kq3mYqk4dd9vLfrdtV8cP9Zg7cH1ZV7YzT8QkFz4K', block_height: 40, block_hash: 'Nxh7Y9cYB2ZcJpP2uGbYw8u8E3m2JcKVrPyk1o4FqQmnzXp', index: 0, timestamp: 1795623010, from: VALIDATOR, nonce: '4',
        status: 'success', status_code: 0, status_name: 'OK', gas_used: 35165, fee: '351650',
        events: [
          { type: 'Fee', op_index: null, payer: VALIDATOR, proposer: VALIDATOR, to_proposer: '281320', treasury: '0x0000000000000000000000000000000000000000000000000000000000000003', to_treasury: '70330' },
          { type: 'ProposalCreated', op_index: 0, proposal_id: '1', proposer: VALIDATOR, proposal_type: 'parameter_change', end_height: 540 },
        ],
      },
    },
  }],
  svc_voteProposal: [{
    name: "yes with the validator's stake",
    params: [{ name: 'from', value: VALIDATOR }, { name: 'proposal_id', value: '1' }, { name: 'approve', value: true }],
    result: {
      name: 'receipt',
      value: {
        bundle_hash: 'Nxh5uKJ8oQ1Wf8bq3xZsd9tT4vRm2P6yLhN7cA2e3W9kFpB', block_height: 41, block_hash: 'Nxh7Y9cYB2ZcJpP2uGbYw8u8E3m2JcKVrPyk1o4FqQmnzXp', index: 0, timestamp: 1795623010, from: VALIDATOR, nonce: '5',
        status: 'success', status_code: 0, status_name: 'OK', gas_used: 30000, fee: '300000',
        events: [
          { type: 'Fee', op_index: null, payer: VALIDATOR, proposer: VALIDATOR, to_proposer: '240000', treasury: '0x0000000000000000000000000000000000000000000000000000000000000003', to_treasury: '60000' },
          { type: 'ProposalVoted', op_index: 0, proposal_id: '1', voter: VALIDATOR, approve: true, weight: '1000000000000000' },
        ],
      },
    },
  }],
  svc_executeProposal: [{
    name: 'after the voting period',
    params: [{ name: 'from', value: ALICE }, { name: 'proposal_id', value: '1' }],
    result: {
      name: 'receipt',
      value: {
        bundle_hash: 'Nxh3JtVq2nX8Lw5sC7kD9hE4gF6aB1mR2pY8uT3zK5oWcQ', block_height: 541, block_hash: 'Nxh7Y9cYB2ZcJpP2uGbYw8u8E3m2JcKVrPyk1o4FqQmnzXp', index: 0, timestamp: 1795623010, from: ALICE, nonce: '14',
        status: 'success', status_code: 0, status_name: 'OK', gas_used: 85000, fee: '850000',
        events: [
          { type: 'Fee', op_index: null, payer: ALICE, proposer: VALIDATOR, to_proposer: '680000', treasury: '0x0000000000000000000000000000000000000000000000000000000000000003', to_treasury: '170000' },
          { type: 'ChainParamChanged', op_index: 0, proposal_id: '1', key: 'max_commission_bps', old_value: '5000', new_value: '3000' },
          { type: 'ProposalExecuted', op_index: 0, proposal_id: '1', executor: ALICE, proposal_type: 'parameter_change' },
        ],
      },
    },
  }],
  svc_cancelProposal: [{
    name: 'withdrawn by its proposer',
    params: [{ name: 'from', value: VALIDATOR }, { name: 'proposal_id', value: '2' }],
    result: {
      name: 'receipt',
      value: {
        bundle_hash: 'Nxh9pQw3eR5tY7uI2oP4aS6dF8gH1jK3lZ5xC7vB9nM2qW', block_height: 44, block_hash: 'Nxh7Y9cYB2ZcJpP2uGbYw8u8E3m2JcKVrPyk1o4FqQmnzXp', index: 0, timestamp: 1795623010, from: VALIDATOR, nonce: '7',
        status: 'success', status_code: 0, status_name: 'OK', gas_used: 25000, fee: '250000',
        events: [
          { type: 'Fee', op_index: null, payer: VALIDATOR, proposer: VALIDATOR, to_proposer: '200000', treasury: '0x0000000000000000000000000000000000000000000000000000000000000003', to_treasury: '50000' },
          { type: 'ProposalCancelled', op_index: 0, proposal_id: '2', proposer: VALIDATOR },
        ],
      },
    },
  }],
  svc_getProposal: [{ name: 'an executed parameter change', params: [{ name: 'proposal_id', value: '1' }], result: { name: 'proposal', value: {
        proposal_id: '1', proposer: VALIDATOR, proposal_type: 'parameter_change', status: 'executed', title: 'Lower the commission cap',
        description: 'Cap commissions at 30%', created_height: 40, created_at: 1795623010, end_height: 540, quorum_bps: 3340, threshold_bps: 5000,
        total_stake: '1000000000000000', yes: '1000000000000000', no: '0', voters: 1, executed_height: 541,
        parameter_key: 'max_commission_bps', parameter_value: '3000',
      } } }],
  svc_listProposals: [{ name: 'the executed ones', params: [{ name: 'status', value: 'executed' }], result: { name: 'proposals', value: [{
        proposal_id: '1', proposer: VALIDATOR, proposal_type: 'parameter_change', status: 'executed', title: 'Lower the commission cap',
        description: 'Cap commissions at 30%', created_height: 40, created_at: 1795623010, end_height: 540, quorum_bps: 3340, threshold_bps: 5000,
        total_stake: '1000000000000000', yes: '1000000000000000', no: '0', voters: 1, executed_height: 541,
        parameter_key: 'max_commission_bps', parameter_value: '3000',
      }] } }],
};

/** What each method does, its errors by name and its spec section, for OpenRPC `description`. */
export const DESCRIPTIONS: Record<string, string> = {
  svc_createProposal:
    'Spec §4.14 (docs/governance.md "Proposal types"): proposal_type and the params it needs. Errors: INVALID_PARAMS naming a missing or malformed param or an unknown proposal_type; UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED (NO_VOTING_POWER, INVALID_PROPOSAL_TEXT, INVALID_PARAMETER_VALUE, TREASURY_INSUFFICIENT, INVALID_SAFETY_TARGET, INVALID_PROPOSAL_OPERATIONS).',
  svc_voteProposal:
    'Spec §4.14: one stake-weighted vote per account while the proposal is open. Errors: UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED (PROPOSAL_NOT_FOUND, VOTING_CLOSED, ALREADY_VOTED, NO_VOTING_POWER).',
  svc_executeProposal:
    "Spec §4.14: runs a passed proposal as GOVERNANCE 0x00…09, once, after end_height. Errors: UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED (PROPOSAL_NOT_FOUND, PROPOSAL_NOT_EXECUTABLE, VOTING_NOT_ENDED, PROPOSAL_REJECTED, or the action's own status, e.g. TREASURY_INSUFFICIENT).",
  svc_cancelProposal:
    'Spec §4.14: the proposer withdraws a proposal still open for votes. Errors: UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED (PROPOSAL_NOT_FOUND, NOT_PROPOSER, PROPOSAL_NOT_CANCELLABLE).',
  svc_getProposal:
    'A proposal with its action, tally and status (voting, passed, rejected, executed, cancelled; docs/governance.md "States"). Errors: NOT_FOUND for an unknown id; INVALID_PARAMS for id 0 or a non-number.',
  svc_listProposals:
    'Proposals newest first (at most 100), all or only those with the given status. Errors: INVALID_PARAMS for an unknown status.',
};
