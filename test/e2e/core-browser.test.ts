/**
 * The core in a browser (docs/core-abi.md): build/core.wasm, which uses wasm SIMD for Blake3
 * (assembly/blake3x4.ts), compiles in headless Chromium and gives the same bytes as in Node for the
 * calls that hash: `scan_bundles` over inputs of every length up to two chunks (bundle hashes and
 * the transactions root, four abreast) and a genesis commit (the state root's paths, leaves,
 * buckets and tree levels). Light embedders and auditors rely on the one file agreeing everywhere.
 */
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { encodeGenesisConfig } from '../../src/core/core.js';
import { genesisConfig } from '../core/harness.js';

let context: BrowserContext;
let profile: string;

beforeAll(async () => {
  profile = await mkdtemp(join(tmpdir(), 'ntv-chromium-core-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

afterAll(async () => {
  await context?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
});

interface Run {
  wasm: string;
  section: string;
  genesis: string;
}

/**
 * Run in the browser and in Node alike (self-contained: base64 in, hex out). An empty host store:
 * kv_get finds nothing, so the genesis commit starts from the empty tree.
 */
async function runCore({ wasm, section, genesis }: Run): Promise<{ scan: string; commit: string }> {
  const bytes = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  const env = {
    abort() {
      throw new Error('core abort');
    },
    kv_get: () => -1,
    kv_read() {},
  };
  // typed narrowly, as in src/core/loader.ts: the project compiles without the DOM lib, and this
  // function is self-contained (it runs in the page too), so it cannot import that loader
  type Instantiate = (bytes: Uint8Array, imports: object) => Promise<{ instance: { exports: object } }>;
  const wasmApi = (globalThis as unknown as { WebAssembly: { instantiate: Instantiate } }).WebAssembly;
  const { instance } = await wasmApi.instantiate(bytes(wasm), { env });
  const x = instance.exports as unknown as Record<string, (...a: number[]) => number> & { memory: { buffer: ArrayBuffer } };
  const call = (name: string, input: Uint8Array, fn: (len: number) => number) => {
    const ptr = x.input!(input.length);
    new Uint8Array(x.memory.buffer, ptr, input.length).set(input);
    const status = fn(input.length);
    if (status !== 0) throw new Error(`${name}: status ${status}`);
  };
  const output = () => hex(new Uint8Array(x.memory.buffer, x.output_ptr!(), x.output_len!()));
  call('scan_bundles', bytes(section), (n) => x.scan_bundles!(n));
  const scan = output();
  call('genesis', bytes(genesis), (n) => x.genesis!(n));
  if (x.commit_block!() !== 0) throw new Error('commit_block failed');
  return { scan, commit: output() };
}

it('compiles in Chromium (wasm SIMD) and hashes, scans and commits byte for byte as in Node', async () => {
  const wasm = await readFile(fileURLToPath(new URL('../../build/core.wasm', import.meta.url)));
  // A section of raw byte strings, lengths 0..2,100 mixed in each group of four: scan_bundles hashes
  // every one before decoding it (most do not decode; their rows say so, the same everywhere).
  const parts: number[] = [];
  const lengths = Array.from({ length: 700 }, (_, i) => (i * 613) % 2101);
  const u32 = (v: number) => parts.push(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff);
  u32(lengths.length);
  lengths.forEach((n, k) => {
    u32(n);
    for (let i = 0; i < n; i++) parts.push((i * 31 + k) & 0xff);
  });
  const run: Run = {
    wasm: wasm.toString('base64'),
    section: Buffer.from(parts).toString('base64'),
    genesis: Buffer.from(encodeGenesisConfig(genesisConfig(300))).toString('base64'),
  };

  const inNode = await runCore(run);
  const page = await context.newPage();
  const inBrowser = await page.evaluate(runCore, run);
  await page.close();

  // transactions root, count, then the hashes: 700 of them, then the rows.
  expect(inNode.scan.length).toBe(2 * (36 + 700 * (32 + 34)));
  expect(inBrowser.scan).toBe(inNode.scan);
  // state root, write count, writes: 300 accounts × 3 tokens of balances, the tokens, buckets, nodes.
  expect(inNode.commit.length).toBeGreaterThan(2 * 36 + 2 * 900 * 40);
  expect(inBrowser.commit).toBe(inNode.commit);
});
