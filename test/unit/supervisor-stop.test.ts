/** Supervisor.run (src/supervisor/supervisor.ts): a stop that arrives between two node runs starts no other node. */
import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Supervisor, type Release } from '../../src/supervisor/supervisor.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

const quiet = { info() {}, warn() {}, error() {}, debug() {}, child() { return quiet; } } as never;

describe('Supervisor stop between node runs', () => {
  it('returns 0 without starting another node when stopped while the next release is read', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ntv-sup-stop-'));
    dirs.push(dataDir);
    // The "node": its first run fails at once; any later run would stay up (10 s at most) until killed.
    const entry = join(dataDir, 'node.cjs');
    const marker = join(dataDir, 'ran-once');
    const second = join(dataDir, 'second-run');
    await writeFile(entry, `const fs = require('node:fs');
if (!fs.existsSync(${JSON.stringify(marker)})) { fs.writeFileSync(${JSON.stringify(marker)}, ''); process.exit(1); }
fs.writeFileSync(${JSON.stringify(second)}, '');
setTimeout(() => process.exit(0), 10_000);
`);
    await mkdir(join(dataDir, 'upgrades'), { recursive: true });
    await writeFile(join(dataDir, 'upgrades', 'current.json'), JSON.stringify({ name: 'test', entry }));

    class StoppedBetweenRuns extends Supervisor {
      reads = 0;
      override async current(): Promise<Release> {
        const release = await super.current();
        // the second read comes after the first node failed and its backoff: the SIGTERM lands here
        if (++this.reads === 2) this.stop();
        return release;
      }
    }
    const supervisor = new StoppedBetweenRuns({ nodeArgs: ['run', '-d', dataDir], backoffMs: [0], logger: quiet });
    const started = Date.now();
    expect(await supervisor.run()).toBe(0);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(supervisor.reads).toBe(2);
    expect(existsSync(second)).toBe(false);
  });
});
