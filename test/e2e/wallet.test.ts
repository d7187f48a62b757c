import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet } from '../../src/client/index.js';
import { TestNode } from './harness.js';

const NTV = 1_000_000_000n;
let node: TestNode;

beforeAll(async () => {
  node = await TestNode.start({ args: ['--block-time', '1'] });
});

afterAll(async () => {
  await node?.stop();
});

interface Receipt { status: string; events: Array<{ type: string }>; created?: { mint?: string } }

describe('the client library on the signed path', () => {
  it('Ed25519 wallet: reveals its key, transfers, creates a token and reads balances', async () => {
    const wallet = Wallet.generate(node.url);
    const friend = Wallet.generate(node.url);
    await node.result('svc_faucet', [wallet.address]);
    expect(await wallet.getBalance()).toBe(100n * NTV);

    const first = await wallet.transfer(friend.address, 'NTV', 3n * NTV);
    expect((first.receipt as Receipt).status).toBe('success');
    expect((first.receipt as Receipt).events.map((e) => e.type)).toContain('KeyRegistered');
    // Concurrent sends from one wallet reserve distinct nonces.
    const results = await Promise.all([1n, 2n, 3n].map((n) => wallet.transfer(friend.address, 'NTV', n)));
    expect(results.every((r) => (r.receipt as Receipt).status === 'success')).toBe(true);
    expect(await friend.getBalance()).toBe(3n * NTV + 6n);

    const token = await wallet.createToken({ name: 'Wallet Token', symbol: 'WLT', decimals: 2, supply: 50_000n });
    const mint = (token.receipt as Receipt).created?.mint;
    expect(mint).toMatch(/^Nx1/);
    await wallet.transfer(friend.address, 'WLT', 1_234n);
    expect(await friend.getBalance('WLT')).toBe(1_234n);
    expect(await wallet.getBalance(mint!)).toBe(50_000n - 1_234n);
    expect((await wallet.getAccount()).nonce).toBe(6n);
  });

  it('ML-DSA-65 wallet: a post-quantum key signs and reveals like an Ed25519 one', async () => {
    const wallet = Wallet.generate(node.url, 'ML-DSA-65');
    const friend = Wallet.generate(node.url);
    await node.result('svc_faucet', [wallet.address]);
    const sent = await wallet.transfer(friend.address, 'NTV', NTV);
    expect((sent.receipt as Receipt).status).toBe('success');
    const again = await wallet.transfer(friend.address, 'NTV', NTV);
    expect((again.receipt as Receipt).status).toBe('success');
    expect(await friend.getBalance()).toBe(2n * NTV);
    const account = await node.result<{ keys: Array<{ key_type: string }> }>('svc_getAccount', [wallet.address]);
    expect(account.keys).toEqual([expect.objectContaining({ key_type: 'ML-DSA-65' })]);
  });
});
