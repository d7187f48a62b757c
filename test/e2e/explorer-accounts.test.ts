/**
 * The explorer's multi-sig page and the DAO and multi-sig addresses in event lists, in headless
 * Chromium against a real node: a 2-of-2 multi-sig shows its owners, threshold and an open proposal
 * with its one approval; the MultiSigCreated event of its receipt links to that page, and the
 * DaoCreated event's Nx7 address opens the DAO's account (its treasury) on the address page.
 */
import { expect, it } from 'vitest';
import { explorerEnvironment } from './browser.js';

const SYSTEM_NTV = `0x${'00'.repeat(31)}01`;
const env = explorerEnvironment();

interface Receipt { bundle_hash: string; created?: { multisig?: string }; events: Array<Record<string, unknown>> }

it('shows a multi-sig with owners, threshold and open proposals; links multi-sig and DAO addresses in events', async () => {
  const a = await env.node.result<{ address: string }>('svc_generateKeypair');
  const b = await env.node.result<{ address: string }>('svc_generateKeypair');
  for (const x of [a, b]) await env.node.result('svc_transfer', [SYSTEM_NTV, x.address, 'NTV', '1000000000000']);
  const created = await env.node.result<Receipt>('svc_createMultiSig', [a.address, [a.address, b.address], 2, 'ops team']);
  const ms = created.created!.multisig!;
  await env.node.result('svc_transfer', [SYSTEM_NTV, ms, 'NTV', '5000000000']);
  const ops = JSON.stringify([{ type: 'Transfer', to: b.address, token: 'NTV', amount: '2000000000' }]);
  await env.node.result('svc_proposeMultiSigTx', [a.address, ms, ops, 'pay b']);

  const page = await env.context.newPage();
  await page.goto(`${env.node.url}#/multisig/${ms}`);
  const owners = page.locator('[data-testid="multisig-owners"] tr');
  await owners.first().waitFor();
  expect(await owners.count()).toBe(2);
  expect(await page.locator('[data-testid="multisig-threshold"]').textContent()).toBe('2 of 2');
  const row = page.locator('[data-testid="multisig-proposals"] tbody tr');
  await row.first().waitFor();
  // the proposal's amount shows "…" (aria-busy) until its token is fetched, after the row renders
  await row.first().locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
  const text = await row.first().textContent();
  expect(text).toContain('pending');
  expect(text).toContain('pay b');
  expect(text).toContain('2 NTV');
  expect(text).toContain('1 of 2');

  // the MultiSigCreated event links to the multi-sig page
  await page.goto(`${env.node.url}#/tx/${created.bundle_hash}`);
  const link = page.locator(`[data-testid="tx-events"] a[href="#/multisig/${encodeURIComponent(ms)}"]`);
  await link.first().click();
  await owners.first().waitFor();

  // a DAO's Nx7 address in its DaoCreated event opens its account
  const token = await env.node.result<Receipt & { created: { mint: string } }>('svc_createToken', ['Vote', 'VOTEX', 0, '1000', a.address]);
  const dao = await env.node.result<Receipt>('svc_createDao', ['Crew', token.created.mint, { quorum_bps: 1000, threshold_bps: 5000, voting_period: 10, execution_delay: 0, proposal_threshold: '1' }, a.address]);
  const daoAddress = String(dao.events.find((e) => e.type === 'DaoCreated')!.dao_address);
  expect(daoAddress.startsWith('Nx7')).toBe(true);
  await page.goto(`${env.node.url}#/tx/${dao.bundle_hash}`);
  await page.locator(`[data-testid="tx-events"] a[href="#/address/${encodeURIComponent(daoAddress)}"]`).first().click();
  const shown = page.locator('[data-testid="account-address"]');
  await shown.waitFor();
  expect((await shown.textContent())?.startsWith('Nx0')).toBe(true);
  await page.close();
}, 120_000);
