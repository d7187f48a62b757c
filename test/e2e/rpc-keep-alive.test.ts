import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import { Signer } from '../../src/codec/keys.js';
import { TestNode, sleep } from './harness.js';
import { bundleFor, signedHex, systemAddressHex, transferOp } from './bundles.js';

/**
 * Idle HTTP keep-alive connections (docs/rpc.md "Limits", `--rpc-keep-alive-timeout`). The
 * signed-transfer benchmark funded its accounts with batches waiting for inclusion, signed for 14 s
 * with its event loop busy, then sent its first svc_submitBundle batch on the same pooled
 * connection: the node had closed it after Node's default 5 s idle timeout, and fetch failed with
 * `other side closed`. The connection here is driven by hand so the test sees exactly when the node
 * closes it; fetch would hide that behind a fresh socket.
 */

const NTV = 1_000_000_000n;

interface HttpReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

interface RpcReply {
  id: number;
  result?: { status?: string };
  error?: { code: number; message: string };
}

/** One HTTP/1.1 keep-alive connection to the node. */
class KeepAliveConnection {
  #buffer = Buffer.alloc(0);
  #closed = false;
  #wake: (() => void) | undefined;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.#buffer = Buffer.concat([this.#buffer, chunk]);
      this.#wake?.();
    });
    socket.on('close', () => {
      this.#closed = true;
      this.#wake?.();
    });
    socket.on('error', () => {});
  }

  static open(port: number): Promise<KeepAliveConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.off('error', reject);
        resolve(new KeepAliveConnection(socket));
      });
      socket.once('error', reject);
    });
  }

  /** True once the node has closed the connection. */
  get closed(): boolean {
    return this.#closed;
  }

  /** A JSON-RPC batch on this connection; rejects if the node closes it before the reply is complete. */
  async batch(calls: Array<{ method: string; params: unknown[] }>): Promise<{ http: HttpReply; replies: RpcReply[] }> {
    const http = await this.post(JSON.stringify(calls.map((c, id) => ({ jsonrpc: '2.0', id, method: c.method, params: c.params }))));
    return { http, replies: JSON.parse(http.body) as RpcReply[] };
  }

  async post(body: string): Promise<HttpReply> {
    if (this.#closed) throw new Error('the node closed the connection before the request');
    const payload = Buffer.from(body, 'utf8');
    this.socket.write(
      `POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${payload.length}\r\nConnection: keep-alive\r\n\r\n`,
    );
    this.socket.write(payload);
    for (;;) {
      const reply = this.#takeReply();
      if (reply !== undefined) return reply;
      if (this.#closed) throw new Error('other side closed: the node closed the connection before its reply');
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }

  close(): void {
    this.socket.destroy();
  }

  /** A complete response (the node sends Content-Length) off the front of the buffer. */
  #takeReply(): HttpReply | undefined {
    const end = this.#buffer.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    const [statusLine, ...lines] = this.#buffer.subarray(0, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    if (this.#buffer.length < end + 4 + length) return undefined;
    const body = this.#buffer.subarray(end + 4, end + 4 + length).toString('utf8');
    this.#buffer = this.#buffer.subarray(end + 4 + length);
    return { status: Number(statusLine!.split(' ')[1]), headers, body };
  }
}

describe('idle keep-alive connections, default timeout', () => {
  let node: TestNode;

  beforeAll(async () => {
    node = await TestNode.start({ args: ['--block-time', '1'] });
  });

  afterAll(async () => {
    await node?.stop();
  });

  it('answers a batch sent after a pause longer than 5 s on a connection whose last batch waited for inclusion', async () => {
    const signers = Array.from({ length: 20 }, () => Signer.generate());
    const recipient = Signer.generate().address;
    const connection = await KeepAliveConnection.open(node.port);
    try {
      // Funding as the benchmark does it: a batch of writes, answered once they are in a committed block.
      const funding = await connection.batch(signers.map((s) => ({
        method: 'svc_transfer', params: [systemAddressHex(1), s.address, 'NTV', String(10n * NTV)],
      })));
      expect(funding.http.status).toBe(200);
      expect(funding.replies.map((r) => r.error ?? r.result?.status)).toEqual(signers.map(() => 'success'));

      // The client is away (the benchmark signs with its event loop busy) past Node's default 5 s.
      await sleep(6_000);

      const submitted = await connection.batch(signers.map((s) => ({
        method: 'svc_submitBundle', params: [signedHex(s, bundleFor(s, 0n, [transferOp(recipient, 1n)], { senderPubkey: s.publicKey }))],
      })));
      expect(submitted.http.status).toBe(200);
      expect(submitted.replies.map((r) => r.error ?? r.result?.status)).toEqual(signers.map(() => 'success'));
      expect(submitted.http.headers['keep-alive']).toBe('timeout=120');
    } finally {
      connection.close();
    }
  });
});

describe('idle keep-alive connections, --rpc-keep-alive-timeout', () => {
  let node: TestNode;

  beforeAll(async () => {
    node = await TestNode.start({ args: ['--block-time', '1', '--rpc-keep-alive-timeout', '1'] });
  });

  afterAll(async () => {
    await node?.stop();
  });

  it('advertises the configured timeout and closes a connection idle for longer', async () => {
    const connection = await KeepAliveConnection.open(node.port);
    try {
      const first = await connection.batch([{ method: 'svc_version', params: [] }]);
      expect(first.http.headers['keep-alive']).toBe('timeout=1');
      expect(first.replies[0]!.result).toBeDefined();
      await sleep(2_500);
      expect(connection.closed).toBe(true);
    } finally {
      connection.close();
    }
    // A client that honours the advertised timeout opens a new connection, which is served.
    expect((await node.call('svc_version')).result).toBeDefined();
  });
});
