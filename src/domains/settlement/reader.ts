import { atomenceOrderId, orderEscrow, stakeEscrow } from '../../codec/domain-ids.js';
import {
  ATOMENCE_STATS_KEY, atomenceOrderKey, atomenceSettlementKey, atomenceTokenSettlementKey, atomenceTokenStatsKey, marketMakerIndexKey, marketMakerKey,
  decodeAtomenceOrderFields, decodeAtomenceStatsFields, decodeMarketMakerFields,
  type AtomenceOrderFields, type AtomenceStatsFields, type MarketMakerFields,
} from '../../abi/state.js';
import {
  ATOMENCE_TIER1_SPREAD_BPS, ATOMENCE_TIER1_STAKE, ATOMENCE_TIER2_SPREAD_BPS, ATOMENCE_TIER2_STAKE, ATOMENCE_TIER3_SPREAD_BPS, ATOMENCE_TIER3_STAKE,
} from '../../abi/constants.js';
import type { StateReader } from '../../chain/state-reader.js';

export { atomenceOrderId, orderEscrow, stakeEscrow };

/**
 * Settlement with market makers on the host side (spec §2.7, §4.17; docs/settlement.md): the
 * addresses the core derives, and readers of the records the core writes (0x70–0x76). Reads only:
 * every rule is the core's (assembly/domains/settlement/ops.ts).
 */

/** Tiers (docs/settlement.md "Tiers"; facts.md: tier 1 is 10,000 NTV and 50 bps). */
export const MARKET_MAKER_TIERS = {
  1: { stake: ATOMENCE_TIER1_STAKE, maxSpreadBps: ATOMENCE_TIER1_SPREAD_BPS },
  2: { stake: ATOMENCE_TIER2_STAKE, maxSpreadBps: ATOMENCE_TIER2_SPREAD_BPS },
  3: { stake: ATOMENCE_TIER3_STAKE, maxSpreadBps: ATOMENCE_TIER3_SPREAD_BPS },
} as const;
export type Tier = keyof typeof MARKET_MAKER_TIERS;

/** AtomenceOrder.state names (docs/settlement.md "States"). */
export const ORDER_STATES = ['open', 'matched', 'settled', 'cancelled', 'expired'] as const;
export type OrderState = (typeof ORDER_STATES)[number];

export function readOrder(state: StateReader, orderId: Uint8Array): AtomenceOrderFields | undefined {
  const v = state.get(atomenceOrderKey(orderId));
  return v ? decodeAtomenceOrderFields(v) : undefined;
}

export function readMarketMaker(state: StateReader, account: Uint8Array): MarketMakerFields | undefined {
  const v = state.get(marketMakerKey(account));
  return v ? decodeMarketMakerFields(v) : undefined;
}

const ZERO_STATS: AtomenceStatsFields = { settledCount: 0n, totalVolume: 0n, spreadSum: 0n, lastSettlementBlock: 0n, marketMakers: 0n, activeMarketMakers: 0n };

/** The stats of all settlements (0x76), or of one token's (0x75; its maker counts are 0). */
export function readStats(state: StateReader, token?: Uint8Array): AtomenceStatsFields {
  const v = state.get(token ? atomenceTokenStatsKey(token) : ATOMENCE_STATS_KEY);
  return v ? decodeAtomenceStatsFields(v) : ZERO_STATS;
}

/** Every market maker ever registered, in registration order (0x71), with its record. */
export function listMarketMakers(state: StateReader): Array<{ account: Uint8Array; record: MarketMakerFields }> {
  const n = readStats(state).marketMakers;
  const out: Array<{ account: Uint8Array; record: MarketMakerFields }> = [];
  for (let i = 0n; i < n; i++) {
    const account = state.get(marketMakerIndexKey(i));
    if (!account) continue;
    const record = readMarketMaker(state, account);
    if (record) out.push({ account, record });
  }
  return out;
}

/**
 * Settled orders in settlement order (0x73, or a token's 0x74), starting at the first settled at
 * or after `sinceBlock` (found by binary search: settlement heights only grow along the index);
 * without `sinceBlock`, the latest `limit`. At most `limit`.
 */
export function listSettlements(state: StateReader, limit: number, token?: Uint8Array, sinceBlock?: number): Array<{ id: Uint8Array; order: AtomenceOrderFields }> {
  const count = readStats(state, token).settledCount;
  const at = (i: bigint) => {
    const id = state.get(token ? atomenceTokenSettlementKey(token, i) : atomenceSettlementKey(i))!;
    return { id, order: readOrder(state, id)! };
  };
  let start: bigint;
  if (sinceBlock === undefined) start = count > BigInt(limit) ? count - BigInt(limit) : 0n;
  else {
    let lo = 0n, hi = count;
    while (lo < hi) {
      const mid = (lo + hi) / 2n;
      if (at(mid).order.closedHeight < BigInt(sinceBlock)) lo = mid + 1n;
      else hi = mid;
    }
    start = lo;
  }
  const out: Array<{ id: Uint8Array; order: AtomenceOrderFields }> = [];
  for (let i = start; i < count && out.length < limit; i++) out.push(at(i));
  return out;
}
