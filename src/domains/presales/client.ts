/**
 * Presales' wallet helpers (docs/presales.md): the signed path of svc_createPresale … svc_claimPresaleTokens. Composed into Wallet (src/client/wallet.ts).
 */
import type { BundleOptions, SubmitResult, WalletCore } from '../../client/wallet-core.js';
import { accountBytes, toBigInt, type AccountRef, type Amount, type TokenRef } from '../../client/args.js';

export class PresaleClient {
  /**
   * CreatePresale (95): escrows floor(hardCap·rate/10^9) tokens for sale, the liquidity share's and
   * the 100 NTV pool fee; the receipt's `created.presale` is the presale (its escrow account, Nx0…).
   */
  async createPresale(this: WalletCore, params: CreatePresaleParams, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({
      type: 'CreatePresale', token: await this.resolveMint(params.token), payToken: await this.resolveMint(params.payToken),
      rate: toBigInt(params.rate, 'rate'), softCap: toBigInt(params.softCap, 'softCap'), hardCap: toBigInt(params.hardCap, 'hardCap'),
      minContribution: toBigInt(params.minContribution, 'minContribution'), maxContribution: toBigInt(params.maxContribution, 'maxContribution'),
      startTime: toBigInt(params.startTime, 'startTime'), endTime: toBigInt(params.endTime, 'endTime'),
      liquidityBps: params.liquidityBps, lpLockDuration: toBigInt(params.lpLockDuration, 'lpLockDuration'),
    }, opts);
  }

  /** ContributePresale (96): `amount` of the pay token into the presale's escrow. */
  async contributePresale(this: WalletCore, presale: AccountRef, amount: Amount, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'ContributePresale', presale: accountBytes(presale, 'presale'), amount: toBigInt(amount, 'amount') }, opts);
  }

  /** FinalizePresale (97), by anyone: creates the DEX pool with locked LP, then pays the creator. */
  async finalizePresale(this: WalletCore, presale: AccountRef, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'FinalizePresale', presale: accountBytes(presale, 'presale') }, opts);
  }

  /** RefundPresale (98): a failed presale's contribution back in full (the creator: its escrow). */
  async refundPresale(this: WalletCore, presale: AccountRef, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'RefundPresale', presale: accountBytes(presale, 'presale') }, opts);
  }

  /** ClaimPresaleTokens (99): the tokens a contribution bought, after finalization. */
  async claimPresaleTokens(this: WalletCore, presale: AccountRef, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'ClaimPresaleTokens', presale: accountBytes(presale, 'presale') }, opts);
  }
}

/** CreatePresale's fields (docs/presales.md "Operations"): amounts in raw units, times in unix seconds. */
export interface CreatePresaleParams {
  token: TokenRef;
  payToken: TokenRef;
  /** sale-token raw units per 10^9 raw units of the pay token */
  rate: Amount;
  softCap: Amount;
  hardCap: Amount;
  minContribution: Amount;
  maxContribution: Amount;
  startTime: Amount;
  endTime: Amount;
  /** 1 to 10,000 */
  liquidityBps: number;
  /** seconds, 86,400 to 315,360,000 */
  lpLockDuration: Amount;
}
