/**
 * Staking events in the explorer (docs/staking.md "Events"; issue 41 item 8), in headless Chromium
 * against a real node: a Stake's transaction page lists its Staked event with the amount and self
 * stake as NTV and the validator linked, and the staker's address page lists the bundle as Staked;
 * the transaction page of every other staking operation a lone node can make lists its event with
 * its fields, and the validator's address page lists each bundle by its event; a ClaimRewards's
 * RewardsClaimed shows the amount paid. (UnstakeClaimed needs a matured unbonding, Unjail and
 * ReportDoubleSign a second validator: their receipts and log items are checked over JSON-RPC in
 * staking.test.ts and double-sign.test.ts, and the page draws every event by the same code.)
 */
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
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

/** The text of the `type` row of the transaction page's events, once its amounts have loaded. */
async function eventRow(page: Page, bundleHash: string, type: string): Promise<{ text: string; links: string[] }> {
  await page.goto(`${env.node.url}#/tx/${bundleHash}`);
  const row = page.locator('[data-testid="tx-events"] tr', { hasText: type }).first();
  await row.waitFor();
  await row.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
  const links = await row.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
  return { text: (await row.textContent()) ?? '', links };
}

it('shows every other staking operation\'s event with its fields on its transaction page, and lists it on the validator\'s page', async () => {
  const NTV = 10n ** 9n;
  const val = await env.node.result<{ address: string }>('svc_generateKeypair');
  const del = await env.node.result<{ address: string }>('svc_generateKeypair');
  for (const who of [val, del]) await env.node.result('svc_transfer', [SYSTEM_NTV, who.address, 'NTV', (3000n * NTV).toString()]);
  await env.node.result('svc_stake', [val.address, (1000n * NTV).toString(), randomBytes(32).toString('hex')]);
  const newKey = randomBytes(32).toString('hex');
  // an unbonding's release time (unix seconds in the receipt) as a date, 21 days on
  const DATE = /release time \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/;
  // [event, method, params, what its row must say]
  const operations: Array<[string, string, unknown[], RegExp[]]> = [
    ['Delegated', 'svc_delegate', [val.address, (50n * NTV).toString(), del.address], [/amount 50 NTV/, /delegation 50 NTV/]],
    ['CommissionSet', 'svc_setCommission', [val.address, 1000], [/old commission bps 0/, /commission bps 1000/]],
    ['ValidatorMetadataSet', 'svc_setValidatorMetadata', [val.address, 'Vera', 'explorer test', 'https://vera.example', ''], [/name Vera/, /description explorer test/, /website https:\/\/vera\.example/]],
    ['PoolConfigSet', 'svc_setPoolConfig', [true, 'Vera Pool', (10n * NTV).toString(), false, val.address], [/pool enabled true/, /pool name Vera Pool/, /min delegation 10 NTV/]],
    ['AutoCompoundSet', 'svc_setAutoCompound', [val.address, false, del.address], [/enabled false/]],
    ['Undelegated', 'svc_undelegate', [val.address, (20n * NTV).toString(), del.address], [/amount 20 NTV/, /remaining 30 NTV/, DATE]],
    ['Unstaked', 'svc_unstake', [val.address, (1n * NTV).toString()], [/amount 1 NTV/, /remaining 999 NTV/, DATE]],
    ['ConsensusKeyRotationQueued', 'svc_rotateConsensusKey', [val.address, newKey], [new RegExp(`new consensus key ${newKey}`), /epoch \d+/]],
  ];
  const page = await env.context.newPage();
  for (const [type, method, params, says] of operations) {
    const receipt = await env.node.result<Receipt>(method, params);
    expect(receipt.events.map((e) => e.type), method).toContain(type);
    const row = await eventRow(page, receipt.bundle_hash, type);
    for (const want of says) expect(row.text, `${type} row`).toMatch(want);
    expect(row.links, `${type} row links the validator`).toContain(`#/address/${encodeURIComponent(val.address)}`);
  }
  // the validator's address page lists each of these bundles under its event's name
  await page.goto(`${env.node.url}#/address/${val.address}`);
  await page.locator('[data-testid="address-history"]').waitFor();
  for (const [type] of operations) await page.locator('[data-testid="address-history"] tr', { hasText: type }).first().waitFor();
  await page.close();
}, 180_000);

it('shows a ClaimRewards\'s RewardsClaimed event with the amount paid as NTV and the account linked', async () => {
  // The node's own validator earns every block's reward, so it has rewards to claim on a lone node.
  const own = (await env.node.result<{ validator: string }>('svc_version')).validator;
  const claimed = await env.node.result<Receipt>('svc_claimRewards', [own]);
  const event = claimed.events.find((e) => e.type === 'RewardsClaimed');
  expect(event).toMatchObject({ account: own });
  const paid = BigInt(event!.amount as string);
  expect(paid).toBeGreaterThan(0n);
  const page = await env.context.newPage();
  const row = await eventRow(page, claimed.bundle_hash, 'RewardsClaimed');
  // the amount in NTV with decimals (raw units / 10^9), as the page writes it
  const whole = (paid / 10n ** 9n).toLocaleString('en-US');
  expect(row.text).toMatch(new RegExp(`amount ${whole}(\\.\\d+)? NTV`));
  expect(row.links).toContain(`#/address/${encodeURIComponent(own)}`);
  await page.goto(`${env.node.url}#/address/${own}`);
  await page.locator('[data-testid="address-history"] tr', { hasText: 'RewardsClaimed' }).first().waitFor();
  await page.close();
}, 120_000);
