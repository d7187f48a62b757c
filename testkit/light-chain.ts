import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { DEFAULT_CHAIN_PARAMS } from '../src/chain/chain-params.js';
import { NTV_UNIT } from '../src/chain/genesis-data.js';
import { deriveAccount } from '../src/codec/address.js';
import { generateEd25519 } from '../src/codec/keys.js';
import { identity, openLocalChain } from './local-chain.js';

/**
 * The light client's fixtures (issue 43 items 4 and 5), shared by test/e2e/browser-light.test.ts and
 * bench/light-client.ts: a chain of a few thousand blocks across several epochs with a validator-set
 * change, made fast in-process (testkit/local-chain.ts) and then served by a real node; a page
 * bundled from the package as an app would bundle it (`import … from 'ntv-node/browser'` and
 * viem, esbuild); and a static server for it that relays JSON-RPC to the node, counting the
 * bytes each page load downloads and, on the `/rpc/<lie>` paths, lying the documented ways.
 */

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..').replace(/\/dist$/, '');

export interface LightChain {
  dataDir: string;
  /** `ntv-node run` flags that reproduce the chain's genesis and make the node its validator */
  args: string[];
  epochLength: number;
  /** the account of the validator that joins mid-chain (its set change is at `joinsAt`) */
  joinsAt: number;
  cleanup(): Promise<void>;
}

/**
 * `blocks` blocks (one transfer each) of `epochLength`-block epochs; after `stakeAfter` blocks a
 * second validator (a small stake, never running) stakes, so the set changes at the next boundary.
 */
export async function buildLightChain(options: { blocks: number; epochLength: number; stakeAfter: number }): Promise<LightChain> {
  const validator = identity();
  const params = { ...DEFAULT_CHAIN_PARAMS, epochLength: options.epochLength };
  const local = await openLocalChain({ validator, genesisValidators: [validator.publicKey], chainParams: params, maxTxsPerBlock: 10 });
  let kept = false;
  try {
    // One transfer a block (blocks follow at once while bundles wait: minBlockIntervalMs 1); the
    // stake goes in after `stakeAfter` blocks.
    const { chain } = local;
    const system = (i: number) => { const a = new Uint8Array(32); a[31] = i; return a; };
    const recipients = Array.from({ length: 16 }, () => deriveAccount(generateEd25519().publicKey));
    chain.start();
    const transfer = (i: number) => chain.enqueueOperations(system(1 + (i % 4)), [{ type: 'Transfer', to: recipients[i % recipients.length]!, token: new Uint8Array(32), amount: 1n }]).included;
    let i = 0;
    const until = async (height: number) => {
      const pending: Array<Promise<unknown>> = [];
      while (chain.height < height) {
        pending.push(transfer(i++));
        if (pending.length >= 2) await Promise.all(pending.splice(0, 1));
      }
      await Promise.all(pending);
    };
    await until(options.stakeAfter);
    const staker = deriveAccount(generateEd25519().publicKey);
    await chain.enqueueOperations(system(5), [{ type: 'Transfer', to: staker, token: new Uint8Array(32), amount: 2000n * NTV_UNIT }]).included;
    const receipt = await chain.enqueueOperations(staker, [{ type: 'Stake', amount: 1000n * NTV_UNIT, validatorPubkey: generateEd25519().publicKey }]).included;
    if (receipt.status !== 'success') throw new Error(`the stake failed: ${JSON.stringify(receipt)}`);
    const joinsAt = Math.ceil((chain.height + 1) / options.epochLength) * options.epochLength;
    await until(options.blocks);
    await local.closeKeep();
    kept = true;
    await writeFile(join(local.dataDir, 'validator.key'), Buffer.from(validator.seed).toString('hex'));
    await writeFile(join(local.dataDir, 'params.json'), JSON.stringify({ epoch_length: options.epochLength }));
    return {
      dataDir: local.dataDir,
      args: ['--validator-key', join(local.dataDir, 'validator.key'), '--genesis-validators', Buffer.from(validator.publicKey).toString('hex'), '--chain-params', join(local.dataDir, 'params.json')],
      epochLength: options.epochLength,
      joinsAt,
      cleanup: () => rm(local.dataDir, { recursive: true, force: true }),
    };
  } catch (error) {
    if (kept) await rm(local.dataDir, { recursive: true, force: true });
    else await local.close();
    throw error;
  }
}

/** The app page: a light client from `?checkpoint=` (or genesis, or `?mode=replay`), viem over the verifying provider, one balance. */
const APP_SOURCE = `
import { LightClient, VerifyingProvider } from 'ntv-node/browser';
import { createPublicClient, custom } from 'viem';
const q = new URLSearchParams(location.search);
const started = performance.now();
async function main() {
  const mode = q.get('mode') || 'headers';
  const options = { url: location.origin + '/rpc/' + (q.get('node') || 'honest'), mode };
  if (q.get('checkpoint')) options.checkpoint = q.get('checkpoint');
  const provider = new VerifyingProvider(await LightClient.create(options));
  const created = performance.now();
  const client = createPublicClient({ transport: custom(provider) });
  const balance = await client.getBalance({ address: q.get('address') });
  return { ms: performance.now(), started, created, balance: balance.toString(), height: provider.client.height, mode };
}
window.result = main().catch((e) => ({ error: String(e && e.message || e), code: (e && e.cause && e.cause.code) || (e && e.code) }));
`;

export interface LightApp {
  /** the bundled app (minified ESM), its gzip size, and the files a static folder serves */
  js: Uint8Array;
  gzipBytes: number;
  files: Record<string, [string, Uint8Array]>;
}

/** Bundle the app from the package (its `exports`: ntv-node/browser) with esbuild, as an app would. */
export async function bundleLightApp(): Promise<LightApp> {
  const dir = await mkdtemp(join(tmpdir(), 'ntv-light-app-'));
  try {
    await mkdir(join(dir, 'node_modules'), { recursive: true });
    await symlink(ROOT, join(dir, 'node_modules/ntv-node'), 'dir');
    await writeFile(join(dir, 'app.js'), APP_SOURCE);
    const { build } = await import('esbuild');
    const result = await build({
      absWorkingDir: dir, entryPoints: ['app.js'], bundle: true, format: 'esm', platform: 'browser', minify: true, write: false,
      nodePaths: [join(ROOT, 'node_modules')], logLevel: 'warning', target: ['es2022'],
    });
    const js = result.outputFiles[0]!.contents;
    return {
      js, gzipBytes: gzipSync(js).length,
      files: {
        '/app.js': ['text/javascript', js],
        // Replay mode's core: found next to the module that loads it (the app bundle), as a static folder serves it.
        '/core.wasm': ['application/wasm', await readFile(join(ROOT, 'dist/browser/core.wasm'))],
        '/app.html': ['text/html', new TextEncoder().encode('<!doctype html><meta charset="utf-8"><title>ntv light app</title><script type="module" src="/app.js"></script>')],
      },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** How `/rpc/<lie>` alters the node's answers (the lying nodes of the Chromium test). */
const LIES: Record<string, (method: string, result: Record<string, unknown>, params: unknown[]) => void> = {
  honest: () => {},
  'wrong-balance': (method, r) => {
    if (method === 'svc_getProof' && typeof r.balance === 'string') r.balance = (BigInt(r.balance) + 1n).toString();
  },
  'forged-certificate': (method, r) => {
    if (method === 'svc_getRawBlock' && typeof r.certificate === 'string' && r.certificate.length > 0) r.certificate = flipLastByte(r.certificate);
  },
  // The records a client crosses (not the checkpoint's own, asked alone): each set proof altered.
  'bad-set-proof': (method, r, params) => {
    if (method === 'svc_getEpochProofs' && params[1] !== 1) for (const rec of r.records as Array<{ record: string }>) rec.record = flipLastByte(rec.record);
  },
};

function flipLastByte(hex: string): string {
  return hex.slice(0, -2) + (Number.parseInt(hex.slice(-2), 16) ^ 1).toString(16).padStart(2, '0');
}

export interface LightAppServer {
  url: string;
  /** bytes served (static files and JSON-RPC answers) since the last reset */
  bytes: number;
  reset(): void;
  close(): Promise<void>;
}

/** Serve the app's files and relay POST /rpc/<lie> to the node, altered by that lie. */
export async function serveLightApp(app: LightApp, nodeUrl: string): Promise<LightAppServer> {
  const state = { bytes: 0 };
  const send = (res: ServerResponse, type: string, body: Uint8Array) => {
    state.bytes += body.length;
    res.writeHead(200, { 'content-type': type }).end(body);
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const file = app.files[path];
    if (req.method === 'GET' && file) return send(res, file[0], file[1]);
    const lie = path.startsWith('/rpc/') ? LIES[path.slice(5)] : undefined;
    if (req.method !== 'POST' || !lie) return void res.writeHead(404).end();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      void fetch(nodeUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(async (answer) => {
        const parsed = JSON.parse(await answer.text()) as { result?: unknown } | Array<{ result?: unknown }>;
        type Call = { method: string; params?: unknown[] };
        const request = JSON.parse(body) as Call | Call[];
        const pairs = Array.isArray(parsed) ? parsed.map((p, i) => [p, (request as Call[])[i]!] as const) : [[parsed, request as Call] as const];
        for (const [p, call] of pairs) if (p.result && typeof p.result === 'object') lie(call.method, p.result as Record<string, unknown>, call.params ?? []);
        send(res, 'application/json', Buffer.from(JSON.stringify(parsed)));
      }, (error: unknown) => res.writeHead(502).end(String(error)));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    get bytes() {
      return state.bytes;
    },
    reset() {
      state.bytes = 0;
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
