import { Prng } from './prng.js';
import { drawScenario } from './scenario.js';
import { runScenario, type BrokenRule, type Violation } from './world.js';

/**
 * Many scenarios at once, for `npm run sim` (scripts/sim.ts, one call per worker thread) and the
 * suite's slice of it (test/unit/consensus-sim.test.ts). Scenario `i` of a batch starting at seed
 * `S` is seed `S + i`, and its validator count and family (ordinary or hostile) follow from that
 * seed alone, so `--seed X --scenarios 1 --validators N` replays any one of them exactly.
 */

/** The validator counts issue 40 names, with how often the default mix draws each (docs/consensus.md "Simulator"). */
export const MIX: ReadonlyArray<{ validators: number; weight: number }> = [
  { validators: 4, weight: 5000 },
  { validators: 7, weight: 3500 },
  { validators: 16, weight: 1497 },
  { validators: 100, weight: 3 },
];

/** One scenario in this many is drawn from the hostile family (equal stakes, all twins, many short partitions). */
const HOSTILE_EVERY = 10;

export interface BatchOptions {
  /** a fixed validator count; undefined draws from MIX */
  validators?: number;
  broken?: BrokenRule;
  /** every scenario hostile (the broken-rule test); otherwise one in HOSTILE_EVERY */
  hostile?: boolean;
  /** stop at the first violation (the broken-rule test) */
  stopAtViolation?: boolean;
}

export interface CountStats {
  scenarios: number;
  violations: number;
  /** virtual ms from the last heal to every honest node holding the asked heights, one per live scenario */
  resumeMs: number[];
  /** the highest round a height after the heal was decided in, one per live scenario */
  rounds: number[];
}

export interface BatchResult {
  byValidators: Record<number, CountStats>;
  violations: Array<Violation & { validators: number; hostile: boolean }>;
  scenarios: number;
}

/** The validator count and family of scenario `seed` (deterministic). */
export function shapeOf(seed: number, options: BatchOptions): { validators: number; hostile: boolean } {
  const rng = new Prng(seed ^ 0x51a7e);
  const hostile = options.hostile ?? rng.int(HOSTILE_EVERY) === 0;
  if (options.validators !== undefined) return { validators: options.validators, hostile };
  const total = MIX.reduce((a, m) => a + m.weight, 0);
  let point = rng.int(total);
  for (const m of MIX) {
    if (point < m.weight) return { validators: m.validators, hostile };
    point -= m.weight;
  }
  return { validators: MIX[0]!.validators, hostile };
}

/** Run the scenarios `seeds` (an arithmetic sequence: first, count, stride) and gather their figures. */
export function runBatch(first: number, count: number, stride: number, options: BatchOptions, progress?: (done: number, violations: number) => void, onViolation?: (v: BatchResult['violations'][number]) => void): BatchResult {
  const out: BatchResult = { byValidators: {}, violations: [], scenarios: 0 };
  for (let i = 0; i < count; i++) {
    const seed = first + i * stride;
    const shape = shapeOf(seed, options);
    const result = runScenario(drawScenario(seed, shape.validators, shape.hostile), options.broken);
    const stats = (out.byValidators[shape.validators] ??= { scenarios: 0, violations: 0, resumeMs: [], rounds: [] });
    stats.scenarios++;
    out.scenarios++;
    if (result.violations.length > 0) {
      stats.violations++;
      for (const v of result.violations) {
        const found = { ...v, validators: shape.validators, hostile: shape.hostile };
        out.violations.push(found);
        onViolation?.(found);
      }
      if (options.stopAtViolation) break;
    } else if (result.resumeMs !== undefined) {
      stats.resumeMs.push(result.resumeMs);
      stats.rounds.push(result.roundsAfterHeal);
    }
    if (progress && (i + 1) % 500 === 0) progress(i + 1, out.violations.length);
  }
  return out;
}

/** Merge worker results. */
export function mergeBatches(parts: readonly BatchResult[]): BatchResult {
  const out: BatchResult = { byValidators: {}, violations: [], scenarios: 0 };
  for (const part of parts) {
    out.scenarios += part.scenarios;
    out.violations.push(...part.violations);
    for (const [n, s] of Object.entries(part.byValidators)) {
      const into = (out.byValidators[Number(n)] ??= { scenarios: 0, violations: 0, resumeMs: [], rounds: [] });
      into.scenarios += s.scenarios;
      into.violations += s.violations;
      for (const x of s.resumeMs) into.resumeMs.push(x);
      for (const x of s.rounds) into.rounds.push(x);
    }
  }
  return out;
}

/** p50, p99 and max of a list (nearest rank). */
export function percentiles(values: readonly number[]): { p50: number; p99: number; max: number } | undefined {
  if (values.length === 0) return undefined;
  const sorted = Float64Array.from(values).sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return { p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1]! };
}
