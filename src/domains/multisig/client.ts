/**
 * Multi-sig accounts' wallet helpers (22–25; docs/multisig.md): the signed path of svc_createMultiSig …
 * svc_revokeMultiSigApproval. Composed into Wallet (src/client/wallet.ts).
 */
import type { Operation } from '../../codec/bundle.js';
import type { BundleOptions, SubmitResult, WalletCore } from '../../client/wallet-core.js';
import { accountBytes, toBigInt, type AccountRef, type Amount } from '../../client/args.js';

export class MultisigClient {
  /** CreateMultiSig (22): the receipt's created.multisig is the Nx5… address. */
  async createMultiSig(this: WalletCore, signers: AccountRef[], threshold: number, label: string, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'CreateMultiSig', signers: signers.map((a, i) => accountBytes(a, `signers[${i}]`)), threshold, label }, opts);
  }

  /** ProposeMultiSigTx (23): operations to run as the multi-sig once approved; this wallet prepays their gas. */
  async proposeMultiSigTx(this: WalletCore, multisig: AccountRef, operations: Operation[], description: string, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'ProposeMultiSigTx', multisig: accountBytes(multisig, 'multisig'), operations, description }, opts);
  }

  /** ApproveMultiSigTx (24): the approval that reaches the threshold executes the proposal. */
  async approveMultiSigTx(this: WalletCore, multisig: AccountRef, txId: Amount, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'ApproveMultiSigTx', multisig: accountBytes(multisig, 'multisig'), txId: toBigInt(txId, 'txId') }, opts);
  }

  /** RevokeMultiSigApproval (25). */
  async revokeMultiSigApproval(this: WalletCore, multisig: AccountRef, txId: Amount, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'RevokeMultiSigApproval', multisig: accountBytes(multisig, 'multisig'), txId: toBigInt(txId, 'txId') }, opts);
  }
}
