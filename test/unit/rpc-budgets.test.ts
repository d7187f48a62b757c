/**
 * The RPC budgets' rules in isolation (issue 46 "RPC budgets by cost, not by count", issue 42 item 4;
 * docs/rpc.md "Rate limit", "Response budget", "Connections", "Subscriptions and filters"): costs,
 * the bucket's debt and peek, the reply budgets, the global connection cap, the subscription caps
 * and the once-encoded notifications. test/e2e/rpc-budgets.test.ts drives them on a running node.
 */
import { EventEmitter } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { ProducedBlock } from '../../src/chain/producer.js';
import { ConnectionLimiter, defaultMaxConnections, isLoopback, perIpLimitsApply } from '../../src/rpc/connections.js';
import { BYTES_PER_UNIT, METHOD_COSTS, bodyCost, byteCost } from '../../src/rpc/costs.js';
import { Dispatcher } from '../../src/rpc/dispatch.js';
import { isExtensionOrigin } from '../../src/rpc/origin.js';
import { RateLimiter } from '../../src/rpc/rate-limit.js';
import { MethodRegistry, type RpcConnection } from '../../src/rpc/registry.js';
import { SubscriptionHub } from '../../src/rpc/subscriptions.js';
import { textFrames } from '../../src/rpc/server.js';
import * as wsModule from 'ws';

/** ws's own frame parser (exported at run time, not in its types). */
interface FrameReceiver {
  on(event: 'message', fn: (data: Buffer, isBinary: boolean) => void): void;
  write(chunk: Buffer, cb: (err?: Error | null) => void): void;
}
const Receiver = (wsModule as unknown as { Receiver: new (options: object) => FrameReceiver }).Receiver;
import { Type } from '@sinclair/typebox';
import { memoryLogger, startServer } from './rpc-fixtures.js';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const logger = memoryLogger();

describe('costs (src/rpc/costs.ts)', () => {
  it('a call costs its method\'s units, a batch the sum, bytes one unit per 64 KiB', () => {
    expect(bodyCost({ method: 'svc_getBalance' })).toBe(1);
    expect(bodyCost({ method: 'rpc.discover' })).toBe(METHOD_COSTS['rpc.discover']);
    expect(bodyCost([{ method: 'rpc.discover' }, { method: 'eth_getLogs' }, 'junk'])).toBe(20 + 10 + 1);
    expect(bodyCost([])).toBe(1);
    expect(byteCost(BYTES_PER_UNIT - 1)).toBe(0);
    expect(byteCost(5 * 1024 * 1024)).toBe(80);
  });
});

describe('RateLimiter charge and peek', () => {
  it('charges reply bytes into debt (at most one capacity), which later calls wait off; peek takes nothing', () => {
    let now = 0;
    const limiter = new RateLimiter({ ratePerSecond: 100, now: () => now });
    expect(limiter.peek('a', 100).ok).toBe(true);
    expect(limiter.peek('a', 101)).toMatchObject({ ok: false, cost: 101, capacity: 100 });
    expect(limiter.take('a', 10).ok).toBe(true);
    limiter.charge('a', 1000);
    // -100 at most: two seconds to a full bucket, one to get back to zero.
    const refused = limiter.take('a', 1);
    expect(refused).toMatchObject({ ok: false });
    expect((refused as { retryAfterMs: number }).retryAfterMs).toBe(1010);
    now = 1_000;
    expect(limiter.peek('a', 1).ok).toBe(false);
    now = 1_020;
    expect(limiter.peek('a', 1).ok).toBe(true);
    expect(limiter.take('a', 1).ok).toBe(true);
    limiter.close();
  });
});

describe('reply budgets (Dispatcher.bytes)', () => {
  const registry = new MethodRegistry({ info: { title: 'test node', version: '9.9.9' } });
  registry.register({ name: 'test_big', summary: 'n bytes of text', params: [{ name: 'n', schema: Type.Integer() }], result: { name: 'text', schema: Type.String() }, handler: ([n]) => 'x'.repeat(n as number) });
  const dispatcher = new Dispatcher({ registry, logger, maxBatch: 100, maxResponseBytes: 1000, maxBatchResponseBytes: 3000 });
  const ctx = { transport: 'http', ip: '1.2.3.4' } as const;
  const call = (n: number, id: number) => ({ jsonrpc: '2.0', id, method: 'test_big', params: [n] });

  it('a reply over the per-call budget is -32015 RESPONSE_TOO_LARGE with its id', async () => {
    const text = dispatcher.bytes((await dispatcher.handle(call(2000, 7), ctx))!) as string;
    expect(JSON.parse(text)).toMatchObject({ id: 7, error: { code: -32015, data: { reason: 'RESPONSE_TOO_LARGE', limit: 1000 } } });
    expect(JSON.parse(dispatcher.bytes((await dispatcher.handle(call(900, 8), ctx))!) as string).result).toHaveLength(900);
  });

  it('a batch keeps the replies that fit, in order, and refuses the rest from the first that does not', async () => {
    const result = await dispatcher.handle([call(900, 1), call(900, 2), call(900, 3), call(900, 4), call(10, 5)], ctx);
    const out = JSON.parse(dispatcher.bytes(result!).toString()) as Array<{ id: number; result?: string; error?: { code: number; message: string } }>;
    expect(out.map((r) => r.id)).toEqual([1, 2, 3, 4, 5]);
    expect(out.slice(0, 3).every((r) => r.result?.length === 900)).toBe(true);
    // Once over, the small fifth is refused too: a batch answers a prefix.
    for (const r of out.slice(3)) expect(r.error).toMatchObject({ code: -32015, message: expect.stringContaining('--rpc-batch-response-max-size') });
  });
});

describe('large bodies from all clients (maxBodyBytesPerSecond)', () => {
  it('are refused on their headers once the node-wide budget is spent, loopback included; small bodies are not counted', async () => {
    const now = 0;
    // 64 KiB/s: 1 unit a second; a bucket of 5 units (one body at the 256 KiB limit, plus one).
    const s = await startServer({ bodyLimit: 256 * 1024, maxBodyBytesPerSecond: 64 * 1024 }, () => now);
    try {
      const body = (n: number) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'test_echo', params: ['x'.repeat(n)] });
      const send = (text: string) => fetch(s.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
      expect((await send(body(128 * 1024))).status).toBe(200);
      expect((await send(body(128 * 1024))).status).toBe(200);
      const refused = await send(body(128 * 1024));
      expect(refused.status).toBe(429);
      expect(refused.headers.get('connection')).toBe('close');
      expect(await refused.json()).toMatchObject({ id: null, error: { code: -32005 } });
      // An ordinary call is not a large body.
      expect((await send(body(10))).status).toBe(200);
    } finally {
      await s.server.stop();
    }
  });
});

describe('connection caps (src/rpc/connections.ts)', () => {
  it('a global cap beside the per-IP one; loopback is exempt from the per-IP cap unless limited', async () => {
    const refusals: string[] = [];
    const limiter = new ConnectionLimiter({ maxPerIp: 1, maxTotal: 3, perIpApplies: perIpLimitsApply(false), onRefused: (reason) => refusals.push(reason) });
    const server: Server = createServer((socket) => {
      limiter.admit(socket);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    const open = async (): Promise<{ socket: Socket; text: Promise<string> }> => {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => {});
      let data = '';
      const text = new Promise<string>((resolve) => {
        socket.on('data', (c: Buffer) => (data += c.toString()));
        socket.once('close', () => resolve(data));
      });
      await new Promise<void>((r) => socket.once('connect', () => r()));
      return { socket, text };
    };
    const held = [await open(), await open(), await open()];
    await new Promise((r) => setTimeout(r, 50));
    expect(limiter.open).toBe(3);
    const fourth = await open();
    expect(await fourth.text).toContain('too many open connections to this node');
    expect(refusals).toEqual(['global']);
    held[0]!.socket.destroy();
    await new Promise((r) => setTimeout(r, 50));
    expect(limiter.open).toBe(2);
    for (const h of held) h.socket.destroy();
    await new Promise<void>((r) => server.close(() => r()));
    expect(isLoopback('127.0.0.9')).toBe(true);
    expect(isLoopback('::1')).toBe(true);
    expect(isLoopback('10.0.0.1')).toBe(false);
    expect(perIpLimitsApply(true)('127.0.0.1')).toBe(true);
  });

  it('the default global cap is half the open-file limit, at most 4096', () => {
    const dir = mkdtempSync(join(tmpdir(), 'limits-'));
    const file = (soft: string) => {
      const path = join(dir, soft);
      writeFileSync(path, `Limit                     Soft Limit           Hard Limit           Units\nMax open files            ${soft}                 1048576              files\n`);
      return path;
    };
    expect(defaultMaxConnections(file('1024'))).toBe(512);
    expect(defaultMaxConnections(file('1048576'))).toBe(4096);
    expect(defaultMaxConnections(file('unlimited'))).toBe(4096);
    expect(defaultMaxConnections(join(dir, 'absent'))).toBe(4096);
  });
});

describe('textFrames (notifications to one client in one write)', () => {
  it('are the text frames a WebSocket client reads back, for the three length encodings and non-ASCII text', async () => {
    const texts = ['hi', 'é'.repeat(100), 'x'.repeat(70_000), '{"a":"€"}'];
    const received: string[] = [];
    const receiver = new Receiver({ isServer: false, skipUTF8Validation: false });
    receiver.on('message', (data: Buffer, isBinary: boolean) => {
      expect(isBinary).toBe(false);
      received.push(data.toString());
    });
    await new Promise<void>((resolve, reject) => receiver.write(textFrames(texts), (err?: Error | null) => (err ? reject(err) : resolve())));
    expect(received).toEqual(texts);
  });
});

describe('browser-extension origins', () => {
  it('chrome-extension://, moz-extension:// and safari-web-extension:// with an id; not web pages', () => {
    expect(isExtensionOrigin('chrome-extension://nkbihfbeogaeaoehlefnkodbefgpgknn')).toBe(true);
    expect(isExtensionOrigin('moz-extension://0c4e7b4d-8a7c-4b5e-9d1f-2a3b4c5d6e7f')).toBe(true);
    expect(isExtensionOrigin('safari-web-extension://abc')).toBe(true);
    expect(isExtensionOrigin('chrome-extension://')).toBe(false);
    expect(isExtensionOrigin('https://chrome-extension.example')).toBe(false);
  });
});

class FakeChain extends EventEmitter<{ block: [ProducedBlock] }> {
  syncing = false;
  produce(height: number): void {
    const bytes = (n: number) => new Uint8Array(32).fill(n % 256);
    const header = {
      chainId: 1, height, parentHash: bytes(height - 1), timestamp: 1_700_000_000 + height, proposer: bytes(7), proposerPubkey: bytes(7),
      stateRoot: bytes(1), transactionsRoot: bytes(2), gasUsed: 0, gasLimit: 1, baseFee: 10, bundleCount: 0, hash: bytes(height), signature: new Uint8Array(64),
    };
    this.emit('block', { block: { header, bundles: [], bundleHashes: [] }, receipts: [] } as unknown as ProducedBlock);
  }
}

/** A socket's connection as the hub sees it; `costUs` busy-waits per message, as a real write costs. */
function socketLike(ip: string | undefined, costUs = 0): RpcConnection & { texts: string[]; corks: number } {
  const c = {
    id: Math.floor(Math.random() * 1e9), ip, texts: [] as string[], corks: 0,
    send: (message: unknown) => c.sendText(JSON.stringify(message)),
    sendText(text: string): boolean {
      const until = performance.now() + costUs / 1000;
      while (performance.now() < until);
      c.texts.push(text);
      return true;
    },
    cork(fn: () => void): void {
      c.corks++;
      fn();
    },
    onClose(): void {},
  };
  return c;
}

describe('SubscriptionHub caps and fan-out', () => {
  it('per-IP share and global cap on socket subscriptions; loopback exempt from the share; removal frees them', () => {
    const hub = new SubscriptionHub(new FakeChain(), { maxTotal: 5, maxPerIp: 2, perIpApplies: perIpLimitsApply(false) });
    const a = socketLike('10.0.0.1');
    hub.subscribe('newHeads', a);
    const id = hub.subscribe('newHeads', a);
    expect(() => hub.subscribe('newHeads', socketLike('10.0.0.1'))).toThrow(expect.objectContaining({ code: -32015, data: expect.objectContaining({ reason: 'IP_SUBSCRIPTIONS_FULL' }) }));
    const local = socketLike('127.0.0.1');
    for (let i = 0; i < 3; i++) hub.subscribe('newHeads', local);
    expect(() => hub.subscribe('newHeads', socketLike('10.0.0.2'))).toThrow(expect.objectContaining({ data: expect.objectContaining({ reason: 'SUBSCRIPTIONS_FULL', limit: 5 }) }));
    // Pseudo-connections without an address (polled filters) have their own caps.
    hub.subscribe('ethNewHeads', { id: -1, send: () => true, onClose() {} });
    expect(hub.unsubscribe('newHeads', a, id)).toBe(true);
    hub.subscribe('newHeads', socketLike('10.0.0.2'));
    hub.close();
  });

  it('sends each item\'s text, encoded once, as JSON.stringify of the message would, corked per connection', async () => {
    const chain = new FakeChain();
    // One slice for the whole block, whatever the machine's load: this case is about encoding and
    // corking; slicing has its own case below. It waits for delivery rather than for a fixed time.
    const hub = new SubscriptionHub(chain, { sliceMs: 60_000, fanoutShare: 1, idleFanoutShare: 1 });
    const conns = [socketLike('10.0.0.1'), socketLike('10.0.0.2')];
    const ids = conns.map((c) => [hub.subscribe('newHeads', c), hub.subscribe('ethNewHeads', c)]);
    await new Promise((r) => setImmediate(r));
    chain.produce(5);
    const deadline = Date.now() + 10_000;
    while (conns.some((c) => c.texts.length < 2) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    conns.forEach((c, i) => {
      expect(c.texts).toHaveLength(2);
      const [svc, eth] = c.texts.map((t) => JSON.parse(t) as { method: string; params: { subscription: string; result: unknown } });
      expect(svc).toMatchObject({ jsonrpc: '2.0', method: 'svc_subscription', params: { subscription: ids[i]![0], result: { height: 5 } } });
      expect(eth).toMatchObject({ method: 'eth_subscription', params: { subscription: ids[i]![1], result: { number: '0x5' } } });
      expect(c.texts[0]).toBe(JSON.stringify(svc));
      expect(c.corks).toBe(1);
    });
    // Encoded once: both connections' svc messages carry the same result text.
    const resultText = (t: string) => t.slice(t.indexOf('"result":'));
    expect(resultText(conns[0]!.texts[0]!)).toBe(resultText(conns[1]!.texts[0]!));
    hub.close();
  });

  it('delivers in slices: a large backlog is spread over several turns of the loop, all of it arriving', async () => {
    const chain = new FakeChain();
    const hub = new SubscriptionHub(chain, { sliceMs: 1, fanoutShare: 0.5, idleFanoutShare: 0.5 });
    // 400 × 40 messages of 10 µs: 160 ms of sending, in slices of 1 ms.
    const conns = Array.from({ length: 400 }, (_, i) => socketLike(`10.1.${i >> 8}.${i & 255}`, 10));
    for (const c of conns) hub.subscribe('newHeads', c);
    await new Promise((r) => setImmediate(r));
    for (let h = 1; h <= 40; h++) chain.produce(h);
    await new Promise((r) => setImmediate(r));
    // After the blocks' first slice, not everything has gone out: the loop was given back.
    const firstSlice = conns.reduce((n, c) => n + c.texts.length, 0);
    expect(firstSlice).toBeLessThan(400 * 40);
    const deadline = Date.now() + 10_000;
    while (conns.some((c) => c.texts.length < 40) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(conns.every((c) => c.texts.length === 40)).toBe(true);
    expect(conns[0]!.texts.map((t) => (JSON.parse(t) as { params: { result: { height: number } } }).params.result.height)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    hub.close();
  });
});
