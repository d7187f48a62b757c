import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Level } from 'level';
import { Signer } from '../../src/codec/keys.js';
import { TestNode } from './harness.js';
import { systemAddressHex } from './bundles.js';

/**
 * What a normal start checks (issue 41 item 6; docs/operations.md "What a start checks"): the
 * stored state-root tree from its bucket records up to the head's root, and a log line naming
 * --verify-on-start for the records themselves (checking each at every start costs over a tenth
 * of a 1,000,000-account start: bench/start-check.ts).
 */

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const MAIN = join(ROOT, 'dist/src/cli/main.js');
let dataDir: string;
const to = Signer.generate().address;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'ntv-start-check-'));
  const node = await TestNode.start({ dataDir, args: ['--block-time', '1'] });
  try {
    await node.result('svc_transfer', [systemAddressHex(1), to, 'NTV', '1000']);
  } finally {
    await node.stop();
  }
}, 60_000);

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('the start-up state check (issue 41 item 6)', () => {
  it('a sound state starts, its tree check logged with how to check the records, and answers over JSON-RPC', async () => {
    const node = await TestNode.start({ dataDir });
    try {
      const lines = node.logs.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { msg: string; ms?: number });
      expect(lines.find((l) => l.msg === 'state tree checked'), node.logs).toMatchObject({ ms: expect.any(Number) });
      expect(lines.map((l) => l.msg)).toContain('state records not checked one by one at this start: --verify-on-start checks every record against the state root (docs/operations.md "What a start checks")');
      expect(await node.result('svc_getBalance', [to, 'NTV'])).toBe('1000');
    } finally {
      await node.stop();
    }
  }, 60_000);

  it('--elastic-state says in the log how to check too', async () => {
    const node = await TestNode.start({ dataDir, args: ['--elastic-state'] });
    try {
      expect(node.logs).toMatch(/state records not checked one by one at this start: --verify-on-start/);
      expect(await node.result('svc_getBalance', [to, 'NTV'])).toBe('1000');
    } finally {
      await node.stop();
    }
  }, 60_000);

  it('an altered state-tree record stops a normal start with exit 1, the tree records above it named', async () => {
    const db = new Level<Uint8Array, Uint8Array>(join(dataDir, 'db'), { keyEncoding: 'view', valueEncoding: 'view' });
    let bucketKey: Uint8Array | undefined;
    // 's' ‖ 0xF0: the bucket records (docs/state-root.md); one leaf's byte flipped, written as a valid record
    for await (const [key, value] of db.iterator({ gt: Uint8Array.of(0x73, 0xf0), lt: Uint8Array.of(0x73, 0xf1) })) {
      bucketKey = key;
      const altered = Uint8Array.from(value);
      altered[40]! ^= 1;
      await db.put(key, altered);
      break;
    }
    await db.close();
    const run = spawnSync(process.execPath, [MAIN, 'run', '-d', dataDir, '--rpc-port', '0', '--p2p-port', '0', '--p2p-host', '127.0.0.1'], { encoding: 'utf8', timeout: 60_000 });
    const out = run.stdout + run.stderr;
    expect(run.status, out).toBe(1);
    // the group above the altered bucket, each stored node above it, and the root
    expect(out).toMatch(/the start-up state check found \d+ records that disagree with the state root/);
    expect(out).toContain('f100000001: state-root node 1 does not match the records below it');
    expect(bucketKey).toBeDefined();
    expect(out).not.toContain('"msg":"node started"');
  }, 60_000);
});
