/**
 * Passports' and game profiles' wallet helpers (112–114; docs/passports.md). Composed into Wallet (src/client/wallet.ts).
 */
import type { BundleOptions, SubmitResult, WalletCore } from '../../client/wallet-core.js';
import { accountBytes, toBigInt, type AccountRef, type Amount } from '../../client/args.js';

export class PassportClient {
  /** CreatePassport (112): this account's one passport, with a unique gamertag. */
  async createPassport(this: WalletCore, gamertag: string, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'CreatePassport', gamertag }, opts);
  }

  /** RegisterGame (113): this account becomes the game's publisher. */
  async registerGame(this: WalletCore, gameId: string, name: string, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'RegisterGame', gameId, name }, opts);
  }

  /** SetGameProfile (114): as the game's publisher, a passport holder's score and data. */
  async setGameProfile(this: WalletCore, gameId: string, player: AccountRef, score: Amount, data: string, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'SetGameProfile', gameId, player: accountBytes(player, 'player'), score: toBigInt(score, 'score'), data }, opts);
  }
}
