// fetchRawBlocks (src/client/raw-blocks.ts): a batch the node's rate limit refuses whole is sent
// again after the wait the node names; other errors are not retried.
import { describe, expect, it } from 'vitest';
import { RpcClient } from '../../src/client/rpc-client.js';
import { fetchRawBlocks } from '../../src/client/raw-blocks.js';

function fakeNode(replies: unknown[]): { client: RpcClient; calls: () => number } {
  let calls = 0;
  const fetch = (async (_url: unknown, init: { body: string }) => {
    const body = JSON.parse(init.body) as Array<{ id: number; params: [number] }>;
    const reply = replies[Math.min(calls++, replies.length - 1)];
    const text = reply === 'ok'
      ? JSON.stringify(body.map((r) => ({ jsonrpc: '2.0', id: r.id, result: { height: r.params[0], hash: 'x', block: 'ab', certificate: '', result: r.params[0] === 0 ? null : 'cd' } })))
      : JSON.stringify(reply);
    return new Response(text, { status: reply === 'ok' ? 200 : 429, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof globalThis.fetch;
  return { client: new RpcClient('http://127.0.0.1:1/', { fetch }), calls: () => calls };
}

const limited = { jsonrpc: '2.0', id: null, error: { code: -32005, message: 'rate limited', data: { retryAfterMs: 20, cost: 2, capacity: 1 } } };

describe('fetchRawBlocks', () => {
  it('waits out RATE_LIMITED and sends the batch again', async () => {
    const { client, calls } = fakeNode([limited, limited, 'ok']);
    const blocks = await fetchRawBlocks(client, [0, 1]);
    expect(calls()).toBe(3);
    expect(blocks.map((b) => [b.height, b.block, b.result])).toEqual([[0, Uint8Array.of(0xab), undefined], [1, Uint8Array.of(0xab), Uint8Array.of(0xcd)]]);
  });

  it('does not retry other errors', async () => {
    const { client, calls } = fakeNode([{ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'too long a batch' } }]);
    await expect(fetchRawBlocks(client, [0])).rejects.toThrow(/too long a batch/);
    expect(calls()).toBe(1);
  });
});
