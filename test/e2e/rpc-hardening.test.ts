/**
 * The RPC's browser, connection and input hardening and the P2P bind address against a running
 * node (hardening issue items 4-7; docs/rpc.md "Browsers and origins", "Connections";
 * docs/p2p.md "Sockets"). One node, started with the flags under test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { WebSocket } from 'ws';
import { TestNode, sleep } from './harness.js';
import { systemAddressHex } from './bundles.js';

const WALLET = 'http://wallet.example';
const DAPP = 'http://dapp.example';
const EVIL = 'http://evil.example';
const CAP = 8;

let node: TestNode;

beforeAll(async () => {
  node = await TestNode.start({
    args: [
      '--rpc-cors', WALLET, '--ws-origins', DAPP,
      '--rpc-header-timeout', '1', '--rpc-request-timeout', '2', '--rpc-keep-alive-timeout', '1',
      '--rpc-max-connections-per-ip', String(CAP),
      // Every test client is 127.0.0.1, exempt from per-IP caps by default (docs/rpc.md "Loopback clients").
      '--rpc-limit-loopback',
    ],
  });
}, 30_000);

afterAll(async () => {
  await node?.stop();
});

function httpRequest(method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((resolve, reject) => {
    // agent: false, so no pooled keep-alive socket outlives the call (the cap test counts sockets).
    const req = request(node.url, { method, headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function wsOpen(origin?: string): Promise<number | 'open'> {
  return new Promise((resolve) => {
    const ws = new WebSocket(node.url.replace('http://', 'ws://'), origin === undefined ? {} : { origin });
    ws.once('open', () => {
      ws.close();
      resolve('open');
    });
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.once('error', () => {});
  });
}

function rawConnection(): { socket: Socket; ready: Promise<void>; closed: Promise<{ ms: number; data: string }> } {
  const socket = connect(node.port, '127.0.0.1');
  const t0 = Date.now();
  let data = '';
  socket.on('data', (c: Buffer) => (data += c.toString()));
  socket.on('error', () => {});
  return {
    socket,
    ready: new Promise((resolve) => socket.once('connect', () => resolve())),
    closed: new Promise((resolve) => socket.once('close', () => resolve({ ms: Date.now() - t0, data }))),
  };
}

const transfer = (amount: string) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'svc_transfer', params: [systemAddressHex(2), systemAddressHex(3), 'NTV', amount] });

describe('browsers and origins', () => {
  it('refuses cross-origin and text/plain POSTs without executing them; JSON from no page or its own page is served', async () => {
    const before = await node.result<string>('svc_getBalance', [systemAddressHex(3)]);
    const crossPlain = await httpRequest('POST', { origin: EVIL, 'content-type': 'text/plain' }, transfer('5'));
    expect(crossPlain.status).toBe(403);
    expect(JSON.parse(crossPlain.text)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    const plain = await httpRequest('POST', { 'content-type': 'text/plain;charset=UTF-8' }, transfer('5'));
    expect(plain.status).toBe(415);
    const crossJson = await httpRequest('POST', { origin: EVIL, 'content-type': 'application/json' }, transfer('5'));
    expect(crossJson.status).toBe(403);
    await sleep(1_500);
    expect(await node.result<string>('svc_getBalance', [systemAddressHex(3)])).toBe(before);

    const own = await httpRequest('POST', { origin: `http://127.0.0.1:${node.port}`, 'content-type': 'application/json' }, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'svc_version' }));
    expect(JSON.parse(own.text).result).toBeDefined();
    expect((await node.call('svc_version')).result).toBeDefined();
    const page = await httpRequest('GET', { accept: 'text/html' });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
  });

  it('--rpc-cors: preflight and reply headers for the listed origin only', async () => {
    const preflight = (origin: string) =>
      httpRequest('OPTIONS', { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' });
    const ok = await preflight(WALLET);
    expect(ok.status).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe(WALLET);
    expect(ok.headers['access-control-allow-methods']).toMatch(/POST/);
    const refused = await preflight(EVIL);
    expect(refused.status).toBe(403);
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    const call = await httpRequest('POST', { origin: WALLET, 'content-type': 'application/json' }, JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'svc_version' }));
    expect(call.headers['access-control-allow-origin']).toBe(WALLET);
    expect(JSON.parse(call.text).result).toBeDefined();
  });

  it('--ws-origins: a cross-origin WebSocket is refused unless listed', async () => {
    expect(await wsOpen(EVIL)).toBe(403);
    expect(await wsOpen(DAPP)).toBe('open');
    expect(await wsOpen(`http://127.0.0.1:${node.port}`)).toBe('open');
    expect(await wsOpen()).toBe('open');
  });
});

describe('connections', () => {
  it('closes silent, slow-header and slow-body connections (--rpc-header-timeout 1, --rpc-request-timeout 2)', async () => {
    const silent = rawConnection();
    const slowHeader = rawConnection();
    const slowBody = rawConnection();
    await Promise.all([silent.ready, slowHeader.ready, slowBody.ready]);
    slowHeader.socket.write('POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const headerDrip = setInterval(() => slowHeader.socket.write('X-Drip: 1\r\n'), 200);
    slowBody.socket.write('POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n[');
    const bodyDrip = setInterval(() => slowBody.socket.write(' '), 200);
    try {
      const [a, b, c] = await Promise.all([silent.closed, slowHeader.closed, slowBody.closed]);
      expect(a.ms).toBeLessThan(4_000);
      expect(b.data).toMatch(/^HTTP\/1.1 408/);
      expect(b.ms).toBeLessThan(4_000);
      expect(c.data).toMatch(/^HTTP\/1.1 408/);
      expect(c.ms).toBeGreaterThanOrEqual(1_900);
      expect(c.ms).toBeLessThan(5_000);
    } finally {
      clearInterval(headerDrip);
      clearInterval(bodyDrip);
    }
  });

  it(`caps open connections per IP at --rpc-max-connections-per-ip (${CAP})`, async () => {
    // Let earlier tests' keep-alive sockets expire (--rpc-keep-alive-timeout 1).
    await sleep(1_500);
    const held = Array.from({ length: CAP }, () => rawConnection());
    try {
      await Promise.all(held.map((h) => h.ready));
      const over = rawConnection();
      await over.ready;
      const refused = await over.closed;
      expect(refused.data).toMatch(/^HTTP\/1.1 503/);
    } finally {
      for (const h of held) h.socket.destroy();
    }
    await sleep(100);
    expect((await node.call('svc_version')).result).toBeDefined();
  });
});

describe('lone surrogates', () => {
  it('-32602 naming the param for every free-text string of the token and collection creators', async () => {
    const owner = systemAddressHex(2);
    const doc = await node.result<{ methods: Array<{ name: string; params: Array<{ name: string; schema: { type?: string; pattern?: string } }> }> }>('rpc.discover');
    const base: Record<string, Record<string, unknown>> = {
      svc_createToken: { name: 'Surrogate', symbol: 'SUR', decimals: 6, supply: '1000', owner },
      svc_createNftCollection: { name: 'Surrogate', symbol: 'SUR', base_uri: '', max_supply: '0', royalty_bps: 0, owner },
      svc_createMultiTokenCollection: { name: 'Surrogate', symbol: 'SUR', base_uri: '', royalty_bps: 0, owner },
    };
    let checked = 0;
    for (const [method, params] of Object.entries(base)) {
      const spec = doc.methods.find((m) => m.name === method)!;
      for (const p of spec.params.filter((q) => q.schema.type === 'string' && q.schema.pattern === undefined)) {
        const res = await node.call(method, { ...params, [p.name]: 'ok\ud800' });
        expect(res.error, `${method} ${p.name}`).toMatchObject({ code: -32602, data: { param: p.name } });
        expect(res.error!.message).toContain(`"${p.name}"`);
        checked++;
      }
    }
    expect(checked).toBe(13);
  });
});

/** UDP sockets of a process: inodes of its fds matched against /proc/net/udp and udp6. */
function udpSocketsOf(pid: number): string[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      // fd closed meanwhile
    }
  }
  const found: string[] = [];
  for (const file of ['/proc/net/udp', '/proc/net/udp6']) {
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length > 9 && inodes.has(cols[9]!)) found.push(decodeAddress(cols[1]!));
    }
  }
  return found;
}

/** `0100007F:B62E` → `127.0.0.1:46638`; IPv6 as 32 hex digits. */
function decodeAddress(text: string): string {
  const [hex, port] = text.split(':') as [string, string];
  const portNumber = parseInt(port, 16);
  if (hex.length === 8) return `${[6, 4, 2, 0].map((i) => parseInt(hex.slice(i, i + 2), 16)).join('.')}:${portNumber}`;
  return `[${hex}]:${portNumber}`;
}

describe('p2p bind address', () => {
  it('--p2p-host 127.0.0.1: every UDP socket of the node is bound to 127.0.0.1', () => {
    const sockets = udpSocketsOf(node.pid!);
    expect(sockets.length).toBeGreaterThan(0);
    for (const s of sockets) expect(s).toMatch(/^127\.0\.0\.1:\d+$/);
  });
});
