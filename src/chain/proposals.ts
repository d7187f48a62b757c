/**
 * What protocol proposals (src/domains/governance/, spec §4.14) and DAO proposals
 * (src/domains/dao/) share, and the safety levels governance sets that the bridge reads: kept
 * outside both domain folders, since a domain's folder imports no other domain's
 * (docs/architecture.md "Domain modules").
 */

/** A proposal's status, derived from its record and the head (docs/governance.md, docs/dao.md). */
export type ProposalStatus = 'voting' | 'passed' | 'rejected' | 'executed' | 'cancelled';
export const PROPOSAL_STATUSES: readonly ProposalStatus[] = ['voting', 'passed', 'rejected', 'executed', 'cancelled'];

/** The core's rule (assembly/domains/governance/ops.ts passed, which assembly/domains/dao/ops.ts uses too): votes·10⁴ ≥ total·quorum and yes·10⁴ > votes·threshold. */
export function proposalPassed(p: { yes: bigint; no: bigint; totalStake: bigint; quorumBps: number; thresholdBps: number }): boolean {
  const votes = p.yes + p.no;
  return votes > 0n && votes * 10_000n >= p.totalStake * BigInt(p.quorumBps) && p.yes * 10_000n > votes * BigInt(p.thresholdBps);
}

/**
 * A proposal's status as of `height` (the head): its stored state (abi/state.mjs Proposal and
 * DaoProposal: 0 voting, 1 executed, 2 cancelled), and once voting has ended, passed or rejected by
 * its tally under the core's rule.
 */
export function proposalStatus(state: number, endHeight: bigint, height: bigint, tally: Parameters<typeof proposalPassed>[0]): ProposalStatus {
  return state === 1 ? 'executed' : state === 2 ? 'cancelled' : height <= endHeight ? 'voting' : proposalPassed(tally) ? 'passed' : 'rejected';
}

/** A contract's or collection's safety level, set by a governance proposal (docs/governance.md, docs/bridge.md). */
export const SAFETY_LEVELS = ['unreviewed', 'verified', 'caution', 'blocked'] as const;
export type SafetyLevel = (typeof SAFETY_LEVELS)[number];
