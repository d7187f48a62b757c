/**
 * Protocol governance's wallet helpers (18–21; docs/governance.md): the signed path of svc_createProposal … svc_cancelProposal. Composed into Wallet (src/client/wallet.ts).
 */
import type { ProposalAction } from '../../codec/bundle.js';
import type { BundleOptions, SubmitResult, WalletCore } from '../../client/wallet-core.js';
import { toBigInt, type Amount } from '../../client/args.js';

export class GovernanceClient {
  /**
   * CreateProposal (18; docs/governance.md): a protocol proposal; this account needs bonded stake.
   * `action` is the codec's ProposalAction, e.g. { kind: 'ParameterChange', key: 'quorum_bps', value: 4000n }.
   */
  async createProposal(this: WalletCore, title: string, description: string, action: ProposalAction, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'CreateProposal', title, description, action }, opts);
  }

  /** VoteProposal (19): one vote per account, weighted by its bonded stake. */
  async voteProposal(this: WalletCore, proposalId: Amount, approve: boolean, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'VoteProposal', proposalId: toBigInt(proposalId, 'proposalId'), approve }, opts);
  }

  /** ExecuteProposal (20): any account, once the proposal passed and its voting period is over. */
  async executeProposal(this: WalletCore, proposalId: Amount, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'ExecuteProposal', proposalId: toBigInt(proposalId, 'proposalId') }, opts);
  }

  /** CancelProposal (21): the proposer, while the proposal is open for votes. */
  async cancelProposal(this: WalletCore, proposalId: Amount, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'CancelProposal', proposalId: toBigInt(proposalId, 'proposalId') }, opts);
  }
}
