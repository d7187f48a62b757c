import { encodeAccount, encodeMint, NATIVE_MINT, systemAddress } from '../codec/address.js';
import { TREASURY_INDEX } from './genesis-data.js';
import type { ReceiptEvent } from './receipts.js';

/**
 * Every fungible-token balance change a receipt event stands for, as (from, to, token, amount):
 * the one derivation behind the ERC-20 Transfer logs of eth_getLogs (spec §4.18, §6 rule 5), the
 * `transfers` of svc_subscribe_logs items, and svc_getTokenTransfers (docs/eth.md "Logs",
 * docs/explorer.md "Token transfers"). The core emits a Transfer event for a Transfer and a
 * TransferFrom operation (the owner as `from`: docs/allowances.md) only; the DEX and token
 * creation move balances under their own events, so the host expands them
 * here rather than the core emitting more (which would change every block result and state root):
 *
 *   Transfer           from → to                          token, amount
 *   TokenCreated       zero account → owner               the new mint, supply (a mint, as ERC-20 shows one)
 *   PoolCreated        creator → pool                     token0 amount0, token1 amount1
 *                      creator → treasury 0x00…03         NTV, the pool-creation fee
 *   LiquidityAdded     provider → pool                    token0 amount0, token1 amount1
 *   LiquidityRemoved   pool → provider                    token0 amount0, token1 amount1
 *   Swap               trader → pool                      token_in amount_in
 *                      pool → trader                      token_out amount_out
 *
 * The bundle fee (Fee event) is left out: it is gas, shown in every receipt's `fee`. A pool is
 * written in its `Nx8…` form. LP units are pool records, not a token (docs/dex.md), so they move
 * no token. A pool whose tokens were not known when the receipt was built shows only the legs it
 * can name (receipts.ts always knows them).
 */
export interface TokenMovement {
  from: string;
  to: string;
  /** Nx1… mint */
  token: string;
  /** raw units, decimal */
  amount: string;
}

const ZERO_ACCOUNT = encodeAccount(new Uint8Array(32));
const NTV = encodeMint(NATIVE_MINT);
let treasury: string | undefined;

export function tokenMovements(event: ReceiptEvent): TokenMovement[] {
  switch (event.type) {
    case 'Transfer':
      return [{ from: event.from, to: event.to, token: event.token, amount: event.amount }];
    case 'TokenCreated':
      return [{ from: ZERO_ACCOUNT, to: event.owner, token: event.mint, amount: event.supply }];
    case 'PoolCreated':
      return [
        { from: event.creator, to: event.pool, token: event.token0, amount: event.amount0 },
        { from: event.creator, to: event.pool, token: event.token1, amount: event.amount1 },
        { from: event.creator, to: (treasury ??= encodeAccount(systemAddress(TREASURY_INDEX))), token: NTV, amount: event.fee },
      ];
    case 'LiquidityAdded':
    case 'LiquidityRemoved': {
      if (!event.token0 || !event.token1) return [];
      const [from, to] = event.type === 'LiquidityAdded' ? [event.provider, event.pool] : [event.pool, event.provider];
      return [
        { from, to, token: event.token0, amount: event.amount0 },
        { from, to, token: event.token1, amount: event.amount1 },
      ];
    }
    case 'Swap':
      return [
        { from: event.trader, to: event.pool, token: event.token_in, amount: event.amount_in },
        ...(event.token_out ? [{ from: event.pool, to: event.trader, token: event.token_out, amount: event.amount_out }] : []),
      ];
    default:
      return [];
  }
}
