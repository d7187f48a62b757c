/**
 * Staking events in the explorer (docs/staking.md "Events"; issue 41 item 8), in headless Chromium
 * against a real node: a Stake's transaction page lists its Staked event with the amount and self
 * stake as NTV and the validator linked, and the staker's address page lists the bundle as Staked.
 */
import { expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { explorerEnvironment } from './browser.js';

const SYSTEM_NTV = `0x${'00'.repeat(31)}01`;
const env = explorerEnvironment();

interface Receipt { bundle_hash: string; events: Array<Record<string, unknown>> }

it('shows a Stake\'s Staked event on its transaction page and in the staker\'s history', async () => {
  const alice = await env.node.result<{ address: string }>('svc_generateKeypair');
  await env.node.result('svc_transfer', [SYSTEM_NTV, alice.address, 'NTV', (2000n * 10n ** 9n).toString()]);
  const staked = await env.node.result<Receipt>('svc_stake', [alice.address, (1000n * 10n ** 9n).toString(), randomBytes(32).toString('hex')]);
  expect(staked.events.map((e) => e.type)).toContain('Staked');

  const page = await env.context.newPage();
  await page.goto(`${env.node.url}#/tx/${staked.bundle_hash}`);
  const row = page.locator('[data-testid="tx-events"] tr', { hasText: 'Staked' });
  await row.first().waitFor();
  await row.first().locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
  const text = (await row.first().textContent()) ?? '';
  expect(text).toContain('self stake');
  expect(text).toMatch(/1,?000 NTV/);
  expect(await row.first().locator(`a[href="#/address/${encodeURIComponent(alice.address)}"]`).count()).toBeGreaterThan(0);

  await page.goto(`${env.node.url}#/address/${alice.address}`);
  const history = page.locator('[data-testid="address-history"]');
  await history.waitFor();
  await page.locator('[data-testid="address-history"] tr', { hasText: 'Staked' }).first().waitFor();
  // a node that holds every block says nothing about where its history starts
  expect(await page.locator('[data-testid="history-start"]').count()).toBe(0);
  await page.close();
}, 120_000);
