import { Type } from '@sinclair/typebox';
import { encodeAccount } from '../../codec/address.js';
import {
  activePlan, readGovernance, readPlan, readUpgradeStatus, validUpgradeName, type UpgradePlan,
} from './reader.js';
import { UPGRADE_GRACE_BLOCKS, UPGRADE_NAME_MAX, UPGRADE_URL_MAX } from '../../abi/constants.js';
import { IMPLEMENTED_UPGRADES, NODE_VERSION } from '../../version.js';
import { APP_ERRORS, RpcError } from '../../rpc/errors.js';
import { defineMethod, type MethodDefinition } from '../../rpc/registry.js';
import { HexBytes, parsed } from '../../rpc/schemas.js';
import type { MethodDependencies } from '../../rpc/methods/context.js';
import { AccountParam } from '../../rpc/methods/params.js';
import { ReceiptSchema } from '../../rpc/methods/result-schemas.js';

/**
 * Spec §4.13 upgrade governance (docs/upgrades.md). ScheduleUpgrade, CancelUpgrade and VoteUpgrade
 * are operations 15–17 (the core decides who may act and when); svc_scheduleUpgrade,
 * svc_cancelUpgrade and svc_voteUpgrade are their unsigned convenience forms (testnet only; on
 * mainnet the same operations arrive signed through svc_submitBundle). svc_getUpgradePlan reads the
 * plans, the applied upgrade and this node's version from committed state.
 */

const nameString = () => Type.String({
  minLength: 1, maxLength: UPGRADE_NAME_MAX,
  description: `the plan's name: 1–${UPGRADE_NAME_MAX} of A-Z a-z 0-9 . _ - (by convention the release version, e.g. v0.2.0)`,
});
const UrlParam = (what: string) => parsed(Type.String({ maxLength: UPGRADE_URL_MAX, description: `${what}, at most ${UPGRADE_URL_MAX} bytes; may be empty` }), urlParam);

const PlanSchema = Type.Object({
  name: Type.String(),
  state: Type.Union(['pending', 'approved', 'rejected', 'cancelled', 'expired', 'applied'].map((s) => Type.Literal(s)), {
    description: 'pending (open for votes) → approved → applied at its height; or rejected, cancelled, expired',
  }),
  height: Type.Integer({ description: 'the first block the new release executes' }),
  proposer: Type.String({ description: 'Nx0… account that scheduled it' }),
  created_height: Type.Integer(),
  voting_deadline: Type.Integer({ description: 'the last block in which a vote counts' }),
  decided_height: Type.Union([Type.Integer(), Type.Null()], { description: 'the block it left pending in (null while pending)' }),
  binary_url: Type.String(),
  checksum: Type.String({ description: 'SHA-256 of the packed release, 64 hex digits' }),
  info_url: Type.String(),
  yes_stake: Type.String({ description: 'full mode: approving active stake at the last tally (raw NTV); seed-authority: "1" once the authority approved' }),
  no_stake: Type.String({ description: 'full mode: rejecting active stake at the last tally (raw NTV)' }),
}, { title: 'UpgradePlan' });

const UpgradeOverviewSchema = Type.Object({
  plan: Type.Union([PlanSchema, Type.Null()], { description: 'the named plan, or without a name the pending or approved plan (null: none)' }),
  applied: Type.Union([Type.Object({ name: Type.String(), height: Type.Integer() }), Type.Null()], {
    description: 'the last applied upgrade: the version the chain runs since that height (null: none yet)',
  }),
  grace_until: Type.Union([Type.Integer(), Type.Null()], {
    description: `the last block of the ${UPGRADE_GRACE_BLOCKS}-block grace after the applied upgrade, in which skipped leaders are not counted as missed (null: none)`,
  }),
  node_version: Type.String({ description: "this node's release" }),
  implements: Type.Array(Type.String(), { description: 'the plans this release implements (it stops before the height of any other approved plan)' }),
  governance: Type.Object({
    mode: Type.Union([Type.Literal('seed-authority'), Type.Literal('full')]),
    authority: Type.Union([Type.String(), Type.Null()], { description: 'seed-authority: the Nx0… account that approves (null: only the governance account 0x00…09)' }),
    quorum_percent: Type.Integer(),
    voting_period: Type.Integer({ description: 'blocks' }),
  }, { description: "the governance the chain's genesis recorded (the --governance-mode, --upgrade-authority, --upgrade-quorum, --voting-period flags)" }),
}, { title: 'UpgradeOverview' });

function planJson(p: UpgradePlan) {
  return {
    name: p.name, state: p.state, height: p.height, proposer: encodeAccount(p.proposer), created_height: p.createdHeight,
    voting_deadline: p.deadline, decided_height: p.state === 'pending' ? null : p.decidedHeight, binary_url: p.binaryUrl,
    checksum: Buffer.from(p.checksum).toString('hex'), info_url: p.infoUrl, yes_stake: p.yes.toString(), no_stake: p.no.toString(),
  };
}

function nameParam(name: string, param: string, position: number): string {
  if (!validUpgradeName(name)) throw RpcError.invalidParam(param, position, `1–${UPGRADE_NAME_MAX} characters of A-Z a-z 0-9 . _ - (not "." or "..")`);
  return name;
}

function urlParam(value: string, param: string, position: number): string {
  if (Buffer.byteLength(value) > UPGRADE_URL_MAX) throw RpcError.invalidParam(param, position, `at most ${UPGRADE_URL_MAX} bytes`);
  return value;
}
/** Params parsed once (issue 44 item 4): the registry checks each at its own position. */
const NameParam = () => parsed(nameString(), nameParam);
/** A release's SHA-256 as its 32 bytes, not all zero. */
const Checksum = () => parsed(HexBytes({ maxBytes: 32, description: 'SHA-256 of the packed release: 64 hex digits, 0x optional' }), (checksum, param, position) => {
  const sum = new Uint8Array(Buffer.from(checksum.replace(/^0x/i, ''), 'hex'));
  if (sum.length !== 32) throw RpcError.invalidParam(param, position, 'a SHA-256: 64 hex digits, 0x optional');
  if (sum.every((b) => b === 0)) throw RpcError.invalidParam(param, position, 'the SHA-256 of the release, not 32 zero bytes');
  return sum;
});

export function upgradeMethods({ chain }: MethodDependencies): MethodDefinition[] {
  const writeErrors = [APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.BUNDLE_FAILED.code];
  const notFound = (name: string) => RpcError.app('NOT_FOUND', `no upgrade plan named "${name}"`, { name });
  // The core refuses a past height too (UPGRADE_HEIGHT_PASSED); saying it here changes no state.
  const Height = () => parsed(Type.Integer({ minimum: 1, description: 'the first block the new release executes: above the current height' }), (height, param, position) => {
    if (height <= chain.height + 1) throw RpcError.invalidParam(param, position, `above the next block's height ${chain.height + 1} (the chain is at ${chain.height})`);
    return height;
  });
  return [
    defineMethod({
      name: 'svc_scheduleUpgrade',
      summary: 'Schedule a node upgrade: the release `name` executes the chain from `height` once the plan is approved (spec §4.13; unsigned convenience, testnet only).',
      description: 'In seed-authority mode the plan is approved at once when the sender is the upgrade authority, else it waits for the authority\'s vote; '
        + 'in full mode the sender must be an active validator and the plan waits for the validators\' stake-weighted votes. One plan is pending or approved at a time; names are never reused.'
        + ' Spec §4.13, docs/upgrades.md. Errors: invalid params for a bad name, a height not above the next block, a checksum that is not'
        + ' 32 non-zero bytes, a URL over 512 bytes; UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED (UPGRADE_PLAN_ACTIVE,'
        + ' UPGRADE_NAME_TAKEN, NOT_UPGRADE_VOTER in full mode).',
      params: [
        { name: 'name', schema: NameParam() },
        { name: 'height', schema: Height() },
        { name: 'binary_url', schema: UrlParam('where the packed release can be fetched (http(s):// or file://)') },
        { name: 'checksum', schema: Checksum() },
        { name: 'info_url', schema: UrlParam('release notes') },
        { name: 'sender', schema: AccountParam({ description: 'the proposing account' }) },
      ] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt. A plan for the release `name` from block `height` ([upgrades.md](upgrades.md)); `-32602` for a bad name, a height not'
          + ' above the next block, a checksum that is not 32 non-zero bytes (64 hex), a URL over 512 bytes; `-32002` with the core\'s status'
          + ' (`UPGRADE_PLAN_ACTIVE`, `UPGRADE_NAME_TAKEN`, `NOT_UPGRADE_VOTER`). Unsigned convenience, **testnet only**; elsewhere a signed'
          + ' `ScheduleUpgrade` bundle',
      },
      errors: writeErrors,
      handler: async ([name, height, binaryUrl, checksum, infoUrl, from]) =>
        chain.submitOperations(from, [{ type: 'ScheduleUpgrade', name, height: BigInt(height), binaryUrl, checksum, infoUrl }]),
    }),
    defineMethod({
      name: 'svc_voteUpgrade',
      summary: 'Vote on a pending upgrade plan (spec §4.13; unsigned convenience, testnet only).',
      description: 'seed-authority mode: only the upgrade authority votes, and its vote decides. full mode: active validators vote once each, weighted by their bonded stake; '
        + 'the plan is approved when the approving stake reaches the quorum of the active stake and rejected once it no longer can.'
        + ' Spec §4.13, docs/upgrades.md. Errors: NOT_FOUND for an unknown plan; UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED'
        + ' (NOT_UPGRADE_VOTER, ALREADY_VOTED_UPGRADE, UPGRADE_NOT_PENDING, UPGRADE_VOTING_CLOSED, UPGRADE_HEIGHT_PASSED).',
      params: [
        { name: 'name', schema: NameParam() },
        { name: 'approve', schema: Type.Boolean({ description: 'true to approve, false to reject' }) },
        { name: 'sender', schema: AccountParam({ description: 'the voting account' }) },
      ] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt; `-32003` for an unknown plan; `-32002` (`NOT_UPGRADE_VOTER`, `ALREADY_VOTED_UPGRADE`, `UPGRADE_NOT_PENDING`,'
          + ' `UPGRADE_VOTING_CLOSED`, `UPGRADE_HEIGHT_PASSED`). Testnet only; elsewhere a signed `VoteUpgrade`',
      },
      errors: [...writeErrors, APP_ERRORS.NOT_FOUND.code],
      handler: async ([name, approve, from]) => {
        if (!readPlan(chain.state, name)) throw notFound(name);
        return chain.submitOperations(from, [{ type: 'VoteUpgrade', name, approve }]);
      },
    }),
    defineMethod({
      name: 'svc_cancelUpgrade',
      summary: 'Cancel a pending or approved upgrade plan before its height (spec §4.13; unsigned convenience, testnet only).',
      description: 'The upgrade authority (or the governance account 0x00…09) may cancel a pending or approved plan; its proposer only while it is pending.'
        + ' Spec §4.13, docs/upgrades.md. Errors: NOT_FOUND for an unknown plan; UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED'
        + ' (NOT_UPGRADE_AUTHORITY, UPGRADE_NOT_ACTIVE, UPGRADE_HEIGHT_PASSED).',
      params: [
        { name: 'name', schema: NameParam() },
        { name: 'sender', schema: AccountParam({ description: 'the cancelling account' }) },
      ] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt; `-32003` for an unknown plan; `-32002` (`NOT_UPGRADE_AUTHORITY`, `UPGRADE_NOT_ACTIVE`, `UPGRADE_HEIGHT_PASSED`). Testnet'
          + ' only; elsewhere a signed `CancelUpgrade`',
      },
      errors: [...writeErrors, APP_ERRORS.NOT_FOUND.code],
      handler: async ([name, from]) => {
        if (!readPlan(chain.state, name)) throw notFound(name);
        return chain.submitOperations(from, [{ type: 'CancelUpgrade', name }]);
      },
    }),
    defineMethod({
      name: 'svc_getUpgradePlan',
      summary: 'The pending or approved upgrade plan (or the named one), the applied upgrade, the governance configuration and this node\'s version (spec §4.13, §9.4).',
      description: 'Spec §4.13, §9.4: `applied` is the version the chain runs since its height, `node_version` the release this node runs. Errors:'
        + ' NOT_FOUND for an unknown plan name.',
      params: [{ name: 'name', schema: NameParam(), required: false }] as const,
      result: {
        name: 'overview', schema: UpgradeOverviewSchema,
        description: '`{plan (the named one, else the pending or approved one, or null), applied {name, height} | null, grace_until, node_version,'
          + ' implements, governance {mode, authority, quorum_percent, voting_period}}`; `-32003` for an unknown name',
      },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: ([name]) => {
        let plan: UpgradePlan | undefined;
        if (name !== undefined) {
          plan = readPlan(chain.state, name);
          if (!plan) throw notFound(name);
        } else plan = activePlan(chain.state);
        const { applied } = readUpgradeStatus(chain.state);
        const g = readGovernance(chain.state);
        return {
          plan: plan ? planJson(plan) : null,
          applied: applied ?? null,
          grace_until: applied ? applied.height + UPGRADE_GRACE_BLOCKS - 1 : null,
          node_version: NODE_VERSION,
          implements: [...IMPLEMENTED_UPGRADES],
          governance: {
            mode: g.mode, authority: g.authority.every((b) => b === 0) ? null : encodeAccount(g.authority),
            quorum_percent: g.quorumPercent, voting_period: g.votingPeriod,
          },
        };
      },
    }),
  ];
}
