// The upgrade supervisor with real processes (spec §3 "Node upgrade"; docs/upgrades.md "The
// supervisor"): an approved upgrade makes the node exit 42 at the height, the supervisor verifies and
// swaps to the new release (a packed copy of this build that reports version 0.2.0) and the chain
// goes on under it; a release whose SHA-256 is not the plan's is refused and the old node keeps
// serving without passing the height; a release that crashes at start is rolled back within the
// window; failed starts back off and the supervisor gives up. Windows and backoff are shortened by
// the supervisor's own options so this runs in seconds.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Signer } from '../../src/codec/keys.js';
import { freePort, sleep } from './harness.js';

const ROOT = resolve(import.meta.dirname, '../..');
const MAIN = join(ROOT, 'dist/src/cli/main.js');
const authority = Signer.generate();
const authorityHex = Buffer.from(authority.publicKey).toString('hex');
const dirs: string[] = [];
const running: ChildProcess[] = [];

/** SIGKILL a supervisor and the node under it (a killed supervisor cannot stop its child itself). */
function killTree(p: ChildProcess): void {
  if (p.exitCode !== null || p.signalCode !== null || p.pid === undefined) return;
  const children = spawnSync('ps', ['-o', 'pid=', '--ppid', String(p.pid)], { encoding: 'utf8' }).stdout.trim().split(/\s+/).filter(Boolean);
  p.kill('SIGKILL');
  for (const pid of children) {
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

afterAll(async () => {
  for (const p of running) killTree(p);
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function tmp(prefix: string): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

function tar(args: string[], cwd: string): Promise<void> {
  return new Promise((ok, fail) => {
    const p = spawn('tar', args, { cwd, stdio: 'ignore' });
    p.once('exit', (code) => (code === 0 ? ok() : fail(new Error(`tar ${code}`))));
  });
}

/** A packed release (npm pack layout: package/…) in <dataDir>/upgrades/<name>/release.tgz; its SHA-256. */
async function placeRelease(dataDir: string, name: string, kind: 'node' | 'crash'): Promise<string> {
  const stage = await tmp('ntv-release-');
  const pkg = join(stage, 'package');
  await mkdir(pkg, { recursive: true });
  if (kind === 'node') {
    // This build, reporting version 0.2.0 (so it implements plan v0.2.0: src/version.ts).
    await cp(join(ROOT, 'dist/src'), join(pkg, 'dist/src'), { recursive: true });
    await cp(join(ROOT, 'build'), join(pkg, 'build'), { recursive: true });
    await cp(join(ROOT, 'package.json'), join(pkg, 'package.json'));
    const v = join(pkg, 'dist/src/version.js');
    await writeFile(v, (await readFile(v, 'utf8')).replace("NODE_VERSION = '0.1.0'", "NODE_VERSION = '0.2.0'"));
    await symlink(join(ROOT, 'node_modules'), join(pkg, 'node_modules'));
  } else {
    await writeFile(join(pkg, 'package.json'), JSON.stringify({ name: 'ntv-node', version: '9.9.9', bin: { 'ntv-node': 'main.js' } }));
    await writeFile(join(pkg, 'main.js'), "console.error('release 9.9.9: cannot start'); process.exit(3);\n");
  }
  const dir = join(dataDir, 'upgrades', name);
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'release.tgz');
  await tar(['-czf', file, 'package'], stage);
  return createHash('sha256').update(await readFile(file)).digest('hex');
}

class Supervised {
  output = '';
  readonly url: string;
  private id = 1;
  readonly process: ChildProcess;
  constructor(readonly dataDir: string, readonly port: number, supervisorArgs: string[], nodeArgs: string[]) {
    this.url = `http://127.0.0.1:${port}/`;
    this.process = spawn(process.execPath, [MAIN, 'supervise', '--log-format', 'json', ...supervisorArgs, '--',
      '--rpc-port', String(port), '-d', dataDir, '--p2p-port', '0', '--p2p-host', '127.0.0.1', '--rpc-rate-limit', '0',
      '--rpc-max-connections-per-ip', '0', '--log-format', 'json', ...nodeArgs], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    running.push(this.process);
    this.process.stdout!.on('data', (c: Buffer) => (this.output += c.toString()));
    this.process.stderr!.on('data', (c: Buffer) => (this.output += c.toString()));
  }
  async call<T>(method: string, params: unknown[] = []): Promise<T> {
    // Bounded: a request that reaches a node while the supervisor swaps it must fail, not hang the test.
    const res = await fetch(this.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: this.id++, method, params }), signal: AbortSignal.timeout(3_000) });
    const body = (await res.json()) as { result?: T; error?: { message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result as T;
  }
  async until<T>(what: string, f: () => Promise<T | undefined>, timeoutMs = 40_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      try {
        const v = await f();
        if (v !== undefined && v !== false) return v;
      } catch {
        // not answering (restarting)
      }
      await sleep(150);
    }
    throw new Error(`${what} not seen in ${timeoutMs} ms:\n${this.output.slice(-6000)}`);
  }
  height(): Promise<number> {
    return this.call<{ blockHeight: number }>('svc_getNetworkStats').then((s) => s.blockHeight);
  }
  /** Schedule `name` at head + ahead by the authority (approved at once in seed-authority mode). */
  async schedule(name: string, ahead: number, checksum: string): Promise<number> {
    const height = (await this.height()) + ahead;
    await this.call('svc_scheduleUpgrade', [name, height, '', checksum, '', authority.address]);
    return height;
  }
  /**
   * SIGTERM, and the exit code. Bounded: a supervisor (or the node under it) still running 20 s
   * later is killed, and the test fails with the processes still alive and the output's tail, so a
   * hang names where it is rather than timing the whole test out.
   */
  stop(): Promise<number | null> {
    return new Promise((ok, fail) => {
      if (this.process.exitCode !== null) return ok(this.process.exitCode);
      const timer = setTimeout(() => {
        const alive = spawnSync('ps', ['-o', 'pid,ppid,stat,etime,args', '--ppid', String(this.process.pid), '-p', String(this.process.pid)], { encoding: 'utf8' }).stdout;
        killTree(this.process);
        fail(new Error(`the supervisor did not exit within 20 s of SIGTERM; still running:\n${alive}\n${this.output.slice(-6000)}`));
      }, 20_000);
      this.process.once('exit', (code) => {
        clearTimeout(timer);
        ok(code);
      });
      this.process.kill('SIGTERM');
    });
  }
  exited(): Promise<number | null> {
    return new Promise((ok) => (this.process.exitCode !== null ? ok(this.process.exitCode) : this.process.once('exit', (code) => ok(code))));
  }
}

const NODE = ['--block-time', '0.5', '--gas-price', '0', '--upgrade-authority', authorityHex];
const FAST = ['--backoff-ms', '100,200', '--rollback-window-ms', '8000', '--recheck-ms', '500'];

interface Overview { plan: { state: string } | null; applied: { name: string; height: number } | null; grace_until: number | null; node_version: string }

describe('the upgrade supervisor (real processes)', () => {
  it('swaps to the verified release at the height and the chain goes on under it; grace is reported', async () => {
    const dataDir = await tmp('ntv-sup-ok-');
    const sum = await placeRelease(dataDir, 'v0.2.0', 'node');
    const s = new Supervised(dataDir, await freePort(), FAST, NODE);
    await s.until('first blocks', async () => (await s.height()) >= 2);
    const height = await s.schedule('v0.2.0', 8, sum);
    const o = await s.until('the new release past the height', async () => {
      const v = await s.call<Overview>('svc_getUpgradePlan');
      return v.node_version === '0.2.0' && (await s.height()) > height + 2 ? v : undefined;
    }, 70_000);
    expect(o.applied).toEqual({ name: 'v0.2.0', height });
    expect(o.grace_until).toBe(height + 99);
    expect(JSON.parse(await readFile(join(dataDir, 'upgrades/current.json'), 'utf8')).name).toBe('v0.2.0');
    for (const step of ['the node stopped for an upgrade (exit 42)', 'checksum verified', 'release unpacked', 'swapped to the new release']) expect(s.output).toContain(step);
    expect(await s.stop()).toBe(0);
  }, 120_000);

  it('refuses a release whose SHA-256 is not the plan\'s: no swap, the old node keeps serving below the height', async () => {
    const dataDir = await tmp('ntv-sup-bad-');
    await placeRelease(dataDir, 'v0.2.0', 'node');
    const s = new Supervised(dataDir, await freePort(), FAST, NODE);
    await s.until('first blocks', async () => (await s.height()) >= 2);
    const height = await s.schedule('v0.2.0', 6, 'cd'.repeat(32));
    await s.until('the refusal', async () => s.output.includes('does not match the plan'));
    // the old release, restarted to wait, answers and stays below the height
    const o = await s.until('the old node back', async () => s.call<Overview>('svc_getUpgradePlan'));
    expect(o.node_version).toBe('0.1.0');
    await sleep(2_000);
    expect(await s.height()).toBe(height - 1);
    expect(s.output).toContain('--wait-at-upgrade');
    expect(s.output).not.toContain('swapped to the new release');
    expect(await s.stop()).toBe(0);
  }, 120_000);

  it('rolls back a release that crashes at start within the window; the old node waits below the height', async () => {
    const dataDir = await tmp('ntv-sup-crash-');
    const sum = await placeRelease(dataDir, 'v0.2.0', 'crash');
    const s = new Supervised(dataDir, await freePort(), FAST, NODE);
    await s.until('first blocks', async () => (await s.height()) >= 2);
    const height = await s.schedule('v0.2.0', 6, sum);
    await s.until('the rollback', async () => s.output.includes('rolling back'));
    expect(s.output).toContain('release 9.9.9: cannot start');
    const o = await s.until('the old node back', async () => s.call<Overview>('svc_getUpgradePlan'));
    expect(o.node_version).toBe('0.1.0');
    expect(JSON.parse(await readFile(join(dataDir, 'upgrades/current.json'), 'utf8')).name).toBe('genesis');
    await sleep(1_500);
    expect(await s.height()).toBe(height - 1);
    expect(await s.stop()).toBe(0);
  }, 120_000);

  it('restarts a failing node with backoff and gives up after --max-failures', async () => {
    const dataDir = await tmp('ntv-sup-fail-');
    const s = new Supervised(dataDir, await freePort(), ['--backoff-ms', '100,300', '--max-failures', '3'], ['--governance-mode', 'bogus']);
    expect(await s.exited()).toBe(1);
    const delays = [...s.output.matchAll(/"delayMs":(\d+)/g)].map((m) => Number(m[1]));
    expect(delays).toEqual([100, 300]);
    expect(s.output).toContain('giving up after repeated failures');
  }, 60_000);
});
