import type { ChainNode, SyncState } from '../chain/interface.js';
import type { ValidatorIdentity } from '../chain/producer.js';
import { readValidatorSet } from '../chain/validator-set.js';
import { bytesEqual } from '../codec/hash.js';
import { encodeValidatorSetProof } from '../chain/validator-set-proof.js';
import type { Logger } from '../logger.js';
import type { ChainStore } from '../storage/chain-store.js';
import { Dragonfly } from './dragonfly.js';
import { P2PNetwork } from './network.js';
import { BlockSync } from './sync.js';
import type { P2PView } from './types.js';

export interface NodeP2POptions {
  dataDir: string;
  /** spec §4.20 --p2p-port */
  port: number;
  /** --p2p-host: 0.0.0.0 by default (spec §5.11: the P2P port must be open to all peers) */
  host: string;
  bootnodes: string[];
  externalAddr?: string;
  enforceValidatorAllowlist: boolean;
  /** progress of a catch-up (the CLI draws a cli-progress bar) */
  onSyncProgress?: (done: number, total: number) => void;
  /** the consensus key expected to propose a height, when the consensus layer provides it */
  leaderOf?: (height: number) => Uint8Array | undefined;
}

export interface NodeP2P {
  network: P2PNetwork;
  sync: BlockSync;
  dragonfly: Dragonfly;
  view: P2PView;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The node's p2p side, wired (src/node.ts calls this): the transport, blocks served from storage,
 * sync into the chain, bundle forwarding, and the view the RPC methods read.
 */
export async function createNodeP2P(options: NodeP2POptions, deps: { chain: ChainNode; store: ChainStore; validator: ValidatorIdentity; logger: Logger; sync: SyncState }): Promise<NodeP2P> {
  const { chain, store, validator, logger } = deps;
  const genesis = await chain.blockByHeight(0);
  if (!genesis) throw new Error('no genesis block in storage');
  const validators = validatorSetCache(chain);
  const network = await P2PNetwork.create({
    dataDir: options.dataDir,
    listenPort: options.port,
    host: options.host,
    bootnodes: options.bootnodes,
    ...(options.externalAddr ? { externalAddr: options.externalAddr } : {}),
    genesisHash: genesis.header.hash,
    chainId: chain.chainId,
    validatorKey: validator,
    enforceValidatorAllowlist: options.enforceValidatorAllowlist,
    logger,
    head: () => ({ height: chain.height, hash: chain.headHeader.hash }),
    isValidator: (key) => validators().some((v) => v.active && !v.jailed && bytesEqual(v.consensusKey, key)),
  });
  // `/ntv/blocks/1`: durable blocks only, each with its finality certificate when stored.
  const blockServer = async (from: number, count: number) => {
    const to = Math.min(chain.height, from + count - 1);
    if (from < 1 || to < from) return [];
    const heights = Array.from({ length: to - from + 1 }, (_, i) => from + i);
    const [blocks, certificates] = await Promise.all([store.getBlocks(heights), Promise.all(heights.map((h) => store.getCertificate(h)))]);
    const out: Array<{ block: Uint8Array; certificate: Uint8Array }> = [];
    for (const [i, block] of blocks.entries()) {
      if (!block) break;
      out.push({ block, certificate: certificates[i] ?? new Uint8Array(0) });
    }
    return out;
  };
  network.setBlockServer(blockServer);
  // `/ntv/headers/1`: the same, each block cut after its header (a --light node's sync, docs/p2p.md).
  network.setHeaderServer(async (from, count) => (await blockServer(from, count)).map(({ block, certificate }) => ({ block: headerOnly(block), certificate })));
  // `/ntv/validators/1`: the set at the durable head, proven against its state root (--light nodes).
  network.setValidatorSetServer(() => encodeValidatorSetProof(chain));
  // `/ntv/epochs/1`: the epoch records of checkpoint sync (src/chain/epoch-records.ts, --light --checkpoint).
  network.setEpochRecordServer(async (from, count) => (await chain.epochs.range(from, chain.height, count)).records.map((r) => r.bytes));
  const sync = new BlockSync({ ...(options.onSyncProgress ? { onProgress: options.onSyncProgress } : {}) }, { chain, network, logger, sync: deps.sync });
  const dragonfly = new Dragonfly({ chain, network, validatorKey: validator, logger, ...(options.leaderOf ? { leaderOf: options.leaderOf } : {}) });
  const view: P2PView = {
    get peerId() {
      return network.peerId;
    },
    multiaddrs: () => network.multiaddrs(),
    connectedPeers: () => network.connectedPeers(),
    bestPeerHeight: () => network.bestPeerHeight(),
    sync: () => sync.status(),
    dragonfly: () => dragonfly.snapshot(),
  };
  return {
    network, sync, dragonfly, view,
    async start() {
      await network.start();
      dragonfly.start();
      sync.start();
    },
    async stop() {
      await sync.stop();
      await network.stop();
    },
  };
}

/** The validator set of committed state, decoded once per head height. */
function validatorSetCache(chain: ChainNode): () => ReturnType<typeof readValidatorSet> {
  let height = -1;
  let set: ReturnType<typeof readValidatorSet> = [];
  return () => {
    if (chain.height !== height) {
      height = chain.height;
      set = readValidatorSet(chain.state);
    }
    return set;
  };
}

/** A stored block (src/chain/block.ts encodeBlock) with its bundle list emptied: the header part and a zero count. */
function headerOnly(block: Uint8Array): Uint8Array {
  const jsonEnd = 4 + new DataView(block.buffer, block.byteOffset, block.byteLength).getUint32(0, true);
  const out = new Uint8Array(jsonEnd + 4);
  out.set(block.subarray(0, jsonEnd));
  return out;
}
