import { Type } from '@sinclair/typebox';
import { encodeAccount, encodeHash, encodeMint } from '../../codec/address.js';
import {
  atomenceOrderId, listMarketMakers, listSettlements, MARKET_MAKER_TIERS, ORDER_STATES, orderEscrow, readOrder, readStats, stakeEscrow, type Tier,
} from './reader.js';
import type { AtomenceOrderFields } from '../../abi/state.js';
import { ATOMENCE_LIST_DEFAULT } from '../../abi/constants.js';
import { APP_ERRORS } from '../../rpc/errors.js';
import { defineMethod, type MethodDefinition } from '../../rpc/registry.js';
import { Height, Limit } from '../../rpc/schemas.js';
import type { MethodDependencies } from '../../rpc/methods/context.js';
import { AccountParam, AmountParam, HashParam, TokenParam } from '../../rpc/methods/params.js';
import { ReceiptSchema } from '../../rpc/methods/result-schemas.js';

/**
 * Settlement with market makers (spec §2.7, §4.17; docs/settlement.md). The rules are the core's
 * (assembly/domains/settlement/ops.ts); the writes here are unsigned convenience methods (testnet only,
 * spec §5.5) for the operations that arrive on mainnet only as signed bundles through
 * svc_submitBundle (spec §4.17: "Settlement write actions … are submitted as signed bundles").
 * The reads take exactly the params of spec §4.17 and answer the stats of §2.7 exactly.
 */

const Str = (description: string) => Type.String({ description });
const Int = (description: string) => Type.Integer({ description });
const NullableInt = (description: string) => Type.Union([Type.Integer(), Type.Null()], { description });
const NullableStr = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const AtomenceOrderSchema = Type.Object({
  order_id: Str('Nxh… order id: Blake3("ntv.atomence.order" ‖ creator ‖ nonce u64 LE ‖ op_index u16 LE)'),
  state: Type.Union(ORDER_STATES.map((s) => Type.Literal(s)), { description: 'open → matched → settled; open or matched → cancelled, or expired when refunded after the expiry' }),
  expired: Type.Boolean({ description: 'the head block is past the expiry (an open or matched order then can only be cancelled)' }),
  creator: Str('Nx0… account that created the order and delivers the sell leg'),
  escrow: Str('Nx0… escrow account that holds the legs until settlement or refund'),
  sell_token: Str('Nx1… mint of the sell leg'),
  sell_amount: Str('raw units, decimal'),
  buy_token: Str('Nx1… mint of the payment leg'),
  min_buy_amount: Str('the least payment the creator accepts, raw units'),
  expiry: Int('unix seconds after which the order cannot be matched or settled'),
  created_height: Int('block of creation'),
  created_at: Int('unix seconds of creation'),
  market_maker: NullableStr('Nx0… market maker that matched it, null while open'),
  bid_amount: NullableStr('the payment the maker escrowed (raw units of buy_token), null while open'),
  ask_amount: NullableStr("the other side of the maker's quote, null while open"),
  spread_bps: NullableInt('⌈(ask − bid) · 20,000 / (ask + bid)⌉, null while open'),
  matched_height: NullableInt('block of the match'),
  closed_height: NullableInt('block of the settlement, cancellation or expiry refund'),
  closed_at: NullableInt('unix seconds of that block'),
}, { title: 'AtomenceOrder', additionalProperties: false });

const MarketMakerSchema = Type.Object({
  address: Str('Nx0… market maker'),
  tier: Type.Integer({ minimum: 1, maximum: 3 }),
  stake: Str('raw NTV in its stake escrow'),
  stake_escrow: Str('Nx0… stake escrow account'),
  max_spread_bps: Int('the widest spread its tier may quote'),
  registered_height: Int('block it (re)activated'),
  open_matches: Int('matched orders not yet settled or cancelled'),
  settled_count: Int('its settlements'),
  avg_spread_bps: Type.Number({ description: 'mean spread of its settlements, 0 before the first' }),
}, { title: 'MarketMaker', additionalProperties: false });

const StatsSchema = Type.Object({
  settled_count: Int('settlements (with a token: those with the token as either leg)'),
  total_volume: Str('Σ raw units of the legs, decimal: with a token, of that token; without, of both legs whatever their token (docs/settlement.md "Statistics")'),
  avg_spread_bps: Type.Number({ description: 'mean quoted spread of those settlements in bps, 0 before the first' }),
  last_settlement_block: NullableInt('height of the latest of them, null before the first'),
  active_mm_count: Int('market makers registered and active now (all tokens)'),
}, { title: 'AtomenceStats', additionalProperties: false });

const OrderId = () => HashParam({ description: 'order id (Nxh… or 0x + 64 hex), as svc_createAtomenceOrder answers or the client derives it' });
const tokenRef = () => Type.String({ minLength: 1, maxLength: 64, description: 'token symbol (any case) or mint address (Nx1… or 0x + 64 hex)' });
const TierParam = Type.Integer({ minimum: 1, maximum: 3, description: 'market maker tier: 1 (10,000 NTV stake, ≤ 50 bps), 2 (100,000 NTV, ≤ 25 bps), 3 (1,000,000 NTV, ≤ 10 bps)' });

const avg = (sum: bigint, count: bigint) => (count === 0n ? 0 : Number((sum * 100n) / count) / 100);

export function settlementMethods({ chain, readers }: MethodDependencies): MethodDefinition[] {
  const writeErrors = [APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.UNKNOWN_TOKEN.code, APP_ERRORS.BUNDLE_FAILED.code, APP_ERRORS.BUNDLE_INVALID.code];
  const orderJson = (id: Uint8Array, o: AtomenceOrderFields) => {
    const matched = o.state !== 0 && o.matchedHeight !== 0n;
    const closed = o.state >= 2;
    return {
      order_id: encodeHash(id),
      state: ORDER_STATES[o.state]!,
      expired: BigInt(chain.headHeader.timestamp) > o.expiry,
      creator: encodeAccount(o.creator),
      escrow: encodeAccount(orderEscrow(id)),
      sell_token: encodeMint(o.sellToken),
      sell_amount: o.sellAmount.toString(),
      buy_token: encodeMint(o.buyToken),
      min_buy_amount: o.minBuyAmount.toString(),
      expiry: Number(o.expiry),
      created_height: Number(o.createdHeight),
      created_at: Number(o.createdAt),
      market_maker: matched ? encodeAccount(o.marketMaker) : null,
      bid_amount: matched ? o.bidAmount.toString() : null,
      ask_amount: matched ? o.askAmount.toString() : null,
      spread_bps: matched ? o.spreadBps : null,
      matched_height: matched ? Number(o.matchedHeight) : null,
      closed_height: closed ? Number(o.closedHeight) : null,
      closed_at: closed ? Number(o.closedAt) : null,
    };
  };
  /** A token by symbol or mint (params parsed once, issue 44 item 4). */
  const Token = () => TokenParam(readers.tokens, tokenRef());
  return [
    defineMethod({
      name: 'svc_registerMarketMaker',
      summary: 'Register the sender as a settlement market maker of a tier, or change its tier (unsigned convenience, testnet only; docs/settlement.md).',
      description: "Moves the tier's NTV stake from the sender into its stake escrow (a tier change moves only the difference, either way). "
        + 'BUNDLE_FAILED with MM_TIER_UNCHANGED at the same tier, INSUFFICIENT_BALANCE without the stake.',
      params: [{ name: 'tier', schema: TierParam }, { name: 'sender', schema: AccountParam({ description: 'the market maker' }) }] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt (stakes the tier\'s NTV)',
      },
      errors: writeErrors,
      handler: ([tier, sender]) => chain.submitOperations(sender, [{ type: 'RegisterMarketMaker', tier }]),
    }),
    defineMethod({
      name: 'svc_deregisterMarketMaker',
      summary: 'Stop being a market maker and take the whole stake back (unsigned convenience, testnet only; docs/settlement.md).',
      description: 'BUNDLE_FAILED with NOT_MARKET_MAKER, or MM_HAS_OPEN_MATCHES while a matched order is neither settled nor cancelled.',
      params: [{ name: 'sender', schema: AccountParam({ description: 'the market maker' }) }] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt (the stake back)',
      },
      errors: writeErrors,
      handler: ([sender]) => chain.submitOperations(sender, [{ type: 'DeregisterMarketMaker' }]),
    }),
    defineMethod({
      name: 'svc_createAtomenceOrder',
      summary: 'Create a settlement order: sell_amount of sell_token, escrowed now, for at least min_buy_amount of buy_token before expiry (unsigned convenience, testnet only).',
      description: 'Answers the order id with the receipt. BUNDLE_FAILED with ZERO_AMOUNT, IDENTICAL_TOKENS, INVALID_ORDER_EXPIRY (after the block time, at most 30 days ahead) or INSUFFICIENT_BALANCE. docs/settlement.md.',
      params: [
        { name: 'sell_token', schema: Token() },
        { name: 'sell_amount', schema: AmountParam({ description: 'raw units of sell_token, > 0' }) },
        { name: 'buy_token', schema: Token() },
        { name: 'min_buy_amount', schema: AmountParam({ description: 'the least payment accepted, raw units of buy_token, > 0' }) },
        { name: 'expiry', schema: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'unix seconds; after the block time and at most 30 days ahead' }) },
        { name: 'sender', schema: AccountParam({ description: 'the creator' }) },
      ] as const,
      result: {
        name: 'created', schema: Type.Object({ order_id: Str('Nxh… id of the new order'), receipt: ReceiptSchema }, { additionalProperties: false }),
        description: '`{order_id, receipt}`',
      },
      errors: writeErrors,
      handler: async ([sell, amount, buy, min, expiry, from]) => {
        const expiryAt = BigInt(expiry); // the core checks the range against the block time (INVALID_ORDER_EXPIRY)
        const receipt = await chain.submitOperations(from, [{ type: 'CreateAtomenceOrder', sellToken: sell.mint, sellAmount: amount, buyToken: buy.mint, minBuyAmount: min, expiry: expiryAt }]);
        return { order_id: encodeHash(atomenceOrderId(from, BigInt(receipt.nonce), 0)), receipt };
      },
    }),
    defineMethod({
      name: 'svc_matchAtomenceOrder',
      summary: "Match an open order as a market maker with a two-sided quote: bid_amount (escrowed now) is paid for the whole sell leg; ask_amount is the quote's other side (unsigned convenience, testnet only).",
      description: "BUNDLE_FAILED with NOT_MARKET_MAKER, ORDER_NOT_FOUND, ORDER_NOT_OPEN, ORDER_EXPIRED, SELF_MATCH, INVALID_QUOTE, QUOTE_BELOW_LIMIT or SPREAD_TOO_WIDE (above the tier's spread). docs/settlement.md.",
      params: [
        { name: 'order_id', schema: OrderId() },
        { name: 'bid_amount', schema: AmountParam({ description: 'raw units of the buy token paid for the whole sell amount; ≥ min_buy_amount' }) },
        { name: 'ask_amount', schema: AmountParam({ description: 'raw units at which the maker would sell the same amount; ≥ bid_amount' }) },
        { name: 'sender', schema: AccountParam({ description: 'the market maker' }) },
      ] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt',
      },
      errors: writeErrors,
      handler: ([orderId, bidAmount, askAmount, sender]) => chain.submitOperations(sender, [{ type: 'MatchAtomenceOrder', orderId, bidAmount, askAmount }]),
    }),
    defineMethod({
      name: 'svc_settleAtomenceOrder',
      summary: 'Settle a matched order: both legs leave the escrow in one operation, the sell leg to the maker and the payment to the creator, or neither (unsigned convenience, testnet only).',
      description: 'Either party may settle. BUNDLE_FAILED with ORDER_NOT_FOUND, ORDER_NOT_MATCHED (open, settled, cancelled or expired), NOT_ORDER_PARTY or ORDER_EXPIRED. docs/settlement.md.',
      params: [{ name: 'order_id', schema: OrderId() }, { name: 'sender', schema: AccountParam({ description: 'the creator or the matched market maker' }) }] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt',
      },
      errors: writeErrors,
      handler: ([orderId, sender]) => chain.submitOperations(sender, [{ type: 'SettleAtomenceOrder', orderId }]),
    }),
    defineMethod({
      name: 'svc_cancelAtomenceOrder',
      summary: 'Cancel an order and refund its escrow: an open order by its creator at any time, a matched one by either party after its expiry (unsigned convenience, testnet only).',
      description: 'The order ends cancelled, or expired when refunded after its expiry. BUNDLE_FAILED with ORDER_NOT_FOUND, ORDER_CLOSED, NOT_ORDER_PARTY or ORDER_NOT_EXPIRED. docs/settlement.md.',
      params: [{ name: 'order_id', schema: OrderId() }, { name: 'sender', schema: AccountParam({ description: 'the creator, or for a matched order the market maker' }) }] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt',
      },
      errors: writeErrors,
      handler: ([orderId, sender]) => chain.submitOperations(sender, [{ type: 'CancelAtomenceOrder', orderId }]),
    }),
    defineMethod({
      name: 'svc_getAtomenceOrder',
      summary: "An order's full lifecycle record, or null when no order has that id (spec §2.7, §4.17).",
      description: 'The record shows every stage: creator, escrow account and legs; the market maker, bid, ask and spread once matched; the block and time it was settled, cancelled or refunded after expiry. `expired` compares the expiry with the head block time. No application errors.',
      params: [{ name: 'order_id', schema: OrderId() }] as const,
      result: {
        name: 'order', schema: Type.Union([AtomenceOrderSchema, Type.Null()]),
        description: 'the order\'s full lifecycle record, or `null`',
      },
      handler: ([id]) => {
        const o = readOrder(chain.state, id);
        return o ? orderJson(id, o) : null;
      },
    }),
    defineMethod({
      name: 'svc_listAtomenceSettlements',
      summary: 'Settled orders in settlement order, optionally of one token (either leg) and from a block on; limit default 100, max 1000 (spec §4.17, §8).',
      description: 'With since_block: the first `limit` settled at or after it; without: the latest `limit`. Errors: UNKNOWN_TOKEN.',
      params: [
        { name: 'token', schema: Token(), required: false },
        { name: 'since_block', schema: Height(), required: false },
        { name: 'limit', schema: Limit({ default: ATOMENCE_LIST_DEFAULT }), required: false },
      ] as const,
      result: {
        name: 'settlements', schema: Type.Array(AtomenceOrderSchema),
        description: 'settled orders in settlement order; limit default 100, max 1000 (spec §8)',
      },
      errors: [APP_ERRORS.UNKNOWN_TOKEN.code],
      handler: ([token, sinceBlock, limit]) =>
        listSettlements(chain.state, limit ?? ATOMENCE_LIST_DEFAULT, token?.mint, sinceBlock).map(({ id, order }) => orderJson(id, order)),
    }),
    defineMethod({
      name: 'svc_getMarketMakers',
      summary: 'The active market makers, of one tier (1, 2 or 3) or all, in registration order (spec §4.17).',
      description: 'Each with its stake and stake escrow, the widest spread of its tier, open matches, settlements and their mean spread. A maker that deregistered is left out. No application errors.',
      params: [{ name: 'tier', schema: TierParam, required: false }] as const,
      result: {
        name: 'market_makers', schema: Type.Array(MarketMakerSchema),
        description: 'active market makers, of tier 1, 2 or 3 or all',
      },
      handler: ([tier]) => listMarketMakers(chain.state)
        .filter(({ record }) => record.active && (tier === undefined || record.tier === tier))
        .map(({ account, record }) => ({
          address: encodeAccount(account),
          tier: record.tier,
          stake: record.stake.toString(),
          stake_escrow: encodeAccount(stakeEscrow(account)),
          max_spread_bps: MARKET_MAKER_TIERS[record.tier as Tier].maxSpreadBps,
          registered_height: Number(record.registeredHeight),
          open_matches: record.openMatches,
          settled_count: Number(record.settledCount),
          avg_spread_bps: avg(record.spreadSum, record.settledCount),
        })),
    }),
    defineMethod({
      name: 'svc_atomenceStats',
      summary: 'Settlement statistics, of all settlements or of one token\'s (spec §2.7): {settled_count, total_volume, avg_spread_bps, last_settlement_block, active_mm_count}.',
      description: 'Errors: UNKNOWN_TOKEN.',
      params: [{ name: 'token', schema: Token(), required: false }] as const,
      result: {
        name: 'stats', schema: StatsSchema,
        description: '`{settled_count, total_volume, avg_spread_bps, last_settlement_block, active_mm_count}`',
      },
      errors: [APP_ERRORS.UNKNOWN_TOKEN.code],
      handler: ([token]) => {
        const s = readStats(chain.state, token?.mint);
        return {
          settled_count: Number(s.settledCount),
          total_volume: s.totalVolume.toString(),
          avg_spread_bps: avg(s.spreadSum, s.settledCount),
          last_settlement_block: s.settledCount === 0n ? null : Number(s.lastSettlementBlock),
          active_mm_count: Number(readStats(chain.state).activeMarketMakers),
        };
      },
    }),
  ];
}
