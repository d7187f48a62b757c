import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { createSocket } from 'node:dgram';
import { createServer as createHttpServer } from 'node:http';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { zstdCompressSync, zstdDecompressSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { Level } from 'level';
import * as tar from 'tar';
import { ed25519PublicKey, Signer } from '../../src/codec/keys.js';
import { freePort, sleep, TestNode } from './harness.js';
import { systemAddressHex } from './bundles.js';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const MAIN = join(ROOT, 'dist/src/cli/main.js');

interface Sample { name: string; labels: Record<string, string>; value: number }

/**
 * The Prometheus text exposition format (version 0.0.4), parsed strictly: every line is a comment
 * (# HELP / # TYPE name type) or a sample `name{label="value",…} value`, every sample belongs to a
 * family with a TYPE line, and a malformed line fails the test. Values are Go ParseFloat's, as
 * Prometheus reads them: NaN and Inf in any case (prom-client writes an empty histogram's mean "Nan").
 */
function parsePrometheus(text: string): { types: Map<string, string>; samples: Sample[] } {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
  const sampleLine = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (-?[0-9.eE+-]+|[nN][aA][nN]|[+-]?[iI][nN][fF])(?: -?\\d+)?$`);
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('# HELP ')) continue;
    const type = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      types.set(type[1]!, type[2]!);
      continue;
    }
    const m = sampleLine.exec(line);
    if (!m) throw new Error(`not Prometheus text: ${JSON.stringify(line)}`);
    const labels: Record<string, string> = {};
    if (m[2]) {
      const labelRe = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/gy;
      let consumed = 0;
      for (const l of m[2].matchAll(labelRe)) {
        labels[l[1]!] = l[2]!;
        consumed += l[0].length;
      }
      if (consumed !== m[2].length) throw new Error(`malformed labels: ${JSON.stringify(line)}`);
    }
    const name = m[1]!;
    const family = [name, name.replace(/_(bucket|sum|count|total|created)$/, '')].find((n) => types.has(n));
    if (!family) throw new Error(`sample ${name} has no # TYPE line`);
    samples.push({ name, labels, value: Number(m[3]) });
  }
  return { types, samples };
}

function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}

describe('metrics (spec §4.20 --metrics)', () => {
  let node: TestNode;
  let metricsUrl: string;

  beforeAll(async () => {
    const port = await freePort();
    metricsUrl = `http://127.0.0.1:${port}/metrics`;
    node = await TestNode.start({ args: ['--block-time', '1', '--metrics', '--metrics-port', String(port)] });
  }, 30_000);
  afterAll(async () => {
    await node?.stop();
  });

  const scrape = async () => {
    const res = await fetch(metricsUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return parsePrometheus(await res.text());
  };

  it('serves Prometheus text whose height follows the chain', async () => {
    await node.result('svc_transfer', [systemAddressHex(1), Signer.generate().address, 'NTV', '1000']);
    const first = await scrape();
    const h1 = value(first.samples, 'ntv_block_height')!;
    const chainHeight = (await node.result<{ blockHeight: number }>('svc_getNetworkStats')).blockHeight;
    expect(h1).toBeGreaterThan(0);
    expect(Math.abs(chainHeight - h1)).toBeLessThanOrEqual(1);
    await node.waitForHeight(h1 + 2);
    const second = await scrape();
    expect(value(second.samples, 'ntv_block_height')!).toBeGreaterThanOrEqual(h1 + 2);
    // every family the issue names, with units in the names
    for (const name of ['ntv_block_height', 'ntv_finality_lag_blocks', 'ntv_mempool_bundles', 'ntv_peers', 'ntv_syncing', 'ntv_sync_target_blocks']) {
      expect(second.types.get(name), name).toBe('gauge');
    }
    expect(second.types.get('ntv_block_phase_seconds')).toBe('histogram');
    expect(second.types.get('ntv_rpc_request_duration_seconds')).toBe('histogram');
    expect(second.types.get('ntv_bundles_total')).toBe('counter');
    // a running count of group writes: a counter, never less than the blocks written (issue 42 item 10)
    expect(second.types.get('ntv_storage_write_groups_total')).toBe('counter');
    expect(value(second.samples, 'ntv_storage_write_groups_total')!).toBeGreaterThanOrEqual(1);
    expect(second.types.get('process_resident_memory_bytes')).toBe('gauge');
    expect(second.types.get('process_cpu_seconds_total')).toBe('counter');
    expect(value(second.samples, 'ntv_bundles_total', { status: 'success' })).toBeGreaterThanOrEqual(1);
    expect(value(second.samples, 'ntv_blocks_total', { origin: 'produce' })).toBeGreaterThanOrEqual(2);
    expect(value(second.samples, 'ntv_block_phase_seconds_count', { origin: 'produce', phase: 'execute' })).toBeGreaterThanOrEqual(2);
    // RPC calls by method: the svc_transfer and the svc_getNetworkStats above
    expect(value(second.samples, 'ntv_rpc_requests_total', { method: 'svc_transfer', outcome: 'ok' })).toBe(1);
    expect(value(second.samples, 'ntv_rpc_requests_total', { method: 'svc_getNetworkStats', outcome: 'ok' })).toBeGreaterThanOrEqual(1);
    expect(value(second.samples, 'ntv_rpc_request_duration_seconds_count', { method: 'svc_transfer' })).toBe(1);
  });

  it('the Grafana dashboard (docs/grafana-dashboard.json) queries only metrics the node serves', async () => {
    const dashboard = await readFile(join(ROOT, 'docs/grafana-dashboard.json'), 'utf8');
    const used = new Set([...dashboard.matchAll(/\b((?:ntv|process|nodejs)_[a-z0-9_]+)/g)].map((m) => m[1]!));
    expect(used.size).toBeGreaterThan(10);
    const { types } = await scrape();
    for (const name of used) expect(types.has(name) || types.has(name.replace(/_(bucket|sum|count)$/, '')), name).toBe(true);
  });

  it('counts failed calls as errors and answers 404 off /metrics', async () => {
    await node.call('svc_getBlockByHeight', ['not a height']);
    const { samples } = await scrape();
    expect(value(samples, 'ntv_rpc_requests_total', { method: 'svc_getBlockByHeight', outcome: 'error' })).toBeGreaterThanOrEqual(1);
    expect((await fetch(metricsUrl.replace('/metrics', '/'))).status).toBe(404);
    // the node's log names the endpoint, on loopback by default
    expect(node.logs).toContain(`"metrics":"${metricsUrl}"`);
  });

  it('an RPC or P2P port in use is a clear message and an exit, not a half-started node', async () => {
    // Before: the chain and consensus had started when the listen failed, so the process kept
    // producing blocks with no RPC, and its first SIGTERM waited for a start that never finished.
    const tcp = createServer();
    const rpcPort = await freePort();
    await new Promise<void>((r) => tcp.listen(rpcPort, '127.0.0.1', () => r()));
    const udp = createSocket('udp4');
    await new Promise<void>((r) => udp.bind(0, '127.0.0.1', () => r()));
    const p2pPort = udp.address().port;
    const dir = await mkdtemp(join(tmpdir(), 'ntv-ports-'));
    const run = (args: string[]) => spawnSync(process.execPath, [MAIN, 'run', '-d', dir, '--p2p-host', '127.0.0.1', ...args], {
      encoding: 'utf8', timeout: 20_000, killSignal: 'SIGKILL',
    });
    try {
      const rpc = run(['--rpc-port', String(rpcPort), '--p2p-port', '0']);
      expect(rpc.status).toBe(1);
      expect(rpc.stderr).toContain(`--rpc-port ${rpcPort}: 127.0.0.1:${rpcPort} is already in use`);
      const p2p = run(['--rpc-port', '0', '--p2p-port', String(p2pPort)]);
      expect(p2p.status).toBe(1);
      expect(p2p.stderr).toContain(`--p2p-port ${p2pPort}: UDP 127.0.0.1:${p2pPort} is already in use`);
      // What was opened was closed again: the log says so, and the same data directory starts.
      expect(p2p.stdout).toContain('start failed: closing what was opened');
      expect(p2p.stdout).toContain('"msg":"node stopped"');
      const again = spawn(process.execPath, [MAIN, 'run', '-d', dir, '--rpc-port', '0', '--p2p-port', '0', '--p2p-host', '127.0.0.1'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let log = '';
      again.stdout.on('data', (c: Buffer) => (log += c.toString()));
      const exited = new Promise<number | null>((r) => again.once('exit', (code) => r(code)));
      for (let i = 0; i < 150 && !log.includes('"msg":"node started"'); i++) await sleep(100);
      expect(log).toContain('"msg":"node started"');
      again.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      tcp.close();
      udp.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('a metrics port in use is a clear message and a non-zero exit', async () => {
    const blocker = createServer();
    const port = await freePort();
    await new Promise<void>((r) => blocker.listen(port, '127.0.0.1', () => r()));
    const dir = await mkdtemp(join(tmpdir(), 'ntv-metrics-'));
    try {
      const run = spawnSync(process.execPath, [MAIN, 'run', '-d', dir, '--rpc-port', '0', '--p2p-port', '0', '--p2p-host', '127.0.0.1', '--metrics', '--metrics-port', String(port)], {
        encoding: 'utf8', timeout: 20_000,
      });
      expect(run.status).not.toBe(0);
      expect(run.stdout + run.stderr).toContain(`--metrics-port ${port}: 127.0.0.1:${port} is already in use`);
      const flagOnly = spawnSync(process.execPath, [MAIN, 'run', '-d', dir, '--metrics-external'], { encoding: 'utf8', timeout: 20_000 });
      expect(flagOnly.status).not.toBe(0);
      expect(flagOnly.stdout + flagOnly.stderr).toContain('take effect only with --metrics');
    } finally {
      blocker.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 45_000);
});

describe('graceful shutdown (issue 24 item 7)', () => {
  it('SIGTERM and SIGINT under load exit 0 after closing the database; the next start resumes at the same head', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ntv-shutdown-'));
    try {
      for (const signal of ['SIGTERM', 'SIGINT'] as const) {
        const rpcPort = await freePort();
        const child = spawn(process.execPath, [MAIN, 'run', '-d', dataDir, '--rpc-port', String(rpcPort), '--p2p-port', '0', '--p2p-host', '127.0.0.1',
          '--rpc-rate-limit', '0', '--rpc-max-connections-per-ip', '0', '--block-time', '1'], { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', (c: Buffer) => (out += c.toString()));
        child.stderr.on('data', (c: Buffer) => (out += c.toString()));
        const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
        const call = async (method: string, params: unknown[] = []) => {
          const res = await fetch(`http://127.0.0.1:${rpcPort}/`, {
            method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
          });
          return (await res.json()) as { result?: { blockHeight?: number } };
        };
        const deadline = Date.now() + 20_000;
        while (Date.now() < deadline && !(await call('svc_version').catch(() => undefined))?.result) await sleep(100);
        // load: transfers in flight while the signal arrives
        let running = true;
        const load = Array.from({ length: 4 }, async (_, w) => {
          while (running) await call('svc_transfer', [systemAddressHex(1 + (w % 2)), Signer.generate().address, 'NTV', '1000']).catch(() => undefined);
        });
        await sleep(1500);
        child.kill(signal);
        const code = await exited;
        running = false;
        await Promise.all(load);
        expect(code, out).toBe(0);
        const lines = out.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { msg: string; height?: number });
        const stopped = lines.find((l) => l.msg === 'node stopped');
        expect(stopped, out).toBeDefined();
        // the next start resumes from the head the shutdown left
        const again = await TestNode.start({ dataDir, args: ['--block-time', '1'] });
        try {
          const height = (await again.result<{ blockHeight: number }>('svc_getNetworkStats')).blockHeight;
          expect(height).toBeGreaterThanOrEqual(stopped!.height!);
          await again.waitForHeight(stopped!.height! + 1);
        } finally {
          await again.kill9().then(() => undefined);
        }
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});

/** Run the CLI to completion (export, import, a refused start): status and output. */
function cli(args: string[], timeout = 60_000): { status: number | null; out: string } {
  const run = spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8', timeout });
  return { status: run.status, out: run.stdout + run.stderr };
}

/** The same, without blocking this process (the test serves HTTP the child fetches from). */
function cliAsync(args: string[], timeout = 60_000): Promise<{ status: number | null; out: string }> {
  return new Promise((resolveRun) => {
    const child = spawn(process.execPath, [MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeout);
    child.once('exit', (status) => {
      clearTimeout(timer);
      resolveRun({ status, out });
    });
  });
}

const RUN_ARGS = ['--rpc-port', '0', '--p2p-port', '0', '--p2p-host', '127.0.0.1'];

describe('integrity (spec §4.20 --verify-on-start, --rocksdb-verify-interval-secs)', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'ntv-verify-'));
    const node = await TestNode.start({ dataDir, args: ['--block-time', '1', '--rocksdb-verify-interval-secs', '1'] });
    try {
      for (let i = 0; i < 3; i++) await node.result('svc_transfer', [systemAddressHex(1), Signer.generate().address, 'NTV', '1000']);
      // the background sweep runs on a snapshot while blocks are written, and finds nothing
      const deadline = Date.now() + 20_000;
      while (!node.logs.includes('"msg":"integrity sweep"') && Date.now() < deadline) await sleep(100);
      expect(node.logs).toContain('"msg":"integrity sweep"');
      expect(node.logs).not.toContain('malformed');
    } finally {
      await node.stop();
    }
  }, 60_000);
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('a sound database starts with --verify-on-start; a record corrupted on purpose stops it, its key named', async () => {
    const sound = await TestNode.start({ dataDir, args: ['--verify-on-start'] });
    expect(sound.logs).toContain('"msg":"stored records verified"');
    await sound.kill9();
    const db = new Level<Uint8Array, Uint8Array>(join(dataDir, 'db'), { keyEncoding: 'view', valueEncoding: 'view' });
    let balanceKey: Uint8Array | undefined;
    for await (const [key, value] of db.iterator({ gt: Uint8Array.of(0x73, 0x02), lt: Uint8Array.of(0x73, 0x03) })) {
      balanceKey = key;
      const altered = Uint8Array.from(value);
      altered[0]! ^= 1;
      await db.put(key, altered);
      break;
    }
    await db.put(Uint8Array.of(0x62, 1, 2, 3), new Uint8Array(20)); // a block location with a short key
    await db.close();
    const refused = cli(['run', '-d', dataDir, ...RUN_ARGS, '--verify-on-start']);
    expect(refused.status, refused.out).not.toBe(0);
    expect(refused.out).toContain(Buffer.from(balanceKey!).toString('hex'));
    expect(refused.out).toContain('value does not match its state-root leaf');
    expect(refused.out).toContain('62010203: block location key of 4 bytes, expected 9');
    expect(refused.out).toMatch(/--verify-on-start: \d+ malformed records among \d+/);
  }, 60_000);
});

describe('export and import (npx ntv-node export / import, --dry-run-import)', () => {
  let source: string;
  let exported: string;
  let head: { height: number; stateRoot: string; hash: string };
  const recipient = Signer.generate().address;
  beforeAll(async () => {
    source = await mkdtemp(join(tmpdir(), 'ntv-export-'));
    const node = await TestNode.start({ dataDir: source, args: ['--block-time', '1'] });
    try {
      for (let i = 0; i < 3; i++) await node.result('svc_transfer', [systemAddressHex(1), recipient, 'NTV', '1000']);
    } finally {
      await node.stop();
    }
    exported = join(source, 'state.ntvx');
    const run = cli(['export', '-d', source, '--out', exported]);
    expect(run.status, run.out).toBe(0);
    const report = JSON.parse(run.out.slice(run.out.indexOf('{'))) as { height: number; stateRoot: string; blockHash: string; records: number };
    expect(report.records).toBeGreaterThan(10);
    head = { height: report.height, stateRoot: report.stateRoot, hash: report.blockHash };
  }, 60_000);
  afterAll(async () => {
    await rm(source, { recursive: true, force: true });
  });

  it('export then import gives the same head and state root, and the node goes on from it', async () => {
    const target = await mkdtemp(join(tmpdir(), 'ntv-import-'));
    try {
      const run = cli(['import', exported, '-d', target, '--network', 'testnet']);
      expect(run.status, run.out).toBe(0);
      expect(JSON.parse(run.out.slice(run.out.indexOf('{')))).toMatchObject({ height: head.height, stateRoot: head.stateRoot });
      // an import never replaces a database
      const again = cli(['import', exported, '-d', target]);
      expect(again.status).not.toBe(0);
      expect(again.out).toContain('already exists: import into a new data directory');
      const node = await TestNode.start({ dataDir: target, args: ['--block-time', '1', '--validator-key', join(source, 'validator.key'), '--verify-on-start'] });
      try {
        const block = await node.result<{ height: number; stateRoot: string; hash: string }>('svc_getBlockByHeight', [head.height]);
        expect(block.height).toBe(head.height);
        // the recomputed root of the imported records equals the head block's (--verify-on-start), as the chain's start check does
        expect(node.logs).toContain('"msg":"stored records verified"');
        const balance = await node.result<string>('svc_getBalance', [recipient, 'NTV']);
        expect(BigInt(balance)).toBe(3000n);
        // it produces on top of the imported head
        const receipt = await node.result<{ block_height: number }>('svc_transfer', [systemAddressHex(1), recipient, 'NTV', '1']);
        expect(receipt.block_height).toBeGreaterThan(head.height);
        // state at past blocks (docs/operations.md "Pruning"): the export carries the state at its
        // head, not its history, so state is served from the export height on, and -32013 below it
        // names that height; the blocks made since add to the window
        expect(await node.result('svc_getBalance', [recipient, 'NTV', head.height])).toBe('3000');
        expect(await node.result('svc_getBalance', [recipient, 'NTV', receipt.block_height])).toBe('3001');
        expect(await node.result('svc_getBalance', [recipient, 'NTV', receipt.block_height - 1])).toBe('3000');
        const below = (await node.call('svc_getBalance', [recipient, 'NTV', head.height - 1])).error;
        expect(below).toMatchObject({ code: -32013, data: { oldest_height: head.height } });
      } finally {
        await node.stop();
      }
    } finally {
      await rm(target, { recursive: true, force: true });
    }
  }, 60_000);

  it('--dry-run-import reports a sound export and refuses malformed ones, naming the first bad records, the data dir untouched', async () => {
    const ok = cli(['run', '-d', source, '--dry-run-import', exported]);
    expect(ok.status, ok.out).toBe(0);
    expect(JSON.parse(ok.out.slice(ok.out.indexOf('{')))).toMatchObject({ dryRun: true, height: head.height, stateRoot: head.stateRoot });

    const plain = zstdDecompressSync(await readFile(exported));
    const bad = join(source, 'bad.ntvx');
    const refuse = async (bytes: Uint8Array, expected: RegExp) => {
      await writeFile(bad, bytes);
      const listing = await readdir(join(source, 'db'));
      const run = cli(['run', '-d', source, '--dry-run-import', bad]);
      expect(run.status, run.out).not.toBe(0);
      expect(run.out).toMatch(expected);
      expect(await readdir(join(source, 'db'))).toEqual(listing);
      return run.out;
    };
    // a value altered: its key named
    const { offset, key } = firstRecord(plain);
    const altered = Buffer.from(plain);
    altered[offset + 6 + key.length]! ^= 1;
    await refuse(zstdCompressSync(altered), new RegExp(`records disagree with the state-root tree:\\n  ${key.toString('hex')}: value does not match`));
    // truncated, in the middle of the records
    await refuse(zstdCompressSync(plain.subarray(0, Math.floor(plain.length / 2))), /is truncated/);
    // a truncated zstd stream
    const file = await readFile(exported);
    await refuse(file.subarray(0, file.length - 10), /not a complete zstd stream|is truncated/);
    // not an export at all
    await refuse(zstdCompressSync(Buffer.from('hello')), /is not a state export/);
    await refuse(Buffer.from('not zstd'), /not a zstd stream/);
    // two records swapped: out of key order, named
    const second = nextRecord(plain, offset + 6 + key.length + firstRecord(plain).valueLength);
    const swapped = Buffer.concat([
      plain.subarray(0, offset), plain.subarray(second.start, second.end), plain.subarray(offset, second.start), plain.subarray(second.end),
    ]);
    await refuse(zstdCompressSync(swapped), new RegExp(`record 2 \\(key ${key.toString('hex')}\\) is out of key order`));
    const missing = cli(['run', '-d', source, '--dry-run-import', join(source, 'nope.ntvx')]);
    expect(missing.status).not.toBe(0);
    expect(missing.out).toContain('no such file');
  }, 60_000);
});

/** The first record of an uncompressed export: where it starts, its key and value length. */
function firstRecord(plain: Buffer): { offset: number; key: Buffer; valueLength: number } {
  let at = 9;
  for (let i = 0; i < 5; i++) at += 4 + plain.readUInt32BE(at);
  const keyLength = plain.readUInt16BE(at);
  const valueLength = plain.readUInt32BE(at + 2);
  return { offset: at, key: plain.subarray(at + 6, at + 6 + keyLength), valueLength };
}

function nextRecord(plain: Buffer, start: number): { start: number; end: number } {
  const keyLength = plain.readUInt16BE(start);
  const valueLength = plain.readUInt32BE(start + 2);
  return { start, end: start + 6 + keyLength + valueLength };
}

describe('pruning (spec §4.20 --pruning)', () => {
  it('keeps only its window and answers older heights with the documented error naming the oldest height kept; survives a restart', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ntv-prune-'));
    const args = ['--block-time', '0.5', '--pruning', 'aggressive', '--pruning-keep-blocks', '10', '--pruning-every', '5'];
    let node = await TestNode.start({ dataDir, args });
    try {
      await node.result('svc_transfer', [systemAddressHex(1), Signer.generate().address, 'NTV', '1000']);
      await node.waitForHeight(26, 60_000);
      const deadline = Date.now() + 20_000;
      while (!node.logs.includes('"msg":"pruned"') && Date.now() < deadline) await sleep(100);
      const head = (await node.result<{ blockHeight: number }>('svc_getNetworkStats')).blockHeight;
      const old = await node.call('svc_getBlockByHeight', [2]);
      expect(old.error?.code).toBe(-32013);
      const oldest = (old.error!.data as { oldest_height: number }).oldest_height;
      expect(old.error!.message).toBe(`block 2 is not held by this node: it keeps blocks from ${oldest} on (pruned, or restored from a snapshot or export at ${oldest})`);
      expect(oldest).toBeGreaterThan(head - 20);
      expect(oldest).toBeLessThanOrEqual(head - 9);
      // the window and genesis are served; eth_getBlockByNumber gives the same error below it
      expect((await node.result<{ height: number }>('svc_getBlockByHeight', [oldest])).height).toBe(oldest);
      expect((await node.result<{ height: number }>('svc_getBlockByHeight', [0])).height).toBe(0);
      expect((await node.call('eth_getBlockByNumber', ['0x2', false])).error?.code).toBe(-32013);
      // a restart keeps the oldest height
      await node.stop();
      node = await TestNode.start({ dataDir, args });
      expect((await node.call('svc_getBlockByHeight', [oldest - 1])).error?.data).toMatchObject({ oldest_height: oldest });
      // the state window too (docs/operations.md "Pruning": at most the kept blocks, here 10): below it -32013 naming its oldest
      const state = (await node.call('svc_getBalance', [systemAddressHex(1), 'NTV', 1])).error;
      expect(state).toMatchObject({ code: -32013, data: { height: 1 } });
      expect(Number(state!.data!.oldest_height)).toBeGreaterThanOrEqual(oldest);
    } finally {
      await node.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('an unknown mode is a clear message', () => {
    const run = cli(['run', '-d', tmpdir(), '--pruning', 'everything']);
    expect(run.status).not.toBe(0);
    expect(run.out).toContain('--pruning: unknown mode "everything"; the modes are archive');
    expect(run.out).not.toContain('    at ');
  });
});

/**
 * A snapshot (`.tar.zst` of manifest.json + state.ntvx, src/operator/snapshots.ts) re-packed with its
 * export's head sections edited (src/storage/state-export.ts: magic, then u32 BE length-prefixed
 * manifest, block, outcome, certificate, genesis; the trailing SHA-256 recomputed), so what is
 * tested is the head check, not the checksum.
 */
async function repackSnapshot(good: Buffer, edit: (sections: Buffer[]) => void): Promise<Buffer> {
  const work = await mkdtemp(join(tmpdir(), 'ntv-repack-'));
  try {
    await writeFile(join(work, 'in.tar'), zstdDecompressSync(good));
    await tar.x({ cwd: work, file: join(work, 'in.tar') });
    const raw = zstdDecompressSync(await readFile(join(work, 'state.ntvx')));
    const sections: Buffer[] = [];
    let at = 9;
    for (let i = 0; i < 5; i++) {
      const n = raw.readUInt32BE(at);
      sections.push(Buffer.from(raw.subarray(at + 4, at + 4 + n)));
      at += 4 + n;
    }
    edit(sections);
    const body = Buffer.concat([raw.subarray(0, 9), ...sections.flatMap((x) => { const n = Buffer.alloc(4); n.writeUInt32BE(x.length); return [n, x]; }), raw.subarray(at, raw.length - 32)]);
    await writeFile(join(work, 'state.ntvx'), zstdCompressSync(Buffer.concat([body, createHash('sha256').update(body).digest()])));
    await tar.c({ cwd: work, file: join(work, 'out.tar'), portable: true }, ['manifest.json', 'state.ntvx']);
    return zstdCompressSync(await readFile(join(work, 'out.tar')));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * Each case's `run` exits non-zero with its message, no stack trace, and no database left behind.
 * The cases run side by side (each mostly waits on its download or its peers).
 */
async function refusedCleanly(cases: Array<[string, string[], RegExp]>, common: string[]): Promise<void> {
  await Promise.all(cases.map(async ([what, args, expected]) => {
    const data = await mkdtemp(join(tmpdir(), 'ntv-snap-bad-'));
    try {
      const run = await cliAsync(['run', '-d', data, ...common, ...args]);
      expect(run.status, `${what}: ${run.out}`).not.toBe(0);
      expect(run.out, what).toMatch(expected);
      expect(run.out, what).not.toContain('    at ');
      expect(await readdir(join(data, 'db')).catch(() => []), what).toEqual([]);
    } finally {
      await rm(data, { recursive: true, force: true });
    }
  }));
}

describe('snapshots (spec §4.20 --serve-snapshots, --snapshot-url)', () => {
  let dir: string;
  let a: TestNode;
  let genesisArgs: string[];
  let base: string;
  let bootnode: string;
  /** C: a chain of its own validator key, the flags otherwise A's (the forged chain of the peer check) */
  let c: TestNode;
  const recipient = Signer.generate().address;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ntv-snap-'));
    const seed = Buffer.alloc(32, 7);
    await writeFile(join(dir, 'a.key'), seed.toString('hex'));
    await writeFile(join(dir, 'c.key'), Buffer.alloc(32, 9).toString('hex'));
    // Epochs of 5 blocks, so a validator staked by the light node's test joins the set within seconds.
    await writeFile(join(dir, 'params.json'), JSON.stringify({ epoch_length: 5 }));
    genesisArgs = ['--genesis-validators', Buffer.from(ed25519PublicKey(seed)).toString('hex'), '--chain-params', join(dir, 'params.json')];
    [a, c] = await Promise.all([
      TestNode.start({ args: ['--validator-key', join(dir, 'a.key'), '--block-time', '1', '--serve-snapshots', '--snapshot-interval', '5', ...genesisArgs] }),
      TestNode.start({ args: ['--validator-key', join(dir, 'c.key'), '--block-time', '1', '--serve-snapshots', '--snapshot-interval', '5',
        '--genesis-validators', Buffer.from(ed25519PublicKey(Buffer.alloc(32, 9))).toString('hex')] }),
    ]);
    base = `http://127.0.0.1:${a.port + 10}/`;
    for (let i = 0; i < 3; i++) await a.result('svc_transfer', [systemAddressHex(1), recipient, 'NTV', '1000']);
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const list = (await (await fetch(`${base}snapshots`)).json()) as unknown[];
      if (list.length > 0) break;
      await sleep(200);
    }
    bootnode = (await a.result<{ addresses: string[] }>('svc_validatorHealth')).addresses.find((x) => x.includes('/quic-v1/p2p/'))!;
  }, 90_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), c?.stop()]);
    await rm(dir, { recursive: true, force: true });
  });

  it('node B bootstraps from A\'s snapshot URL and reaches the same head and state root', async () => {
    const list = (await (await fetch(`${base}snapshots`)).json()) as Array<{ height: number; file: string; stateRoot: string; url: string }>;
    expect(list[0]!.height % 5).toBe(0);
    expect(list[0]!.file).toMatch(/^snapshot-\d+\.tar\.zst$/);
    const b = await TestNode.start({ dataDir: join(dir, 'b'), args: ['--snapshot-url', base, '--bootnodes', bootnode, '--block-time', '1', ...genesisArgs] });
    try {
      const restored = b.logs.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { msg: string; height?: number }).find((l) => l.msg === 'snapshot restored');
      expect(restored, b.logs).toBeDefined();
      expect(restored!.height! % 5).toBe(0);
      const target = (await a.result<{ blockHeight: number }>('svc_getNetworkStats')).blockHeight;
      await b.waitForHeight(target, 60_000);
      const [x, y] = await Promise.all([a.result<{ hash: string; stateRoot: string }>('svc_getBlockByHeight', [target]), b.result<{ hash: string; stateRoot: string }>('svc_getBlockByHeight', [target])]);
      expect(y).toMatchObject({ hash: x.hash, stateRoot: x.stateRoot });
      expect(await b.result('svc_getBalance', [recipient])).toBe(await a.result('svc_getBalance', [recipient]));
      if (restored!.height! > 1) expect((await b.call('svc_getBlockByHeight', [1])).error?.code).toBe(-32013);
      // state is served from the restore height on (the snapshot carries the state, not its history)
      expect(await b.result('svc_getBalance', [recipient, 'NTV', restored!.height!])).toBe(await a.result('svc_getBalance', [recipient, 'NTV', restored!.height!]));
      if (restored!.height! > 0) expect((await b.call('svc_getBalance', [recipient, 'NTV', restored!.height! - 1])).error).toMatchObject({ code: -32013, data: { oldest_height: restored!.height! } });
    } finally {
      await b.stop();
    }
  }, 120_000);

  it('a corrupted, unreachable or other-chain snapshot is refused cleanly, leaving no database', async () => {
    const list = (await (await fetch(`${base}snapshots`)).json()) as Array<{ url: string }>;
    const good = Buffer.from(await (await fetch(new URL(list[0]!.url, base))).arrayBuffer());
    const bad = Buffer.from(good);
    bad[Math.floor(bad.length / 2)]! ^= 0xff;
    // The head check (issue 24 item 1): a certificate that does not verify, and a root that the
    // records do not hash to (the header and the manifest both naming it).
    const badCert = await repackSnapshot(good, (s) => {
      s[3] = s[3]!.length > 0 ? Buffer.from(s[3]!) : Buffer.alloc(120, 1);
      s[3]![s[3]!.length - 1]! ^= 0xff;
    });
    const fakeRoot = 'ab'.repeat(32);
    const badRoot = await repackSnapshot(good, (s) => {
      const manifest = JSON.parse(s[0]!.toString()) as { stateRoot: string };
      const realRoot = manifest.stateRoot;
      s[0] = Buffer.from(s[0]!.toString().replace(realRoot, fakeRoot));
      s[1] = Buffer.from(s[1]!.toString('latin1').replace(realRoot, fakeRoot), 'latin1');
    });
    const served: Record<string, Buffer> = { '/bad.tar.zst': bad, '/cut.tar.zst': good.subarray(0, good.length >> 1), '/cert.tar.zst': badCert, '/root.tar.zst': badRoot };
    const server = createHttpServer((req, res) => res.writeHead(200).end(served[req.url ?? ''] ?? Buffer.alloc(0)));
    const port = await freePort();
    await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
    try {
      const cases: Array<[string, string[], RegExp]> = [
        ['corrupt', ['--snapshot-url', `http://127.0.0.1:${port}/bad.tar.zst`, '--bootnodes', bootnode], /is (refused|not a sound \.tar\.zst)/],
        ['truncated', ['--snapshot-url', `http://127.0.0.1:${port}/cut.tar.zst`, '--bootnodes', bootnode], /is (refused|not a sound \.tar\.zst)/],
        ['unreachable', ['--snapshot-url', `http://127.0.0.1:${await freePort()}/x.tar.zst`, '--bootnodes', bootnode], /is unreachable/],
        ['tampered certificate', ['--snapshot-url', `http://127.0.0.1:${port}/cert.tar.zst`, '--bootnodes', bootnode], /is refused: its head block \d+: the finality certificate does not hold: /],
        ['tampered root', ['--snapshot-url', `http://127.0.0.1:${port}/root.tar.zst`, '--bootnodes', bootnode], new RegExp(`is refused: .*its records hash to state root [0-9a-f]{64}, its manifest names ${fakeRoot}`)],
        ['another chain', ['--snapshot-url', base, '--network', 'mainnet', '--bootnodes', bootnode], /is of chain 1618032, this node runs chain 1618033/],
        ['no bootnodes', ['--snapshot-url', base], /--snapshot-url needs --bootnodes/],
      ];
      await refusedCleanly(cases, [...RUN_ARGS, ...genesisArgs]);
    } finally {
      server.close();
    }
  }, 120_000);

  it('the peer check refuses a snapshot of a forged chain, and one no peer can vouch for (issue 24)', async () => {
    // C's snapshot passes every check inside the archive (its certificates hold against its own
    // set), but A, the bootnode, serves another block at that height.
    try {
      const forged = `http://127.0.0.1:${c.port + 10}/`;
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline && ((await (await fetch(`${forged}snapshots`)).json()) as unknown[]).length === 0) await sleep(200);
      const dead = `/ip4/127.0.0.1/udp/${await freePort()}/quic-v1/p2p/${bootnode.split('/p2p/')[1]}`;
      const cases: Array<[string, string[], RegExp]> = [
        ['forged chain', ['--snapshot-url', forged, '--bootnodes', bootnode], /is refused: its head block \d+ is [0-9a-f]{64}, peer \S+ serves [0-9a-f]{64} at that height \(a fork or a forged chain\)/],
        ['unreachable peers', ['--snapshot-url', base, '--bootnodes', dead], /no peer of --bootnodes answered within \d+ s on this node's genesis [0-9a-f]{64} .*nothing was restored/],
      ];
      await refusedCleanly(cases, [...RUN_ARGS, ...genesisArgs]);
    } finally {
      await c.stop();
    }
  }, 90_000);

  it('a --light node follows A\'s head from headers and certificates across a validator-set change, answers -32013 for state, and resumes after a restart', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ntv-light-'));
    const args = ['--light', '--bootnodes', bootnode, ...genesisArgs];
    let light = await TestNode.start({ dataDir, args });
    try {
      const target = (await a.result<{ blockHeight: number }>('svc_getNetworkStats')).blockHeight;
      const followed = async (height: number) => {
        const deadline = Date.now() + 30_000;
        while (Date.now() < deadline) {
          if (Number.parseInt(await light.result<string>('eth_blockNumber'), 16) >= height) return;
          await sleep(200);
        }
        throw new Error(`the light node did not reach ${height}:\n${light.logs.slice(-3000)}`);
      };
      await followed(target);
      const [full, header] = await Promise.all([
        a.result<{ hash: string; stateRoot: string; parentHash: string }>('svc_getBlockByHeight', [target]),
        light.result<{ hash: string; stateRoot: string; parentHash: string; light: boolean; finality: { voters: string[] } | null }>('svc_getBlockByHeight', [target]),
      ]);
      expect(header).toMatchObject({ hash: full.hash, stateRoot: full.stateRoot, parentHash: full.parentHash, light: true });
      expect(header.finality?.voters).toEqual([genesisArgs[1]]);
      expect(await light.result('eth_chainId')).toBe(await a.result('eth_chainId'));
      // The set it checks certificates with is proven from a verified header's state root.
        const health = await light.result<{ light: boolean; validatorSetHeight: number; votingValidators: number; peers: number; headersRefused: number }>('svc_validatorHealth');
      expect(health).toMatchObject({ light: true, votingValidators: 1, headersRefused: 0 });
      expect(health.validatorSetHeight).toBeGreaterThan(0);
      expect((await fetch(new URL('/health', light.url))).status).toBe(200);
      // State methods: a clear -32013 naming the light node; unknown names stay -32601.
      for (const [method, params] of [['svc_getBalance', [recipient]], ['eth_getBalance', [recipient, 'latest']], ['svc_transfer', [systemAddressHex(1), recipient, 'NTV', '1']]] as const) {
        const res = await light.call(method, [...params]);
        expect(res.error, method).toMatchObject({ code: -32013, data: { reason: 'LIGHT_NODE', method } });
        expect(res.error!.message).toContain('light node (--light)');
      }
      expect((await light.call('no_such_method')).error?.code).toBe(-32601);
      expect((await light.call('svc_getBlockByHeight', [10_000_000])).error?.code).toBe(-32003);
      // A set change (a second validator joins at the next epoch boundary): the light node proves
      // the new set from a later header's state root and goes on verifying certificates against it.
      const staker = Signer.generate().address;
      await a.result('svc_transfer', [systemAddressHex(1), staker, 'NTV', (2000n * 10n ** 9n).toString()]);
      expect((await a.result<{ status: string }>('svc_stake', [staker, (1000n * 10n ** 9n).toString(), Buffer.alloc(32, 11).toString('hex')])).status).toBe('success');
      const changed = Date.now() + 30_000;
      let after = await light.result<{ votingValidators: number; validatorSetHeight: number; headersRefused: number }>('svc_validatorHealth');
      while (after.votingValidators < 2 && Date.now() < changed) {
        await sleep(250);
        after = await light.result('svc_validatorHealth');
      }
      expect(after, light.logs.slice(-3000)).toMatchObject({ votingValidators: 2, headersRefused: 0 });
      expect(light.logs).toContain('validator set changed');
      await followed(after.validatorSetHeight + 1);
      // Restart: it opens at the height it had stored, then follows on.
      const before = Number.parseInt(await light.result<string>('eth_blockNumber'), 16);
      await light.stop();
      light = await TestNode.start({ dataDir, args });
      const opened = light.logs.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { msg: string; height?: number }).find((l) => l.msg === 'light node opened');
      expect(opened?.height, light.logs).toBeGreaterThanOrEqual(before);
      await followed(before + 2);
    } finally {
      await light.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('--light refuses the flags of a validator and needs --genesis-validators', () => {
    const withKey = cli(['run', '-d', tmpdir(), '--light', '--validator-key', join(dir, 'a.key'), '--bootnodes', bootnode, ...genesisArgs]);
    expect(withKey.status).not.toBe(0);
    expect(withKey.out).toContain('--light cannot be combined with --validator-key');
    const noGenesis = cli(['run', '-d', tmpdir(), '--light', '--bootnodes', bootnode]);
    expect(noGenesis.status).not.toBe(0);
    expect(noGenesis.out).toContain('--light needs --genesis-validators');
  });
});
