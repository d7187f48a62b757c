/** JSON-RPC over WebSocket on the same port (spec §1.1, §6): same dispatch, per-connection context, limits. */
import { afterEach, describe, expect, it } from 'vitest';
import { Type } from '@sinclair/typebox';
import { WebSocket } from 'ws';
import type { CallContext } from '../../src/rpc/registry.js';
import { call, startServer } from './rpc-fixtures.js';

type Started = Awaited<ReturnType<typeof startServer>>;
const servers: Started[] = [];
const sockets: WebSocket[] = [];

afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.terminate();
  for (const s of servers.splice(0)) await s.server.stop();
});

async function open(url: string): Promise<WebSocket> {
  const ws = new WebSocket(url.replace('http://', 'ws://'));
  sockets.push(ws);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return ws;
}

/** Sends text and waits for the next message. */
function ask(ws: WebSocket, message: unknown): Promise<any> {
  return new Promise((resolve) => {
    ws.once('message', (data) => resolve(JSON.parse(data.toString())));
    ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  });
}

describe('RpcServer over WebSocket', () => {
  it('serves calls, batches and errors through the same registry', async () => {
    const s = await startServer();
    servers.push(s);
    const ws = await open(s.url);
    expect(await ask(ws, call('test_echo', ['hello'], 'w1'))).toEqual({ jsonrpc: '2.0', id: 'w1', result: 'hello' });
    expect(await ask(ws, '{oops')).toMatchObject({ id: null, error: { code: -32700 } });
    expect((await ask(ws, call('test_transfer', ['0x' + '11'.repeat(32), '0x' + '22'.repeat(32), 'NTV', '1.5']))).error.message).toBe(
      'invalid params: "amount" (param 4) must be a raw-unit decimal string',
    );
    // a batch's reply is built as bytes (Dispatcher.bytes) and still sent as a text frame
    const frame = new Promise<boolean>((resolve) => ws.once('message', (_data, isBinary) => resolve(isBinary)));
    const batch = await ask(ws, [call('test_echo', ['a'], 1), { jsonrpc: '2.0', method: 'test_record', params: ['ws-note'] }, call('nope', [], 2)]);
    expect(await frame).toBe(false);
    expect(batch).toEqual([
      { jsonrpc: '2.0', id: 1, result: 'a' },
      { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'method not found: nope', data: { method: 'nope' } } },
    ]);
    expect(s.notified).toContain('ws-note');
    const discover = await ask(ws, call('rpc.discover', []));
    expect(discover.result.openrpc).toMatch(/^1\.3/);
  });

  it('passes a per-connection CallContext whose connection can push and sees close', async () => {
    const s = await startServer();
    servers.push(s);
    const contexts: CallContext[] = [];
    let closed = 0;
    s.registry.register({
      name: 'test_subscribe',
      summary: 'Pushes two notifications on the connection.',
      params: [],
      result: { name: 'subscription', schema: Type.String() },
      handler: (_params, ctx) => {
        contexts.push(ctx);
        if (ctx.connection === undefined) throw new Error('no connection on ws');
        ctx.connection.onClose(() => closed++);
        setTimeout(() => {
          ctx.connection!.send({ jsonrpc: '2.0', method: 'svc_subscription', params: { subscription: 'sub1', result: 1 } });
          ctx.connection!.send({ jsonrpc: '2.0', method: 'svc_subscription', params: { subscription: 'sub1', result: 2 } });
        }, 5);
        return 'sub1';
      },
    });
    const ws = await open(s.url);
    const received: any[] = [];
    ws.on('message', (d) => received.push(JSON.parse(d.toString())));
    ws.send(JSON.stringify(call('test_subscribe', [], 9)));
    ws.send(JSON.stringify(call('test_subscribe', [], 10)));
    await expect.poll(() => received.length).toBe(6);
    expect(received[0]).toEqual({ jsonrpc: '2.0', id: 9, result: 'sub1' });
    expect(received.filter((m) => m.method === 'svc_subscription').map((m) => m.params.result)).toEqual([1, 2, 1, 2]);
    expect(contexts[0]).toBe(contexts[1]);
    expect(contexts[0]).toMatchObject({ transport: 'ws', ip: '127.0.0.1' });
    const other = await open(s.url);
    other.send(JSON.stringify(call('test_subscribe', [], 11)));
    await expect.poll(() => contexts.length).toBe(3);
    expect(contexts[2]!.connection!.id).not.toBe(contexts[0]!.connection!.id);
    ws.close();
    await expect.poll(() => closed).toBe(2);
    expect(contexts[0]!.connection!.send({ late: true })).toBe(false);
  });

  it('closes with 1009 on a message over maxWsMessageBytes', async () => {
    const s = await startServer({ maxWsMessageBytes: 1024 });
    servers.push(s);
    const ws = await open(s.url);
    expect((await ask(ws, call('test_echo', ['x'.repeat(900)]))).result).toHaveLength(900);
    const code = await new Promise<number>((resolve) => {
      ws.once('close', (c) => resolve(c));
      ws.send(JSON.stringify(call('test_echo', ['x'.repeat(2000)])));
    });
    expect(code).toBe(1009);
  });

  it('refuses connections over maxWsConnections and limits calls in flight per connection', async () => {
    const s = await startServer({ maxWsConnections: 1, maxWsInFlight: 2 });
    servers.push(s);
    const ws = await open(s.url);
    await expect(open(s.url)).rejects.toThrow(/503/);
    const replies: any[] = [];
    ws.on('message', (d) => replies.push(JSON.parse(d.toString())));
    for (let i = 0; i < 3; i++) ws.send(JSON.stringify(call('test_async', [50], i)));
    await expect.poll(() => replies.length).toBe(3);
    expect(replies[0]).toMatchObject({ id: 2, error: { code: -32000, data: { maxInFlight: 2 } } });
    expect(replies.slice(1).map((r) => r.result)).toEqual([50, 50]);
  });

  it('counts WebSocket calls against the same per-IP rate limit', async () => {
    const s = await startServer({ rateLimit: 3, limitLoopback: true });
    servers.push(s);
    const ws = await open(s.url);
    expect((await ask(ws, [call('test_echo', ['a'], 1), call('test_echo', ['b'], 2)])).length).toBe(2);
    expect((await ask(ws, call('test_echo', ['c'], 3))).result).toBe('c');
    expect(await ask(ws, call('test_echo', ['d'], 4))).toMatchObject({ id: 4, error: { code: -32005 } });
  });

  it('refuses upgrades on other paths and stop() closes open sockets', async () => {
    const s = await startServer();
    servers.push(s);
    await expect(open(s.url + 'elsewhere')).rejects.toThrow(/404/);
    const ws = await open(s.url);
    const closed = new Promise<number>((resolve) => ws.once('close', (c) => resolve(c)));
    await s.server.stop();
    servers.length = 0;
    expect(await closed).toBe(1001);
  });
});
