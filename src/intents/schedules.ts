import { encodeAccount, encodeMint } from '../codec/address.js';
import type { CreateScheduleOp, Operation } from '../codec/operations.js';
import { statusOf } from '../chain/status.js';
import type { ScheduleRecord, ScheduleRunRecord } from '../domains/schedules/reader.js';
import type { TokenRef } from './goals.js';
import { PlanError, type Plan } from './planner.js';

/**
 * Recurring and Conditional intents as chain state (docs/schedules.md): the
 * planner compiles the inner goal once, and the CreateSchedule operation (bundle-format disc. 49)
 * carries those operations with the trigger. The core runs them (assembly/domains/schedules/ops.ts); this
 * module only builds the operation and shows the record.
 */

/** Conditional intents without a deadline stay armed this long (docs/intents.md). */
export const CONDITIONAL_DEFAULT_SECONDS = 7 * 86_400;

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

/**
 * The CreateSchedule operation of a planned Recurring or Conditional intent. A Conditional intent's
 * price (whole quote per whole base) becomes a raw-unit rational: num·10^quote_decimals /
 * den·10^base_decimals, reduced. Its inner goal must plan to ONE swap between base and quote
 * (the core's rule: the run's min-out is derived from the limit price).
 */
export function scheduleOperation(plan: Plan, nowSeconds: number, deadlineSeconds: number | undefined): CreateScheduleOp {
  const s = plan.schedule;
  if (!s) throw new Error('not a scheduled plan');
  if (plan.operations.length === 0) throw new PlanError('INTENT_REJECTED', 'the scheduled goal plans to no operation; there is nothing to run');
  if (s.kind === 'Recurring') {
    return { type: 'CreateSchedule', trigger: { kind: 'Recurring', intervalSeconds: BigInt(s.intervalSeconds!), runs: s.runs!, firstRun: 0n }, operations: plan.operations };
  }
  const c = s.condition!;
  const swap = plan.operations[0]!;
  const pair = (x: Uint8Array, y: Uint8Array) => swap.type === 'Swap'
    && ((Buffer.compare(swap.fromToken, x) === 0 && Buffer.compare(swap.toToken, y) === 0) || (Buffer.compare(swap.fromToken, y) === 0 && Buffer.compare(swap.toToken, x) === 0));
  if (plan.operations.length !== 1 || !pair(c.base.mint, c.quote.mint)) {
    throw new PlanError('INTENT_REJECTED', `a Conditional intent runs on chain as ONE swap between ${c.base.symbol} and ${c.quote.symbol} `
      + `(its min-out comes from the limit price); this goal plans to ${plan.operations.map((o) => o.type).join(', ')}${plan.hops > 1 ? ' through NTV' : ''}`);
  }
  let num = c.price.num * 10n ** BigInt(c.quote.decimals);
  let den = c.price.den * 10n ** BigInt(c.base.decimals);
  const g = gcd(num, den);
  if (g > 1n) [num, den] = [num / g, den / g];
  const U128 = (1n << 128n) - 1n;
  if (num === 0n || num > U128 || den > U128) throw new PlanError('INTENT_REJECTED', `the limit price ${c.price.text} does not fit a raw-unit u128 rational`);
  return {
    type: 'CreateSchedule',
    trigger: {
      kind: 'Conditional', base: c.base.mint, quote: c.quote.mint, direction: c.direction, priceNum: num, priceDen: den,
      expiry: BigInt(nowSeconds + (deadlineSeconds ?? CONDITIONAL_DEFAULT_SECONDS)),
    },
    operations: plan.operations,
  };
}

/** What a node may know besides chain state: the intent text and summary, on the node that took it. */
export interface ScheduleOrigin {
  intent?: string;
  summary?: string;
  /** the bundle that carries the CreateSchedule operation */
  bundle_hash?: string;
}

/** An operation as JSON: snake_case fields, 32-byte fields as 0x hex, integers as decimal strings; nested values too. */
export function operationJson(op: Operation | Record<string, unknown>): Record<string, unknown> {
  const value = (v: unknown): unknown => v instanceof Uint8Array ? '0x' + Buffer.from(v).toString('hex')
    : typeof v === 'bigint' ? v.toString()
      : Array.isArray(v) ? v.map(value)
        : v !== null && typeof v === 'object' ? operationJson(v as Record<string, unknown>) : v;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(op)) out[k.replace(/[A-Z]/g, (ch) => `_${ch.toLowerCase()}`)] = value(v);
  return out;
}

/**
 * svc_getIntentStatus of a schedule: the record and its run history, both chain state (0x33, 0x36),
 * so every node answers the same (the intent text only where it was submitted). `price` is the pool's
 * spot price now, shown as `last_check` of an active Conditional schedule.
 */
export function scheduleStatus(
  rec: ScheduleRecord, runs: ScheduleRunRecord[], origin: ScheduleOrigin | undefined,
  token: (mint: Uint8Array) => TokenRef | undefined, price: { at: number; text: string } | undefined,
) {
  const status = rec.state === 'active' ? 'pending' : rec.state === 'completed' ? 'completed' : 'failed';
  const symbol = (mint: Uint8Array) => token(mint)?.symbol ?? encodeMint(mint);
  const runViews = runs.map((r) => {
    const info = statusOf(r.status);
    return {
      run: r.run, at: Number(r.time), block_height: Number(r.height), status: info.class === 'ok' ? 'completed' : 'failed', status_name: info.name,
      ...(info.class === 'ok' ? {} : { error: info.message }), gas_used: Number(r.gasUsed), fee: r.fee.toString(),
    };
  });
  const lastFailed = [...runViews].reverse().find((r) => r.status === 'failed');
  const base = token(rec.base);
  const quote = token(rec.quote);
  const limit = (): string => {
    // The raw-unit rational back in whole units (9 decimals shown at most).
    if (!base || !quote) return `${rec.priceNum}/${rec.priceDen} raw`;
    const num = rec.priceNum * 10n ** BigInt(base.decimals) * 10n ** 9n;
    const scaled = num / (rec.priceDen * 10n ** BigInt(quote.decimals));
    const frac = (scaled % 10n ** 9n).toString().padStart(9, '0').replace(/0+$/, '');
    return `${scaled / 10n ** 9n}${frac ? `.${frac}` : ''}`;
  };
  return {
    status,
    kind: rec.kind,
    schedule_state: rec.state,
    ...(origin?.intent ? { intent: origin.intent } : {}),
    ...(origin?.summary ? { summary: origin.summary } : {}),
    ...(origin?.bundle_hash ? { bundle_hash: origin.bundle_hash } : {}),
    sender: encodeAccount(rec.owner),
    gas_used: runViews.reduce((acc, r) => acc + r.gas_used, 0),
    block_height: rec.runsDone > 0 ? Number(rec.lastHeight) : null,
    created_at: Number(rec.createdAt),
    created_height: Number(rec.createdHeight),
    runs_done: rec.runsDone,
    runs_left: rec.state !== 'active' ? 0 : rec.kind === 'Recurring' ? Math.max(0, rec.runsTotal - rec.runsDone) : 1,
    ...(rec.kind === 'Recurring'
      ? { runs_total: rec.runsTotal, interval_seconds: Number(rec.intervalSeconds), next_due: rec.state === 'active' ? Number(rec.nextDue) : null }
      : {
          condition: { direction: rec.direction, price: limit(), base: symbol(rec.base), quote: symbol(rec.quote), price_num: rec.priceNum.toString(), price_den: rec.priceDen.toString() },
          expires_at: Number(rec.expiry),
          next_check: rec.state === 'active' ? Number(rec.nextDue) : null,
          last_check: rec.state === 'active' && price ? { at: price.at, price: price.text } : null,
        }),
    last_error: lastFailed?.error ?? null,
    runs: runViews,
    operations: rec.operations.map((o) => operationJson(o)),
  };
}

