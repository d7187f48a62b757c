/**
 * Light embedders (docs/replay.md "In the browser"): headless Chromium loads the browser build
 * (/browser/ntv.js and core.wasm, served by the node), replays more than 100 blocks fetched from the
 * running node to the same state roots, verifies a balance with its proof against a header it
 * verified, and refuses a tampered proof, a lying balance and a block whose certificate was forged.
 * The demo page (examples/browser/demo.html) does the same from its button.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TestNode } from './harness.js';
import { systemAddressHex } from './bundles.js';
import { parseHash } from '../../src/codec/address.js';

const RICH = systemAddressHex(7);
const recipients = Array.from({ length: 5 }, () => '0x' + randomBytes(32).toString('hex'));
const BLOCKS = 110;

let node: TestNode;
let context: BrowserContext;
let profile: string;
let page: Page;

beforeAll(async () => {
  node = await TestNode.start({ args: ['--block-time', '0.5'] });
  // Blocks with bundles: rounds of transfers until the chain is past BLOCKS.
  for (let round = 0; ; round++) {
    await Promise.all(recipients.map((to, i) => node.result('svc_transfer', [RICH, to, 'NTV', String(1_000_000 + round * 10 + i)])));
    const [head] = await node.result<Array<{ height: number }>>('svc_getRecentBlocks', [1]);
    if (head!.height >= BLOCKS) break;
  }
  profile = await mkdtemp(join(tmpdir(), 'ntv-chromium-replay-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = await context.newPage();
  await page.goto(`${node.url}browser/demo.html`);
  await page.waitForFunction(() => (window as unknown as { ntv?: unknown }).ntv !== undefined);
}, 240_000);

afterAll(async () => {
  await context?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
  await node?.stop();
});

it('replays 100+ blocks from the node through the core to the same state roots', async () => {
  const [head] = await node.result<Array<{ height: number }>>('svc_getRecentBlocks', [1]);
  const out = await page.evaluate(async (to) => {
    const ntv = (window as unknown as { ntv: typeof import('../../src/browser/index.js') }).ntv;
    const client = await ntv.LightClient.create({ url: location.origin + '/', mode: 'replay' });
    const roots: Record<number, string> = {};
    const summary = (await client.sync(to, (p) => { roots[p.block.height] = ntv.toHex(p.block.stateRoot); })).replay!;
    return { height: client.height, blocks: summary.blocks, bundles: summary.bundles, statuses: summary.statusesChecked, roots };
  }, head!.height);
  expect(out.height).toBe(head!.height);
  expect(out.blocks).toBeGreaterThanOrEqual(100);
  expect(out.bundles).toBeGreaterThanOrEqual(100);
  expect(out.statuses).toBe(out.bundles);
  for (const h of [1, 50, Math.floor(out.height / 2), out.height]) {
    const header = await node.result<{ stateRoot: string }>('svc_getBlockByHeight', [h]);
    expect(out.roots[h], `root at ${h}`).toBe(Buffer.from(parseHash(header.stateRoot)).toString('hex'));
  }
}, 120_000);

it('verifies a balance proof against a verified header and refuses a tampered proof and a lying balance', async () => {
  const who = recipients[2]!;
  const expected = await node.result<string>('svc_getBalance', [who, 'NTV']);
  const out = await page.evaluate(async (address) => {
    const ntv = (window as unknown as { ntv: typeof import('../../src/browser/index.js') }).ntv;
    const client = await ntv.LightClient.create({ url: location.origin + '/', mode: 'replay' });
    const proven = await client.verifiedBalance(address);
    const root = proven.stateRoot;
    const proof = proven.proof;
    const attempt = (p: typeof proof) => {
      try {
        ntv.verifyBalanceProof(p, address, ntv.NATIVE_MINT, root);
        return 'accepted';
      } catch (error) {
        return `${(error as Error).name}: ${(error as Error).message}`;
      }
    };
    const flip = (hex: string) => (hex[0] === '0' ? '1' : '0') + hex.slice(1);
    return {
      balance: proven.balance.toString(), height: proven.height,
      tamperedSibling: attempt({ ...proof, proof: { ...proof.proof, siblings: proof.proof.siblings.map((s, i) => (i === 0 ? flip(s) : s)) } }),
      tamperedValue: attempt({ ...proof, value: flip(proof.value!) }),
      lyingBalance: attempt({ ...proof, balance: (BigInt(proof.balance!) * 2n).toString() }),
      otherRoot: (() => {
        try {
          ntv.verifyBalanceProof(proof, address, ntv.NATIVE_MINT, client.header(proven.height - 1)!.stateRoot);
          return 'accepted';
        } catch (error) {
          return (error as Error).message;
        }
      })(),
    };
  }, who);
  expect(out.balance).toBe(expected);
  expect(out.tamperedSibling).toMatch(/ProofError: .*another state root/);
  expect(out.tamperedValue).toMatch(/ProofError/);
  expect(out.lyingBalance).toMatch(/ProofError: the node says/);
  expect(out.otherRoot).toMatch(/another state root/);
}, 120_000);

it('refuses a block whose finality certificate was forged, and one whose bundles were altered', async () => {
  const out = await page.evaluate(async () => {
    const ntv = (window as unknown as { ntv: typeof import('../../src/browser/index.js') }).ntv;
    type RawBlockJson = import('../../src/chain/replay.js').RawBlockJson;
    const rawBlock = async (height: number) => ((await (await fetch('/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'svc_getRawBlock', params: [height] }) })).json()) as { result: RawBlockJson & { genesis: string } }).result;
    const run = async (alter: (raw: import('../../src/chain/replay.js').RawBlock) => void) => {
      const replayer = await ntv.Replayer.create({ module: await ntv.compileCore(new URL('/browser/core.wasm', location.href)), verifyEd25519: ntv.verifyEd25519Noble });
      const block0 = await rawBlock(0);
      replayer.genesis(ntv.fromHex(block0.genesis), ntv.rawBlockFromJson(block0));
      for (let h = 1; h <= 5; h++) {
        const raw = ntv.rawBlockFromJson(await rawBlock(h));
        if (h === 5) alter(raw);
        try {
          await replayer.apply(raw);
        } catch (error) {
          return (error as { divergence?: unknown }).divergence ?? String(error);
        }
      }
      return 'accepted';
    };
    return {
      certificate: await run((raw) => { raw.certificate[raw.certificate.length - 1]! ^= 1; }),
      bundles: await run((raw) => { raw.block[raw.block.length - 3]! ^= 1; }),
    };
  });
  expect(out.certificate).toMatchObject({ height: 5, kind: 'BAD_CERTIFICATE', message: expect.stringMatching(/bad vote signature/) });
  expect(out.bundles).toMatchObject({ height: 5, kind: expect.stringMatching(/BAD_TRANSACTIONS_ROOT|MALFORMED_BLOCK/) });
}, 60_000);

it('the demo page verifies a balance from its button and shows what it verified', async () => {
  const who = recipients[0]!;
  const expected = await node.result<string>('svc_getBalance', [who, 'NTV']);
  await page.fill('#address', who);
  await page.click('#verify');
  await page.waitForFunction(() => document.body.dataset.verified !== undefined, undefined, { timeout: 60_000 });
  expect(await page.evaluate(() => document.body.dataset.verified)).toBe(expected);
  expect(await page.textContent('#status')).toMatch(/Verified up to block \d+/);
  expect(await page.textContent('#result')).toMatch(/Balance verified/);
  expect(await page.locator('#blocks tr').count()).toBeGreaterThan(0);
}, 90_000);

it('the explorer page marks a balance it verified with a proof in the browser', async () => {
  const who = recipients[1]!;
  const account = await node.result<{ address: string; balance: string }>('svc_getAccount', [who]);
  const explorer = await context.newPage();
  try {
    await explorer.goto(`${node.url}#/address/${account.address}`);
    await explorer.locator('[data-testid="verify-balance"]').click();
    const mark = explorer.locator('[data-testid="balance-verified"]');
    await mark.waitFor({ timeout: 60_000 });
    expect(await mark.getAttribute('data-balance')).toBe(account.balance);
    expect(await mark.textContent()).toMatch(/✓ verified at block \d+/);
  } finally {
    await explorer.close();
  }
}, 90_000);
