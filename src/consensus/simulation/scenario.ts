import { Prng } from './prng.js';

/**
 * One simulated scenario, drawn from a seed (docs/consensus.md "Simulator"): the validators and
 * their stakes, who is Byzantine and how (Twins: two instances of one key, each seeing part of the
 * network; withholders: a key that never votes), the links, partitions that form and heal, crashes
 * with restarts from the persisted signing state, and clock skew.
 */

export interface Link {
  /** one-way delay: base + uniform jitter, ms */
  baseMs: number;
  jitterMs: number;
  /** probability a message is lost (before the last heal only) */
  loss: number;
  /** probability a message is delivered twice */
  dup: number;
}

export interface Partition {
  at: number;
  heal: number;
  /** instance ids in each group; instances of different groups do not hear each other */
  groups: string[][];
}

export interface Crash {
  instance: string;
  at: number;
  restartAt: number;
}

export interface Scenario {
  seed: number;
  validators: Array<{ key: string; stake: bigint }>;
  /** Byzantine keys run as two instances ('<key>a', '<key>b'), each hearing only its side */
  twins: Array<{ key: string; sideA: string[]; sideB: string[] }>;
  /** Byzantine keys that run but never send a vote */
  withholders: string[];
  link: Link;
  partitions: Partition[];
  crashes: Crash[];
  /** timer rate of each instance in parts per 1,000 (1,000 = true time) */
  skew: Map<string, number>;
  /** how long round 0's leader waits before it builds its block (the chain's block interval), ms */
  blockIntervalMs: number;
  /** round 0's propose wait beyond the block interval (the failover timeout) and the failover step, ms */
  firstProposeMs: number;
  stepMs: number;
  /** the last heal or restart: from here the network is synchronous and every honest node runs */
  healAt: number;
  /** heights every honest node must finalize after the heal */
  heightsAfterHeal: number;
  /** stakes change every this many heights (a new validator-set draw, Byzantine share kept < 1/3) */
  epochLength: number;
}

/** Every instance id of a scenario (twins twice). */
export function instancesOf(s: Scenario): string[] {
  const twin = new Set(s.twins.map((t) => t.key));
  const out: string[] = [];
  for (const v of s.validators) {
    if (twin.has(v.key)) out.push(`${v.key}a`, `${v.key}b`);
    else out.push(v.key);
  }
  return out;
}

export function keyOf(instance: string, s: Scenario): string {
  return s.twins.some((t) => `${t.key}a` === instance || `${t.key}b` === instance) ? instance.slice(0, -1) : instance;
}

/**
 * Draw a scenario for `validators` validators from `seed`. `hostile` draws the worst family for a
 * lock rule: equal stakes, as many twins as fit, and many short partitions (the test that breaks a
 * rule on purpose uses it; docs/consensus.md "Simulator").
 */
export function drawScenario(seed: number, validators: number, hostile = false): Scenario {
  const rng = new Prng(seed);
  const keys = Array.from({ length: validators }, (_, i) => `v${i}`);
  const stakes = keys.map(() => (hostile ? 10n : BigInt(rng.range(1, 100))));
  const total = stakes.reduce((a, b) => a + b, 0n);
  // Byzantine keys, as many as fit under 1/3 of the stake (sometimes none).
  const byzantine: string[] = [];
  let byzStake = 0n;
  const budget = hostile ? 2 : rng.int(3); // 0: none, 1: a few, 2: as many as fit
  if (budget > 0) {
    for (const i of rng.shuffle(keys.map((_, i) => i))) {
      if ((byzStake + stakes[i]!) * 3n >= total) continue;
      byzantine.push(keys[i]!);
      byzStake += stakes[i]!;
      if (budget === 1 && byzantine.length >= Math.max(1, Math.floor(validators / 8))) break;
    }
  }
  const twins: Scenario['twins'] = [];
  const withholders: string[] = [];
  for (const key of byzantine) {
    if (hostile || rng.chance(0.75)) twins.push({ key, sideA: [], sideB: [] });
    else withholders.push(key);
  }
  const scenario: Scenario = {
    seed,
    validators: keys.map((key, i) => ({ key, stake: stakes[i]! })),
    twins,
    withholders,
    link: { baseMs: rng.range(1, 40), jitterMs: rng.range(0, 120), loss: rng.chance(0.5) ? rng.range(0, 30) / 100 : 0, dup: rng.range(0, 5) / 100 },
    partitions: [],
    crashes: [],
    skew: new Map(),
    blockIntervalMs: rng.pick([0, 100, 500]),
    firstProposeMs: rng.pick([300, 600, 1000, 2000]),
    stepMs: rng.pick([100, 200, 300, 500]),
    healAt: 0,
    heightsAfterHeal: validators >= 50 ? 2 : 3,
    epochLength: rng.range(2, 6),
  };
  const instances = instancesOf(scenario);
  const others = (twinKey: string) => instances.filter((i) => keyOf(i, scenario) !== twinKey);
  for (const t of twins) {
    // Twins (DiemBFT): each copy of the key hears a part of the network, so both parts see a
    // different proposal and different votes from the one key.
    for (const i of others(t.key)) (rng.chance(0.5) ? t.sideA : t.sideB).push(i);
  }
  let healAt = 0;
  const partitions = hostile ? rng.range(8, 16) : rng.int(4);
  let t = rng.range(0, hostile ? 300 : 2000);
  for (let p = 0; p < partitions; p++) {
    const groupCount = rng.range(2, 3);
    const groups: string[][] = Array.from({ length: groupCount }, () => []);
    for (const i of instances) groups[rng.int(groupCount)]!.push(i);
    const at = t;
    const heal = at + (hostile ? rng.range(50, 800) : rng.range(200, 6000));
    scenario.partitions.push({ at, heal, groups });
    healAt = Math.max(healAt, heal);
    t = heal + (hostile ? rng.range(0, 300) : rng.range(0, 1500));
  }
  const honest = instances.filter((i) => !byzantine.includes(keyOf(i, scenario)));
  const crashes = hostile ? 0 : rng.int(4);
  for (let c = 0; c < crashes; c++) {
    const at = rng.range(0, 8000);
    const restartAt = at + rng.range(50, 4000);
    scenario.crashes.push({ instance: rng.pick(honest), at, restartAt });
    healAt = Math.max(healAt, restartAt);
  }
  for (const i of instances) if (rng.chance(0.5)) scenario.skew.set(i, rng.range(800, 1250));
  scenario.healAt = healAt;
  return scenario;
}
