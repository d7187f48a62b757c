import { AddressError, parseAddressDetailed } from '../codec/address.js';
import { canonicalName, nameProblem, NAME_SUFFIX } from '../domains/names/reader.js';
import { AmountError, isDecimal, toBps, toInteger, toPrice, toRawAmount } from './amounts.js';
import { extractConstraints, isPercentSign } from './constraints.js';
import type { Goal, ParsedIntent, Price, Recipient, TokenAmount, TokenRef, ValidatorRef } from './goals.js';
import { parseJsonGoal } from './json-goal.js';
import { detectLanguage, fold, normalize, reorder, tokenize, type Word } from './languages.js';
import { IntentParseError } from './parse-error.js';
import { validatorRef } from './validators.js';
import { chainName, defaultBase, isSyntheticSymbol, SYNTHETIC_DECIMALS, tokenRef, type IntentContext } from './symbols.js';

export { IntentParseError } from './parse-error.js';
export type { IntentContext, TokenResolver } from './symbols.js';

/**
 * The intent parser (spec §4.8 grammar, §2.6 goal types; docs/intents.md "Parsing"): natural
 * language in seven languages, or a JSON goal, into exactly the types of src/intents/goals.ts.
 *
 *   text ─ tokenize ─ detect language ─ normalise to English ─ take out constraints ─ reorder
 *        ─ goal grammar (recurrence and condition suffixes, then one pattern per first word)
 *
 * Pure and synchronous: the tables and regexes are built once at load; a call allocates only its
 * words and the result. Anything not understood throws IntentParseError naming the text, never a
 * silent Custom goal. Token symbols and mints resolve through the caller's registry at parse time,
 * so amounts are exact raw units with each token's on-chain decimals.
 */
export function parseIntent(text: string, ctx: IntentContext): ParsedIntent {
  if (typeof text !== 'string') throw new IntentParseError('', 'the intent must be a string');
  const trimmed = text.trim();
  if (trimmed === '') throw new IntentParseError('', 'the intent is empty');
  if (trimmed.length > MAX_INTENT_LENGTH) throw new IntentParseError(trimmed.slice(0, 40) + '…', `the intent is longer than ${MAX_INTENT_LENGTH} characters`, 0);
  if (trimmed.startsWith('{')) return parseJsonGoal(trimmed, ctx);

  const tokens = tokenize(text);
  const language = detectLanguage(tokens);
  const words = normalize(tokens, language);
  const { constraints, rest } = extractConstraints(words, text);
  const goalWords = reorder(rest, language);
  if (goalWords.length === 0) throw new IntentParseError(trimmed, 'there is no goal, only constraints', 0);
  const goal = new Grammar(text, goalWords, ctx).intent();
  return { goal, constraints, language, normalized: goalWords.map(englishForm).join(' '), source: 'nl' };
}

/** Intents are sentences; a longer input is refused before any work (spec §8 limits spirit). */
export const MAX_INTENT_LENGTH = 2_000;

/** The normalised sentence: English keywords in lower case, everything else as written. */
const englishForm = (w: Word): string => {
  if (w.en === 'atmost') return 'at most';
  if (isDecimal(w.raw)) return w.raw;
  return w.en !== fold(w.raw) || GRAMMAR_WORDS.has(w.en) ? w.en : w.raw;
};
const GRAMMAR_WORDS = new Set([
  'swap', 'convert', 'trade', 'exchange', 'sell', 'dump', 'buy', 'get', 'purchase', 'stake', 'deposit', 'add', 'provide', 'liquidity',
  'send', 'pay', 'transfer', 'bridge', 'liquidate', 'rebalance', 'put', 'allocate', 'split', 'open', 'long', 'short', 'perp', 'limit',
  'register', 'name', 'with', 'for', 'to', 'into', 'from', 'and', 'every', 'if', 'price', 'below', 'above', 'at', 'max', 'keeping',
  'excluding', 'validator', 'hour', 'hours', 'day', 'days', 'week', 'weeks', 'daily', 'weekly', 'hourly',
]);

const SWAP_VERBS = new Set(['swap', 'convert', 'trade', 'exchange', 'sell', 'dump']);
const BUY_VERBS = new Set(['buy', 'get', 'purchase']);
const TO_WORDS = new Set(['for', 'to', 'into']);
const WITH_WORDS = new Set(['with', 'using', 'for', 'from', 'paying']);
const DIRECTION: Record<string, 'below' | 'above'> = { below: 'below', under: 'below', above: 'above', over: 'above' };
const PRICE_FILLERS = new Set(['is', 'goes', 'drops', 'falls', 'rises', 'gets', 'price', 'of', 'the']);
const INTERVAL_SECONDS: Record<string, number> = { hour: 3600, hours: 3600, day: 86_400, days: 86_400, week: 604_800, weeks: 604_800 };
const ADVERB_INTERVAL: Record<string, string> = { hourly: 'hour', daily: 'day', weekly: 'week' };
const KEEP_WORDS = new Set(['keeping', 'keep', 'except', 'excluding', 'exclude', 'without']);
/** Recurring runs are bounded so a typo cannot schedule years of swaps (docs/intents.md). */
const MAX_RUNS = 10_000;
/** Leverage of a position (STD-71 perps): whole numbers 1–100 (docs/intents.md). */
const MAX_LEVERAGE = 100n;
const LEVERAGE = /^(\d+)x$/;
const ASSET = /^[A-Za-z][A-Za-z0-9]{0,15}$/;
const NUMERIC = /^[\d.,]*\d[\d.,]*$/;

/** Recursive descent over the normalised words; `end` bounds the part being parsed. */
class Grammar {
  constructor(private readonly text: string, private readonly w: Word[], private readonly ctx: IntentContext) {}

  intent(): Goal {
    return this.goal(0, this.w.length);
  }

  // ---- structure ---------------------------------------------------------------------------

  /** A goal over w[from, to): recurrence outermost, then a condition, then a plain pattern. */
  private goal(from: number, to: number): Goal {
    if (from >= to) throw this.failEnd(to, 'expected a goal');
    const every = this.findRecurrence(from, to);
    if (every >= 0) {
      // "every …" leads ("every day for 7 days buy …") or trails the goal ("… every day for 7 days").
      const leading = every === from;
      const clauseEnd = leading ? this.recurrenceEnd(from, to) : to;
      const { intervalSeconds, runs } = this.recurrence(every, clauseEnd);
      const inner = leading ? this.goal(clauseEnd, to) : this.goal(from, every);
      if (inner.type !== 'Swap' && inner.type !== 'Acquire' && inner.type !== 'MintSynthetic' && inner.type !== 'Conditional') {
        throw this.failRange(from, to, `only a swap or a buy can recur ("every …"), not ${article(inner.type)}`);
      }
      return { type: 'Recurring', goal: inner, intervalSeconds, runs };
    }
    const cond = this.indexOf('if', from, to);
    if (cond > from) {
      const inner = this.goal(from, cond);
      return this.condition(inner, cond, to, this.w[from]!.en === 'sell');
    }
    return this.plain(from, to);
  }

  private plain(from: number, to: number): Goal {
    const first = this.w[from]!.en;
    if (SWAP_VERBS.has(first)) return this.swap(from, to);
    if (BUY_VERBS.has(first)) return this.acquire(from, to);
    switch (first) {
      case 'stake': case 'deposit': return this.stake(from, to);
      case 'add': case 'provide': return this.liquidity(from, to);
      case 'send': case 'pay': case 'transfer': return this.transfer(from, to);
      case 'bridge': return this.bridge(from, to);
      case 'liquidate': return this.liquidate(from, to);
      case 'rebalance': return this.rebalance(from, to);
      case 'put': case 'allocate': return this.allocate(from, to);
      case 'open': case 'long': case 'short': return this.position(from, to);
      case 'limit': return this.limit(from, to);
      case 'register': return this.register(from, to);
      default:
        throw this.failRange(from, to, `no intent pattern starts with "${this.w[from]!.raw}"; intents start with a verb such as swap, buy, send, `
          + 'stake, add liquidity, bridge, liquidate, rebalance, put, open, limit buy or register');
    }
  }

  // ---- patterns ----------------------------------------------------------------------------

  /** swap|convert|trade|sell <a> <t> for|to <t>; swap <a> <t1> and <b> <t2> for <t3> (Composite). */
  private swap(from: number, to: number): Goal {
    let i = from + 1;
    const first = this.amountAndToken(i, to);
    i = first.next;
    if (this.is(i, 'and') || this.is(i, ',')) {
      const second = this.amountAndToken(i + 1, to);
      i = second.next;
      this.expectOne(i, to, TO_WORDS, 'for/to and the token to receive');
      const out = this.token(i + 1, to);
      this.end(i + 2, to);
      for (const leg of [first.amount, second.amount]) this.distinct(leg.token, out, i + 1);
      return {
        type: 'Composite',
        steps: [{ type: 'Swap', amountIn: first.amount, tokenOut: out }, { type: 'Swap', amountIn: second.amount, tokenOut: out }],
      };
    }
    this.expectOne(i, to, TO_WORDS, 'for/to and the token to receive');
    const out = this.token(i + 1, to);
    this.distinct(first.amount.token, out, i + 1);
    this.end(i + 2, to);
    return { type: 'Swap', amountIn: first.amount, tokenOut: out };
  }

  /**
   * buy|get|purchase <a> <t> [with|using|for <t>] [max <n> <t> | at most <n> <t> | for <n> <t>];
   * a symbol not in the registry that names a synthetic (STD-71) is MintSynthetic.
   */
  private acquire(from: number, to: number): Goal {
    let i = from + 1;
    const amountWord = this.need(i, to, 'an amount');
    this.need(i + 1, to, 'a token after the amount');
    const outWord = this.w[i + 1]!;
    const synthetic = !this.ctx.tokens.resolve(outWord.raw) && isSyntheticSymbol(outWord.raw, this.ctx);
    let amountOut: TokenAmount | undefined;
    let syntheticAmount: { raw: bigint; text: string; decimals: number } | undefined;
    if (synthetic) {
      syntheticAmount = { raw: this.raw(amountWord, i, SYNTHETIC_DECIMALS), text: amountWord.raw, decimals: SYNTHETIC_DECIMALS };
    } else {
      amountOut = this.amountAndToken(i, to).amount;
    }
    i += 2;
    let tokenIn: TokenRef | undefined;
    let maxCost: TokenAmount | undefined;
    while (i < to) {
      const en = this.w[i]!.en;
      if ((en === 'max' || en === 'maximum' || en === 'atmost') || ((en === 'with' || en === 'for' || en === ',' || en === 'and') && this.isCostCap(i + 1, to))) {
        const at = en === 'max' || en === 'maximum' || en === 'atmost' ? i : i + 1;
        const skip = this.w[at]!.en === 'max' || this.w[at]!.en === 'maximum' || this.w[at]!.en === 'atmost' ? 1 : 0;
        if (maxCost) throw this.failRange(at, to, 'the maximum cost is given twice');
        const cap = this.amountAndToken(at + skip, to);
        maxCost = cap.amount;
        i = cap.next;
        continue;
      }
      if (WITH_WORDS.has(en) && !tokenIn) {
        tokenIn = this.token(i + 1, to);
        i += 2;
        continue;
      }
      throw this.failRange(i, to, 'expected "with <token>" or a maximum cost such as "max 2000 USDC" after what to buy');
    }
    if (maxCost && tokenIn && !sameMint(maxCost.token, tokenIn)) {
      throw this.failRange(from, to, `the maximum cost is in ${maxCost.token.symbol} but the intent pays with ${tokenIn.symbol}`);
    }
    const payWith = tokenIn ?? maxCost?.token;
    if (!payWith) throw this.failRange(from, to, `say what to pay with, e.g. "with USDC" or "max 2000 USDC"`);
    if (syntheticAmount) {
      if (maxCost) throw this.failRange(from, to, 'a synthetic is priced by its oracle; a maximum cost is not supported for it');
      return { type: 'MintSynthetic', synthetic: outWord.raw, amount: syntheticAmount, payWith };
    }
    this.distinct(amountOut!.token, payWith, from + 2);
    return maxCost ? { type: 'Acquire', amountOut: amountOut!, tokenIn: payWith, maxCost } : { type: 'Acquire', amountOut: amountOut!, tokenIn: payWith };
  }

  /** stake|deposit <a> <t> [with|to|on|via [validator] <Nx0…|0x+64 hex|64 hex|name>] */
  private stake(from: number, to: number): Goal {
    const { amount, next } = this.amountAndToken(from + 1, to);
    let i = next;
    if (i >= to) return { type: 'Stake', amount };
    if (['with', 'to', 'on', 'via', 'at'].includes(this.w[i]!.en)) i++;
    if (this.is(i, 'validator')) i++;
    const v = this.need(i, to, 'a validator address, 64-hex consensus key or name');
    this.end(i + 1, to);
    return { type: 'Stake', amount, validator: this.validator(v, i) };
  }

  /** add|provide liquidity [with|of] <a> <t1> and <b> <t2>; add <a> <t1> and <b> <t2> [as] liquidity */
  private liquidity(from: number, to: number): Goal {
    let i = from + 1;
    const leading = this.is(i, 'liquidity');
    if (leading) i++;
    if (this.is(i, 'with') || this.is(i, 'of') || this.is(i, 'to')) i++;
    const a = this.amountAndToken(i, to);
    i = a.next;
    if (this.is(i, ',')) {
      i++;
      if (this.is(i, 'and')) i++;
    } else {
      this.expectOne(i, to, new Set(['and', 'with', '+']), '"and" and the second amount');
      i++;
    }
    const b = this.amountAndToken(i, to);
    i = b.next;
    if (!leading) {
      if (this.is(i, 'as')) i++;
      this.expectOne(i, to, new Set(['liquidity']), '"liquidity"');
      i++;
    }
    this.end(i, to);
    this.distinct(a.amount.token, b.amount.token, i - 1);
    return { type: 'ProvideLiquidity', a: a.amount, b: b.amount };
  }

  /** send|pay <a> <t> to <address or name> */
  private transfer(from: number, to: number): Goal {
    const { amount, next } = this.amountAndToken(from + 1, to);
    this.expectOne(next, to, new Set(['to']), '"to" and the recipient');
    const r = this.need(next + 1, to, 'a recipient address or name');
    this.end(next + 2, to);
    return { type: 'Transfer', amount, to: this.recipient(r, next + 1) };
  }

  /** bridge <a> <t> from <chain> [and [then] swap|convert [it] to|for|into <t>] */
  private bridge(from: number, to: number): Goal {
    const { amount, next } = this.amountAndToken(from + 1, to);
    this.expectOne(next, to, new Set(['from']), '"from" and the source chain');
    const chainWord = this.need(next + 1, to, 'the source chain');
    const chain = chainName(chainWord.en);
    if (!chain) throw this.failWord(next + 1, `unknown chain "${chainWord.raw}"; known chains: ${chainName.known()}`);
    const bridge: Goal = { type: 'Bridge', amount, chain };
    let i = next + 2;
    if (i >= to) return bridge;
    this.expectOne(i, to, new Set(['and']), '"and swap to <token>" or nothing');
    i++;
    if (this.is(i, 'then')) i++;
    this.expectOne(i, to, SWAP_VERBS, '"swap to <token>"');
    i++;
    if (this.is(i, 'it') || this.is(i, 'them')) i++;
    this.expectOne(i, to, TO_WORDS, '"to <token>"');
    const out = this.token(i + 1, to);
    this.end(i + 2, to);
    this.distinct(amount.token, out, i + 1);
    return { type: 'Composite', steps: [bridge, { type: 'Swap', amountIn: amount, tokenOut: out }] };
  }

  /** liquidate [everything|all|portfolio] to|into <a> <t> [keeping|excluding <t>[, <t>][ and <t>]]… */
  private liquidate(from: number, to: number): Goal {
    let i = from + 1;
    while (this.is(i, 'everything') || this.is(i, 'all') || this.is(i, 'my') || this.is(i, 'portfolio')) i++;
    this.expectOne(i, to, new Set(['to', 'into', 'for']), '"to <amount> <token>"');
    const { amount, next } = this.amountAndToken(i + 1, to);
    const keeping: TokenRef[] = [];
    const excluding: TokenRef[] = [];
    i = next;
    while (i < to) {
      if (this.is(i, ',') || this.is(i, 'and') || this.is(i, 'but')) {
        i++;
        continue;
      }
      const kw = this.w[i]!.en;
      if (!KEEP_WORDS.has(kw)) throw this.failRange(i, to, 'expected "keeping <tokens>" or "excluding <tokens>"');
      const list = kw === 'keeping' || kw === 'keep' ? keeping : excluding;
      i++;
      let n = 0;
      while (i < to && !KEEP_WORDS.has(this.w[i]!.en)) {
        if (this.is(i, ',') || this.is(i, 'and')) {
          i++;
          continue;
        }
        const t = this.token(i, to);
        if ([...keeping, ...excluding].some((x) => sameMint(x, t))) throw this.failWord(i, `${t.symbol} is listed twice`);
        list.push(t);
        n++;
        i++;
      }
      if (n === 0) throw this.failRange(i - 1, to, `"${kw}" needs at least one token`);
    }
    return { type: 'Liquidate', target: amount, keeping, excluding };
  }

  /** rebalance [portfolio] to <p>% <t1>, <p>% <t2>[,] [and] <p>% <t3> — must sum to 100% */
  private rebalance(from: number, to: number): Goal {
    let i = from + 1;
    while (this.is(i, 'my') || this.is(i, 'portfolio')) i++;
    this.expectOne(i, to, new Set(['to', 'into']), '"to <p>% <token>, …"');
    i++;
    const first = i;
    const targets: Array<{ token: TokenRef; bps: number }> = [];
    while (i < to) {
      if (this.is(i, ',') || this.is(i, 'and')) {
        i++;
        continue;
      }
      const bps = this.percent(i, to);
      const token = this.token(i + 2, to);
      if (targets.some((t) => sameMint(t.token, token))) throw this.failWord(i + 2, `${token.symbol} appears twice`);
      if (bps === 0) throw this.failRange(i, i + 3, 'each share must be greater than 0%');
      targets.push({ token, bps });
      i += 3;
    }
    if (targets.length === 0) throw this.failRange(from, to, 'rebalance needs target shares, e.g. "rebalance to 60% NTV, 40% USDC"');
    const sum = targets.reduce((s, t) => s + t.bps, 0);
    if (sum !== 10_000) throw this.failRange(first, to, `the shares sum to ${bpsText(sum)}, not 100%`);
    return { type: 'Rebalance', targets };
  }

  /** put|allocate <a> <t> [in|into|to] split <p>[%] [to|in|into] stake|staking [and|,] <q>[%] [to|in|into] liquidity */
  private allocate(from: number, to: number): Goal {
    const { amount, next } = this.amountAndToken(from + 1, to);
    let i = next;
    if (this.is(i, 'in') || this.is(i, 'into') || this.is(i, 'to') || this.is(i, ',')) i++;
    this.expectOne(i, to, new Set(['split']), '"split <p> stake <q> liquidity"');
    i++;
    const shares: Record<'stake' | 'liquidity', number | undefined> = { stake: undefined, liquidity: undefined };
    for (let k = 0; k < 2; k++) {
      if (k === 1 && (this.is(i, 'and') || this.is(i, ','))) i++;
      const n = this.need(i, to, 'a share');
      if (!isDecimal(n.raw)) throw this.failWord(i, 'expected a share such as 60 or 60%');
      const bps = this.bps(n, i);
      i++;
      if (isPercentSign(this.w[i])) i++;
      if (this.is(i, 'to') || this.is(i, 'in') || this.is(i, 'into') || this.is(i, 'for')) i++;
      const what = this.need(i, to, '"stake" or "liquidity"').en;
      const kind = what === 'stake' || what === 'staking' ? 'stake' : what === 'liquidity' || what === 'lp' ? 'liquidity' : undefined;
      if (!kind) throw this.failWord(i, 'expected "stake" or "liquidity"');
      if (shares[kind] !== undefined) throw this.failWord(i, `${kind} is given twice`);
      shares[kind] = bps;
      i++;
    }
    this.end(i, to);
    const stakeBps = shares.stake!;
    const liquidityBps = shares.liquidity!;
    if (stakeBps + liquidityBps !== 10_000) throw this.failRange(next, to, `the split sums to ${bpsText(stakeBps + liquidityBps)}, not 100%`);
    return { type: 'Allocate', amount, stakeBps, liquidityBps };
  }

  /**
   * open [a] [<n>x] long|short <asset> [perp] [<n>x] with <a> <t>;
   * long|short <asset> [<n>x] [perp] with <a> <t>. No leverage given: 1x.
   */
  private position(from: number, to: number): Goal {
    let i = from;
    let leverage: number | undefined;
    if (this.is(i, 'open')) {
      i++;
      if (this.is(i, 'a') || this.is(i, 'an')) i++;
      const lev = this.leverage(i, to);
      if (lev) {
        leverage = lev.value;
        i = lev.next;
      }
    }
    const sideWord = this.need(i, to, '"long" or "short"').en;
    if (sideWord !== 'long' && sideWord !== 'short') throw this.failWord(i, 'expected "long" or "short"');
    i++;
    const assetWord = this.need(i, to, 'the asset');
    if (!ASSET.test(assetWord.raw)) throw this.failWord(i, 'expected an asset symbol such as BTC or TSLA');
    const asset = isSyntheticSymbol(assetWord.raw, this.ctx) ? assetWord.raw : assetWord.raw.toUpperCase();
    i++;
    for (let k = 0; k < 3 && i < to; k++) {
      if (this.is(i, 'perp') || this.is(i, 'perpetual') || this.is(i, 'position')) {
        i++;
        continue;
      }
      const lev = this.leverage(i, to);
      if (!lev) break;
      if (leverage !== undefined) throw this.failWord(i, 'the leverage is given twice');
      leverage = lev.value;
      i = lev.next;
    }
    this.expectOne(i, to, new Set(['with', 'using']), '"with <amount> <token>" as collateral');
    const { amount, next } = this.amountAndToken(i + 1, to);
    this.end(next, to);
    return { type: 'OpenPosition', side: sideWord, leverage: leverage ?? 1, asset, collateral: amount };
  }

  /** limit buy <a> <t> at <price> <quote>; limit sell <a> <t> at <price> <quote> */
  private limit(from: number, to: number): Goal {
    const side = this.need(from + 1, to, '"buy" or "sell"').en;
    const buy = BUY_VERBS.has(side);
    if (!buy && side !== 'sell') throw this.failWord(from + 1, 'expected "limit buy" or "limit sell"');
    const { amount, next } = this.amountAndToken(from + 2, to);
    this.expectOne(next, to, new Set(['at', '@']), '"at <price> <token>"');
    const price = this.price(next + 1, to);
    const quote = this.token(next + 2, to);
    this.end(next + 3, to);
    this.distinct(amount.token, quote, next + 2);
    const goal: Goal = buy ? { type: 'Acquire', amountOut: amount, tokenIn: quote } : { type: 'Swap', amountIn: amount, tokenOut: quote };
    return { type: 'Conditional', goal, condition: { direction: buy ? 'below' : 'above', price, base: amount.token, quote } };
  }

  /** register [name|the name] <name> — the ".vex" suffix is optional (default) */
  private register(from: number, to: number): Goal {
    let i = from + 1;
    if (this.is(i, 'the')) i++;
    if (this.is(i, 'name') && i + 1 < to) i++;
    const n = this.need(i, to, 'the name to register');
    this.end(i + 1, to);
    const label = canonicalName(n.raw);
    if (!label) throw this.failWord(i, nameProblem(n.raw) ?? 'not a valid name');
    return { type: 'Custom', action: 'register_name', name: label + NAME_SUFFIX };
  }

  // ---- suffixes ------------------------------------------------------------------------------

  /** The index of a recurrence clause ("every …", "daily …") at the start or in w[from, to), or −1. */
  private findRecurrence(from: number, to: number): number {
    for (let i = from; i < to; i++) {
      const en = this.w[i]!.en;
      if (en === 'every' || ADVERB_INTERVAL[en] !== undefined) return i;
    }
    return -1;
  }

  /** Where a leading recurrence clause ends (the inner goal begins). */
  private recurrenceEnd(from: number, to: number): number {
    let i = from + 1;
    if (ADVERB_INTERVAL[this.w[from]!.en] === undefined) {
      if (i < to && isDecimal(this.w[i]!.raw)) i++;
      i++;
    }
    if (this.is(i, 'for')) i++;
    if (i < to && isDecimal(this.w[i]!.raw)) i += 2;
    if (this.is(i, ',')) i++;
    return i;
  }

  /** every [n] hour|day|week [for] <m> hours|days|weeks  |  hourly|daily|weekly [for] <m> <units> */
  private recurrence(from: number, to: number): { intervalSeconds: number; runs: number } {
    let i = from;
    let interval: number;
    const adverb = ADVERB_INTERVAL[this.w[i]!.en];
    if (adverb) {
      interval = INTERVAL_SECONDS[adverb]!;
      i++;
    } else {
      i++;
      let count = 1n;
      if (i < to && isDecimal(this.w[i]!.raw)) {
        count = this.integer(i, 1n, 1000n, 'the interval count');
        i++;
      }
      const unit = INTERVAL_SECONDS[this.need(i, to, 'hour, day or week').en];
      if (unit === undefined) throw this.failWord(i, 'expected hour, day or week after "every"');
      interval = Number(count) * unit;
      i++;
    }
    if (this.is(i, 'for')) i++;
    const n = this.need(i, to, 'how long, e.g. "for 7 days"');
    if (!isDecimal(n.raw)) throw this.failRange(i, to, 'expected how long it runs, e.g. "for 7 days"');
    const count = this.integer(i, 1n, 1_000_000n, 'the duration');
    const unit = INTERVAL_SECONDS[this.need(i + 1, to, 'hours, days or weeks').en];
    if (unit === undefined) throw this.failWord(i + 1, 'expected hours, days or weeks');
    const total = Number(count) * unit;
    this.end(i + 2, to);
    if (total % interval !== 0) throw this.failRange(from, to, `the duration is not a whole number of intervals (${total} s / ${interval} s)`);
    const runs = total / interval;
    if (runs > MAX_RUNS) throw this.failRange(from, to, `that is ${runs} runs; at most ${MAX_RUNS}`);
    return { intervalSeconds: interval, runs };
  }

  /**
   * if [<base>] [price] [is|goes|drops|rises…] below|under|above|over <price> [<quote>]. The pair is
   * the inner goal's; without tokens, the price is in the stablecoin side of the pair, else the base
   * is what a sell sells or what a buy or swap receives (symbols.ts defaultBase).
   */
  private condition(inner: Goal, from: number, to: number, sell: boolean): Goal {
    if (inner.type !== 'Swap' && inner.type !== 'Acquire') throw this.failRange(from, to, `only a swap or a buy can be conditional, not ${article(inner.type)}`);
    const [tin, tout] = inner.type === 'Swap' ? [inner.amountIn.token, inner.tokenOut] : [inner.tokenIn, inner.amountOut.token];
    let i = from + 1;
    let base: TokenRef | undefined;
    while (i < to && PRICE_FILLERS.has(this.w[i]!.en)) i++;
    if (i < to && DIRECTION[this.w[i]!.en] === undefined) {
      base = this.token(i, to);
      i++;
      while (i < to && PRICE_FILLERS.has(this.w[i]!.en)) i++;
    }
    const dir = DIRECTION[this.need(i, to, '"below" or "above"').en];
    if (!dir) throw this.failRange(i, to, 'expected "price below <price>" or "price above <price>"');
    const price = this.price(i + 1, to);
    let quote: TokenRef | undefined;
    if (i + 2 < to) {
      quote = this.token(i + 2, to);
      this.end(i + 3, to);
    }
    const pair = (t: TokenRef, at: number): TokenRef => {
      if (sameMint(t, tin)) return tout;
      if (sameMint(t, tout)) return tin;
      throw this.failWord(at, `${t.symbol} is not one of the intent's tokens (${tin.symbol}, ${tout.symbol})`);
    };
    if (base && quote) {
      if (!sameMint(pair(base, from + 1), quote)) throw this.failRange(from, to, 'the price tokens must be the intent\'s two tokens');
    } else if (base) {
      quote = pair(base, from + 1);
    } else if (quote) {
      base = pair(quote, i + 2);
    } else {
      base = defaultBase(tin, tout, sell);
      quote = sameMint(base, tin) ? tout : tin;
    }
    return { type: 'Conditional', goal: inner, condition: { direction: dir, price, base: base!, quote: quote! } };
  }

  // ---- pieces --------------------------------------------------------------------------------

  private amountAndToken(i: number, to: number): { amount: TokenAmount; next: number } {
    const a = this.need(i, to, 'an amount');
    if (!isDecimal(a.raw)) {
      if (NUMERIC.test(a.raw)) this.raw(a, i, 0); // throws the precise reason (decimal comma, grouping)
      if (i + 1 < to && isDecimal(this.w[i + 1]!.raw)) throw this.failWord(i, 'write the amount before the token, e.g. "10 USDC"');
      throw this.failWord(i, 'expected an amount such as 1.5 or 1,000');
    }
    const token = this.token(i + 1, to);
    return { amount: { token, raw: this.raw(a, i, token.decimals), text: a.raw }, next: i + 2 };
  }

  private token(i: number, to: number): TokenRef {
    const w = this.need(i, to, 'a token symbol');
    const t = this.ctx.tokens.resolve(w.raw);
    if (t) return tokenRef(t);
    if (isDecimal(w.raw)) throw this.failWord(i, 'expected a token symbol, got a number');
    if (isSyntheticSymbol(w.raw, this.ctx)) throw this.failWord(i, `${w.raw} is a synthetic (STD-71); synthetics are bought with "buy <amount> ${w.raw} with <token>"`);
    throw this.failWord(i, `unknown token "${w.raw}": no token has that symbol or mint address`);
  }

  private raw(w: Word, i: number, decimals: number): bigint {
    try {
      return toRawAmount(w.raw, decimals);
    } catch (error) {
      if (error instanceof AmountError) throw this.failWord(i, error.message);
      throw error;
    }
  }

  private percent(i: number, to: number): number {
    const n = this.need(i, to, 'a share such as 60%');
    if (!isDecimal(n.raw) || !isPercentSign(this.w[i + 1])) throw this.failRange(i, Math.min(i + 3, to), 'expected "<p>% <token>"');
    return this.bps(n, i);
  }

  private bps(n: Word, i: number): number {
    try {
      return toBps(n.raw);
    } catch (error) {
      if (error instanceof AmountError) throw this.failWord(i, error.message);
      throw error;
    }
  }

  private integer(i: number, min: bigint, max: bigint, what: string): bigint {
    try {
      return toInteger(this.w[i]!.raw, min, max, what);
    } catch (error) {
      if (error instanceof AmountError) throw this.failWord(i, error.message);
      throw error;
    }
  }

  private price(i: number, to: number): Price {
    const w = this.need(i, to, 'a price');
    try {
      return toPrice(w.raw.replace(/^\$/, ''));
    } catch (error) {
      if (error instanceof AmountError) throw this.failWord(i, error.message);
      throw error;
    }
  }

  private leverage(i: number, to: number): { value: number; next: number } | undefined {
    if (i >= to) return undefined;
    const w = this.w[i]!;
    const compact = LEVERAGE.exec(w.en);
    let text: string | undefined;
    let next = i + 1;
    if (compact) text = compact[1]!;
    else if (/^\d+$/.test(w.raw) && this.is(i + 1, 'x')) {
      text = w.raw;
      next = i + 2;
    }
    if (text === undefined) return undefined;
    try {
      return { value: Number(toInteger(text, 1n, MAX_LEVERAGE, 'the leverage')), next };
    } catch (error) {
      if (error instanceof AmountError) throw this.failWord(i, error.message);
      throw error;
    }
  }

  private validator(w: Word, i: number): ValidatorRef {
    try {
      return validatorRef(w.raw);
    } catch (error) {
      if (error instanceof AddressError) throw this.failWord(i, error.message);
      throw error;
    }
  }

  private recipient(w: Word, i: number): Recipient {
    if (/^(Nx|0x)/i.test(w.raw)) {
      try {
        const parsed = parseAddressDetailed(w.raw);
        if (parsed.kind === 'mint') throw this.failWord(i, 'this is a token mint (Nx1…), not an account');
        return { kind: 'address', address: parsed.bytes, text: w.raw };
      } catch (error) {
        if (error instanceof AddressError) throw this.failWord(i, error.message);
        throw error;
      }
    }
    const label = canonicalName(w.raw);
    if (!label) throw this.failWord(i, `not an address or a name: ${nameProblem(w.raw)}`);
    return { kind: 'name', name: label + NAME_SUFFIX };
  }

  private distinct(a: TokenRef, b: TokenRef, at: number): void {
    if (sameMint(a, b)) throw this.failWord(at, `both sides are ${a.symbol}; the two tokens must differ`);
  }

  // ---- cursor helpers ------------------------------------------------------------------------

  private is(i: number, en: string): boolean {
    return this.w[i]?.en === en;
  }

  private indexOf(en: string, from: number, to: number): number {
    for (let i = from; i < to; i++) if (this.w[i]!.en === en) return i;
    return -1;
  }

  /** True when w[i…] reads as a cost cap after a joining word: max/at most <n> <t>, or <n> <t>. */
  private isCostCap(i: number, to: number): boolean {
    if (i >= to) return false;
    const en = this.w[i]!.en;
    return en === 'max' || en === 'maximum' || en === 'atmost' || isDecimal(this.w[i]!.raw);
  }

  private need(i: number, to: number, what: string): Word {
    if (i < to) return this.w[i]!;
    throw this.failEnd(to, `expected ${what}`);
  }

  private expectOne(i: number, to: number, set: Set<string>, what: string): void {
    if (i >= to) throw this.failEnd(to, `expected ${what}`);
    if (!set.has(this.w[i]!.en)) throw this.failRange(i, to, `expected ${what}`);
  }

  private end(i: number, to: number): void {
    if (i < to) throw this.failRange(i, to, 'unexpected text after a complete intent');
  }

  private failWord(i: number, reason: string): IntentParseError {
    const w = this.w[i]!;
    return new IntentParseError(w.raw, reason, w.start);
  }

  private failRange(from: number, to: number, reason: string): IntentParseError {
    const a = this.w[from]!;
    const b = this.w[Math.max(from, to - 1)]!;
    return new IntentParseError(a.start <= b.end ? this.text.slice(a.start, b.end) : a.raw, reason, a.start);
  }

  private failEnd(to: number, reason: string): IntentParseError {
    const last = this.w[Math.max(0, to - 1)]!;
    return new IntentParseError(last.raw, `${reason}, but the intent ends after "${last.raw}"`, last.start);
  }
}

function sameMint(a: TokenRef, b: TokenRef): boolean {
  if (a.mint.length !== b.mint.length) return false;
  for (let i = 0; i < a.mint.length; i++) if (a.mint[i] !== b.mint[i]) return false;
  return true;
}

function bpsText(bps: number): string {
  return `${Math.floor(bps / 100)}${bps % 100 ? '.' + String(bps % 100).padStart(2, '0').replace(/0$/, '') : ''}%`;
}

function article(type: string): string {
  return /^[AEIOU]/.test(type) ? `an ${type}` : `a ${type}`;
}

