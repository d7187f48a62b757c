import type { Hex } from 'viem';
import type { ChainApi } from '../../chain/interface.js';
import type { StateReader } from '../../chain/state-reader.js';
import type { RegisteredToken } from '../../chain/token-registry.js';
import { accountKey, accountNonce, balanceKey, decodeBalance, decodeTokenRecord, tokenKey } from '../../core/records.js';
import { collectionKey } from '../../abi/state.js';
import { callToken, type Simulate } from '../../eth/calls.js';
import { callCollection } from '../../eth/collection-calls.js';
import { collectionReadsAt } from '../../domains/collections/reader.js';
import type { MulticallBlock } from '../../eth/multicall.js';
import { quantity } from '../../chain/evm/units.js';
import { RpcError } from '../errors.js';

/**
 * The eth_* reads at a past block (docs/eth.md "Block parameters"; issue 42 item 1): the same
 * readers as at the head, over the state as of that block (ChainApi.stateAt, src/chain/state-history.ts).
 */

/**
 * A view of the chain whose committed state is `state` (the state as of a past block): what the
 * eth_call readers (src/eth/calls.ts) read, `state` and `balance`, answer from it; everything else
 * is the chain's.
 */
export function chainWithState(chain: ChainApi, state: StateReader): ChainApi {
  return Object.create(chain, {
    state: { value: state },
    balance: {
      value: (account: Uint8Array, mint: Uint8Array): bigint => {
        const record = state.get(balanceKey(account, mint));
        return record ? decodeBalance(record) : 0n;
      },
    },
  }) as ChainApi;
}

/**
 * eth_call on a token at a past block: the token as it was then (its supply from its record at that
 * block; no code before the block that created it, so an empty answer, as geth gives for an address
 * without code).
 */
export async function callTokenAt(chain: ChainApi, height: number, token: RegisteredToken, data: Hex, from: string | undefined, simulate: Simulate): Promise<Hex> {
  // A transfer, approve or transferFrom runs on a scratch core over the state as of the block
  // (`simulate`: EvmSimulator.checkAt), as at the head over the head's: noted by each pass below and
  // run once, for the pass that read the state as of the block.
  const noted: { write?: Parameters<Simulate> } = {};
  const answer = await chain.stateAt(height, (state): Promise<Hex> => {
    noted.write = undefined;
    const record = state.get(tokenKey(token.mint));
    if (!record) return Promise.resolve('0x');
    const then: RegisteredToken = { ...decodeTokenRecord(record), mint: token.mint, mintAddress: token.mintAddress };
    const answer = callToken(chainWithState(chain, state), then, data, from, async (...write) => {
      noted.write = write;
    });
    // The readers read before their first await, so a pass sees every key it needs; a pass that
    // missed keys is run again (StateHistory.run) and its answer, or refusal, is dropped unheard.
    answer.catch(() => undefined);
    return answer;
  });
  if (noted.write) await simulate(...noted.write);
  return answer;
}

/**
 * Multicall3 at a past block: that block's header for its block helpers, NTV balances as of it for
 * getEthBalance. A state the window serves always has its block (src/chain/pruning.ts keeps at least
 * as many blocks as states); a block missing anyway is refused as a state below the window would be.
 */
export async function multicallBlockAt(chain: ChainApi, height: number): Promise<MulticallBlock> {
  const block = await chain.blockByHeight(height);
  if (!block) {
    throw RpcError.app('UNAVAILABLE_ON_NODE', `missing trie node: block ${quantity(height)} is not kept; this node holds blocks from ${quantity(chain.oldestBlock)} to the head ${quantity(chain.height)}`, {
      block: quantity(height), head: quantity(chain.height), oldest_block: quantity(chain.oldestBlock), reason: 'HISTORICAL_STATE',
    });
  }
  return { header: block.header, balance: (account) => chain.balanceAt(account, new Uint8Array(32), height) };
}

/**
 * eth_call on an NFT or multi-token collection at a past block: its ERC-721/1155 reads over the
 * collection's records as of that block (ownerOf, balanceOf, balanceOfBatch, tokenURI, uri,
 * totalSupply from its record then); before the block that created it an empty answer, as for a token.
 */
export function callCollectionAt(chain: ChainApi, height: number, address: Uint8Array, data: Hex): Promise<Hex> {
  return chain.stateAt(height, (state): Hex => {
    const then = collectionReadsAt(state, address);
    return then ? callCollection(then.reads, then.record, data) : '0x';
  });
}

/** Whether a token existed at a past block (eth_getCode). */
export function tokenExistedAt(chain: ChainApi, height: number, mint: Uint8Array): Promise<boolean> {
  return chain.stateAt(height, (state) => state.get(tokenKey(mint)) !== undefined);
}

/** Whether an NFT or multi-token collection existed at a past block (eth_getCode). */
export function collectionExistedAt(chain: ChainApi, height: number, collection: Uint8Array): Promise<boolean> {
  return chain.stateAt(height, (state) => state.get(collectionKey(collection)) !== undefined);
}

/** An account's committed nonce as of a past block. */
export async function nonceAt(chain: ChainApi, height: number, account: Uint8Array): Promise<string> {
  return quantity(await chain.stateAt(height, (state) => {
    const record = state.get(accountKey(account));
    return record ? accountNonce(record) : 0n;
  }));
}
