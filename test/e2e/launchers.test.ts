import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Signer } from '../../src/codec/keys.js';
import { freePort, sleep, TestNode } from './harness.js';
import { systemAddressHex } from './bundles.js';

/**
 * Stopping a node started through npm (issue 41 item 4; docs/operations.md "However it was
 * started"): a SIGTERM to `npm start`, what a process manager or `docker stop` sends, used to end
 * npm and the shell and leave the node running, holding the RPC port and the database lock.
 */

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const dirs: string[] = [];

afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** The pids of every process whose command line names `dataDir` (npm, a shell, the node). */
async function processesUsing(dataDir: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    // npm rewrites its title into one space-separated string: a substring, the dir being unique
    if (cmdline.includes(dataDir)) pids.push(Number(entry));
  }
  return pids;
}

interface Launched { child: ChildProcess; port: number; dataDir: string; output: () => string; exited: Promise<number | null> }

/** `npm <args> <node flags>` from the checkout, in its own process group, once its node answers JSON-RPC. */
async function launch(npmArgs: string[], dataDir?: string): Promise<Launched> {
  const dir = dataDir ?? (await mkdtemp(join(tmpdir(), 'ntv-launch-')));
  if (!dataDir) dirs.push(dir);
  const port = await freePort();
  const child = spawn('npm', [...npmArgs, '-d', dir, '--rpc-port', String(port), '--p2p-port', '0', '--p2p-host', '127.0.0.1', '--block-time', '1'], {
    cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true,
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const deadline = Date.now() + 45_000;
  while (!(await rpc(port, 'svc_version').catch(() => undefined))?.result) {
    if (Date.now() > deadline) throw new Error(`no node answered on ${port}:\n${out}`);
    await sleep(200);
  }
  return { child, port, dataDir: dir, output: () => out, exited };
}

async function rpc(port: number, method: string, params: unknown[] = []): Promise<{ result?: unknown; error?: unknown }> {
  const res = await fetch(`http://127.0.0.1:${port}/`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await res.json()) as { result?: unknown; error?: unknown };
}

/** Waits until no process names the data dir; the pids still there after `ms`. */
async function goneWithin(dataDir: string, ms: number): Promise<number[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const left = await processesUsing(dataDir);
    if (left.length === 0 || Date.now() > deadline) return left;
    await sleep(200);
  }
}

/** The height of the node's `node stopped` log line. */
function stoppedAt(output: string): number | undefined {
  const line = output.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { msg: string; height?: number }).find((l) => l.msg === 'node stopped');
  return line?.height;
}

describe('stopping a node started through npm (issue 41 item 4)', () => {
  it('SIGTERM to `npm start`: npm exits 0, no node process is left, and the next start has what it committed', async () => {
    const node = await launch(['start', '--']);
    const to = Signer.generate().address;
    const receipt = (await rpc(node.port, 'svc_transfer', [systemAddressHex(1), to, 'NTV', '1234'])).result as { status: string };
    expect(receipt.status).toBe('success');
    process.kill(node.child.pid!, 'SIGTERM');
    expect(await node.exited, node.output()).toBe(0);
    expect(await goneWithin(node.dataDir, 5_000), node.output()).toEqual([]);
    const height = stoppedAt(node.output());
    expect(height, node.output()).toBeGreaterThanOrEqual(1);
    // The database lock and the port were let go: a new node opens the same dir and has the transfer.
    const again = await TestNode.start({ dataDir: node.dataDir });
    try {
      expect(await again.result('svc_getBalance', [to, 'NTV'])).toBe('1234');
      expect((await again.result<{ blockHeight: number }>('svc_getNetworkStats')).blockHeight).toBeGreaterThanOrEqual(height!);
    } finally {
      await again.stop();
    }
  }, 120_000);

  it('Ctrl-C (SIGINT to the process group, npm and the node both get it) stops it once, gracefully, exit 0', async () => {
    const node = await launch(['start', '--']);
    process.kill(-node.child.pid!, 'SIGINT');
    expect(await node.exited, node.output()).toBe(0);
    expect(await goneWithin(node.dataDir, 5_000), node.output()).toEqual([]);
    expect(stoppedAt(node.output()), node.output()).toBeDefined();
    // npm's forwarded copy is not taken for an impatient second signal (which exits 130 at once)
    expect(node.output()).not.toMatch(/second SIGINT/);
  }, 90_000);

  it('SIGTERM to a launcher that does not exec (`npm exec`, as npx): the node stops when its shell is gone', async () => {
    const node = await launch(['exec', '--no', '--', 'node', 'dist/src/cli/main.js', 'run']);
    expect((await processesUsing(node.dataDir)).length).toBeGreaterThanOrEqual(2); // npm, sh -c, node
    process.kill(node.child.pid!, 'SIGTERM');
    await node.exited;
    expect(await goneWithin(node.dataDir, 10_000), node.output()).toEqual([]);
    expect(node.output()).toMatch(/the launcher \(pid \d+\) exited: stopping as on SIGTERM/);
    expect(stoppedAt(node.output()), node.output()).toBeDefined();
    // It stopped, not died: the RPC port is free and the dir opens again.
    const again = await TestNode.start({ dataDir: node.dataDir });
    await again.stop();
  }, 90_000);
});
