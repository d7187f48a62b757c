import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../logger.js';

/**
 * The upgrade supervisor (spec §3 "Node upgrade"; facts.md "Upgrade supervisor"; docs/upgrades.md
 * "The supervisor"), after cosmovisor's model: it runs the node as a child process and, when the node
 * exits 42 at an approved upgrade's height, reads <data-dir>/upgrade-info.json, finds the new
 * release (fetching it from the plan's binary URL when it is not there yet), checks its SHA-256
 * against the plan, unpacks it, makes it current and starts it with the same flags.
 *
 * Layout under the node's data dir:
 *   upgrades/<name>/release.tgz   the packed release (npm pack layout: package/package.json names
 *                                 the `ntv-node` bin); its SHA-256 is the plan's checksum
 *   upgrades/<name>/release/      the release unpacked
 *   upgrades/current.json         { name, entry } of the release in use; absent: the supervisor's
 *                                 own install (the "genesis" release)
 *   upgrades/previous.json        the release before the last swap (for the rollback)
 *
 * Failures: a checksum that does not match (or a release that cannot be found or unpacked) is
 * refused, nothing is swapped, and the old release is restarted with --wait-at-upgrade: it keeps
 * serving without executing past the height while the supervisor re-checks the release every
 * `recheckMs`. A new release that exits within `rollbackWindowMs` of its start is rolled back: the
 * previous release is made current again and restarted with --wait-at-upgrade. A node that exits
 * with another non-zero code is restarted after the next delay of `backoffMs` (2, 4, 8, 16, 32 s,
 * the last repeating); after `maxFailures` consecutive failures the supervisor gives up (exit 1).
 */

export interface SupervisorOptions {
  /** the node's flags, as given after `supervise [--]` */
  nodeArgs: string[];
  /** delays before restarting a node that failed (spec: 2, 4, 8, 16, 32 s; the last repeats) */
  backoffMs?: number[];
  /** a new release that exits sooner than this after its start is rolled back (spec: 60 s) */
  rollbackWindowMs?: number;
  /** consecutive failed starts after which the supervisor gives up (spec: 10) */
  maxFailures?: number;
  /** how often a refused release is looked at again (default 30 s) */
  recheckMs?: number;
  logger: Logger;
}

export const DEFAULT_BACKOFF_MS = [2_000, 4_000, 8_000, 16_000, 32_000];
export const DEFAULT_ROLLBACK_WINDOW_MS = 60_000;
export const DEFAULT_MAX_FAILURES = 10;
const UPGRADE_EXIT_CODE = 42;

export interface Release {
  /** the plan name it implements, or "genesis" for the supervisor's own install */
  name: string;
  /** the JavaScript entry point (the package's `ntv-node` bin) */
  entry: string;
}

/** The supervisor's own install: the CLI entry next to this file (dist/src/cli/main.js). */
export function genesisRelease(): Release {
  return { name: 'genesis', entry: resolve(dirname(fileURLToPath(import.meta.url)), '../cli/main.js') };
}

/** `-d`/`--data-dir` among the node's flags (default ./data, as `ntv-node run`). */
export function dataDirOf(args: string[]): string {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-d' || a === '--data-dir') return args[i + 1] ?? './data';
    if (a.startsWith('--data-dir=')) return a.slice('--data-dir='.length);
  }
  return './data';
}

export interface UpgradeInfoFile { name: string; height: number; binary: string; checksum: string; info: string }

export class SupervisorError extends Error {}

export class Supervisor {
  private readonly dataDir: string;
  private readonly upgradesDir: string;
  private child: ChildProcess | undefined;
  private stopping = false;
  private readonly backoff: number[];
  private readonly window: number;
  private readonly maxFailures: number;
  private readonly recheckMs: number;
  /** releases rolled back after crashing: never swapped to again by this supervisor */
  private readonly rolledBack = new Set<string>();

  constructor(private readonly options: SupervisorOptions) {
    this.dataDir = resolve(dataDirOf(options.nodeArgs));
    this.upgradesDir = join(this.dataDir, 'upgrades');
    this.backoff = options.backoffMs ?? DEFAULT_BACKOFF_MS;
    this.window = options.rollbackWindowMs ?? DEFAULT_ROLLBACK_WINDOW_MS;
    this.maxFailures = options.maxFailures ?? DEFAULT_MAX_FAILURES;
    this.recheckMs = options.recheckMs ?? 30_000;
  }

  private get log(): Logger {
    return this.options.logger;
  }

  /** The release in use (upgrades/current.json), else the genesis release. */
  async current(): Promise<Release> {
    const path = join(this.upgradesDir, 'current.json');
    if (!existsSync(path)) return genesisRelease();
    return JSON.parse(await readFile(path, 'utf8')) as Release;
  }

  private async setCurrent(release: Release, previous?: Release): Promise<void> {
    await mkdir(this.upgradesDir, { recursive: true });
    if (previous) await writeJson(join(this.upgradesDir, 'previous.json'), previous);
    await writeJson(join(this.upgradesDir, 'current.json'), release);
  }

  /** Forward a signal to the node and let `run` return once it exited. */
  stop(signal: NodeJS.Signals = 'SIGTERM'): void {
    this.stopping = true;
    this.child?.kill(signal);
  }

  /** Run until stopped (0), or until giving up after too many failures (1). */
  async run(): Promise<number> {
    let failures = 0;
    let wait = false;
    let justSwapped: Release | undefined;
    for (;;) {
      const release = await this.current();
      // A stop that came between two nodes (while an upgrade was prepared, a release read, a
      // rollback written) found no child to signal: it must not start another one, or `run` never
      // returns and the supervisor outlives its SIGTERM.
      if (this.stopping) {
        this.log.info('supervisor: stopped between node runs', { release: release.name });
        return 0;
      }
      const args = this.nodeArgs(wait);
      this.log.info('supervisor: starting the node', { release: release.name, entry: release.entry, waitAtUpgrade: wait });
      const startedAt = Date.now();
      const { code, signal } = await this.spawnNode(release, args, wait ? () => this.recheck() : undefined);
      const ranMs = Date.now() - startedAt;
      if (this.stopping) {
        this.log.info('supervisor: node stopped', { release: release.name, code, signal });
        return 0;
      }
      const info = code === UPGRADE_EXIT_CODE ? await this.readInfo().catch(() => undefined) : undefined;
      if (code === UPGRADE_EXIT_CODE && info?.name === release.name) {
        // The release that should implement the plan stops for it: it is the wrong build.
        this.log.error('supervisor: the new release stopped for the very upgrade it should implement', { release: release.name });
      } else if (code === UPGRADE_EXIT_CODE) {
        failures = 0;
        this.log.info('supervisor: the node stopped for an upgrade (exit 42)', { release: release.name, ranMs });
        const next = await this.prepareUpgrade();
        if (!next) {
          wait = true; // refused: the old release keeps running without passing the height
          continue;
        }
        await this.setCurrent(next, release);
        this.log.info('supervisor: swapped to the new release', { from: release.name, to: next.name, entry: next.entry });
        justSwapped = next;
        wait = false;
        continue;
      } else if (code === 0 && signal === null) {
        this.log.info('supervisor: the node exited normally', { release: release.name });
        return 0;
      } else if (code === null && signal === 'SIGTERM' && wait) {
        // stopped by recheck(): a valid release has appeared
        const next = await this.prepareUpgrade();
        if (next) {
          await this.setCurrent(next, release);
          this.log.info('supervisor: swapped to the new release', { from: release.name, to: next.name, entry: next.entry });
          justSwapped = next;
          wait = false;
        }
        continue;
      }
      failures++;
      this.log.error('supervisor: the node failed', { release: release.name, code, signal, ranMs, failures });
      if (justSwapped && justSwapped.name === release.name && ranMs < this.window) {
        const previous = await this.previous();
        this.log.error('supervisor: the new release crashed within the rollback window; rolling back', {
          crashed: release.name, back_to: previous.name, ranMs, windowMs: this.window,
        });
        await this.setCurrent(previous);
        this.rolledBack.add(release.name);
        justSwapped = undefined;
        wait = true;
        continue;
      }
      if (ranMs >= this.window) justSwapped = undefined;
      if (failures >= this.maxFailures) {
        this.log.error('supervisor: giving up after repeated failures', { failures, release: release.name });
        return 1;
      }
      const delay = this.backoff[Math.min(failures - 1, this.backoff.length - 1)] ?? 0;
      this.log.warn('supervisor: restarting after a delay', { delayMs: delay, failures, of: this.maxFailures });
      await sleep(delay); // a stop meanwhile: the check at the top of the loop
    }
  }

  private nodeArgs(wait: boolean): string[] {
    const args = this.options.nodeArgs[0] === 'run' ? this.options.nodeArgs.slice(1) : this.options.nodeArgs;
    return ['run', ...args, ...(wait && !args.includes('--wait-at-upgrade') ? ['--wait-at-upgrade'] : [])];
  }

  private async previous(): Promise<Release> {
    const path = join(this.upgradesDir, 'previous.json');
    return existsSync(path) ? (JSON.parse(await readFile(path, 'utf8')) as Release) : genesisRelease();
  }

  private spawnNode(release: Release, args: string[], poll?: () => Promise<boolean>): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    const child = spawn(process.execPath, [release.entry, ...args], { stdio: 'inherit' });
    this.child = child;
    let timer: NodeJS.Timeout | undefined;
    if (poll) {
      const tick = () => {
        timer = setTimeout(() => {
          void poll().then((ready) => {
            if (ready) {
              this.log.info('supervisor: a valid release is now in place; stopping the waiting node to swap');
              child.kill('SIGTERM');
            } else tick();
          });
        }, this.recheckMs);
      };
      tick();
    }
    return new Promise((resolveExit) => {
      child.once('exit', (code, signal) => {
        if (timer) clearTimeout(timer);
        this.child = undefined;
        resolveExit({ code, signal });
      });
      child.once('error', (error) => {
        this.log.error('supervisor: could not start the node', { entry: release.entry, error: String(error) });
      });
    });
  }

  /** Whether the pending upgrade's release is now valid (checked quietly). */
  private async recheck(): Promise<boolean> {
    const info = await this.readInfo().catch(() => undefined);
    if (!info || this.rolledBack.has(info.name)) return false;
    const tgz = join(this.upgradesDir, info.name, 'release.tgz');
    if (!existsSync(tgz)) return false;
    return sha256(await readFile(tgz)) === info.checksum.toLowerCase();
  }

  private async readInfo(): Promise<UpgradeInfoFile> {
    const info = JSON.parse(await readFile(join(this.dataDir, 'upgrade-info.json'), 'utf8')) as UpgradeInfoFile;
    if (typeof info.name !== 'string' || !/^[A-Za-z0-9._-]{1,64}$/.test(info.name) || info.name === '.' || info.name === '..') {
      throw new SupervisorError(`upgrade-info.json names no valid plan: ${JSON.stringify(info.name)}`);
    }
    if (typeof info.checksum !== 'string' || !/^[0-9a-fA-F]{64}$/.test(info.checksum)) throw new SupervisorError('upgrade-info.json has no SHA-256 checksum');
    return info;
  }

  /**
   * Find (or fetch), verify and unpack the release upgrade-info.json names. Undefined, after
   * logging why, when it cannot be used: then nothing is swapped.
   */
  async prepareUpgrade(): Promise<Release | undefined> {
    let info: UpgradeInfoFile;
    try {
      info = await this.readInfo();
    } catch (error) {
      this.log.error('supervisor: cannot read upgrade-info.json; not swapping', { error: String(error) });
      return undefined;
    }
    this.log.info('supervisor: upgrade requested', { ...info });
    if (this.rolledBack.has(info.name)) {
      this.log.error('supervisor: this release crashed and was rolled back; not swapping to it again (replace it and restart the supervisor)', { release: info.name });
      return undefined;
    }
    const dir = join(this.upgradesDir, info.name);
    const tgz = join(dir, 'release.tgz');
    if (!existsSync(tgz)) {
      if (!info.binary) {
        this.log.error('supervisor: the release is not in place and the plan names no binary URL; not swapping', { expected: tgz });
        return undefined;
      }
      try {
        this.log.info('supervisor: fetching the release', { from: info.binary, to: tgz });
        await mkdir(dir, { recursive: true });
        await writeFile(`${tgz}.part`, await fetchBytes(info.binary));
        await rename(`${tgz}.part`, tgz);
      } catch (error) {
        this.log.error('supervisor: fetching the release failed; not swapping', { from: info.binary, error: String(error) });
        return undefined;
      }
    }
    const actual = sha256(await readFile(tgz));
    if (actual !== info.checksum.toLowerCase()) {
      this.log.error('supervisor: the release does not match the plan\'s checksum; refusing to swap, the old release keeps running', {
        release: tgz, expected: info.checksum.toLowerCase(), actual,
      });
      return undefined;
    }
    this.log.info('supervisor: checksum verified', { release: tgz, sha256: actual });
    const out = join(dir, 'release');
    try {
      await rm(out, { recursive: true, force: true });
      await mkdir(out, { recursive: true });
      await untar(tgz, out);
      const entry = await entryOf(out);
      this.log.info('supervisor: release unpacked', { dir: out, entry });
      return { name: info.name, entry };
    } catch (error) {
      this.log.error('supervisor: the release cannot be unpacked or has no ntv-node entry; not swapping', { release: tgz, error: String(error) });
      return undefined;
    }
  }
}

async function writeJson(path: string, value: unknown): Promise<void> {
  await writeFile(`${path}.tmp`, `${JSON.stringify(value, null, 2)}\n`);
  await rename(`${path}.tmp`, path);
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

async function fetchBytes(url: string): Promise<Uint8Array> {
  if (url.startsWith('file://')) return readFile(fileURLToPath(url));
  if (!/^https?:\/\//.test(url)) throw new SupervisorError(`unsupported binary URL ${url} (http, https or file)`);
  const res = await fetch(url);
  if (!res.ok) throw new SupervisorError(`GET ${url}: HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

/** The system tar (GNU or BSD), as npm's own packing format is a gzipped tar. */
function untar(file: string, into: string): Promise<void> {
  return new Promise((resolveDone, reject) => {
    const p = spawn('tar', ['-xzf', file, '-C', into], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.once('error', reject);
    p.once('exit', (code) => (code === 0 ? resolveDone() : reject(new SupervisorError(`tar exited ${code}: ${err.trim()}`))));
  });
}

/** The `ntv-node` bin of the unpacked package (npm pack puts it under package/). */
async function entryOf(dir: string): Promise<string> {
  const root = existsSync(join(dir, 'package', 'package.json')) ? join(dir, 'package') : dir;
  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { bin?: string | Record<string, string> };
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.['ntv-node'];
  if (!bin) throw new SupervisorError('package.json names no ntv-node bin');
  const entry = resolve(root, bin);
  if (!existsSync(entry)) throw new SupervisorError(`the bin ${bin} is not in the release`);
  return entry;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
