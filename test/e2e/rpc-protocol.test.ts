import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir, readFile } from 'node:fs/promises';
import { TestNode } from './harness.js';
import { systemAddressHex } from './bundles.js';

let node: TestNode;

beforeAll(async () => {
  node = await TestNode.start({ args: ['--block-time', '1'] });
});

afterAll(async () => {
  await node?.stop();
});

describe('JSON-RPC 2.0 protocol errors against the node', () => {
  it('-32700 with id null for malformed JSON, without a stack', async () => {
    const res = await node.raw('{"jsonrpc":"2.0","method":');
    const body = JSON.parse(res.text);
    expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    expect(res.text).not.toMatch(/at .*\.js/);
  });

  it('-32600 for a wrong version, a non-object and an empty batch', async () => {
    expect(JSON.parse((await node.raw('{"jsonrpc":"1.0","id":1,"method":"svc_version"}')).text).error.code).toBe(-32600);
    expect(JSON.parse((await node.raw('42')).text).error.code).toBe(-32600);
    expect(JSON.parse((await node.raw('[]')).text).error.code).toBe(-32600);
  });

  it('-32601 for an unknown method', async () => {
    expect((await node.call('svc_nope')).error).toMatchObject({ code: -32601 });
  });

  it('-32602 naming the bad, missing or extra param', async () => {
    const wrongType = await node.call('svc_getBalance', [42, 'NTV']);
    expect(wrongType.error).toMatchObject({ code: -32602, data: { param: 'address', position: 1 } });
    expect(wrongType.error!.message).toContain('address');
    const badAmount = await node.call('svc_transfer', [systemAddressHex(1), systemAddressHex(2), 'NTV', '-5']);
    expect(badAmount.error).toMatchObject({ code: -32602, data: { param: 'amount' } });
    const overflow = await node.call('svc_transfer', [systemAddressHex(1), systemAddressHex(2), 'NTV', (1n << 128n).toString()]);
    expect(overflow.error).toMatchObject({ code: -32602, data: { param: 'amount' } });
    const missing = await node.call('svc_getBalance', []);
    expect(missing.error?.code).toBe(-32602);
    const extra = await node.call('svc_version', [1]);
    expect(extra.error?.code).toBe(-32602);
    const badBase58 = await node.call('svc_getBalance', ['Nx0' + '1'.repeat(40), 'NTV']);
    expect(badBase58.error).toMatchObject({ code: -32602, data: { param: 'address' } });
  });

  it('answers batches in order, omits notifications, and takes by-name params', async () => {
    const res = await node.raw(JSON.stringify([
      { jsonrpc: '2.0', id: 1, method: 'eth_chainId' },
      { jsonrpc: '2.0', method: 'svc_version' },
      { jsonrpc: '2.0', id: 2, method: 'svc_nope' },
      { jsonrpc: '2.0', id: 3, method: 'svc_getBalance', params: { address: systemAddressHex(4), token_symbol: 'NTV' } },
    ]));
    const body = JSON.parse(res.text) as Array<{ id: number; result?: unknown; error?: { code: number } }>;
    expect(body.map((r) => r.id)).toEqual([1, 2, 3]);
    expect(body[0]!.result).toBe('0x18b070');
    expect(body[1]!.error!.code).toBe(-32601);
    expect(body[2]!.result).toBe('161800000000000000');
    const onlyNotifications = await node.raw(JSON.stringify({ jsonrpc: '2.0', method: 'svc_version' }));
    expect(onlyNotifications.status).toBe(204);
  });

  it('lists every method with its param schema in rpc.discover, and every spec method it names exists', async () => {
    const doc = await node.result<{ openrpc: string; methods: Array<{ name: string; params: Array<{ name: string; schema: object }> }> }>('rpc.discover');
    const names = doc.methods.map((m) => m.name);
    for (const name of ['svc_getBalance', 'svc_transfer', 'svc_submitBundle', 'svc_createToken', 'svc_getTokenInfo', 'svc_listTokens',
      'svc_getTransactionReceipt', 'svc_getBlockByHeight', 'svc_getRecentBlocks', 'svc_getNetworkStats', 'svc_version',
      'svc_generateKeypair', 'svc_deriveAddress', 'eth_chainId', 'eth_blockNumber', 'net_version', 'web3_clientVersion', 'svc_faucet']) {
      expect(names).toContain(name);
    }
    expect(doc.methods.find((m) => m.name === 'svc_transfer')!.params.map((p) => p.name)).toEqual(['from', 'to', 'token', 'amount']);
    // docs/methods.md, and the domain pages that hold their own methods' table (a `<!-- methods: … -->`
    // marker, docs/adding-a-domain.md): together they document every method
    const dir = new URL('../../docs/', import.meta.url);
    const pages = await Promise.all((await readdir(dir)).filter((f) => f.endsWith('.md')).map((f) => readFile(new URL(f, dir), 'utf8')));
    const docs = pages.filter((text) => text.includes('<!-- methods:')).join('\n');
    expect(docs).toContain('# JSON-RPC methods');
    for (const name of names) expect(docs, `docs/methods.md or a domain page's method table documents ${name}`).toContain(name);
  });
});

describe('rate limit', () => {
  it('refuses calls beyond --rpc-rate-limit per IP with -32005, then recovers', async () => {
    const limited = await TestNode.start({ args: ['--rpc-rate-limit', '5', '--rpc-limit-loopback', '--block-time', '1'] });
    try {
      // the harness's readiness probe spent part of the bucket; wait for it to refill
      await new Promise((r) => setTimeout(r, 1200));
      const results = await Promise.all(Array.from({ length: 12 }, () => limited.call('eth_chainId')));
      const refused = results.filter((r) => r.error?.code === -32005);
      expect(refused.length).toBeGreaterThan(0);
      expect(results.filter((r) => r.result === '0x18b070').length).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 1200));
      expect((await limited.call('eth_chainId')).result).toBe('0x18b070');
    } finally {
      await limited.stop();
    }
  });
});
