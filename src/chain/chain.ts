import { EventEmitter } from 'node:events';
import type { Core } from '../core/core.js';
import { accountKey, balanceKey, decodeAccount, decodeBalance } from '../core/records.js';
import { bundleHash, decodeBundle, encodeBundle, type Operation } from '../codec/bundle.js';
import { encodeAccount, encodeHash } from '../codec/address.js';
import type { SignatureVerifierPool } from '../codec/verify-pool.js';
import type { ChainStore } from '../storage/chain-store.js';
import type { Logger } from '../logger.js';
import type { AccountKeys } from './account-keys.js';
import { decodeBlock, encodeBlock, headerHash, transactionsRoot, type Block, type BlockHeader } from './block.js';
import { bytesEqual } from '../codec/hash.js';
import { ChainError, ExecutionAborted, txIndexingError } from './errors.js';
import { CHAIN_IDS, type Network } from './genesis-data.js';
import { genesisConfig } from './genesis.js';
import { DEFAULT_CHAIN_PARAMS, type ChainParams } from './chain-params.js';
import { Mempool, REPLACEMENT_BUMP_PERCENT, type DroppedBundle, type MempoolLimits, type MempoolRefusal, type PendingBundle } from './mempool.js';
import { BlockProducer, type BlockTurn, type ProducedBlock, type ValidatorIdentity } from './producer.js';
import { ReceiptReader } from './receipt-reader.js';
import type { Receipt } from './receipts.js';
import type { StateView } from './state-view.js';
import { SubmissionGate } from './submission.js';
import type { TokenRegistry } from './token-registry.js';
import { Indexer } from './indexer.js';
import type { EvmTokenIndex } from './evm/tokens.js';
import { ethIndexEntries, ethIndexKey, verifyEvmBundle } from './evm/bundles.js';
import { validatorGate } from './validator-gate.js';
import { importBlock, type ImportedBlock, type ImportOptions } from './import.js';
import type { ChainConsensus, ChainEvents, ChainNode, ProposalExecution, QueuedBundle, SyncState } from './interface.js';

export type { ChainConsensus, ChainEvents, ProposalExecution, QueuedBundle } from './interface.js';

export interface ChainOptions {
  network: Network;
  /** nanoNTV per gas unit (spec §4.20 --gas-price) */
  gasPrice: bigint;
  /** idle block interval (spec §4.20 --block-time) */
  blockTimeMs: number;
  /** interval under load (spec §1.8: 500 ms to 12 s) */
  minBlockIntervalMs: number;
  maxTxsPerBlock: number;
  /** bundles in the mempool at most (--mempool-max) */
  mempoolCapacity: number;
  /** the mempool's other bounds (--mempool-* flags, docs/mempool.md); absent ones take the defaults */
  mempoolLimits?: Partial<Omit<MempoolLimits, 'maxBundles'>>;
  /** how long a write method waits for its bundle to be in a block */
  inclusionTimeoutMs: number;
  /**
   * Contract B (docs/staking.md "Genesis"): consensus keys of the genesis validators
   * (`--genesis-validators`); absent, the node's own validator key is the single one.
   */
  genesisValidators?: Uint8Array[];
  /** `--chain-params` overrides (src/chain/chain-params.ts); absent, the spec defaults. */
  chainParams?: ChainParams;
  /**
   * Make blocks only while this node's key is an active validator (src/chain/validator-gate.ts);
   * node.ts sets it for every node of a network. Absent, the node makes every block.
   */
  onlyAsValidator?: boolean;
}

export interface ChainDependencies {
  core: Core;
  /** a fresh core instance, used when the current one aborted (a core bug, DESIGN.md) */
  createCore: () => Promise<Core>;
  store: ChainStore;
  state: StateView;
  validator: ValidatorIdentity;
  verifier: SignatureVerifierPool;
  logger: Logger;
  /** the domain readers the chain itself reads (built once in node.ts over `state`) */
  tokens: TokenRegistry;
  evmTokens: EvmTokenIndex;
  keys: AccountKeys;
  /** set by block sync (src/p2p/sync.ts) while the node catches up; absent, never */
  sync?: SyncState;
}

/** Per-bundle gas the convenience methods allow (facts.md client defaults). */
const CONVENIENCE_MAX_GAS = 100_000n;
/** Validity the convenience methods give their bundles (facts.md: now + 3600 s). */
const CONVENIENCE_VALIDITY_SECONDS = 3600n;
const EMPTY_SET: ReadonlySet<string> = new Set();
/** Each bundle's gas at most, so `max_txs × this` is the block gas limit. */
const BUNDLE_GAS_CEILING = 100_000n;
const RECENT_HEADERS = 256;
const TX_COUNT_KEY = 'tx-count';

interface Waiter {
  resolve: (receipt: Receipt) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * The single-validator chain: admission, the mempool, the adaptive block loop (spec §1.8: 500 ms
 * under load up to --block-time idle), and the read paths the RPC methods use.
 */
export class Chain extends EventEmitter<ChainEvents> implements ChainNode {
  readonly chainId: number;
  readonly tokens: TokenRegistry;
  /** tokens by EVM-form address, for the eth_* adapter (docs/eth.md) */
  readonly evmTokens: EvmTokenIndex;
  readonly keys: AccountKeys;
  readonly mempool: Mempool;
  /** explorer indexes (spec §4.11): written with each block, read by the explorer methods */
  readonly indexer: Indexer;
  /** receipts built from stored blocks and their execution results */
  private readonly receipts: ReceiptReader;
  private core: Core;
  private producer: BlockProducer;
  private readonly gate: SubmissionGate;
  private readonly waiters = new Map<string, Waiter[]>();
  private readonly recent: BlockHeader[] = [];
  /** the last durable block: what reads and receipts expose */
  private head!: BlockHeader;
  /** the last executed block, the parent of the next; ahead of `head` while its write is in flight */
  private executionHead!: BlockHeader;
  /** bundles (hash hex) of executed blocks not yet durable: out of the mempool, no receipt yet */
  private readonly awaitingWrite = new Set<string>();
  /** the writes of executed blocks not yet durable, oldest first: each settles after its afterWrite */
  private readonly landings: Array<Promise<void>> = [];
  /** settles once every block queued for writing so far is durable (blocks land in order) */
  private get writeChain(): Promise<void> {
    return this.landings.at(-1) ?? Promise.resolve();
  }
  /** executed blocks not yet durable */
  private pendingWrites = 0;
  /** nonces executed in blocks not yet durable, so nonce checks do not read the lagging StateView */
  private readonly executedNonces = new Map<string, { nonce: bigint; height: number }>();
  /**
   * Executed blocks not yet durable whose nonces are not in `executedNonces` yet, oldest first. They
   * are recorded when a nonce is first asked for (`stateNonce`): a catch-up sync executes 1,000
   * bundles a block and is rarely asked, and recording each one at execution needs the block's
   * outcomes, which an imported block builds only when read (ProducedBlock.outcomes).
   */
  private readonly unrecordedNonces: ProducedBlock[] = [];
  /** `executedNonces` is swept when it grows past this (see `forgetExecutedNonces`) */
  private nonceSweepAt = 1024;
  private totalTransactions = 0;
  private executedTransactions = 0;
  private lastBlockAt = Date.now();
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private stopped = false;
  /**
   * True while the node catches up with the network (initial sync). Subscriptions are paused while
   * it is set (spec §6.2). A single validator never syncs; block sync (src/p2p/sync.ts) sets it.
   */
  get syncing(): boolean {
    return this.deps.sync?.syncing ?? false;
  }

  private constructor(readonly options: ChainOptions, private readonly deps: ChainDependencies) {
    super();
    this.chainId = CHAIN_IDS[options.network];
    this.core = deps.core;
    this.tokens = deps.tokens;
    this.evmTokens = deps.evmTokens;
    this.keys = deps.keys;
    this.mayProduce = options.onlyAsValidator ? validatorGate(deps.state, deps.validator.publicKey, () => this.head.height) : () => true;
    this.mempool = new Mempool({ ...options.mempoolLimits, maxBundles: options.mempoolCapacity });
    this.receipts = new ReceiptReader(deps.store, this.tokens);
    this.indexer = new Indexer(deps.store, this.receipts, deps.state);
    this.gate = new SubmissionGate(deps.verifier, this.keys);
    this.producer = this.createProducer();
  }

  /** Open the chain from storage, writing genesis on an empty data dir. */
  static async open(options: ChainOptions, deps: ChainDependencies): Promise<Chain> {
    const records = await deps.store.loadState((key, value) => deps.state.load(key, value));
    const chain = new Chain(options, deps);
    const headHeight = await deps.store.head();
    if (headHeight === undefined) {
      await chain.writeGenesis();
    } else {
      const block = await chain.blockByHeight(headHeight);
      if (!block) throw new Error(`storage names head ${headHeight} but holds no such block`);
      chain.head = block.header;
      chain.executionHead = block.header;
      const root = chain.core.stateRoot();
      if (Buffer.compare(root, block.header.stateRoot) !== 0) {
        throw new Error(`state root ${encodeHash(root)} of stored state differs from head block's ${encodeHash(block.header.stateRoot)}`);
      }
      const count = await deps.store.getLocal(TX_COUNT_KEY);
      chain.totalTransactions = count ? Number(Buffer.from(count).toString()) : 0;
      chain.executedTransactions = chain.totalTransactions;
      const from = Math.max(0, headHeight - RECENT_HEADERS + 1);
      const older = await deps.store.getBlocks(range(from, headHeight + 1));
      for (const bytes of older) if (bytes) chain.remember(decodeBlock(bytes, bundleHash).header);
    }
    deps.logger.info('chain opened', {
      network: options.network, chainId: chain.chainId, height: chain.head.height, stateRecords: records,
      stateRoot: encodeHash(chain.head.stateRoot),
    });
    return chain;
  }

  /** Committed state, read-only use (the DEX read paths index pools from it, src/rpc/methods/dex.ts). */
  get state(): StateView {
    return this.deps.state;
  }

  get network(): Network {
    return this.options.network;
  }

  get gasPrice(): bigint {
    return this.options.gasPrice;
  }

  get mempoolSize(): number {
    return this.mempool.size;
  }

  isPending(hashKey: string): boolean {
    return this.mempool.has(hashKey);
  }

  /** A certified block of another validator (src/chain/import.ts). */
  importBlock(encoded: Uint8Array, certificate: Uint8Array, opts?: ImportOptions): Promise<ImportedBlock> {
    return importBlock(this, encoded, certificate, opts);
  }

  get allowUnsigned(): boolean {
    return this.options.network === 'testnet';
  }

  get height(): number {
    return this.head.height;
  }

  get headHeader(): BlockHeader {
    return this.head;
  }

  get transactionCount(): number {
    return this.totalTransactions;
  }

  /**
   * Start the block loop. `consensus` (src/consensus/service.ts) decides whose turn each height is;
   * absent, this node makes every block and each is final when made. It is the loop's dependency,
   * given when the loop starts: the consensus service is built over this chain, so it cannot exist
   * before it.
   */
  start(consensus?: ChainConsensus): void {
    this.consensus = consensus;
    this.lastBlockAt = Date.now();
    this.schedule(0);
  }

  /** Stop producing, let the blocks being written finish, and refuse every waiting call. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.inFlight;
    await this.writeChain;
    for (const [hash, waiters] of this.waiters) {
      for (const w of waiters) {
        clearTimeout(w.timer);
        w.reject(new ChainError('SHUTTING_DOWN', 'the node is shutting down; the bundle was not included', { bundle_hash: hash }));
      }
    }
    this.waiters.clear();
  }

  // ---- writes -------------------------------------------------------------------------------

  /**
   * A signed (or, on testnet, unsigned) Borsh bundle; resolves with its receipt once in a block.
   * Resubmitting an included bundle answers with its receipt rather than a nonce error. A bundle
   * that waits behind a nonce gap is answered at once as queued (docs/mempool.md).
   */
  async submitBundle(bytes: Uint8Array): Promise<Receipt | QueuedBundle> {
    const admitted = await this.admitBundle(bytes);
    if (admitted.receipt) return admitted.receipt;
    const { entry } = admitted;
    if (this.mempool.isQueued(entry)) {
      return {
        bundle_hash: encodeHash(entry.hash), from: encodeAccount(entry.account), nonce: entry.nonce.toString(), status: 'queued',
        next_nonce: this.pendingNonce(entry.account).toString(),
      };
    }
    return this.wait(entry);
  }

  /**
   * The unsigned convenience path (spec §5.5, testnet only): the node picks the next free nonce
   * synchronously, so concurrent calls from one address never collide.
   */
  submitOperations(from: Uint8Array, operations: Operation[]): Promise<Receipt> {
    return this.enqueueOperations(from, operations).included;
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
    if (!this.allowUnsigned) {
      throw new ChainError('UNAVAILABLE_ON_NETWORK', 'unsigned convenience methods are disabled on mainnet; submit a signed bundle with svc_submitBundle');
    }
    const accountKeyLatin1 = Buffer.from(from).toString('latin1');
    const nonce = this.mempool.pendingNonce(accountKeyLatin1, this.stateNonce(from));
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
    const entry: PendingBundle = {
      hash, hashKey: Buffer.from(hash).toString('hex'), bytes, account: from, accountKey: accountKeyLatin1, nonce,
      expiresAt: validUntil, priorityFee: 0n, auth: { kind: 0, keyHash: new Uint8Array(32), pubkey: new Uint8Array(0) }, nodeAssigned: true,
    };
    this.admitToPool(entry, this.stateNonce(from));
    const included = this.wait(entry);
    this.emit('admitted', entry);
    return { hash, nonce, included };
  }

  // ---- reads --------------------------------------------------------------------------------

  /**
   * Whether a bundle is on its way into a block: waiting in the mempool, or in a block executed but
   * not yet durable. Read this before looking for its receipt: a bundle moves mempool → executed
   * → durable (receipt stored first, then it leaves this state), so that order never misses it.
   */
  isInFlight(hashKey: string): boolean {
    return this.mempool.has(hashKey) || this.awaitingWrite.has(hashKey);
  }

  /** The account's next executable nonce, counting blocks executed but still being written. */
  stateNonce(account: Uint8Array): bigint {
    if (this.unrecordedNonces.length > 0) this.recordExecutedNonces();
    const executed = this.executedNonces.get(Buffer.from(account).toString('latin1'));
    if (executed) return executed.nonce;
    const record = this.deps.state.get(accountKey(account));
    return record ? decodeAccount(record).nonce : 0n;
  }

  /** Hashes (hex) of the bundles listed as failed at `nonce` in the committed account record. */
  private failedAtNonce(account: Uint8Array, nonce: bigint): ReadonlySet<string> {
    const record = this.deps.state.get(accountKey(account));
    if (!record || record.length <= 10) return EMPTY_SET;
    const rec = decodeAccount(record);
    return rec.nonce === nonce ? new Set(rec.failed!.map((f) => Buffer.from(f.hash).toString('hex'))) : EMPTY_SET;
  }

  pendingNonce(account: Uint8Array): bigint {
    return this.mempool.pendingNonce(Buffer.from(account).toString('latin1'), this.stateNonce(account));
  }

  balance(account: Uint8Array, mint: Uint8Array): bigint {
    const record = this.deps.state.get(balanceKey(account, mint));
    return record ? decodeBalance(record) : 0n;
  }

  async blockByHeight(height: number): Promise<Block | undefined> {
    const bytes = await this.deps.store.getBlock(height);
    return bytes ? decodeBlock(bytes, bundleHash) : undefined;
  }

  /** Headers of the latest blocks, newest first, from memory when recent. */
  async recentHeaders(limit: number): Promise<BlockHeader[]> {
    const out: BlockHeader[] = [];
    for (let i = this.recent.length - 1; i >= 0 && out.length < limit; i--) out.push(this.recent[i]!);
    for (let h = (out.at(-1)?.height ?? this.head.height + 1) - 1; h >= 0 && out.length < limit; h--) {
      const block = await this.blockByHeight(h);
      if (block) out.push(block.header);
    }
    return out;
  }

  /**
   * The receipt of a bundle by hash; undefined when no indexed block holds it. A bundle of a block
   * above the lookup index's height may not be found yet: callers that answer "no such bundle" to
   * someone use `receiptByHash`.
   */
  async receipt(hash: Uint8Array): Promise<Receipt | undefined> {
    return (await this.receipts.byHashes([hash]))[0];
  }

  /** Every block up to this height has its position records (docs/storage.md "The transaction lookup index"). */
  get lookupHeight(): number {
    return this.deps.store.lookupHeight;
  }

  /**
   * The receipt of a bundle by hash, undefined only when no block holds it. While the transaction
   * lookup index trails the head, after a catch-up sync (docs/storage.md "The transaction lookup
   * index"), a bundle it does not find may be in a block above it: that throws ChainError
   * TX_INDEXING (RPC -32000, retry shortly) rather than answering "not found".
   */
  async receiptByHash(hash: Uint8Array): Promise<Receipt | undefined> {
    const receipt = await this.receipt(hash);
    if (receipt) return receipt;
    const indexed = this.lookupHeight;
    const head = this.head.height;
    if (indexed < head) throw txIndexingError(indexed, head, this.deps.store.lookupFailure);
    return undefined;
  }

  /** The receipts of a stored block's bundles, in block order (by position: no lookup index needed). */
  async blockReceipts(block: Block): Promise<Array<Receipt | undefined>> {
    const height = block.header.height;
    return this.receipts.at(block.bundleHashes.map((hash, index) => ({ height, index, hash })));
  }

  /** Height of the block with this hash, if stored. */
  async heightOfHash(hash: Uint8Array): Promise<number | undefined> {
    return this.deps.store.heightOfHash(hash);
  }

  /** The bundle hash an EVM transaction hash (keccak of the raw tx) names, once in a block (docs/eth.md). */
  async bundleHashOfEthHash(ethHash: Uint8Array): Promise<Uint8Array | undefined> {
    const value = await this.deps.store.getLocal(ethIndexKey(ethHash));
    return value ? new Uint8Array(value) : undefined;
  }

  /**
   * Admission and the mempool only: resolves once the bundle waits for a block, with its hash and a
   * promise of its receipt (eth_sendRawTransaction answers at once with the transaction hash). A
   * bundle already in a block or already waiting resolves too (`known`).
   */
  async enqueueBundle(bytes: Uint8Array): Promise<{ hash: Uint8Array; known: boolean; included: Promise<Receipt> }> {
    const admitted = await this.admitBundle(bytes);
    if (admitted.receipt) return { hash: admitted.hash, known: true, included: Promise.resolve(admitted.receipt) };
    return { hash: admitted.hash, known: admitted.known, included: this.wait(admitted.entry) };
  }

  /**
   * The submission gate, then the mempool's bounds (docs/mempool.md): the waiting entry (new or
   * already held), or the receipt of a bundle already in a block.
   */
  private async admitBundle(bytes: Uint8Array): Promise<
    { hash: Uint8Array; known: true; receipt: Receipt; entry?: undefined } | { hash: Uint8Array; known: boolean; receipt?: undefined; entry: PendingBundle }
  > {
    this.assertRunning();
    let entry: PendingBundle;
    try {
      entry = await this.gate.admit(bytes, this.admission());
    } catch (error) {
      if (error instanceof ChainError && error.data.status === 'NONCE_TOO_LOW') {
        const hash = bundleHash(bytes);
        const existing = await this.receipt(hash);
        if (existing) return { hash, known: true, receipt: existing };
      }
      throw error;
    }
    const held = this.mempool.get(entry.hashKey);
    if (held) return { hash: held.hash, known: true, entry: held };
    this.admitToPool(entry, this.stateNonce(entry.account));
    this.emit('admitted', entry);
    return { hash: entry.hash, known: false, entry };
  }

  /** Into the mempool or a ChainError naming the bound; answers the callers of bundles it let go. */
  private admitToPool(entry: PendingBundle, stateNonce: bigint): void {
    const admission = this.mempool.add(entry, stateNonce, BigInt(Math.floor(Date.now() / 1000)));
    this.settleDropped(admission.dropped);
    if (!admission.ok) throw refusalError(admission.refusal, entry, this.mempool.size);
  }

  /**
   * Mean seconds between the recent blocks in memory, genesis left out: its timestamp is a fixed
   * date (GENESIS_TIMESTAMP), not when the chain started, so on a young chain it made the mean
   * weeks long. Until two blocks after genesis exist there is no interval to measure, and the
   * answer is the configured idle block time (`--block-time`; docs/explorer.md "Network stats").
   */
  averageBlockTime(): number {
    const first = this.recent.find((h) => h.height > 0);
    const last = this.recent.at(-1);
    if (!first || !last || last.height - first.height < 1) return this.options.blockTimeMs / 1000;
    return (last.timestamp - first.timestamp) / (last.height - first.height);
  }

  // ---- the block loop ------------------------------------------------------------------------

  private schedule(delay: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.inFlight = this.tick().finally(() => {
        this.inFlight = undefined;
      });
    }, delay);
  }

  private async tick(): Promise<void> {
    const now = Date.now();
    this.dropExpired(BigInt(Math.floor(now / 1000)));
    // While catching up, blocks come from peers (src/chain/import.ts), and a node whose key may not
    // propose (not in the validator set, or not its turn) makes none (docs/p2p.md).
    if (this.syncing || this.importing > 0 || !this.mayProduce()) {
      this.lastBlockAt = now;
      this.schedule(25);
      return;
    }
    // Consensus (docs/consensus.md): the solo fast path below, or rounds of proposals and votes.
    let turn: BlockTurn | undefined;
    if (this.consensus) {
      turn = this.speculative ? undefined : this.consensus.soloTurn(this.executionHead, this.core);
      if (!turn) {
        await this.consensusTick();
        return;
      }
    }
    const sinceLast = now - this.lastBlockAt;
    const busy = this.mempool.size > 0;
    if ((busy && sinceLast >= this.options.minBlockIntervalMs) || sinceLast >= this.options.blockTimeMs) {
      await this.produceNext(turn);
      // The interval runs from the start of the last block, so execution time does not stretch it.
      const untilNext = this.lastBlockAt + this.options.minBlockIntervalMs - Date.now();
      this.schedule(this.mempool.size > 0 ? Math.max(1, untilNext) : 25);
      return;
    }
    const due = busy ? this.options.minBlockIntervalMs - sinceLast : Math.min(25, this.options.blockTimeMs - sinceLast);
    this.schedule(Math.max(1, due));
  }

  /** At most this many executed blocks may wait for their write before production pauses. */
  private static readonly MAX_PENDING_WRITES = 2;
  /**
   * While catching up (`syncing`), execution may run further ahead of storage: one group of blocks
   * is written while the next one fills on the writer thread (docs/storage.md "The writer thread").
   * Nobody waits on a receipt then.
   */
  private static readonly MAX_PENDING_WRITES_SYNCING = 20;

  // ---- blocks from peers (src/chain/import.ts) ------------------------------------

  /**
   * Whether this node may make the next block now (ChainOptions.onlyAsValidator). Always, for the
   * single validator; node.ts narrows it to "our key is in the validator set" and the consensus
   * layer to the leader schedule.
   */
  private readonly mayProduce: () => boolean;
  /** imports under way; local production waits for them */
  private importing = 0;
  /** multi-validator consensus (src/consensus), given to `start`; absent, every block is final when made */
  private consensus: ChainConsensus | undefined;
  /**
   * A block executed in the core but not final yet (docs/consensus.md "Commit on finality"): this
   * node's proposal or the proposal it voted for. Storage and the StateView stay at `head`.
   */
  private speculative: ProducedBlock | undefined;

  /** The block the next block extends: the last executed one, ahead of `head` while writes are in flight. */
  get executionParent(): BlockHeader {
    return this.executionHead;
  }

  /** The core that executes the next block (src/chain/import.ts re-executes peers' blocks on it). */
  get executionCore(): Core {
    return this.core;
  }

  /**
   * Wait until a block may be executed: a local block in production has finished, and fewer
   * executed blocks wait for their write than the limit (MAX_PENDING_WRITES, or
   * MAX_PENDING_WRITES_SYNCING while catching up). The caller then executes and calls
   * `commitExecuted` without awaiting in between.
   */
  async writeSlot(): Promise<void> {
    this.importing++;
    try {
      // A block imported here supersedes a speculative one of that height (sync found the network
      // ahead, or the consensus layer imports the block that won): drop it first.
      if (this.speculative) await this.discardSpeculative();
      while (this.inFlight) await this.inFlight;
      await this.untilWriteSlot();
    } finally {
      this.importing--;
    }
  }

  /**
   * Commit a block executed elsewhere (src/chain/import.ts) exactly as a produced one: indexes and
   * local records in its one batch, mempool bookkeeping at once, the write overlapped with
   * executing the next block. Resolves once the block is durable and its 'block' event emitted.
   */
  commitExecuted(produced: ProducedBlock): Promise<void> {
    const startedAt = Date.now();
    this.executionHead = produced.block.header;
    return this.queueWrite(produced, startedAt);
  }

  /**
   * The tail every executed block shares, produced here or imported: local records and explorer
   * indexes in the block's own batch (spec §4.11, docs/explorer.md), mempool bookkeeping at once,
   * and the block handed to the writer thread (ChainStore.commitBlocks). Resolves once the block is
   * durable and its 'block' event emitted.
   */
  private queueWrite(produced: ProducedBlock, startedAt: number): Promise<void> {
    this.executedTransactions += produced.block.header.bundleCount;
    produced.write.local = [{ key: TX_COUNT_KEY, value: Buffer.from(String(this.executedTransactions)) }, ...ethIndexEntries(produced.evmBundles)];
    const indexStarted = performance.now();
    // Holders need the balances before the block (the indexer's pending map); the records the block
    // derives from itself the writer thread builds (src/storage/block-index.ts).
    produced.write.indexes = this.indexer.balanceIndexOps(produced.block.header.height, produced.writes);
    produced.write.deriveIndexes = true;
    produced.timings.index = performance.now() - indexStarted;
    // Before the mempool lets go of them: from here until their block is durable they are in flight.
    // (Only bundles this node holds: a synced block's others were never asked about here.)
    if (this.mempool.size > 0) {
      for (const { entry } of produced.outcomes) if (this.mempool.has(entry.hashKey)) this.awaitingWrite.add(entry.hashKey);
    }
    this.afterExecution(produced);
    this.pendingWrites++;
    // Handed to the writer thread at once: it builds the block into the batch that is written next
    // (src/storage/block-writer-worker.ts), and blocks land in the order they were executed.
    const writeStarted = performance.now();
    // While catching up the next blocks follow at once and nobody waits on a receipt: the write may
    // linger to take them too (one fsync per group rather than per block).
    const landed = this.deps.store.commitBlocks([produced.write], { linger: this.syncing }).then(
      () => this.afterWrite(produced, startedAt, performance.now() - writeStarted),
      (error: unknown) => {
        // The core has moved on without storage: stop, and a restart resumes from what storage
        // holds (the writer writes nothing after a failure, so that is a prefix of the blocks).
        this.deps.logger.error('block write failed; stopping', { height: produced.block.header.height, error: String(error) });
        process.exit(70);
      },
    );
    this.landings.push(landed);
    return landed;
  }

  /** Until fewer executed blocks wait for their write than the limit allows: each landing frees its block's slot. */
  private async untilWriteSlot(): Promise<void> {
    const limit = this.syncing ? Chain.MAX_PENDING_WRITES_SYNCING : Chain.MAX_PENDING_WRITES;
    while (this.pendingWrites >= limit && this.landings.length > 0) await this.landings[0];
  }

  /**
   * After an import that left the core ahead of storage (a state root that did not match): let the
   * queued writes land, then build a fresh core over committed state.
   */
  async reloadCore(): Promise<void> {
    await this.writeChain;
    this.core = await this.deps.createCore();
    this.producer = this.createProducer();
    this.executionHead = this.head;
    this.executedNonces.clear();
    this.unrecordedNonces.length = 0;
  }

  // ---- consensus: proposals, commit on finality (docs/consensus.md) ----------------------------

  /** Whether a block is held executed awaiting its votes, and which. */
  get speculativeHeader(): BlockHeader | undefined {
    return this.speculative?.block.header;
  }

  /**
   * Re-execute another validator's proposal on top of the head, keeping the result in the core
   * (not in storage) until it is final. ok when execution reproduces the header exactly: every
   * bundle valid, and the same gas, state root and hash. Bundle signatures are checked (unlike a
   * certified import): this node's vote will vouch for them.
   */
  async executeProposal(block: Block, encoded: Uint8Array): Promise<ProposalExecution> {
    let entries: PendingBundle[];
    try {
      entries = await this.proposalEntries(block);
    } catch (error) {
      return { ok: false, reason: error instanceof Error ? error.message : String(error), faulty: true };
    }
    await this.writeSlot();
    // The parent must be durable too: the proposal's keys and nonces are checked against it.
    if (this.pendingWrites > 0) await this.writeChain;
    const header = block.header;
    const parent = this.executionHead;
    if (this.speculative || parent !== this.head || !bytesEqual(header.parentHash, parent.hash)) {
      return { ok: false, reason: `does not extend this node's head ${parent.height}`, faulty: false };
    }
    let produced: ProducedBlock;
    try {
      produced = this.producer.produce(parent, entries, header.timestamp, {
        round: header.round, missed: header.missed, proposer: header.proposer, proposerPubkey: header.proposerPubkey,
      });
    } catch (error) {
      await this.reloadCore();
      return { ok: false, reason: `the core could not execute the block: ${String(error)}`, faulty: true };
    }
    const invalid = produced.outcomes.find((o) => o.invalidStatus !== undefined);
    const mismatch = invalid ? `a bundle is invalid here (${invalid.invalidStatus})` : headerMismatch(produced.block.header, header);
    if (mismatch) {
      await this.reloadCore();
      return { ok: false, reason: mismatch, faulty: true };
    }
    produced.block = { ...produced.block, header };
    produced.write.block = encoded;
    this.speculative = produced;
    this.executionHead = header;
    return { ok: true };
  }

  /** Make the speculative block durable with its certificate; false when there is none (superseded). */
  async commitSpeculative(certificate: Uint8Array): Promise<boolean> {
    const produced = this.speculative;
    if (!produced) return false;
    this.speculative = undefined;
    produced.write.certificate = certificate;
    this.lastBlockAt = Date.now();
    await this.commitExecuted(produced);
    return true;
  }

  /** Another block finalized at the speculative block's height: rebuild the core from storage. */
  async discardSpeculative(): Promise<void> {
    if (!this.speculative) return;
    this.speculative = undefined;
    await this.reloadCore();
  }

  /**
   * Mempool entries of a proposal's bundles: this node's own (already verified at admission), or
   * admitted now against the header's time. Keys a bundle of the block reveals count for the other
   * bundles of its account (the core checks the exact order again).
   */
  private async proposalEntries(block: Block): Promise<PendingBundle[]> {
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
      pendingKeys: (account: Uint8Array) => revealed.get(Buffer.from(account).toString('latin1')) ?? [],
    };
    return Promise.all(block.bundles.map(async (bytes, i) => {
      const own = this.mempool.get(Buffer.from(block.bundleHashes[i]!).toString('hex'));
      if (own) return own;
      try {
        return await this.gate.admit(bytes, context);
      } catch (error) {
        throw new Error(`bundle ${i} refused: ${(error as Error).message}`);
      }
    }));
  }

  /**
   * Multi-validator production: one height at a time (no write in flight, no block awaiting its
   * votes); this node proposes when consensus names it; the block waits in `speculative` until final.
   */
  private async consensusTick(): Promise<void> {
    if (this.pendingWrites === 0 && !this.speculative && this.executionHead === this.head) {
      const turn = this.consensus!.turn(this.mempool.size > 0);
      if (turn) await this.produceNext(turn);
    }
    this.schedule(25);
  }

  private async produceNext(turn?: BlockTurn): Promise<void> {
    await this.untilWriteSlot();
    const selected = this.mempool.selectReady(this.options.maxTxsPerBlock);
    const startedAt = Date.now();
    let produced: ProducedBlock;
    try {
      produced = this.producer.produce(this.executionHead, selected, Math.floor(startedAt / 1000), turn);
    } catch (error) {
      if (!(error instanceof ExecutionAborted)) throw error;
      // A core abort is a bug: discard the instance, refuse the bundles of that block, go on. The
      // new instance reads through the StateView, so every executed block must be written first.
      this.deps.logger.error('core aborted; reloading it and refusing the block\'s bundles', { error: String(error.reason) });
      await this.writeChain;
      this.core = await this.deps.createCore();
      this.producer = this.createProducer();
      for (const entry of selected) {
        this.mempool.remove(entry);
        this.settle(entry.hashKey, undefined, new ChainError('BUNDLE_INVALID', 'the core could not execute this bundle', { status: 'CORE_ABORTED' }));
      }
      return;
    }
    this.lastBlockAt = startedAt;
    this.executionHead = produced.block.header;
    if (this.consensus && turn) {
      if (!turn.final) {
        // Not final until > 2/3 of the stake voted: hold it; commitSpeculative writes it.
        this.speculative = produced;
        this.consensus.proposed(produced.block, produced.write.block);
        return;
      }
      produced.write.certificate = this.consensus.certifySolo(produced.block.header);
    }
    void this.queueWrite(produced, startedAt);
  }

  /** A block is durable: reads, receipts and the 'block' event see it. */
  private afterWrite(produced: ProducedBlock, startedAt: number, write: number): void {
    const header = produced.block.header;
    // The receipts are stored (the group's batch has landed): the bundles leave the in-flight set.
    if (this.awaitingWrite.size > 0) for (const outcome of produced.outcomes) this.awaitingWrite.delete(outcome.entry.hashKey);
    this.deps.state.apply(produced.writes);
    this.indexer.durable(header.height);
    this.head = header;
    this.remember(header);
    this.totalTransactions += header.bundleCount;
    this.pendingWrites--;
    // Durable: its nonces are in the StateView now, recorded or not.
    if (this.unrecordedNonces[0] === produced) this.unrecordedNonces.shift();
    this.forgetExecutedNonces(header.height);
    // Receipts are built for the bundles somebody waits for (a synced block's: none, and its
    // outcomes are not even built).
    if (this.waiters.size > 0) for (const outcome of produced.outcomes) {
      if (this.waiters.size === 0) break;
      if (outcome.index === undefined || !this.waiters.has(outcome.entry.hashKey)) continue;
      const receipt = produced.receipts[outcome.index]!;
      if (receipt.status === 'success') this.settle(outcome.entry.hashKey, receipt);
      else this.settle(outcome.entry.hashKey, undefined, failedError(receipt));
    }
    produced.timings.write = write;
    this.deps.logger.debug('block committed', {
      height: header.height, bundles: header.bundleCount, gasUsed: header.gasUsed, ms: Date.now() - startedAt, phases: roundAll(produced.timings),
    });
    this.landings.shift();
    this.emit('block', produced);
  }

  /**
   * Drop executed nonces the StateView now holds. An entry of a durable block agrees with state (a
   * later block of that account would have replaced it), so entries may linger: all go when no
   * write is pending, and otherwise the map is swept once it has doubled since the last sweep, not
   * on every block (a sweep per block cost O(accounts in flight) each time).
   */
  private forgetExecutedNonces(durableHeight: number): void {
    if (this.pendingWrites === 0) {
      this.executedNonces.clear();
    } else if (this.executedNonces.size > this.nonceSweepAt) {
      for (const [key, executed] of this.executedNonces) if (executed.height <= durableHeight) this.executedNonces.delete(key);
      this.nonceSweepAt = 2 * this.executedNonces.size + 1024;
    }
  }

  /** The nonces of the executed blocks not recorded yet (`unrecordedNonces`), in execution order. */
  private recordExecutedNonces(): void {
    for (const produced of this.unrecordedNonces) {
      const height = produced.block.header.height;
      for (const { entry, retry, success } of produced.outcomes) {
        if (!retry && success) this.executedNonces.set(entry.accountKey, { nonce: entry.nonce + 1n, height });
      }
    }
    this.unrecordedNonces.length = 0;
  }

  /** Mempool bookkeeping right after execution, so the next block can be built at once. */
  private afterExecution(produced: ProducedBlock): void {
    this.unrecordedNonces.push(produced);
    // Mempool calls are no-ops for bundles it does not hold, and only left-out bundles have callers
    // to settle here: with neither (a catch-up sync) the outcomes are not even built.
    const pooled = this.mempool.size > 0;
    if (!pooled && produced.leftOut === 0) return;
    for (const outcome of produced.outcomes) {
      const { entry } = outcome;
      if (outcome.retry) continue;
      if (outcome.success) {
        if (pooled) {
          const dropped = this.mempool.executed(entry);
          if (dropped.length > 0) this.settleDropped(dropped);
        }
        continue;
      }
      if (pooled) this.mempool.remove(entry);
      if (outcome.index !== undefined) {
        if (pooled) this.releaseFollowers(entry);
      } else {
        this.settle(entry.hashKey, undefined, new ChainError('BUNDLE_INVALID', outcome.invalidMessage ?? 'refused by the core', {
          status: outcome.invalidStatus, bundle_hash: encodeHash(entry.hash),
        }));
        if (pooled) this.releaseFollowers(entry);
      }
    }
  }

  /**
   * A failed bundle keeps its nonce (spec §5.8), so later bundles of the account now have a gap.
   * Signed ones wait for a bundle that fills it (spec §7.6); the ones whose nonce this node chose
   * would wait forever, so they are refused at once and their callers can simply call again.
   */
  private releaseFollowers(failed: PendingBundle): void {
    for (const follower of this.mempool.after(failed.accountKey, failed.nonce)) {
      if (!follower.nodeAssigned) continue;
      this.mempool.remove(follower);
      this.settle(follower.hashKey, undefined, new ChainError('BUNDLE_INVALID',
        `an earlier bundle of this account (nonce ${failed.nonce}) failed or left the mempool, so nonce ${follower.nonce} cannot execute; call again`,
        { status: 'PREDECESSOR_FAILED', bundle_hash: encodeHash(follower.hash) }));
    }
  }

  private dropExpired(now: bigint): void {
    const dropped = this.mempool.expire(now);
    if (dropped.length > 0) this.settleDropped(dropped);
  }

  /**
   * Answer the callers of bundles that left the mempool without executing (docs/mempool.md). An
   * evicted or expired bundle leaves a gap, so node-numbered followers are refused as after a failure.
   */
  private settleDropped(dropped: DroppedBundle[]): void {
    for (const { entry, reason, by } of dropped) {
      const bundle_hash = encodeHash(entry.hash);
      let error: ChainError;
      switch (reason) {
        case 'REPLACED':
          error = new ChainError('BUNDLE_INVALID', `replaced in the mempool by bundle ${encodeHash(by!.hash)} of the same nonce ${entry.nonce}, paying max_priority_fee ${by!.priorityFee}`,
            { status: 'REPLACED', bundle_hash, replaced_by: encodeHash(by!.hash) });
          break;
        case 'EVICTED':
          error = new ChainError('MEMPOOL_FULL', `evicted from the full mempool by bundle ${encodeHash(by!.hash)} paying a higher max_priority_fee (${by!.priorityFee} > ${entry.priorityFee})`,
            { status: 'EVICTED', bundle_hash, evicted_by: encodeHash(by!.hash) });
          break;
        case 'NONCE_USED':
          error = new ChainError('BUNDLE_INVALID', `another bundle with nonce ${entry.nonce} of this account executed`, { status: 'NONCE_TOO_LOW', bundle_hash });
          break;
        case 'EXPIRED':
          error = new ChainError('BUNDLE_INVALID', `bundle expired at ${entry.expiresAt} while waiting`, { status: 'EXPIRED', bundle_hash });
          break;
        case 'LIFETIME':
          error = new ChainError('BUNDLE_INVALID', `bundle waited in the mempool longer than its lifetime (--mempool-lifetime) without executing`,
            { status: 'EXPIRED', bundle_hash });
          break;
      }
      this.settle(entry.hashKey, undefined, error);
      if (reason === 'EVICTED' || reason === 'EXPIRED' || reason === 'LIFETIME') this.releaseFollowers(entry);
    }
  }

  private wait(entry: PendingBundle): Promise<Receipt> {
    return new Promise<Receipt>((resolve, reject) => {
      const timer = setTimeout(() => {
        const list = this.waiters.get(entry.hashKey);
        const index = list?.findIndex((w) => w.timer === timer) ?? -1;
        if (list && index >= 0) list.splice(index, 1);
        if (list?.length === 0) this.waiters.delete(entry.hashKey);
        reject(new ChainError('INCLUSION_TIMEOUT',
          `bundle not in a block after ${this.options.inclusionTimeoutMs} ms; it stays in the mempool (query svc_getTransactionReceipt)`,
          { bundle_hash: encodeHash(entry.hash), nonce: entry.nonce.toString() }));
      }, this.options.inclusionTimeoutMs);
      const list = this.waiters.get(entry.hashKey) ?? [];
      list.push({ resolve, reject, timer });
      this.waiters.set(entry.hashKey, list);
    });
  }

  private settle(hashKey: string, receipt: Receipt | undefined, error?: Error): void {
    const list = this.waiters.get(hashKey);
    if (!list) return;
    this.waiters.delete(hashKey);
    for (const w of list) {
      clearTimeout(w.timer);
      if (receipt) w.resolve(receipt);
      else w.reject(error!);
    }
  }

  private remember(header: BlockHeader): void {
    this.recent.push(header);
    if (this.recent.length > RECENT_HEADERS) this.recent.shift();
  }

  private admission() {
    return {
      allowUnsigned: this.allowUnsigned,
      nowSeconds: BigInt(Math.floor(Date.now() / 1000)),
      stateNonce: (account: Uint8Array) => this.stateNonce(account),
      failedAtNonce: (account: Uint8Array, nonce: bigint) => this.failedAtNonce(account, nonce),
      pendingKeys: (account: Uint8Array) => this.mempool.revealedKeys(Buffer.from(account).toString('latin1')),
      verifyEvm: (bytes: Uint8Array, signature: Uint8Array, hash: Uint8Array) =>
        verifyEvmBundle(bytes, signature, { chainId: this.chainId, gasPrice: this.options.gasPrice, tokens: this.evmTokens }, hash),
    };
  }

  private assertRunning(): void {
    if (this.stopped) throw new ChainError('SHUTTING_DOWN', 'the node is shutting down');
  }

  private createProducer(): BlockProducer {
    return new BlockProducer(
      {
        chainId: this.chainId,
        gasPrice: this.options.gasPrice,
        allowUnsigned: this.allowUnsigned,
        blockGasLimit: BigInt(this.options.maxTxsPerBlock) * BUNDLE_GAS_CEILING,
      },
      { core: this.core, validator: this.deps.validator, tokens: this.tokens },
    );
  }

  private async writeGenesis(): Promise<void> {
    const config = genesisConfig(this.options.network, {
      validators: this.options.genesisValidators ?? [this.deps.validator.publicKey],
      params: this.options.chainParams ?? DEFAULT_CHAIN_PARAMS,
    });
    this.core.genesis(config);
    const { stateRoot, writes } = this.core.commitBlock();
    // Before the StateView takes the writes: the indexer reads a balance's previous value there.
    const indexes = this.indexer.forBlock({ height: 0, bundleHashes: [], bundles: [], writes });
    this.deps.state.apply(writes);
    this.indexer.durable(0);
    const unsigned = {
      chainId: this.chainId, height: 0, parentHash: new Uint8Array(32), timestamp: Number(config.timestamp),
      proposer: new Uint8Array(32), proposerPubkey: new Uint8Array(32), stateRoot, transactionsRoot: transactionsRoot([]),
      gasUsed: 0, gasLimit: 0, baseFee: Number(this.options.gasPrice), bundleCount: 0, round: 0, missed: [],
    };
    // The genesis block is the same on every node of a network, so nobody signs it.
    const header: BlockHeader = { ...unsigned, hash: headerHash(unsigned), signature: new Uint8Array(0) };
    await this.deps.store.commitBlock({
      height: 0, hash: header.hash, block: encodeBlock({ header, bundles: [], bundleHashes: [] }), bundleHashes: [], state: writes, indexes,
    });
    this.head = header;
    this.executionHead = header;
    this.remember(header);
  }
}

/** Which header field a re-execution disagrees on, or undefined when the hashes match. */
function headerMismatch(mine: BlockHeader, theirs: BlockHeader): string | undefined {
  if (bytesEqual(mine.hash, theirs.hash)) return undefined;
  if (!bytesEqual(mine.stateRoot, theirs.stateRoot)) return `state root ${encodeHash(mine.stateRoot)} here, ${encodeHash(theirs.stateRoot)} in the header`;
  if (mine.gasUsed !== theirs.gasUsed) return `gas used ${mine.gasUsed} here, ${theirs.gasUsed} in the header`;
  for (const field of ['gasLimit', 'baseFee', 'timestamp', 'bundleCount'] as const) {
    if (mine[field] !== theirs[field]) return `${field} ${mine[field]} here, ${theirs[field]} in the header (validators must run the same --gas-price and --max-txs-per-block)`;
  }
  return 'the header hash differs';
}

function roundAll(timings: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, Math.round(v)]));
}

function failedError(receipt: Receipt): ChainError {
  return new ChainError('BUNDLE_FAILED', `bundle failed and was reverted: ${receipt.error ?? receipt.status_name}`, {
    status: receipt.status_name, receipt,
  });
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

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
}
