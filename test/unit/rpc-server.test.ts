/** JSON-RPC 2.0 over real HTTP on 127.0.0.1 (port 0), through both hot paths of RpcServer. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { ALICE, BOB, call, post, startServer } from './rpc-fixtures.js';

describe.each(['direct', 'koa'] as const)('RpcServer over HTTP (hotPath %s)', (hotPath) => {
  let ctx: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    ctx = await startServer({ hotPath, maxBatch: 10, bodyLimit: 4096 });
  });
  afterAll(async () => {
    await ctx.server.stop();
  });

  it('answers a call with result and the same id (string, number, null)', async () => {
    for (const id of ['abc', 7, null, 1.5]) {
      const r = await post(ctx.url, call('test_echo', ['hi'], id));
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^application\/json/);
      expect(r.json).toEqual({ jsonrpc: '2.0', id, result: 'hi' });
    }
  });

  it('awaits async handlers', async () => {
    expect((await post(ctx.url, call('test_async', [5]))).json).toEqual({ jsonrpc: '2.0', id: 1, result: 5 });
  });

  it('-32700 with id null for malformed JSON, never a plain-text 400', async () => {
    for (const body of ['{"jsonrpc":"2.0",', 'not json', '']) {
      const r = await post(ctx.url, body);
      expect(r.headers.get('content-type')).toMatch(/^application\/json/);
      expect(r.json.id).toBeNull();
      expect(r.json.error.code).toBe(-32700);
      expect(r.text).not.toMatch(/at .*\.js/);
    }
  });

  it('takes a JSON Content-Type with parameters; any other is 415 (test/unit/rpc-origin.test.ts)', async () => {
    expect((await post(ctx.url, call('test_echo', ['x']), { 'content-type': 'application/json; charset=utf-8' })).json.result).toBe('x');
    const form = await post(ctx.url, call('test_echo', ['x']), { 'content-type': 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(415);
    expect(form.json.error.code).toBe(-32600);
  });

  it('-32600 for a wrong jsonrpc, a non-object, a bad method or id or params', async () => {
    const wrongVersion = await post(ctx.url, { jsonrpc: '1.0', id: 3, method: 'test_echo', params: ['a'] });
    expect(wrongVersion.json).toMatchObject({ id: 3, error: { code: -32600 } });
    expect(wrongVersion.json.error.message).toMatch(/jsonrpc must be "2.0"/);
    expect((await post(ctx.url, { id: 3, method: 'test_echo' })).json.error.code).toBe(-32600);
    for (const body of ['42', '"str"', 'null', 'true']) {
      const r = await post(ctx.url, body);
      expect(r.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    }
    expect((await post(ctx.url, { jsonrpc: '2.0', id: 1, method: 5 })).json.error.code).toBe(-32600);
    expect((await post(ctx.url, { jsonrpc: '2.0', id: { a: 1 }, method: 'test_echo' })).json).toMatchObject({ id: null, error: { code: -32600 } });
    expect((await post(ctx.url, { jsonrpc: '2.0', id: 1, method: 'test_echo', params: 'hi' })).json.error.code).toBe(-32600);
  });

  it('-32600 for an empty batch and a batch over maxBatch', async () => {
    const empty = await post(ctx.url, []);
    expect(empty.json).toMatchObject({ id: null, error: { code: -32600, message: 'invalid request: empty batch' } });
    const big = await post(ctx.url, Array.from({ length: 11 }, (_, i) => call('test_echo', ['x'], i)));
    expect(big.json).toMatchObject({ id: null, error: { code: -32600, data: { maxBatch: 10, got: 11 } } });
  });

  it('-32601 for an unknown method', async () => {
    const r = await post(ctx.url, call('svc_nope', []));
    expect(r.json).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'method not found: svc_nope', data: { method: 'svc_nope' } } });
  });

  it('-32602 for a wrong type, naming the param, its position and what was expected', async () => {
    const r = await post(ctx.url, call('test_transfer', [ALICE, BOB, 'NTV', '-5']));
    expect(r.json.error).toEqual({
      code: -32602,
      message: 'invalid params: "amount" (param 4) must be a raw-unit decimal string',
      data: { param: 'amount', position: 4, expected: 'a raw-unit decimal string' },
    });
    const addr = await post(ctx.url, call('test_transfer', ['Nx0bad', BOB, 'NTV', '5']));
    expect(addr.json.error.message).toMatch(/^invalid params: "from" \(param 1\) must be an address/);
    const limit = await post(ctx.url, call('test_list', [0]));
    expect(limit.json.error.message).toBe('invalid params: "limit" (param 1) must be an integer from 1 to 1000');
  });

  it('-32602 for a missing required param and for too many params', async () => {
    const missing = await post(ctx.url, call('test_transfer', [ALICE, BOB]));
    expect(missing.json.error).toMatchObject({ code: -32602, data: { param: 'token', position: 3 } });
    expect(missing.json.error.message).toMatch(/missing "token" \(param 3\)/);
    const tooMany = await post(ctx.url, call('test_echo', ['a', 'b']));
    expect(tooMany.json.error).toMatchObject({ code: -32602, data: { maxParams: 1, got: 2 } });
    expect(tooMany.json.error.message).toMatch(/too many params: test_echo takes at most 1, got 2/);
  });

  it('-32602 from the u128 range check of parseAmount', async () => {
    const over = (2n ** 128n).toString();
    const r = await post(ctx.url, call('test_transfer', [ALICE, BOB, 'NTV', over]));
    expect(r.json.error).toMatchObject({ code: -32602, data: { param: 'amount', position: 4 } });
    expect(r.json.error.message).toMatch(/"amount" \(param 4\) must be at most 2\^128/);
    const max = (2n ** 128n - 2n).toString();
    expect((await post(ctx.url, call('test_transfer', [ALICE, BOB, 'NTV', max]))).json.result.amount).toBe((2n ** 128n - 1n).toString());
  });

  it('optional params: absent or null give the default; by-name params are normalised', async () => {
    expect((await post(ctx.url, call('test_list', []))).json.result).toBe(100);
    expect((await post(ctx.url, call('test_list', [null]))).json.result).toBe(100);
    expect((await post(ctx.url, call('test_list'))).json.result).toBe(100);
    const byName = await post(ctx.url, call('test_transfer', { amount: '10', token: 'USDC', to: BOB, from: ALICE }));
    expect(byName.json.result).toEqual({ amount: '11', memo: null });
    const badName = await post(ctx.url, call('test_transfer', { from: ALICE, to: BOB, token: 'X', amount: 'ten' }));
    expect(badName.json.error.message).toBe('invalid params: "amount" (param 4) must be a raw-unit decimal string');
    const unknownKey = await post(ctx.url, call('test_echo', { value: 'a', extra: 1 }));
    expect(unknownKey.json.error).toMatchObject({ code: -32602, data: { param: 'extra' } });
  });

  it('-32603 hides the message and stack, returns a correlation id that the log carries', async () => {
    const r = await post(ctx.url, call('test_crash', []));
    expect(r.json.error.code).toBe(-32603);
    expect(r.json.error.message).toBe('internal error');
    expect(r.text).not.toMatch(/secret|leveldb|at /);
    const id = r.json.error.data.id as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const line = ctx.logger.lines.find((l) => l.level === 'error' && (l.context as { correlationId?: string }).correlationId === id);
    expect(line?.context).toMatchObject({ method: 'test_crash' });
    expect(String((line!.context as { err: Error }).err.message)).toMatch(/secret/);
  });

  it('application errors pass through with code and data; ChainError-shaped errors map by reason', async () => {
    expect((await post(ctx.url, call('test_notFound', []))).json.error).toEqual({ code: -32003, message: 'no block at height 12', data: { height: 12 } });
    expect((await post(ctx.url, call('test_chainError', []))).json.error).toEqual({
      code: -32001,
      message: 'nonce too low',
      data: { status: 'NONCE_TOO_LOW', bundle_hash: '0xabcd' },
    });
  });

  it('bigint results serialise as decimal strings', async () => {
    expect((await post(ctx.url, call('test_bigint', []))).json.result).toEqual({ n: (2n ** 100n).toString() });
  });

  it('a batch: in order, each entry independent, notifications omitted, invalid entries get their own -32600', async () => {
    const r = await post(ctx.url, [
      call('test_echo', ['a'], 'first'),
      { jsonrpc: '2.0', method: 'test_record', params: ['batch-note'] },
      42,
      call('test_async', [20], 2),
      call('svc_missing', [], 3),
      call('test_echo', [1], 4),
    ]);
    expect(r.status).toBe(200);
    expect(r.json).toEqual([
      { jsonrpc: '2.0', id: 'first', result: 'a' },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request: expected a request object' } },
      { jsonrpc: '2.0', id: 2, result: 20 },
      { jsonrpc: '2.0', id: 3, error: { code: -32601, message: 'method not found: svc_missing', data: { method: 'svc_missing' } } },
      expect.objectContaining({ id: 4, error: expect.objectContaining({ code: -32602 }) }),
    ]);
    expect(ctx.notified).toContain('batch-note');
  });

  it('a batch reply is the bytes of its responses serialised one by one: non-ASCII text, bigints and errors, Content-Length in bytes', async () => {
    const text = 'héllo ✓ 𝄞 "quoted" \\ \u2028';
    const r = await post(ctx.url, [call('test_echo', [text], 'u'), call('test_bigint', [], 2), call('svc_missing', [], 3), call('test_echo', [''], 4)]);
    const expected = [
      { jsonrpc: '2.0', id: 'u', result: text },
      { jsonrpc: '2.0', id: 2, result: { n: (2n ** 100n).toString() } },
      { jsonrpc: '2.0', id: 3, error: { code: -32601, message: 'method not found: svc_missing', data: { method: 'svc_missing' } } },
      { jsonrpc: '2.0', id: 4, result: '' },
    ];
    // byte for byte what one JSON.stringify of the whole batch gives
    expect(r.text).toBe(JSON.stringify(expected));
    expect(Number(r.headers.get('content-length'))).toBe(Buffer.byteLength(r.text));
  });

  it('HTTP 204 without a body for a notification and an all-notification batch', async () => {
    const single = await post(ctx.url, { jsonrpc: '2.0', method: 'test_record', params: ['n1'] });
    expect(single.status).toBe(204);
    expect(single.text).toBe('');
    const batch = await post(ctx.url, [
      { jsonrpc: '2.0', method: 'test_record', params: ['n2'] },
      { jsonrpc: '2.0', method: 'test_crash', params: [] },
      { jsonrpc: '2.0', method: 'svc_unknown' },
    ]);
    expect(batch.status).toBe(204);
    expect(batch.text).toBe('');
    expect(ctx.notified).toEqual(expect.arrayContaining(['n1', 'n2']));
  });

  it('HTTP 413 with a -32600 body over the body limit, declared or streamed', async () => {
    const big = JSON.stringify(call('test_echo', ['x'.repeat(5000)]));
    const r = await post(ctx.url, big);
    expect(r.status).toBe(413);
    expect(r.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600, data: { limit: 4096 } } });
    // Chunked upload without Content-Length: the limit is enforced while reading.
    const streamed = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(ctx.url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.write(big.slice(0, 3000));
      setTimeout(() => req.end(big.slice(3000)), 20);
    });
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.body).error.code).toBe(-32600);
    // The server still serves after refusing.
    expect((await post(ctx.url, call('test_echo', ['ok']))).json.result).toBe('ok');
  });

  it('only POST / is JSON-RPC: GET / is 405, other paths 404', async () => {
    const get = await fetch(ctx.url);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await fetch(ctx.url + 'other', { method: 'POST', body: '{}' })).status).toBe(404);
  });
});

describe('RpcServer options', () => {
  it('binds to 127.0.0.1 by default (spec §5.11) and serves an httpMiddleware for other requests', async () => {
    const ctx = await startServer({
      httpMiddleware: async (koaCtx, next) => {
        if (koaCtx.method === 'GET' && koaCtx.path === '/') {
          koaCtx.type = 'text/html';
          koaCtx.body = '<h1>explorer</h1>';
          return;
        }
        await next();
      },
    });
    try {
      expect(ctx.server.host).toBe('127.0.0.1');
      expect(ctx.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      expect(await (await fetch(ctx.url)).text()).toBe('<h1>explorer</h1>');
      expect((await fetch(ctx.url, { method: 'PUT' })).status).toBe(405);
      expect((await post(ctx.url, call('test_echo', ['still rpc']))).json.result).toBe('still rpc');
    } finally {
      await ctx.server.stop();
    }
  });

  it('a batch body over 16 KB (parsed element by element, src/rpc/batch-parse.ts) answers as any batch; a malformed one is still -32700', async () => {
    const ctx = await startServer();
    try {
      const text = 'x'.repeat(100) + ' ,]["\\ é';
      const batch = Array.from({ length: 300 }, (_, i) => call('test_echo', [`${i}${text}`], i));
      expect(JSON.stringify(batch).length).toBeGreaterThan(16 * 1024);
      const r = await post(ctx.url, batch);
      expect(r.json).toEqual(batch.map((_, i) => ({ jsonrpc: '2.0', id: i, result: `${i}${text}` })));
      const broken = JSON.stringify(batch).slice(0, -1) + ',]';
      expect((await post(ctx.url, broken)).json).toMatchObject({ id: null, error: { code: -32700 } });
    } finally {
      await ctx.server.stop();
    }
  });

  it('start() rejects when the port is taken; stop() closes keep-alive connections', async () => {
    const a = await startServer();
    const { RpcServer } = await import('../../src/rpc/server.js');
    const b = new RpcServer({ port: a.server.port }, { registry: a.registry, logger: a.logger });
    await expect(b.start()).rejects.toThrow(/EADDRINUSE/);
    await post(a.url, call('test_echo', ['keep-alive']));
    const started = Date.now();
    await a.server.stop();
    expect(Date.now() - started).toBeLessThan(2000);
    await expect(fetch(a.url, { method: 'POST', body: '{}' })).rejects.toThrow();
  });
});
