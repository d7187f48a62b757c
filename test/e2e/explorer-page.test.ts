/**
 * The explorer page (issue 6) in headless Chromium against a real node: served on GET / with its
 * assets, a new block appears live (newHeads subscription), and searching an address shows its
 * balance; an EVM wallet's ERC-20 transfer opens on `/tx/<evm hash>` with its amount in the token's
 * decimals; the home page fits a 390 px phone. Screenshots go to the directory $EXPLORER_SCREENSHOTS
 * when set (`EXPLORER_SCREENSHOTS=docs` refreshes the README's explorer.png, explorer-tx.png and
 * explorer-phone.png), else to the temp dir, so a test run never changes tracked files.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createWalletClient, defineChain, erc20Abi, http, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { sleep, TestNode } from './harness.js';
import { launchChromium } from './browser.js';

const shot = (name: string) => (process.env.EXPLORER_SCREENSHOTS ? join(process.env.EXPLORER_SCREENSHOTS, name) : join(tmpdir(), `ntv-${name}`));


let node: TestNode;
let context: BrowserContext;
let closeBrowser: (() => Promise<void>) | undefined;

beforeAll(async () => {
  node = await TestNode.start({ args: ['--block-time', '1'] });
  ({ context, close: closeBrowser } = await launchChromium());
});

afterAll(async () => {
  await closeBrowser?.();
  await node?.stop();
});

it('serves the page and its hashed assets with content types and caching', async () => {
  const page = await fetch(node.url);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(page.headers.get('cache-control')).toBe('no-cache');
  const html = await page.text();
  const script = /src="(\/assets\/main-[A-Z0-9]+\.js)"/.exec(html)?.[1];
  expect(script).toBeDefined();
  const asset = await fetch(new URL(script!, node.url));
  expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect(asset.headers.get('cache-control')).toContain('immutable');
  const again = await fetch(new URL(script!, node.url), { headers: { 'if-none-match': asset.headers.get('etag')! } });
  expect(again.status).toBe(304);
  expect((await fetch(new URL('/assets/../../package.json', node.url))).status).toBe(404);
  // POST / is still the JSON-RPC endpoint.
  expect((await node.call('svc_version')).result).toBeDefined();
});

it('shows new blocks live, finds an address by search and shows its balance', async () => {
  const account = await node.result<{ address: string }>('svc_generateKeypair');
  await node.result('svc_faucet', [account.address]);
  const browserPage = await context.newPage();
  const failedRequests: string[] = [];
  browserPage.on('requestfailed', (r) => failedRequests.push(r.url()));
  await browserPage.goto(node.url);

  const rows = browserPage.locator('[data-testid="latest-blocks"] tbody tr');
  await rows.first().waitFor();
  const firstHeight = Number(await rows.first().getAttribute('data-height'));
  // A block produced after the page loaded arrives over the newHeads subscription.
  await browserPage.locator(`[data-testid="latest-blocks"] tr[data-height="${firstHeight + 1}"]`).waitFor({ timeout: 10_000 });
  await browserPage.locator('[data-testid="latest-transactions"]').waitFor({ timeout: 10_000 }).catch(() => undefined);
  await browserPage.screenshot({ path: shot('explorer.png') });

  await browserPage.fill('input[name="q"]', account.address);
  await browserPage.press('input[name="q"]', 'Enter');
  const balance = browserPage.locator('[data-testid="account-balance"]');
  await balance.waitFor();
  expect(await balance.textContent()).toBe('100 NTV');
  expect(browserPage.url()).toContain(`#/address/${account.address}`);
  // Only the node's own origin is contacted (no CDN).
  expect(failedRequests).toEqual([]);
  await browserPage.close();
});

it('finds an NFT collection by search and shows its record; the holder\'s address page lists the NFT', async () => {
  const owner = await node.result<{ address: string }>('svc_generateKeypair');
  await node.result('svc_faucet', [owner.address]);
  const created = await node.result<{ created: { collection: string } }>('svc_createNftCollection', ['Harbour Lights', 'HBR', 'ipfs://hbr/', 0, 0, owner.address]);
  await node.result('svc_mintNft', [created.created.collection, 42, '', owner.address, owner.address]);
  const browserPage = await context.newPage();
  await browserPage.goto(node.url);
  await browserPage.fill('input[name="q"]', created.created.collection);
  await browserPage.press('input[name="q"]', 'Enter');
  await browserPage.locator('h2', { hasText: 'Harbour Lights (HBR)' }).waitFor();
  expect(browserPage.url()).toContain(`#/collection/${created.created.collection}`);
  expect(await browserPage.locator('main').textContent()).toContain('ERC-721');
  await browserPage.goto(`${node.url}#/address/${owner.address}`);
  const nfts = browserPage.locator('[data-testid="address-nfts"]');
  await nfts.waitFor();
  expect(await nfts.textContent()).toContain('ipfs://hbr/42');
  await browserPage.close();
});

it('lists presales and staking pools and shows their pages with amounts in their tokens\' decimals', async () => {
  const owner = await node.result<{ address: string }>('svc_generateKeypair');
  await node.result('svc_transfer', [`0x${'00'.repeat(31)}07`, owner.address, 'NTV', '1000000000000']); // the presale escrows the 100 NTV pool fee
  await node.result('svc_createToken', ['Lantern', 'LTRN', 9, '1000000000000000', owner.address]);
  const now = (await node.result<Array<{ timestamp: number }>>('svc_getRecentBlocks', [1]))[0]!.timestamp;
  const presale = await node.result<{ created: { presale: string } }>('svc_createPresale', ['LTRN', 'NTV', '2000000000', '10000000000', '30000000000',
    '1000000000', '20000000000', now, now + 3600, 5000, 86_400, owner.address]);
  await node.result('svc_contributePresale', [presale.created.presale, '2500000000', owner.address]);
  const pool = await node.result<{ created: { staking_pool: string } }>('svc_createStakingPool', ['LTRN', 'NTV', '1500000000', 60, '0', '0', owner.address]);
  const browserPage = await context.newPage();
  await browserPage.goto(`${node.url}#/presales`);
  await browserPage.locator('[data-testid="presales"] a', { hasText: 'LTRN for NTV' }).click();
  await browserPage.locator('[data-testid="presale-status"]', { hasText: 'active' }).waitFor();
  expect(browserPage.url()).toContain(`#/presale/${presale.created.presale}`);
  expect(await browserPage.locator('[data-testid="presale-raised"]').textContent()).toBe('2.5 NTV');
  // the rows render once the contributions and the sale token's decimals have loaded
  await browserPage.locator('[data-testid="presale-contributions"]', { hasText: '5 LTRN' }).waitFor();
  await browserPage.goto(`${node.url}#/staking-pools`);
  await browserPage.locator('[data-testid="staking-pools"] a').first().click();
  await browserPage.locator('h2', { hasText: 'Staking pool: stake LTRN, earn NTV' }).waitFor();
  expect(browserPage.url()).toContain(`#/staking-pool/${pool.created.staking_pool}`);
  expect(await browserPage.locator('[data-testid="staking-pool-reward_rate"]').textContent()).toBe('1.5 NTV');
  await browserPage.close();
});

it('opens an EVM wallet\'s ERC-20 transfer on /tx/<evm hash> and shows its amount with the token\'s decimals', async () => {
  const account = privateKeyToAccount(generatePrivateKey());
  await node.result('svc_transfer', [`0x${'00'.repeat(31)}01`, account.address, 'NTV', '1000000000']);
  await node.result('svc_transfer', [`0x${'00'.repeat(31)}07`, account.address, 'USDC', '5000000']);
  const usdc = await node.result<{ evm_address: Hex }>('svc_getTokenInfo', ['USDC']);
  const chain = defineChain({ id: 1618032, name: 'ntv', nativeCurrency: { name: 'NTV', symbol: 'NTV', decimals: 18 }, rpcUrls: { default: { http: [node.url] } } });
  const wallet = createWalletClient({ account, chain, transport: http(node.url) });
  const to = privateKeyToAccount(generatePrivateKey()).address;
  const hash = await wallet.writeContract({ address: usdc.evm_address, abi: erc20Abi, functionName: 'transfer', args: [to, 1_500_000n] });
  for (let i = 0; i < 100 && (await node.result<{ type: string }>('svc_search', [hash])).type !== 'transaction'; i++) await sleep(200);

  // The link MetaMask's "View on block explorer" builds from the explorer URL.
  const browserPage = await context.newPage();
  await browserPage.goto(`${node.url}tx/${hash}`);
  // The amount shows a placeholder until the token's record arrives, then its decimals and symbol: wait for the latter.
  const amount = browserPage.locator('[data-testid="transfer-amount"]', { hasText: 'USDC' });
  await amount.waitFor();
  expect(await amount.textContent()).toBe('1.5 USDC'); // 1,500,000 raw units, 6 decimals
  expect(await browserPage.locator('[data-testid="tx-evm-hash"]').textContent()).toBe(hash);
  expect(browserPage.url()).toBe(`${node.url}#/tx/${hash}`);
  await browserPage.screenshot({ path: shot('explorer-tx.png') });

  // The sender's page: the history row says OUT 1.5 USDC to the recipient; the EVM form is beside the native one.
  await browserPage.goto(`${node.url}address/${account.address}`);
  const move = browserPage.locator('[data-testid="history-move"]', { hasText: 'USDC' }).first();
  await move.waitFor();
  expect(await move.textContent()).toMatch(/^OUT 1\.5 USDC to 0x[0-9a-f]{7}…/); // an EVM recipient by its 0x address (issue 42 item 10)
  expect(await browserPage.locator('[data-testid="account-evm"]').textContent()).toBe(account.address.toLowerCase());

  // MetaMask's token link: /token/<ERC-20 address>.
  await browserPage.goto(`${node.url}token/${usdc.evm_address}`);
  await browserPage.locator('[data-testid="token-evm"]').waitFor();
  expect(await browserPage.locator('h2').first().textContent()).toContain('(USDC)');
  await browserPage.close();
}, 40_000);

it('fits the home page into a 390 px phone viewport without horizontal scrolling', async () => {
  const browserPage = await context.newPage();
  await browserPage.setViewportSize({ width: 390, height: 844 });
  await browserPage.goto(node.url);
  await browserPage.locator('[data-testid="latest-blocks"] tbody tr').first().waitFor();
  await browserPage.locator('[data-testid="latest-transactions"]').waitFor({ timeout: 10_000 });
  const widths = await browserPage.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(widths.client).toBe(390);
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
  await browserPage.screenshot({ path: shot('explorer-phone.png'), fullPage: true });
  await browserPage.close();
});
