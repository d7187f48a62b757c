/**
 * eth_* polling filters (src/rpc/eth-filters.ts, docs/eth.md "Events"): expiry of unpolled filters
 * (geth: 5 minutes) and the per-address bound, which an e2e run cannot wait for; and that a filter
 * is a subscription of the one hub, receiving the blocks its newHeads kind produces.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { ProducedBlock } from '../../src/chain/producer.js';
import { FilterRegistry } from '../../src/rpc/eth-filters.js';
import { SubscriptionHub } from '../../src/rpc/subscriptions.js';

class FakeChain extends EventEmitter<{ block: [ProducedBlock]; admitted: [never] }> {
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

const turn = () => new Promise((r) => setImmediate(r));

describe('FilterRegistry', () => {
  it('collects block hashes between polls through the hub and forgets a filter unpolled for the timeout', async () => {
    const chain = new FakeChain();
    const hub = new SubscriptionHub(chain);
    const filters = new FilterRegistry(hub, { timeoutMs: 60_000 });
    const id = filters.install('block', '127.0.0.1', { map: (head) => (head as { hash: string }).hash });
    await turn();
    chain.produce(5);
    chain.produce(6);
    await turn();
    await turn();
    expect(filters.changes(id)).toEqual([`0x${'05'.repeat(32)}`, `0x${'06'.repeat(32)}`]);
    expect(filters.changes(id)).toEqual([]);
    expect(hub.counts().ethNewHeads).toBe(1);
    // A poll resets the clock; 60 s without one removes the filter and its hub subscription.
    expect(filters.expire(Date.now() + 59_000)).toBe(0);
    expect(filters.expire(Date.now() + 60_001)).toBe(1);
    expect(hub.counts().ethNewHeads).toBe(0);
    expect(() => filters.changes(id)).toThrow(/filter not found/);
    filters.close();
    hub.close();
  });

  it('bounds filters per address and frees the slot on uninstall', () => {
    const hub = new SubscriptionHub(new FakeChain());
    const filters = new FilterRegistry(hub, { maxPerIp: 2 });
    const a = filters.install('pendingTransaction', '10.0.0.1');
    filters.install('pendingTransaction', '10.0.0.1');
    expect(() => filters.install('block', '10.0.0.1')).toThrow(/2 filters/);
    filters.install('block', '10.0.0.2'); // another address has its own bound
    expect(filters.uninstall(a)).toBe(true);
    expect(filters.uninstall(a)).toBe(false);
    filters.install('block', '10.0.0.1');
    expect(filters.size).toBe(3);
    filters.close();
    expect(hub.size).toBe(0);
    hub.close();
  });
});
