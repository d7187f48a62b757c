/**
 * The light client in Chromium (issue 43 item 4; docs/light-client.md): a page bundled from the
 * package (`import … from 'ntv-node/browser'` and viem, by esbuild, as an app bundles it) starts
 * from a checkpoint on a chain of more than 2,000 blocks and 4 epoch boundaries, crosses a
 * validator-set change by the epoch records, and reads a balance through viem's `custom()`
 * transport over the verifying provider; the same page from genesis (headers only); and lying
 * nodes — a wrong balance, a forged certificate, a set proof that does not match — refused with a
 * clear error. One chain (made fast in-process, testkit/light-chain.ts) serves every case.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TestNode } from './harness.js';
import { systemAddressHex } from './bundles.js';
import { buildLightChain, bundleLightApp, serveLightApp, type LightAppServer, type LightChain } from '../../testkit/light-chain.js';

const EPOCH = 500;
const BLOCKS = 2_100;
const holder = `0x${randomBytes(20).toString('hex')}`;

let chain: LightChain;
let node: TestNode;
let server: LightAppServer;
let context: BrowserContext;
let profile: string;
let checkpoint: string;

interface PageResult { ms?: number; balance?: string; height?: number; error?: string; code?: number }

async function load(query: Record<string, string>): Promise<PageResult> {
  const page = await context.newPage();
  try {
    await page.goto(`${server.url}app.html?${new URLSearchParams({ address: holder, ...query })}`);
    await page.waitForFunction(() => (window as unknown as { result?: unknown }).result !== undefined);
    return await page.evaluate(() => (window as unknown as { result: Promise<PageResult> }).result);
  } finally {
    await page.close();
  }
}

beforeAll(async () => {
  chain = await buildLightChain({ blocks: BLOCKS, epochLength: EPOCH, stakeAfter: 1_100 });
  node = await TestNode.start({ dataDir: chain.dataDir, args: ['--block-time', '0.5', ...chain.args] });
  await node.result('svc_transfer', [systemAddressHex(1), holder, 'NTV', '987654321']);
  checkpoint = (await node.result<{ records: Array<{ checkpoint: string }> }>('svc_getEpochProofs', [2 * EPOCH, 1])).records[0]!.checkpoint;
  server = await serveLightApp(await bundleLightApp(), node.url);
  profile = await mkdtemp(join(tmpdir(), 'ntv-chromium-light-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}, 240_000);

afterAll(async () => {
  await context?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
  await server?.close();
  await node?.stop();
  await chain?.cleanup();
});

it('the chain: more than 2,000 blocks, 4 boundaries, the set changing at one of them', async () => {
  const proofs = await node.result<{ records: Array<{ height: number }> }>('svc_getEpochProofs', [0]);
  expect(proofs.records.map((r) => r.height)).toEqual([0, 500, 1000, 1500, 2000]);
  expect(chain.joinsAt).toBe(1500);
  const staking = await node.result<{ active_count: number; validator_count: number }>('svc_stakingInfo');
  expect(staking).toMatchObject({ active_count: 2, validator_count: 2 });
});

it('from a checkpoint: viem over the verifying provider reads the node\'s balance, proven', async () => {
  const out = await load({ checkpoint });
  expect(out.error).toBeUndefined();
  expect(out.balance).toBe((987654321n * 10n ** 9n).toString());
  expect(out.height).toBeGreaterThanOrEqual(BLOCKS);
  expect(BigInt(await node.result<string>('eth_getBalance', [holder, 'latest']))).toBe(BigInt(out.balance!));
}, 60_000);

it('from genesis, headers only: the same balance', async () => {
  const out = await load({});
  expect(out.error).toBeUndefined();
  expect(out.balance).toBe((987654321n * 10n ** 9n).toString());
}, 60_000);

it('refuses a lying node with a clear error: a wrong balance, a forged certificate, a set proof that does not match', async () => {
  const cases: Array<[string, RegExp]> = [
    ['wrong-balance', /the node's answer does not verify: the node says \d+, the proven value is 987654321/],
    ['forged-certificate', /the node's answer does not verify: block \d+: the finality certificate does not hold: bad vote signature/],
    ['bad-set-proof', /does not verify: the validator-set proof of block 1500 does not hold/],
  ];
  for (const [lie, message] of cases) {
    const out = await load({ checkpoint, node: lie });
    expect(out.balance, lie).toBeUndefined();
    expect(out.error, lie).toMatch(message);
    expect(out.code, lie).toBe(-32050);
  }
}, 120_000);
