/**
 * The explorer's stablecoin page (issue 19 item 6; docs/stablecoins.md) in headless Chromium
 * against a real node: a created STD-8 coin with a minter, a pending role change and a pending
 * handover shows its roles, status flags (paused, quantum-only), the pending changes with the
 * heights they unlock at, the minter's allowance, supply and cap, and the issuer's verification
 * with its onboarding proofs; the token page links to it and the list page lists it.
 */
import { expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { explorerEnvironment } from './browser.js';

const GOV = `0x${'00'.repeat(31)}09`;
const FOUNDATION = `0x${'00'.repeat(31)}03`;
const SYSTEM_NTV = `0x${'00'.repeat(31)}01`;
const acct = (n: number) => `0x${'cd'.repeat(30)}${n.toString(16).padStart(4, '0')}`;
const OWNER = acct(1), MASTER = acct(2), PAUSER = acct(3), BLACKLISTER = acct(4), MINTER = acct(5), ALICE = acct(6), ISSUER = acct(7);

const env = explorerEnvironment();

interface Pending { pending_id: string; effective_height: number }
const pendingOf = (r: { events: Array<Record<string, unknown>> }) => r.events.find((e) => e.type === 'StablePending') as unknown as Pending;

it('shows a stablecoin\'s roles, flags, pending changes, minters, supply and onboarding', async () => {
  for (const a of [GOV, FOUNDATION, OWNER, MASTER, PAUSER, MINTER, ALICE]) await env.node.result('svc_transfer', [SYSTEM_NTV, a, 'NTV', '1000000000000']);
  await env.node.result('svc_createStableToken', [{
    name: 'Page Dollar', symbol: 'PGUSD', decimals: 6, currency: 'USD', issuer: 'Page Bank', owner: OWNER, master_minter: MASTER, pauser: PAUSER, blacklister: BLACKLISTER,
    origin_mappings: [{ chain: 'ethereum', contract: '0x2222222222222222222222222222222222222222' }], supply_cap: '5000000000', quantum_required: false, timelock: 2,
  }, GOV]);
  const add = pendingOf(await env.node.result('svc_stableConfigureMinter', ['PGUSD', 'add', MINTER, '9000000', '0', MASTER]));
  await env.node.waitForHeight(add.effective_height, 60_000);
  await env.node.result('svc_stableExecutePending', ['PGUSD', add.pending_id, ALICE]);
  await env.node.result('svc_stableMint', ['PGUSD', ALICE, '2500000', MINTER]);
  const role = pendingOf(await env.node.result('svc_stableTransferRole', ['PGUSD', 'pauser', ALICE, OWNER]));
  const handover = pendingOf(await env.node.result('svc_stableHandover', ['PGUSD', ISSUER, ISSUER, ISSUER, ISSUER, OWNER]));
  await env.node.result('svc_stablePause', ['PGUSD', true, PAUSER]);
  const admin = privateKeyToAccount(generatePrivateKey());
  const { message } = await env.node.result<{ message: string }>('svc_stableIssuerOnboardingMessage', ['PGUSD', 1]);
  await env.node.result('svc_stableSubmitAdminSignature', ['PGUSD', 1, admin.address, await admin.signMessage({ message }), FOUNDATION]);
  await env.node.result('svc_stableAttestIssuer', ['PGUSD', 'domain', `0x${'77'.repeat(32)}`, 'pagebank.example', FOUNDATION]);

  const page = await env.context.newPage();
  await page.goto(`${env.node.url}#/stablecoin/PGUSD`);
  const roles = page.locator('[data-testid="stable-roles"]');
  await roles.waitFor();
  const rolesText = await roles.textContent();
  for (const r of ['owner', 'master minter', 'pauser', 'blacklister']) expect(rolesText).toContain(r);
  expect(await page.locator('[data-testid="stable-paused"]').textContent()).toBe('paused: yes');
  expect(await page.locator('[data-testid="stable-mint_frozen"]').textContent()).toBe('mint frozen: no');
  expect(await page.locator('[data-testid="stable-quantum_only"]').textContent()).toBe('quantum only: no');
  expect(await page.locator('[data-testid="stable-verification"]').textContent()).toBe('Verified');
  // supply and cap with the coin's 6 decimals
  await page.locator('[data-testid="stable-supply"]').waitFor();
  expect(await page.locator('[data-testid="stable-supply"]').textContent()).toContain('2.5 PGUSD');
  expect(await page.locator('[data-testid="stable-cap"]').textContent()).toContain('5,000 PGUSD');
  // the minter and its allowance left (9 − 2.5)
  const minters = page.locator('[data-testid="stable-minters"]');
  expect(await minters.textContent()).toContain('6.5 PGUSD');
  // the pending changes with the heights they unlock at
  const pending = page.locator('[data-testid="stable-pending"] tbody tr');
  expect(await pending.count()).toBe(2);
  const rows = await pending.allTextContents();
  expect(rows.find((t) => t.includes('role change'))).toContain(String(role.effective_height));
  expect(rows.find((t) => t.includes('handover'))).toContain(String(handover.effective_height));
  // the onboarding proofs
  const onboarding = page.locator('[data-testid="stable-onboarding"]');
  await onboarding.waitFor();
  expect(await onboarding.textContent()).toContain('2 of 3 proofs recorded');
  expect(await onboarding.textContent()).toContain('missing: documents');
  const proofs = await page.locator('[data-testid="stable-proofs"]').textContent();
  expect(proofs).toContain(admin.address.toLowerCase());
  expect(proofs).toContain('pagebank.example');

  // the list page and the token page link here
  await page.goto(`${env.node.url}#/stablecoins`);
  const list = page.locator('[data-testid="stablecoins"]');
  await list.waitFor();
  expect(await list.textContent()).toContain('PGUSD');
  expect(await list.textContent()).toContain('USDC');
  const mint = (await env.node.result<{ mint: string }>('svc_getStablecoinInfo', ['PGUSD'])).mint;
  await page.goto(`${env.node.url}#/token/${mint}`);
  await page.locator('[data-testid="token-stablecoin"]').click();
  await roles.waitFor();
  expect(page.url()).toContain('#/stablecoin/');
  await page.close();
}, 120_000);
