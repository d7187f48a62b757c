/**
 * the name service's wallet helper (docs/names.md): the signed path of RegisterName. Composed into Wallet (src/client/wallet.ts).
 */
import type { BundleOptions, SubmitResult, WalletCore } from '../../client/wallet-core.js';

export class NameClient {
  /** RegisterName (32; docs/names.md): owned by this account; its first name becomes its primary name. */
  async registerName(this: WalletCore, name: string, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'RegisterName', name }, opts);
  }
}
