import { AccountKeys } from './account-keys.js';
import { AnchorReader } from '../domains/anchors/reader.js';
import { BridgeReader } from '../domains/bridge/reader.js';
import { CollectionReader } from '../domains/collections/reader.js';
import { EvmTokenIndex } from './evm/tokens.js';
import type { DomainReaders } from './interface.js';
import { DexReader } from '../domains/dex/reader.js';
import { PresaleReader } from '../domains/presales/reader.js';
import { StakingPoolReader } from '../domains/staking-pools/reader.js';
import type { StateView } from './state-view.js';
import { TokenRegistry } from './token-registry.js';

/**
 * The domain readers over committed state, each made once (node.ts calls this once per node): they
 * index state as it loads and as each block lands, and are shared by the chain, the RPC methods,
 * the eth adapter and the intent engine, so all read the same indexes.
 */
export function buildDomainReaders(state: StateView): DomainReaders {
  const tokens = new TokenRegistry(state);
  const collections = new CollectionReader(state);
  return {
    tokens, collections, keys: new AccountKeys(state), dex: new DexReader(state, tokens),
    presales: new PresaleReader(state), stakingPools: new StakingPoolReader(state),
    evmTokens: new EvmTokenIndex(tokens, (address20) => collections.collectionByEvm(address20)),
    anchors: new AnchorReader(state),
    bridge: new BridgeReader(state),
  };
}
