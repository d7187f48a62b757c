import { GAS_BASE } from '../abi/constants.js';
import { AmountError, isDecimal, splitDecimal, toBps, toInteger, toRawAmount, U64_MAX } from './amounts.js';
import type { Constraints } from './goals.js';
import type { Word } from './languages.js';
import { IntentParseError } from './parse-error.js';

/**
 * Inline constraints (spec §4.8), taken out of the normalised words before the goal grammar runs,
 * wherever they stand and in any order (docs/intents.md "Constraints"):
 *   [with] N% [of] slippage | [with|max] slippage [of] N%       → slippageBps (exact, 0.01% steps, ≤ 100%)
 *   within N seconds|minutes|hours | deadline [of|in] N [unit]   → deadlineSeconds (unit default seconds)
 *   max fee [of] N [NTV] | fee cap [of] N [NTV]                  → maxFee: N NTV as a human amount → raw (9 decimals)
 *   gas limit [of] N                                             → gasLimit (≥ 5,000, the base gas of a bundle)
 * A joining "and", comma or "with" before a constraint goes with it.
 */

/** NTV has 9 decimals (spec §1.4); fee caps are NTV amounts. */
const NTV_DECIMALS = 9;
/** Bundles cannot need less gas than the 5,000 base (GAS_BASE; docs/core-abi.md "Rules"). */
const MIN_GAS_LIMIT = GAS_BASE;
/** A deadline further than a year out is refused as a typo rather than honoured. */
const MAX_DEADLINE_SECONDS = 365n * 24n * 3600n;

const UNIT_SECONDS: Record<string, bigint> = {
  s: 1n, sec: 1n, secs: 1n, second: 1n, seconds: 1n,
  m: 60n, min: 60n, mins: 60n, minute: 60n, minutes: 60n,
  h: 3600n, hr: 3600n, hrs: 3600n, hour: 3600n, hours: 3600n,
};
const COMPACT_DURATION = /^(\d+)(s|sec|secs|m|min|mins|h|hr|hrs)$/;

export function isPercentSign(w: Word | undefined): boolean {
  return w !== undefined && (w.en === '%' || w.en === 'percent' || w.en === 'pct');
}

const isNumber = (w: Word | undefined): w is Word => w !== undefined && isDecimal(w.raw);

interface Match {
  /** words used, from the scan position */
  length: number;
  apply: (c: Constraints) => void;
  key: keyof Constraints;
}

export function extractConstraints(words: Word[], text: string): { constraints: Constraints; rest: Word[] } {
  const constraints: Constraints = {};
  const rest: Word[] = [];
  for (let i = 0; i < words.length; i++) {
    const m = matchAt(words, i, text);
    if (!m) {
      rest.push(words[i]!);
      continue;
    }
    if (constraints[m.key] !== undefined) throw fail(words, i, i + m.length, text, `${label(m.key)} is given twice`);
    m.apply(constraints);
    // A joining "and", "," or "with" belongs to the constraint, not to the goal.
    const prev = rest.at(-1);
    if (prev && (prev.en === 'and' || prev.en === ',' || prev.en === 'with')) rest.pop();
    i += m.length - 1;
  }
  return { constraints, rest };
}

function matchAt(w: Word[], i: number, text: string): Match | undefined {
  const at = (k: number) => w[i + k];
  const en = (k: number) => w[i + k]?.en;
  // slippage: [with|at|max|maximum] N % [of|from] slippage
  {
    let k = 0;
    if (en(0) === 'with' || en(0) === 'at' || en(0) === 'max' || en(0) === 'maximum') k = 1;
    if (isNumber(at(k)) && isPercentSign(at(k + 1))) {
      let j = k + 2;
      if (en(j) === 'of' || en(j) === 'from') j++;
      if (en(j) === 'slippage') return slippage(w, i, k, j + 1, text);
    }
  }
  // slippage: [with|max|maximum] slippage [of|at|from] N %
  {
    let k = 0;
    if (en(0) === 'with' || en(0) === 'max' || en(0) === 'maximum') k = 1;
    if (en(k) === 'slippage') {
      let j = k + 1;
      if (en(j) === 'of' || en(j) === 'at' || en(j) === 'from') j++;
      if (isNumber(at(j)) && isPercentSign(at(j + 1))) return slippage(w, i, j, j + 2, text);
    }
  }
  if (en(0) === 'within') return duration(w, i, 1, 'within', text);
  if (en(0) === 'deadline') return duration(w, i, en(1) === 'of' || en(1) === 'in' ? 2 : 1, 'deadline', text);
  // fee cap: max|maximum fee [of] N [NTV] | fee cap [of] N [NTV]
  let feeAt = -1;
  if ((en(0) === 'max' || en(0) === 'maximum') && (en(1) === 'fee' || en(1) === 'fees')) feeAt = 2;
  else if (en(0) === 'fee' && en(1) === 'cap') feeAt = 2;
  if (feeAt > 0) {
    if (en(feeAt) === 'of') feeAt++;
    const n = at(feeAt);
    if (!isNumber(n)) throw fail(w, i, i + feeAt + 1, text, 'a fee cap needs an NTV amount, e.g. "max fee 0.01"');
    let length = feeAt + 1;
    const unit = at(feeAt + 1);
    if (unit && /^[a-z][a-z0-9]{1,15}$/i.test(unit.raw) && unit.raw === unit.raw.toUpperCase()) {
      if (unit.en !== 'ntv') throw fail(w, i + feeAt + 1, i + feeAt + 2, text, 'fees are paid in NTV; give the fee cap in NTV');
      length++;
    } else if (unit?.en === 'ntv') {
      length++;
    }
    const raw = feeAmount(n, w, i + feeAt, text);
    return { length, key: 'maxFee', apply: (c) => (c.maxFee = raw) };
  }
  if (en(0) === 'gas' && en(1) === 'limit') {
    const k = en(2) === 'of' ? 3 : 2;
    const n = at(k);
    if (!isNumber(n)) throw fail(w, i, i + k + 1, text, 'a gas limit needs a whole number, e.g. "gas limit 200000"');
    const gas = convert(() => toInteger(n.raw, MIN_GAS_LIMIT, U64_MAX, 'the gas limit'), w, i + k, text);
    return { length: k + 1, key: 'gasLimit', apply: (c) => (c.gasLimit = gas) };
  }
  return undefined;
}

function slippage(w: Word[], i: number, numberAt: number, length: number, text: string): Match {
  const n = w[i + numberAt]!;
  const bps = convert(() => toBps(n.raw), w, i + numberAt, text);
  return { length, key: 'slippageBps', apply: (c) => (c.slippageBps = bps) };
}

function duration(w: Word[], i: number, numberAt: number, what: string, text: string): Match {
  const n = w[i + numberAt];
  let value: string | undefined;
  let unit: bigint | undefined;
  let length = numberAt + 1;
  const compact = n ? COMPACT_DURATION.exec(n.en) : null;
  if (compact) {
    value = compact[1]!;
    unit = UNIT_SECONDS[compact[2]!];
  } else if (isNumber(n)) {
    value = n.raw;
    unit = UNIT_SECONDS[w[i + numberAt + 1]?.en ?? ''];
    if (unit !== undefined) length++;
    else if (what === 'within') throw fail(w, i, i + numberAt + 2, text, '"within" needs a unit: seconds, minutes or hours');
    else unit = 1n;
  }
  if (value === undefined || unit === undefined) {
    throw fail(w, i, i + numberAt + 1, text, `"${what}" needs a time, e.g. "${what === 'within' ? 'within 5 minutes' : 'deadline 300 seconds'}"`);
  }
  const count = value;
  const step = unit;
  const seconds = convert(() => toInteger(count, 1n, MAX_DEADLINE_SECONDS / step, 'the deadline'), w, i + numberAt, text) * step;
  return { length, key: 'deadlineSeconds', apply: (c) => (c.deadlineSeconds = Number(seconds)) };
}

function feeAmount(n: Word, w: Word[], at: number, text: string): bigint {
  return convert(() => {
    const { int, frac } = splitDecimal(n.raw);
    if (/^0*$/.test(int) && /^0*$/.test(frac)) return 0n; // "max fee 0": only free execution
    return toRawAmount(n.raw, NTV_DECIMALS);
  }, w, at, text);
}

function convert<T>(f: () => T, w: Word[], at: number, text: string): T {
  try {
    return f();
  } catch (error) {
    if (error instanceof AmountError) throw fail(w, at, at + 1, text, error.message);
    throw error;
  }
}

function fail(w: Word[], from: number, to: number, text: string, reason: string): IntentParseError {
  const a = w[Math.min(from, w.length - 1)]!;
  const b = w[Math.min(Math.max(to - 1, from), w.length - 1)]!;
  return new IntentParseError(text.slice(a.start, b.end), reason, a.start);
}

function label(key: keyof Constraints): string {
  return { slippageBps: 'slippage', deadlineSeconds: 'a deadline', maxFee: 'a fee cap', gasLimit: 'a gas limit' }[key];
}
