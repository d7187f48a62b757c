import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Signer } from '../../src/codec/keys.js';
import { TestNode } from './harness.js';
import { systemAddressHex } from './bundles.js';

// Issue 25 item 2: `ntv-node replay --from-state` starts from a state export (or a snapshot) instead
// of genesis, checks the export against its head block's state root, and replays and checks the
// blocks after it (docs/replay.md "Starting from a state").

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const MAIN = join(ROOT, 'dist/src/cli/main.js');
const NTV = 1_000_000_000n;

let dir: string;
let node: TestNode;
let head = 0;

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [MAIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
  });
}

async function transfers(round: number): Promise<void> {
  const to = Array.from({ length: 6 }, () => Signer.generate().address);
  await Promise.all(to.map((address, i) => node.result('svc_transfer', [systemAddressHex(1 + (i % 3)), address, 'NTV', String(BigInt(round) * NTV)])));
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ntv-replay-state-'));
  // --serve-snapshots every 2 blocks: the snapshot test below replays from a file the node wrote.
  node = await TestNode.start({ dataDir: join(dir, 'data'), args: ['--block-time', '1', '--serve-snapshots', '--snapshot-interval', '2'] });
  await transfers(1);
  await transfers(2);
  await node.stop();
  const exported = await cli(['export', '-d', join(dir, 'data'), '--out', join(dir, 'state.ntvx')]);
  expect(exported.code, exported.stderr).toBe(0);
  // More blocks after the export.
  await node.launch();
  await transfers(3);
  await transfers(4);
  head = (await node.result<Array<{ height: number }>>('svc_getRecentBlocks', [1]))[0]!.height;
  await node.stop();
}, 120_000);

afterAll(async () => {
  await node?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('ntv-node replay --from-state', () => {
  it('replays from a state export to the head, checking every root after it', async () => {
    const run = await cli(['replay', '-d', join(dir, 'data'), '--from-state', join(dir, 'state.ntvx'), '-q']);
    expect(run.code, run.stderr).toBe(0);
    const start = /starting from .* at height (\d+), state root ([0-9a-f]{64})/.exec(run.stderr);
    expect(start).not.toBeNull();
    const from = Number(start![1]);
    expect(from).toBeGreaterThan(0);
    expect(from).toBeLessThan(head);
    const summary = JSON.parse(run.stdout) as { ok: boolean; to: number; blocks: number; state_root: string };
    expect(summary.ok).toBe(true);
    expect(summary.to).toBe(head);
    // Only the blocks after the export were replayed.
    expect(summary.blocks).toBe(head - from);
    expect(summary.blocks).toBeGreaterThan(0);
  }, 60_000);

  it('replays from a snapshot written by a node run with --serve-snapshots (issue 24 item 1)', async () => {
    // The node's own snapshot files (src/operator/snapshots.ts), the oldest kept, so blocks follow it.
    const heights = (await readdir(join(dir, 'data', 'snapshots'))).map((f) => /^snapshot-(\d+)\.tar\.zst$/.exec(f)).filter((m) => m !== null).map((m) => Number(m[1]));
    expect(heights.length).toBeGreaterThan(0);
    const oldest = Math.min(...heights);
    expect(oldest).toBeLessThan(head);
    const file = join(dir, 'data', 'snapshots', `snapshot-${oldest}.tar.zst`);
    const run = await cli(['replay', '-d', join(dir, 'data'), '--from-state', file, '-q']);
    expect(run.code, run.stderr).toBe(0);
    const start = /starting from .* at height (\d+), state root ([0-9a-f]{64})/.exec(run.stderr);
    expect(Number(start![1])).toBe(oldest);
    const summary = JSON.parse(run.stdout) as { ok: boolean; to: number; blocks: number };
    expect(summary).toMatchObject({ ok: true, to: head, blocks: head - oldest });
  }, 60_000);

  it('refuses a damaged export, naming the file, and a file that is no snapshot', async () => {
    const bytes = await readFile(join(dir, 'state.ntvx'));
    const damaged = Buffer.from(bytes);
    damaged[Math.floor(damaged.length / 2)] ^= 0xff;
    await writeFile(join(dir, 'bad.ntvx'), damaged);
    const run = await cli(['replay', '-d', join(dir, 'data'), '--from-state', join(dir, 'bad.ntvx'), '-q']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/bad\.ntvx is refused: /);
    await writeFile(join(dir, 'bad.tar.zst'), 'not a snapshot');
    const tarRun = await cli(['replay', '-d', join(dir, 'data'), '--from-state', join(dir, 'bad.tar.zst'), '-q']);
    expect(tarRun.code).toBe(2);
    expect(tarRun.stderr).toMatch(/bad\.tar\.zst is not a sound \.tar\.zst snapshot/);
  }, 60_000);
});
