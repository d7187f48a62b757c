import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Chain } from '../src/chain/chain.js';
import { StateView } from '../src/chain/state-view.js';
import { SyncState } from '../src/chain/interface.js';
import { buildDomainReaders } from '../src/chain/readers.js';
import type { ValidatorIdentity } from '../src/chain/producer.js';
import { deriveAccount } from '../src/codec/address.js';
import { initHashing } from '../src/codec/hash.js';
import { generateEd25519 } from '../src/codec/keys.js';
import { SignatureVerifierPool } from '../src/codec/verify-pool.js';
import { Core } from '../src/core/core.js';
import type { Logger } from '../src/logger.js';
import { ChainStore } from '../src/storage/chain-store.js';
import type { ChainParams } from '../src/chain/chain-params.js';

/**
 * A chain as src/node.ts builds it, without RPC or p2p, in a temp dir: the sync benchmark's source
 * and follower (bench/sync.ts, bench/sync-follower.ts) and the sync tests' chains.
 */

export const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };

export interface LocalChain {
  chain: Chain;
  store: ChainStore;
  state: StateView;
  /** set by block sync while catching up (src/chain/interface.ts SyncState) */
  sync: SyncState;
  dataDir: string;
  validator: ValidatorIdentity;
  close(): Promise<void>;
  /** close, leaving the data dir for a node to run on */
  closeKeep(): Promise<void>;
}

/**
 * A chain as src/node.ts builds it, without RPC or p2p, in a fresh temp dir. Without
 * `genesisValidators` the validator alone is the genesis set (src/chain/chain.ts).
 */
export async function openLocalChain(options: { validator?: ValidatorIdentity; genesisValidators?: Uint8Array[]; maxTxsPerBlock?: number; logger?: Logger; chainParams?: ChainParams; stateHistory?: boolean; dataDir?: string }): Promise<LocalChain> {
  await initHashing();
  // an existing data dir (one `closeKeep` left): the chain opens on what it holds
  const dataDir = options.dataDir ?? await mkdtemp(join(tmpdir(), 'ntv-sync-'));
  const store = new ChainStore(join(dataDir, 'db'));
  await store.open();
  const state = new StateView();
  const createCore = () => Core.create(state);
  const sync = new SyncState();
  const verifier = new SignatureVerifierPool({ size: 1 });
  const validator = options.validator ?? identity();
  const chain = await Chain.open({
    network: 'testnet', gasPrice: 10n, blockTimeMs: 60_000, minBlockIntervalMs: 1, maxTxsPerBlock: options.maxTxsPerBlock ?? 1000,
    mempoolCapacity: 1_000_000, inclusionTimeoutMs: 600_000, genesisValidators: options.genesisValidators,
    ...(options.chainParams ? { chainParams: options.chainParams } : {}),
    ...(options.stateHistory === undefined ? {} : { stateHistory: options.stateHistory }),
  }, {
    core: await createCore(), createCore, store, state, validator, verifier, logger: options.logger ?? quiet, sync,
    ...buildDomainReaders(state),
  });
  const closeKeep = async () => {
    await chain.stop();
    await verifier.close();
    await store.close();
  };
  return {
    chain, store, state, dataDir, validator, sync, closeKeep,
    async close() {
      await closeKeep();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export function identity(): ValidatorIdentity {
  const { seed, publicKey } = generateEd25519();
  return { seed, publicKey, address: deriveAccount(publicKey) };
}

/** Fill a chain with `blocks` blocks of `perBlock` unsigned testnet transfers from the system accounts. */
export async function produceTransferBlocks(local: LocalChain, blocks: number, perBlock: number): Promise<void> {
  const { chain } = local;
  const recipients = Array.from({ length: 64 }, () => deriveAccount(generateEd25519().publicKey));
  const senders = [1, 2, 3, 4].map((i) => { const a = new Uint8Array(32); a[31] = i; return a; });
  const target = chain.height + blocks;
  chain.start();
  // Keep about two blocks' worth waiting: enough to fill every block, short per-account queues.
  const pending: Array<Promise<unknown>> = [];
  for (let i = 0; i < blocks * perBlock; i++) {
    const { included } = chain.enqueueOperations(senders[i % senders.length]!, [
      { type: 'Transfer', to: recipients[i % recipients.length]!, token: new Uint8Array(32), amount: 1n },
    ]);
    pending.push(included);
    if (pending.length >= 2 * perBlock) await Promise.all(pending.splice(0, perBlock));
  }
  await Promise.all(pending);
  while (chain.height < target) await new Promise((r) => setTimeout(r, 20));
  await chain.stop();
}

