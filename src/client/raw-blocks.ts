import { rawBlockFromJson, type RawBlock, type RawBlockJson } from '../chain/replay.js';
import { RpcClientError, type RpcClient } from './rpc-client.js';

/** RATE_LIMITED (docs/rpc.md): the batch is refused whole; its data says when to come back. */
const RATE_LIMITED = -32005;
const RETRIES = 30;

/**
 * Blocks as stored, by height, in one svc_getRawBlock batch (docs/replay.md "Format"), for the
 * replay command and the browser's light client. A node's per-IP rate limit (--rpc-rate-limit,
 * default 100 calls/s; a batch of n costs n) refuses a batch whole: it is sent again after the
 * wait the node names, so a replay from a node with the default limit runs at that limit.
 */
export async function fetchRawBlocks(client: RpcClient, heights: readonly number[]): Promise<RawBlock[]> {
  for (let attempt = 0; ; attempt++) {
    try {
      const replies = await client.batch(heights.map((h) => ({ method: 'svc_getRawBlock', params: [h] })));
      return replies.map((r, i) => {
        if (!r.ok) throw new Error(`svc_getRawBlock ${heights[i]}: ${r.error.message}`);
        return rawBlockFromJson(r.result as RawBlockJson);
      });
    } catch (error) {
      if (!(error instanceof RpcClientError) || error.code !== RATE_LIMITED || attempt >= RETRIES) throw error;
      const wait = Number((error.data as { retryAfterMs?: number } | undefined)?.retryAfterMs ?? 1000);
      await new Promise((resolve) => setTimeout(resolve, Math.min(Math.max(wait, 50), 10_000)));
    }
  }
}
