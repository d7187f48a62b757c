import { blake3 } from '../codec/hash.js';

/**
 * The fields of a validator record (src/chain/validator-set.ts `ValidatorInfo`) that
 * leader selection and finality read. `ValidatorInfo` is assignable to it.
 */
export interface ConsensusValidator {
  /** 32-byte Ed25519 key that signs blocks and votes (the key in force at the height, spec §3) */
  consensusKey: Uint8Array;
  /** the staking account, credited as the block's proposer */
  address: Uint8Array;
  /** self + delegated stake, raw NTV */
  stake: bigint;
  /** 5000..10000 (performance_score 0.5..1.0, spec §2.4) */
  performanceBps: number;
  jailed: boolean;
  missedInRow: number;
  /** in the active set of at most 100 */
  active: boolean;
}

/** Spec §1.8: validators with 3+ consecutive misses are skipped in rotation. */
export const SKIP_AFTER_MISSES = 3;
/** facts.md "Consensus details seen": the seed's domain string. */
const SEED_DOMAIN = new TextEncoder().encode('leader_selection_v1');

/** The slot of a height (facts.md: a leader holds a slot of `slotLength` blocks, 5 by default). */
export function slotOf(height: number, slotLength: number): number {
  return Math.floor(height / slotLength);
}

/**
 * Validators that may lead: active, not jailed, fewer than 3 misses in a row. When that leaves no
 * one (every validator missed three times, e.g. after a network-wide outage), the active non-jailed
 * ones, then every non-jailed one, so the chain can always name a leader. Sorted by key bytes so
 * the draw does not depend on the order the set was read in.
 */
export function eligibleLeaders<V extends ConsensusValidator>(validators: readonly V[]): V[] {
  const tiers = [
    (v: V) => v.active && !v.jailed && v.missedInRow < SKIP_AFTER_MISSES,
    (v: V) => v.active && !v.jailed,
    (v: V) => !v.jailed,
  ];
  for (const keep of tiers) {
    const chosen = validators.filter((v) => keep(v) && leaderWeight(v) > 0n);
    if (chosen.length > 0) return chosen.sort((a, b) => Buffer.compare(a.consensusKey, b.consensusKey));
  }
  return [];
}

/** Spec §2.4: performance_score weighs leader selection; weight = stake × performanceBps. */
export function leaderWeight(v: ConsensusValidator): bigint {
  return v.stake * BigInt(v.performanceBps);
}

/**
 * The seed of round `round` of a slot. Round 0 is facts.md's Blake3(slot u64 LE ‖ "leader_selection_v1");
 * backups extend it with the round as a u32 LE suffix (docs/consensus.md "Leader schedule").
 */
export function leaderSeed(slot: number, round: number): Uint8Array {
  const out = new Uint8Array(8 + SEED_DOMAIN.length + (round === 0 ? 0 : 4));
  const view = new DataView(out.buffer);
  view.setBigUint64(0, BigInt(slot), true);
  out.set(SEED_DOMAIN, 8);
  if (round > 0) view.setUint32(8 + SEED_DOMAIN.length, round, true);
  return blake3(out);
}

/** A stake-weighted draw: the seed as a 256-bit little-endian integer modulo the total weight. */
function draw<V extends ConsensusValidator>(candidates: readonly V[], seed: Uint8Array): V {
  let total = 0n;
  for (const v of candidates) total += leaderWeight(v);
  let x = 0n;
  for (let i = seed.length - 1; i >= 0; i--) x = (x << 8n) | BigInt(seed[i]!);
  let point = x % total;
  for (const v of candidates) {
    const w = leaderWeight(v);
    if (point < w) return v;
    point -= w;
  }
  return candidates.at(-1)!;
}

/**
 * The proposers of rounds 0..rounds−1 of a slot: round 0 is the slot leader, round n ≥ 1 is backup
 * n, drawn by stake weight from the eligible validators not yet drawn (a weighted permutation).
 * Past the last eligible validator the order repeats, so every round has a leader.
 */
export function leaderSchedule<V extends ConsensusValidator>(validators: readonly V[], slot: number, rounds: number): V[] {
  const eligible = eligibleLeaders(validators);
  if (eligible.length === 0) return [];
  const order: V[] = [];
  let remaining = eligible;
  for (let round = 0; round < Math.min(rounds, eligible.length); round++) {
    const pick = draw(remaining, leaderSeed(slot, round));
    order.push(pick);
    remaining = remaining.filter((v) => v !== pick);
  }
  for (let round = order.length; round < rounds; round++) order.push(order[round % eligible.length]!);
  return order;
}

/** The proposer of (height, round) and the leaders it skipped, from the validator set at the parent. */
export function leaderOf<V extends ConsensusValidator>(
  validators: readonly V[], height: number, round: number, slotLength: number,
): { leader: V; missed: V[] } | undefined {
  const schedule = leaderSchedule(validators, slotOf(height, slotLength), round + 1);
  if (schedule.length === 0) return undefined;
  const leader = schedule[round]!;
  // Once the order wraps, a leader can come round again: each skipped leader is named once, and
  // never the proposer itself (it did not miss this height).
  const missed = [...new Set(schedule.slice(0, round))].filter((v) => v !== leader);
  return { leader, missed };
}
