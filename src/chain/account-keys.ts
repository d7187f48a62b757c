import { decodeKeyRecord, Prefix } from '../core/records.js';
import type { StateView } from './state-view.js';
import { toLatin1 } from '../codec/hash.js';

export interface AccountKey {
  keyHash: Uint8Array;
  /** 0 Ed25519, 1 ML-DSA-65 */
  keyType: number;
  /** 0 owner, 1 operator (docs/accounts.md "Roles") */
  role: number;
  pubkey: Uint8Array;
  /** the block that registered the key, and its unix time */
  addedHeight: bigint;
  addedAt: bigint;
}

const NO_KEYS: readonly AccountKey[] = [];

/**
 * The registered signing keys of every account (state records `0x06 addr key_hash`,
 * docs/core-abi.md), indexed by account so that a bundle without `sender_pubkey` can be verified
 * against its account's keys (spec §5.2). Kept in step with state through the StateView watcher.
 */
export class AccountKeys {
  private readonly byAccount = new Map<string, Map<string, AccountKey>>();

  constructor(state: StateView) {
    state.watch(Prefix.KEY, (key, value) => this.onWrite(key, value));
  }

  of(account: Uint8Array): AccountKey[] {
    return [...this.ofLatin1(toLatin1(account))];
  }

  /** `of` by the account's latin1 (PendingBundle.accountKey), without a copy: admission reads it per bundle. */
  ofLatin1(accountLatin1: string): Iterable<AccountKey> {
    return this.byAccount.get(accountLatin1)?.values() ?? NO_KEYS;
  }

  private onWrite(key: Uint8Array, value: Uint8Array | null): void {
    const account = toLatin1(key.subarray(1, 33));
    const keyHash = key.slice(33, 65);
    const hashKey = Buffer.from(keyHash).toString('latin1');
    let keys = this.byAccount.get(account);
    if (value === null) {
      keys?.delete(hashKey);
      if (keys?.size === 0) this.byAccount.delete(account);
      return;
    }
    if (!keys) {
      keys = new Map();
      this.byAccount.set(account, keys);
    }
    keys.set(hashKey, { keyHash, ...decodeKeyRecord(value) });
  }
}
