/**
 * Spec §6 subscriptions under load: notifications per second delivered to 100 WebSocket
 * subscribers (each holding newHeads, newTransactions and an unfiltered logs subscription), and
 * the node's block interval with those subscribers against the same transfer load without them
 * (STYLE.md: a ratio against a baseline of the same run). Goal: ratio within 1 ± 0.05, i.e. the
 * subscriptions do not slow block production.
 *
 * One node (--block-time 0.5, so blocks follow every 0.5 s with or without load); the transfer
 * load is unsigned svc_transfer calls from the genesis account, each waiting for its block, so
 * every block carries a few hundred bundles and each of those is a newTransactions and a logs item.
 */
import WebSocket from 'ws';
import { BenchNode } from './bench-node.js';
import type { BenchResult } from './rpc.js';

const GENESIS = '0x0000000000000000000000000000000000000000000000000000000000000001';

export interface SubscriptionBenchOptions {
  subscribers?: number;
  /** concurrent svc_transfer loops */
  senders?: number;
  seconds?: number;
}

export async function benchSubscriptions(options: SubscriptionBenchOptions = {}): Promise<BenchResult[]> {
  const subscribers = options.subscribers ?? 100;
  const senders = options.senders ?? 150;
  const seconds = options.seconds ?? 15;
  const node = await BenchNode.start(['--block-time', '0.5', '--rpc-rate-limit', '0', '--rpc-max-connections-per-ip', '0']);
  const url = node.url;
  try {
    let loading = true;
    let transfers = 0;
    const recipient = (i: number) => '0x' + (1000 + i).toString(16).padStart(64, '0');
    const load = Array.from({ length: senders }, async (_, i) => {
      while (loading) {
        await rpc(url, 'svc_transfer', [GENESIS, recipient(i), 'NTV', '1']).catch(() => undefined);
        transfers++;
      }
    });
    await sleep(3000); // warm-up: the JIT and the mempool reach their steady state

    const baseline = await blockInterval(url, seconds);

    const clients = await Promise.all(Array.from({ length: subscribers }, () => openClient(url)));
    let delivered = 0;
    for (const c of clients) c.ws.on('message', () => delivered++);
    await Promise.all(clients.map((c) => Promise.all(['svc_subscribe_newHeads', 'svc_subscribe_newTransactions', 'svc_subscribe_logs'].map((m) => c.call(m)))));
    await sleep(1000);
    const deliveredBefore = delivered;
    const transfersBefore = transfers;
    const loaded = await blockInterval(url, seconds);
    const notificationsPerSecond = (delivered - deliveredBefore) / loaded.elapsedSeconds;
    const bundlesPerBlock = (transfers - transfersBefore) / loaded.blocks;

    loading = false;
    for (const c of clients) c.ws.terminate();
    await Promise.race([Promise.all(load), sleep(5000)]);
    return [
      {
        name: `subscriptions: notifications delivered to ${subscribers} subscribers`,
        value: Math.round(notificationsPerSecond),
        unit: 'notifications/s',
        note: `${subscribers} ws clients × (newHeads + newTransactions + logs), ~${Math.round(bundlesPerBlock)} transfers per block`,
      },
      {
        name: 'subscriptions: block interval with subscribers / without',
        value: Math.round((loaded.intervalMs / baseline.intervalMs) * 1000) / 1000,
        unit: 'ratio',
        note: `${loaded.intervalMs.toFixed(0)} ms vs ${baseline.intervalMs.toFixed(0)} ms under the same transfer load, --block-time 0.5; goal 1 ± 0.05`,
      },
    ];
  } finally {
    await node.stop();
  }
}

/** Mean wall-clock time between blocks over a window, from the head height polled over HTTP. */
async function blockInterval(url: string, seconds: number): Promise<{ intervalMs: number; blocks: number; elapsedSeconds: number }> {
  const height = async () => ((await rpc(url, 'svc_getNetworkStats', [])) as { blockHeight: number }).blockHeight;
  // Start and end on a block boundary so partial intervals do not skew a short window.
  const edge = async (): Promise<[number, number]> => {
    const h0 = await height();
    for (;;) {
      const h = await height();
      if (h > h0) return [h, performance.now()];
      await sleep(5);
    }
  };
  const [h1, t1] = await edge();
  await sleep(seconds * 1000);
  const [h2, t2] = await edge();
  return { intervalMs: (t2 - t1) / (h2 - h1), blocks: h2 - h1, elapsedSeconds: (t2 - t1) / 1000 };
}

let nextId = 1;
async function rpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }) });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

function openClient(url: string): Promise<{ ws: WebSocket; call(method: string): Promise<unknown> }> {
  const ws = new WebSocket(url.replace('http', 'ws'));
  const waiting = new Map<number, (v: unknown) => void>();
  ws.on('message', (data) => {
    const text = data.toString();
    // Replies only: notifications are counted by the caller, not parsed here.
    if (!text.includes('"id"')) return;
    const msg = JSON.parse(text) as { id: number; result: unknown };
    waiting.get(msg.id)?.(msg.result);
    waiting.delete(msg.id);
  });
  return new Promise((resolveOpen, reject) => {
    ws.once('error', reject);
    ws.once('open', () => resolveOpen({
      ws,
      call: (method) => new Promise((r) => {
        const id = nextId++;
        waiting.set(id, r);
        ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params: [] }));
      }),
    }));
  });
}


function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

