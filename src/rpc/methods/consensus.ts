import { Type } from '@sinclair/typebox';
import type { BlockHeader } from '../../chain/block.js';
import type { ValidatorInfo } from '../../chain/validator-set.js';
import { encodeAccount, encodeHash } from '../../codec/address.js';
import type { ConsensusService } from '../../consensus/service.js';
import { leaderOf, leaderSchedule, slotOf, type ConsensusValidator } from '../../consensus/leader.js';
import { attestationHash, epochOf, votingStake, type Certificate } from '../../consensus/votes.js';
import { APP_ERRORS, RpcError } from '../errors.js';
import { defineMethod, type MethodDefinition } from '../registry.js';
import { Height, parsed } from '../schemas.js';
import type { MethodDependencies } from './context.js';

function summary(values: number[]) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);
  return {
    samples: sorted.length, average: Math.round(sorted.reduce((n, v) => n + v, 0) / sorted.length), p50: at(0.5), p95: at(0.95),
    max: Math.round(sorted.at(-1)!),
  };
}

/** Mean gap between the times of the last few final blocks. */
function interval(times: number[]): number | null {
  return times.length > 1 ? Math.round((times.at(-1)! - times[0]!) / (times.length - 1)) : null;
}

/** Backups listed by svc_getCurrentLeader after the round-0 leader. */
const BACKUPS_SHOWN = 4;

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

const LeaderSchema = Type.Object({
  consensus_key: Type.String({ description: 'hex Ed25519 consensus key' }),
  address: Type.Union([Type.String({ description: 'Nx0… staking account' }), Type.Null()]),
});

const AttestationSchema = Type.Object({
  hash: Type.String({ description: 'Nxh… Blake3(vote signing bytes ‖ validator key)' }),
  height: Type.Integer(),
  parent: Type.String({ description: 'Nxh… the canonical block the attestation votes for' }),
  state_root: Type.String({ description: 'Nxh… state root the validator computed' }),
  validator: Type.String({ description: 'hex consensus key' }),
  validator_address: Type.Union([Type.String(), Type.Null()]),
  signature: Type.String({ description: 'hex Ed25519 signature of block_hash ‖ vote_type ‖ epoch (u64 LE)' }),
  vote_type: Type.Integer(),
  epoch: Type.Integer(),
  bundle_count: Type.Integer({ description: 'always 0: attestation blocks carry no transactions' }),
});

/**
 * Spec §4.17 consensus methods (docs/consensus.md): status, the leader schedule, attestation blocks
 * (the votes of non-proposers, kept in each block's finality certificate) and the block DAG.
 */
export function consensusMethods({ chain, readers, consensus }: MethodDependencies): MethodDefinition[] {
  if (!consensus) return [];
  const c: ConsensusService = consensus;

  const addressOf = (set: readonly ValidatorInfo[], key: Uint8Array): string | null => {
    const v = set.find((x) => Buffer.compare(x.consensusKey, key) === 0);
    return v ? encodeAccount(v.address) : null;
  };
  const leaderJson = (v: ConsensusValidator) => ({ consensus_key: hex(v.consensusKey), address: encodeAccount(v.address) });

  /** The block at `height` or a NOT_FOUND naming the head. */
  async function blockAt(height: number) {
    const block = await chain.blockByHeight(height);
    if (!block) throw RpcError.app('NOT_FOUND', `no block at height ${height}; the head is ${chain.height}`, { height, head: chain.height });
    return block;
  }

  function attestations(header: BlockHeader, cert: Certificate | undefined, set: readonly ValidatorInfo[]) {
    if (!cert) return [];
    // The proposer's own vote is the block itself; the other validators' votes are attestation blocks.
    return cert.votes.filter((v) => Buffer.compare(v.validator, header.proposerPubkey) !== 0).map((v) => ({
      hash: encodeHash(attestationHash({ blockHash: cert.blockHash, voteType: cert.voteType, epoch: cert.epoch, validator: v.validator })),
      height: header.height,
      parent: encodeHash(header.hash),
      state_root: encodeHash(header.stateRoot),
      validator: hex(v.validator),
      validator_address: addressOf(set, v.validator),
      signature: hex(v.signature),
      vote_type: cert.voteType,
      epoch: cert.epoch,
      bundle_count: 0,
    }));
  }

  return [
    defineMethod({
      name: 'svc_consensusStatus',
      summary: 'Consensus state: heights, epoch, slot, round, leader, validators and stake, this node\'s role, finality times (spec §4.17).',
      description: 'Reads this node\'s consensus state (spec §4.17): finalized and deciding heights, epoch, slot, round, the slot leader and current'
        + ' proposer, validators and stake, this node\'s role and key, the pending vote, finality latency statistics and counters. No'
        + ' application errors.',
      params: [] as const,
      result: {
        description: '`{height, finalized_height, deciding_height, epoch, slot, round, leader, current_proposer, validator_count, total_stake, own_role'
          + ' ("leader" | "backup" | "validator" | "observer"), own_consensus_key, mode ("solo" | "multi"), pending {block_hash, voted_stake,'
          + ' proposals, voted, step ("propose" | "prevote" | "precommit" | "commit"), locked_round, valid_round (−1: none; docs/consensus.md'
          + ' "Rounds and locks")}, last_finality {height, round, ms, at} | null, finality_ms {samples, average, p50, p95, max} | null,'
          + ' block_interval_ms, syncing, counters {proposals, votesSent, votesReceived, rejected, doubleSigns, failovers,'
          + ' reports_submitted}}`; leaders are `{consensus_key, address}`',
        name: 'status',
        schema: Type.Object({
          height: Type.Integer({ description: 'head height' }),
          finalized_height: Type.Integer({ description: 'blocks are stored only once final, so this equals height' }),
          deciding_height: Type.Integer({ description: 'the height being proposed and voted on' }),
          epoch: Type.Integer(), slot: Type.Integer(), round: Type.Integer({ description: 'round open now at deciding_height' }),
          leader: Type.Union([LeaderSchema, Type.Null()]),
          current_proposer: Type.Union([LeaderSchema, Type.Null()]),
          validator_count: Type.Integer({ description: 'active, non-jailed validators' }),
          total_stake: Type.String({ description: 'raw NTV held by the voting validators' }),
          own_role: Type.String({ description: 'leader, backup, validator or observer' }),
          own_consensus_key: Type.String(),
          mode: Type.String({ description: 'solo (this node\'s vote is > 2/3 of the stake) or multi' }),
          pending: Type.Object({
            block_hash: Type.Union([Type.String(), Type.Null()]), voted_stake: Type.String(), proposals: Type.Integer(), voted: Type.Boolean(),
            step: Type.String({ description: 'propose, prevote, precommit, or commit once decided (docs/consensus.md "Rounds and locks")' }),
            locked_round: Type.Integer({ description: 'round of the block this node is locked on, −1 for none' }),
            valid_round: Type.Integer({ description: 'round of the latest proof of lock this node saw, −1 for none' }),
          }),
          last_finality: Type.Union([Type.Object({ height: Type.Integer(), round: Type.Integer(), ms: Type.Integer(), at: Type.Integer() }), Type.Null()]),
          finality_ms: Type.Union([Type.Object({
            samples: Type.Integer(), average: Type.Integer(), p50: Type.Integer(), p95: Type.Integer(), max: Type.Integer(),
          }, { description: 'recent blocks: proposal made or seen → certificate complete (solo: made → durable)' }), Type.Null()]),
          block_interval_ms: Type.Union([Type.Integer({ description: 'mean time between recent final blocks' }), Type.Null()]),
          syncing: Type.Boolean(),
          counters: Type.Record(Type.String(), Type.Integer()),
        }),
      },
      handler: () => {
        const { set, params } = c.atHead();
        const engine = c.engine;
        const height = chain.height + 1;
        const slot = slotOf(height, params.slotLength);
        const round = engine.currentRound();
        const schedule = leaderSchedule(set, slot, round + 1);
        const stake = votingStake(set);
        let total = 0n;
        for (const s of stake.values()) total += s;
        const me = c.identity.publicKey;
        const mine = stake.get(hex(me)) ?? 0n;
        const index = schedule.findIndex((v) => Buffer.compare(v.consensusKey, me) === 0);
        const ownRole = index === 0 ? 'leader' : index > 0 ? 'backup' : stake.has(hex(me)) ? 'validator' : 'observer';
        const pending = engine.votedStake();
        const rounds = engine.roundStatus();
        const recent = engine.finality.slice(-100);
        const last = recent.at(-1);
        return {
          height: chain.height, finalized_height: chain.height, deciding_height: height,
          epoch: epochOf(height, params.epochLength), slot, round,
          leader: schedule[0] ? leaderJson(schedule[0]) : null,
          current_proposer: schedule[round] ? leaderJson(schedule[round]!) : null,
          validator_count: stake.size, total_stake: total.toString(), own_role: ownRole, own_consensus_key: hex(me),
          mode: total > 0n && mine * 3n > total * 2n ? 'solo' : 'multi',
          pending: {
            block_hash: pending.blockHash ? encodeHash(pending.blockHash) : null, voted_stake: pending.voted.toString(),
            proposals: rounds.proposals, voted: rounds.voted, step: rounds.step, locked_round: rounds.lockedRound, valid_round: rounds.validRound,
          },
          last_finality: last ? { height: last.height, round: last.round, ms: Math.round(last.ms), at: last.at } : null,
          finality_ms: summary(recent.map((r) => r.ms)),
          block_interval_ms: interval(recent.slice(-20).map((r) => r.at)),
          syncing: chain.syncing,
          counters: { ...engine.counters, reports_submitted: c.reportsSubmitted },
        };
      },
    }),
    defineMethod({
      name: 'svc_getCurrentLeader',
      summary: 'The leader and backups of a height; null means the height being decided now. Past heights answer from the block (spec §4.17).',
      // Params parsed once (issue 44 item 4): the union wrapped whole; the genesis block has no leader.
      paramsNote: '— `null` or absent: the height being decided (head + 1)',
      description: 'Leader and backups by slot schedule (spec §4.17); for a past height also the round it was decided in, the actual proposer and the'
        + ' skipped leaders, read from the block. Errors: NOT_FOUND above the height being decided.',
      params: [{ name: 'height', schema: parsed(Type.Union([Height(), Type.Null()]), (height, param, position) => {
        if (height === 0) throw RpcError.invalidParam(param, position, 'a height of 1 or more (the genesis block has no leader)', { height });
        return height;
      }), required: false }] as const,
      result: {
        description: '`{height, slot, epoch, source ("block" | "schedule" | "projection"), leader, backups[], round, proposer, missed[]}`; a past'
          + ' height answers from its stored header; a height above head + 1 is a projection from the current set; `-32602` for height 0'
          + ' (genesis has no leader)',
        name: 'leader',
        schema: Type.Object({
          height: Type.Integer(), slot: Type.Integer(), epoch: Type.Integer(),
          source: Type.String({ description: 'block (the proposer recorded in the stored block), schedule (the next height) or projection (from the current set)' }),
          leader: LeaderSchema,
          backups: Type.Array(LeaderSchema),
          round: Type.Union([Type.Integer(), Type.Null()]),
          proposer: Type.Union([LeaderSchema, Type.Null()]),
          missed: Type.Array(LeaderSchema),
        }),
      },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: async ([requested]) => {
        const { set, params } = c.atHead();
        const next = chain.height + 1;
        const height = requested ?? next;
        const slot = slotOf(height, params.slotLength);
        const epoch = epochOf(height, params.epochLength);
        if (height < next) {
          // The set at an old parent is not kept (no archive state): the block says who proposed.
          const header = (await blockAt(height)).header;
          const proposer = { consensus_key: hex(header.proposerPubkey), address: encodeAccount(header.proposer) };
          const missed = header.missed.map((k) => ({ consensus_key: hex(k), address: addressOf(set, k) }));
          return {
            height, slot, epoch, source: 'block', leader: missed[0] ?? proposer, backups: header.round > 0 ? [proposer] : [],
            round: header.round, proposer, missed,
          };
        }
        const schedule = leaderSchedule(set, slot, 1 + BACKUPS_SHOWN);
        if (schedule.length === 0) throw RpcError.app('NOT_FOUND', 'the validator set is empty: no leader can be named', { height });
        const round = height === next ? c.engine.currentRound() : 0;
        const lead = leaderOf(set, height, round, params.slotLength);
        return {
          height, slot, epoch, source: height === next ? 'schedule' : 'projection',
          leader: leaderJson(schedule[0]!),
          backups: [...new Set(schedule.slice(1))].filter((v) => v !== schedule[0]).map(leaderJson),
          round: height === next ? round : null,
          proposer: height === next && lead ? leaderJson(lead.leader) : null,
          missed: height === next && lead ? lead.missed.map(leaderJson) : [],
        };
      },
    }),
    defineMethod({
      name: 'svc_getAttestations',
      summary: 'Attestation blocks at a height: the votes of the validators other than the proposer, from the block\'s finality certificate (spec §4.17).',
      description: 'The finality votes of a block, as attestation blocks (spec §4.17); empty when the proposer alone decided it. Errors: NOT_FOUND'
        + ' when no block has that height.',
      params: [{ name: 'height', schema: Height() }] as const,
      result: {
        name: 'attestations', schema: Type.Array(AttestationSchema),
        description: 'attestation blocks at the height: `[{hash, height, parent, state_root, validator, validator_address, signature, vote_type, epoch,'
          + ' bundle_count: 0}]`, the votes of the validators other than the proposer from the block\'s finality certificate; `-32003` above'
          + ' the head',
      },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: async ([height]) => {
        const header = (await blockAt(height)).header;
        return attestations(header, await c.certificate(height), c.atHead().set);
      },
    }),
    defineMethod({
      name: 'svc_getBlockDAG',
      summary: 'The canonical block at a height plus its attestation blocks (spec §4.17; facts.md "Other shapes seen").',
      description: 'The canonical block at a height and its attestation blocks, in the shape of facts.md "Other shapes seen" (spec §4.17). Errors:'
        + ' NOT_FOUND when no block has that height.',
      params: [{ name: 'height', schema: Height() }] as const,
      result: {
        description: '`{height, canonical {hash, timestamp, proposer, parentBlocks, stateRoot, bundleCount, round, missed}, attestations[],'
          + ' attestationCount}`; `-32003` above the head',
        name: 'dag',
        schema: Type.Object({
          height: Type.Integer(),
          canonical: Type.Object({
            hash: Type.String(), timestamp: Type.Integer(), proposer: Type.String(), parentBlocks: Type.Array(Type.String()),
            stateRoot: Type.String(), bundleCount: Type.Integer(), round: Type.Integer(), missed: Type.Array(Type.String()),
          }),
          attestations: Type.Array(AttestationSchema),
          attestationCount: Type.Integer(),
        }),
      },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: async ([height]) => {
        const header = (await blockAt(height)).header;
        const list = attestations(header, await c.certificate(height), c.atHead().set);
        return {
          height,
          canonical: {
            hash: encodeHash(header.hash), timestamp: header.timestamp, proposer: encodeAccount(header.proposer),
            parentBlocks: height === 0 ? [] : [encodeHash(header.parentHash)], stateRoot: encodeHash(header.stateRoot),
            bundleCount: header.bundleCount, round: header.round, missed: header.missed.map(hex),
          },
          attestations: list,
          attestationCount: list.length,
        };
      },
    }),
  ];
}
