/**
 * OpenRPC examples and descriptions of the methods in src/rpc/methods/dao.ts (docs/governance.md
 * "DAOs"), recorded from a testnet node (the accounts, the AUR token, pool and collections of
 * src/rpc/examples/recorded-run.ts, created by the calls shown); long lists are cut to two items.
 * test/unit/rpc-openrpc.test.ts holds each to its method's own param and result schemas.
 */
import type { MethodExample } from '../registry.js';
import { ALICE, BOB, VALIDATOR, AUR_MINT, GRANTS_DAO, GRANTS_ESCROW } from './recorded-run.js';

export const EXAMPLES: Record<string, MethodExample[]> = {
  // DAOs (docs/governance.md "DAOs"): Alice creates a grants DAO on AUR, proposes paying Bob from its treasury, votes, executes, unlocks.
  svc_createDao: [{
    name: 'a grants DAO voting with AUR',
    params: [{ name: 'name', value: 'Aurora grants' }, { name: 'token_mint', value: AUR_MINT },
      { name: 'config', value: { quorum_bps: 2000, threshold_bps: 5000, voting_period: 100, execution_delay: 10, proposal_threshold: '1000000' } }, { name: 'sender', value: ALICE }],
    result: { name: 'receipt', value: {
        bundle_hash: 'Nxh3JtVq2nX8Lw5sC7kD9hE4gF6aB1mR2pY8uT3zK5oWcQ', block_height: 50, block_hash: 'Nxh7Y9cYB2ZcJpP2uGbYw8u8E3m2JcKVrPyk1o4FqQmnzXp', index: 0, timestamp: 1795623010, from: ALICE, nonce: '3',
        status: 'success', status_code: 0, status_name: 'OK', gas_used: 65000, fee: '650000',
        events: [
          { type: 'Fee', op_index: null, payer: ALICE, proposer: VALIDATOR, to_proposer: '520000', treasury: '0x0000000000000000000000000000000000000000000000000000000000000003', to_treasury: '130000' },
          { type: 'DaoCreated', op_index: 0, dao_address: GRANTS_DAO, dao_id: '1', creator: ALICE, token_mint: AUR_MINT },
        ],
      } },
  }],
  svc_daoPropose: [{
    name: 'pay Bob 500 NTV from the treasury',
    params: [{ name: 'dao_address', value: GRANTS_DAO }, { name: 'title', value: 'Pay Bob for the audit' }, { name: 'description', value: '500 NTV from the treasury' },
      { name: 'proposal_type', value: 'operations' }, { name: 'sender', value: ALICE },
      { name: 'operations', value: '0x0100000000' + '11'.repeat(32) + '00'.repeat(32) + '00e87648740000000000000000000000' }],
    result: { name: 'receipt', value: {
        bundle_hash: 'Nxh3JtVq2nX8Lw5sC7kD9hE4gF6aB1mR2pY8uT3zK5oWcQ', block_height: 60, block_hash: 'Nxh7Y9cYB2ZcJpP2uGbYw8u8E3m2JcKVrPyk1o4FqQmnzXp', index: 0, timestamp: 1795623010, from: ALICE, nonce: '3',
        status: 'success', status_code: 0, status_name: 'OK', gas_used: 35576, fee: '355760',
        events: [
          { type: 'Fee', op_index: null, payer: ALICE, proposer: VALIDATOR, to_proposer: '284608', treasury: '0x0000000000000000000000000000000000000000000000000000000000000003', to_treasury: '71152' },
          { type: 'DaoProposal', op_index: 0, dao_address: GRANTS_DAO, proposal_id: '1', action: 'proposed', account: ALICE, amount: '0' },
        ],
      } },
  }],
  svc_daoVote: [{
    name: 'yes with 3,000 AUR, locked until the vote ends',
    params: [{ name: 'dao_address', value: GRANTS_DAO }, { name: 'proposal_id', value: '1' }, { name: 'vote', value: 'yes' }, { name: 'sender', value: BOB }],
    result: { name: 'receipt', value: {
        bundle_hash: 'Nxh3JtVq2nX8Lw5sC7kD9hE4gF6aB1mR2pY8uT3zK5oWcQ', block_height: 61, block_hash: 'Nxh7Y9cYB2ZcJpP2uGbYw8u8E3m2JcKVrPyk1o4FqQmnzXp', index: 0, timestamp: 1795623010, from: BOB, nonce: '3',
        status: 'success', status_code: 0, status_name: 'OK', gas_used: 40000, fee: '400000',
        events: [
          { type: 'Fee', op_index: null, payer: BOB, proposer: VALIDATOR, to_proposer: '320000', treasury: '0x0000000000000000000000000000000000000000000000000000000000000003', to_treasury: '80000' },
          { type: 'Transfer', op_index: 0, from: BOB, to: GRANTS_ESCROW, token: AUR_MINT, amount: '3000000000' },
          { type: 'DaoProposal', op_index: 0, dao_address: GRANTS_DAO, proposal_id: '1', action: 'voted_yes', account: BOB, amount: '3000000000' },
        ],
      } },
  }],
  svc_daoExecute: [{
    name: 'after the vote and the delay',
    params: [{ name: 'dao_address', value: GRANTS_DAO }, { name: 'proposal_id', value: '1' }, { name: 'sender', value: ALICE }],
    result: { name: 'receipt', value: {
        bundle_hash: 'Nxh3JtVq2nX8Lw5sC7kD9hE4gF6aB1mR2pY8uT3zK5oWcQ', block_height: 175, block_hash: 'Nxh7Y9cYB2ZcJpP2uGbYw8u8E3m2JcKVrPyk1o4FqQmnzXp', index: 0, timestamp: 1795623010, from: ALICE, nonce: '3',
        status: 'success', status_code: 0, status_name: 'OK', gas_used: 85000, fee: '850000',
        events: [
          { type: 'Fee', op_index: null, payer: ALICE, proposer: VALIDATOR, to_proposer: '680000', treasury: '0x0000000000000000000000000000000000000000000000000000000000000003', to_treasury: '170000' },
          { type: 'Transfer', op_index: 0, from: 'Nx0E9avK2iHpyWsWhWnjtfJZYBxJy9rsPcg6uf8N8Y9TSxD', to: BOB, token: 'Nx111111111111111111111111111111111', amount: '500000000000' },
          { type: 'DaoProposal', op_index: 0, dao_address: GRANTS_DAO, proposal_id: '1', action: 'executed', account: ALICE, amount: '0' },
        ],
      } },
  }],
  svc_daoCancel: [{
    name: 'the proposer withdraws it',
    params: [{ name: 'dao_address', value: GRANTS_DAO }, { name: 'proposal_id', value: '2' }, { name: 'sender', value: ALICE }],
    result: { name: 'receipt', value: {
        bundle_hash: 'Nxh3JtVq2nX8Lw5sC7kD9hE4gF6aB1mR2pY8uT3zK5oWcQ', block_height: 80, block_hash: 'Nxh7Y9cYB2ZcJpP2uGbYw8u8E3m2JcKVrPyk1o4FqQmnzXp', index: 0, timestamp: 1795623010, from: ALICE, nonce: '3',
        status: 'success', status_code: 0, status_name: 'OK', gas_used: 25000, fee: '250000',
        events: [
          { type: 'Fee', op_index: null, payer: ALICE, proposer: VALIDATOR, to_proposer: '200000', treasury: '0x0000000000000000000000000000000000000000000000000000000000000003', to_treasury: '50000' },
          { type: 'DaoProposal', op_index: 0, dao_address: GRANTS_DAO, proposal_id: '2', action: 'cancelled', account: ALICE, amount: '0' },
        ],
      } },
  }],
  svc_daoUnlock: [{
    name: 'Bob takes his 3,000 AUR back',
    params: [{ name: 'dao_address', value: GRANTS_DAO }, { name: 'proposal_id', value: '1' }, { name: 'sender', value: BOB }],
    result: { name: 'receipt', value: {
        bundle_hash: 'Nxh3JtVq2nX8Lw5sC7kD9hE4gF6aB1mR2pY8uT3zK5oWcQ', block_height: 176, block_hash: 'Nxh7Y9cYB2ZcJpP2uGbYw8u8E3m2JcKVrPyk1o4FqQmnzXp', index: 0, timestamp: 1795623010, from: BOB, nonce: '3',
        status: 'success', status_code: 0, status_name: 'OK', gas_used: 30000, fee: '300000',
        events: [
          { type: 'Fee', op_index: null, payer: BOB, proposer: VALIDATOR, to_proposer: '240000', treasury: '0x0000000000000000000000000000000000000000000000000000000000000003', to_treasury: '60000' },
          { type: 'Transfer', op_index: 0, from: GRANTS_ESCROW, to: BOB, token: AUR_MINT, amount: '3000000000' },
          { type: 'DaoProposal', op_index: 0, dao_address: GRANTS_DAO, proposal_id: '1', action: 'unlocked', account: BOB, amount: '3000000000' },
        ],
      } },
  }],
  svc_getDao: [{ name: 'the grants DAO', params: [{ name: 'dao_address', value: GRANTS_DAO }], result: { name: 'dao', value: { dao_address: GRANTS_DAO, dao_id: '1', name: 'Aurora grants', creator: ALICE, token_mint: AUR_MINT, escrow: GRANTS_ESCROW, quorum_bps: 2000, threshold_bps: 5000,
        voting_period: 100, execution_delay: 10, proposal_threshold: '1000000', created_height: 50, proposal_count: 1 } } }],
  svc_listDaos: [{ name: 'the newest ten', params: [{ name: 'limit', value: 10 }], result: { name: 'daos', value: [{ dao_address: GRANTS_DAO, dao_id: '1', name: 'Aurora grants', creator: ALICE, token_mint: AUR_MINT, escrow: GRANTS_ESCROW, quorum_bps: 2000, threshold_bps: 5000,
        voting_period: 100, execution_delay: 10, proposal_threshold: '1000000', created_height: 50, proposal_count: 1 }] } }],
  svc_getDaoProposal: [{ name: 'an executed treasury payment', params: [{ name: 'dao_address', value: GRANTS_DAO }, { name: 'proposal_id', value: '1' }],
    result: { name: 'proposal', value: { dao_address: GRANTS_DAO, proposal_id: '1', proposer: ALICE, proposal_type: 'operations', status: 'executed', title: 'Pay Bob for the audit',
        description: '500 NTV from the treasury', created_height: 60, end_height: 160, executable_height: 171, quorum_bps: 2000, threshold_bps: 5000,
        supply: '10000000000', yes: '3000000000', no: '0', voters: 2, executed_height: 175,
        operations: [{ type: 'Transfer', to: BOB, token: 'Nx111111111111111111111111111111111', amount: '500000000000' }] } } }],
};

/** What each method does, its errors by name and its spec section, for OpenRPC `description`. */
export const DESCRIPTIONS: Record<string, string> = {
  svc_createDao:
    'Issue 22 item 5 (docs/governance.md "DAOs"). Errors: INVALID_PARAMS for a malformed param; UNKNOWN_TOKEN; UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED (INVALID_DAO_CONFIG, UNKNOWN_TOKEN).',
  svc_daoPropose:
    'Errors: INVALID_PARAMS (a malformed DAO address, an unknown proposal_type, operations missing for proposal_type operations or malformed); UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED (DAO_NOT_FOUND, INVALID_PROPOSAL_TEXT, BELOW_PROPOSAL_THRESHOLD, INVALID_PROPOSAL_OPERATIONS).',
  svc_daoVote:
    'Token-weighted, the tokens locked in the DAO escrow until the vote ends. Errors: UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED (DAO_NOT_FOUND, PROPOSAL_NOT_FOUND, VOTING_CLOSED, ALREADY_VOTED, NO_VOTING_POWER).',
  svc_daoExecute:
    "Errors: UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED (DAO_NOT_FOUND, PROPOSAL_NOT_FOUND, PROPOSAL_NOT_EXECUTABLE, VOTING_NOT_ENDED, PROPOSAL_REJECTED, EXECUTION_DELAY_PENDING, or an operation's status).",
  svc_daoCancel:
    'Errors: UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED (DAO_NOT_FOUND, PROPOSAL_NOT_FOUND, NOT_PROPOSER, PROPOSAL_NOT_CANCELLABLE).',
  svc_daoUnlock:
    "Not in the issue's list: the escrow design needs a way back for locked tokens (docs/governance.md \"DAOs\"). Errors: UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED (DAO_NOT_FOUND, PROPOSAL_NOT_FOUND, NO_LOCKED_VOTE, VOTE_STILL_LOCKED).",
  svc_getDao:
    'A DAO by its Nx7… address: token, rules, escrow, proposal count. Errors: NOT_FOUND for an unknown DAO; INVALID_PARAMS for a malformed address.',
  svc_listDaos:
    'DAOs newest first, at most limit (default and maximum 100). Errors: INVALID_PARAMS for a limit outside 1–100.',
  svc_getDaoProposal:
    'A DAO proposal with its operations, tally and status (voting, passed, rejected, executed, cancelled). Errors: NOT_FOUND for an unknown DAO or proposal; INVALID_PARAMS for a malformed address or id 0.',
};
