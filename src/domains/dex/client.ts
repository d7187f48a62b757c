/**
 * The DEX's wallet helpers (docs/dex.md; token metadata is the same ABI group, docs/dex.md "Token
 * metadata"): the signed path of svc_createPool … svc_swap and the metadata methods. Composed into
 * Wallet (src/client/wallet.ts), whose public API they are; each sends one operation with
 * sendOperation.
 */
import { TOKEN_METADATA_FIELDS, type UpdateTokenMetadataOp } from '../../codec/bundle.js';
import type { BundleOptions, SubmitResult, TokenMetadataFields, WalletCore } from '../../client/wallet-core.js';
import { toBigInt, type Amount, type TokenRef } from '../../client/args.js';

export class DexClient {
  /** CreatePool (28; docs/dex.md): costs 100 NTV besides gas; the creator's LP is locked for `lpLockDuration` seconds. */
  async createPool(this: WalletCore, tokenA: TokenRef, tokenB: TokenRef, amountA: Amount, amountB: Amount, lpLockDuration: Amount, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({
      type: 'CreatePool', tokenA: await this.resolveMint(tokenA), tokenB: await this.resolveMint(tokenB),
      amountA: toBigInt(amountA, 'amountA'), amountB: toBigInt(amountB, 'amountB'), lpLockDuration: toBigInt(lpLockDuration, 'lpLockDuration'),
    }, opts);
  }

  /** AddLiquidity (29): at most `amountA`/`amountB` at the pool's ratio; fails below `minLp` LP units (0 = any). */
  async addLiquidity(this: WalletCore, tokenA: TokenRef, tokenB: TokenRef, amountA: Amount, amountB: Amount, minLp: Amount, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({
      type: 'AddLiquidity', tokenA: await this.resolveMint(tokenA), tokenB: await this.resolveMint(tokenB),
      amountA: toBigInt(amountA, 'amountA'), amountB: toBigInt(amountB, 'amountB'), minLp: toBigInt(minLp, 'minLp'),
    }, opts);
  }

  /** RemoveLiquidity (30): burns `lpAmount` LP units; fails below either minimum. */
  async removeLiquidity(this: WalletCore, tokenA: TokenRef, tokenB: TokenRef, lpAmount: Amount, minAmountA: Amount, minAmountB: Amount, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({
      type: 'RemoveLiquidity', tokenA: await this.resolveMint(tokenA), tokenB: await this.resolveMint(tokenB),
      lpAmount: toBigInt(lpAmount, 'lpAmount'), minAmountA: toBigInt(minAmountA, 'minAmountA'), minAmountB: toBigInt(minAmountB, 'minAmountB'),
    }, opts);
  }

  /**
   * Swap (31) of an exact input through the pair's pool; fails below `minAmountOut` (for s bps of
   * slippage: svc_quoteSwap's amount_out × (10000 − s) / 10000, facts.md "DEX").
   */
  async swap(this: WalletCore, fromToken: TokenRef, toToken: TokenRef, amountIn: Amount, minAmountOut: Amount, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({
      type: 'Swap', fromToken: await this.resolveMint(fromToken), toToken: await this.resolveMint(toToken),
      amountIn: toBigInt(amountIn, 'amountIn'), minAmountOut: toBigInt(minAmountOut, 'minAmountOut'),
    }, opts);
  }

  /** UpdateTokenMetadata (34; docs/dex.md "Token metadata"), creator only: a field left out is kept, "" clears it. */
  async updateTokenMetadata(this: WalletCore, token: TokenRef, fields: TokenMetadataFields, opts: BundleOptions = {}): Promise<SubmitResult> {
    const unknown = Object.keys(fields).filter((k) => !(TOKEN_METADATA_FIELDS as readonly string[]).includes(k));
    if (unknown.length > 0) throw new Error(`fields: unknown metadata field ${unknown.join(', ')}; expected any of ${TOKEN_METADATA_FIELDS.join(', ')}`);
    const op: UpdateTokenMetadataOp = { type: 'UpdateTokenMetadata', mint: await this.resolveMint(token) };
    for (const key of TOKEN_METADATA_FIELDS) if (fields[key] !== undefined) op[key] = fields[key];
    return this.sendOperation(op, opts);
  }

  /** LockTokenMetadata (35), creator only: the metadata can never change again. */
  async lockTokenMetadata(this: WalletCore, token: TokenRef, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'LockTokenMetadata', mint: await this.resolveMint(token) }, opts);
  }
}
