/**
 * Browser origins, connection limits and the surrogate check of RpcServer (hardening issue items 4,
 * 5, 6; docs/rpc.md "Browsers and origins", "Connections"), in process on 127.0.0.1 port 0.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { WebSocket } from 'ws';
import { HostList, OriginList, isJsonContentType, isSameOrigin, normaliseOrigin } from '../../src/rpc/origin.js';
import { illFormedStringAt } from '../../src/rpc/registry.js';
import { call, post, startServer } from './rpc-fixtures.js';

type Started = Awaited<ReturnType<typeof startServer>>;

/** A raw request (no Content-Type unless given) so the test decides every header. */
function rawRequest(url: string, options: { method: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method, headers: options.headers ?? {} }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Opens a WebSocket with the given Origin; resolves 'open' or the HTTP status of the refusal. */
function wsOpen(url: string, origin?: string): Promise<number | 'open'> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url.replace('http://', 'ws://'), origin === undefined ? {} : { origin });
    ws.once('open', () => {
      ws.terminate();
      resolve('open');
    });
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.once('error', () => {});
  });
}

describe('origin helpers', () => {
  it('normalises origins and refuses entries that are not one', () => {
    expect(normaliseOrigin('HTTP://Wallet.Example:80')).toBe('http://wallet.example');
    expect(normaliseOrigin('https://a.example:8443')).toBe('https://a.example:8443');
    expect(() => normaliseOrigin('wallet.example')).toThrow(/not an origin/);
    expect(() => normaliseOrigin('http://a.example/path')).toThrow(/without a path/);
    const list = OriginList.parse('http://a.example, https://b.example:8443');
    expect(list.has('http://a.example')).toBe(true);
    expect(list.has('http://b.example:8443')).toBe(false);
    expect(OriginList.parse('').empty).toBe(true);
    expect(OriginList.parse('*').has('http://anything.example')).toBe(true);
  });

  it('same origin is Origin naming the Host the request went to', () => {
    expect(isSameOrigin('http://127.0.0.1:9933', '127.0.0.1:9933')).toBe(true);
    expect(isSameOrigin('http://localhost', 'localhost:80')).toBe(true);
    expect(isSameOrigin('http://127.0.0.1:9934', '127.0.0.1:9933')).toBe(false);
    expect(isSameOrigin('null', '127.0.0.1:9933')).toBe(false);
    expect(isSameOrigin('http://127.0.0.1:9933', undefined)).toBe(false);
    expect(isSameOrigin('http://127.0.0.1:9933', 'bad host/x y')).toBe(false);
  });

  it('vhosts: IP literals and listed names (localhost by default), port ignored', () => {
    const def = new HostList(['localhost']);
    for (const h of ['127.0.0.1:9933', '[::1]:9933', '10.0.0.2', 'localhost:9933', 'LOCALHOST', undefined]) expect(def.allows(h)).toBe(true);
    for (const h of ['evil.example:9933', 'localhost.evil.example', 'node.lan']) expect(def.allows(h)).toBe(false);
    expect(new HostList(['node.lan']).allows('node.lan:9933')).toBe(true);
    expect(new HostList(['*']).allows('evil.example')).toBe(true);
  });

  it('JSON media types only, parameters ignored', () => {
    for (const t of ['application/json', 'application/json; charset=utf-8', 'Application/JSON', 'application/json-rpc']) expect(isJsonContentType(t)).toBe(true);
    for (const t of [undefined, '', 'text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx']) {
      expect(isJsonContentType(t)).toBe(false);
    }
  });

  it('finds a lone surrogate in nested strings and keys', () => {
    expect(illFormedStringAt('ok \ud83d\ude00')).toBeUndefined();
    expect(illFormedStringAt('\ud800')).toBe('');
    expect(illFormedStringAt({ a: ['x', { b: 'y\udc00' }] })).toBe('/a/1/b');
    expect(illFormedStringAt({ ['k\ud800']: 1 })).toBe('/k\ud800');
    // Deep nesting does not overflow the stack.
    let deep: unknown = 'x\ud800';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(illFormedStringAt(deep)).toMatch(/^(\/0)+$/);
  });
});

describe.each(['direct', 'koa'] as const)('POST / from browsers (hotPath %s)', (hotPath) => {
  let open: Started;
  let cors: Started;
  beforeAll(async () => {
    open = await startServer({ hotPath });
    cors = await startServer({ hotPath, corsOrigins: ['http://wallet.example'] });
  });
  afterAll(async () => {
    await open.server.stop();
    await cors.server.stop();
  });

  it('refuses a body that is not application/json with 415 -32600, without running it', async () => {
    for (const type of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const r = await post(open.url, call('test_record', [`ct ${type}`]), { 'content-type': type });
      expect(r.status).toBe(415);
      expect(r.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request: Content-Type must be application/json' } });
    }
    const none = await rawRequest(open.url, { method: 'POST', body: JSON.stringify(call('test_record', ['no type'])) });
    expect(none.status).toBe(415);
    expect(open.notified).toEqual([]);
    const ok = await post(open.url, call('test_echo', ['x']), { 'content-type': 'application/json; charset=utf-8' });
    expect(ok.json.result).toBe('x');
  });

  it('refuses a cross-origin POST with 403, serves same-origin and Origin-less ones', async () => {
    const cross = await post(open.url, call('test_record', ['cross']), { origin: 'http://evil.example' });
    expect(cross.status).toBe(403);
    expect(cross.json).toMatchObject({ id: null, error: { code: -32600, data: { origin: 'http://evil.example' } } });
    expect(cross.headers.get('access-control-allow-origin')).toBeNull();
    const plain = await post(open.url, call('test_record', ['cross plain']), { origin: 'http://evil.example', 'content-type': 'text/plain' });
    expect(plain.status).toBe(403);
    expect(open.notified).toEqual([]);
    const own = new URL(open.url).origin;
    const same = await post(open.url, call('test_echo', ['same']), { origin: own });
    expect(same.json.result).toBe('same');
    expect(same.headers.get('access-control-allow-origin')).toBeNull();
    expect((await post(open.url, call('test_echo', ['none']))).json.result).toBe('none');
  });

  it('refuses a POST addressed to a host name not in vhosts (DNS rebinding), even same-origin', async () => {
    const port = new URL(open.url).port;
    const rebound = await rawRequest(open.url, {
      method: 'POST',
      headers: { host: `evil.example:${port}`, origin: `http://evil.example:${port}`, 'content-type': 'application/json' },
      body: JSON.stringify(call('test_record', ['rebound'])),
    });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.text)).toMatchObject({ id: null, error: { code: -32600, data: { host: `evil.example:${port}` } } });
    expect(open.notified).toEqual([]);
    const local = await rawRequest(open.url, { method: 'POST', headers: { host: `localhost:${port}`, 'content-type': 'application/json' }, body: JSON.stringify(call('test_echo', ['l'])) });
    expect(JSON.parse(local.text).result).toBe('l');
  });

  it('with --rpc-cors: a listed origin is served with its CORS header, others refused', async () => {
    const listed = await post(cors.url, call('test_echo', ['w']), { origin: 'http://wallet.example' });
    expect(listed.json.result).toBe('w');
    expect(listed.headers.get('access-control-allow-origin')).toBe('http://wallet.example');
    expect(listed.headers.get('vary')).toMatch(/Origin/);
    expect((await post(cors.url, call('test_echo', ['e']), { origin: 'http://evil.example' })).status).toBe(403);
    // Listed, but a simple (no-preflight) type is still refused.
    expect((await post(cors.url, call('test_echo', ['t']), { origin: 'http://wallet.example', 'content-type': 'text/plain' })).status).toBe(415);
  });

  it('answers preflights: allow headers for a listed origin, 403 otherwise, none by default', async () => {
    const preflight = (url: string, origin: string, method = 'POST') =>
      rawRequest(url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'content-type' } });
    const ok = await preflight(cors.url, 'http://wallet.example');
    expect(ok.status).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe('http://wallet.example');
    expect(ok.headers['access-control-allow-methods']).toMatch(/POST/);
    expect(String(ok.headers['access-control-allow-headers']).toLowerCase()).toContain('content-type');
    expect(ok.headers['access-control-max-age']).toBe('600');
    for (const r of [await preflight(cors.url, 'http://evil.example'), await preflight(cors.url, 'http://wallet.example', 'DELETE'), await preflight(open.url, 'http://wallet.example')]) {
      expect(r.status).toBe(403);
      expect(r.headers['access-control-allow-origin']).toBeUndefined();
    }
  });
});

describe('WebSocket origins', () => {
  const started: Started[] = [];
  afterEach(async () => {
    for (const s of started.splice(0)) await s.server.stop();
  });

  it('refuses a cross-origin page by default; same-origin and Origin-less clients connect', async () => {
    const s = await startServer();
    started.push(s);
    expect(await wsOpen(s.url, 'http://evil.example')).toBe(403);
    expect(await wsOpen(s.url, 'null')).toBe(403);
    expect(await wsOpen(s.url, new URL(s.url).origin)).toBe('open');
    expect(await wsOpen(s.url)).toBe('open');
  });

  it('refuses an upgrade addressed to a host name not in vhosts', async () => {
    const s = await startServer();
    started.push(s);
    const port = new URL(s.url).port;
    const status = await new Promise<number | 'open'>((resolve) => {
      const ws = new WebSocket(s.url.replace('http://', 'ws://'), { headers: { host: `evil.example:${port}` }, origin: `http://evil.example:${port}` });
      ws.once('open', () => {
        ws.terminate();
        resolve('open');
      });
      ws.once('unexpected-response', (_req, res) => {
        resolve(res.statusCode ?? 0);
        ws.terminate();
      });
      ws.once('error', () => {});
    });
    expect(status).toBe(403);
  });

  it('accepts the origins of wsOrigins (and any with *)', async () => {
    const s = await startServer({ wsOrigins: ['http://dapp.example'] });
    const any = await startServer({ wsOrigins: ['*'] });
    started.push(s, any);
    expect(await wsOpen(s.url, 'http://dapp.example')).toBe('open');
    expect(await wsOpen(s.url, 'http://evil.example')).toBe(403);
    expect(await wsOpen(any.url, 'http://evil.example')).toBe('open');
  });
});

/** A raw TCP connection; `closed` resolves with the ms it stayed open and what it received. */
function rawConnection(url: string): { socket: Socket; ready: Promise<void>; closed: Promise<{ ms: number; data: string }> } {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  const t0 = Date.now();
  let data = '';
  socket.on('data', (c: Buffer) => (data += c.toString()));
  socket.on('error', () => {});
  const ready = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const closed = new Promise<{ ms: number; data: string }>((resolve) => socket.once('close', () => resolve({ ms: Date.now() - t0, data })));
  return { socket, ready, closed };
}

describe('connections', () => {
  const started: Started[] = [];
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const s of sockets.splice(0)) s.destroy();
    for (const s of started.splice(0)) await s.server.stop();
  });

  it('closes silent, slow-header, slow-body and idle keep-alive connections', async () => {
    const s = await startServer({ headersTimeoutMs: 300, requestTimeoutMs: 600, keepAliveTimeoutMs: 400 });
    started.push(s);
    const silent = rawConnection(s.url);
    const slowHeader = rawConnection(s.url);
    const slowBody = rawConnection(s.url);
    const idle = rawConnection(s.url);
    sockets.push(silent.socket, slowHeader.socket, slowBody.socket, idle.socket);
    await Promise.all([silent.ready, slowHeader.ready, slowBody.ready, idle.ready]);
    slowHeader.socket.write('POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const headerDrip = setInterval(() => slowHeader.socket.write('X-Drip: 1\r\n'), 50);
    slowBody.socket.write('POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{');
    const bodyDrip = setInterval(() => slowBody.socket.write(' '), 50);
    const body = JSON.stringify(call('test_echo', ['k']));
    idle.socket.write(`POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    try {
      const [a, b, c, d] = await Promise.all([silent.closed, slowHeader.closed, slowBody.closed, idle.closed]);
      expect(a.ms).toBeLessThan(2_000);
      expect(b.data).toMatch(/^HTTP\/1.1 408/);
      expect(b.ms).toBeLessThan(2_000);
      expect(c.data).toMatch(/^HTTP\/1.1 408/);
      expect(c.ms).toBeGreaterThanOrEqual(550);
      expect(c.ms).toBeLessThan(2_500);
      expect(d.data).toContain('"result":"k"');
      expect(d.ms).toBeLessThan(2_000);
    } finally {
      clearInterval(headerDrip);
      clearInterval(bodyDrip);
    }
    expect(s.notified).toEqual([]);
  });

  it('caps open connections per IP (HTTP and WebSocket together) with 503; a slot frees when one closes', async () => {
    const s = await startServer({ maxConnectionsPerIp: 3, limitLoopback: true });
    started.push(s);
    const held = [rawConnection(s.url), rawConnection(s.url)];
    sockets.push(...held.map((h) => h.socket));
    await Promise.all(held.map((h) => h.ready));
    const ws = new WebSocket(s.url.replace('http://', 'ws://'));
    await new Promise((resolve) => ws.once('open', resolve));
    const over = rawConnection(s.url);
    sockets.push(over.socket);
    await over.ready;
    const body = JSON.stringify(call('test_record', ['over the cap']));
    over.socket.write(`POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    const refused = await over.closed;
    expect(refused.data).toMatch(/^HTTP\/1.1 503/);
    expect(refused.data).not.toContain('result');
    expect(s.notified).toEqual([]);
    ws.terminate();
    await new Promise((resolve) => ws.once('close', resolve));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await post(s.url, call('test_echo', ['freed']))).json.result).toBe('freed');
  });
});
