import { encodeAccount, deriveAccount } from '../../codec/address.js';
import {
  UPGRADE_CONFIG_KEY, UPGRADE_STATE_KEY, decodeUpgradeConfigFields, decodeUpgradePlanFields, decodeUpgradeStateFields,
  encodeUpgradeConfigFields, upgradePlanKey, upgradeVoteKey,
} from '../../abi/state.js';
import { UPGRADE_DEFAULT_QUORUM, UPGRADE_DEFAULT_VOTING_PERIOD, UPGRADE_MAX_VOTING_PERIOD, UPGRADE_NAME_MAX } from '../../abi/constants.js';
import type { StateReader } from '../../chain/state-reader.js';

export type { StateReader };

/**
 * Upgrade governance on the host side (spec §3 "Node upgrade", §4.13, §9.4; docs/upgrades.md):
 * the governance configuration a genesis records (0x5C), the plans (0x5D), votes (0x5E) and the
 * upgrade state (0x5F) the core writes, read with the generated decoders; and the rule the chain
 * applies before executing a block: a binary that does not implement an approved plan does not
 * execute the block at its height (`upgradeHaltAt`).
 */


export const GOVERNANCE_MODES = ['seed-authority', 'full'] as const;
export type GovernanceMode = (typeof GOVERNANCE_MODES)[number];

export interface UpgradeGovernance {
  mode: GovernanceMode;
  /** seed-authority: the public key (hex) given by --upgrade-authority, when the genesis named one */
  authorityPublicKey?: string;
  /** its account (SHA256 of the key, spec addresses), all zero for none */
  authority: Uint8Array;
  /** percent of the active stake that approves a plan in full mode */
  quorumPercent: number;
  /** blocks a plan stays open for votes */
  votingPeriod: number;
}

export const DEFAULT_UPGRADE_GOVERNANCE: Readonly<UpgradeGovernance> = Object.freeze({
  mode: 'seed-authority', authority: new Uint8Array(32), quorumPercent: UPGRADE_DEFAULT_QUORUM, votingPeriod: UPGRADE_DEFAULT_VOTING_PERIOD,
});

/** The flags of spec §4.20 that decide governance; absent ones take the defaults. */
export interface GovernanceFlags {
  mode?: GovernanceMode;
  /** 64-hex Ed25519 public key */
  authority?: string;
  quorumPercent?: number;
  votingPeriod?: number;
}

const HEX_KEY = /^(0x)?[0-9a-fA-F]{64}$/;

/** Check the flags' values; throws an Error naming the flag. */
export function governanceFromFlags(f: GovernanceFlags): UpgradeGovernance {
  const mode = f.mode ?? 'seed-authority';
  if (!GOVERNANCE_MODES.includes(mode)) throw new Error(`--governance-mode must be seed-authority or full, not "${String(mode)}"`);
  const quorumPercent = f.quorumPercent ?? UPGRADE_DEFAULT_QUORUM;
  if (!Number.isInteger(quorumPercent) || quorumPercent < 1 || quorumPercent > 100) throw new Error(`--upgrade-quorum must be an integer percent from 1 to 100, not ${quorumPercent}`);
  const votingPeriod = f.votingPeriod ?? UPGRADE_DEFAULT_VOTING_PERIOD;
  if (!Number.isInteger(votingPeriod) || votingPeriod < 1 || votingPeriod > UPGRADE_MAX_VOTING_PERIOD) {
    throw new Error(`--voting-period must be an integer number of blocks from 1 to ${UPGRADE_MAX_VOTING_PERIOD}, not ${votingPeriod}`);
  }
  let authority: Uint8Array = new Uint8Array(32);
  let authorityPublicKey: string | undefined;
  if (f.authority !== undefined) {
    if (!HEX_KEY.test(f.authority)) throw new Error(`--upgrade-authority must be a 64-hex-char Ed25519 public key, not "${f.authority}"`);
    if (mode !== 'seed-authority') throw new Error('--upgrade-authority applies to --governance-mode seed-authority only');
    authorityPublicKey = f.authority.replace(/^0x/i, '').toLowerCase();
    authority = deriveAccount(new Uint8Array(Buffer.from(authorityPublicKey, 'hex')));
  }
  return { mode, authority, quorumPercent, votingPeriod, ...(authorityPublicKey ? { authorityPublicKey } : {}) };
}

export function isDefaultGovernance(g: UpgradeGovernance): boolean {
  const d = DEFAULT_UPGRADE_GOVERNANCE;
  return g.mode === d.mode && g.quorumPercent === d.quorumPercent && g.votingPeriod === d.votingPeriod && g.authority.every((b) => b === 0);
}

/** The UpgradeConfig record (abi/state.mjs), the genesis trailer. */
export function encodeUpgradeConfig(g: UpgradeGovernance): Uint8Array {
  return encodeUpgradeConfigFields({
    version: 1, mode: g.mode === 'full' ? 1 : 0, quorumPct: g.quorumPercent, votingPeriod: BigInt(g.votingPeriod), authority: g.authority,
  });
}

/** The chain's recorded governance (absent record: the defaults). */
export function readGovernance(state: StateReader): UpgradeGovernance {
  const v = state.get(UPGRADE_CONFIG_KEY);
  if (!v) return { ...DEFAULT_UPGRADE_GOVERNANCE, authority: new Uint8Array(32) };
  const r = decodeUpgradeConfigFields(v);
  return { mode: r.mode === 1 ? 'full' : 'seed-authority', authority: r.authority, quorumPercent: r.quorumPct, votingPeriod: Number(r.votingPeriod) };
}

/**
 * The governance flags given at a restart must agree with what the chain's genesis recorded:
 * a node must not believe in another approval rule than its peers (docs/upgrades.md "Why flags
 * set the genesis"). Only flags actually given are compared. Returns the disagreements.
 */
export function governanceConflicts(recorded: UpgradeGovernance, f: GovernanceFlags): string[] {
  const out: string[] = [];
  if (f.mode !== undefined && f.mode !== recorded.mode) out.push(`--governance-mode ${f.mode} (the chain records ${recorded.mode})`);
  if (f.quorumPercent !== undefined && f.quorumPercent !== recorded.quorumPercent) out.push(`--upgrade-quorum ${f.quorumPercent} (the chain records ${recorded.quorumPercent})`);
  if (f.votingPeriod !== undefined && f.votingPeriod !== recorded.votingPeriod) out.push(`--voting-period ${f.votingPeriod} (the chain records ${recorded.votingPeriod})`);
  if (f.authority !== undefined) {
    const account = deriveAccount(new Uint8Array(Buffer.from(f.authority.replace(/^0x/i, ''), 'hex')));
    if (Buffer.compare(account, recorded.authority) !== 0) {
      out.push(`--upgrade-authority ${f.authority} (the chain records ${recorded.authority.every((b) => b === 0) ? 'none' : encodeAccount(recorded.authority)})`);
    }
  }
  return out;
}

export const PLAN_STATES = ['pending', 'approved', 'rejected', 'cancelled', 'expired', 'applied'] as const;
export type PlanState = (typeof PLAN_STATES)[number];

export interface UpgradePlan {
  name: string;
  state: PlanState;
  proposer: Uint8Array;
  height: number;
  createdHeight: number;
  deadline: number;
  decidedHeight: number;
  /** SHA-256 of the packed release */
  checksum: Uint8Array;
  yes: bigint;
  no: bigint;
  binaryUrl: string;
  infoUrl: string;
}

const NAME = new RegExp(`^[A-Za-z0-9._-]{1,${UPGRADE_NAME_MAX}}$`);

/** The core's name rule (assembly/domains/upgrades/ops.ts validName), so RPC refuses a bad name first. */
export function validUpgradeName(name: string): boolean {
  return NAME.test(name) && name !== '.' && name !== '..';
}

export function readPlan(state: StateReader, name: string): UpgradePlan | undefined {
  if (!validUpgradeName(name)) return undefined;
  const v = state.get(upgradePlanKey(name));
  if (!v) return undefined;
  const r = decodeUpgradePlanFields(v);
  return {
    name, state: PLAN_STATES[r.state] ?? 'pending', proposer: r.proposer, height: Number(r.height), createdHeight: Number(r.createdHeight),
    deadline: Number(r.deadline), decidedHeight: Number(r.decidedHeight), checksum: r.checksum, yes: r.yes, no: r.no,
    binaryUrl: r.binaryUrl, infoUrl: r.infoUrl,
  };
}

export interface UpgradeStatus {
  /** the pending or approved plan's name */
  active?: string;
  /** the last applied plan and the height it took effect at */
  applied?: { name: string; height: number };
}

export function readUpgradeStatus(state: StateReader): UpgradeStatus {
  const v = state.get(UPGRADE_STATE_KEY);
  if (!v) return {};
  const r = decodeUpgradeStateFields(v);
  return {
    ...(r.active ? { active: r.active } : {}),
    ...(r.applied ? { applied: { name: r.applied, height: Number(r.appliedHeight) } } : {}),
  };
}

/** The pending or approved plan, if any. */
export function activePlan(state: StateReader): UpgradePlan | undefined {
  const { active } = readUpgradeStatus(state);
  return active ? readPlan(state, active) : undefined;
}

/** A voter's recorded vote on a plan: true approve, false reject, undefined none. */
export function readUpgradeVote(state: StateReader, voter: Uint8Array, name: string): boolean | undefined {
  const v = state.get(upgradeVoteKey(voter, name));
  return v ? v[0] === 1 : undefined;
}

/**
 * The approved plan this binary must not execute the block at `height` for: approved, due at that
 * height, and not one of the plans this release implements (`implements`, src/version.ts).
 */
export function upgradeHaltAt(state: StateReader, height: number, implementsPlan: (name: string) => boolean): UpgradePlan | undefined {
  // A chain already past an upgrade this release does not know (an older binary restarted on a
  // data dir the new release wrote, e.g. by a supervisor's rollback): no block at all.
  const { applied } = readUpgradeStatus(state);
  if (applied && !implementsPlan(applied.name)) return readPlan(state, applied.name);
  const plan = activePlan(state);
  if (!plan || plan.state !== 'approved' || plan.height > height) return undefined;
  return implementsPlan(plan.name) ? undefined : plan;
}

/** The upgrade-info.json the node writes at the halt (spec §3; facts.md "Upgrade supervisor"). */
export interface UpgradeInfo {
  name: string;
  height: number;
  binary: string;
  /** hex SHA-256 of the packed release */
  checksum: string;
  info: string;
}

export function upgradeInfoOf(plan: UpgradePlan): UpgradeInfo {
  return { name: plan.name, height: plan.height, binary: plan.binaryUrl, checksum: Buffer.from(plan.checksum).toString('hex'), info: plan.infoUrl };
}

/** The error the chain throws instead of executing the block at an approved plan's height. */
export class UpgradeRequiredError extends Error {
  constructor(readonly plan: UpgradePlan, readonly runningVersion: string) {
    super(
      `upgrade "${plan.name}" was approved for height ${plan.height}: this binary (ntv-node ${runningVersion}) does not implement it and ` +
      `will not execute block ${plan.height} or any later one; install the release (${plan.binaryUrl || 'see ' + (plan.infoUrl || 'the plan')}) ` +
      'and restart with it, or run the node under `ntv-node supervise`',
    );
    this.name = 'UpgradeRequiredError';
  }
}
