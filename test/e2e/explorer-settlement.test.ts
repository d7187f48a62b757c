/**
 * The explorer's settlement pages and the address page's passport and anchors (issue 23 item 6) in
 * headless Chromium against a real node: a settled order shows in #/settlements with the stats and
 * its market maker, opens on #/order/<id>, and the creator's address page shows its passport and
 * anchors.
 */
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium } from './browser.js';
import { systemAddressHex } from './bundles.js';
import { TestNode } from './harness.js';

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

it('shows settlements, an order, and an address\'s passport and anchors', async () => {
  const system = systemAddressHex(7);
  const maker = await node.result<{ address: string }>('svc_generateKeypair');
  const creator = await node.result<{ address: string }>('svc_generateKeypair');
  await node.result('svc_transfer', [system, maker.address, 'NTV', (20_000n * 10n ** 9n).toString()]);
  await node.result('svc_transfer', [system, creator.address, 'NTV', (10n ** 10n).toString()]);
  await node.result('svc_transfer', [system, creator.address, 'USDC', '3000000']);
  await node.result('svc_registerMarketMaker', [1, maker.address]);
  const { order_id } = await node.result<{ order_id: string }>('svc_createAtomenceOrder', ['USDC', '1500000', 'NTV', '3000000000', Math.floor(Date.now() / 1000) + 600, creator.address]);
  await node.result('svc_matchAtomenceOrder', [order_id, '3000000000', '3010000000', maker.address]);
  await node.result('svc_settleAtomenceOrder', [order_id, creator.address]);
  await node.result('svc_createPassport', ['Harbour_Pilot', creator.address]);
  await node.result('svc_anchor', ['harbour.logs', 'day-1', '0x' + '5a'.repeat(32), creator.address]);

  const page = await context.newPage();
  await page.goto(`${node.url}#/settlements`);
  const stats = page.locator('[data-testid="settlement-stats"]');
  await stats.waitFor();
  expect(await stats.textContent()).toContain('Settlements1');
  const makers = page.locator('[data-testid="market-makers"]');
  await makers.waitFor();
  expect(await makers.textContent()).toContain('10,000');
  const rows = page.locator('[data-testid="settlements"] tbody tr');
  await rows.first().waitFor();
  // The row can render before the tokens' symbols and decimals arrive (a placeholder until then).
  await expect.poll(() => rows.first().textContent(), { timeout: 15_000 }).toContain('1.5 USDC');
  expect(await rows.first().textContent()).toContain('3 NTV');
  await rows.first().locator('a').first().click();
  const order = page.locator('[data-testid="order"]');
  await order.waitFor();
  expect(await order.textContent()).toContain('settled');
  expect(page.url()).toContain('#/order/');

  await page.goto(`${node.url}#/address/${creator.address}`);
  const passport = page.locator('[data-testid="address-passport"]');
  await passport.waitFor();
  expect(await passport.textContent()).toContain('Harbour_Pilot');
  const anchors = page.locator('[data-testid="address-anchors"]');
  await anchors.waitFor();
  expect(await anchors.textContent()).toContain('harbour.logs');
  expect(await anchors.textContent()).toContain('day-1');
  await page.close();
}, 60_000);
