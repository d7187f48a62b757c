// How a receipt shows the DEX events' pools and their tokens (docs/dex.md; abi/events.mjs `j`): a
// pool in its Nx8 form, and the tokens of a liquidity event or a swap's token out, which the core's
// events do not name. Those read the pool's pair from committed state or, for a pool the same block
// created, from the block's PoolCreated event, so they are made once a block (the module's
// `blockReceiptFormats`, called by src/chain/receipts.ts).
import { encodeMint } from '../../codec/address.js';
import { encodePool } from '../../core/amm.js';
import type { DomainReceiptFormats, ReceiptBlock } from '../module.js';

export const dexReceiptFormats: DomainReceiptFormats = { pool: encodePool };

type PoolPairs = (pool: Uint8Array) => [Uint8Array, Uint8Array] | undefined;

/**
 * A pool's two tokens: from committed state, else from the PoolCreated event of the same block (a
 * receipt of the block being made is read before its writes reach the StateView). Pools are only
 * created by PoolCreated and never deleted, so one of the two always knows it.
 */
function poolPairs({ result, tokens }: ReceiptBlock): PoolPairs {
  let created: Map<string, [Uint8Array, Uint8Array]> | undefined;
  return (pool) => {
    const committed = tokens.poolPair(pool);
    if (committed) return committed;
    if (!created) {
      created = new Map();
      for (const e of result.events) if (e.kind === 'PoolCreated') created.set(Buffer.from(e.pool).toString('hex'), [e.token0, e.token1]);
    }
    return created.get(Buffer.from(pool).toString('hex'));
  };
}

/** The formats of one block's receipts that need the pools' pairs. */
export function dexBlockReceiptFormats(block: ReceiptBlock): DomainReceiptFormats {
  const pairs = poolPairs(block);
  const pairToken = (pool: Uint8Array, i: 0 | 1) => {
    const pair = pairs(pool);
    return pair && encodeMint(pair[i]);
  };
  return {
    pairToken0: (v) => pairToken(v, 0),
    pairToken1: (v) => pairToken(v, 1),
    swapTokenOut: (v, e) => {
      const pair = pairs(v);
      return pair && encodeMint(Buffer.compare(pair[0], e.tokenIn) === 0 ? pair[1] : pair[0]);
    },
  };
}
