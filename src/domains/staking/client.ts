/**
 * Validator staking's wallet helpers (docs/staking.md): the signed path of the staking operations,
 * svc_stake … svc_rotateConsensusKey. Composed into Wallet (src/client/wallet.ts).
 */
import type { BundleOptions, SubmitResult, WalletCore } from '../../client/wallet-core.js';
import { toBigInt, accountBytes, pubkeyBytes, type Amount, type AccountRef, type PubkeyRef } from '../../client/args.js';

export class StakingClient {
  /** Stake (4; docs/staking.md): creates or adds to this account's validator; `validatorPubkey` its Ed25519 consensus key. */
  async stake(this: WalletCore, amount: Amount, validatorPubkey: PubkeyRef, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'Stake', amount: toBigInt(amount, 'amount'), validatorPubkey: pubkeyBytes(validatorPubkey, 'validatorPubkey') }, opts);
  }

  /** Unstake (5): self stake into an unbonding entry. */
  async unstake(this: WalletCore, amount: Amount, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'Unstake', amount: toBigInt(amount, 'amount') }, opts);
  }

  /** ClaimUnstake (6): pays every released unbonding entry. */
  async claimUnstake(this: WalletCore, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'ClaimUnstake' }, opts);
  }

  /** Delegate (7): `validator` is the validator's staking account (Nx0… or 0x). */
  async delegate(this: WalletCore, validator: AccountRef, amount: Amount, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'Delegate', validator: accountBytes(validator, 'validator'), amount: toBigInt(amount, 'amount') }, opts);
  }

  /** Undelegate (8): into an unbonding entry. */
  async undelegate(this: WalletCore, validator: AccountRef, amount: Amount, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'Undelegate', validator: accountBytes(validator, 'validator'), amount: toBigInt(amount, 'amount') }, opts);
  }

  /** ClaimRewards (9): settles and pays every delegation of this account. */
  async claimRewards(this: WalletCore, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'ClaimRewards' }, opts);
  }

  /** SetCommission (10), validator only: basis points, at most the chain's max_commission_bps. */
  async setCommission(this: WalletCore, rateBps: number, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'SetCommission', rate: rateBps }, opts);
  }

  /** Unjail (11), validator only, once its jail time has passed. */
  async unjail(this: WalletCore, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'Unjail' }, opts);
  }

  /** SetAutoCompound (12): of this account's delegation to `validator`. */
  async setAutoCompound(this: WalletCore, validator: AccountRef, enable: boolean, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'SetAutoCompound', validator: accountBytes(validator, 'validator'), enable }, opts);
  }

  /** SetPoolConfig (13), validator only. */
  async setPoolConfig(this: WalletCore, params: SetPoolConfigParams, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({
      type: 'SetPoolConfig', poolEnabled: params.poolEnabled, poolName: params.poolName,
      minDelegation: toBigInt(params.minDelegation, 'minDelegation'), autoCompoundDefault: params.autoCompoundDefault,
    }, opts);
  }

  /** SetValidatorMetadata (14), validator only: all four fields are written ("" clears one). */
  async setValidatorMetadata(this: WalletCore, params: ValidatorMetadataParams, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'SetValidatorMetadata', name: params.name, description: params.description, website: params.website, avatarUrl: params.avatarUrl }, opts);
  }

  /** RotateConsensusKey (119), validator only: queued until the next epoch boundary. */
  async rotateConsensusKey(this: WalletCore, newConsensusPubkey: PubkeyRef, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'RotateConsensusKey', newConsensusPubkey: pubkeyBytes(newConsensusPubkey, 'newConsensusPubkey') }, opts);
  }
}

export interface SetPoolConfigParams {
  poolEnabled: boolean;
  poolName: string;
  /** Raw NTV a delegation must reach when the pool is enabled (0 = none). */
  minDelegation: Amount;
  autoCompoundDefault: boolean;
}

export interface ValidatorMetadataParams {
  name: string;
  description: string;
  website: string;
  avatarUrl: string;
}
