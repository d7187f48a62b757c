import { EventEmitter } from 'node:events';
import { Core, encodeGenesisConfig } from '../core/core.js';
import { BUNDLE_GAS_CEILING } from '../abi/constants.js';
import { checkLoadedState, describeStartCheck, StateCheckError } from './start-check.js';
import { balanceKey, decodeBalance, Prefix } from '../core/records.js';
import { bundleHash, type Operation } from '../codec/bundle.js';
import { encodeAccount, encodeHash, NATIVE_MINT } from '../codec/address.js';
import { GovernanceFeeFunding } from './governance-fee.js';
import { toLatin1 } from '../codec/hash.js';
import type { SignatureVerifierPool } from '../codec/verify-pool.js';
import type { ChainStore, StoredRawBlock } from '../storage/chain-store.js';
import { proveState, verifyStateProof, type StateProof } from '../codec/state-proof.js';
import { StateHistory } from './state-history.js';
import type { StateReader } from './state-reader.js';
import type { Logger } from '../logger.js';
import type { AccountKeys } from './account-keys.js';
import { decodeBlock, encodeBlock, type Block, type BlockHeader } from './block.js';
import { txIndexingError } from './errors.js';
import { prunedError } from './pruning.js';
import { CHAIN_IDS, type Network } from './genesis-data.js';
import { genesisConfig } from './genesis.js';
import { genesisBlock } from './genesis-block.js';
import { upgradeHaltAt, UpgradeRequiredError, type UpgradeGovernance } from '../domains/upgrades/reader.js';
import { DEFAULT_CHAIN_PARAMS, type ChainParams } from './chain-params.js';
import { Mempool, type MempoolLimits, type PendingBundle } from './mempool.js';
import type { ProducedBlock, ValidatorIdentity } from './producer.js';
import { ReceiptReader } from './receipt-reader.js';
import type { Receipt } from './receipts.js';
import { compositeKey, type StateView, type StorageStats } from './state-view.js';
import { SubmissionGate } from './admission/gate.js';
import type { TokenRegistry } from './token-registry.js';
import { Indexer } from './indexer.js';
import type { EvmTokenIndex } from './evm/tokens.js';
import { ethIndexKey } from './evm/bundles.js';
import { validatorGate } from './validator-gate.js';
import { importBlock, type ImportedBlock, type ImportOptions } from './import.js';
import { SyncState, type ChainConsensus, type ChainEvents, type ChainNode, type ProposalExecution, type QueuedBundle } from './interface.js';
import { Heads, RECENT_HEADERS } from './pipeline/heads.js';
import { Admission, type AdmittedBundle } from './admission/admission.js';
import { Execution } from './pipeline/2-execute.js';
import { Finality } from './pipeline/3-commit.js';
import { TX_COUNT_KEY, WriteQueue } from './pipeline/4-write.js';
import { Notifier } from './pipeline/5-notify.js';
import { BlockLoop } from './pipeline/loop.js';
import { EpochRecords } from './epoch-records.js';

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
  /**
   * Upgrade governance (docs/upgrades.md): the configuration a new chain's genesis records (from
   * the governance flags), and which plans this binary implements (src/version.ts). Absent: the
   * default configuration, and a binary that implements every plan (tests of other domains).
   */
  upgrades?: { governance?: UpgradeGovernance; implementsPlan: (name: string) => boolean; version: string };
  /**
   * Keep each block's change set so state at past blocks is served (docs/storage.md "State
   * history"). Default true; false only for the bench's same-run baseline.
   */
  stateHistory?: boolean;
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


// Each bundle's gas is at most BUNDLE_GAS_CEILING (the ABI table's), so `max_txs × it` is the block gas limit.

/**
 * The chain, as one facade over the steps of the block pipeline in src/chain/pipeline/ (in order:
 * verify.ts → execute.ts → commit.ts → write.ts → notify.ts, driven by loop.ts; docs/architecture.md
 * "Layers"): admission, the mempool, the adaptive block loop (spec §1.8: 500 ms under load up to
 * --block-time idle), and the read paths the RPC methods use. Upper layers see it as ChainNode.
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
  private readonly sync: SyncState;
  private readonly heads = new Heads();
  private oldestHeld = 0;
  /** reads at past blocks from the stored change sets (docs/storage.md "State history") */
  private readonly history: StateHistory;
  private readonly admission: Admission;
  private readonly execution: Execution;
  private readonly finality: Finality;
  private readonly writes: WriteQueue;
  private readonly notify: Notifier;
  private readonly loop: BlockLoop;
  /** the epoch records checkpoint sync reads (./epoch-records.ts; docs/light-client.md) */
  readonly epochs: EpochRecords;
  /**
   * True while the node catches up with the network (initial sync). Subscriptions are paused while
   * it is set (spec §6.2). A single validator never syncs; block sync (src/p2p/sync.ts) sets it.
   */
  get syncing(): boolean {
    return this.sync.syncing;
  }

  /** Where the current or last catch-up started and the height it syncs to (set by src/p2p/sync.ts). */
  get syncProgress(): { readonly startingHeight: number; readonly highestHeight: number } {
    return this.sync;
  }

  /** the dependencies but the first core instance, which belongs to `execution` (it is replaced, below) */
  private readonly deps: Omit<ChainDependencies, 'core'>;

  private constructor(readonly options: ChainOptions, { core, ...deps }: ChainDependencies) {
    super();
    // Not kept here: with --elastic-state the execution replaces its core instance, and a reference
    // kept to the first would keep its WebAssembly memory (hundreds of MB at millions of accounts,
    // docs/operations.md "Memory bound") alive for the node's life.
    this.deps = deps;
    this.chainId = CHAIN_IDS[options.network];
    this.tokens = deps.tokens;
    this.evmTokens = deps.evmTokens;
    this.keys = deps.keys;
    this.sync = deps.sync ?? new SyncState();
    this.mempool = new Mempool({ ...options.mempoolLimits, maxBundles: options.mempoolCapacity });
    this.receipts = new ReceiptReader(deps.store, this.tokens);
    this.indexer = new Indexer(deps.store, this.receipts, deps.state);
    this.history = new StateHistory(deps.store, deps.state, () => this.heads.head.height);
    const { heads, mempool, indexer, sync } = this;
    const { store, state, logger } = deps;
    this.notify = new Notifier({ inclusionTimeoutMs: options.inclusionTimeoutMs, mempool, state, indexer, heads, logger, events: this });
    this.writes = new WriteQueue({ store, state, indexer, mempool, sync, logger, notify: this.notify, stateHistory: options.stateHistory !== false });
    this.execution = new Execution(
      {
        chainId: this.chainId,
        gasPrice: options.gasPrice,
        allowUnsigned: this.allowUnsigned,
        blockGasLimit: BigInt(options.maxTxsPerBlock) * BUNDLE_GAS_CEILING,
      },
      core,
      { createCore: deps.createCore, validator: deps.validator, tokens: this.tokens, heads, writes: this.writes, mempool, notify: this.notify, logger, state },
    );
    const gate = options.onlyAsValidator ? validatorGate(state, deps.validator.publicKey, () => heads.head.height) : () => true;
    const mayProduce = () => !this.upgradeHalt(heads.executionHead.height + 1) && gate();
    this.loop = new BlockLoop(
      { blockTimeMs: options.blockTimeMs, minBlockIntervalMs: options.minBlockIntervalMs, maxTxsPerBlock: options.maxTxsPerBlock },
      { heads, execution: this.execution, writes: this.writes, notify: this.notify, mempool, sync, mayProduce },
    );
    this.admission = new Admission(
      { chainId: this.chainId, gasPrice: options.gasPrice, allowUnsigned: this.allowUnsigned },
      {
        gate: new SubmissionGate(deps.verifier, this.keys), mempool, state, evmTokens: this.evmTokens, receipts: this.receipts,
        writes: this.writes, notify: this.notify, events: this,
      },
    );
    this.epochs = new EpochRecords({ store, state, proofs: this, logger });
    // Registered first, so the set proof is taken in the turn the boundary block became the head.
    this.on('block', (produced) => this.epochs.onHead(produced.block.header, produced.write.certificate ?? new Uint8Array(0)));
    this.finality = new Finality({
      heads, loop: this.loop, execution: this.execution, writes: this.writes, admission: this.admission, haltBefore: (h) => this.upgradeHalt(h),
    });
  }

  /** Open the chain from storage, writing genesis on an empty data dir. */
  static async open(options: ChainOptions, deps: ChainDependencies): Promise<Chain> {
    const records = await deps.state.loadFrom(deps.store);
    const chain = new Chain(options, deps);
    chain.oldestHeld = await deps.store.oldestBlock();
    const heads = chain.heads;
    const headHeight = await deps.store.head();
    if (headHeight === undefined) {
      await chain.writeGenesis();
    } else {
      const block = await chain.blockByHeight(headHeight);
      if (!block) throw new Error(`storage names head ${headHeight} but holds no such block`);
      heads.head = block.header;
      heads.executionHead = block.header;
      const root = chain.execution.core.stateRoot();
      if (Buffer.compare(root, block.header.stateRoot) !== 0) {
        throw new Error(`state root ${encodeHash(root)} of stored state differs from head block's ${encodeHash(block.header.stateRoot)}`);
      }
      // The stored root above is only the tree's top record: the tree below it is checked too,
      // when the whole state is in memory anyway; the records themselves only by --verify-on-start
      // (docs/operations.md "What a start checks": over a tenth of a large start).
      if (!chain.execution.elastic) {
        const check = await checkLoadedState(deps.state, block.header.stateRoot, { records: false });
        if (check.anomalyCount > 0) throw new StateCheckError(describeStartCheck(check, deps.store.path));
        deps.logger.info('state tree checked', { ms: check.ms });
      }
      deps.logger.info('state records not checked one by one at this start: --verify-on-start checks every record against the state root (docs/operations.md "What a start checks")');
      const count = await deps.store.getLocal(TX_COUNT_KEY);
      heads.totalTransactions = count ? Number(Buffer.from(count).toString()) : 0;
      chain.writes.executedTransactions = heads.totalTransactions;
      const from = Math.max(0, headHeight - RECENT_HEADERS + 1);
      const older = await deps.store.getBlocks(range(from, headHeight + 1));
      for (const bytes of older) if (bytes) heads.remember(decodeBlock(bytes, bundleHash).header);
    }
    await chain.epochs.recordHeadIfMissing(heads.head, (await deps.store.getCertificate(heads.head.height)) ?? new Uint8Array(0));
    await chain.history.open(heads.head.height);
    deps.logger.info('chain opened', {
      network: options.network, chainId: chain.chainId, height: heads.head.height, stateRecords: records,
      stateRoot: encodeHash(heads.head.stateRoot),
    });
    if (chain.execution.elastic) chain.execution.logMemory('memory after open');
    return chain;
  }

  /**
   * The lowest height above genesis whose block is held (docs/operations.md "Pruning"): 0 on an
   * archive node; raised by pruning (`noteOldest`) and set by a restore.
   */
  get oldestBlock(): number {
    return this.oldestHeld;
  }

  noteOldest(height: number): void {
    this.oldestHeld = Math.max(this.oldestHeld, height);
  }

  /** The lowest height whose state is served (docs/storage.md "State history"): 0 on an archive node kept from genesis. */
  get oldestState(): number {
    return this.history.oldest;
  }

  /** Pruning raises the state window before it deletes the change sets below it (src/chain/pruning.ts). */
  noteOldestState(height: number): void {
    this.history.noteOldest(height);
  }

  /**
   * A synchronous read of the state as of the end of block `height` (at most the head): the eth_call
   * readers, a balance, a nonce (src/chain/state-history.ts `run`). Below the window: -32013 naming
   * the oldest height served.
   */
  stateAt<T>(height: number, read: (state: StateReader) => T): Promise<T> {
    return this.history.run(height, read);
  }

  /** A balance as of the end of block `height`: one history seek. */
  async balanceAt(account: Uint8Array, mint: Uint8Array, height: number): Promise<bigint> {
    if (height >= this.heads.head.height) return this.balance(account, mint);
    const record = await this.history.valueAt(balanceKey(account, mint), height);
    return record ? decodeBalance(record) : 0n;
  }

  /**
   * The proof of a state key against the state root of block `height`: the tree's records as of
   * that block come from the change sets like any key's. The proof is checked against that header's
   * root before it is answered (a wrong history would otherwise go out as a proof that fails).
   */
  async stateProofAt(key: Uint8Array, height: number): Promise<{ header: BlockHeader; proof: StateProof }> {
    if (height >= this.heads.head.height) return this.stateProof(key);
    this.history.check(height);
    const block = await this.blockByHeight(height);
    if (!block) throw new Error(`no block at height ${height}`);
    const proof = await this.history.run(height, (state) => proveState(state, key));
    const check = verifyStateProof(proof, block.header.stateRoot);
    if (!check.ok) throw new Error(`the state history at height ${height} does not give its state root: ${check.reason}`);
    return { header: block.header, proof };
  }

  storageStats(): StorageStats {
    return this.deps.state.stats();
  }

  /** Committed state, read-only use (the DEX read paths index pools from it, src/domains/dex/rpc.ts). */
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

  /** Waiting bundles behind a nonce gap (txpool_status "queued"). */
  get mempoolQueued(): number {
    return this.mempool.queuedCount;
  }

  /** Up to `limit` waiting bundles, each marked queued (behind a nonce gap) or not (txpool_content). */
  mempoolEntries(limit: number): Array<{ entry: PendingBundle; queued: boolean }> {
    const out: Array<{ entry: PendingBundle; queued: boolean }> = [];
    for (const entry of this.mempool.entries()) {
      if (out.length >= limit) break;
      out.push({ entry, queued: this.mempool.isQueued(entry) });
    }
    return out;
  }

  /** A certified block of another validator (src/chain/import.ts). */
  importBlock(encoded: Uint8Array, certificate: Uint8Array, opts?: ImportOptions): Promise<ImportedBlock> {
    return importBlock(this, encoded, certificate, opts);
  }

  get allowUnsigned(): boolean {
    return this.options.network === 'testnet';
  }

  get height(): number {
    return this.heads.head.height;
  }

  get headHeader(): BlockHeader {
    return this.heads.head;
  }

  get transactionCount(): number {
    return this.heads.totalTransactions;
  }

  /**
   * Start the block loop (src/chain/pipeline/loop.ts). `consensus` (src/consensus/service.ts)
   * decides whose turn each height is; absent, this node makes every block and each is final when
   * made. It is the loop's dependency, given when the loop starts: the consensus service is built
   * over this chain, so it cannot exist before it.
   */
  start(consensus?: ChainConsensus): void {
    this.loop.start(consensus);
  }

  /** Stop producing, let the blocks being written finish, and refuse every waiting call. */
  async stop(): Promise<void> {
    this.admission.stop();
    await this.loop.stop();
    await this.writes.writeChain;
    await this.epochs.close();
    this.notify.refuseAll();
  }

  // ---- writes (src/chain/admission/admission.ts) ------------------------------------------------

  /**
   * A signed (or, on testnet, unsigned) Borsh bundle; resolves with its receipt once in a block.
   * Resubmitting an included bundle answers with its receipt rather than a nonce error. A bundle
   * that waits behind a nonce gap is answered at once as queued (docs/mempool.md).
   */
  submitBundle(bytes: Uint8Array): Promise<Receipt | QueuedBundle> {
    // Not an async function: a bundle waiting for its block holds the receipt's promise, not a
    // suspended frame of this one (src/chain/admission/gate.ts `admit`).
    return this.admission.admitBundle(bytes).then(this.answerAdmitted);
  }

  private readonly answerAdmitted = (admitted: AdmittedBundle): Receipt | QueuedBundle | Promise<Receipt> => {
    if (admitted.receipt) return admitted.receipt;
    const { entry } = admitted;
    if (this.mempool.isQueued(entry)) {
      return {
        bundle_hash: encodeHash(entry.hash), from: encodeAccount(entry.account), nonce: entry.nonce.toString(), status: 'queued',
        next_nonce: this.pendingNonceOf(entry.accountKey).toString(),
      };
    }
    return this.notify.wait(entry);
  };

  /**
   * The unsigned convenience path (spec §5.5, testnet only): the node picks the next free nonce
   * synchronously, so concurrent calls from one address never collide.
   */
  async submitOperations(from: Uint8Array, operations: Operation[]): Promise<Receipt> {
    // The keyless governance authority pays its fee from a faucet top-up (src/chain/governance-fee.ts).
    if (this.allowUnsigned) await this.governanceFee.before(from);
    return this.enqueueOperations(from, operations).included;
  }

  private readonly governanceFee = new GovernanceFeeFunding({
    balance: (account) => this.balance(account, NATIVE_MINT),
    submit: (from, operations) => this.enqueueOperations(from, operations).included,
  });

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
    return this.admission.enqueueOperations(from, operations, opts);
  }

  /**
   * Admission and the mempool only: resolves once the bundle waits for a block, with its hash and a
   * promise of its receipt (eth_sendRawTransaction answers at once with the transaction hash). A
   * bundle already in a block or already waiting resolves too (`known`).
   */
  async enqueueBundle(bytes: Uint8Array): Promise<{ hash: Uint8Array; known: boolean; included: Promise<Receipt> }> {
    const admitted = await this.admission.admitBundle(bytes);
    if (admitted.receipt) return { hash: admitted.hash, known: true, included: Promise.resolve(admitted.receipt) };
    return { hash: admitted.hash, known: admitted.known, included: this.notify.wait(admitted.entry) };
  }

  // ---- reads --------------------------------------------------------------------------------

  /**
   * Whether a bundle is on its way into a block: waiting in the mempool, or in a block executed but
   * not yet durable. Read this before looking for its receipt: a bundle moves mempool → executed
   * → durable (receipt stored first, then it leaves this state), so that order never misses it.
   */
  isInFlight(hashKey: string): boolean {
    return this.mempool.has(hashKey) || this.writes.isAwaitingWrite(hashKey);
  }

  /** The account's next executable nonce, counting blocks executed but still being written. */
  stateNonce(account: Uint8Array): bigint {
    return this.writes.stateNonce(account);
  }

  pendingNonce(account: Uint8Array): bigint {
    return this.pendingNonceOf(toLatin1(account));
  }

  /** `pendingNonce` by the account's latin1 (PendingBundle.accountKey). */
  private pendingNonceOf(accountLatin1: string): bigint {
    return this.mempool.pendingNonce(accountLatin1, this.writes.stateNonceOf(accountLatin1));
  }

  balance(account: Uint8Array, mint: Uint8Array): bigint {
    if (account.length !== 32 || mint.length !== 32) throw new RangeError(`a balance is of a 32-byte address and mint, got ${account.length} and ${mint.length} bytes`);
    // The key's string straight from the two fields (state-view.ts compositeKey): the hottest read of the RPC.
    const record = this.deps.state.getLatin1(compositeKey(Prefix.BALANCE, account, mint));
    return record ? decodeBalance(record) : 0n;
  }

  async blockByHeight(height: number): Promise<Block | undefined> {
    // Below the oldest block held (pruning, or a restore) but not past the head: a clear error, not "no block".
    if (height > 0 && height < this.oldestHeld && height <= this.heads.head.height) throw prunedError(height, this.oldestHeld);
    const bytes = await this.deps.store.getBlock(height);
    return bytes ? decodeBlock(bytes, bundleHash) : undefined;
  }

  /** A durable block exactly as stored, with its certificate and execution result (svc_getRawBlock, docs/replay.md). */
  async rawBlock(height: number): Promise<StoredRawBlock | undefined> {
    if (height > this.height) return undefined;
    return (await this.deps.store.getRawBlocks([height]))[0];
  }

  private genesis: Promise<Uint8Array | undefined> | undefined;

  /**
   * The encoded GenesisConfig (docs/core-abi.md) that made the stored genesis block, for replay from
   * genesis (docs/replay.md): this node's genesis flags, checked once through a fresh core against
   * block 0's state root; undefined when they do not give it (a node restarted with other flags).
   */
  genesisInput(): Promise<Uint8Array | undefined> {
    this.genesis ??= (async () => {
      const bytes = encodeGenesisConfig(genesisConfig(this.options.network, {
        validators: this.options.genesisValidators ?? [this.deps.validator.publicKey],
        params: this.options.chainParams ?? DEFAULT_CHAIN_PARAMS,
      }));
      const core = await Core.create({ get: () => undefined });
      core.genesis(bytes);
      const block0 = await this.blockByHeight(0);
      return block0 && Buffer.compare(core.commitBlock().stateRoot, block0.header.stateRoot) === 0 ? bytes : undefined;
    })();
    return this.genesis;
  }

  /**
   * The proof of a state key against the durable head's state root (docs/replay.md "State proofs"):
   * the state view and the head move together (pipeline/5-notify.ts), so both are read in one turn.
   */
  stateProof(key: Uint8Array): { header: BlockHeader; proof: StateProof } {
    return { header: this.heads.head, proof: proveState(this.deps.state, key) };
  }

  /** Headers of the latest blocks, newest first, from memory when recent. */
  async recentHeaders(limit: number): Promise<BlockHeader[]> {
    const recent = this.heads.recent;
    const out: BlockHeader[] = [];
    for (let i = recent.length - 1; i >= 0 && out.length < limit; i--) out.push(recent[i]!);
    for (let h = (out.at(-1)?.height ?? this.heads.head.height + 1) - 1; h >= 0 && out.length < limit; h--) {
      if (h > 0 && h < this.oldestHeld) h = 0; // skip what is not held, down to genesis
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
    // The index's height and the head as they were when the lookup began: read after it, a block's
    // position records written during the read would move the index to the head, and a bundle of
    // that block the read had missed would be answered null, not TX_INDEXING (docs/storage.md "The
    // transaction lookup index").
    const indexed = this.lookupHeight;
    const head = this.heads.head.height;
    const receipt = await this.receipt(hash);
    if (receipt) return receipt;
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
   * Mean seconds between the recent blocks in memory, genesis left out: its timestamp is a fixed
   * date (GENESIS_TIMESTAMP), not when the chain started, so on a young chain it made the mean
   * weeks long. Until two blocks after genesis exist there is no interval to measure, and the
   * answer is the configured idle block time (`--block-time`; docs/explorer.md "Network stats").
   */
  averageBlockTime(): number {
    const recent = this.heads.recent;
    const first = recent.find((h) => h.height > 0);
    const last = recent.at(-1);
    if (!first || !last || last.height - first.height < 1) return this.options.blockTimeMs / 1000;
    return (last.timestamp - first.timestamp) / (last.height - first.height);
  }

  // ---- blocks from peers (src/chain/import.ts) and consensus (src/chain/pipeline/3-commit.ts) ----

  /** The block the next block extends: the last executed one, ahead of `head` while writes are in flight. */
  get executionParent(): BlockHeader {
    return this.heads.executionHead;
  }

  /** The core that executes the next block (src/chain/import.ts re-executes peers' blocks on it). */
  get executionCore(): Core {
    return this.execution.core;
  }

  /** Wait until a block may be executed (BlockLoop.writeSlot); then execute and `commitExecuted` without awaiting. */
  writeSlot(): Promise<void> {
    return this.loop.writeSlot();
  }

  /** Commit a block executed elsewhere (src/chain/import.ts); resolves once it is durable (Finality.commitExecuted). */
  commitExecuted(produced: ProducedBlock): Promise<void> {
    return this.finality.commitExecuted(produced);
  }

  /** --elastic-state: recycle the core if its cache is over the bound and read a block's keys ahead (Execution.prepare). */
  async prepareExecution(bundles: () => Uint8Array[]): Promise<void> {
    if (this.execution.elastic) await this.execution.prepare(bundles());
  }

  /** Let the queued writes land, then build a fresh core over committed state (Execution.reloadCore). */
  reloadCore(): Promise<void> {
    return this.execution.reloadCore();
  }

  /** Whether a block is held executed awaiting its votes, and which. */
  get speculativeHeader(): BlockHeader | undefined {
    return this.loop.speculative?.block.header;
  }

  executeProposal(block: Block, encoded: Uint8Array): Promise<ProposalExecution> {
    return this.finality.executeProposal(block, encoded);
  }

  commitSpeculative(certificate: Uint8Array): Promise<boolean> {
    return this.finality.commitSpeculative(certificate);
  }

  discardSpeculative(): Promise<void> {
    return this.loop.discardSpeculative();
  }

  // ---- upgrades (docs/upgrades.md) ----------------------------------------------------------

  private halted: UpgradeRequiredError | undefined;

  /**
   * spec §3 "Node upgrade": the block at `height` must not be executed by this binary when an
   * approved plan is due at it and this release does not implement the plan. Read from the core
   * that executes the next block (state as of the last executed block). The first time, the chain
   * emits 'upgradeHalt' (node.ts writes upgrade-info.json and exits 42).
   */
  upgradeHalt(height: number): UpgradeRequiredError | undefined {
    if (this.halted) return this.halted;
    const upgrades = this.options.upgrades;
    if (!upgrades) return undefined;
    const plan = upgradeHaltAt(this.execution.core, height, upgrades.implementsPlan);
    if (!plan) return undefined;
    this.halted = new UpgradeRequiredError(plan, upgrades.version);
    this.emit('upgradeHalt', this.halted);
    return this.halted;
  }

  /** Import's halt (src/chain/import.ts ImportTarget): the upgrade halt above. */
  haltBefore(height: number): Error | undefined {
    return this.upgradeHalt(height);
  }

  // ---- genesis ------------------------------------------------------------------------------

  private async writeGenesis(): Promise<void> {
    const config = genesisConfig(this.options.network, {
      validators: this.options.genesisValidators ?? [this.deps.validator.publicKey],
      params: this.options.chainParams ?? DEFAULT_CHAIN_PARAMS,
    }, this.options.upgrades?.governance);
    const { header, writes } = genesisBlock(this.execution.core, config, this.chainId, this.options.gasPrice);
    // Before the StateView takes the writes: the indexer reads a balance's previous value there.
    const indexes = this.indexer.forBlock({ height: 0, bundleHashes: [], bundles: [], writes });
    this.deps.state.apply(writes);
    this.indexer.durable(0);
    await this.deps.store.commitBlock({
      height: 0, hash: header.hash, block: encodeBlock({ header, bundles: [], bundleHashes: [] }), bundleHashes: [], state: writes, indexes,
    });
    this.heads.head = header;
    this.heads.executionHead = header;
    this.heads.remember(header);
  }
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
}
