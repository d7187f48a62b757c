/**
 * Data anchoring's wallet helper (111; docs/anchors.md). Composed into Wallet (src/client/wallet.ts).
 */
import type { BundleOptions, SubmitResult, WalletCore } from '../../client/wallet-core.js';
import { hashBytes } from '../../client/args.js';

export class AnchorClient {
  /** Anchor (111): `valueHash` (Nxh…, 0x + 64 hex or 32 bytes) under a namespace this account owns or opens, at a new key. */
  async anchor(this: WalletCore, namespace: string, key: string, valueHash: string | Uint8Array, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'Anchor', namespace, key, valueHash: hashBytes(valueHash, 'valueHash') }, opts);
  }
}
