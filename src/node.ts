import { mkdir, readdir } from 'node:fs/promises';
import type { Checkpoint } from './light/header-trust.js';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Chain } from './chain/chain.js';
import { SyncState } from './chain/interface.js';
import { buildDomainReaders } from './chain/readers.js';
import { backfillIndexes, INDEX_VERSION } from './chain/indexer.js';
import { FaucetLedger } from './chain/faucet.js';
import type { Network } from './chain/genesis-data.js';
import { ElasticState, type ElasticOptions } from './chain/elastic-state.js';
import { StateView } from './chain/state-view.js';
import { loadValidatorKey } from './chain/validator-key.js';
import type { ChainParams } from './chain/chain-params.js';
import { DEFAULT_MEMPOOL_LIMITS, type MempoolLimits } from './chain/mempool.js';
import type Koa from 'koa';
import { encodeAccount, encodeHash } from './codec/address.js';
import type { ProducedBlock } from './chain/producer.js';
import { initHashing } from './codec/hash.js';
import { SignatureVerifierPool } from './codec/verify-pool.js';
import { ed25519Verifier } from './codec/ed25519-native.js';
import { Core } from './core/core.js';
import { compileCore } from './core/loader.js';
import { createLogger, type LogFormat, type Logger } from './logger.js';
import { IntentService } from './intents/service.js';
import { parseIntent } from './intents/parser.js';
import { registerMethods } from './rpc/methods/index.js';
import { MethodRegistry } from './rpc/registry.js';
import { RpcServer, type RpcServerOptions } from './rpc/server.js';
import { perIpLimitsApply } from './rpc/connections.js';
import { defaultExplorerDir, explorerMiddleware } from './rpc/explorer-static.js';
import { healthMiddleware, staleAfterMs } from './rpc/health.js';
import { SubscriptionHub } from './rpc/subscriptions.js';
import { ChainStore } from './storage/chain-store.js';
import { checkDataDir, DataDirError, recordChain, setMarkerAside } from './storage/data-dir-check.js';
import { decodeStoredBlock } from './chain/block.js';
import { describeStorageFault, isStorageFault, StorageError } from './storage/faults.js';
import { createNodeP2P } from './p2p/index.js';
import { ListenError } from './p2p/network.js';
import { ConsensusService, consensusTransport } from './consensus/service.js';
import { NodeMetrics, serveMetrics } from './operator/metrics.js';
import { describeAnomalies, integritySweep, startBackgroundSweep } from './operator/integrity.js';
import { verifyBlockFiles } from './operator/block-check.js';
import { Pruner, type PruningOptions } from './chain/pruning.js';
import { NODE_VERSION, implementsUpgrade } from './version.js';
import { governanceConflicts, governanceFromFlags, readGovernance, type GovernanceFlags, type UpgradeRequiredError } from './domains/upgrades/reader.js';
import { UpgradeAutoVoter, writeUpgradeInfo } from './domains/upgrades/voter.js';
import { restoreSnapshot, SnapshotService } from './operator/snapshots.js';
import { LightNode } from './light/node.js';
import { genesisFromFlags } from './chain/genesis-block.js';
import { lightRegistry, lightSyncing } from './rpc/light.js';
import { CHAIN_IDS } from './chain/genesis-data.js';

/**
 * The verifier threads' default nice value: at 10 a thread weighs about a tenth of one at 0 in
 * Linux's scheduler when both want the same core, and takes any core nobody else wants.
 */
export const VERIFIER_NICE = 10;

/** Flags of docs/rpc.md "Connections", "Response budget", "Subscriptions and filters" and "Loopback clients". */
export interface RpcBudgets {
  /** --rpc-max-connections: open RPC connections in all */
  maxConnections?: number;
  /** --rpc-limit-loopback: per-IP limits apply to loopback clients too */
  limitLoopback?: boolean;
  /** --rpc-response-max-size, bytes */
  maxResponseBytes?: number;
  /** --rpc-batch-response-max-size, bytes */
  maxBatchResponseBytes?: number;
  /** --ws-max-connections-per-ip */
  maxWsConnectionsPerIp?: number;
  /** --rpc-max-subscriptions / --rpc-max-subscriptions-per-ip */
  maxSubscriptions?: number;
  maxSubscriptionsPerIp?: number;
  /** --rpc-max-filters / --rpc-max-filters-per-ip */
  maxFilters?: number;
  maxFiltersPerIp?: number;
  /** --ws-fanout-share: share (0–1] of the loop subscription delivery may take while bundles wait */
  fanoutShare?: number;
}

/** RpcServer options from the budget flags (only those given). */
function rpcBudgetOptions(b: RpcBudgets | undefined): Partial<RpcServerOptions> {
  if (b === undefined) return {};
  return {
    ...(b.maxConnections !== undefined ? { maxConnections: b.maxConnections } : {}),
    ...(b.limitLoopback !== undefined ? { limitLoopback: b.limitLoopback } : {}),
    ...(b.maxResponseBytes !== undefined ? { maxResponseBytes: b.maxResponseBytes } : {}),
    ...(b.maxBatchResponseBytes !== undefined ? { maxBatchResponseBytes: b.maxBatchResponseBytes } : {}),
    ...(b.maxWsConnectionsPerIp !== undefined ? { maxWsConnectionsPerIp: b.maxWsConnectionsPerIp } : {}),
  };
}

export interface NodeOptions {
  dataDir: string;
  network: Network;
  rpcHost: string;
  rpcPort: number;
  gasPrice: bigint;
  blockTimeMs: number;
  maxTxsPerBlock: number;
  rpcRateLimit: number;
  /**
   * --verifier-nice: the signature verifier threads' nice value (docs/performance.md "Verifiers
   * yield to the block path"; default VERIFIER_NICE)
   */
  verifierNice?: number;
  /** --mempool-* bounds (docs/mempool.md); absent ones take DEFAULT_MEMPOOL_LIMITS */
  mempool?: Partial<MempoolLimits>;
  /** --rpc-keep-alive-timeout: ms an idle HTTP keep-alive connection stays open (docs/rpc.md; default 120000) */
  rpcKeepAliveTimeoutMs?: number;
  /** --rpc-header-timeout: ms within which a request's headers must arrive (docs/rpc.md; default 10000) */
  rpcHeadersTimeoutMs?: number;
  /** --rpc-request-timeout: ms within which a whole request, headers and body, must arrive (default 30000) */
  rpcRequestTimeoutMs?: number;
  /** --rpc-max-connections-per-ip: open RPC connections per client IP, 0 = no cap (default 128) */
  rpcMaxConnectionsPerIp?: number;
  /** --rpc-cors: origins of web pages allowed to POST JSON-RPC (docs/rpc.md; default none) */
  rpcCorsOrigins?: string[];
  /** --ws-origins: origins of web pages allowed to open a WebSocket (default none) */
  wsOrigins?: string[];
  /** --rpc-vhosts: host names the RPC may be addressed as; IP literals always (default localhost) */
  rpcVhosts?: string[];
  /** The RPC's budgets and caps of issue 46 and issue 42 item 4 (docs/rpc.md); absent ones take RpcServer's defaults */
  rpcBudgets?: RpcBudgets;
  validatorKeyPath?: string;
  verbose: boolean;
  /** --log-format: pretty lines on a terminal, JSON when piped (`auto`, the default; src/logger.ts) */
  logFormat?: LogFormat;
  /** spec §4.20 --backfill-indexes: rebuild the explorer indexes before the RPC opens */
  backfillIndexes?: boolean;
  /** progress of the backfill (the CLI draws a bar on stderr) */
  onBackfillProgress?: (done: number, total: number) => void;
  /** `--genesis-validators`: consensus keys of the genesis validators (docs/staking.md) */
  genesisValidators?: Uint8Array[];
  /** --light --checkpoint: the trusted epoch boundary to start from (docs/light-client.md) */
  checkpoint?: Checkpoint;
  /** `--chain-params <file.json>` overrides of the staking/consensus parameters (docs/staking.md) */
  chainParams?: ChainParams;
  /** spec §4.20 --p2p-port (UDP, QUIC); default 9944 */
  p2pPort?: number;
  /** address the P2P socket binds; default 0.0.0.0 (spec §5.11: open to all peers) */
  p2pHost?: string;
  /** spec §4.20 --bootnodes */
  bootnodes?: string[];
  /** spec §4.20 --external-addr */
  externalAddr?: string;
  /** spec §4.20 --enforce-validator-allowlist */
  enforceValidatorAllowlist?: boolean;
  /** progress of a catch-up from peers (the CLI draws a bar on stderr) */
  onSyncProgress?: (done: number, total: number) => void;
  /** --failover-timeout: ms after round 0 was due before backup 0 proposes (docs/consensus.md; default 5000) */
  failoverBaseMs?: number;
  /** --failover-step: ms between further backups (default 3000) */
  failoverStepMs?: number;
  /**
   * spec §4.20 --metrics: Prometheus metrics on `host:port` (--metrics-port, default 9100; host
   * 127.0.0.1, or 0.0.0.0 with --metrics-external). Absent: no metrics.
   */
  metrics?: { host: string; port: number };
  /** spec §4.20 --verify-on-start: sweep the database before the chain opens; a malformed record stops the start */
  verifyOnStart?: boolean;
  /**
   * --force-new-chain (issue 46 item 1, docs/operations.md "When a start refuses"): start a new chain
   * where chain.json names one whose database and block files are gone; refused while either is there.
   */
  forceNewChain?: boolean;
  /** spec §4.20 --rocksdb-verify-interval-secs: the same sweep in the background every N seconds, anomalies logged */
  verifyIntervalSeconds?: number;
  /** spec §4.20 --elastic-state: tiered state (src/chain/elastic-state.ts) instead of the full in-memory mirror */
  elasticState?: ElasticOptions;
  /** spec §4.20 --pruning: the window of a validator or aggressive node; absent = archive (docs/operations.md "Pruning") */
  pruning?: PruningOptions;
  /**
   * spec §4.20 governance flags (docs/upgrades.md): on an empty data dir they set the genesis's
   * governance record; later they must agree with it. Absent fields: the defaults / not compared.
   */
  governance?: GovernanceFlags;
  /** --auto-vote-seed: the 32-byte Ed25519 seed whose account votes for pending plans */
  autoVoteSeed?: Uint8Array;
  /**
   * --wait-at-upgrade (the supervisor's, docs/upgrades.md): at an approved upgrade this release
   * does not implement, keep running (RPC, peers) without executing past the height, rather than
   * exiting 42. The supervisor restarts the old release so when it refuses a swap or rolls back.
   */
  waitAtUpgrade?: boolean;
  /** spec §4.20 --serve-snapshots: a checkpoint every `interval` blocks (1,000), served on the RPC port + 10 */
  serveSnapshots?: { interval: number; keep: number };
  /** spec §4.20 --snapshot-url: restore from this snapshot on a first start, then sync from peers */
  snapshotUrl?: string;
  /** progress of a snapshot download (the CLI draws a bar on stderr) */
  onSnapshotProgress?: (done: number, total: number) => void;
}

/** The start refused a database with malformed records (--verify-on-start); the CLI exits non-zero with the message. */
export class IntegrityError extends Error {}

/**
 * A port the node was given could not be taken (`--rpc-port`, `--p2p-port`, `--metrics-port`, the
 * snapshot port): everything opened before it is closed again and the CLI exits non-zero with the
 * message. Without that, the process stayed half-started (with the P2P port taken, producing
 * blocks) and only a second signal stopped it (docs/operations.md "Ports").
 */
export class StartError extends Error {}

export interface RunningNode {
  logger: Logger;
  chain: Chain;
  rpcPort: number;
  /** the port metrics are served on, when --metrics is on */
  metricsPort?: number;
  stop(): Promise<void>;
  /** the intent engine; embedders register the STD-71 integrator hook on `intents.hooks` (docs/intents.md) */
  intents: IntentService;
  /**
   * Resolves when the chain reached an approved upgrade this binary does not implement
   * (docs/upgrades.md): upgrade-info.json is written; the caller stops the node and exits 42.
   */
  upgradeHalted: Promise<UpgradeRequiredError>;
}

/** Spec §1.8: blocks follow every 500 ms under load. */
const MIN_BLOCK_INTERVAL_MS = 500;
const INCLUSION_TIMEOUT_MS = 30_000;

/** A host for a URL an operator can open: a wildcard bind is reached on loopback; IPv6 in brackets. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/** Build every module with (options, dependencies) and wire them (DESIGN.md: node.ts). */
export async function startNode(options: NodeOptions): Promise<RunningNode> {
  const logger = createLogger({ verbose: options.verbose, format: options.logFormat ?? 'auto' });
  const startedAtMs = Date.now();
  // The metrics port before anything opens: a port in use stops the start with nothing to undo
  // (issue 24 "Bad input"); it answers 503 until the node is up.
  const metricsServer = options.metrics
    ? await serveMetrics(options.metrics).catch((error: Error) => {
      throw new StartError(error.message);
    })
    : undefined;
  await initHashing();
  // The governance flags are checked before anything is opened (a bad value names its flag).
  const governance = governanceFromFlags(options.governance ?? {});
  await mkdir(options.dataDir, { recursive: true });
  const validator = await loadValidatorKey(options.validatorKeyPath, options.dataDir);
  if (validator.generated) logger.info('generated a validator key', { path: validator.path });

  // Every part of the data dir before the database opens (issue 46 item 1): block files without a
  // database, or a chain.json without either, refuse the start with nothing changed.
  const dirCheck = (() => {
    try {
      return checkDataDir(options.dataDir, { forceNewChain: options.forceNewChain ?? false, restoring: options.snapshotUrl !== undefined });
    } catch (error) {
      void metricsServer?.close();
      throw error;
    }
  })();
  if (dirCheck.forgotten) {
    const aside = setMarkerAside(options.dataDir);
    logger.warn('--force-new-chain: starting a new chain where one was; its chain.json is kept aside', { genesis: dirCheck.forgotten.genesis, network: dirCheck.forgotten.network, keptAs: aside });
  }
  // spec §4.20 --snapshot-url, on a first start only (docs/operations.md "Snapshots").
  if (options.snapshotUrl !== undefined) {
    const held = await readdir(join(options.dataDir, 'db')).catch(() => [] as string[]);
    if (held.length > 0) logger.info('the data directory holds a chain: --snapshot-url is for a first start and is not used', { url: options.snapshotUrl });
    else {
      logger.info('restoring a snapshot', { url: options.snapshotUrl });
      try {
        // The peer check's handshake is on this node's own genesis (its flags), as sync's will be.
        const { header: genesis } = await genesisFromFlags({
          network: options.network, validators: options.genesisValidators ?? [validator.publicKey], gasPrice: options.gasPrice,
          ...(options.chainParams ? { chainParams: options.chainParams } : {}), governance,
        });
        const restored = await restoreSnapshot(options.snapshotUrl, options.dataDir, {
          chainId: CHAIN_IDS[options.network], logger, ...(options.onSnapshotProgress ? { onProgress: options.onSnapshotProgress } : {}),
          peers: { bootnodes: options.bootnodes ?? [], genesisHash: genesis.hash, chainId: CHAIN_IDS[options.network], host: options.p2pHost ?? '0.0.0.0' },
        });
        logger.info('snapshot restored', { url: restored.url, height: restored.manifest.height, stateRoot: restored.manifest.stateRoot, records: restored.records, ms: restored.ms });
      } catch (error) {
        await metricsServer?.close();
        throw error;
      }
    }
  }
  const store = new ChainStore(join(options.dataDir, 'db'), {
    onLookupProgress: (height, head) => logger.info('transaction lookup index', { indexed_to: height, head }),
    onLookupFailure: (error) => logger.error('building the transaction lookup index stopped; a restart resumes it', { error }),
    onHistoryIndexFailure: (error) => logger.error('building the state history index stopped; reads at past blocks above it use the change sets, a restart resumes it', { error }),
    onMigrationProgress: (height, head) => logger.info('moving stored blocks into the block files (storage format 3 → 4)', { moved_to: height, head }),
    onTreeRebuilt: (report) => logger.info('state tree rebuilt from the state records (it trailed the head after an unclean stop)', report),
  }, {
    // --elastic-state reads state records from the database while it runs: the tree must be stored at the head
    ...(options.elasticState ? { treeEvery: 1 } : {}),
    // A corruption or I/O error met while running ends the node, the file named (issue 46 item 5).
    onFault: (error) => {
      const message = describeStorageFault(error, join(options.dataDir, 'db'));
      logger.error('storage fault; stopping', { error: message });
      process.stderr.write(`${message}\n`);
      process.exit(1);
    },
  });
  try {
    await store.open();
  } catch (error) {
    await metricsServer?.close();
    // A fault of the disk or database, worded with its file; any other refusal of the open (the
    // block files ahead of the database, an old storage format) as it was said (issue 46 items 1, 5).
    if (isStorageFault(error)) throw new StorageError(describeStorageFault(error, store.path));
    throw new DataDirError((error as Error).message.replace(/^the block writer thread failed: /, ''));
  }
  if (options.verifyOnStart) {
    logger.info('verifying stored records (--verify-on-start)');
    const report = await integritySweep(store);
    if (report.anomalyCount > 0) {
      await store.close();
      await metricsServer?.close();
      throw new IntegrityError(`--verify-on-start: ${describeAnomalies(report)}\nthe database at ${store.path} is damaged: restore it from a snapshot or an export, or sync into a new data directory`);
    }
    logger.info('stored records verified', { records: report.records, stateRecords: report.stateRecords, height: report.head, ms: report.ms });
    // and every held block against the hashes stored for it (issue 46 item 9, src/operator/block-check.ts)
    if (report.head !== undefined) {
      const blocks = await verifyBlockFiles(store, report.head);
      if (blocks.anomalyCount > 0) {
        await store.close();
        await metricsServer?.close();
        const lines = blocks.anomalies.map((a) => `  ${a.key}: ${a.reason}`).join('\n');
        throw new IntegrityError(`--verify-on-start: ${blocks.anomalyCount} stored block${blocks.anomalyCount === 1 ? '' : 's'} of ${blocks.blocks} ${blocks.anomalyCount === 1 ? 'disagrees' : 'disagree'} with ${blocks.anomalyCount === 1 ? 'its' : 'their'} stored hashes (first ${blocks.anomalies.length}):\n${lines}\n`
          + `the block files at ${join(options.dataDir, 'blocks')} are damaged: restore the data directory from a backup or a snapshot, or sync into a new data directory`);
      }
      logger.info('stored blocks verified', { blocks: blocks.blocks, ms: blocks.ms });
    }
  }
  // spec §4.20 --elastic-state: a bounded hot cache over the database (docs/operations.md "Elastic state").
  const state = options.elasticState ? new ElasticState(store, options.elasticState) : new StateView();
  // The domain readers over committed state, built once (they index state as it loads and as each
  // block lands) and shared by the chain, the RPC methods, the eth adapter and the intent engine.
  const readers = buildDomainReaders(state);
  // Whether the node catches up with the network: block sync sets it, the chain and the RPC read it.
  const sync = new SyncState();
  // The core reads committed state, and with --elastic-state the writes of blocks still in flight
  // first (StateView.coreSource): a core replaced between blocks need not wait for the writer.
  // Compiled once: every instance (--elastic-state replaces it every few blocks) shares the
  // module's machine code, optimized ones included, instead of reading, compiling and warming
  // the core again (docs/operations.md "Memory bound").
  const coreModule = await compileCore();
  const createCore = () => Core.fromModule(coreModule, state.coreSource());
  // One verifier thread per core: the main thread spends much of its time waiting on I/O, so a
  // worker on every core keeps signature checks from being the limit (bench: signed transfers/s).
  // They run at a lower priority than the main and writer threads, so a block's execution, its
  // write and its receipts get a core first and verification takes the rest (docs/performance.md).
  const verifier = new SignatureVerifierPool({ size: availableParallelism(), nice: options.verifierNice ?? VERIFIER_NICE });
  const chain = await Chain.open(
    {
      network: options.network,
      gasPrice: options.gasPrice,
      blockTimeMs: options.blockTimeMs,
      minBlockIntervalMs: Math.min(MIN_BLOCK_INTERVAL_MS, options.blockTimeMs),
      maxTxsPerBlock: options.maxTxsPerBlock,
      mempoolCapacity: options.mempool?.maxBundles ?? DEFAULT_MEMPOOL_LIMITS.maxBundles,
      mempoolLimits: options.mempool,
      inclusionTimeoutMs: INCLUSION_TIMEOUT_MS,
      genesisValidators: options.genesisValidators,
      chainParams: options.chainParams,
      onlyAsValidator: true,
      upgrades: { governance, implementsPlan: implementsUpgrade, version: NODE_VERSION },
    },
    {
      core: await createCore(), createCore, store, state, validator, verifier, logger, sync,
      tokens: readers.tokens, evmTokens: readers.evmTokens, keys: readers.keys,
    },
  );

  // chain.json: which chain this data dir holds, once its genesis is stored (issue 46 item 1).
  try {
    const genesisBytes = await store.getBlock(0);
    recordChain(options.dataDir, {
      network: options.network, chainId: chain.chainId,
      genesis: genesisBytes ? Buffer.from(decodeStoredBlock(genesisBytes).header.hash).toString('hex') : 'not held (restored above genesis)',
    });
  } catch (error) {
    await verifier.close();
    await store.close();
    await metricsServer?.close();
    throw error;
  }
  // Upgrade governance (docs/upgrades.md): flags that contradict the chain's recorded governance
  // refuse the start (a node must not believe in another approval rule than its peers), and a head
  // right below an approved plan this binary does not implement stops here, before any block.
  const conflicts = governanceConflicts(readGovernance(state), options.governance ?? {});
  const halt = conflicts.length === 0 ? chain.upgradeHalt(chain.height + 1) : undefined;
  if (halt && options.waitAtUpgrade) {
    logger.warn('upgrade required: this release will not execute past the upgrade height; waiting (--wait-at-upgrade)', {
      plan: halt.plan.name, height: halt.plan.height, head: chain.height, version: NODE_VERSION, reason: halt.message,
    });
  } else if (conflicts.length > 0 || halt) {
    await verifier.close();
    await store.close();
    if (conflicts.length > 0) {
      throw new Error(`the governance flags contradict this chain's genesis: ${conflicts.join('; ')}. Governance is fixed when a chain starts (docs/upgrades.md); drop the flags or give the recorded values`);
    }
    const path = await writeUpgradeInfo(options.dataDir, halt!.plan);
    logger.error('upgrade required: refusing to go past the upgrade height', { plan: halt!.plan.name, height: halt!.plan.height, head: chain.height, version: NODE_VERSION, upgradeInfo: path, reason: halt!.message });
    throw halt!;
  }
  let onHalt!: (error: UpgradeRequiredError) => void;
  const upgradeHalted = new Promise<UpgradeRequiredError>((resolve) => { onHalt = resolve; });
  chain.once('upgradeHalt', (error) => {
    if (options.waitAtUpgrade) {
      logger.warn('upgrade required: not executing past the upgrade height; waiting (--wait-at-upgrade)', { plan: error.plan.name, height: error.plan.height, head: chain.height });
      return;
    }
    void writeUpgradeInfo(options.dataDir, error.plan).then((path) => {
      logger.error('upgrade required: stopping before the upgrade height', { plan: error.plan.name, height: error.plan.height, head: chain.height, version: NODE_VERSION, upgradeInfo: path, reason: error.message });
      onHalt(error);
    });
  });

  // Explorer indexes (spec §4.11, §4.20): rebuilt on request, and by themselves when they are
  // missing or of another version (a node restored from a snapshot or an export has none: issue 41
  // item 7), from the blocks this node holds, before anything can read them (docs/explorer.md
  // "Where history starts").
  const indexMissing = chain.height > 0 && (await store.indexVersion()) !== INDEX_VERSION;
  if (options.backfillIndexes || indexMissing) {
    const started = Date.now();
    if (!options.backfillIndexes) {
      logger.info('explorer indexes are missing or of another version: rebuilding them from the blocks this node holds', { height: chain.height, from: Math.max(1, chain.oldestBlock) });
    }
    const done = await backfillIndexes(store, options.onBackfillProgress);
    logger.info('explorer indexes rebuilt', { ...done, historyFrom: chain.oldestBlock, ms: Date.now() - started });
  }

  const registry = new MethodRegistry({ info: { title: 'ntv-node JSON-RPC', version: NODE_VERSION } });
  // spec §4.20 --metrics (src/operator/metrics.ts): the gauges read these on each scrape.
  let metrics: NodeMetrics | undefined;
  if (options.metrics) {
    metrics = new NodeMetrics({
      chain, peers: () => p2p.view.connectedPeers().length, lookupHeight: () => store.lookupHeight, writeStats: () => store.writeStats,
    });
    const observer = metrics;
    registry.callObserver = (method, seconds, ok) => observer.observeCall(method, seconds, ok);
    chain.on('block', (produced: ProducedBlock) => observer.observeBlock(produced));
  }
  // Spec §6 subscriptions: fed by the chain's 'block' event, paused while chain.syncing.
  // Its caps are the --rpc-max-subscriptions* and --rpc-max-filters* flags (docs/rpc.md "Subscriptions and filters").
  const budgets = options.rpcBudgets ?? {};
  const subscriptions = new SubscriptionHub(chain, {
    ...(budgets.maxSubscriptions !== undefined ? { maxTotal: budgets.maxSubscriptions } : {}),
    ...(budgets.maxSubscriptionsPerIp !== undefined ? { maxPerIp: budgets.maxSubscriptionsPerIp } : {}),
    perIpApplies: perIpLimitsApply(budgets.limitLoopback ?? false),
    ...(budgets.fanoutShare !== undefined ? { fanoutShare: budgets.fanoutShare } : {}),
    filters: {
      ...(budgets.maxFilters !== undefined ? { maxTotal: budgets.maxFilters } : {}),
      ...(budgets.maxFiltersPerIp !== undefined ? { maxPerIp: budgets.maxFiltersPerIp } : {}),
    },
  }, logger);
  // Issue 5: libp2p QUIC transport, block sync and bundle forwarding (src/p2p, docs/p2p.md).
  const p2p = await createNodeP2P({
    dataDir: options.dataDir, port: options.p2pPort ?? 9944, host: options.p2pHost ?? '0.0.0.0', bootnodes: options.bootnodes ?? [],
    ...(options.externalAddr ? { externalAddr: options.externalAddr } : {}), enforceValidatorAllowlist: options.enforceValidatorAllowlist ?? false,
    onSyncProgress: (done, total) => {
      metrics?.observeSync(done, total);
      options.onSyncProgress?.(done, total);
    },
    leaderOf: (height) => consensus.leaderKey(height),
  }, { chain, store, validator, logger, sync });
  // Issue 5 consensus (src/consensus, docs/consensus.md): leader schedule, failover rounds, votes,
  // finality certificates; a validator holding > 2/3 of the stake keeps the solo fast path.
  const consensus: ConsensusService = await ConsensusService.create({
    blockTimeMs: options.blockTimeMs, minBlockIntervalMs: Math.min(MIN_BLOCK_INTERVAL_MS, options.blockTimeMs),
    failoverBaseMs: options.failoverBaseMs ?? 5000, failoverStepMs: options.failoverStepMs ?? 3000,
  }, { chain, store, validator, logger, transport: consensusTransport(p2p.network) });
  // Issue 4: the intent engine (src/intents, docs/intents.md): planner, simulation, the node-held
  // Recurring/Conditional intents and the intent programs, persisted in this store.
  const intents = await IntentService.open({ chain, store, validator, logger, readers, parse: (text) => parseIntent(text, { tokens: readers.tokens }) });
  registerMethods(registry, { chain, readers, validator, network: options.network, faucet: new FaucetLedger(store), subscriptions, p2p: p2p.view, intents, consensus });
  // The explorer page (issue 6) on GET / of the RPC port, when build/explorer/ was built.
  const explorer = explorerMiddleware(defaultExplorerDir(), logger);
  // GET /health for load balancers (docs/rpc.md "Health"), then the page.
  const health = healthMiddleware(() => ({
    height: chain.height, headTimestamp: chain.headHeader.timestamp, syncing: chain.syncing,
    peers: p2p.view.connectedPeers().length, expectsPeers: (options.bootnodes ?? []).length > 0, startedAtMs, version: NODE_VERSION,
  }), staleAfterMs(options.blockTimeMs));
  const httpMiddleware: Koa.Middleware = explorer ? (ctx, next) => health(ctx, () => explorer(ctx, next)) : health;
  const rpc = new RpcServer(
    {
      host: options.rpcHost, port: options.rpcPort, rateLimit: options.rpcRateLimit,
      ...(options.rpcKeepAliveTimeoutMs !== undefined ? { keepAliveTimeoutMs: options.rpcKeepAliveTimeoutMs } : {}),
      ...(options.rpcHeadersTimeoutMs !== undefined ? { headersTimeoutMs: options.rpcHeadersTimeoutMs } : {}),
      ...(options.rpcRequestTimeoutMs !== undefined ? { requestTimeoutMs: options.rpcRequestTimeoutMs } : {}),
      ...(options.rpcMaxConnectionsPerIp !== undefined ? { maxConnectionsPerIp: options.rpcMaxConnectionsPerIp } : {}),
      ...(options.rpcCorsOrigins !== undefined ? { corsOrigins: options.rpcCorsOrigins } : {}),
      ...(options.wsOrigins !== undefined ? { wsOrigins: options.wsOrigins } : {}),
      ...(options.rpcVhosts !== undefined ? { vhosts: options.rpcVhosts } : {}),
      ...rpcBudgetOptions(options.rpcBudgets),
      httpMiddleware,
    },
    { registry, logger },
  );
  // The stop routine first: a start that fails past this point (a port in use) runs it to close
  // what was opened, so the process exits instead of running half-started.
  // spec §4.20 --pruning (src/chain/pruning.ts): every `every` blocks, beside the pipeline; and the
  // background integrity sweep. Both before the listening steps, so the stop routine closes them.
  const pruner = options.pruning ? new Pruner(options.pruning, { store, logger, onPruned: (oldest) => chain.noteOldest(oldest), onStatePruned: (oldest) => chain.noteOldestState(oldest) }) : undefined;
  const sweeper = options.verifyIntervalSeconds ? startBackgroundSweep(store, options.verifyIntervalSeconds, logger) : undefined;
  let stopping: Promise<void> | undefined;
  let snapshots: SnapshotService | undefined;
  const stop = () => {
    stopping ??= (async () => {
      await rpc.stop();
      await metricsServer?.close();
      subscriptions.close();
      intents.close();
      await consensus.stop();
      await p2p.stop();
      await chain.stop();
      await sweeper?.stop();
      await pruner?.stop();
      await snapshots?.stop();
      await verifier.close();
      await store.close();
      logger.info('node stopped', { height: chain.height });
    })();
    return stopping;
  };
  if (metrics) metricsServer?.serve(metrics.registry);
  let rpcPort: number;
  let snapshotPort: number | undefined;
  try {
    rpcPort = await rpc.start().catch((error: NodeJS.ErrnoException) => {
      throw listenFailure('--rpc-port', options.rpcHost, options.rpcPort, error);
    });
    // spec §4.20 --serve-snapshots (src/operator/snapshots.ts): on the RPC's address, its port + 10.
    if (options.serveSnapshots) {
      snapshots = new SnapshotService({ dataDir: options.dataDir, ...options.serveSnapshots, host: options.rpcHost, port: rpcPort + 10 }, { store, logger });
      snapshotPort = await snapshots.start().catch((error: Error) => {
        throw new StartError(error.message);
      });
      const served = snapshots;
      chain.on('block', (produced: ProducedBlock) => served.onBlock(produced.block.header.height));
    }
    consensus.start();
    chain.start(consensus);
    await p2p.start().catch(rethrowListenError);
  } catch (error) {
    logger.error('start failed: closing what was opened', { reason: (error as Error).message });
    await stop();
    throw error;
  }
  // One line per block at info level (issue 26 item 5): what an operator watches. Not while
  // catching up, where sync progress lines stand for the thousands of imported blocks.
  chain.on('block', (produced: ProducedBlock) => {
    if (chain.syncing) return;
    const h = produced.block.header;
    logger.info('block', {
      height: h.height, bundles: h.bundleCount, failed: produced.result.failedCount(), gas: h.gasUsed, blockTime: new Date(h.timestamp * 1000).toISOString().replace('.000Z', 'Z'),
      hash: encodeHash(h.hash),
    });
  });
  if (options.autoVoteSeed) {
    const voter = new UpgradeAutoVoter(options.autoVoteSeed, {
      state, logger, pendingNonce: (a) => chain.pendingNonce(a), enqueueBundle: (b) => chain.enqueueBundle(b),
    });
    logger.info('upgrade: voting automatically for pending plans', { voter: encodeAccount(voter.account) });
    chain.on('block', () => voter.onBlock());
  }
  const rpcUrl = `http://${urlHost(options.rpcHost)}:${rpcPort}`;
  logger.info('node started', {
    version: NODE_VERSION, network: options.network, chainId: chain.chainId, height: chain.height, rpc: rpcUrl,
    ...(explorer ? { explorer: `${rpcUrl}/` } : {}),
    ...(snapshotPort !== undefined ? { snapshots: `http://${urlHost(options.rpcHost)}:${snapshotPort}/snapshots` } : {}),
    ...(metricsServer && options.metrics ? { metrics: `http://${urlHost(options.metrics.host)}:${metricsServer.port}/metrics` } : {}),
    validator: encodeAccount(validator.address), validatorPublicKey: Buffer.from(validator.publicKey).toString('hex'),
    ed25519: ed25519Verifier(),
  });
  // The same verdicts either way (docs/addresses-and-keys.md "Two libraries, one verdict"), at about half the signed rate.
  if (ed25519Verifier() === 'node:crypto') logger.warn('ed25519: the sodium-native addon did not load; verifying with node:crypto alone');

  if (pruner) chain.on('block', (produced: ProducedBlock) => pruner.onBlock(produced.block.header.height));
  return { logger, chain, rpcPort, ...(metricsServer ? { metricsPort: metricsServer.port } : {}), stop, intents, upgradeHalted };
}

/** A running `--light` node (docs/operations.md "Light node"). */
export interface RunningLightNode {
  logger: Logger;
  light: LightNode;
  rpcPort: number;
  stop(): Promise<void>;
}

/**
 * `--light` (spec §4.20, issue 24): headers and finality certificates from peers, verified against
 * the validator set proven from state roots (src/light/), and the light RPC (src/rpc/light.ts).
 * No state, no mempool, no production, no consensus.
 */
export async function startLightNode(options: NodeOptions): Promise<RunningLightNode> {
  const logger = createLogger({ verbose: options.verbose, format: options.logFormat ?? 'auto' });
  const startedAtMs = Date.now();
  await initHashing();
  if (!options.genesisValidators || options.genesisValidators.length === 0) {
    throw new Error('--light needs --genesis-validators: a light node computes block 0 and its validator set from the network\'s genesis flags');
  }
  await mkdir(options.dataDir, { recursive: true });
  const light = await LightNode.open({
    dataDir: options.dataDir, network: options.network, genesisValidators: options.genesisValidators,
    ...(options.checkpoint ? { checkpoint: options.checkpoint } : {}),
    ...(options.chainParams ? { chainParams: options.chainParams } : {}),
    governance: governanceFromFlags(options.governance ?? {}), gasPrice: options.gasPrice,
    p2pPort: options.p2pPort ?? 9944, p2pHost: options.p2pHost ?? '0.0.0.0', bootnodes: options.bootnodes ?? [],
    ...(options.externalAddr ? { externalAddr: options.externalAddr } : {}),
  }, logger);
  const health = healthMiddleware(() => ({
    height: light.head.height, headTimestamp: light.head.timestamp, syncing: lightSyncing(light),
    peers: light.peers, expectsPeers: (options.bootnodes ?? []).length > 0, startedAtMs, version: NODE_VERSION,
  }), staleAfterMs(options.blockTimeMs));
  const rpc = new RpcServer(
    {
      host: options.rpcHost, port: options.rpcPort, rateLimit: options.rpcRateLimit,
      ...(options.rpcCorsOrigins !== undefined ? { corsOrigins: options.rpcCorsOrigins } : {}),
      ...(options.wsOrigins !== undefined ? { wsOrigins: options.wsOrigins } : {}),
      ...(options.rpcVhosts !== undefined ? { vhosts: options.rpcVhosts } : {}),
      ...rpcBudgetOptions(options.rpcBudgets),
      httpMiddleware: health,
    },
    { registry: lightRegistry(light), logger },
  );
  let rpcPort: number;
  try {
    rpcPort = await rpc.start().catch((error: NodeJS.ErrnoException) => {
      throw listenFailure('--rpc-port', options.rpcHost, options.rpcPort, error);
    });
    await light.start().catch(rethrowListenError);
  } catch (error) {
    await rpc.stop().catch(() => undefined);
    await light.stop();
    throw error;
  }
  logger.info('light node started', {
    version: NODE_VERSION, network: options.network, chainId: light.chainId, height: light.head.height,
    rpc: `http://${urlHost(options.rpcHost)}:${rpcPort}`, peerId: light.peerId,
  });
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      await rpc.stop();
      await light.stop();
      logger.info('node stopped', { height: light.head.height, light: true });
    })();
    return stopping;
  };
  return { logger, light, rpcPort, stop };
}

/** A P2P start's failure, rethrown: the QUIC port taken as the operator's message, anything else as it came. */
function rethrowListenError(error: unknown): never {
  throw error instanceof ListenError ? listenFailure('--p2p-port', error.host, error.port, error, 'UDP') : error;
}

/** A listen error as the operator's message: which flag, which address, and what to do. */
function listenFailure(flag: string, host: string, port: number, error: NodeJS.ErrnoException, protocol?: 'UDP'): StartError {
  const where = `${protocol ? `${protocol} ` : ''}${host}:${port}`;
  if (error.code === 'EADDRINUSE') return new StartError(`${flag} ${port}: ${where} is already in use (another node on this machine?); pick another port with ${flag}, or 0 for a free one`);
  if (error.code === 'EACCES') return new StartError(`${flag} ${port}: not allowed to listen on ${where} (a port below 1024 needs privileges)`);
  return new StartError(`${flag} ${port}: cannot listen on ${where}: ${error.message}`);
}
