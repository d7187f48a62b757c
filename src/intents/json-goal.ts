import { GAS_BASE } from '../abi/constants.js';
import { AddressError, parseAddressDetailed } from '../codec/address.js';
import { canonicalName, nameProblem, NAME_SUFFIX } from '../domains/names/reader.js';
import { AmountError, splitDecimal, toBps, toInteger, toPrice, toRawAmount, U64_MAX } from './amounts.js';
import type { Constraints, Goal, GoalType, ParsedIntent, Recipient, TokenAmount, TokenRef, ValidatorRef } from './goals.js';
import { IntentParseError } from './parse-error.js';
import { validatorRef } from './validators.js';
import { chainName, defaultBase, isSyntheticSymbol, SYNTHETIC_DECIMALS, tokenRef, type IntentContext } from './symbols.js';

/**
 * JSON goals (spec §4.8: "string is natural language or JSON"; docs/intents.md "JSON goals"): an
 * object with `goal` naming the §2.6 goal type, that type's fields in snake_case, and optional
 * `constraints`. Amounts, prices and the fee cap are decimal strings in human units (a JSON number
 * could have lost digits before we see it); percents may be strings or numbers; counts are integers.
 * Unknown fields are refused, so a typo is an error naming the field, not an ignored setting.
 */

type Json = Record<string, unknown>;

const FIELDS: Record<GoalType, string[]> = {
  Swap: ['amount_in', 'token_in', 'token_out'],
  Acquire: ['amount_out', 'token_out', 'token_in', 'max_cost'],
  Composite: ['steps'],
  Stake: ['amount', 'token', 'validator'],
  ProvideLiquidity: ['amount_a', 'token_a', 'amount_b', 'token_b'],
  Transfer: ['amount', 'token', 'to'],
  Bridge: ['amount', 'token', 'chain'],
  Liquidate: ['amount', 'token', 'keeping', 'excluding'],
  Rebalance: ['targets'],
  Allocate: ['amount', 'token', 'stake_percent', 'liquidity_percent'],
  Recurring: ['then', 'every', 'interval_seconds', 'runs'],
  Conditional: ['then', 'direction', 'price', 'base', 'quote'],
  MintSynthetic: ['synthetic', 'amount', 'pay_with'],
  OpenPosition: ['side', 'leverage', 'asset', 'amount', 'token'],
  Custom: ['action', 'name'],
};
const CONSTRAINT_FIELDS = ['slippage_percent', 'deadline_seconds', 'max_fee', 'gas_limit'];
const INTERVALS: Record<string, number> = { hour: 3600, day: 86_400, week: 604_800 };
const MAX_DEPTH = 4;

export function parseJsonGoal(text: string, ctx: IntentContext): ParsedIntent {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new IntentParseError(text.length > 60 ? text.slice(0, 60) + '…' : text, `not valid JSON: ${(error as Error).message}`, 0);
  }
  const root = object(value, '(root)');
  const constraints = root.constraints === undefined ? {} : constraintsOf(object(root.constraints, 'constraints'));
  const goal = new JsonGoals(ctx).goal(root, '', 0, ['constraints']);
  return { goal, constraints, language: 'en', normalized: JSON.stringify(root), source: 'json' };
}

class JsonGoals {
  constructor(private readonly ctx: IntentContext) {}

  goal(o: Json, path: string, depth: number, extra: string[] = []): Goal {
    if (depth > MAX_DEPTH) throw bad(path || '(root)', `goals nest at most ${MAX_DEPTH} deep`);
    const type = o.goal;
    if (typeof type !== 'string' || !Object.hasOwn(FIELDS, type)) {
      throw bad(at(path, 'goal'), `must be one of ${Object.keys(FIELDS).join(', ')}`);
    }
    const allowed = new Set(['goal', ...extra, ...FIELDS[type as GoalType]]);
    for (const key of Object.keys(o)) if (!allowed.has(key)) throw bad(at(path, key), `is not a field of a ${type} goal (fields: ${[...allowed].join(', ')})`);
    const f = (key: string) => at(path, key);
    switch (type as GoalType) {
      case 'Swap': {
        const amountIn = this.amount(o, 'amount_in', 'token_in', path);
        const tokenOut = this.token(o, 'token_out', path);
        distinct(amountIn.token, tokenOut, f('token_out'));
        return { type: 'Swap', amountIn, tokenOut };
      }
      case 'Acquire': {
        const amountOut = this.amount(o, 'amount_out', 'token_out', path);
        const tokenIn = this.token(o, 'token_in', path);
        distinct(amountOut.token, tokenIn, f('token_in'));
        if (o.max_cost === undefined) return { type: 'Acquire', amountOut, tokenIn };
        return { type: 'Acquire', amountOut, tokenIn, maxCost: { token: tokenIn, raw: raw(str(o, 'max_cost', path), tokenIn.decimals, f('max_cost')), text: o.max_cost as string } };
      }
      case 'Composite': {
        const steps = array(o.steps, f('steps'));
        if (steps.length < 2) throw bad(f('steps'), 'a Composite needs at least two steps');
        return { type: 'Composite', steps: steps.map((s, i) => this.goal(object(s, `${f('steps')}[${i}]`), `${f('steps')}[${i}]`, depth + 1)) };
      }
      case 'Stake': {
        const amount = this.amount(o, 'amount', 'token', path);
        if (o.validator === undefined) return { type: 'Stake', amount };
        return { type: 'Stake', amount, validator: validator(str(o, 'validator', path), f('validator')) };
      }
      case 'ProvideLiquidity': {
        const a = this.amount(o, 'amount_a', 'token_a', path);
        const b = this.amount(o, 'amount_b', 'token_b', path);
        distinct(a.token, b.token, f('token_b'));
        return { type: 'ProvideLiquidity', a, b };
      }
      case 'Transfer':
        return { type: 'Transfer', amount: this.amount(o, 'amount', 'token', path), to: recipient(str(o, 'to', path), f('to')) };
      case 'Bridge': {
        const chain = chainName(str(o, 'chain', path).toLowerCase());
        if (!chain) throw bad(f('chain'), `unknown chain; known chains: ${chainName.known()}`);
        return { type: 'Bridge', amount: this.amount(o, 'amount', 'token', path), chain };
      }
      case 'Liquidate': {
        const target = this.amount(o, 'amount', 'token', path);
        const list = (key: string) => (o[key] === undefined ? [] : array(o[key], f(key)).map((s, i) => this.symbol(s, `${f(key)}[${i}]`)));
        return { type: 'Liquidate', target, keeping: list('keeping'), excluding: list('excluding') };
      }
      case 'Rebalance': {
        const targets = array(o.targets, f('targets')).map((t, i) => {
          const p = `${f('targets')}[${i}]`;
          const e = object(t, p);
          for (const key of Object.keys(e)) if (key !== 'token' && key !== 'percent') throw bad(`${p}.${key}`, 'is not a field of a target (token, percent)');
          const bps = percent(e.percent, `${p}.percent`);
          if (bps === 0) throw bad(`${p}.percent`, 'must be greater than 0');
          return { token: this.token(e, 'token', p), bps };
        });
        if (targets.length === 0) throw bad(f('targets'), 'needs at least one target');
        const sum = targets.reduce((s, t) => s + t.bps, 0);
        if (sum !== 10_000) throw bad(f('targets'), `the percents sum to ${sum / 100}, not 100`);
        return { type: 'Rebalance', targets };
      }
      case 'Allocate': {
        const stakeBps = percent(o.stake_percent, f('stake_percent'));
        const liquidityBps = percent(o.liquidity_percent, f('liquidity_percent'));
        if (stakeBps + liquidityBps !== 10_000) throw bad(f('liquidity_percent'), `stake_percent + liquidity_percent is ${(stakeBps + liquidityBps) / 100}, not 100`);
        return { type: 'Allocate', amount: this.amount(o, 'amount', 'token', path), stakeBps, liquidityBps };
      }
      case 'Recurring': {
        const inner = this.goal(object(o.then, f('then')), f('then'), depth + 1);
        if (inner.type !== 'Swap' && inner.type !== 'Acquire' && inner.type !== 'MintSynthetic' && inner.type !== 'Conditional') {
          throw bad(f('then'), 'only a Swap, Acquire, MintSynthetic or Conditional goal can recur');
        }
        let intervalSeconds: number;
        if (o.every !== undefined) {
          const every = INTERVALS[str(o, 'every', path)];
          if (every === undefined) throw bad(f('every'), 'must be "hour", "day" or "week"');
          if (o.interval_seconds !== undefined) throw bad(f('interval_seconds'), 'give either every or interval_seconds');
          intervalSeconds = every;
        } else {
          intervalSeconds = integer(o.interval_seconds, 60, 31_536_000, f('interval_seconds'));
        }
        return { type: 'Recurring', goal: inner, intervalSeconds, runs: integer(o.runs, 1, 10_000, f('runs')) };
      }
      case 'Conditional': {
        const inner = this.goal(object(o.then, f('then')), f('then'), depth + 1);
        if (inner.type !== 'Swap' && inner.type !== 'Acquire') throw bad(f('then'), 'only a Swap or Acquire goal can be conditional');
        const direction = str(o, 'direction', path);
        if (direction !== 'below' && direction !== 'above') throw bad(f('direction'), 'must be "below" or "above"');
        let price;
        try {
          price = toPrice(str(o, 'price', path));
        } catch (error) {
          throw amountError(error, f('price'));
        }
        const [tin, tout] = inner.type === 'Swap' ? [inner.amountIn.token, inner.tokenOut] : [inner.tokenIn, inner.amountOut.token];
        const quoteGiven = o.quote === undefined ? undefined : this.token(o, 'quote', path);
        const base = o.base !== undefined ? this.token(o, 'base', path)
          : quoteGiven ? (sameMint(quoteGiven, tin) ? tout : tin) : defaultBase(tin, tout, false);
        const quote = quoteGiven ?? (sameMint(base, tin) ? tout : tin);
        const pair = (x: TokenRef) => sameMint(x, tin) || sameMint(x, tout);
        if (!pair(base) || !pair(quote) || sameMint(base, quote)) throw bad(f(o.base === undefined ? 'quote' : 'base'), 'base and quote must be the inner goal\'s two tokens');
        return { type: 'Conditional', goal: inner, condition: { direction, price, base, quote } };
      }
      case 'MintSynthetic': {
        const synthetic = str(o, 'synthetic', path);
        if (this.ctx.tokens.resolve(synthetic) || !isSyntheticSymbol(synthetic, this.ctx)) {
          throw bad(f('synthetic'), 'must be a synthetic symbol: lower-case "s" then a known underlying not itself a token, e.g. sTSLA, sBTC');
        }
        const text = str(o, 'amount', path);
        return {
          type: 'MintSynthetic', synthetic,
          amount: { raw: raw(text, SYNTHETIC_DECIMALS, f('amount')), text, decimals: SYNTHETIC_DECIMALS },
          payWith: this.token(o, 'pay_with', path),
        };
      }
      case 'OpenPosition': {
        const side = str(o, 'side', path);
        if (side !== 'long' && side !== 'short') throw bad(f('side'), 'must be "long" or "short"');
        const asset = str(o, 'asset', path);
        if (!/^[A-Za-z][A-Za-z0-9]{0,15}$/.test(asset)) throw bad(f('asset'), 'must be an asset symbol such as BTC or TSLA');
        return {
          type: 'OpenPosition', side, leverage: integer(o.leverage, 1, 100, f('leverage')),
          asset: isSyntheticSymbol(asset, this.ctx) ? asset : asset.toUpperCase(), collateral: this.amount(o, 'amount', 'token', path),
        };
      }
      case 'Custom': {
        if (o.action !== 'register_name') throw bad(f('action'), 'the only Custom action is "register_name"');
        const name = str(o, 'name', path);
        const label = canonicalName(name);
        if (!label) throw bad(f('name'), nameProblem(name) ?? 'not a valid name');
        return { type: 'Custom', action: 'register_name', name: label + NAME_SUFFIX };
      }
    }
  }

  private amount(o: Json, amountKey: string, tokenKey: string, path: string): TokenAmount {
    const token = this.token(o, tokenKey, path);
    const text = str(o, amountKey, path);
    return { token, raw: raw(text, token.decimals, at(path, amountKey)), text };
  }

  private token(o: Json, key: string, path: string): TokenRef {
    return this.symbol(o[key], at(path, key));
  }

  private symbol(v: unknown, field: string): TokenRef {
    if (typeof v !== 'string' || v === '') throw bad(field, v === undefined ? 'is missing' : 'must be a token symbol or mint address (string)');
    const t = this.ctx.tokens.resolve(v);
    if (!t) throw bad(field, `unknown token "${v}": no token has that symbol or mint address`);
    return tokenRef(t);
  }
}

function constraintsOf(o: Json): Constraints {
  const c: Constraints = {};
  for (const key of Object.keys(o)) if (!CONSTRAINT_FIELDS.includes(key)) throw bad(`constraints.${key}`, `is not a constraint (constraints: ${CONSTRAINT_FIELDS.join(', ')})`);
  if (o.slippage_percent !== undefined) c.slippageBps = percent(o.slippage_percent, 'constraints.slippage_percent');
  if (o.deadline_seconds !== undefined) c.deadlineSeconds = integer(o.deadline_seconds, 1, 31_536_000, 'constraints.deadline_seconds');
  if (o.max_fee !== undefined) {
    const text = str(o, 'max_fee', 'constraints');
    try {
      const { int, frac } = splitDecimal(text);
      c.maxFee = /^0*$/.test(int + frac) ? 0n : toRawAmount(text, 9);
    } catch (error) {
      throw amountError(error, 'constraints.max_fee');
    }
  }
  if (o.gas_limit !== undefined) {
    const v = o.gas_limit;
    const text = typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : typeof v === 'string' ? v : '';
    try {
      c.gasLimit = toInteger(text, GAS_BASE, U64_MAX, 'the gas limit');
    } catch (error) {
      throw amountError(error, 'constraints.gas_limit');
    }
  }
  return c;
}

function object(v: unknown, field: string): Json {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw bad(field, 'must be a JSON object');
  return v as Json;
}

function array(v: unknown, field: string): unknown[] {
  if (!Array.isArray(v)) throw bad(field, 'must be an array');
  return v;
}

function str(o: Json, key: string, path: string): string {
  const v = o[key];
  if (typeof v !== 'string' || v === '') {
    throw bad(at(path, key), v === undefined ? 'is missing' : typeof v === 'number' ? 'must be a decimal string (e.g. "1.5"), not a JSON number' : 'must be a non-empty string');
  }
  return v;
}

function raw(text: string, decimals: number, field: string): bigint {
  try {
    return toRawAmount(text, decimals);
  } catch (error) {
    throw amountError(error, field);
  }
}

function percent(v: unknown, field: string): number {
  const text = typeof v === 'number' && Number.isFinite(v) && v >= 0 ? String(v) : typeof v === 'string' ? v : undefined;
  if (text === undefined) throw bad(field, v === undefined ? 'is missing' : 'must be a percent, e.g. "0.5"');
  try {
    return toBps(text);
  } catch (error) {
    throw amountError(error, field);
  }
}

function integer(v: unknown, min: number, max: number, field: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw bad(field, v === undefined ? 'is missing' : `must be a whole number from ${min} to ${max}`);
  }
  return v;
}

function validator(text: string, field: string): ValidatorRef {
  try {
    return validatorRef(text);
  } catch (error) {
    if (!(error instanceof AddressError)) throw error;
    throw bad(field, `must be an Nx0… address, a 64-hex consensus key or a validator name (${error.message})`);
  }
}

function recipient(text: string, field: string): Recipient {
  if (/^(Nx|0x)/i.test(text)) {
    try {
      const parsed = parseAddressDetailed(text);
      if (parsed.kind !== 'mint') return { kind: 'address', address: parsed.bytes, text };
    } catch (error) {
      if (!(error instanceof AddressError)) throw error;
      throw bad(field, error.message);
    }
    throw bad(field, 'is a token mint (Nx1…), not an account');
  }
  const label = canonicalName(text);
  if (!label) throw bad(field, `must be an address or a name: ${nameProblem(text)}`);
  return { kind: 'name', name: label + NAME_SUFFIX };
}

function distinct(a: TokenRef, b: TokenRef, field: string): void {
  if (sameMint(a, b)) throw bad(field, `both tokens are ${a.symbol}; they must differ`);
}

function sameMint(a: TokenRef, b: TokenRef): boolean {
  return Buffer.compare(a.mint, b.mint) === 0;
}

function amountError(error: unknown, field: string): IntentParseError {
  if (error instanceof AmountError) return bad(field, error.message);
  throw error;
}

function at(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function bad(field: string, reason: string): IntentParseError {
  return new IntentParseError(field, reason);
}
