/**
 * Spec §6 subscriptions against a real node over WebSocket (docs/subscriptions.md): every kind and
 * filter, unsubscribe, refusal over HTTP, the per-connection limit, and the slow-consumer rule
 * (§6.1: 64-block buffer, skip without backfill, the node's block rate unaffected).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { sleep, TestNode } from './harness.js';

const HEAD_FIELDS = ['baseFee', 'bundleCount', 'gasLimit', 'gasUsed', 'hash', 'height', 'parentHash', 'proposer', 'stateRoot', 'timestamp', 'transactionsRoot'];
const TX_FIELDS = ['blockHash', 'blockHeight', 'bundleHash', 'bundleIndex', 'from', 'gasUsed', 'operations', 'timestamp'];
const LOG_FIELDS = ['blockHash', 'blockHeight', 'bundleHash', 'bundleIndex', 'data', 'from', 'opIndex', 'opType', 'timestamp'];

interface Notification { subscription: string; result: Record<string, unknown> }
interface Reply { id: number; result?: unknown; error?: { code: number; message: string; data?: Record<string, unknown> } }

/** A ws JSON-RPC client that keeps every notification per subscription id. */
class WsClient {
  readonly notifications = new Map<string, Array<Record<string, unknown>>>();
  /** every message in arrival order (the slow-consumer test reads the order) */
  readonly log: unknown[] = [];
  readonly #waiting = new Map<number, (reply: Reply) => void>();
  #nextId = 1;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const msg = JSON.parse(data.toString()) as Reply | { method: string; params: Notification } | Reply[];
      this.log.push(msg);
      if (!Array.isArray(msg) && 'method' in msg && msg.method === 'svc_subscription') {
        const list = this.notifications.get(msg.params.subscription) ?? [];
        list.push(msg.params.result);
        this.notifications.set(msg.params.subscription, list);
      } else if (!Array.isArray(msg) && 'id' in msg) {
        this.#waiting.get(msg.id)?.(msg);
        this.#waiting.delete(msg.id);
      }
    });
  }

  static open(node: TestNode): Promise<WsClient> {
    const ws = new WebSocket(node.url.replace('http', 'ws'));
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new WsClient(ws)));
      ws.once('error', reject);
    });
  }

  request(method: string, params: unknown[] = []): Promise<Reply> {
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#waiting.set(id, resolve);
      this.ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  }

  async subscribe(method: string, params: unknown[] = []): Promise<string> {
    const reply = await this.request(method, params);
    if (reply.error) throw new Error(`${method}: ${reply.error.code} ${reply.error.message}`);
    return reply.result as string;
  }

  of(id: string): Array<Record<string, unknown>> {
    return this.notifications.get(id) ?? [];
  }

  async until(predicate: () => boolean, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error('condition not met in time');
      await sleep(25);
    }
  }

  close(): void {
    this.ws.close();
  }
}

let node: TestNode;

beforeAll(async () => {
  node = await TestNode.start({ args: ['--block-time', '1'] });
});

afterAll(async () => {
  await node?.stop();
});

describe.concurrent('subscriptions (spec §6)', () => {
  it('newHeads: one header per block with exactly the §6 fields, native formats, equal to the stored block', async () => {
    const client = await WsClient.open(node);
    const id = await client.subscribe('svc_subscribe_newHeads');
    expect(id).toMatch(/^0x[0-9a-f]{16}$/);
    await client.until(() => client.of(id).length >= 2);
    const [a, b] = client.of(id) as Array<Record<string, unknown> & { height: number; hash: string }>;
    expect(Object.keys(a!).sort()).toEqual(HEAD_FIELDS);
    expect(b!.height).toBe(a!.height + 1);
    expect(b!.parentHash).toBe(a!.hash);
    expect(a!.hash).toMatch(/^Nxh/);
    expect(a!.proposer).toMatch(/^Nx0/);
    const stored = await node.result<Record<string, unknown>>('svc_getBlockByHeight', [a!.height]);
    for (const field of HEAD_FIELDS) expect(a![field]).toEqual(stored[field]);
    client.close();
  });

  it('newTransactions and logs with opType and address filters', async () => {
    const client = await WsClient.open(node);
    const alice = await node.result<{ address: string }>('svc_generateKeypair');
    const bob = await node.result<{ address: string }>('svc_generateKeypair');
    const txs = await client.subscribe('svc_subscribe_newTransactions');
    const aliceTransfers = await client.subscribe('svc_subscribe_logs', [{ opType: ['Transfer'], address: [alice.address] }]);
    const bobLogs = await client.subscribe('svc_subscribe_logs', [{ address: [bob.address] }]);
    const aliceCreates = await client.subscribe('svc_subscribe_logs', [{ opType: ['CreateToken'], address: [alice.address] }]);
    const everything = await client.subscribe('svc_subscribe_logs', []);

    await node.result('svc_faucet', [alice.address]);
    const transfer = await node.result<{ bundle_hash: string; block_height: number; block_hash: string; index: number }>(
      'svc_transfer', [alice.address, bob.address, 'NTV', '1500000000'],
    );
    const created = await node.result<{ bundle_hash: string; created: { mint: string } }>(
      'svc_createToken', ['Sub Test', `SUB${Date.now() % 100000}`, 6, '1000', alice.address],
    );
    await client.until(() => client.of(aliceCreates).length >= 1 && client.of(txs).some((t) => t.bundleHash === created.bundle_hash));

    const tx = client.of(txs).find((t) => t.bundleHash === transfer.bundle_hash)!;
    expect(Object.keys(tx).sort()).toEqual(TX_FIELDS);
    expect(tx).toMatchObject({
      blockHeight: transfer.block_height, blockHash: transfer.block_hash, bundleIndex: transfer.index, from: alice.address, operations: ['Transfer'],
    });

    const logs = client.of(aliceTransfers);
    expect(logs).toHaveLength(1);
    expect(Object.keys(logs[0]!).sort()).toEqual(LOG_FIELDS);
    const ntv = await node.result<{ mint_address: string }>('svc_getTokenInfo', ['NTV']);
    expect(logs[0]).toMatchObject({
      bundleHash: transfer.bundle_hash, opIndex: 0, opType: 'Transfer', from: alice.address,
      data: { to: bob.address, token: ntv.mint_address, amount: '1500000000' },
    });
    // bob only received: the sender filter never matches him; the CreateToken filter saw only the creation.
    expect(client.of(bobLogs)).toHaveLength(0);
    expect(client.of(aliceCreates).map((l) => [l.opType, l.bundleHash])).toEqual([['CreateToken', created.bundle_hash]]);
    // The unfiltered subscription saw the faucet's transfer (from the rewards account) as well.
    expect(client.of(everything).some((l) => l.opType === 'Transfer' && l.from !== alice.address && (l.data as { to: string }).to === alice.address)).toBe(true);
    client.close();
  });

  it('unsubscribe stops delivery; an unknown id, another kind or another connection gets false', async () => {
    const client = await WsClient.open(node);
    const other = await WsClient.open(node);
    const id = await client.subscribe('svc_subscribe_newHeads');
    await client.until(() => client.of(id).length >= 1);
    expect((await other.request('svc_unsubscribe_newHeads', [id])).result).toBe(false);
    expect((await client.request('svc_unsubscribe_logs', [id])).result).toBe(false);
    expect((await client.request('svc_unsubscribe_newHeads', [id])).result).toBe(true);
    expect((await client.request('svc_unsubscribe_newHeads', [id])).result).toBe(false);
    const count = client.of(id).length;
    await sleep(2_500);
    expect(client.of(id).length).toBe(count);
    client.close();
    other.close();
  });

  it('refuses subscription methods over HTTP with TRANSPORT_UNSUPPORTED', async () => {
    for (const [method, params] of [
      ['svc_subscribe_newHeads', []], ['svc_subscribe_newTransactions', []], ['svc_subscribe_logs', [{}]], ['svc_unsubscribe_logs', ['0x0000000000000001']],
    ] as const) {
      const res = await node.call(method, [...params]);
      expect(res.error?.code, method).toBe(-32014);
    }
  });

  it('limits subscriptions per connection and the size of a filter (LIMIT_EXCEEDED)', async () => {
    const client = await WsClient.open(node);
    const ids = await Promise.all(Array.from({ length: 32 }, () => client.subscribe('svc_subscribe_newHeads')));
    expect(new Set(ids).size).toBe(32);
    const over = await client.request('svc_subscribe_logs', [{ opType: ['Transfer'] }]);
    expect(over.error).toMatchObject({ code: -32015, data: { limit: 32 } });
    expect((await client.request('svc_unsubscribe_newHeads', [ids[0]])).result).toBe(true);
    await client.subscribe('svc_subscribe_newTransactions');
    client.close();

    const fresh = await WsClient.open(node);
    const tooMany = await fresh.request('svc_subscribe_logs', [{ opType: Array.from({ length: 65 }, (_, i) => `Op${i}`) }]);
    expect(tooMany.error).toMatchObject({ code: -32015, data: { limit: 64, got: 65 } });
    const badAddress = await fresh.request('svc_subscribe_logs', [{ address: ['not-an-address'] }]);
    expect(badAddress.error?.code).toBe(-32602);
    fresh.close();
  });

  it('lists every subscription method in rpc.discover', async () => {
    const doc = await node.result<{ methods: Array<{ name: string }> }>('rpc.discover');
    const names = doc.methods.map((m) => m.name);
    for (const kind of ['newHeads', 'newTransactions', 'logs']) {
      expect(names).toContain(`svc_subscribe_${kind}`);
      expect(names).toContain(`svc_unsubscribe_${kind}`);
    }
  });

  it('slow consumer: the node keeps its block rate; the client later gets at most the newest 64 blocks', async () => {
    // Blocks every 0.5 s so that more than 64 blocks pass within the test's time.
    const fast = await TestNode.start({ args: ['--block-time', '0.5'] });
    try {
      const client = await WsClient.open(fast);
      const id = await client.subscribe('svc_subscribe_newHeads');
      await client.until(() => client.of(id).length >= 2);
      // Stop reading, then fill the transport: one batch whose reply (tens of MiB of OpenRPC
      // documents) fills the OS socket buffers and the server's send buffer past its bound, so
      // RpcConnection.send refuses and the hub's 64-block buffer is what holds the heads.
      (client.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
      const discoverBytes = JSON.stringify(await fast.result('rpc.discover')).length;
      const copies = Math.min(1000, Math.ceil((24 * 1024 * 1024) / discoverBytes));
      client.ws.send(JSON.stringify(Array.from({ length: copies }, (_, i) => ({ jsonrpc: '2.0', id: 10_000 + i, method: 'rpc.discover' }))));

      const startHeight = (await fast.result<{ blockHeight: number }>('svc_getNetworkStats')).blockHeight;
      const startedAt = Date.now();
      const skipBlocks = 76;
      await fast.waitForHeight(startHeight + skipBlocks, 60_000);
      const seconds = (Date.now() - startedAt) / 1000;
      // Same rate as an idle node with nobody subscribed: 2 blocks/s (0.5 s), within 15 %.
      expect(skipBlocks / seconds).toBeGreaterThan(2 / 1.15);
      const resumeHeight = (await fast.result<{ blockHeight: number }>('svc_getNetworkStats')).blockHeight;

      (client.ws as unknown as { _socket: { resume(): void } })._socket.resume();
      await client.until(() => client.of(id).some((h) => (h.height as number) >= resumeHeight + 1), 30_000);

      const batchAt = client.log.findIndex((m) => Array.isArray(m));
      expect(batchAt).toBeGreaterThan(0);
      const heightsOf = (messages: unknown[]) => messages
        .filter((m): m is { method: string; params: Notification } => !Array.isArray(m) && (m as { method?: string }).method === 'svc_subscription')
        .map((m) => m.params.result.height as number);
      const before = heightsOf(client.log.slice(0, batchAt));
      const after = heightsOf(client.log.slice(batchAt + 1));
      // Skipped: a gap between what the transport carried and what the hub kept, no backfill.
      expect(after[0]!).toBeGreaterThan(before.at(-1)! + 1);
      // The newest ones: the kept window ends at the head of the resume and starts within 64 of it.
      expect(after[0]!).toBeGreaterThanOrEqual(resumeHeight - 64);
      expect(after.filter((h) => h <= resumeHeight).length).toBeLessThanOrEqual(64);
      // In order and without holes from there on.
      after.forEach((h, i) => expect(h).toBe(after[0]! + i));
      client.close();
    } finally {
      await fast.stop();
    }
  }, 120_000);
});
