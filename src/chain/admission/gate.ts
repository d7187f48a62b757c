import { decodeBundle, bundleHash, signingHashOfEncoded, type Bundle } from '../../codec/bundle.js';
import { toHex, toLatin1 } from '../../codec/hash.js';
import { encodeAccount, encodeHash, keyHashOf } from '../../codec/address.js';
import { signatureScheme, type SignatureScheme } from '../../codec/keys.js';
import type { SignatureVerifierPool } from '../../codec/verify-pool.js';
import { ChainError } from '../errors.js';
import type { BundleAuth, PendingBundle } from '../mempool.js';
import { insufficientFunds, ntvCommitment } from './funds.js';
import type { AccountKeys } from '../account-keys.js';
import { looksLikeEvmTransaction } from '../evm/transaction.js';
import { admissionProofProblem } from './host-proofs.js';
import { AUTH_UNSIGNED, ED25519_SIGNATURE_BYTES, ML_DSA_65_SIGNATURE_BYTES } from '../../abi/constants.js';

export interface AdmissionContext {
  allowUnsigned: boolean;
  nowSeconds: bigint;
  /** the account's next executable nonce; `accountLatin1` is the account's latin1 (PendingBundle.accountKey) */
  stateNonce(account: Uint8Array, accountLatin1: string): bigint;
  /** hex hashes of the bundles that failed at `nonce` and may not be included again (docs/core-abi.md "Failed bundles: fee and replay") */
  failedAtNonce?(account: Uint8Array, nonce: bigint): ReadonlySet<string>;
  /** keys revealed by this account's bundles still in the mempool */
  pendingKeys(account: Uint8Array): Uint8Array[];
  /**
   * Verifies a bundle whose signature is a raw secp256k1-signed EVM transaction (auth 3,
   * docs/eth.md "Sending"); absent, such bundles are refused as a bad signature.
   */
  verifyEvm?(bytes: Uint8Array, signature: Uint8Array, hash: Uint8Array): Promise<BundleAuth>;
  /** this network's chain id, which the proofs the host checks for the core name (./host-proofs.ts) */
  chainId: number;
  /**
   * The funds rule (src/chain/admission/funds.ts): the NTV the account has for a bundle at `nonce`, its
   * committed balance less what its waiting bundles below `nonce` may take. Absent (a proposal's
   * bundles, whose failures are the core's to rule on), no funds check.
   */
  ntvAvailable?(account: Uint8Array, accountLatin1: string, nonce: bigint): bigint;
  /** nanoNTV per gas unit, for the funds rule */
  gasPrice?: bigint;
  /**
   * The key rule (`assertKeyMayAct`): a revealed key must be registered for the account or be its
   * first reveal. Set for the pool's admission; a proposal's bundles are the core's to rule on.
   */
  keyRule?: boolean;
}

/**
 * Everything the host checks before a bundle may wait in the mempool: canonical Borsh, expiry,
 * nonce not already used, and the signature (spec §5.2, §5.3). The core checks nonce, expiry and
 * key authorization again at execution; here they give the submitter an early, precise error.
 * Ed25519 and ML-DSA-65 checks run on the worker pool, off the main thread.
 */
export class SubmissionGate {
  constructor(
    private readonly verifier: SignatureVerifierPool,
    private readonly keys: AccountKeys,
  ) {}

  /**
   * The gate's checks; a refusal is a rejected promise (never a synchronous throw). Not an async
   * function, nor is anything on its usual path: with the signature verified on the pool, every
   * admitted bundle used to keep four suspended async frames (this, `authenticate`, the admission's
   * and the chain's) alive until its verdict — at 10,000 bundles in flight, 40,000 generator objects
   * and their register files promoted to the old generation (docs/performance.md "2026-12-08,
   * twelfth round"). One continuation a bundle holds what the rest of the checks need.
   */
  admit(bytes: Uint8Array, ctx: AdmissionContext, nodeAssigned = false): Promise<PendingBundle> {
    try {
      return this.admitChecked(bytes, ctx, nodeAssigned);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private admitChecked(bytes: Uint8Array, ctx: AdmissionContext, nodeAssigned: boolean): Promise<PendingBundle> {
    let bundle: Bundle;
    try {
      bundle = decodeBundle(bytes);
    } catch (error) {
      throw invalid('MALFORMED_BUNDLE', `malformed bundle: ${(error as Error).message}`);
    }
    const hash = bundleHash(bytes);
    const expiresAt = bundle.expiryTimestamp !== undefined && bundle.expiryTimestamp < bundle.validUntil
      ? bundle.expiryTimestamp
      : bundle.validUntil;
    if (expiresAt < ctx.nowSeconds) {
      throw invalid('EXPIRED', `bundle expired at ${expiresAt} (unix seconds); the node's time is ${ctx.nowSeconds}`, hash);
    }
    if (bundle.operations.length === 0) throw invalid('EMPTY_BUNDLE', 'bundle has no operations', hash);
    // Proofs the core cannot check, each domain's (./host-proofs.ts): a bad one never reaches a block.
    const proof = admissionProofProblem(bundle.operations, ctx.chainId);
    if (proof) throw invalid(proof.status, proof.message, hash);
    const accountKey = toLatin1(bundle.userAccount);
    const stateNonce = ctx.stateNonce(bundle.userAccount, accountKey);
    if (bundle.nonce < stateNonce) {
      throw invalid('NONCE_TOO_LOW', `nonce ${bundle.nonce} is already used; the account's next nonce is ${stateNonce}`, hash);
    }
    const hashKey = toHex(hash);
    if (bundle.nonce === stateNonce && ctx.failedAtNonce?.(bundle.userAccount, stateNonce).has(hashKey)) {
      throw invalid('ALREADY_INCLUDED', 'this exact bundle already failed in a block at this nonce and is not included again; sign a new one to retry', hash);
    }
    const auth = ctx.verifyEvm && looksLikeEvmTransaction(bundle.signature)
      ? ctx.verifyEvm(bytes, bundle.signature, hash)
      : this.authenticate(bundle, bytes, ctx, hash, accountKey);
    return auth.then((verified) => this.afterSignature(bundle, bytes, ctx, nodeAssigned, hash, hashKey, accountKey, expiresAt, verified));
  }

  /**
   * After the signature, as geth recovers the sender before it checks the sender's funds: a forged
   * bundle is answered BAD_SIGNATURE whatever the account holds. A revealed key that does not hash
   * to the account is left to the core's key rule (PUBKEY_MISMATCH, or a registered key), which it
   * applies before the fee (assembly/block.ts), so that answer is not hidden.
   */
  private afterSignature(
    bundle: Bundle, bytes: Uint8Array, ctx: AdmissionContext, nodeAssigned: boolean,
    hash: Uint8Array, hashKey: string, accountKey: string, expiresAt: bigint, auth: BundleAuth,
  ): PendingBundle {
    let ntvCost: bigint | undefined;
    // (With the key rule on, such a key was refused above unless registered: the funds rule applies.)
    const keyUnproven = !ctx.keyRule && auth.pubkey.length > 0 && Buffer.compare(auth.keyHash, bundle.userAccount) !== 0;
    if (ctx.ntvAvailable && !keyUnproven) {
      ntvCost = ntvCommitment(bundle.operations, bundle.maxGas, bundle.maxPriorityFee, ctx.gasPrice ?? 0n);
      const have = ctx.ntvAvailable(bundle.userAccount, accountKey, bundle.nonce);
      if (have < ntvCost) throw insufficientFunds(bundle.userAccount, have, ntvCost, { bundle_hash: encodeHash(hash) });
    }
    return {
      hash,
      hashKey,
      bytes,
      account: bundle.userAccount,
      accountKey,
      nonce: bundle.nonce,
      expiresAt,
      priorityFee: bundle.maxPriorityFee,
      auth,
      nodeAssigned,
      ntvCost,
    };
  }

  /**
   * The bundle's signer (spec §5.3). The bundle's own sender_pubkey, checked with one continuation
   * (the usual case, and the only one while an account has no registered key); else the account's
   * registered keys of the scheme, then the keys revealed by its bundles still waiting, which the
   * core registers before this bundle runs (and refuses it with KEY_NOT_AUTHORIZED if not).
   */
  private authenticate(bundle: Bundle, bytes: Uint8Array, ctx: AdmissionContext, hash: Uint8Array, accountKey: string): Promise<BundleAuth> {
    if (bundle.signature.length === 0) {
      // spec §5.6: the testnet does not enforce signatures; the mainnet does.
      if (!ctx.allowUnsigned) throw invalid('UNSIGNED_NOT_ALLOWED', 'unsigned bundles are refused on mainnet; sign the bundle', hash);
      return Promise.resolve({ kind: AUTH_UNSIGNED, keyHash: new Uint8Array(32), pubkey: new Uint8Array(0) });
    }
    const scheme = signatureScheme(bundle.signature);
    if (scheme === undefined) {
      throw invalid('BAD_SIGNATURE', `signature of ${bundle.signature.length} bytes is neither Ed25519 (${ED25519_SIGNATURE_BYTES}) nor ML-DSA-65 (${ML_DSA_65_SIGNATURE_BYTES})`, hash);
    }
    // From the bytes as received: decoded once, never encoded again (docs/performance.md).
    const message = signingHashOfEncoded(bytes, bundle);
    const revealed = bundle.senderPubkey;
    if (revealed === undefined) return this.authenticateByKeys(bundle, ctx, hash, accountKey, message, scheme);
    return Promise.resolve(this.verifies(revealed, message, bundle.signature, scheme)).then((ok) => {
      if (!ok) throw badSignature(hash);
      // the key's hash once: the key rule compares it, the auth carries it
      const keyHash = keyHashOf(revealed);
      if (ctx.keyRule) this.assertKeyMayAct(bundle, scheme, accountKey, hash, keyHash);
      return authOf(scheme, revealed, revealed, keyHash);
    });
  }

  /**
   * A bundle without sender_pubkey (a wallet's usual bundle once its key is registered): the
   * account's registered keys of the scheme, then the keys its waiting bundles reveal. An account
   * with one key of the scheme, the usual case, is checked with one continuation, as a revealed key
   * is; several keys, or none, go through `authenticateByEachKey`.
   */
  private authenticateByKeys(
    bundle: Bundle, ctx: AdmissionContext, hash: Uint8Array, accountKey: string, message: Uint8Array, scheme: SignatureScheme,
  ): Promise<BundleAuth> {
    let only: Uint8Array | undefined;
    let count = 0;
    for (const key of this.keys.ofLatin1(accountKey)) {
      if (key.keyType !== scheme.keyType) continue;
      count++;
      only = key.pubkey;
    }
    if (count !== 1) return this.authenticateByEachKey(bundle, ctx, hash, accountKey, message, scheme, true);
    const pubkey = only!;
    return Promise.resolve(this.verifies(pubkey, message, bundle.signature, scheme)).then((ok) => ok
      ? authOf(scheme, pubkey, EMPTY_PUBKEY)
      : this.authenticateByEachKey(bundle, ctx, hash, accountKey, message, scheme, false));
  }

  /**
   * Each registered key of the scheme in turn (when `registered`; else they were tried already and
   * one did not verify), then the keys revealed by the account's waiting bundles, which the core
   * registers before this bundle runs (and refuses it with KEY_NOT_AUTHORIZED if not). The waiting
   * ones are listed only when no registered key verifies: admission reads this per bundle, and an
   * account with many bundles waiting would otherwise walk them all each time.
   */
  private async authenticateByEachKey(
    bundle: Bundle, ctx: AdmissionContext, hash: Uint8Array, accountKey: string, message: Uint8Array, scheme: SignatureScheme, registered: boolean,
  ): Promise<BundleAuth> {
    let tried = registered ? 0 : 1;
    if (registered) {
      for (const key of this.keys.ofLatin1(accountKey)) {
        if (key.keyType !== scheme.keyType) continue;
        tried++;
        if (await this.verifies(key.pubkey, message, bundle.signature, scheme)) return authOf(scheme, key.pubkey, EMPTY_PUBKEY);
      }
    }
    for (const pubkey of ctx.pendingKeys(bundle.userAccount)) {
      tried++;
      if (await this.verifies(pubkey, message, bundle.signature, scheme)) return authOf(scheme, pubkey, EMPTY_PUBKEY);
    }
    if (tried === 0) {
      throw invalid('KEY_NOT_AUTHORIZED',
        'the account has no registered key of this type; include sender_pubkey on the first signed send (spec §5.3)', hash);
    }
    throw badSignature(hash);
  }

  /**
   * The core's key rule at admission (issue 46 item 8; docs/mempool.md "Keys"; assembly/block.ts):
   * a revealed `sender_pubkey` may act for the account only when it is registered for it (of this
   * scheme), or when the account has no key yet and the key hashes to it (its first signed send).
   * Before, any key's bundle for any account was admitted and, behind a nonce gap, waited as
   * queued: an attacker parked a victim's next nonces and the victim's own bundles were refused as
   * underpriced replacements. Such a bundle can never execute (the core answers KEY_NOT_AUTHORIZED
   * or PUBKEY_MISMATCH and does not include it), so it is refused here, queued or not.
   */
  private assertKeyMayAct(bundle: Bundle, scheme: SignatureScheme, accountKey: string, hash: Uint8Array, keyHash: Uint8Array): void {
    let keys = 0;
    for (const key of this.keys.ofLatin1(accountKey)) {
      keys++;
      if (Buffer.compare(key.keyHash, keyHash) === 0) {
        if (key.keyType === scheme.keyType) return;
        throw invalid('KEY_NOT_AUTHORIZED', `the signing key ${encodeAccount(keyHash)} is registered for account ${encodeAccount(bundle.userAccount)} as another key type`, hash);
      }
    }
    if (keys === 0) {
      if (Buffer.compare(keyHash, bundle.userAccount) === 0) return;
      throw invalid('PUBKEY_MISMATCH', `sender_pubkey hashes to ${encodeAccount(keyHash)}, not to account ${encodeAccount(bundle.userAccount)}, which has no registered key: a first signed send must reveal the account's own key (spec §5.3)`, hash);
    }
    throw invalid('KEY_NOT_AUTHORIZED', `the signing key ${encodeAccount(keyHash)} is not registered for account ${encodeAccount(bundle.userAccount)} (it holds ${keys} key${keys === 1 ? '' : 's'}); a key added by a bundle still waiting may sign once that bundle is in a block`, hash);
  }

  /**
   * Whether the signature verifies with `pubkey` (false for a key of another scheme's length). Both
   * schemes on the worker pool (src/codec/verify-pool.ts): an account may sign with an ML-DSA-65 key
   * as its everyday key (docs/accounts.md), so its checks leave the main thread too. Not async: the
   * pool's promise is returned as is (no promise of its own per bundle).
   */
  private verifies(pubkey: Uint8Array, message: Uint8Array, signature: Uint8Array, scheme: SignatureScheme): boolean | Promise<boolean> {
    return pubkey.length === scheme.publicKeyLength && this.verifier.verify(message, signature, pubkey);
  }
}

const EMPTY_PUBKEY = new Uint8Array(0);

/** The auth of a bundle signed by `pubkey` (its `keyHash` when the caller has it already); `revealed` is the key when the bundle carries it (its sender_pubkey, which the core registers), else empty. */
function authOf(scheme: SignatureScheme, pubkey: Uint8Array, revealed: Uint8Array, keyHash: Uint8Array = keyHashOf(pubkey)): BundleAuth {
  return { kind: scheme.keyType + 1, keyHash, pubkey: revealed };
}

function badSignature(hash: Uint8Array): ChainError {
  return invalid('BAD_SIGNATURE', 'signature does not verify against the signing hash with the account key', hash);
}

function invalid(status: string, message: string, hash?: Uint8Array): ChainError {
  return new ChainError('BUNDLE_INVALID', message, hash ? { status, bundle_hash: hash } : { status });
}
