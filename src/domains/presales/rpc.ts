import { Type } from '@sinclair/typebox';
import { encodeAccount, encodeMint } from '../../codec/address.js';
import { MAX_LOCK_SECONDS, encodePool, poolAddress } from '../../core/amm.js';
import { PRESALE_MIN_LOCK, PRESALE_RATE_SCALE } from '../../abi/constants.js';
import {
  PRESALE_CREATOR_REFUNDED, PRESALE_FINALIZED, PRESALE_STATES, presaleState, tokensFor, type PresaleRecord, type PresaleState,
} from './reader.js';
import type { ChainApi, DomainReaders } from '../../chain/interface.js';
import { APP_ERRORS, RpcError } from '../../rpc/errors.js';
import { defineMethod, type MethodDefinition } from '../../rpc/registry.js';
import { Address, Limit, parsed } from '../../rpc/schemas.js';
import type { MethodDependencies } from '../../rpc/methods/context.js';
import { AccountParam, accountParam, invalidParamIn, PositiveAmount, TokenParam } from '../../rpc/methods/params.js';
import { ReceiptSchema } from '../../rpc/methods/result-schemas.js';

/**
 * Presales, anti-rug (spec §4.5; docs/presales.md). The rules are the core's
 * (assembly/domains/presales/ops.ts): these methods check the shape of the params, build the operation for
 * `sender` (unsigned convenience, testnet only; on mainnet the same operations go in a signed
 * bundle through svc_submitBundle) and read the committed records (src/domains/presales/reader.ts).
 */

const Str = (description: string) => Type.String({ description });
const Int = (description: string) => Type.Integer({ description });
const Amount = (description: string) => PositiveAmount({ description });
const tokenRef = (what: string) => Type.String({ minLength: 1, maxLength: 64, description: `${what}: a token symbol (any case) or mint address (Nx1… or 0x + 64 hex).` });
const presaleRef = () => Address({ description: 'the presale: its escrow account address (Nx0…, as receipt.created.presale names it)' });
const Seconds = (description: string, minimum = 0, maximum = Number.MAX_SAFE_INTEGER) => Type.Integer({ minimum, maximum, description });

const PresaleSchema = Type.Object({
  presale_address: Str('Nx0… escrow account that names the presale'),
  id: Int('creation order, from 1'),
  creator: Str('Nx0…'),
  token: Str('Nx1… token sold'), token_symbol: Str('its symbol'),
  pay_token: Str('Nx1… token contributions are paid in'), pay_token_symbol: Str('its symbol'),
  rate: Str('sale-token raw units per rate_scale raw units of the pay token'), rate_scale: Str('10^9'),
  soft_cap: Str('raw pay-token units'), hard_cap: Str('raw pay-token units'),
  min_contribution: Str('per contributor, in total'), max_contribution: Str('per contributor, in total'),
  start_time: Int('unix seconds'), end_time: Int('unix seconds'),
  liquidity_bps: Int('share of the raise paired into the DEX pool'), lp_lock_duration: Int('seconds the pool LP stays locked'),
  raised: Str('raw pay-token units'), contributors: Int('distinct contributors'),
  status: Type.Union(PRESALE_STATES.map((s) => Type.Literal(s)), { description: 'docs/presales.md "States and transitions", at the head block time' }),
  creator_refunded: Type.Boolean({ description: 'a failed presale whose creator took its escrow back' }),
  sale_escrow: Str('tokens escrowed for contributors at the hard cap'), liquidity_escrow: Str('tokens escrowed for the pool at the hard cap'),
  created_at: Int('unix seconds'), created_height: Int('block height'),
  dex_pool: Str('Nx8… the pair\'s DEX pool (created at finalization)'),
  finalized_at: Type.Union([Type.Integer(), Type.Null()], { description: 'unix seconds, null before' }),
  finalized_height: Type.Union([Type.Integer(), Type.Null()]),
  liquidity_paid: Str('pay tokens put into the pool'), liquidity_tokens: Str('sale tokens put into the pool'),
  lp_locked: Str("the creator's LP units, locked in the pool"), lp_lock_until: Type.Union([Type.Integer(), Type.Null()], { description: 'unix seconds, null before finalization' }),
  tokens_sold: Str('reserved in escrow for the contributors\' claims'), creator_proceeds: Str('the raise released to the creator at finalization'),
}, { title: 'Presale', additionalProperties: false });

const StatusSchema = Type.Object({
  presale_address: Str('Nx0…'),
  status: Type.Union(PRESALE_STATES.map((s) => Type.Literal(s))),
  now: Int('the head block time the status is computed at, unix seconds'),
  raised: Str('raw pay-token units'), soft_cap: Str(''), hard_cap: Str(''),
  progress_bps: Int('raised / hard_cap in basis points'),
  soft_cap_reached: Type.Boolean(), hard_cap_reached: Type.Boolean(), contributors: Int(''),
  seconds_to_start: Int('0 once started'), seconds_to_end: Int('0 once ended'),
  can_contribute: Type.Boolean(), can_finalize: Type.Boolean(), can_refund: Type.Boolean(), can_claim: Type.Boolean(),
}, { title: 'PresaleStatus', additionalProperties: false });

const ContributionsSchema = Type.Object({
  presale_address: Str('Nx0…'),
  count: Int('contributors in all'),
  contributions: Type.Array(Type.Object({
    contributor: Str('Nx0…'), amount: Str('raw pay-token units, in total'),
    tokens: Str('sale-token raw units it buys: floor(amount·rate/10^9)'),
    state: Type.Union([Type.Literal('open'), Type.Literal('claimed'), Type.Literal('refunded')]),
  })),
}, { title: 'PresaleContributions', additionalProperties: false });

export function presaleMethods({ chain, readers }: MethodDependencies): MethodDefinition[] {
  const now = () => BigInt(chain.headHeader.timestamp);
  const presaleOf = (value: string, param: string, position: number): PresaleRecord => {
    const address = accountParam(value, param, position);
    const p = readers.presales.get(address);
    if (!p) throw RpcError.app('NOT_FOUND', `no presale at ${value}; svc_listPresales lists them`, { presale_address: value });
    return p;
  };
  /** Params parsed once (issue 44 item 4): a presale as its record (NOT_FOUND when none), a token as its registry entry. */
  const PresaleRef = () => parsed(presaleRef(), presaleOf);
  const TokenRef = (what: string) => TokenParam(readers.tokens, tokenRef(what));
  const createParams = [
    { name: 'token', schema: TokenRef('the token sold') },
    { name: 'pay_token', schema: TokenRef('the token contributions are paid in') },
    { name: 'rate', schema: Amount('sale-token raw units per 10^9 raw units of pay_token; also the listing price of the pool') },
    { name: 'soft_cap', schema: Amount('least raise (raw pay-token units) for the presale to succeed') },
    { name: 'hard_cap', schema: Amount('most raise; reaching it allows finalizing at once') },
    { name: 'min_contribution', schema: Amount("a contributor's total at least") },
    { name: 'max_contribution', schema: Amount("a contributor's total at most") },
    { name: 'start_time', schema: Seconds('unix seconds contributions open') },
    { name: 'end_time', schema: Seconds('unix seconds contributions close (after start_time and the block time, at most 10 years ahead)') },
    { name: 'liquidity_bps', schema: Type.Integer({ minimum: 1, maximum: 10_000, description: 'share of the raise paired into the DEX pool, 1 to 10,000 bps' }) },
    { name: 'lp_lock_duration', schema: Seconds('seconds the pool LP stays locked: 86,400 (1 day) to 315,360,000 (10 years)', Number(PRESALE_MIN_LOCK), Number(MAX_LOCK_SECONDS)) },
    { name: 'sender', schema: AccountParam({ description: 'the creator, who escrows the tokens' }) },
  ] as const;
  const writeErrors = [APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.BUNDLE_FAILED.code, APP_ERRORS.BUNDLE_INVALID.code];
  const lifecycle = (name: string, type: 'FinalizePresale' | 'RefundPresale' | 'ClaimPresaleTokens', summary: string, description: string, result: string) => defineMethod({
    name, summary, description,
    params: [
      { name: 'presale_address', schema: PresaleRef() },
      { name: 'sender', schema: AccountParam({ description: 'the acting account' }) },
    ] as const,
    result: { name: 'receipt', schema: ReceiptSchema, description: result },
    errors: [APP_ERRORS.NOT_FOUND.code, ...writeErrors],
    handler: async ([p, from]) => chain.submitOperations(from, [{ type, presale: p.address }]),
  });
  return [
    defineMethod({
      name: 'svc_createPresale',
      summary: 'Open a presale of `token` paid in `pay_token`, escrowing the tokens for sale and for liquidity (spec §4.5; unsigned convenience, testnet only).',
      description: 'At creation the sender\'s tokens for the hard cap — floor(hard_cap·rate/10^9) for sale plus the liquidity share\'s — and the DEX\'s 100 NTV pool fee '
        + 'move into the presale\'s escrow account; receipt.created.presale names it. Failures (-32002, data.status): INVALID_PRESALE_CAPS, INVALID_PRESALE_WINDOW, '
        + 'INVALID_LIQUIDITY_SHARE, INVALID_PRESALE_LOCK, INVALID_PRESALE_RATE, PRESALE_LIQUIDITY_TOO_LOW, POOL_EXISTS, INSUFFICIENT_BALANCE. docs/presales.md.',
      params: createParams,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt; `created.presale` (`Nx0…`, the escrow account). Escrows the tokens for sale and liquidity at the hard cap and the 100'
          + ' NTV pool fee',
      },
      errors: [APP_ERRORS.UNKNOWN_TOKEN.code, ...writeErrors],
      handler: async ([t, pay, rate, softCap, hardCap, minContribution, maxContribution, start, end, bps, lock, from]) => {
        if (Buffer.compare(t.mint, pay.mint) === 0) throw invalidParamIn(createParams, 'pay_token', `a token different from the one sold (both are ${t.symbol})`);
        const op = {
          type: 'CreatePresale' as const, token: t.mint, payToken: pay.mint, rate, softCap, hardCap, minContribution, maxContribution,
          startTime: BigInt(start), endTime: BigInt(end), liquidityBps: bps, lpLockDuration: BigInt(lock),
        };
        if (op.hardCap < op.softCap) throw invalidParamIn(createParams, 'hard_cap', 'an amount at least soft_cap');
        if (op.maxContribution < op.minContribution) throw invalidParamIn(createParams, 'max_contribution', 'an amount at least min_contribution');
        if (op.endTime <= op.startTime) throw invalidParamIn(createParams, 'end_time', 'a time after start_time');
        return chain.submitOperations(from, [op]);
      },
    }),
    defineMethod({
      name: 'svc_contributePresale',
      summary: 'Contribute `amount` of the pay token to an active presale; it stays in the presale\'s escrow until finalization or refund (unsigned convenience, testnet only).',
      description: 'Failures (-32002, data.status): PRESALE_NOT_ACTIVE (before start, at or after the end, or finalized), PRESALE_HARD_CAP_EXCEEDED, '
        + 'CONTRIBUTION_OUT_OF_RANGE (the contributor\'s total outside min/max), INSUFFICIENT_BALANCE. docs/presales.md.',
      params: [
        { name: 'presale_address', schema: PresaleRef() },
        { name: 'amount', schema: Amount('raw pay-token units, > 0') },
        { name: 'sender', schema: AccountParam({ description: 'the contributor' }) },
      ] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt. Into the escrow; within the window, the hard cap and the per-contributor min/max',
      },
      errors: [APP_ERRORS.NOT_FOUND.code, ...writeErrors],
      handler: async ([p, amount, from]) => chain.submitOperations(from, [{ type: 'ContributePresale', presale: p.address, amount }]),
    }),
    lifecycle('svc_finalizePresale', 'FinalizePresale',
      'Finalize a presale that met its soft cap: create the DEX pool with the liquidity share and lock the LP, then release the rest of the raise to the creator (by anyone; testnet convenience).',
      'Allowed after end_time with the soft cap met, or at the hard cap. The pool (receipt.created.pool) gets liquidity_bps of the raise and floor(that·rate/10^9) tokens; '
        + 'the creator\'s LP stays locked for lp_lock_duration; then the creator receives the rest of the raise and the unsold tokens. Contributors claim their tokens with '
        + 'svc_claimPresaleTokens. Failures: PRESALE_FINALIZED, PRESALE_NOT_ENDED, SOFT_CAP_NOT_MET, POOL_EXISTS. docs/presales.md.',
      'receipt (by anyone; `created.pool`). After the end with the soft cap met, or at the hard cap: the DEX pool with the LP locked, then the creator\'s share'),
    lifecycle('svc_refundPresale', 'RefundPresale',
      'Take back a contribution to a failed presale in full; the creator takes back its escrowed tokens and pool fee (testnet convenience).',
      'A presale fails when it ends below its soft cap (or its pair\'s DEX pool was created by someone else, so it cannot list). Failures: PRESALE_FINALIZED '
        + '(a successful presale is never refunded), PRESALE_NOT_FAILED, NOTHING_TO_REFUND. docs/presales.md.',
      'receipt. A failed presale: the contribution back in full; the creator its escrow'),
    lifecycle('svc_claimPresaleTokens', 'ClaimPresaleTokens',
      'Claim the tokens a contribution bought, once the presale is finalized (testnet convenience).',
      'Pays floor(contribution·rate/10^9) sale tokens from the escrow, once per contributor. Failures: PRESALE_NOT_FINALIZED, PRESALE_NOTHING_TO_CLAIM. docs/presales.md.',
      'receipt. After finalization: `floor(contribution·rate/10^9)` tokens, once'),
    defineMethod({
      name: 'svc_getPresale',
      summary: 'A presale\'s record: parameters, raise, escrow, state and, once finalized, its pool and locked LP (spec §4.5).',
      description: 'Reads the presale record (docs/presales.md "State layout"): its terms, the raise, what is escrowed, its state at the head block'
        + ' time, and once finalized the DEX pool, the locked LP and its unlock time, the tokens reserved for claims and what the creator'
        + ' received. Errors: NOT_FOUND.',
      params: [{ name: 'presale_address', schema: PresaleRef() }] as const,
      result: {
        name: 'presale', schema: PresaleSchema,
        description: 'the record with `status`, `dex_pool`, `lp_locked`, `lp_lock_until`, `tokens_sold`, `creator_proceeds`',
      },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: ([p]) => formatPresale(chain, readers, p),
    }),
    defineMethod({
      name: 'svc_listPresales',
      summary: 'Presales, newest first, optionally only those in one state (spec §4.5).',
      description: 'Newest first; `status` keeps only presales in that state at the head block time (upcoming, active, succeeded: finalizable,'
        + ' failed: refundable, finalized). No application errors.',
      params: [
        { name: 'limit', schema: Limit({ default: 100 }), required: false },
        { name: 'status', schema: Type.Union(PRESALE_STATES.map((s) => Type.Literal(s)), { description: 'upcoming, active, succeeded, failed or finalized' }), required: false },
      ] as const,
      result: {
        name: 'presales', schema: Type.Array(PresaleSchema),
        description: 'presales, newest first; `status` one of upcoming, active, succeeded, failed, finalized',
      },
      handler: ([limit, status]) => {
        const t = now();
        return readers.presales.all()
          .filter((p) => status === undefined || presaleState(p, t, chain.state) === status)
          .slice(0, limit ?? 100)
          .map((p) => formatPresale(chain, readers, p));
      },
    }),
    defineMethod({
      name: 'svc_getPresaleContributions',
      summary: 'The contributions to a presale, largest first, with the tokens each buys and whether it was claimed or refunded.',
      description: 'One row per contributor with its total, the sale tokens it buys (floor(amount·rate/10^9)) and whether they were claimed or the'
        + ' contribution refunded; `count` is the number of contributors. Errors: NOT_FOUND.',
      params: [
        { name: 'presale_address', schema: PresaleRef() },
        { name: 'limit', schema: Limit({ default: 100 }), required: false },
      ] as const,
      result: {
        name: 'contributions', schema: ContributionsSchema,
        description: '`{presale_address, count, contributions: [{contributor, amount, tokens, state}]}`',
      },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: ([p, limit]) => {
        const all = readers.presales.contributionsOf(p.address);
        return {
          presale_address: encodeAccount(p.address), count: all.length,
          contributions: all.slice(0, limit ?? 100).map((c) => ({
            contributor: encodeAccount(c.contributor), amount: c.amount.toString(), tokens: tokensFor(c.amount, p.rate).toString(), state: c.state,
          })),
        };
      },
    }),
    defineMethod({
      name: 'svc_getPresaleStatus',
      summary: 'Where a presale stands at the head block: its state, progress and which of contribute, finalize, refund and claim are open.',
      description: 'The presale state at the head block time with its progress towards the caps, the seconds to its start and end, and which'
        + ' operations would be accepted now (contribute, finalize, refund, claim). Errors: NOT_FOUND.',
      params: [{ name: 'presale_address', schema: PresaleRef() }] as const,
      result: {
        name: 'status', schema: StatusSchema,
        description: '`{status, now, raised, soft_cap, hard_cap, progress_bps, soft_cap_reached, hard_cap_reached, contributors, seconds_to_start,'
          + ' seconds_to_end, can_contribute, can_finalize, can_refund, can_claim}`',
      },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: ([p]) => {
        const t = now();
        const state: PresaleState = presaleState(p, t, chain.state);
        return {
          presale_address: encodeAccount(p.address), status: state, now: Number(t),
          raised: p.raised.toString(), soft_cap: p.softCap.toString(), hard_cap: p.hardCap.toString(),
          progress_bps: Number((p.raised * 10_000n) / p.hardCap), soft_cap_reached: p.raised >= p.softCap, hard_cap_reached: p.raised >= p.hardCap,
          contributors: p.contributors,
          seconds_to_start: Number(p.startTime > t ? p.startTime - t : 0n), seconds_to_end: Number(p.endTime > t ? p.endTime - t : 0n),
          can_contribute: state === 'active', can_finalize: state === 'succeeded', can_refund: state === 'failed', can_claim: state === 'finalized',
        };
      },
    }),
  ];
}

/** The JSON of a presale record (PresaleSchema). */
export function formatPresale(chain: ChainApi, readers: DomainReaders, p: PresaleRecord) {
  const finalized = (p.flags & PRESALE_FINALIZED) !== 0;
  const sym = (m: Uint8Array) => readers.tokens.byMintBytes(m)?.symbol ?? '';
  return {
    presale_address: encodeAccount(p.address), id: Number(p.id), creator: encodeAccount(p.creator),
    token: encodeMint(p.token), token_symbol: sym(p.token), pay_token: encodeMint(p.payToken), pay_token_symbol: sym(p.payToken),
    rate: p.rate.toString(), rate_scale: String(PRESALE_RATE_SCALE),
    soft_cap: p.softCap.toString(), hard_cap: p.hardCap.toString(), min_contribution: p.minContribution.toString(), max_contribution: p.maxContribution.toString(),
    start_time: Number(p.startTime), end_time: Number(p.endTime), liquidity_bps: p.liquidityBps, lp_lock_duration: Number(p.lpLockDuration),
    raised: p.raised.toString(), contributors: p.contributors,
    status: presaleState(p, BigInt(chain.headHeader.timestamp), chain.state), creator_refunded: (p.flags & PRESALE_CREATOR_REFUNDED) !== 0,
    sale_escrow: p.saleEscrow.toString(), liquidity_escrow: p.liquidityEscrow.toString(),
    created_at: Number(p.createdAt), created_height: Number(p.createdHeight),
    dex_pool: encodePool(poolAddress(p.token, p.payToken)),
    finalized_at: finalized ? Number(p.finalizedAt) : null, finalized_height: finalized ? Number(p.finalizedHeight) : null,
    liquidity_paid: p.liquidityPaid.toString(), liquidity_tokens: p.liquidityTokens.toString(), lp_locked: p.lpLocked.toString(),
    lp_lock_until: finalized ? Number(p.lpLockUntil) : null, tokens_sold: p.tokensSold.toString(), creator_proceeds: p.creatorProceeds.toString(),
  };
}
