import type { EventEmitter } from 'node:events';
import { AUTH_UNSIGNED, BUNDLE_GAS_CEILING, NTV_MINT } from '../../abi/constants.js';
import { accountKey, decodeAccount, decodeBalance, Prefix } from '../../core/records.js';
import { insufficientFunds, ntvCommitment } from './funds.js';
import { bundleHash, decodeBundle, encodeBundle, type Operation } from '../../codec/bundle.js';
import { encodeHash } from '../../codec/address.js';
import type { Block } from '../block.js';
import { ChainError } from '../errors.js';
import { verifyEvmBundle } from '../evm/bundles.js';
import { admissionProofProblem } from './host-proofs.js';
import type { EvmTokenIndex } from '../evm/tokens.js';
import type { ChainEvents } from '../interface.js';
import { REPLACEMENT_BUMP_PERCENT, type Mempool, type MempoolRefusal, type PendingBundle } from '../mempool.js';
import type { ReceiptReader } from '../receipt-reader.js';
import type { Receipt } from '../receipts.js';
import { compositeKey, type StateView } from '../state-view.js';
import type { AdmissionContext, SubmissionGate } from './gate.js';
import { toLatin1 } from '../../codec/hash.js';
import type { Notifier } from '../pipeline/5-notify.js';
import type { WriteQueue } from '../pipeline/4-write.js';

/**
 * Admission (docs/architecture.md "Block path"): before any block, a bundle passes the submission
 * gate (./gate.ts: decode, expiry, nonce, signature, the domains' proofs in ./host-proofs.ts, funds;
 * EVM transactions via src/chain/evm/) against the chain's nonces and keys, then the mempool's
 * bounds (docs/mempool.md), and waits there for the block loop (../pipeline/loop.ts). The testnet
 * convenience path builds its unsigned bundle here; a proposal's bundles are admitted here before
 * ../pipeline/3-commit.ts re-executes it.
 */

/** Per-bundle gas the convenience methods allow (facts.md client defaults). */
const CONVENIENCE_MAX_GAS = BUNDLE_GAS_CEILING;
/** Validity the convenience methods give their bundles (facts.md: now + 3600 s). */
const CONVENIENCE_VALIDITY_SECONDS = 3600n;
const EMPTY_SET: ReadonlySet<string> = new Set();

export interface AdmissionParams {
  chainId: number;
  /** nanoNTV per gas unit (spec §4.20 --gas-price) */
  gasPrice: bigint;
  /** testnet: unsigned convenience methods are allowed (spec §5.5) */
  allowUnsigned: boolean;
}

export interface AdmissionDependencies {
  gate: SubmissionGate;
  mempool: Mempool;
  state: StateView;
  evmTokens: EvmTokenIndex;
  receipts: ReceiptReader;
  writes: WriteQueue;
  notify: Notifier;
  /** the Chain, which emits the events upper layers subscribe to */
  events: EventEmitter<ChainEvents>;
}

/** What `admitBundle` answers: the receipt of a bundle already in a block, or its mempool entry (new or already held). */
export type AdmittedBundle =
  | { hash: Uint8Array; known: true; receipt: Receipt; entry?: undefined }
  | { hash: Uint8Array; known: boolean; receipt?: undefined; entry: PendingBundle };

export class Admission {
  private stopped = false;
  private readonly mempool: Mempool;

  constructor(private readonly params: AdmissionParams, private readonly deps: AdmissionDependencies) {
    this.mempool = deps.mempool;
    this.context.allowUnsigned = params.allowUnsigned;
    this.context.chainId = params.chainId;
    this.context.gasPrice = params.gasPrice;
  }

  /** The node is shutting down: admit nothing more. */
  stop(): void {
    this.stopped = true;
  }

  /**
   * The unsigned convenience path without waiting: the bundle is in the mempool when this returns
   * (intents answer with the bundle hash, spec §4.8). `maxGas`/`validUntil` default to the
   * convenience values; the intent engine sets them from the plan and the intent's constraints.
   */
  enqueueOperations(
    from: Uint8Array,
    operations: Operation[],
    opts: { maxGas?: bigint; validUntil?: bigint } = {},
  ): { hash: Uint8Array; nonce: bigint; included: Promise<Receipt> } {
    this.assertRunning();
    if (!this.params.allowUnsigned) {
      throw new ChainError('UNAVAILABLE_ON_NETWORK', 'unsigned convenience methods are disabled on mainnet; submit a signed bundle with svc_submitBundle');
    }
    // the proofs a signed bundle's admission checks for the core (./host-proofs.ts)
    const proof = admissionProofProblem(operations, this.params.chainId);
    if (proof) throw new ChainError('BUNDLE_INVALID', proof.message, { status: proof.status });
    const accountKeyLatin1 = toLatin1(from);
    const nonce = this.mempool.pendingNonce(accountKeyLatin1, this.deps.writes.stateNonceOf(accountKeyLatin1));
    let validUntil = opts.validUntil ?? BigInt(Math.floor(Date.now() / 1000)) + CONVENIENCE_VALIDITY_SECONDS;
    const failed = this.failedAtNonce(from, nonce);
    let bytes: Uint8Array, hash: Uint8Array;
    for (;;) {
      bytes = encodeBundle({
        userAccount: from, operations, maxGas: opts.maxGas ?? CONVENIENCE_MAX_GAS, maxPriorityFee: 0n, validUntil, nonce,
        signature: new Uint8Array(0), expiryTimestamp: undefined, senderPubkey: undefined,
      });
      hash = bundleHash(bytes);
      // The same call repeated within a second after it failed would be the same bytes, which the
      // core includes once (docs/core-abi.md "Failed bundles: fee and replay"): a retry is a new
      // bundle, so the node re-signs it, one second later.
      if (!failed.has(Buffer.from(hash).toString('hex'))) break;
      validUntil += 1n;
    }
    // The funds rule of a signed bundle's admission (src/chain/admission/funds.ts), so the convenience path
    // never puts into a block, fee charged, an overspend a wallet's bundle would be refused for.
    const maxGas = opts.maxGas ?? CONVENIENCE_MAX_GAS;
    const ntvCost = ntvCommitment(operations, maxGas, 0n, this.params.gasPrice);
    const have = this.ntvAvailable(from, accountKeyLatin1, nonce);
    if (have < ntvCost) throw insufficientFunds(from, have, ntvCost);
    const entry: PendingBundle = {
      hash, hashKey: Buffer.from(hash).toString('hex'), bytes, account: from, accountKey: accountKeyLatin1, nonce,
      expiresAt: validUntil, priorityFee: 0n, auth: { kind: AUTH_UNSIGNED, keyHash: new Uint8Array(32), pubkey: new Uint8Array(0) }, nodeAssigned: true, ntvCost,
    };
    this.admitToPool(entry, this.deps.writes.stateNonceOf(accountKeyLatin1));
    const included = this.deps.notify.wait(entry);
    this.deps.events.emit('admitted', entry);
    return { hash, nonce, included };
  }

  /**
   * The submission gate, then the mempool's bounds (docs/mempool.md): the waiting entry (new or
   * already held), or the receipt of a bundle already in a block. A refusal is a rejected promise.
   * Not an async function: the gate's promise goes on with the two bound continuations below, so a
   * bundle waiting for its signature keeps no suspended frame of this one (./gate.ts `admit`).
   */
  admitBundle(bytes: Uint8Array): Promise<AdmittedBundle> {
    try {
      this.assertRunning();
      return this.deps.gate.admit(bytes, this.admission()).then(this.onAdmitted, this.onRefused);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private readonly onAdmitted = (entry: PendingBundle): AdmittedBundle => {
    const held = this.mempool.get(entry.hashKey);
    if (held) return { hash: held.hash, known: true, entry: held };
    this.admitToPool(entry, this.deps.writes.stateNonceOf(entry.accountKey));
    this.deps.events.emit('admitted', entry);
    return { hash: entry.hash, known: false, entry };
  };

  /** A nonce already used may be this very bundle, in a block: its receipt is the answer (spec §4.17). */
  private readonly onRefused = async (error: unknown): Promise<AdmittedBundle> => {
    const hash = error instanceof ChainError && error.data.status === 'NONCE_TOO_LOW' ? error.data.bundle_hash : undefined;
    if (hash instanceof Uint8Array) {
      const existing = (await this.deps.receipts.byHashes([hash]))[0];
      if (existing) return { hash, known: true, receipt: existing };
    }
    throw error;
  };

  /**
   * Mempool entries of a proposal's bundles: this node's own (already verified at admission), or
   * admitted now against the header's time. Keys a bundle of the block reveals count for the other
   * bundles of its account (the core checks the exact order again).
   */
  async proposalEntries(block: Block): Promise<PendingBundle[]> {
    const revealed = new Map<string, Uint8Array[]>();
    const decoded = block.bundles.map((bytes) => {
      try {
        return decodeBundle(bytes);
      } catch (error) {
        throw new Error(`a bundle does not decode: ${(error as Error).message}`);
      }
    });
    for (const b of decoded) {
      if (!b.senderPubkey) continue;
      const key = Buffer.from(b.userAccount).toString('latin1');
      revealed.set(key, [...(revealed.get(key) ?? []), b.senderPubkey]);
    }
    const context = {
      ...this.admission(),
      nowSeconds: BigInt(block.header.timestamp),
      // The core checks nonces in block order; the host check would refuse a pipelined nonce.
      stateNonce: () => 0n,
      // Funds are the core's to rule on in a block: a failing bundle there pays (spec §7.5).
      ntvAvailable: undefined,
      keyRule: false,
      pendingKeys: (account: Uint8Array) => revealed.get(Buffer.from(account).toString('latin1')) ?? [],
    };
    return Promise.all(block.bundles.map(async (bytes, i) => {
      const own = this.mempool.get(Buffer.from(block.bundleHashes[i]!).toString('hex'));
      if (own) return own;
      try {
        return await this.deps.gate.admit(bytes, context);
      } catch (error) {
        throw new Error(`bundle ${i} refused: ${(error as Error).message}`);
      }
    }));
  }

  /** Hashes (hex) of the bundles listed as failed at `nonce` in the committed account record. */
  private failedAtNonce(account: Uint8Array, nonce: bigint): ReadonlySet<string> {
    const record = this.deps.state.get(accountKey(account));
    if (!record || record.length <= 10) return EMPTY_SET;
    const rec = decodeAccount(record);
    return rec.nonce === nonce ? new Set(rec.failed!.map((f) => Buffer.from(f.hash).toString('hex'))) : EMPTY_SET;
  }

  /** Into the mempool or a ChainError naming the bound; answers the callers of bundles it let go. */
  private admitToPool(entry: PendingBundle, stateNonce: bigint): void {
    const admission = this.mempool.add(entry, stateNonce, BigInt(Math.floor(Date.now() / 1000)));
    this.deps.notify.settleDropped(admission.dropped);
    if (!admission.ok) throw refusalError(admission.refusal, entry, this.mempool.size);
  }

  /**
   * The gate's context. One object for the node's life (a fresh one of seven closures per bundle
   * was garbage on the hot path, docs/performance.md); only the clock changes, read by the gate
   * synchronously before its first await, and turned into a bigint once a second.
   */
  private admission(): AdmissionContext {
    const seconds = Math.floor(Date.now() / 1000);
    if (seconds !== this.contextSecond) {
      this.contextSecond = seconds;
      this.context.nowSeconds = BigInt(seconds);
    }
    return this.context;
  }

  /** The sender's NTV at the pending state for a bundle at `nonce` (src/chain/admission/funds.ts). */
  private ntvAvailable(account: Uint8Array, accountLatin1: string, nonce: bigint): bigint {
    const record = this.deps.state.getLatin1(compositeKey(Prefix.BALANCE, account, NTV_MINT));
    return (record ? decodeBalance(record) : 0n) - this.mempool.pendingCost(accountLatin1, nonce);
  }

  private contextSecond = -1;
  private readonly context: AdmissionContext = {
    allowUnsigned: false,
    chainId: 0,
    keyRule: true,
    ntvAvailable: (account: Uint8Array, accountLatin1: string, nonce: bigint) => this.ntvAvailable(account, accountLatin1, nonce),
    nowSeconds: 0n,
    stateNonce: (_account: Uint8Array, accountLatin1: string) => this.deps.writes.stateNonceOf(accountLatin1),
    failedAtNonce: (account: Uint8Array, nonce: bigint) => this.failedAtNonce(account, nonce),
    pendingKeys: (account: Uint8Array) => this.mempool.revealedKeys(toLatin1(account)),
    verifyEvm: (bytes: Uint8Array, signature: Uint8Array, hash: Uint8Array) =>
      verifyEvmBundle(bytes, signature, { chainId: this.params.chainId, gasPrice: this.params.gasPrice, tokens: this.deps.evmTokens }, hash),
  };

  private assertRunning(): void {
    if (this.stopped) throw new ChainError('SHUTTING_DOWN', 'the node is shutting down');
  }
}

/** The error a bound of the mempool answers with (docs/mempool.md; codes in docs/rpc.md). */
function refusalError(refusal: MempoolRefusal, entry: PendingBundle, poolSize: number): ChainError {
  const { status, nextNonce: next } = refusal;
  const limit = refusal.limit === undefined ? undefined : Number(refusal.limit);
  const data = { status, bundle_hash: encodeHash(entry.hash), nonce: entry.nonce, next_nonce: next };
  switch (status) {
    case 'NONCE_TOO_LOW':
      return new ChainError('BUNDLE_INVALID', `nonce ${entry.nonce} is already used`, data);
    case 'REPLACEMENT_UNDERPRICED':
      if (refusal.minEvmFees) {
        // Both EVM transactions: geth's rule in wei (docs/eth.md "Replacement").
        const old = refusal.pending!.auth.evmFees!;
        const min = refusal.minEvmFees;
        return new ChainError('BUNDLE_INVALID', `a transaction with nonce ${entry.nonce} is already pending with tip ${old.tip} wei and fee cap ${old.cap} wei per gas; `
          + `a replacement needs a tip of at least ${min.tip} wei and a fee cap of at least ${min.cap} wei (${REPLACEMENT_BUMP_PERCENT}% more on both; a legacy gas price counts as both)`,
        { ...data, pending_bundle_hash: encodeHash(refusal.pending!.hash), min_tip_wei: min.tip.toString(), min_fee_cap_wei: min.cap.toString() });
      }
      return new ChainError('BUNDLE_INVALID', `another bundle with nonce ${entry.nonce} from this account is already pending with max_priority_fee `
        + `${refusal.pending!.priorityFee}; a replacement must pay at least ${refusal.minPriorityFee} (${REPLACEMENT_BUMP_PERCENT}% more)`,
      { ...data, pending_bundle_hash: encodeHash(refusal.pending!.hash), min_priority_fee: refusal.minPriorityFee });
    case 'NONCE_GAP_TOO_LARGE':
      return new ChainError('MEMPOOL_LIMIT', `nonce ${entry.nonce} is ${entry.nonce - next} ahead of the account's next nonce ${next}; this node holds `
        + `bundles at most ${limit} nonces ahead (--mempool-max-nonce-gap)`, { ...data, limit, flag: '--mempool-max-nonce-gap' });
    case 'ACCOUNT_QUEUE_FULL':
      return new ChainError('MEMPOOL_LIMIT', `the account already has ${limit} bundles queued behind a nonce gap, the most this node holds `
        + `(--mempool-max-queued-per-account); send nonce ${next} first`, { ...data, limit, flag: '--mempool-max-queued-per-account' });
    case 'QUEUE_FULL':
      return new ChainError('MEMPOOL_FULL', `the mempool holds its maximum of ${limit} bundles queued behind nonce gaps (--mempool-max-queued); `
        + `send nonce ${next} first, or retry later`, { ...data, limit, flag: '--mempool-max-queued' });
    case 'MEMPOOL_FULL':
      return new ChainError('MEMPOOL_FULL', `the mempool is full (${poolSize} bundles, --mempool-max ${limit}); only a bundle paying max_priority_fee `
        + `${refusal.minPriorityFee} or more displaces its cheapest one, or retry later`,
      { ...data, limit, flag: '--mempool-max', min_priority_fee: refusal.minPriorityFee });
  }
}
