import { Core, type GenesisConfig } from '../core/core.js';
import { toHex } from '../codec/hash.js';
import { headerHash, transactionsRoot, type BlockHeader } from './block.js';
import { DEFAULT_CHAIN_PARAMS, type ChainParams } from './chain-params.js';
import { CHAIN_IDS, type Network } from './genesis-data.js';
import { genesisConfig } from './genesis.js';
import type { UpgradeGovernance } from '../domains/upgrades/reader.js';

/**
 * Block 0 from a genesis configuration, through a core whose open block is empty: the header every
 * node of a network computes alike (nobody signs it), and the state writes. Chain.writeGenesis stores
 * them; a `--light` node (src/light/) computes the same header and its validator set from its own
 * genesis flags, with no database, and so trusts block 0 exactly as a full node does.
 */
export function genesisBlock(core: Core, config: GenesisConfig, chainId: number, gasPrice: bigint): { header: BlockHeader; writes: ReturnType<Core['commitBlock']>['writes'] } {
  core.genesis(config);
  const { stateRoot, writes } = core.commitBlock();
  const unsigned = {
    chainId, height: 0, parentHash: new Uint8Array(32), timestamp: Number(config.timestamp),
    proposer: new Uint8Array(32), proposerPubkey: new Uint8Array(32), stateRoot, transactionsRoot: transactionsRoot([]),
    gasUsed: 0, gasLimit: 0, baseFee: Number(gasPrice), bundleCount: 0, round: 0, missed: [],
  };
  return { header: { ...unsigned, hash: headerHash(unsigned), signature: new Uint8Array(0) }, writes };
}

/**
 * Block 0 and its state records from a node's genesis flags, in a fresh core with no storage (the
 * `--light` node, and the snapshot restore's peer handshake, need its hash before any database).
 */
export async function genesisFromFlags(options: {
  network: Network; validators: Uint8Array[]; chainParams?: ChainParams; governance?: UpgradeGovernance; gasPrice: bigint;
}): Promise<{ header: BlockHeader; state: Map<string, Uint8Array> }> {
  const config = genesisConfig(options.network, { validators: options.validators, params: options.chainParams ?? DEFAULT_CHAIN_PARAMS }, options.governance);
  const { header, writes } = genesisBlock(await Core.create({ get: () => undefined }), config, CHAIN_IDS[options.network], options.gasPrice);
  const state = new Map<string, Uint8Array>();
  for (const w of writes) if (w.value) state.set(toHex(w.key), w.value);
  return { header, state };
}
