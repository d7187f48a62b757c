import type { Operation } from '../codec/bundle.js';
import { MAX_OPERATIONS } from '../abi/constants.js';
import { POOL_CREATION_FEE, encodePool, poolAddress, sortPair, type AmmMath } from '../core/amm.js';
import type { Constraints, Goal, ParsedIntent, Recipient, TokenAmount, TokenRef, ValidatorRef } from './goals.js';
import { missingHookNote, type HookQuote, type IntegratorHooks } from './hooks.js';
import { Market, NTV_MINT, sameToken, type MarketSource } from './market.js';
import { toHex as hex } from '../codec/hash.js';
import { bpsPercent, ceilDiv, formatUnits, minOut } from './units.js';
import { PlanError } from './plan-error.js';
import { delegationProblem, resolveValidator, chooseValidator, validatorLabel, type StakingSource } from './validators.js';

/**
 * The intent planner (spec §4.8 "Planner rules", docs/intents.md "Planning and execution"): a
 * parsed intent, a sender and committed state in; the ordered operations of ONE bundle out, with
 * everything preview and simulate show. Quotes are the core's own AMM math (AmmMath, the same
 * functions the core swaps with), applied step by step to the reserves the earlier steps leave.
 */

/** Spec §7.3 warning strings, exactly. */
export const WARNINGS = {
  HIGH_IMPACT: 'High price impact (>5%)',
  AUTO_ROUTED: 'Auto-routed through the intermediate token (slippage applied per leg)',
  IMPACT_REJECTED: 'Price impact exceeds 25% and execution will be rejected',
  INSUFFICIENT_BALANCE: 'Insufficient balance',
} as const;

/** Spec §8: 5% warns, above 25% on any pool is rejected. */
export const HIGH_IMPACT_BPS = 500;
export const MAX_IMPACT_BPS = 2500;
/** Slippage when the intent names none (docs/intents.md). */
export const DEFAULT_SLIPPAGE_BPS = 50;
/** Validity of an intent's bundle when it names no deadline (facts.md client default: now + 3600 s). */
export const DEFAULT_DEADLINE_SECONDS = 3600;
/** Rebalance leaves trades below 0.1% of the portfolio alone (they would cost more in fees than they move). */
const REBALANCE_DUST_BPS = 10n;
const U64_MAX = (1n << 64n) - 1n;

export { PlanError, type PlanErrorReason } from './plan-error.js';

export interface PlannerEnv {
  source: MarketSource;
  amm: AmmMath;
  ntv: TokenRef;
  /** nanoNTV per gas unit */
  gasPrice: bigint;
  /** the gas the core charges for a bundle of these operations (src/intents/gas.ts) */
  bundleGas(operations: readonly Operation[]): bigint;
  /** the name service (src/domains/names/reader.ts resolveName) */
  resolveName(name: string): Uint8Array | undefined;
  /** why a name is malformed, or undefined */
  nameProblem(name: string): string | undefined;
  hooks?: IntegratorHooks | undefined;
  /** committed staking state: which validator a Stake or Allocate goal delegates to (src/intents/validators.ts) */
  staking?: StakingSource | undefined;
  /**
   * The recipient's pending receives (docs/bridge.md "Pending receives"), oldest first: what a
   * Bridge goal claims (docs/intents.md "Bridge"). Absent: the node has no bridge reader.
   */
  pendingReceives?(recipient: Uint8Array): PendingReceive[];
}

/** An attested deposit held for its recipient (0x49 state 0), as the Bridge goal needs it. */
export interface PendingReceive {
  chain: string;
  txHash: string;
  mint: Uint8Array;
  amount: bigint;
  /** the status that holds it (TOKEN_PAUSED, MINT_FROZEN, SUPPLY_CAP_EXCEEDED) */
  reason: string;
}

export interface PlannedStep {
  /** `Swap`, `Swap (Leg 1)`, `Swap (Leg 2)`, `Transfer`, `AddLiquidity`, `CreatePool`, `Stake`, `RegisterName`, … */
  type: string;
  op: Operation;
  from: TokenRef;
  to: TokenRef;
  amountIn: bigint;
  /** expected output against the planned reserves (swaps: the core's quote; liquidity: LP units) */
  estimatedOut: bigint;
  /** the least output the operation accepts (swap min_amount_out, min_lp_tokens) */
  minOut: bigint;
  priceImpactBps: number;
  pool?: Uint8Array;
  /** a Delegate step's validator (staking account) */
  validator?: Uint8Array;
}

export interface BalanceCheck {
  sufficient: boolean;
  /** the token the figures are in: the first one short, else the first one the plan spends */
  token: TokenRef;
  required: bigint;
  available: bigint;
  /** every token the plan draws on */
  byToken: Array<{ token: TokenRef; required: bigint; available: bigint }>;
}

export interface Schedule {
  kind: 'Recurring' | 'Conditional';
  goal: Goal;
  intervalSeconds?: number;
  runs?: number;
  condition?: Extract<Goal, { type: 'Conditional' }>['condition'];
}

export interface Plan {
  sender: Uint8Array;
  steps: PlannedStep[];
  operations: Operation[];
  summary: string;
  /** 0 without swaps, 1 direct, 2 auto-routed through NTV */
  hops: number;
  /** 1 − Π(1 − impact) over the swaps, basis points, rounded up */
  totalImpactBps: number;
  maxImpactBps: number;
  slippageBps: number;
  /** exactly the spec §7.3 warning strings that apply (WARNINGS), in the table's order */
  warnings: string[];
  /**
   * Everything else the wallet should be told, kept out of `warnings` so that field holds only the
   * §7.3 strings (docs/intents.md "Preview fields"): a missing integrator hook, a hook's own remarks.
   */
  notes: string[];
  /** why svc_submitIntent refuses this plan, though preview and simulate answer */
  rejection?: PlanError | undefined;
  balance: BalanceCheck;
  gas: bigint;
  fee: bigint;
  /** the bundle's max_gas: the gas limit asked, else what the max fee allows, else the plan's gas */
  maxGas: bigint;
  /** seconds the bundle stays valid from submission */
  deadlineSeconds: number;
  /** Recurring and Conditional: sent as one CreateSchedule of `operations` (docs/schedules.md) */
  schedule?: Schedule;
}

/** Plan one intent for `sender` against committed state. */
export function planIntent(intent: ParsedIntent, sender: Uint8Array, env: PlannerEnv): Plan {
  return planIntents([intent], sender, env);
}

/**
 * Plan several intents into ONE bundle, in order (intent programs, spec §4.9: all steps atomic).
 * Each intent's slippage applies to its own swaps; the earliest deadline and the smallest fee and
 * gas limits of all of them bound the bundle.
 */
export function planIntents(intents: readonly ParsedIntent[], sender: Uint8Array, env: PlannerEnv, where?: (i: number) => string): Plan {
  const planner = new Planner(env, sender);
  let schedule: Schedule | undefined;
  intents.forEach((intent, i) => {
    let goal = intent.goal;
    if (goal.type === 'Recurring' || goal.type === 'Conditional') {
      if (intents.length > 1) {
        throw new PlanError('INVALID_INTENT', `${where?.(i) ?? `intent ${i}`}: a ${goal.type} goal cannot be part of a program; it becomes an on-chain schedule of its own`, {
          field: where?.(i),
        });
      }
      schedule = goal.type === 'Recurring'
        ? { kind: 'Recurring', goal: goal.goal, intervalSeconds: goal.intervalSeconds, runs: goal.runs }
        : { kind: 'Conditional', goal: goal.goal, condition: goal.condition };
      goal = goal.goal;
      if (goal.type === 'Recurring' || goal.type === 'Conditional') throw new PlanError('INVALID_INTENT', `a ${goal.type} goal cannot be nested in another`);
    }
    planner.slippageBps = intent.constraints.slippageBps ?? DEFAULT_SLIPPAGE_BPS;
    planner.goal(goal);
  });
  const constraints = mergeConstraints(intents.map((i) => i.constraints));
  const plan = planner.finish(constraints);
  if (schedule) {
    plan.schedule = schedule;
    plan.summary = scheduleSummary(schedule, plan.summary);
  }
  return plan;
}

function mergeConstraints(all: Constraints[]): Constraints {
  const out: Constraints = {};
  for (const c of all) {
    if (c.slippageBps !== undefined) out.slippageBps = Math.max(out.slippageBps ?? 0, c.slippageBps);
    if (c.deadlineSeconds !== undefined) out.deadlineSeconds = Math.min(out.deadlineSeconds ?? Infinity, c.deadlineSeconds);
    if (c.maxFee !== undefined) out.maxFee = out.maxFee === undefined || c.maxFee < out.maxFee ? c.maxFee : out.maxFee;
    if (c.gasLimit !== undefined) out.gasLimit = out.gasLimit === undefined || c.gasLimit < out.gasLimit ? c.gasLimit : out.gasLimit;
  }
  return out;
}

function scheduleSummary(s: Schedule, inner: string): string {
  if (s.kind === 'Recurring') return `Every ${duration(s.intervalSeconds!)}, ${s.runs} runs, each run by the chain as a scheduled run: ${lowerFirst(inner)}`;
  const c = s.condition!;
  return `When 1 ${c.base.symbol} is ${c.direction} ${c.price.text} ${c.quote.symbol} (checked on chain once a minute): ${lowerFirst(inner)}`;
}

function duration(seconds: number): string {
  for (const [unit, n] of [['week', 604_800], ['day', 86_400], ['hour', 3600], ['minute', 60]] as const) {
    if (seconds % n === 0) return seconds === n ? unit : `${seconds / n} ${unit}s`;
  }
  return seconds === 1 ? 'second' : `${seconds} seconds`;
}

function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}

function amountText(raw: bigint, token: TokenRef): string {
  return `${formatUnits(raw, token.decimals)} ${token.symbol}`;
}

class Planner {
  readonly market: Market;
  readonly steps: PlannedStep[] = [];
  readonly warnings: string[] = [];
  readonly notes: string[] = [];
  readonly phrases: string[] = [];
  slippageBps = DEFAULT_SLIPPAGE_BPS;
  private hops = 0;
  private rejection: PlanError | undefined;
  /** what the plan's Delegate steps add, by validator account hex (a later step's checks count them) */
  private readonly delegations = new Map<string, bigint>();
  /** a Delegate step draws NTV: a shortfall then refuses the plan (the core would fail it, fee charged) */
  private stakeSpent = false;

  constructor(private readonly env: PlannerEnv, readonly sender: Uint8Array) {
    this.market = new Market(env.source, env.amm, sender);
  }

  private get ntv(): TokenRef {
    return this.env.ntv;
  }

  /** A spec §7.3 warning (one of WARNINGS); anything else is a note. */
  private warn(w: (typeof WARNINGS)[keyof typeof WARNINGS]): void {
    if (!this.warnings.includes(w)) this.warnings.push(w);
  }

  private note(n: string): void {
    if (!this.notes.includes(n)) this.notes.push(n);
  }

  private reject(e: PlanError): void {
    this.rejection ??= e;
  }

  goal(goal: Goal): void {
    switch (goal.type) {
      case 'Swap':
        this.phrases.push(this.swapPhrase(goal.amountIn, goal.tokenOut, this.swapExactIn(goal.amountIn.token, goal.tokenOut, goal.amountIn.raw)));
        return;
      case 'Acquire': {
        const r = this.acquire(goal.amountOut, goal.tokenIn, goal.maxCost);
        const route = r.hops === 2 ? ` via ${goal.tokenIn.symbol}→${this.ntv.symbol}→${goal.amountOut.token.symbol} (auto-routed)` : '';
        this.phrases.push(`Buy ${amountText(goal.amountOut.raw, goal.amountOut.token)} for ${amountText(r.cost, goal.tokenIn)}${route}`
          + (goal.maxCost ? ` (max ${amountText(goal.maxCost.raw, goal.maxCost.token)})` : ''));
        return;
      }
      case 'Composite':
        for (const step of goal.steps) {
          if (step.type === 'Recurring' || step.type === 'Conditional') throw new PlanError('INVALID_INTENT', `a ${step.type} goal cannot be a step of a composite intent`);
          this.goal(step);
        }
        return;
      case 'Stake':
        this.phrases.push(`Delegate ${amountText(goal.amount.raw, goal.amount.token)} to validator ${this.stake(goal.amount, goal.validator)}`);
        return;
      case 'ProvideLiquidity': {
        const r = this.provideLiquidity(goal.a.token, goal.a.raw, goal.b.token, goal.b.raw);
        this.phrases.push(`${r.created ? 'Create the pool and add' : 'Add'} liquidity ${amountText(goal.a.raw, goal.a.token)} + ${amountText(goal.b.raw, goal.b.token)} for ≈${r.lp} LP units`);
        return;
      }
      case 'Transfer':
        this.transfer(goal.amount, goal.to);
        return;
      case 'Bridge':
        this.bridge(goal.amount, goal.chain);
        return;
      case 'Liquidate':
        this.liquidate(goal.target, [...goal.keeping, ...goal.excluding]);
        return;
      case 'Rebalance':
        this.rebalance(goal.targets);
        return;
      case 'Allocate':
        this.allocate(goal.amount, goal.stakeBps);
        return;
      case 'MintSynthetic':
      case 'OpenPosition':
        this.hooked(goal);
        return;
      case 'Custom':
        this.registerName(goal.name);
        return;
      case 'Recurring':
      case 'Conditional':
        throw new PlanError('INVALID_INTENT', `a ${goal.type} goal cannot be nested in another goal`);
    }
  }

  // ---- swaps --------------------------------------------------------------------------------

  /** Direct pool, else through NTV (spec §4.8 rule 3); the tokens along the way. */
  private path(from: TokenRef, to: TokenRef): TokenRef[] {
    if (sameToken(from, to)) throw new PlanError('INVALID_INTENT', `cannot swap ${from.symbol} for itself`);
    if (this.market.pool(from.mint, to.mint)) return [from, to];
    if (!sameToken(from, this.ntv) && !sameToken(to, this.ntv) && this.market.pool(from.mint, NTV_MINT) && this.market.pool(NTV_MINT, to.mint)) {
      return [from, this.ntv, to];
    }
    throw new PlanError('NOT_FOUND', `no pool and no route through ${this.ntv.symbol} for ${from.symbol}/${to.symbol}`, { from_token: from.symbol, to_token: to.symbol });
  }

  private impact(bps: number, pool: Uint8Array, from: TokenRef, to: TokenRef): void {
    if (bps > HIGH_IMPACT_BPS) this.warn(WARNINGS.HIGH_IMPACT);
    if (bps > MAX_IMPACT_BPS) {
      this.warn(WARNINGS.IMPACT_REJECTED);
      this.reject(new PlanError('INTENT_REJECTED', `price impact ${bpsPercent(bps)} on the ${from.symbol}/${to.symbol} pool exceeds the 25% maximum (spec §4.8 rule 4)`, {
        price_impact_bps: bps, max_price_impact_bps: MAX_IMPACT_BPS, pool: encodePool(pool),
      }));
    }
  }

  private addSwap(label: string, from: TokenRef, to: TokenRef, amountIn: bigint, expected: bigint, min: bigint, impactBps: number): void {
    const pool = poolAddress(from.mint, to.mint);
    this.market.spend(from, amountIn);
    this.market.swap(from.mint, to.mint, amountIn, expected);
    this.market.receive(to, min);
    this.steps.push({
      type: label, op: { type: 'Swap', fromToken: from.mint, toToken: to.mint, amountIn, minAmountOut: min },
      from, to, amountIn, estimatedOut: expected, minOut: min, priceImpactBps: impactBps, pool,
    });
    this.impact(impactBps, pool, from, to);
  }

  private quoteIn(from: TokenRef, to: TokenRef, amountIn: bigint) {
    const q = this.market.quoteIn(from.mint, to.mint, amountIn);
    if (!q || q.amountOut === 0n) {
      throw new PlanError('INTENT_REJECTED', `swapping ${amountText(amountIn, from)} for ${to.symbol} would pay out nothing (the amount is too small for the pool)`, {
        from_token: from.symbol, to_token: to.symbol, amount_in: amountIn.toString(),
      });
    }
    return q;
  }

  private quoteOut(from: TokenRef, to: TokenRef, amountOut: bigint) {
    const q = this.market.quoteOut(from.mint, to.mint, amountOut);
    if (!q) {
      const [, reserveOut] = this.market.reserves(from.mint, to.mint)!;
      throw new PlanError('INTENT_REJECTED', `the ${from.symbol}/${to.symbol} pool cannot pay ${amountText(amountOut, to)}: it holds ${amountText(reserveOut, to)}`, {
        required: amountOut.toString(), available: reserveOut.toString(), token: to.symbol,
      });
    }
    return q;
  }

  /**
   * Exact input. Routed: leg 1 accepts quote·(10000 − s)/10000 of NTV, and leg 2 spends exactly that
   * minimum, so leg 2 can never lack the intermediate; what leg 1 pays above its minimum stays in
   * the sender's account (docs/intents.md "Auto-routing").
   */
  swapExactIn(from: TokenRef, to: TokenRef, amountIn: bigint): { expected: bigint; min: bigint; hops: number } {
    if (amountIn <= 0n) throw new PlanError('INVALID_INTENT', `the amount of ${from.symbol} to swap must be greater than 0`);
    const path = this.path(from, to);
    const s = this.slippageBps;
    if (path.length === 2) {
      const q = this.quoteIn(from, to, amountIn);
      const min = minOut(q.amountOut, s);
      this.addSwap('Swap', from, to, amountIn, q.amountOut, min, q.impactBps);
      this.hops = Math.max(this.hops, 1);
      return { expected: q.amountOut, min, hops: 1 };
    }
    const q1 = this.quoteIn(from, this.ntv, amountIn);
    const min1 = minOut(q1.amountOut, s);
    this.addSwap('Swap (Leg 1)', from, this.ntv, amountIn, q1.amountOut, min1, q1.impactBps);
    const q2 = this.quoteIn(this.ntv, to, min1);
    const min2 = minOut(q2.amountOut, s);
    this.addSwap('Swap (Leg 2)', this.ntv, to, min1, q2.amountOut, min2, q2.impactBps);
    this.warn(WARNINGS.AUTO_ROUTED);
    this.hops = Math.max(this.hops, 2);
    return { expected: q2.amountOut, min: min2, hops: 2 };
  }

  private swapPhrase(amountIn: TokenAmount, out: TokenRef, r: { expected: bigint; min: bigint; hops: number }): string {
    const via = r.hops === 2 ? ` via ${amountIn.token.symbol}→${this.ntv.symbol}→${out.symbol} (auto-routed)` : ` on the ${amountIn.token.symbol}/${out.symbol} pool`;
    return `Swap ${amountText(amountIn.raw, amountIn.token)} for ≈${amountText(r.expected, out)} (at least ${amountText(r.min, out)})${via}`;
  }

  /**
   * Exact output by reverse AMM math (spec §4.8 rule 1): the least input whose output is at least
   * the amount (core amm_math op 1, rounded against the trader). The swap's minimum output is the
   * amount less the slippage. Routed: leg 2's NTV need is raised by the slippage before leg 1 is
   * sized, so leg 1's minimum output still covers it. Above the max cost: rejected before execution.
   */
  acquire(out: TokenAmount, tokenIn: TokenRef, maxCost?: TokenAmount): { cost: bigint; hops: number } {
    if (out.raw <= 0n) throw new PlanError('INVALID_INTENT', `the amount of ${out.token.symbol} to buy must be greater than 0`);
    if (maxCost && !sameToken(maxCost.token, tokenIn)) {
      throw new PlanError('INVALID_INTENT', `the max cost is in ${maxCost.token.symbol} but the intent pays with ${tokenIn.symbol}`);
    }
    const path = this.path(tokenIn, out.token);
    const s = this.slippageBps;
    const checkMax = (cost: bigint) => {
      if (maxCost && cost > maxCost.raw) {
        throw new PlanError('INTENT_REJECTED',
          `buying ${amountText(out.raw, out.token)} costs ${amountText(cost, tokenIn)}, above the max cost of ${amountText(maxCost.raw, tokenIn)}; rejected before execution`,
          { required: cost.toString(), max: maxCost.raw.toString(), token: tokenIn.symbol });
      }
    };
    if (path.length === 2) {
      const rq = this.quoteOut(tokenIn, out.token, out.raw);
      checkMax(rq.amountIn);
      const q = this.quoteIn(tokenIn, out.token, rq.amountIn);
      this.addSwap('Swap', tokenIn, out.token, rq.amountIn, q.amountOut, minOut(out.raw, s), q.impactBps);
      this.hops = Math.max(this.hops, 1);
      return { cost: rq.amountIn, hops: 1 };
    }
    const need = this.quoteOut(this.ntv, out.token, out.raw).amountIn;
    const padded = ceilDiv(need * 10_000n, BigInt(10_000 - s));
    const rq1 = this.quoteOut(tokenIn, this.ntv, padded);
    checkMax(rq1.amountIn);
    const q1 = this.quoteIn(tokenIn, this.ntv, rq1.amountIn);
    const min1 = minOut(padded, s);
    this.addSwap('Swap (Leg 1)', tokenIn, this.ntv, rq1.amountIn, q1.amountOut, min1, q1.impactBps);
    const q2 = this.quoteIn(this.ntv, out.token, min1);
    this.addSwap('Swap (Leg 2)', this.ntv, out.token, min1, q2.amountOut, minOut(out.raw, s), q2.impactBps);
    this.warn(WARNINGS.AUTO_ROUTED);
    this.hops = Math.max(this.hops, 2);
    return { cost: rq1.amountIn, hops: 2 };
  }

  // ---- other goals --------------------------------------------------------------------------

  private transfer(amount: TokenAmount, to: Recipient): void {
    if (amount.raw <= 0n) throw new PlanError('INVALID_INTENT', `the amount to send must be greater than 0`);
    let address: Uint8Array;
    let shown: string;
    if (to.kind === 'address') {
      address = to.address;
      shown = to.text;
    } else {
      const problem = this.env.nameProblem(to.name);
      if (problem) throw new PlanError('INVALID_INTENT', `cannot send to ${to.name}: ${problem}`);
      const owner = this.env.resolveName(to.name);
      if (!owner) throw new PlanError('NOT_FOUND', `the name "${to.name}" is not registered; send to an address or register the name first`, { name: to.name });
      address = owner;
      shown = to.name;
    }
    this.market.spend(amount.token, amount.raw);
    this.steps.push({
      type: 'Transfer', op: { type: 'Transfer', to: address, token: amount.token.mint, amount: amount.raw },
      from: amount.token, to: amount.token, amountIn: amount.raw, estimatedOut: amount.raw, minOut: amount.raw, priceImpactBps: 0,
    });
    this.phrases.push(`Send ${amountText(amount.raw, amount.token)} to ${shown}`);
  }

  /**
   * Bridge (spec §4.8, issue 20 item 7; docs/intents.md "Bridge"): claims the sender's pending
   * receive of exactly this amount of this token from this chain (ClaimBridgeDeposit, 74). The
   * credited amount counts as received, so a following Swap step of the same Composite spends it in
   * the same bundle: the claim and the swap both apply or neither does.
   */
  private bridge(amount: TokenAmount, chain: string): void {
    const what = `${amount.text} ${amount.token.symbol} from ${chain}`;
    if (!this.env.pendingReceives) throw new PlanError('UNAVAILABLE_ON_NODE', `no bridge exists on this node: bridging ${what} is not available`, { goal: 'Bridge', chain });
    const held = this.env.pendingReceives(this.sender).filter((p) => p.chain === chain && hex(p.mint) === hex(amount.token.mint));
    const used = new Set(this.steps.filter((s) => s.op.type === 'ClaimBridgeDeposit').map((s) => (s.op as { txHash: string }).txHash));
    const match = held.find((p) => p.amount === amount.raw && !used.has(p.txHash));
    if (!match) {
      const others = held.map((p) => amountText(p.amount, amount.token));
      throw new PlanError('NOT_FOUND', `no pending receive of ${what} for this sender`
        + (others.length ? ` (pending from ${chain}: ${others.join(', ')})` : '')
        + '; an attested deposit is credited by svc_autobridge or svc_bridgeToken, and only one held as a pending receive can be bridged by an intent', {
        goal: 'Bridge', chain, token: amount.token.symbol, amount: amount.raw.toString(),
      });
    }
    this.market.receive(amount.token, match.amount);
    this.steps.push({
      type: 'ClaimBridgeDeposit', op: { type: 'ClaimBridgeDeposit', chain: match.chain, txHash: match.txHash },
      from: amount.token, to: amount.token, amountIn: 0n, estimatedOut: match.amount, minOut: match.amount, priceImpactBps: 0,
    });
    this.note(`The deposit ${match.txHash} from ${chain} is held (${match.reason}): while that hold lasts the claim fails, and the whole bundle with it`);
    this.phrases.push(`Claim ${amountText(match.amount, amount.token)} bridged from ${chain} (deposit ${match.txHash})`);
  }

  /**
   * A stake is a Delegate{validator, amount} to the named validator, or to the one the documented
   * rule picks (src/intents/validators.ts; never a Stake operation, which would register the
   * sender as a validator). What the core would refuse is refused here, before submission.
   * Returns how the summary names the validator.
   */
  private stake(amount: TokenAmount, ref: ValidatorRef | undefined): string {
    if (!sameToken(amount.token, this.ntv)) throw new PlanError('INVALID_INTENT', `only ${this.ntv.symbol} can be staked, not ${amount.token.symbol}`);
    if (amount.raw <= 0n) throw new PlanError('INVALID_INTENT', 'the amount to stake must be greater than 0');
    const staking = this.env.staking;
    if (!staking) throw new PlanError('UNAVAILABLE_ON_NODE', 'this node has no staking state to plan a delegation against');
    const v = ref ? resolveValidator(ref, staking, this.env.resolveName) : chooseValidator(staking, this.sender, amount.raw, this.delegations);
    const problem = delegationProblem(v, this.sender, amount.raw, staking, this.delegations);
    if (problem) this.reject(problem);
    if (v.jailed) this.note(`Validator ${validatorLabel(v)} is jailed: the delegation earns no rewards until it is unjailed and back in the active set`);
    else if (!v.active) this.note(`Validator ${validatorLabel(v)} is not in the active set: the delegation earns no rewards until it is`);
    if (!ref) this.note(`No validator named: chose ${validatorLabel(v)} by the default rule (docs/intents.md "Stake and allocate")`);
    const key = Buffer.from(v.address).toString('hex');
    this.delegations.set(key, (this.delegations.get(key) ?? 0n) + amount.raw);
    this.stakeSpent = true;
    // Delegate{validator, amount} (discriminant 7, docs/bundle-format.md): validator by staking account.
    const op: Operation = { type: 'Delegate', validator: Uint8Array.from(v.address), amount: amount.raw };
    this.market.spend(amount.token, amount.raw);
    this.steps.push({ type: 'Delegate', op, from: amount.token, to: amount.token, amountIn: amount.raw, estimatedOut: amount.raw, minOut: amount.raw, priceImpactBps: 0, validator: v.address });
    return validatorLabel(v);
  }

  /** AddLiquidity at the pool's ratio, or CreatePool (100 NTV) when the pair has none. */
  provideLiquidity(a: TokenRef, amountA: bigint, b: TokenRef, amountB: bigint): { lp: bigint; created: boolean } {
    if (sameToken(a, b)) throw new PlanError('INVALID_INTENT', `a pool needs two different tokens (both are ${a.symbol})`);
    if (amountA <= 0n || amountB <= 0n) throw new PlanError('INVALID_INTENT', 'liquidity amounts must be greater than 0');
    const pool = this.market.pool(a.mint, b.mint);
    const address = poolAddress(a.mint, b.mint);
    if (!pool) {
      const [t0] = sortPair(a.mint, b.mint);
      const aFirst = Buffer.compare(t0, a.mint) === 0;
      const mint = this.env.amm.firstMint(aFirst ? amountA : amountB, aFirst ? amountB : amountA);
      if (mint.provider === 0n) {
        throw new PlanError('INTENT_REJECTED', 'the initial liquidity is too small: sqrt(amount_a × amount_b) must exceed the 1,000 LP units locked forever');
      }
      this.market.spend(this.ntv, POOL_CREATION_FEE);
      this.market.spend(a, amountA);
      this.market.spend(b, amountB);
      this.market.createPool(a.mint, b.mint, amountA, amountB, mint.total);
      this.steps.push({
        type: 'CreatePool', op: { type: 'CreatePool', tokenA: a.mint, tokenB: b.mint, amountA, amountB, lpLockDuration: 0n },
        from: a, to: b, amountIn: amountA, estimatedOut: mint.provider, minOut: mint.provider, priceImpactBps: 0, pool: address,
      });
      return { lp: mint.provider, created: true };
    }
    const aFirst = Buffer.compare(pool.token0, a.mint) === 0;
    const f = this.env.amm.liquidityFor(aFirst ? amountA : amountB, aFirst ? amountB : amountA, pool.reserve0, pool.reserve1, pool.lpSupply);
    if (!f || f.minted === 0n) throw new PlanError('INTENT_REJECTED', `the deposit into the ${a.symbol}/${b.symbol} pool is too small to mint any LP units`);
    const usedA = aFirst ? f.used0 : f.used1;
    const usedB = aFirst ? f.used1 : f.used0;
    const minLp = minOut(f.minted, this.slippageBps);
    this.market.spend(a, usedA);
    this.market.spend(b, usedB);
    this.market.addLiquidity(a.mint, b.mint, usedA, usedB, f.minted);
    this.steps.push({
      type: 'AddLiquidity', op: { type: 'AddLiquidity', tokenA: a.mint, tokenB: b.mint, amountA, amountB, minLp },
      from: a, to: b, amountIn: amountA, estimatedOut: f.minted, minOut: minLp, priceImpactBps: 0, pool: address,
    });
    return { lp: f.minted, created: false };
  }

  /** NTV kept back for the fee when NTV itself is sold (Liquidate, Rebalance): a bound for `swaps` swaps. */
  private feeReserve(swaps: number): bigint {
    if (this.env.gasPrice === 0n) return 0n;
    const probe: Operation = { type: 'Swap', fromToken: NTV_MINT, toToken: NTV_MINT, amountIn: 1n, minAmountOut: 0n };
    return this.env.bundleGas(Array.from({ length: Math.max(1, swaps) }, () => probe)) * this.env.gasPrice;
  }

  /** Spot value of `amount` of `token` in NTV through its NTV pool (undefined without one). */
  private valueInNtv(token: TokenRef, amount: bigint): bigint | undefined {
    if (sameToken(token, this.ntv)) return amount;
    const r = this.market.reserves(token.mint, NTV_MINT);
    return r && r[0] > 0n ? (amount * r[1]) / r[0] : undefined;
  }

  /**
   * Spec §4.8 rule 2: the sender's holdings minus the target and the kept/excluded tokens, sorted
   * by best rate to the target — the share of the spot value the sale actually yields after the
   * fee and price impact (routed sales pay two fees) — then sold greedily from the best until the
   * target amount is raised: whole holdings while they fall short, an exact-output sale for the rest.
   */
  private liquidate(target: TokenAmount, kept: TokenRef[]): void {
    if (target.raw <= 0n) throw new PlanError('INVALID_INTENT', 'the amount to raise must be greater than 0');
    const skip = new Set([hex(target.token.mint), ...kept.map((t) => hex(t.mint))]);
    const candidates: Array<{ token: TokenRef; amount: bigint; efficiency: bigint }> = [];
    const all = [...this.env.source.tokens()];
    for (const token of all) {
      if (skip.has(hex(token.mint))) continue;
      let amount = this.market.balance(token);
      if (sameToken(token, this.ntv)) amount -= this.feeReserve(2 * all.length);
      if (amount <= 0n) continue;
      const efficiency = this.rateToTarget(token, target.token, amount);
      if (efficiency !== undefined) candidates.push({ token, amount, efficiency });
    }
    candidates.sort((x, y) => (x.efficiency === y.efficiency ? 0 : x.efficiency > y.efficiency ? -1 : 1));
    let remaining = target.raw;
    const sold: string[] = [];
    for (const c of candidates) {
      if (remaining <= 0n) break;
      const cost = this.costOf(c.token, target.token, remaining);
      if (cost !== undefined && cost <= c.amount) {
        this.acquire({ token: target.token, raw: remaining, text: '' }, c.token);
        sold.push(amountText(cost, c.token));
        remaining = 0n;
        break;
      }
      const r = this.swapExactIn(c.token, target.token, c.amount);
      sold.push(amountText(c.amount, c.token));
      remaining -= r.expected;
    }
    if (remaining > 0n) {
      this.warn(WARNINGS.INSUFFICIENT_BALANCE);
      this.reject(new PlanError('INSUFFICIENT_BALANCE',
        `the holdings that may be sold raise at most ${amountText(target.raw - remaining, target.token)} of the ${amountText(target.raw, target.token)} asked`,
        { required: target.raw.toString(), available: (target.raw - remaining).toString(), token: target.token.symbol }));
    }
    const keeping = kept.length ? `, keeping ${kept.map((t) => t.symbol).join(', ')}` : '';
    this.phrases.push(`Liquidate to raise ${amountText(target.raw, target.token)} by selling ${sold.length ? sold.join(', ') : 'nothing'}${keeping}`);
  }

  /** Output over spot value of selling `amount` of `from` for `to`, in basis points; undefined without a route. */
  private rateToTarget(from: TokenRef, to: TokenRef, amount: bigint): bigint | undefined {
    let path: TokenRef[];
    try {
      path = this.path(from, to);
    } catch {
      return undefined;
    }
    let out = amount;
    let idealNum = amount;
    let idealDen = 1n;
    for (let i = 0; i + 1 < path.length; i++) {
      const r = this.market.reserves(path[i]!.mint, path[i + 1]!.mint)!;
      const q = this.env.amm.quoteExactIn(out, r[0], r[1]);
      out = q?.amountOut ?? 0n;
      idealNum *= r[1];
      idealDen *= r[0];
    }
    if (idealNum === 0n) return undefined;
    return (out * idealDen * 10_000n) / idealNum;
  }

  /** Input of `from` needed for `amountOut` of `to` (reverse math along the route), or undefined. */
  private costOf(from: TokenRef, to: TokenRef, amountOut: bigint): bigint | undefined {
    const path = this.path(from, to);
    let need = amountOut;
    for (let i = path.length - 1; i > 0; i--) {
      if (i < path.length - 1) need = ceilDiv(need * 10_000n, BigInt(10_000 - this.slippageBps));
      const q = this.market.quoteOut(path[i - 1]!.mint, path[i]!.mint, need);
      if (!q) return undefined;
      need = q.amountIn;
    }
    return need;
  }

  /**
   * Rebalance the listed tokens (other holdings are untouched) to the target weights, valued in
   * NTV at the pools' spot prices: over-weight tokens are sold for NTV first, then the NTV (what
   * the sales guarantee plus over-weight NTV) buys the under-weight ones; a shortfall scales the
   * buys down. Trades under 0.1% of the portfolio are skipped.
   */
  private rebalance(targets: Array<{ token: TokenRef; bps: number }>): void {
    const sum = targets.reduce((acc, t) => acc + t.bps, 0);
    if (sum !== 10_000) throw new PlanError('INVALID_INTENT', `rebalance weights must add up to 100% (they add up to ${bpsPercent(sum)})`);
    const reserve = this.feeReserve(2 * targets.length);
    const rows = targets.map((t) => {
      let held = this.market.balance(t.token);
      if (sameToken(t.token, this.ntv)) held = held > reserve ? held - reserve : 0n;
      const value = this.valueInNtv(t.token, held);
      if (value === undefined) throw new PlanError('NOT_FOUND', `no ${t.token.symbol}/${this.ntv.symbol} pool to value ${t.token.symbol} with`, { token: t.token.symbol });
      return { ...t, held, value };
    });
    const total = rows.reduce((acc, r) => acc + r.value, 0n);
    if (total === 0n) throw new PlanError('INTENT_REJECTED', `nothing to rebalance: the sender holds none of ${targets.map((t) => t.token.symbol).join(', ')}`);
    const dust = (total * REBALANCE_DUST_BPS) / 10_000n;
    const moves: string[] = [];
    for (const r of rows) {
      const desired = (total * BigInt(r.bps)) / 10_000n;
      if (sameToken(r.token, this.ntv) || r.value - desired <= dust) continue;
      const [rIn, rOut] = this.market.reserves(r.token.mint, NTV_MINT)!;
      const amount = ((r.value - desired) * rIn) / rOut;
      if (amount <= 0n) continue;
      this.swapExactIn(r.token, this.ntv, amount > r.held ? r.held : amount);
      moves.push(`sell ${amountText(amount, r.token)}`);
    }
    const ntvRow = rows.find((r) => sameToken(r.token, this.ntv));
    const keepNtv = ntvRow ? (total * BigInt(ntvRow.bps)) / 10_000n : 0n;
    const buys = rows.filter((r) => !sameToken(r.token, this.ntv) && (total * BigInt(r.bps)) / 10_000n - r.value > dust);
    const wanted = buys.map((r) => (total * BigInt(r.bps)) / 10_000n - r.value);
    const spendable = this.market.balance(this.ntv) - reserve - keepNtv;
    const totalWanted = wanted.reduce((a, b) => a + b, 0n);
    buys.forEach((r, i) => {
      let spend = wanted[i]!;
      if (totalWanted > spendable) spend = spendable > 0n ? (spend * spendable) / totalWanted : 0n;
      if (spend <= 0n) return;
      const res = this.swapExactIn(this.ntv, r.token, spend);
      moves.push(`buy ≈${amountText(res.expected, r.token)}`);
    });
    const weights = targets.map((t) => `${bpsPercent(t.bps)} ${t.token.symbol}`).join(', ');
    this.phrases.push(`Rebalance to ${weights} (portfolio ≈${amountText(total, this.ntv)}): ${moves.length ? moves.join(', ') : 'already within 0.1% of the targets'}`);
  }

  /**
   * Allocate: the stake part becomes a Delegate (the default validator rule, src/intents/validators.ts); the liquidity part is zapped into a pool
   * (half swapped for the pair token, then AddLiquidity with what the swap guarantees). The pair
   * is NTV for any other token, and for NTV the NTV pool with the deepest NTV reserve.
   */
  private allocate(amount: TokenAmount, stakeBps: number): void {
    if (amount.raw <= 0n) throw new PlanError('INVALID_INTENT', 'the amount to allocate must be greater than 0');
    if (stakeBps < 0 || stakeBps > 10_000) throw new PlanError('INVALID_INTENT', 'the stake share must be between 0% and 100%');
    const stakePart = (amount.raw * BigInt(stakeBps)) / 10_000n;
    const liquidityPart = amount.raw - stakePart;
    const validator = stakePart > 0n ? this.stake({ ...amount, raw: stakePart }, undefined) : undefined;
    let pair: TokenRef | undefined;
    if (liquidityPart > 0n) {
      if (sameToken(amount.token, this.ntv)) {
        let best = -1n;
        for (const p of this.env.source.pools()) {
          const other = Buffer.compare(p.token0, NTV_MINT) === 0 ? p.token1 : Buffer.compare(p.token1, NTV_MINT) === 0 ? p.token0 : undefined;
          const depth = Buffer.compare(p.token0, NTV_MINT) === 0 ? p.reserve0 : p.reserve1;
          if (other && depth > best) {
            const token = this.env.source.token(other);
            if (token) {
              best = depth;
              pair = token;
            }
          }
        }
        if (!pair) throw new PlanError('NOT_FOUND', `no ${this.ntv.symbol} pool exists to provide liquidity to`);
      } else {
        pair = this.ntv;
        if (!this.market.pool(amount.token.mint, NTV_MINT)) throw new PlanError('NOT_FOUND', `no ${amount.token.symbol}/${this.ntv.symbol} pool exists to provide liquidity to`);
      }
      const half = liquidityPart / 2n;
      const swapped = this.swapExactIn(amount.token, pair, half);
      this.provideLiquidity(amount.token, liquidityPart - half, pair, swapped.min);
    }
    this.phrases.push(`Allocate ${amountText(amount.raw, amount.token)}: stake ${amountText(stakePart, amount.token)}${validator ? ` with validator ${validator}` : ''}`
      + (pair ? `, provide ${amountText(liquidityPart, amount.token)} as ${amount.token.symbol}/${pair.symbol} liquidity` : ''));
  }

  private registerName(name: string): void {
    const problem = this.env.nameProblem(name);
    if (problem) throw new PlanError('INVALID_INTENT', `cannot register ${name}: ${problem}`);
    if (this.env.resolveName(name)) throw new PlanError('INTENT_REJECTED', `the name "${name}" is already registered`, { name });
    this.steps.push({ type: 'RegisterName', op: { type: 'RegisterName', name } as Operation, from: this.ntv, to: this.ntv, amountIn: 0n, estimatedOut: 0n, minOut: 0n, priceImpactBps: 0 });
    this.phrases.push(`Register the name ${name}`);
  }

  /** MintSynthetic / OpenPosition: priced by the integrator hook (src/intents/hooks.ts). */
  private hooked(goal: Extract<Goal, { type: 'MintSynthetic' | 'OpenPosition' }>): void {
    const hooks = this.env.hooks;
    const s = this.slippageBps;
    let quote: HookQuote | undefined;
    if (goal.type === 'MintSynthetic') {
      quote = hooks?.mintSynthetic?.({ sender: this.sender, synthetic: goal.synthetic, amount: goal.amount, payWith: goal.payWith, slippageBps: s });
    } else {
      quote = hooks?.openPosition?.({
        sender: this.sender, side: goal.side, leverage: goal.leverage, asset: goal.asset,
        collateral: { token: goal.collateral.token, raw: goal.collateral.raw, text: goal.collateral.text }, slippageBps: s,
      });
    }
    const what = goal.type === 'MintSynthetic'
      ? `Mint ${goal.amount.text} ${goal.synthetic} paid with ${goal.payWith.symbol}`
      : `Open a ${goal.leverage}x ${goal.side} ${goal.asset} position with ${amountText(goal.collateral.raw, goal.collateral.token)} collateral`;
    if (!quote) {
      // Not a spec §7.3 condition, so a note; submit refuses it (spec §4.8: pricing is the integrator's).
      const note = missingHookNote(goal.type);
      this.note(note);
      this.reject(new PlanError('UNAVAILABLE_ON_NODE', `${what}: ${note}`, { goal: goal.type }));
      if (goal.type === 'OpenPosition') this.market.spend(goal.collateral.token, goal.collateral.raw);
      this.phrases.push(`${what} (not priced: no integrator hook)`);
      return;
    }
    for (const w of quote.notes ?? []) this.note(w);
    this.market.spend(quote.pays.token, quote.pays.amount);
    quote.operations.forEach((op, i) => {
      this.steps.push({
        type: `${goal.type}${quote.operations.length > 1 ? ` (${i + 1})` : ''}`, op, from: quote.pays.token, to: quote.pays.token,
        amountIn: i === 0 ? quote.pays.amount : 0n, estimatedOut: 0n, minOut: 0n, priceImpactBps: i === 0 ? quote.priceImpactBps ?? 0 : 0,
      });
    });
    this.phrases.push(`${what} via ${hooks!.name}: ${quote.summary}`);
  }

  // ---- the bundle ---------------------------------------------------------------------------

  finish(constraints: Constraints): Plan {
    const operations = this.steps.map((s) => s.op);
    if (operations.length > MAX_OPERATIONS) {
      throw new PlanError('INTENT_REJECTED', `the plan needs ${operations.length} operations; a bundle holds at most ${MAX_OPERATIONS}`, { operations: operations.length });
    }
    if (operations.length === 0) this.reject(new PlanError('INTENT_REJECTED', 'the plan has no operations to execute'));
    const gas = operations.length > 0 ? this.env.bundleGas(operations) : 0n;
    const fee = gas * this.env.gasPrice;
    if (constraints.maxFee !== undefined && fee > constraints.maxFee) {
      throw new PlanError('INTENT_REJECTED', `the plan costs ${amountText(fee, this.ntv)} in fees, above the max fee of ${amountText(constraints.maxFee, this.ntv)}`, {
        required_fee: fee.toString(), max_fee: constraints.maxFee.toString(), gas: gas.toString(),
      });
    }
    if (constraints.gasLimit !== undefined && gas > constraints.gasLimit) {
      throw new PlanError('INTENT_REJECTED', `the plan needs ${gas} gas, above the gas limit of ${constraints.gasLimit}`, {
        required_gas: gas.toString(), gas_limit: constraints.gasLimit.toString(),
      });
    }
    let maxGas = gas;
    if (constraints.gasLimit !== undefined) maxGas = constraints.gasLimit;
    else if (constraints.maxFee !== undefined && this.env.gasPrice > 0n) maxGas = constraints.maxFee / this.env.gasPrice;
    if (maxGas > U64_MAX) maxGas = U64_MAX;
    if (fee > 0n) this.market.chargeFirst(this.ntv, fee);

    const byToken = this.market.draws();
    const short = byToken.find((d) => d.required > d.available);
    const primary = short ?? byToken[0] ?? { token: this.ntv, required: 0n, available: this.market.committedBalance(this.ntv) };
    if (short) this.warn(WARNINGS.INSUFFICIENT_BALANCE);
    if (short && this.stakeSpent) {
      this.reject(new PlanError('INSUFFICIENT_BALANCE', `the plan needs ${amountText(short.required, short.token)} (fee included) but the sender holds ${amountText(short.available, short.token)}`, {
        required: short.required.toString(), available: short.available.toString(), token: short.token.symbol,
      }));
    }

    const swaps = this.steps.filter((s) => s.op.type === 'Swap');
    const keep = swaps.reduce((acc, s) => (acc * BigInt(10_000 - Math.min(s.priceImpactBps, 10_000))) / 10_000n, 10_000n);
    // Spec §7.3 strings in the table's order, whatever order the steps raised them in.
    const order: string[] = Object.values(WARNINGS);
    const warnings = [...this.warnings].sort((a, b) => order.indexOf(a) - order.indexOf(b));
    return {
      sender: this.sender,
      steps: this.steps,
      operations,
      summary: this.phrases.join('; then ') || 'Nothing to do',
      hops: this.hops,
      totalImpactBps: 10_000 - Number(keep),
      maxImpactBps: swaps.reduce((m, s) => Math.max(m, s.priceImpactBps), 0),
      slippageBps: constraints.slippageBps ?? DEFAULT_SLIPPAGE_BPS,
      warnings,
      notes: [...this.notes],
      rejection: this.rejection,
      balance: { sufficient: !short, token: primary.token, required: primary.required, available: primary.available, byToken },
      gas,
      fee,
      maxGas,
      deadlineSeconds: constraints.deadlineSeconds ?? DEFAULT_DEADLINE_SECONDS,
    };
  }
}

/** `direct` or `auto-routed (<n> hops)` (spec §2.6). */
export function routeType(plan: Plan): string {
  return plan.hops >= 2 ? `auto-routed (${plan.hops} hops)` : 'direct';
}
