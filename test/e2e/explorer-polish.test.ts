// Explorer and operator polish of issue 42 item 10 (docs/explorer.md "The page"), in headless
// Chromium against real nodes: EVM-form accounts shown as their 0x address (whichever of viem,
// ethers and web3.js signed the transaction), address history paged
// 25 at a time, the history's amounts in view at 390 px, a pruned transaction said to be pruned,
// /favicon.ico served.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { JsonRpcProvider, Wallet } from 'ethers';
import { createWalletClient, defineChain, http, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { Web3 } from 'web3';
import { launchChromium } from './browser.js';
import { sleep, TestNode } from './harness.js';

const SYSTEM_NTV = `0x${'00'.repeat(31)}01`;
let node: TestNode;
let context: BrowserContext;
let closeBrowser: (() => Promise<void>) | undefined;

beforeAll(async () => {
  node = await TestNode.start({ args: ['--block-time', '1'] });
  ({ context, close: closeBrowser } = await launchChromium());
}, 60_000);

afterAll(async () => {
  await closeBrowser?.();
  await node?.stop();
});

describe('explorer polish', () => {
  it('serves /favicon.ico as an icon', async () => {
    const res = await fetch(new URL('/favicon.ico', node.url));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/x-icon');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.subarray(0, 6)]).toEqual([0, 0, 1, 0, 1, 0]); // ICONDIR: an icon, one image
    expect(bytes.length).toBe(6 + 16 + 40 + 32 * 32 * 4 + 32 * 4);
  });

  it('shows EVM accounts as 0x everywhere, pages the history 25 at a time, and keeps amounts in view at 390 px', async () => {
    const evm = privateKeyToAccount(generatePrivateKey());
    // 30 bundles that pay the EVM account, so its history has a second page
    await Promise.all(Array.from({ length: 30 }, (_, i) => node.result('svc_transfer', [SYSTEM_NTV, evm.address, 'NTV', String(1_000_000 + i)])));
    const chain = defineChain({ id: 1618032, name: 'ntv', nativeCurrency: { name: 'NTV', symbol: 'NTV', decimals: 18 }, rpcUrls: { default: { http: [node.url] } } });
    const wallet = createWalletClient({ account: evm, chain, transport: http(node.url) });
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const hash = await wallet.sendTransaction({ to, value: 1_000_000_000n * 1_000_000_000n / 1000n, gas: 21_000n, maxFeePerGas: 20_000_000_000n, maxPriorityFeePerGas: 0n });
    for (let i = 0; i < 100 && (await node.result<{ type: string }>('svc_search', [hash])).type !== 'transaction'; i++) await sleep(200);
    const native = (await node.result<{ address: string }>('svc_getAccount', [evm.address])).address;

    const page = await context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    // the transaction page names the sender by its 0x address, linked to its page
    await page.goto(`${node.url}tx/${hash}`);
    const from = page.locator('[data-evm="true"]').first();
    await from.waitFor();
    expect(await from.getAttribute('title')).toBe(`${evm.address.toLowerCase()} (${native})`);
    expect(await from.textContent()).toMatch(/^0x[0-9a-f]{7}…[0-9a-f]{6}$/);

    await page.goto(`${node.url}address/${native}`);
    const rows = page.locator('[data-testid="address-history"] tbody tr');
    await page.locator('[data-testid="history-older"]').waitFor();
    expect(await rows.count()).toBe(25);
    // the amounts show "…" (aria-busy) until the token's decimals arrive: wait for them, not a time
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="address-history"] [aria-busy="true"]').length === 0);
    // the newest: OUT to the EVM recipient, named by its 0x form
    expect(await page.locator('[data-testid="history-move"]').first().textContent()).toMatch(/^OUT 0\.001 NTV to 0x[0-9a-f]{7}…/);
    // at 390 px every amount of the page is inside the viewport, and the page does not scroll sideways
    const boxes = await page.locator('[data-testid="history-move"] .amount').evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => ({ left: r.left, right: r.right })));
    expect(boxes.length).toBeGreaterThan(0);
    for (const b of boxes) expect(b.left >= 0 && b.right <= 390, JSON.stringify(b)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // Older: the rest, none twice
    await page.locator('[data-testid="history-older"]').click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="address-history"] tbody tr').length > 25);
    const hashes = await rows.evaluateAll((trs) => trs.map((tr) => tr.querySelector('a')?.getAttribute('title')));
    expect(hashes.length).toBe(31); // 30 payments in, 1 transaction out
    expect(new Set(hashes).size).toBe(31);
    await page.close();
  }, 90_000);

  it('names the sender of an ethers (legacy) and a web3.js (EIP-1559) transaction by its 0x address, as for viem\'s', async () => {
    const send = {
      ethers: async (key: Hex, to: string) => {
        const provider = new JsonRpcProvider(node.url, 1618032, { staticNetwork: true });
        try {
          return (await new Wallet(key, provider).sendTransaction({ to, value: 1_000_000_000n, gasLimit: 21_000n, gasPrice: 20_000_000_000n, type: 0 })).hash;
        } finally {
          provider.destroy();
        }
      },
      web3: async (key: Hex, to: string) => {
        const web3 = new Web3(node.url);
        const from = privateKeyToAccount(key).address;
        const signed = await web3.eth.accounts.signTransaction({ from, to, value: 1_000_000_000n, gas: 21_000, maxFeePerGas: 20_000_000_000n, maxPriorityFeePerGas: 0n, nonce: 0, chainId: 1618032, type: 2 }, key);
        return (await web3.eth.sendSignedTransaction(signed.rawTransaction)).transactionHash as string;
      },
    };
    const page = await context.newPage();
    for (const [library, sendWith] of Object.entries(send)) {
      const key = generatePrivateKey();
      const sender = privateKeyToAccount(key).address;
      await node.result('svc_transfer', [SYSTEM_NTV, sender, 'NTV', '1000000000']);
      const hash = await sendWith(key, privateKeyToAccount(generatePrivateKey()).address);
      for (let i = 0; i < 100 && (await node.result<{ type: string }>('svc_search', [hash])).type !== 'transaction'; i++) await sleep(200);
      const native = (await node.result<{ address: string }>('svc_getAccount', [sender])).address;
      await page.goto(`${node.url}tx/${hash}`);
      const from = page.locator('[data-evm="true"]').first();
      await from.waitFor();
      expect(await from.getAttribute('title'), library).toBe(`${sender.toLowerCase()} (${native})`);
    }
    await page.close();
  }, 60_000);

  it('a transaction in a block the node pruned says so, naming the oldest block kept', async () => {
    const pruning = await TestNode.start({ args: ['--block-time', '0.5', '--pruning', 'aggressive', '--pruning-keep-blocks', '10', '--pruning-every', '5'] });
    try {
      const sent = await pruning.result<{ bundle_hash: string }>('svc_transfer', [SYSTEM_NTV, privateKeyToAccount(generatePrivateKey()).address, 'NTV', '1000']);
      const deadline = Date.now() + 60_000;
      while ((await pruning.result<{ type: string }>('svc_search', [sent.bundle_hash])).type === 'transaction' && Date.now() < deadline) await sleep(250);
      const page = await context.newPage();
      await page.goto(`${pruning.url}#/tx/${sent.bundle_hash}`);
      const message = page.locator('[data-testid="tx-pruned"]');
      await message.waitFor();
      expect(await message.textContent()).toMatch(/it keeps blocks from \d+ on \(it prunes older ones\)/);
      await page.goto(`${pruning.url}#/tx/Nxh${'1'.repeat(43)}`);
      await page.locator('[data-testid="tx-pruned"]').waitFor(); // unknown anywhere: the same, it may be older
      await page.close();
    } finally {
      await pruning.stop();
    }
    const page = await context.newPage();
    await page.goto(`${node.url}#/tx/Nxh${'1'.repeat(43)}`);
    await page.locator('[data-testid="tx-not-found"]').waitFor(); // a node that keeps every block: it does not exist
    await page.close();
  }, 120_000);
});
