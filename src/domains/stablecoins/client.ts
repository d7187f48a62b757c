/**
 * STD-8 stablecoins' wallet helpers (docs/stablecoins.md): the mainnet path of svc_stable*, params in
 * the same order. Governance-only operations (CreateStableToken, StableRaiseSupplyCap,
 * StableVerifyIssuer) have no helper: only a passed protocol proposal executes as 0x00…09. A
 * stablecoin with the quantum requirement takes mints only from an ML-DSA-65 wallet
 * (Wallet.generate(client, 'ML-DSA-65')). Composed into Wallet (src/client/wallet.ts).
 *
 * Issuer onboarding (spec §4.16; docs/stablecoins.md "Issuer onboarding"): the proofs are recorded
 * by the keyless foundation (0x00…03) or governance, so on mainnet they travel in a VerifyIssuer
 * protocol proposal that this wallet (a staker) creates: stableProposeIssuerProofs.
 */
import type { Operation } from '../../codec/bundle.js';
import { issuerOnboardingMessage } from './issuer-proof.js';
import type { BundleOptions, SubmitResult, WalletCore } from '../../client/wallet-core.js';
import { toBigInt, accountBytes, concatAccounts, type Amount, type TokenRef, type AccountRef } from '../../client/args.js';

export class StablecoinClient {
  /** StableMint (54): as a configured minter; above mint_threshold it waits for the cosigners. */
  async stableMint(this: WalletCore, token: TokenRef, to: AccountRef, amount: Amount, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'StableMint', token: await this.resolveMint(token), to: accountBytes(to, 'to'), amount: toBigInt(amount, 'amount') }, opts);
  }

  /** StableBurn (55): this account's own balance. */
  async stableBurn(this: WalletCore, token: TokenRef, amount: Amount, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'StableBurn', token: await this.resolveMint(token), amount: toBigInt(amount, 'amount') }, opts);
  }

  /** StablePause (56): the pauser pauses (true) or unpauses (false). */
  async stablePause(this: WalletCore, token: TokenRef, pause: boolean, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'StablePause', token: await this.resolveMint(token), pause }, opts);
  }

  /** StableBlacklist (57): the blacklister adds (true) or removes (false) an address. */
  async stableBlacklist(this: WalletCore, token: TokenRef, address: AccountRef, add: boolean, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'StableBlacklist', token: await this.resolveMint(token), account: accountBytes(address, 'address'), add }, opts);
  }

  /** StableTransferRole (58): the owner queues a role transfer; it applies after the timelock. */
  async stableTransferRole(this: WalletCore, token: TokenRef, role: 'owner' | 'master_minter' | 'pauser' | 'blacklister', newAddress: AccountRef, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'StableTransferRole', token: await this.resolveMint(token), role, newAddress: accountBytes(newAddress, 'newAddress') }, opts);
  }

  /** StableConfigureMinter (59): the master minter adds (timelocked), removes or configures a minter. */
  async stableConfigureMinter(this: WalletCore, token: TokenRef, action: 'add' | 'remove' | 'configure', minter: AccountRef, allowance: Amount = 0n, epochLimit: Amount = 0n, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({
      type: 'StableConfigureMinter', token: await this.resolveMint(token), action, minter: accountBytes(minter, 'minter'),
      allowance: toBigInt(allowance, 'allowance'), epochLimit: toBigInt(epochLimit, 'epochLimit'),
    }, opts);
  }

  /** StableHandover (60): the owner queues the handover of all four roles (at least 720 blocks). */
  async stableHandover(this: WalletCore, token: TokenRef, newOwner: AccountRef, newMasterMinter: AccountRef, newPauser: AccountRef, newBlacklister: AccountRef, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({
      type: 'StableHandover', token: await this.resolveMint(token), newOwner: accountBytes(newOwner, 'newOwner'), newMasterMinter: accountBytes(newMasterMinter, 'newMasterMinter'),
      newPauser: accountBytes(newPauser, 'newPauser'), newBlacklister: accountBytes(newBlacklister, 'newBlacklister'),
    }, opts);
  }

  /** StableCancelPending (61) / StableExecutePending (62) / StableApproveMint (67) of a pending id. */
  async stablePending(this: WalletCore, action: 'cancel' | 'execute' | 'approve', token: TokenRef, pendingId: Amount, opts: BundleOptions = {}): Promise<SubmitResult> {
    const type = action === 'cancel' ? 'StableCancelPending' : action === 'execute' ? 'StableExecutePending' : 'StableApproveMint';
    return this.sendOperation({ type, token: await this.resolveMint(token), pendingId: toBigInt(pendingId, 'pendingId') }, opts);
  }

  /** StableFreezeMint (63, a guardian) or StableUnfreezeMint (64, the owner). */
  async stableFreezeMint(this: WalletCore, token: TokenRef, freeze: boolean, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: freeze ? 'StableFreezeMint' : 'StableUnfreezeMint', token: await this.resolveMint(token) }, opts);
  }

  /** StableSetGuardians (65): the owner replaces the guardian list. */
  async stableSetGuardians(this: WalletCore, token: TokenRef, guardians: AccountRef[], opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'StableSetGuardians', token: await this.resolveMint(token), guardians: concatAccounts(guardians, 'guardians') }, opts);
  }

  /** StableConfigureSecurity (66): the owner sets timelock, threshold, signers, cosigners and the quantum requirement. */
  async stableConfigureSecurity(this: WalletCore, token: TokenRef, config: { timelock: Amount; mintThreshold: Amount; requiredSigners: number; cosigners: AccountRef[]; quantumRequired: boolean }, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({
      type: 'StableConfigureSecurity', token: await this.resolveMint(token), timelock: toBigInt(config.timelock, 'timelock'), mintThreshold: toBigInt(config.mintThreshold, 'mintThreshold'),
      requiredSigners: config.requiredSigners, cosigners: concatAccounts(config.cosigners, 'cosigners'), quantumRequired: config.quantumRequired,
    }, opts);
  }

  /**
   * The message the origin-chain admin signs with personal_sign (the text of
   * svc_stableIssuerOnboardingMessage): sign it with the admin key, e.g. viem's
   * `account.signMessage({ message })`, and pass the signature to stableIssuerProofOp.
   */
  async stableOnboardingMessage(this: WalletCore, token: TokenRef, originChainId: Amount): Promise<string> {
    const chainId = Number(BigInt(await this.client.call<string>('eth_chainId', [])));
    return issuerOnboardingMessage(await this.resolveMint(token), toBigInt(originChainId, 'originChainId'), chainId);
  }

  /** A StableIssuerProof (70) operation: the admin's signature, or the foundation's domain or documents attestation. */
  async stableIssuerProofOp(this: WalletCore, token: TokenRef, proof:
    | { method: 'admin_signature'; originChainId: Amount; adminAddress: string; signature: string }
    | { method: 'domain' | 'documents'; evidenceDigest: string; detail: string }): Promise<Operation> {
    const mint = await this.resolveMint(token);
    const hex = (v: string, bytes: number, what: string) => {
      if (!new RegExp(`^0x[0-9a-fA-F]{${2 * bytes}}$`).test(v)) throw new TypeError(`${what} must be 0x + ${2 * bytes} hex digits`);
      return Uint8Array.from(Buffer.from(v.slice(2), 'hex'));
    };
    if (proof.method === 'admin_signature') {
      const subject = new Uint8Array(32);
      subject.set(hex(proof.adminAddress, 20, 'adminAddress'), 12);
      return { type: 'StableIssuerProof', token: mint, method: proof.method, chainId: toBigInt(proof.originChainId, 'originChainId'), subject, detail: new Uint8Array(0), signature: hex(proof.signature, 65, 'signature') };
    }
    return { type: 'StableIssuerProof', token: mint, method: proof.method, chainId: 0n, subject: hex(proof.evidenceDigest, 32, 'evidenceDigest'), detail: new TextEncoder().encode(proof.detail), signature: new Uint8Array(0) };
  }

  /**
   * The mainnet path of svc_stableSubmitAdminSignature / svc_stableAttestIssuer: a VerifyIssuer
   * protocol proposal carrying the proofs (stableIssuerProofOp), which run as governance once passed.
   * The node refuses the proposal at once if an admin signature does not verify.
   */
  async stableProposeIssuerProofs(this: WalletCore, title: string, description: string, proofs: Operation[], opts: BundleOptions = {}): Promise<SubmitResult> {
    // CreateProposal itself (governance's createProposal sends the same): a domain's helpers call no other domain's
    return this.sendOperation({ type: 'CreateProposal', title, description, action: { kind: 'VerifyIssuer', operations: proofs } }, opts);
  }
}
