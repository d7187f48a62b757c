import { join } from 'node:path';
import type { BlockHeader } from '../chain/block.js';
import { chainParams, type ChainParams } from '../chain/chain-params.js';
import { genesisFromFlags } from '../chain/genesis-block.js';
import { CHAIN_IDS, type Network } from '../chain/genesis-data.js';
import type { UpgradeGovernance } from '../domains/upgrades/reader.js';
import { readValidatorSet } from '../chain/validator-set.js';
import { bytesEqual, toHex } from '../codec/hash.js';
import type { Logger } from '../logger.js';
import { P2PNetwork } from '../p2p/network.js';
import { LightFollower, type TrustedSet } from './follower.js';
import { HeaderTrust, type Checkpoint } from './header-trust.js';
import { LightStore } from './store.js';
import { verifyValidatorSetProof } from '../chain/validator-set-proof.js';

export interface LightNodeOptions {
  dataDir: string;
  network: Network;
  /** --genesis-validators: required, a light node has no key of its own to stand in for them */
  genesisValidators: Uint8Array[];
  chainParams?: ChainParams;
  governance?: UpgradeGovernance;
  /** --gas-price: the genesis header's base fee (it must be the network's) */
  gasPrice: bigint;
  p2pPort: number;
  p2pHost: string;
  bootnodes: string[];
  externalAddr?: string;
  /** --checkpoint height:hash: start from this epoch boundary rather than genesis (docs/light-client.md) */
  checkpoint?: Checkpoint;
  /** ms between asking peers their head (default 500: a light node follows the head closely) */
  statusIntervalMs?: number;
}

/** What the light RPC (src/rpc/light.ts) reads. */
export interface LightNodeView {
  readonly chainId: number;
  readonly network: Network;
  readonly head: BlockHeader;
  readonly genesis: BlockHeader;
  readonly validatorSet: TrustedSet;
  readonly peerId: string;
  readonly peers: number;
  readonly highestPeerHeight: number | undefined;
  readonly headersImported: number;
  readonly refused: number;
  header(height: number): Promise<{ header: BlockHeader; certificate: Uint8Array } | undefined>;
  multiaddrs(): string[];
}

/**
 * A `--light` node (spec §4.20; docs/operations.md "Light node"): block 0 and its validator set
 * computed from the node's own genesis flags, then headers and certificates from peers checked by
 * LightFollower, kept in a LightStore. No state, no core beyond genesis, no block production.
 */
export class LightNode implements LightNodeView {
  private constructor(
    readonly network: Network,
    readonly chainId: number,
    readonly genesis: BlockHeader,
    private readonly store: LightStore,
    private readonly p2p: P2PNetwork,
    private readonly follower: LightFollower,
  ) {}

  static async open(options: LightNodeOptions, logger: Logger): Promise<LightNode> {
    const chainId = CHAIN_IDS[options.network];
    const { header: genesis, state: genesisState } = await genesisFromFlags({
      network: options.network, validators: options.genesisValidators, gasPrice: options.gasPrice,
      ...(options.chainParams ? { chainParams: options.chainParams } : {}), ...(options.governance ? { governance: options.governance } : {}),
    });
    const reader = { get: (key: Uint8Array) => genesisState.get(toHex(key)) };
    let set: TrustedSet = { height: 0, validators: readValidatorSet(reader), epochLength: chainParams(reader).epochLength };

    const store = new LightStore(join(options.dataDir, 'light'));
    await store.open();
    let head = genesis;
    let setAt: BlockHeader = genesis;
    let setProof: Uint8Array | undefined;
    let checkpoint = options.checkpoint;
    try {
      const stored = await store.genesisHash();
      if (stored && !bytesEqual(stored, genesis.hash)) {
        throw new Error(`the light store at ${store.path} follows genesis ${toHex(stored)}, these genesis flags give ${toHex(genesis.hash)}: start with the flags it was made with, or a new data directory`);
      }
      if (!stored) await store.putHeaders([{ header: genesis, certificate: new Uint8Array(0) }], genesis.hash);
      const height = (await store.head()) ?? 0;
      head = (await store.header(height))?.header ?? genesis;
      // The stored set proof is checked again against its stored header: the store is trusted no
      // more than a peer, beyond the headers this node verified before writing them.
      const proof = await store.validatorSetProof();
      if (proof) {
        const at = await store.header(Number(new DataView(proof.buffer, proof.byteOffset, 8).getBigUint64(0, true)));
        if (at) {
          const proven = verifyValidatorSetProof(proof, at.header);
          set = { height: proven.height, validators: proven.validators, epochLength: proven.epochLength };
          setAt = at.header;
          setProof = proof;
        }
      }
      // A checkpoint the store has passed already must be a header it holds (the same chain); one
      // above its head is taken from a peer (LightFollower step 1).
      if (checkpoint && checkpoint.height <= head.height) {
        const held = await store.header(checkpoint.height);
        if (held && !bytesEqual(held.header.hash, checkpoint.hash)) {
          throw new Error(`--checkpoint ${checkpoint.height}:${toHex(checkpoint.hash)} is not the header this light store verified at that height (${toHex(held.header.hash)}): start with a new data directory to follow another chain`);
        }
        checkpoint = undefined;
      }
    } catch (error) {
      await store.close();
      throw error;
    }
    logger.info('light node opened', { network: options.network, chainId, height: head.height, validatorSetHeight: set.height, genesis: toHex(genesis.hash) });

    const p2p = await P2PNetwork.create({
      dataDir: options.dataDir,
      listenPort: options.p2pPort,
      host: options.p2pHost,
      bootnodes: options.bootnodes,
      ...(options.externalAddr ? { externalAddr: options.externalAddr } : {}),
      genesisHash: genesis.hash,
      chainId,
      enforceValidatorAllowlist: false,
      logger,
      // A light node serves no blocks: announcing its verified head would make full peers ask it
      // for blocks it does not hold (and penalize it for the empty answers), so it announces genesis.
      head: () => ({ height: 0, hash: genesis.hash }),
      statusIntervalMs: options.statusIntervalMs ?? 500,
    });
    // Gossip is not for a light node: it neither checks nor relays blocks, votes or bundles.
    for (const topic of ['bundles', 'blocks', 'votes'] as const) p2p.validate(topic, () => 'ignore');
    const follower = new LightFollower({ network: p2p, store, logger }, head, HeaderTrust.fromTrusted(setAt, set, setProof), checkpoint);
    p2p.on('status', () => follower.poke());
    return new LightNode(options.network, chainId, genesis, store, p2p, follower);
  }

  async start(): Promise<void> {
    await this.p2p.start();
    this.follower.start();
  }

  async stop(): Promise<void> {
    await this.follower.stop();
    await this.p2p.stop();
    await this.store.close();
  }

  get head(): BlockHeader {
    return this.follower.head;
  }

  get validatorSet(): TrustedSet {
    return this.follower.set;
  }

  get peerId(): string {
    return this.p2p.peerId;
  }

  get peers(): number {
    return this.p2p.connectedPeers().length;
  }

  get highestPeerHeight(): number | undefined {
    return this.follower.highestPeerHeight;
  }

  get headersImported(): number {
    return this.follower.headersImported;
  }

  get refused(): number {
    return this.follower.refused;
  }

  header(height: number): Promise<{ header: BlockHeader; certificate: Uint8Array } | undefined> {
    return height > this.head.height ? Promise.resolve(undefined) : this.store.header(height);
  }

  multiaddrs(): string[] {
    return this.p2p.multiaddrs();
  }
}
