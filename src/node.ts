import { mkdir } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Chain } from './chain/chain.js';
import { backfillIndexes, INDEX_VERSION } from './chain/indexer.js';
import { FaucetLedger } from './chain/faucet.js';
import type { Network } from './chain/genesis-data.js';
import { StateView } from './chain/state-view.js';
import { loadValidatorKey } from './chain/validator-key.js';
import { encodeAccount } from './codec/address.js';
import { initHashing } from './codec/hash.js';
import { SignatureVerifierPool } from './codec/verify-pool.js';
import { Core } from './core/core.js';
import { createLogger, type Logger } from './logger.js';
import { registerMethods } from './rpc/methods/index.js';
import { MethodRegistry } from './rpc/registry.js';
import { RpcServer } from './rpc/server.js';
import { defaultExplorerDir, explorerMiddleware } from './rpc/explorer-static.js';
import { SubscriptionHub } from './rpc/subscriptions.js';
import { ChainStore } from './storage/chain-store.js';
import { NODE_VERSION } from './version.js';

export interface NodeOptions {
  dataDir: string;
  network: Network;
  rpcHost: string;
  rpcPort: number;
  gasPrice: bigint;
  blockTimeMs: number;
  maxTxsPerBlock: number;
  rpcRateLimit: number;
  validatorKeyPath?: string;
  verbose: boolean;
  /** spec §4.20 --backfill-indexes: rebuild the explorer indexes before the RPC opens */
  backfillIndexes?: boolean;
  /** progress of the backfill (the CLI draws a bar on stderr) */
  onBackfillProgress?: (done: number, total: number) => void;
}

export interface RunningNode {
  logger: Logger;
  chain: Chain;
  rpcPort: number;
  stop(): Promise<void>;
}

/** Spec §1.8: blocks follow every 500 ms under load. */
const MIN_BLOCK_INTERVAL_MS = 500;
const MEMPOOL_CAPACITY = 200_000;
const INCLUSION_TIMEOUT_MS = 30_000;

/** Build every module with (options, dependencies) and wire them (DESIGN.md: node.ts). */
export async function startNode(options: NodeOptions): Promise<RunningNode> {
  const logger = createLogger({ verbose: options.verbose });
  await initHashing();
  await mkdir(options.dataDir, { recursive: true });
  const validator = await loadValidatorKey(options.validatorKeyPath, options.dataDir);
  if (validator.generated) logger.info('generated a validator key', { path: validator.path });

  const store = new ChainStore(join(options.dataDir, 'db'));
  await store.open();
  const state = new StateView();
  const createCore = () => Core.create(state);
  // One verifier thread per core: the main thread spends much of its time waiting on I/O, so a
  // worker on every core keeps signature checks from being the limit (bench: signed transfers/s).
  const verifier = new SignatureVerifierPool({ size: availableParallelism() });
  const chain = await Chain.open(
    {
      network: options.network,
      gasPrice: options.gasPrice,
      blockTimeMs: options.blockTimeMs,
      minBlockIntervalMs: Math.min(MIN_BLOCK_INTERVAL_MS, options.blockTimeMs),
      maxTxsPerBlock: options.maxTxsPerBlock,
      mempoolCapacity: MEMPOOL_CAPACITY,
      inclusionTimeoutMs: INCLUSION_TIMEOUT_MS,
    },
    { core: await createCore(), createCore, store, state, validator, verifier, logger },
  );

  // Explorer indexes (spec §4.11, §4.20): rebuilt on request, before anything can read them.
  if (options.backfillIndexes) {
    const started = Date.now();
    const done = await backfillIndexes(store, options.onBackfillProgress);
    logger.info('explorer indexes rebuilt', { ...done, ms: Date.now() - started });
  } else if (chain.height > 0 && (await store.indexVersion()) !== INDEX_VERSION) {
    logger.warn('explorer indexes are missing or of another version; restart with --backfill-indexes', { height: chain.height });
  }

  const registry = new MethodRegistry({ info: { title: 'ntv-node JSON-RPC', version: NODE_VERSION } });
  // Spec §6 subscriptions: fed by the chain's 'block' event, paused while chain.syncing.
  const subscriptions = new SubscriptionHub(chain, {}, logger);
  registerMethods(registry, { chain, validator, network: options.network, faucet: new FaucetLedger(store), subscriptions });
  // The explorer page (issue 6) on GET / of the RPC port, when build/explorer/ was built.
  const explorer = explorerMiddleware(defaultExplorerDir(), logger);
  const rpc = new RpcServer(
    { host: options.rpcHost, port: options.rpcPort, rateLimit: options.rpcRateLimit, ...(explorer ? { httpMiddleware: explorer } : {}) },
    { registry, logger },
  );
  const rpcPort = await rpc.start();
  chain.start();
  logger.info('node started', {
    version: NODE_VERSION, network: options.network, chainId: chain.chainId, rpc: `http://${options.rpcHost}:${rpcPort}`,
    validator: encodeAccount(validator.address), height: chain.height,
  });

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      await rpc.stop();
      subscriptions.close();
      await chain.stop();
      await verifier.close();
      await store.close();
      logger.info('node stopped', { height: chain.height });
    })();
    return stopping;
  };
  return { logger, chain, rpcPort, stop };
}
