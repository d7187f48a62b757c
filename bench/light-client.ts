import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { BenchNode } from './bench-node.js';
import { buildLightChain, bundleLightApp, serveLightApp } from '../testkit/light-chain.js';
import type { BenchResult } from './rpc.js';

/**
 * Issue 43 item 5 (docs/light-client.md "Measured"): the time from page load to a balance verified
 * through viem over the verifying provider, in headless Chromium, on one chain of 2,100 blocks of
 * 500-block epochs with a validator-set change: from a checkpoint one epoch old, from genesis
 * (headers only, epoch to epoch), and by the full-replay client (every block re-executed through
 * the core) in the same run as the baseline; with the bytes each downloads (the page's bundle, the
 * core for replay, and every JSON-RPC answer). And the sizes of the browser build and core.wasm.
 */

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..').replace(/\/dist$/, '');
const CHROMIUM = '/usr/bin/chromium';
const RUNS = 3;

export async function benchBrowserSizes(): Promise<BenchResult[]> {
  const rows: BenchResult[] = [];
  const size = async (name: string, path: string, note: string) => {
    const bytes = await readFile(path);
    rows.push({ name: `${name} (minified)`, value: bytes.length, unit: 'bytes', note });
    rows.push({ name: `${name} (gzipped)`, value: gzipSync(bytes, { level: 9 }).length, unit: 'bytes', note: `gzip -9 of the above; ${(gzipSync(bytes, { level: 9 }).length / bytes.length * 100).toFixed(0)}% of it` });
  };
  await size('browser: dist/browser/ntv.js', join(ROOT, 'dist/browser/ntv.js'), 'ntv-node/browser as published: the light client, provider, codecs, replay engine');
  await size('browser: core.wasm', join(ROOT, 'dist/browser/core.wasm'), 'loaded by replay mode only; the headers mode never fetches it');
  const app = await bundleLightApp();
  rows.push({ name: 'browser: an app bundle (ntv-node/browser + viem, esbuild --minify)', value: app.js.length, unit: 'bytes', note: `gzipped ${app.gzipBytes} bytes; what an app ships (testkit/light-chain.ts APP_SOURCE)` });
  return rows;
}

/**
 * The bench chain's length: replay costs ~5 ms a block and the headers mode a fixed ~0.8 s (page
 * load, a few round trips), so the 20× needs a chain of a few thousand blocks; 4,000 spans
 * 8 epoch boundaries with the set change at 1,500.
 */
const CHAIN_BLOCKS = 4_000;

export async function benchLightClient(): Promise<BenchResult[]> {
  if (!existsSync(CHROMIUM)) return [];
  const chain = await buildLightChain({ blocks: CHAIN_BLOCKS, epochLength: 500, stakeAfter: 1_100 });
  const node = await BenchNode.start(['--block-time', '0.5', '--rpc-rate-limit', '0', ...chain.args], undefined, chain.dataDir);
  const holder = `0x${randomBytes(20).toString('hex')}`;
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM, headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const server = await serveLightApp(await bundleLightApp(), node.url);
  try {
    await node.call('svc_transfer', ['0x' + '01'.padStart(64, '0'), holder, 'NTV', '1000']);
    const proofs = await node.call('svc_getEpochProofs', [0, 64]) as { records: Array<{ height: number; checkpoint: string }> };
    const recent = proofs.records[proofs.records.length - 2]!;
    /** A fresh context per load (no cache): the time from navigation start to the verified balance, and the bytes served. */
    const load = async (query: Record<string, string>): Promise<{ ms: number; started: number; bytes: number; height: number }> => {
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        server.reset();
        await page.goto(`${server.url}app.html?${new URLSearchParams({ address: holder, ...query })}`);
        await page.waitForFunction(() => (globalThis as unknown as { result?: unknown }).result !== undefined, undefined, { timeout: 300_000 });
        const out = await page.evaluate(() => (globalThis as unknown as { result: Promise<{ ms?: number; started?: number; balance?: string; height?: number; error?: string }> }).result);
        if (out.error || out.balance !== (1000n * 10n ** 9n).toString()) throw new Error(`light client bench: ${JSON.stringify(out)}`);
        return { ms: out.ms!, started: out.started!, bytes: server.bytes, height: out.height! };
      } finally {
        await context.close();
      }
    };
    const median = async (query: Record<string, string>, runs: number) => {
      const all = [];
      for (let i = 0; i < runs; i++) all.push(await load(query));
      all.sort((a, b) => a.ms - b.ms);
      return all[Math.floor(all.length / 2)]!;
    };
    const checkpoint = await median({ checkpoint: recent.checkpoint }, RUNS);
    const genesis = await median({}, RUNS);
    const replay = await median({ mode: 'replay' }, 1);
    const chainNote = `chain of ${replay.height} blocks, epochs of 500, a set change at ${chain.joinsAt}; headless Chromium, fresh context per load, median of ${RUNS}`;
    return [
      { name: 'light client: page load → verified balance, checkpoint one epoch old', value: Math.round(checkpoint.ms), unit: 'ms', note: `checkpoint ${recent.height}; of which ${Math.round(checkpoint.started)} ms until the app's module ran (page, bundle fetch and compile); ${chainNote}; goal < 1,000 ms` },
      { name: 'light client: bytes downloaded, checkpoint one epoch old', value: checkpoint.bytes, unit: 'bytes', note: 'app bundle + JSON-RPC answers (2 epoch records, 1 block, 1 proof)' },
      { name: 'light client: page load → verified balance, genesis (headers only)', value: Math.round(genesis.ms), unit: 'ms', note: `of which ${Math.round(genesis.started)} ms until the app's module ran; ${chainNote}` },
      { name: 'light client: bytes downloaded, genesis (headers only)', value: genesis.bytes, unit: 'bytes', note: `${proofs.records.length} epoch records, 1 block, 1 proof` },
      { name: 'light client: page load → verified balance, full replay (baseline)', value: Math.round(replay.ms), unit: 'ms', note: 'every block from genesis re-executed through core.wasm (the auditor\'s mode); 1 run' },
      { name: 'light client: bytes downloaded, full replay (baseline)', value: replay.bytes, unit: 'bytes', note: 'app bundle + core.wasm + every block' },
      { name: 'light client: genesis headers-only vs full replay', value: Math.round((replay.ms / genesis.ms) * 10) / 10, unit: '× faster', note: `same page, same chain, same run; goal ≥ 20×; bytes ${(replay.bytes / genesis.bytes).toFixed(1)}× fewer` },
      { name: 'light client: genesis headers-only vs full replay, sync alone', value: Math.round(((replay.ms - replay.started) / (genesis.ms - genesis.started)) * 10) / 10, unit: '× faster', note: `from the app's module running to the verified balance (${Math.round(genesis.ms - genesis.started).toLocaleString('en-US')} ms against ${Math.round(replay.ms - replay.started).toLocaleString('en-US')} ms): the page load both modes share left out` },
      { name: 'light client: checkpoint vs full replay', value: Math.round((replay.ms / checkpoint.ms) * 10) / 10, unit: '× faster', note: 'same run' },
    ];
  } finally {
    await server.close();
    await browser.close();
    await node.stop();
    await chain.cleanup();
  }
}
