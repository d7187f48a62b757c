import type { UpgradeRequiredError } from '../domains/upgrades/reader.js';
import type { EpochRecords } from './epoch-records.js';
import type { Operation } from '../codec/bundle.js';
import type { StateProof } from '../codec/state-proof.js';
import type { StorageStats } from './state-view.js';

export type { StorageStats, TierStats } from './state-view.js';
import type { StoredRawBlock } from '../storage/chain-store.js';
import type { Block, BlockHeader } from './block.js';
import type { Network } from './genesis-data.js';
import type { AccountKeys } from './account-keys.js';
import type { CollectionReader } from '../domains/collections/reader.js';
import type { AnchorReader } from '../domains/anchors/reader.js';
import type { BridgeReader } from '../domains/bridge/reader.js';
import type { EvmTokenIndex } from './evm/tokens.js';
import type { Indexer } from './indexer.js';
import type { PendingBundle } from './mempool.js';
import type { DexReader } from '../domains/dex/reader.js';
import type { PresaleReader } from '../domains/presales/reader.js';
import type { StakingPoolReader } from '../domains/staking-pools/reader.js';
import type { TokenRegistry } from './token-registry.js';
import type { BlockTurn, ProducedBlock } from './producer.js';
import type { Receipt } from './receipts.js';

/**
 * The chain as the layers above it see it (docs/architecture.md "Layers"; after Lodestar's
 * IBeaconChain): a reader of committed state and blocks, a bundle submitter, and the events to
 * subscribe to. src/rpc, src/intents, src/eth, src/consensus and src/p2p import these types, never
 * src/chain/chain.ts (test/unit/imports.test.ts checks it); node.ts hands them the one Chain.
 */

import type { StateReader } from './state-reader.js';

export type { StateReader, WatchableState } from './state-reader.js';

/**
 * The domain readers over committed state, built once in node.ts and handed to the chain, the RPC
 * methods, the eth adapter and the intent engine, so all read the same indexes.
 */
export interface DomainReaders {
  tokens: TokenRegistry;
  /** tokens and collections by EVM-form address (docs/eth.md) */
  evmTokens: EvmTokenIndex;
  keys: AccountKeys;
  dex: DexReader;
  collections: CollectionReader;
  /** presales (docs/presales.md) */
  presales: PresaleReader;
  /** token staking pools (docs/staking-pools.md) */
  stakingPools: StakingPoolReader;
  /** anchors by the account that made them (docs/anchors.md) */
  anchors: AnchorReader;
  /** the bridge's deposits, withdrawals, mappings and contract safety records (docs/bridge.md) */
  bridge: BridgeReader;
}

/** Committed blocks, receipts and state: what the durable head exposes. */
export interface ChainReader {
  readonly chainId: number;
  readonly network: Network;
  /** nanoNTV per gas unit (spec §4.20 --gas-price) */
  readonly gasPrice: bigint;
  /** committed state (reads only) */
  readonly state: StateReader;
  /** height of the last durable block */
  readonly height: number;
  readonly headHeader: BlockHeader;
  /** bundles in durable blocks since genesis */
  readonly transactionCount: number;
  /** every block up to this height has its position records (docs/storage.md) */
  readonly lookupHeight: number;
  /**
   * The lowest height whose block this node holds: 0 when it holds every block from genesis, else
   * the height it was restored at (snapshot or export) or pruned to. The explorer indexes hold no
   * bundle below it (docs/explorer.md "Where history starts").
   */
  readonly oldestBlock: number;
  /** explorer indexes of the durable blocks (spec §4.11), read by the explorer methods */
  readonly indexer: Indexer;
  /** bundles waiting in the mempool */
  readonly mempoolSize: number;
  /** true while the node catches up with the network (spec §6.2: subscriptions pause) */
  readonly syncing: boolean;
  /** where the current or last catch-up started and its target (eth_syncing; absent: a node that never syncs) */
  readonly syncProgress?: { readonly startingHeight: number; readonly highestHeight: number };
  blockByHeight(height: number): Promise<Block | undefined>;
  /** a durable block as stored, with certificate and execution result (docs/replay.md) */
  rawBlock(height: number): Promise<StoredRawBlock | undefined>;
  /** the encoded GenesisConfig that made block 0, undefined when this node's flags do not give it */
  genesisInput(): Promise<Uint8Array | undefined>;
  /** counters of the state store's tiers (spec §4.17 svc_getStorageStats; docs/operations.md "Elastic state") */
  storageStats(): StorageStats;
  /** the epoch records of checkpoint sync (src/chain/epoch-records.ts, docs/light-client.md) */
  readonly epochs: EpochRecords;
  /** a state key's inclusion or absence proof against the durable head's state root */
  stateProof(key: Uint8Array): { header: BlockHeader; proof: StateProof };
  heightOfHash(hash: Uint8Array): Promise<number | undefined>;
  recentHeaders(limit: number): Promise<BlockHeader[]>;
  receipt(hash: Uint8Array): Promise<Receipt | undefined>;
  receiptByHash(hash: Uint8Array): Promise<Receipt | undefined>;
  blockReceipts(block: Block): Promise<Array<Receipt | undefined>>;
  bundleHashOfEthHash(ethHash: Uint8Array): Promise<Uint8Array | undefined>;
  averageBlockTime(): number;
  isInFlight(hashKey: string): boolean;
  /** whether the mempool holds this bundle (hash hex) */
  isPending(hashKey: string): boolean;
  /** waiting bundles behind a nonce gap */
  readonly mempoolQueued: number;
  /** up to `limit` waiting bundles, each marked queued (behind a nonce gap) or pending (ready) */
  mempoolEntries(limit: number): Array<{ entry: PendingBundle; queued: boolean }>;
  stateNonce(account: Uint8Array): bigint;
  balance(account: Uint8Array, mint: Uint8Array): bigint;
  /** the lowest height whose state is served (docs/storage.md "State history") */
  readonly oldestState: number;
  /** a synchronous read of the state as of block `height`; below the window -32013 (PRUNED) naming the oldest */
  stateAt<T>(height: number, read: (state: StateReader) => T): Promise<T>;
  /** a balance as of block `height` */
  balanceAt(account: Uint8Array, mint: Uint8Array, height: number): Promise<bigint>;
  /** a state key's proof against the state root of block `height` */
  stateProofAt(key: Uint8Array, height: number): Promise<{ header: BlockHeader; proof: StateProof }>;
}

/**
 * What svc_submitBundle answers at once for a bundle that waits behind a nonce gap (docs/mempool.md
 * "Queued bundles"): holding the call until the missing nonces arrive could take any time.
 */
export interface QueuedBundle {
  bundle_hash: string;
  from: string;
  nonce: string;
  status: 'queued';
  /** the nonce the account needs next: the bundle executes once every nonce up to its own has */
  next_nonce: string;
}

/** Admission of bundles into the mempool (docs/mempool.md). */
export interface BundleSubmitter {
  /** testnet: unsigned convenience methods are allowed (spec §5.5) */
  readonly allowUnsigned: boolean;
  submitBundle(bytes: Uint8Array): Promise<Receipt | QueuedBundle>;
  enqueueBundle(bytes: Uint8Array): Promise<{ hash: Uint8Array; known: boolean; included: Promise<Receipt> }>;
  submitOperations(from: Uint8Array, operations: Operation[]): Promise<Receipt>;
  enqueueOperations(
    from: Uint8Array,
    operations: Operation[],
    opts?: { maxGas?: bigint; validUntil?: bigint },
  ): { hash: Uint8Array; nonce: bigint; included: Promise<Receipt> };
  pendingNonce(account: Uint8Array): bigint;
}

export interface ChainEvents {
  /** a block is durable: reads and receipts see it */
  block: [ProducedBlock];
  /** a bundle passed the submission gate into the mempool (src/p2p/dragonfly.ts forwards it) */
  admitted: [PendingBundle];
  /**
   * The next block is at an approved upgrade's height and this binary does not implement the plan
   * (docs/upgrades.md): the chain makes, executes and imports no further block. Emitted once.
   */
  upgradeHalt: [UpgradeRequiredError];
}

/** The events upper layers subscribe to. */
export interface ChainEventSource {
  on<K extends keyof ChainEvents>(event: K, listener: (...args: ChainEvents[K]) => void): unknown;
  off<K extends keyof ChainEvents>(event: K, listener: (...args: ChainEvents[K]) => void): unknown;
}

/** RPC, intents and the eth adapter: reads, submissions, events. */
export type ChainApi = ChainReader & BundleSubmitter & ChainEventSource;

export type ProposalExecution = { ok: true } | { ok: false; reason: string; faulty: boolean };

/**
 * What consensus and sync drive besides the reads (docs/consensus.md, docs/p2p.md): blocks of
 * other validators executed, held until final, committed or dropped.
 */
export interface ChainExecution {
  /** the block the next block extends: the last executed one, ahead of the head while writes are in flight */
  readonly executionParent: BlockHeader;
  /** the block executed and awaiting its votes, if any */
  readonly speculativeHeader: BlockHeader | undefined;
  executeProposal(block: Block, encoded: Uint8Array): Promise<ProposalExecution>;
  commitSpeculative(certificate: Uint8Array): Promise<boolean>;
  discardSpeculative(): Promise<void>;
  /** a certified block of another validator (src/chain/import.ts) */
  importBlock(encoded: Uint8Array, certificate: Uint8Array, opts?: { certificateVerified?: boolean }): Promise<ImportResult>;
}

/** What importing a block answered (src/chain/import.ts). */
export type ImportResult = Awaited<ReturnType<typeof import('./import.js').importBlock>>;

/** The node's own chain, seen by consensus and sync. */
export type ChainNode = ChainApi & ChainExecution;

/**
 * What the block loop asks the consensus layer (src/consensus/service.ts, docs/consensus.md). The
 * chain stays free of consensus rules: it asks whose turn it is, builds and executes blocks, and
 * makes them durable once final.
 */
export interface ChainConsensus {
  /**
   * The solo fast path at `parent`: this node leads round 0 and its own vote is > 2/3 of the stake,
   * so the block is final when made and writes stay pipelined. `state` reads the core, which is at
   * `parent` (ahead of storage while writes are in flight).
   */
  soloTurn(parent: BlockHeader, state: StateReader): BlockTurn | undefined;
  /** the finality certificate of a solo block (this node's own vote) */
  certifySolo(header: BlockHeader): Uint8Array;
  /** otherwise: whether this node proposes the next height now (leader or due backup) */
  turn(busy: boolean): BlockTurn | undefined;
  /** this node's proposal was executed and awaits votes */
  proposed(block: Block, encoded: Uint8Array): void;
}

/**
 * Whether the node catches up with the network (spec §6.2). Made in node.ts and handed to the
 * chain, which reads it, and to block sync (src/p2p/sync.ts), which sets it.
 */
export class SyncState {
  syncing = false;
  /** the height the current or last catch-up started from (eth_syncing's startingBlock) */
  startingHeight = 0;
  /** the best height a peer announced during it, the catch-up's target (highestBlock) */
  highestHeight = 0;
}
