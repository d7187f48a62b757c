import { BUNDLE_GAS_CEILING } from '../abi/constants.js';
import { NATIVE_MINT, encodeAccount, encodeHash, parseAddress, parseMint } from '../codec/address.js';
import {
  bundleHash, decodeBundle, encodeBundle, signingHash,
  type Bundle, type Operation,
} from '../codec/bundle.js';
import { toHex } from '../codec/hash.js';
import { Signer, keyTypeCode, type KeyTypeName } from '../codec/keys.js';
import { bundleGasOf } from './gas.js';
import { RpcClient, RpcClientError } from './rpc-client.js';
import { accountBytes, hashBytes, keyBytes, toBigInt, type AccountRef } from './args.js';
import { domainClients, type DomainClients } from './domain-clients.js';
import type { BundleOptions, SubmitResult, WalletCore } from './wallet-core.js';

export type { BundleOptions, SubmitResult, TokenMetadataFields, WalletCore } from './wallet-core.js';

export { toBigInt } from './args.js';
export { cancelScheduleOp, createScheduleGas, createScheduleOp } from '../domains/schedules/client.js';
export { registerProgramGas, registerProgramOp } from '../domains/programs/client.js';
export type { AccountRef, Amount, CollectionRef, PubkeyRef, TokenRef } from './args.js';
export type { SetPoolConfigParams, ValidatorMetadataParams } from '../domains/staking/client.js';
export type { StakingPoolRef } from '../domains/staking-pools/client.js';
export type { CreatePresaleParams } from '../domains/presales/client.js';
export type { DaoConfig, DaoRef } from '../domains/dao/client.js';
export type { BatchEntryInput, CreateMultiTokenCollectionParams, CreateNftCollectionParams } from '../domains/collections/client.js';

/** docs/collections.md "Addresses": a collection's text form (facts.md "Nx2 NFT"). */

/**
 * A signing account talking to a node (spec §5.2–5.4, §5.8): builds bundles, signs them, submits
 * them with `svc_submitBundle [hex]`. The high-level calls (transfer, createToken) fill nonce,
 * gas, validity and key revelation; the low-level path (buildBundle → signBundle → submit) lets
 * tests craft bundles the node must refuse.
 */

/** The allowance Approve treats as infinite: 2^128−1 (docs/allowances.md). */
export const INFINITE_ALLOWANCE = (1n << 128n) - 1n;

/** facts.md "Transaction bundle": client defaults. */
export const DEFAULT_MAX_GAS = BUNDLE_GAS_CEILING;
export const DEFAULT_VALIDITY_SECONDS = 3600n;

/** How long `submit` polls for the receipt of a bundle the node answered as queued, and how often. */
const QUEUED_WAIT_MS = 30_000;
const QUEUED_POLL_MS = 100;
/** docs/rpc.md: a bundle that executed and failed (what svc_submitBundle throws for one it waited on). */
const BUNDLE_FAILED = -32002;

function isQueued(answer: unknown): answer is { bundle_hash: string; status: 'queued' } {
  return typeof answer === 'object' && answer !== null && (answer as { status?: unknown }).status === 'queued'
    && typeof (answer as { bundle_hash?: unknown }).bundle_hash === 'string';
}

export interface AccountInfo {
  address: string;
  nonce: bigint;
  /** Next nonce counting the bundles already waiting in the mempool. */
  pendingNonce: bigint;
  keys: unknown[];
}

export interface CreateTokenParams {
  name: string;
  symbol: string;
  decimals: number;
  /** Raw units. */
  supply: bigint | string;
  /** Default: this wallet's account. */
  owner?: string | Uint8Array;
}

// The domain modules' helpers are the Wallet's own methods (below the class: copied onto its
// prototype); this declaration merge gives the class their types, so the public API is one class.
export interface Wallet extends DomainClients {}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only names what the prototype copy below the class adds
export class Wallet implements WalletCore {
  readonly client: RpcClient;
  // The next nonce this wallet handed out, so concurrent sends do not reuse one.
  private reservedNonce: bigint | undefined;

  /**
   * `account`: the account this wallet signs for when it is not the signer's own address (a key
   * added with AddKey, a rotated or recovered key, an operator key; docs/accounts.md "Wallet flows").
   */
  constructor(
    readonly signer: Signer,
    client: RpcClient | string,
    private readonly accountOverride?: Uint8Array,
  ) {
    this.client = typeof client === 'string' ? new RpcClient(client) : client;
  }

  /** A wallet that signs for `account` (Nx0… or bytes) with `signer`, one of the account's registered keys. */
  static forAccount(signer: Signer, client: RpcClient | string, account: AccountRef): Wallet {
    return new Wallet(signer, client, accountBytes(account, 'account'));
  }

  static generate(client: RpcClient | string, keyType: KeyTypeName = 'Ed25519'): Wallet {
    return new Wallet(Signer.generate(keyType), client);
  }

  /** `secretKey`: the 32-byte seed as bytes or 64 hex chars (spec §2.5), for either key type. */
  static fromSecretKey(secretKey: string | Uint8Array, client: RpcClient | string, keyType: KeyTypeName = 'Ed25519'): Wallet {
    return new Wallet(Signer.fromSecretKey(secretKey, keyType), client);
  }

  get address(): string {
    return this.accountOverride ? encodeAccount(this.accountOverride) : this.signer.address;
  }

  get account(): Uint8Array {
    return this.accountOverride ?? this.signer.account;
  }

  get publicKey(): Uint8Array {
    return this.signer.publicKey;
  }

  get publicKeyHex(): string {
    return toHex(this.signer.publicKey);
  }

  get keyType(): KeyTypeName {
    return this.signer.keyType;
  }

  /** `svc_getAccount [address]`. */
  async getAccount(): Promise<AccountInfo> {
    const raw = await this.client.call<Record<string, unknown>>('svc_getAccount', [this.address]);
    return {
      address: String(raw.address ?? this.address),
      nonce: toBigInt(raw.nonce ?? 0, 'nonce'),
      pendingNonce: toBigInt(raw.pending_nonce ?? raw.nonce ?? 0, 'pending_nonce'),
      keys: Array.isArray(raw.keys) ? raw.keys : [],
    };
  }

  /** `svc_getBalance [address, token]`: raw units (facts.md: a decimal string on the wire). */
  async getBalance(token = 'NTV'): Promise<bigint> {
    return toBigInt(await this.client.call('svc_getBalance', [this.address, token]), 'balance');
  }

  /** A mint from `NTV`, an `Nx1…`/`0x`+64 mint, or any other symbol via `svc_getTokenInfo`. */
  async resolveMint(token: string | Uint8Array): Promise<Uint8Array> {
    if (token instanceof Uint8Array) return token;
    if (token === 'NTV') return NATIVE_MINT.slice();
    if (token.startsWith('Nx1') || /^0x[0-9a-fA-F]{64}$/.test(token)) return parseMint(token);
    const info = await this.client.call<Record<string, unknown>>('svc_getTokenInfo', [token]);
    const mint = info?.mint_address ?? info?.mint;
    if (typeof mint !== 'string') throw new Error(`svc_getTokenInfo ${token}: no mint_address in the answer`);
    return parseMint(mint);
  }

  /** An unsigned bundle with nonce, gas, validity and (when needed) sender_pubkey filled in. */
  async buildBundle(operations: Operation[], opts: BundleOptions = {}): Promise<Bundle> {
    let nonce = opts.nonce;
    let includePubkey = opts.includePubkey;
    if (nonce === undefined || includePubkey === undefined) {
      const account = await this.getAccount();
      if (nonce === undefined) {
        nonce = this.reservedNonce !== undefined && this.reservedNonce > account.pendingNonce ? this.reservedNonce : account.pendingNonce;
        this.reservedNonce = nonce + 1n;
      }
      // spec §5.3: the first signed send from a receive-only account reveals the key.
      includePubkey ??= account.keys.length === 0;
    }
    return {
      userAccount: this.account,
      operations,
      maxGas: opts.maxGas ?? DEFAULT_MAX_GAS,
      maxPriorityFee: opts.maxPriorityFee ?? 0n,
      validUntil: opts.validUntil ?? BigInt(Math.floor(Date.now() / 1000)) + DEFAULT_VALIDITY_SECONDS,
      nonce,
      signature: new Uint8Array(0),
      expiryTimestamp: opts.expiryTimestamp,
      senderPubkey: includePubkey ? this.publicKey : undefined,
    };
  }

  /** The bundle with this wallet's signature over its signing hash (spec §5.2). */
  signBundle(bundle: Bundle): Bundle {
    return { ...bundle, signature: this.signer.sign(signingHash(bundle)) };
  }

  /** Submits a bundle (encoded here), raw bytes or hex as given — no checks, so tests can send anything. */
  async submit(bundle: Bundle | Uint8Array | string): Promise<SubmitResult> {
    const bytes = typeof bundle === 'string'
      ? new Uint8Array(Buffer.from(bundle.replace(/^0x/i, ''), 'hex'))
      : bundle instanceof Uint8Array ? bundle : encodeBundle(bundle);
    const sent = typeof bundle === 'object' && !(bundle instanceof Uint8Array) ? bundle : decodeOrUndefined(bytes);
    try {
      const answer = await this.client.call('svc_submitBundle', [toHex(bytes)]);
      const receipt = isQueued(answer) ? await this.untilIncluded(answer) : answer;
      return { bundleHash: encodeHash(bundleHash(bytes)), bundle: sent, receipt };
    } catch (error) {
      // The reserved nonce may not have been used; ask the node again next time.
      this.reservedNonce = undefined;
      throw error;
    }
  }

  /**
   * A bundle the node answered as queued (docs/mempool.md): concurrent sends from this wallet can
   * reach the node out of nonce order, and the later nonce is then queued behind the earlier. Its
   * receipt is polled for as long as the node would have held an executable bundle's call (30 s);
   * after that the queued answer is returned. A failed receipt throws as svc_submitBundle does.
   */
  private async untilIncluded(queued: { bundle_hash: string }): Promise<unknown> {
    const deadline = Date.now() + QUEUED_WAIT_MS;
    while (Date.now() < deadline) {
      const receipt = await this.client.call('svc_getTransactionReceipt', [queued.bundle_hash]) as { status?: string; status_name?: string; error?: string } | null;
      if (receipt) {
        if (receipt.status === 'failed') {
          throw new RpcClientError(BUNDLE_FAILED, `bundle failed and was reverted: ${receipt.error ?? receipt.status_name}`,
            { status: receipt.status_name, receipt }, 'svc_submitBundle');
        }
        return receipt;
      }
      await new Promise((resolve) => setTimeout(resolve, QUEUED_POLL_MS));
    }
    return queued;
  }

  /** Builds, signs and submits `operations`. */
  async send(operations: Operation[], opts: BundleOptions = {}): Promise<SubmitResult> {
    const bundle = await this.buildBundle(operations, opts);
    let signed: Bundle;
    try {
      signed = this.signBundle(bundle);
    } catch (error) {
      // The codec refused a value (say a u64 token id of 2^64) while hashing for the signature: the
      // nonce buildBundle reserved was not used, so release it as a refused submission does.
      this.reservedNonce = undefined;
      throw error;
    }
    return this.submit(signed);
  }

  /** Transfer `amount` raw units of `token` (symbol, `Nx1…` or mint bytes) to `to` (any address form). */
  async transfer(to: string | Uint8Array, token: string | Uint8Array, amount: bigint | string | number, opts: BundleOptions = {}): Promise<SubmitResult> {
    const op: Operation = {
      type: 'Transfer',
      to: typeof to === 'string' ? parseAddress(to) : to,
      token: await this.resolveMint(token),
      amount: toBigInt(amount, 'amount'),
    };
    return this.send([op], opts);
  }

  /**
   * Approve (discriminant 51; docs/allowances.md): `spender` may move up to `amount` raw units of
   * this account's `token` with TransferFrom. Overwrites the allowance: 0 revokes it, 2^128−1
   * (INFINITE_ALLOWANCE) is never decremented. NTV cannot be approved (NATIVE_NOT_APPROVABLE).
   */
  async approve(spender: string | Uint8Array, token: string | Uint8Array, amount: bigint | string | number, opts: BundleOptions = {}): Promise<SubmitResult> {
    const op: Operation = {
      type: 'Approve',
      token: await this.resolveMint(token),
      spender: typeof spender === 'string' ? parseAddress(spender) : spender,
      amount: toBigInt(amount, 'amount'),
    };
    return this.sendOperation(op, opts);
  }

  /**
   * TransferFrom (discriminant 52; docs/allowances.md): move `amount` of `from`'s `token` to `to`,
   * spending the allowance `from` gave this account (INSUFFICIENT_ALLOWANCE when short).
   */
  async transferFrom(from: string | Uint8Array, to: string | Uint8Array, token: string | Uint8Array, amount: bigint | string | number, opts: BundleOptions = {}): Promise<SubmitResult> {
    const op: Operation = {
      type: 'TransferFrom',
      token: await this.resolveMint(token),
      from: typeof from === 'string' ? parseAddress(from) : from,
      to: typeof to === 'string' ? parseAddress(to) : to,
      amount: toBigInt(amount, 'amount'),
    };
    return this.sendOperation(op, opts);
  }

  /** `svc_getAllowance [token, owner, spender]`: what `spender` may still move of `owner`'s token (owner defaults to this account). */
  async getAllowance(token: string, spender: string, owner: string = this.address): Promise<bigint> {
    const answer = await this.client.call<{ allowance?: unknown }>('svc_getAllowance', [token, owner, spender]);
    return toBigInt(answer?.allowance, 'allowance');
  }

  /** CreateToken (docs/bundle-format.md discriminant 33); the owner defaults to this account. */
  async createToken(params: CreateTokenParams, opts: BundleOptions = {}): Promise<SubmitResult> {
    const owner = params.owner === undefined ? this.account : typeof params.owner === 'string' ? parseAddress(params.owner) : params.owner;
    const op: Operation = {
      type: 'CreateToken',
      name: params.name,
      symbol: params.symbol,
      decimals: params.decimals,
      supply: toBigInt(params.supply, 'supply'),
      owner,
    };
    return this.send([op], opts);
  }

  // ---- Named helpers for names, collections, keys and the other areas; the domain modules' own
  // (DEX and token metadata, stablecoins, staking, staking pools, bridge) are in their folders'
  // client.ts, composed into this class below. Each builds one operation (docs/bundle-format.md
  // "Operation"), sets max_gas to the bundle's gas (gasOf in ./gas.ts, the core's figures) unless
  // opts names one, signs and submits it: the mainnet path of the matching unsigned svc_*
  // convenience method (spec §5.6), with that method's params in order.

  /** Builds, signs and submits one operation with max_gas = its bundle's gas (opts may override). */
  async sendOperation(op: Operation, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.send([op], { maxGas: bundleGasOf([op]), ...opts });
  }

  // ---- Account keys and guardian recovery (docs/accounts.md "Wallet flows"): the mainnet path of
  // svc_addKey … svc_finalizeRecovery. Key hashes are SHA256 of the key. Multi-sig: src/domains/multisig/client.ts.

  /** AddKey (1): another key for this account; role 'owner' (everything) or 'operator' (no key or recovery management). */
  async addKey(publicKey: Uint8Array | string, keyType: KeyTypeName, role: 'owner' | 'operator' = 'owner', opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'AddKey', pubkey: keyBytes(publicKey), keyType: keyTypeCode(keyType), role: role === 'owner' ? 0 : 1 }, opts);
  }

  /** RemoveKey (2): by the key's hash (64 hex or bytes); the account keeps at least one owner key. */
  async removeKey(keyHash: Uint8Array | string, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'RemoveKey', pubkeyHash: hashBytes(keyHash) }, opts);
  }

  /** RotateKey (3): replace the key with hash `oldKeyHash` by `newPublicKey` in one step, keeping its role. */
  async rotateKey(oldKeyHash: Uint8Array | string, newPublicKey: Uint8Array | string, newKeyType: KeyTypeName, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'RotateKey', oldPubkeyHash: hashBytes(oldKeyHash), newPubkey: keyBytes(newPublicKey), newKeyType: keyTypeCode(newKeyType) }, opts);
  }

  /** SetRecovery (77): 1–10 guardians, the approvals a recovery needs, its timelock in seconds (48–72 h recommended). */
  async setRecovery(guardians: AccountRef[], threshold: number, timelockSeconds: bigint | number, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'SetRecovery', guardians: guardians.map((g, i) => accountBytes(g, `guardians[${i}]`)), threshold, timelock: BigInt(timelockSeconds) }, opts);
  }

  /** InitiateRecovery (78), as a guardian of `account`: its keys are to be replaced by `newPublicKey`. */
  async initiateRecovery(account: AccountRef, newPublicKey: Uint8Array | string, keyType: KeyTypeName, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'InitiateRecovery', account: accountBytes(account, 'account'), newPubkey: keyBytes(newPublicKey), keyType: keyTypeCode(keyType) }, opts);
  }

  /** ApproveRecovery (79), as a further guardian: the approval names the pending key's hash. */
  async approveRecovery(account: AccountRef, newKeyHash: Uint8Array | string, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'ApproveRecovery', account: accountBytes(account, 'account'), newKeyHash: hashBytes(newKeyHash) }, opts);
  }

  /** CancelRecovery (80): the owner stops a recovery of this account during its timelock. */
  async cancelRecovery(opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'CancelRecovery' }, opts);
  }

  /** FinalizeRecovery (81): anyone, once the timelock has elapsed and enough guardians approved. */
  async finalizeRecovery(account: AccountRef, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'FinalizeRecovery', account: accountBytes(account, 'account') }, opts);
  }

  // ---- end of the named helpers
}

// Each domain module's helpers (src/domains/<name>/client.ts) become the Wallet's methods.
for (const helpers of domainClients) {
  for (const name of Object.getOwnPropertyNames(helpers.prototype)) {
    if (name === 'constructor') continue;
    if (Object.hasOwn(Wallet.prototype, name)) throw new Error(`Wallet.${name} is defined twice (src/domains/*/client.ts)`);
    Object.defineProperty(Wallet.prototype, name, Object.getOwnPropertyDescriptor(helpers.prototype, name)!);
  }
}


function decodeOrUndefined(bytes: Uint8Array): Bundle | undefined {
  try {
    return decodeBundle(bytes);
  } catch {
    return undefined; // a deliberately malformed submission
  }
}
