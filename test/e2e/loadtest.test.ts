import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestNode } from './harness.js';
import type { LoadTestResult } from '../../src/client/loadtest.js';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const MAIN = join(ROOT, 'dist/src/cli/main.js');

/** `ntv-node loadtest` (src/cli/loadtest.ts) briefly against a real node, as a user runs it. */
describe('ntv-node loadtest', () => {
  let node: TestNode;
  beforeAll(async () => {
    node = await TestNode.start({ args: ['--block-time', '1'] });
  }, 60_000);
  afterAll(async () => {
    await node?.stop();
  });

  function loadtest(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const child = spawn(process.execPath, [MAIN, 'loadtest', '--rpc', node.url, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    return new Promise((r) => child.once('exit', (code) => r({ code, stdout, stderr })));
  }

  it('offers signed transfers at a rate and reports the achieved rate and latency to durable receipts', async () => {
    // 40 accounts at 20/s: each sends twice, two seconds apart (its first is in a block by then).
    const { code, stdout, stderr } = await loadtest(['--rate', '20', '--accounts', '40', '--duration', '4', '--json']);
    expect(code, stderr).toBe(0);
    const result = JSON.parse(stdout) as LoadTestResult;
    expect(result.sent).toBe(80);
    expect(result.confirmed).toBe(80);
    expect(result.queued).toBe(0);
    expect(result.failed).toBe(0);
    expect(result.achievedRate).toBeGreaterThan(0);
    expect(result.latencyMs.p50).toBeGreaterThan(0);
    expect(result.latencyMs.p99).toBeGreaterThanOrEqual(result.latencyMs.p50);
    expect(stderr).toContain('loadtest: sending 20/s for 4 s');
    // Each confirmed transfer is in a block: the recipient holds its 80 raw units.
    expect(await node.result<string>('svc_getBalance', [result.recipient, 'NTV'])).toBe('80');
  }, 120_000);

  it('prints a table by default, and a bad flag is a usage error naming it', async () => {
    const table = await loadtest(['--rate', '10', '--accounts', '5', '--duration', '1']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/achieved\s+\d+\/s/);
    expect(table.stdout).toMatch(/latency ms\s+p50 \d+/);
    const bad = await loadtest(['--rate', 'fast']);
    expect(bad.code).not.toBe(0);
    expect(bad.stdout + bad.stderr).toContain('--rate');
  }, 120_000);
});
