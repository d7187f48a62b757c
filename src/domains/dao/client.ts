/**
 * DAOs' wallet helpers (85–90; docs/dao.md): the signed path of svc_createDao … svc_daoUnlock. Composed into Wallet (src/client/wallet.ts).
 */
import { decodePrefixed } from '../../codec/address.js';
import type { Operation } from '../../codec/bundle.js';
import type { BundleOptions, SubmitResult, WalletCore } from '../../client/wallet-core.js';
import { toBigInt, type Amount, type TokenRef } from '../../client/args.js';

export class DaoClient {
  /**
   * CreateDao (85; docs/dao.md): the receipt's DaoCreated event has the Nx7… address.
   * `config` as svc_createDao's: bps, blocks, and the proposal threshold in raw token units.
   */
  async createDao(this: WalletCore, name: string, tokenMint: TokenRef, config: DaoConfig, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({
      type: 'CreateDao', name, tokenMint: await this.resolveMint(tokenMint), quorumBps: config.quorumBps, thresholdBps: config.thresholdBps,
      votingPeriod: toBigInt(config.votingPeriod, 'votingPeriod'), executionDelay: toBigInt(config.executionDelay, 'executionDelay'),
      proposalThreshold: toBigInt(config.proposalThreshold, 'proposalThreshold'),
    }, opts);
  }

  /** DaoPropose (86): text, or operations the DAO account (its treasury) runs once passed; this account needs the DAO's proposal threshold. */
  async daoPropose(this: WalletCore, dao: DaoRef, title: string, description: string, operations: Operation[] | null = null, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({
      type: 'DaoPropose', dao: daoBytes(dao), title, description, action: operations ? { kind: 'Operations', operations } : { kind: 'Text' },
    }, opts);
  }

  /** DaoVote (87): locks this account's whole balance of the DAO's token in the DAO escrow until the vote ends; that is the weight. */
  async daoVote(this: WalletCore, dao: DaoRef, proposalId: Amount, approve: boolean, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'DaoVote', dao: daoBytes(dao), proposalId: toBigInt(proposalId, 'proposalId'), approve }, opts);
  }

  /** DaoExecute (88): any account, once the proposal passed and its execution delay is over. */
  async daoExecute(this: WalletCore, dao: DaoRef, proposalId: Amount, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'DaoExecute', dao: daoBytes(dao), proposalId: toBigInt(proposalId, 'proposalId') }, opts);
  }

  /** DaoCancel (89): the proposer, while the proposal is open for votes. */
  async daoCancel(this: WalletCore, dao: DaoRef, proposalId: Amount, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'DaoCancel', dao: daoBytes(dao), proposalId: toBigInt(proposalId, 'proposalId') }, opts);
  }

  /** DaoUnlock (90): takes back the tokens this account's vote locked, once voting is over or the proposal was cancelled. */
  async daoUnlock(this: WalletCore, dao: DaoRef, proposalId: Amount, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'DaoUnlock', dao: daoBytes(dao), proposalId: toBigInt(proposalId, 'proposalId') }, opts);
  }
}

/** A DAO: `Nx7…`, `0x` + 64 hex or 32 bytes (docs/dao.md). */
export type DaoRef = string | Uint8Array;
/** svc_createDao's config (docs/dao.md). */
export interface DaoConfig { quorumBps: number; thresholdBps: number; votingPeriod: Amount; executionDelay: Amount; proposalThreshold: Amount }

function daoBytes(value: DaoRef): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (/^0x[0-9a-fA-F]{64}$/.test(value)) return new Uint8Array(Buffer.from(value.slice(2), 'hex'));
  const bytes = decodePrefixed('Nx7', value);
  if (!bytes) throw new Error(`dao: expected Nx7… (base58 of 32 bytes), 0x + 64 hex or 32 bytes, got ${JSON.stringify(value)}`);
  return bytes;
}
