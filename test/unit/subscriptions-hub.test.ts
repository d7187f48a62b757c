/**
 * SubscriptionHub rules that an e2e run cannot drive quickly or at all: the 64-block buffer over
 * hundreds of blocks (spec §6.1) and the pause during initial sync (§6.2).
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { ProducedBlock } from '../../src/chain/producer.js';
import type { RpcConnection } from '../../src/rpc/registry.js';
import { SubscriptionHub } from '../../src/rpc/subscriptions.js';

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

function connection(): RpcConnection & { open: boolean; heights: number[] } {
  const c = {
    id: Math.floor(Math.random() * 1e9), open: true, heights: [] as number[],
    send(message: unknown): boolean {
      if (!c.open) return false;
      c.heights.push((message as { params: { result: { height: number } } }).params.result.height);
      return true;
    },
    onClose(): void {},
  };
  return c;
}

const turn = () => new Promise((r) => setImmediate(r));

describe('SubscriptionHub', () => {
  it('keeps the newest 64 blocks for a connection that cannot take them, then delivers live ones', async () => {
    const chain = new FakeChain();
    const hub = new SubscriptionHub(chain, { retryIntervalMs: 5 });
    const conn = connection();
    hub.subscribe('newHeads', conn);
    await turn();
    chain.produce(1);
    await turn();
    expect(conn.heights).toEqual([1]);
    conn.open = false;
    for (let h = 2; h <= 300; h++) {
      chain.produce(h);
      await turn();
    }
    conn.open = true;
    // Delivery runs in slices with rests between them (docs/subscriptions.md "Fan-out"): wait for it.
    for (let i = 0; i < 500 && conn.heights.length < 65; i++) await new Promise((r) => setTimeout(r, 10));
    expect(conn.heights).toEqual([1, ...Array.from({ length: 64 }, (_, i) => 237 + i)]);
    chain.produce(301);
    await turn();
    expect(conn.heights.at(-1)).toBe(301);
    hub.close();
  });

  it('is silent for blocks applied while the chain is syncing, with no replay afterwards', async () => {
    const chain = new FakeChain();
    const hub = new SubscriptionHub(chain);
    const conn = connection();
    hub.subscribe('newHeads', conn);
    await turn();
    chain.syncing = true;
    for (let h = 1; h <= 5; h++) chain.produce(h);
    await turn();
    expect(conn.heights).toEqual([]);
    chain.syncing = false;
    chain.produce(6);
    await turn();
    expect(conn.heights).toEqual([6]);
    hub.close();
  });
});

describe('eth_subscribe("syncing") (docs/eth.md "Events")', () => {
  it('sends {syncing: true, status} when a sync starts and false when it ends, once each', async () => {
    const chain = new FakeChain();
    const hub = new SubscriptionHub(chain);
    const items: unknown[] = [];
    const conn: RpcConnection = { id: 1, send: (m: unknown) => (items.push((m as { params: { result: unknown } }).params.result), true), onClose() {} };
    hub.subscribe('ethSyncing', conn);
    await turn();
    chain.produce(1); // not syncing, no change: nothing
    await turn();
    chain.syncing = true;
    for (let h = 2; h <= 4; h++) chain.produce(h);
    await turn();
    chain.syncing = false;
    chain.produce(5);
    chain.produce(6);
    await turn();
    expect(items).toEqual([{ syncing: true, status: { startingBlock: '0x2', currentBlock: '0x2', highestBlock: '0x2' } }, false]);
    hub.close();
  });
});
