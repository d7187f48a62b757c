/**
 * Upgrade plans' wallet helpers (15–17; docs/upgrades.md). Composed into Wallet (src/client/wallet.ts).
 */
import type { BundleOptions, SubmitResult, WalletCore } from '../../client/wallet-core.js';
import { toBigInt, type Amount } from '../../client/args.js';

export class UpgradeClient {
  /**
   * ScheduleUpgrade (15; docs/upgrades.md): the release `name` executes the chain from `height` once
   * approved. `checksum` is the packed release's SHA-256 (32 bytes or 64 hex digits, 0x optional).
   */
  async scheduleUpgrade(this: WalletCore, name: string, height: Amount, binaryUrl: string, checksum: string | Uint8Array, infoUrl = '', opts: BundleOptions = {}): Promise<SubmitResult> {
    const sum = typeof checksum === 'string' ? new Uint8Array(Buffer.from(checksum.replace(/^0x/i, ''), 'hex')) : checksum;
    if (sum.length !== 32 || (typeof checksum === 'string' && !/^(0x)?[0-9a-fA-F]{64}$/.test(checksum))) throw new Error('checksum: a SHA-256, 32 bytes or 64 hex digits');
    return this.sendOperation({ type: 'ScheduleUpgrade', name, height: toBigInt(height, 'height'), binaryUrl, checksum: sum, infoUrl }, opts);
  }

  /** VoteUpgrade (17; docs/upgrades.md): the upgrade authority, or an active validator in full mode. */
  async voteUpgrade(this: WalletCore, name: string, approve: boolean, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'VoteUpgrade', name, approve }, opts);
  }

  /** CancelUpgrade (16; docs/upgrades.md): the authority, or the proposer while the plan is pending. */
  async cancelUpgrade(this: WalletCore, name: string, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'CancelUpgrade', name }, opts);
  }
}
