import { bytesEqual } from '../codec/hash.js';
import type { StateReader } from './state-reader.js';
import { readValidatorSet } from './validator-set.js';

/**
 * Whether this node may make the next block (ChainDependencies.mayProduce, docs/p2p.md): a node
 * whose key is not an active, unjailed member of the validator set makes no blocks; it follows by
 * sync. Before the staking records exist (an empty set) the node is the single validator it always
 * was. The set is decoded once per committed height.
 */
export function validatorGate(state: StateReader, consensusKey: Uint8Array, height: () => number): () => boolean {
  let at = -1;
  let set: ReturnType<typeof readValidatorSet> = [];
  return () => {
    if (height() !== at) {
      at = height();
      set = readValidatorSet(state);
    }
    return set.length === 0 || set.some((v) => v.active && !v.jailed && bytesEqual(v.consensusKey, consensusKey));
  };
}
