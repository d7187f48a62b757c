/**
 * Settlement with market makers' wallet helpers (105–110; docs/settlement.md). Composed into Wallet (src/client/wallet.ts).
 */
import { encodeHash } from '../../codec/address.js';
import { atomenceOrderId } from '../../codec/domain-ids.js';
import type { BundleOptions, SubmitResult, WalletCore } from '../../client/wallet-core.js';
import { hashBytes, toBigInt, type Amount, type TokenRef } from '../../client/args.js';

export class SettlementClient {
  /** RegisterMarketMaker (105): stakes the tier's NTV (1: 10,000, 2: 100,000, 3: 1,000,000) or changes tier. */
  async registerMarketMaker(this: WalletCore, tier: 1 | 2 | 3, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'RegisterMarketMaker', tier }, opts);
  }

  /** DeregisterMarketMaker (106): the whole stake back, once no matched order is open. */
  async deregisterMarketMaker(this: WalletCore, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'DeregisterMarketMaker' }, opts);
  }

  /**
   * CreateAtomenceOrder (107): escrows `sellAmount` of `sellToken` for at least `minBuyAmount` of
   * `buyToken` until `expiry` (unix seconds). `orderId` is derived from this account and the nonce
   * the bundle used, as the core derives it.
   */
  async createAtomenceOrder(this: WalletCore, sellToken: TokenRef, sellAmount: Amount, buyToken: TokenRef, minBuyAmount: Amount, expiry: Amount, opts: BundleOptions = {}): Promise<SubmitResult & { orderId: string }> {
    const sent = await this.sendOperation({
      type: 'CreateAtomenceOrder', sellToken: await this.resolveMint(sellToken), sellAmount: toBigInt(sellAmount, 'sellAmount'),
      buyToken: await this.resolveMint(buyToken), minBuyAmount: toBigInt(minBuyAmount, 'minBuyAmount'), expiry: toBigInt(expiry, 'expiry'),
    }, opts);
    return { ...sent, orderId: encodeHash(atomenceOrderId(this.account, sent.bundle!.nonce, 0)) };
  }

  /** MatchAtomenceOrder (108): as a market maker, escrows `bidAmount` for the order; `askAmount` is the quote's other side. */
  async matchAtomenceOrder(this: WalletCore, orderId: string | Uint8Array, bidAmount: Amount, askAmount: Amount, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'MatchAtomenceOrder', orderId: hashBytes(orderId, 'orderId'), bidAmount: toBigInt(bidAmount, 'bidAmount'), askAmount: toBigInt(askAmount, 'askAmount') }, opts);
  }

  /** SettleAtomenceOrder (109): both legs out of the escrow, or neither. */
  async settleAtomenceOrder(this: WalletCore, orderId: string | Uint8Array, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'SettleAtomenceOrder', orderId: hashBytes(orderId, 'orderId') }, opts);
  }

  /** CancelAtomenceOrder (110): refunds the escrow (an open order: its creator; a matched one: either party after expiry). */
  async cancelAtomenceOrder(this: WalletCore, orderId: string | Uint8Array, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'CancelAtomenceOrder', orderId: hashBytes(orderId, 'orderId') }, opts);
  }
}
