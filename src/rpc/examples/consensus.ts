/**
 * OpenRPC examples and descriptions of the methods in src/rpc/methods/consensus.ts
 * (docs/consensus.md), recorded from a testnet node (the accounts, the AUR token, pool and
 * collections of src/rpc/examples/recorded-run.ts, created by the calls shown); long lists are cut
 * to two items. test/unit/rpc-openrpc.test.ts holds each to its method's own param and result
 * schemas.
 */
import type { MethodExample } from '../registry.js';
import { VALIDATOR } from './recorded-run.js';

export const EXAMPLES: Record<string, MethodExample[]> = {
  svc_consensusStatus: [{
    name: 'a single-validator node',
    params: [],
    result: {
      name: 'status',
      value: {
        height: 41,
        finalized_height: 41,
        deciding_height: 42,
        epoch: 0,
        slot: 8,
        round: 0,
        leader: { consensus_key: 'dd9c580997fd6763eaf5f3cff925076cb3c06e64adc625a1a341bc0603495187', address: VALIDATOR },
        current_proposer: { consensus_key: 'dd9c580997fd6763eaf5f3cff925076cb3c06e64adc625a1a341bc0603495187', address: VALIDATOR },
        validator_count: 1,
        total_stake: '1000000000000000',
        own_role: 'leader',
        own_consensus_key: 'dd9c580997fd6763eaf5f3cff925076cb3c06e64adc625a1a341bc0603495187',
        mode: 'solo',
        pending: { block_hash: null, voted_stake: '0', proposals: 0, voted: false, step: 'propose', locked_round: -1, valid_round: -1 },
        last_finality: { height: 41, round: 0, ms: 2, at: 1795621923085 },
        finality_ms: { samples: 41, average: 4, p50: 2, p95: 8, max: 18 },
        block_interval_ms: 500,
        syncing: false,
        counters: { proposals: 0, votesSent: 0, votesReceived: 0, rejected: 0, doubleSigns: 0, failovers: 0, reports_submitted: 0 },
      },
    },
  }],
  svc_getCurrentLeader: [{
    name: 'the height being decided',
    params: [{ name: 'height', value: null }],
    result: {
      name: 'leader',
      value: {
        height: 42,
        slot: 8,
        epoch: 0,
        source: 'schedule',
        leader: { consensus_key: 'dd9c580997fd6763eaf5f3cff925076cb3c06e64adc625a1a341bc0603495187', address: VALIDATOR },
        backups: [],
        round: 0,
        proposer: { consensus_key: 'dd9c580997fd6763eaf5f3cff925076cb3c06e64adc625a1a341bc0603495187', address: VALIDATOR },
        missed: [],
      },
    },
  }],
  svc_getAttestations: [{ name: 'a block of one validator', params: [{ name: 'height', value: 40 }], result: { name: 'attestations', value: [] } }],
  svc_getBlockDAG: [{
    name: 'a finalized block',
    params: [{ name: 'height', value: 40 }],
    result: {
      name: 'dag',
      value: {
        height: 40,
        canonical: {
          hash: 'Nxh87wCZ3tzSAkVzew1W6puNN47scNnbniS2cY2a6vcE6xa',
          timestamp: 1795621922,
          proposer: VALIDATOR,
          parentBlocks: ['NxhC4Gc3pUEKWZifFRwBGMCTvyf4TsBQdeksNvxj2Vwuy7r'],
          stateRoot: 'Nxh56FxSGDD5hxS8fVTe2Q4tGhxtDZpvZykTgPf47BSDa5s',
          bundleCount: 1,
          round: 0,
          missed: [],
        },
        attestations: [],
        attestationCount: 0,
      },
    },
  }],
};

/** What each method does, its errors by name and its spec section, for OpenRPC `description`. */
export const DESCRIPTIONS: Record<string, string> = {
  svc_consensusStatus:
    "Reads this node's consensus state (spec §4.17): finalized and deciding heights, epoch, slot, round, the slot leader and current proposer, validators and stake, this node's role and key, the pending vote, finality latency statistics and counters. No application errors.",
  svc_getCurrentLeader:
    'Leader and backups by slot schedule (spec §4.17); for a past height also the round it was decided in, the actual proposer and the skipped leaders, read from the block. Errors: NOT_FOUND above the height being decided.',
  svc_getAttestations:
    'The finality votes of a block, as attestation blocks (spec §4.17); empty when the proposer alone decided it. Errors: NOT_FOUND when no block has that height.',
  svc_getBlockDAG:
    'The canonical block at a height and its attestation blocks, in the shape of facts.md "Other shapes seen" (spec §4.17). Errors: NOT_FOUND when no block has that height.',
};
