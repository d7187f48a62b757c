import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { encodeGenesisConfig } from '../src/core/core.js';
import { genesisConfig } from '../src/chain/genesis.js';
import { DEFAULT_CHAIN_PARAMS } from '../src/chain/chain-params.js';
import { Replayer, type RawBlock } from '../src/chain/replay.js';
import { toHex } from '../src/codec/hash.js';
import { identity, openLocalChain, produceTransferBlocks } from '../testkit/local-chain.js';
import type { BenchResult } from './rpc.js';

/**
 * Replay rate (docs/replay.md "Cost"): blocks of 1,000 transfers re-executed and checked by the
 * replay engine in Node and, through the browser build, in headless Chromium, against the node's
 * own import of the same blocks (Chain.importBlock: the same checks and execution, plus the
 * storage write) measured in the same run. Blocks are in memory for all three: the figures are
 * execution and checking, not fetching.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url)).replace(/dist\/$/, '');
const CHROMIUM = '/usr/bin/chromium';

export async function benchReplay(options: { blocks?: number; perBlock?: number } = {}): Promise<BenchResult[]> {
  const blocks = options.blocks ?? 60;
  const perBlock = options.perBlock ?? 1000;
  const validator = identity();
  const source = await openLocalChain({ validator, genesisValidators: [validator.publicKey], maxTxsPerBlock: perBlock });
  try {
    await produceTransferBlocks(source, blocks, perBlock);
    const head = source.chain.height;
    const raws = (await source.store.getRawBlocks(Array.from({ length: head + 1 }, (_, i) => i))).map((r) => r!);
    const genesis = encodeGenesisConfig(genesisConfig('testnet', { validators: [validator.publicKey], params: DEFAULT_CHAIN_PARAMS }));
    const transfers = raws.reduce((n, r) => n + (r.bundleHashes.length), 0);

    // The node's own import: a second chain of the same genesis, each block through importBlock.
    const follower = await openLocalChain({ genesisValidators: [validator.publicKey], maxTxsPerBlock: perBlock });
    let importSeconds: number;
    try {
      const t0 = performance.now();
      let durable: Promise<void> = Promise.resolve();
      for (const raw of raws.slice(1)) durable = (await follower.chain.importBlock(raw.block, raw.certificate)).durable;
      await durable;
      importSeconds = (performance.now() - t0) / 1000;
    } finally {
      await follower.close();
    }

    // Replay in Node.
    const replayer = await Replayer.create();
    replayer.genesis(genesis, asRaw(raws[0]!));
    const r0 = performance.now();
    for (const raw of raws.slice(1)) await replayer.apply(asRaw(raw));
    const nodeSeconds = (performance.now() - r0) / 1000;
    if (toHex(replayer.stateRoot()) !== toHex(source.chain.headHeader.stateRoot)) throw new Error('replay in Node ended at another state root');

    const rows: BenchResult[] = [];
    const importRate = head / importSeconds;
    rows.push({ name: 'replay: the node\'s own import (baseline)', value: Math.round(importRate), unit: 'blocks/s', note: `${head} blocks of ${perBlock} transfers (${transfers} bundles), Chain.importBlock with storage` });
    rows.push({
      name: 'replay: in Node (ntv-node replay\'s engine)', value: Math.round(head / nodeSeconds), unit: 'blocks/s',
      note: `${(head / nodeSeconds / importRate).toFixed(2)}× the node's import in the same run`,
    });
    const browser = await replayInChromium(genesis, raws, toHex(source.chain.headHeader.stateRoot));
    if (browser !== undefined) {
      rows.push({
        name: 'replay: in Chromium (dist/browser/ntv.js)', value: Math.round(head / browser), unit: 'blocks/s',
        note: `${(head / browser / importRate).toFixed(2)}× the node's import in the same run; headless ${CHROMIUM}`,
      });
    }
    return rows;
  } finally {
    await source.close();
  }
}

function asRaw(r: { height: number; block: Uint8Array; certificate: Uint8Array; result: Uint8Array | undefined }): RawBlock {
  return { height: r.height, block: r.block, certificate: r.certificate, ...(r.result ? { result: r.result } : {}) };
}

/**
 * Serves the bundle, core.wasm and the blocks (one binary file: u32 LE count, then per block
 * u32 LE lengths of block, certificate, result and their bytes) on 127.0.0.1; the page loads them
 * all, then times the replay alone. Undefined when Chromium or the browser build is missing.
 */
async function replayInChromium(genesis: Uint8Array, raws: ReadonlyArray<{ height: number; block: Uint8Array; certificate: Uint8Array; result: Uint8Array | undefined }>, root: string): Promise<number | undefined> {
  const bundle = join(ROOT, 'dist/browser/ntv.js');
  if (!existsSync(CHROMIUM) || !existsSync(bundle)) return undefined;
  const parts: Uint8Array[] = [];
  const u32 = (n: number) => { const b = new Uint8Array(4); new DataView(b.buffer).setUint32(0, n, true); parts.push(b); };
  u32(raws.length);
  for (const r of raws) {
    const result = r.result ?? new Uint8Array(0);
    u32(r.block.length); u32(r.certificate.length); u32(result.length);
    parts.push(r.block, r.certificate, result);
  }
  const files: Record<string, [string, Uint8Array]> = {
    '/ntv.js': ['text/javascript', await readFile(bundle)],
    '/core.wasm': ['application/wasm', await readFile(join(ROOT, 'dist/browser/core.wasm'))],
    '/blocks.bin': ['application/octet-stream', Buffer.concat(parts)],
    '/genesis.bin': ['application/octet-stream', genesis],
    '/': ['text/html', new TextEncoder().encode('<!doctype html><title>replay bench</title>')],
  };
  const server = createServer((req, res) => {
    const file = files[req.url ?? ''];
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': file[0] }).end(file[1]);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { chromium } = await import('playwright-core');
  const profile = await mkdtemp(join(tmpdir(), 'ntv-bench-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const out = await page.evaluate(async () => {
      const ntv = await import('/ntv.js' as string) as typeof import('../src/browser/index.js');
      const bytes = new Uint8Array(await (await fetch('/blocks.bin')).arrayBuffer());
      const view = new DataView(bytes.buffer);
      const blocks: Array<{ height: number; block: Uint8Array; certificate: Uint8Array; result?: Uint8Array }> = [];
      let o = 4;
      for (let i = 0; i < view.getUint32(0, true); i++) {
        const [a, b, c] = [view.getUint32(o, true), view.getUint32(o + 4, true), view.getUint32(o + 8, true)];
        o += 12;
        blocks.push({ height: i, block: bytes.subarray(o, o + a), certificate: bytes.subarray(o + a, o + a + b), ...(c ? { result: bytes.subarray(o + a + b, o + a + b + c) } : {}) });
        o += a + b + c;
      }
      const genesis = new Uint8Array(await (await fetch('/genesis.bin')).arrayBuffer());
      const replayer = await ntv.Replayer.create({ module: await ntv.compileCore(new URL('/core.wasm', (globalThis as unknown as { location: { href: string } }).location.href)), verifyEd25519: ntv.verifyEd25519Noble });
      replayer.genesis(genesis, blocks[0]!);
      const t0 = performance.now();
      for (const raw of blocks.slice(1)) await replayer.apply(raw);
      return { seconds: (performance.now() - t0) / 1000, root: ntv.toHex(replayer.stateRoot()) };
    });
    if (out.root !== root) throw new Error('replay in Chromium ended at another state root');
    return out.seconds;
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
    server.close();
  }
}
