/**
 * State snapshots (spec §4.20 `--serve-snapshots`, `--snapshot-url`, §8; issue 24 item 1;
 * docs/operations.md "Snapshots"), after Agave's snapshots and Cosmos state sync. A snapshot is a
 * `.tar.zst` (the `tar` package, Node 22's zstd) holding `manifest.json` and `state.ntvx`, the
 * state export of src/storage/state-export.ts at a checkpoint height, so a restore is an import:
 * every check of the import applies (checksum, key order, the root recomputed from the records
 * against the tree records and the head block's header).
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createZstdCompress, createZstdDecompress } from 'node:zlib';
import * as tar from 'tar';
import type { BlockHeader } from '../chain/block.js';
import { certifiedHeaderProblem } from '../chain/block-checks.js';
import { chainParams } from '../chain/chain-params.js';
import { readValidatorSet, type StateReadable } from '../chain/validator-set.js';
import type { Logger } from '../logger.js';
import type { ChainStore } from '../storage/chain-store.js';
import { PeerCheckError, peerHeaderProblem, peerHeadersAt, type PeerCheckOptions, type PeerHeader } from './snapshot-peers.js';
import { ExportFormatError, exportFromStore, importIntoDataDir, type ImportResult } from './state-transfer.js';

export const SNAPSHOT_INTERVAL = 1000;
export const SNAPSHOTS_KEPT = 3;
const NAME = /^snapshot-(\d+)\.tar\.zst$/;

export interface SnapshotInfo {
  height: number;
  file: string;
  bytes: number;
  stateRoot: string;
  blockHash: string;
  chainId: number;
}

/**
 * `--serve-snapshots`: a checkpoint every `interval` blocks (1,000), the last 3 kept in
 * `<data-dir>/snapshots/`, served over HTTP at `GET /snapshots` (a JSON listing, newest first) and
 * `GET /snapshots/<file>` (with Range, so a download resumes) on the RPC port + 10.
 */
export class SnapshotService {
  private server: Server | undefined;
  private running: Promise<void> | undefined;
  readonly dir: string;

  constructor(private readonly options: { dataDir: string; interval: number; keep: number; host: string; port: number },
    private readonly deps: { store: ChainStore; logger: Logger }) {
    this.dir = join(options.dataDir, 'snapshots');
  }

  async start(): Promise<number> {
    await mkdir(this.dir, { recursive: true });
    const server = createServer((req, res) => {
      void this.handle(req.method ?? 'GET', (req.url ?? '/').split('?')[0]!, req.headers.range, res);
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', (err: NodeJS.ErrnoException) => reject(new Error(err.code === 'EADDRINUSE'
        ? `--serve-snapshots: ${this.options.host}:${this.options.port} (the RPC port + 10) is already in use`
        : `--serve-snapshots: cannot listen on ${this.options.host}:${this.options.port}: ${err.message}`)));
      server.listen(this.options.port, this.options.host, () => {
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : this.options.port);
      });
    });
  }

  /** The chain's `block` event. */
  onBlock(height: number): void {
    if (height === 0 || height % this.options.interval !== 0 || this.running) return;
    this.running = this.checkpoint()
      .then(() => undefined, (error: unknown) => this.deps.logger.error('snapshot failed', { height, error: (error as Error).message }))
      .finally(() => {
        this.running = undefined;
      });
  }

  async stop(): Promise<void> {
    await this.running;
    const server = this.server;
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  }

  /** Snapshots held, newest first. */
  async list(): Promise<SnapshotInfo[]> {
    const out: SnapshotInfo[] = [];
    for (const name of await readdir(this.dir).catch(() => [] as string[])) {
      if (!NAME.test(name)) continue;
      const meta = await readFile(join(this.dir, `${name}.json`), 'utf8').catch(() => undefined);
      if (!meta) continue;
      out.push({ ...(JSON.parse(meta) as Omit<SnapshotInfo, 'file' | 'bytes'>), file: name, bytes: (await stat(join(this.dir, name))).size });
    }
    return out.sort((a, b) => b.height - a.height);
  }

  /** Write a snapshot of the store's state at its head, then keep the newest `keep`. */
  async checkpoint(): Promise<SnapshotInfo> {
    const started = Date.now();
    const work = await mkdtemp(join(this.dir, '.work-'));
    try {
      const exported = await exportFromStore(this.deps.store, join(work, 'state.ntvx'));
      const { manifest } = exported;
      await writeFile(join(work, 'manifest.json'), JSON.stringify(manifest, null, 2));
      const name = `snapshot-${manifest.height}.tar.zst`;
      const partial = join(this.dir, `${name}.partial`);
      await pipeline(tar.c({ cwd: work, portable: true }, ['manifest.json', 'state.ntvx']) as unknown as Readable, createZstdCompress(), createWriteStream(partial));
      const info = { height: manifest.height, stateRoot: manifest.stateRoot, blockHash: manifest.blockHash, chainId: manifest.chainId };
      await writeFile(join(this.dir, `${name}.json`), JSON.stringify(info));
      await rename(partial, join(this.dir, name));
      const all = await this.list();
      for (const old of all.slice(this.options.keep)) {
        await rm(join(this.dir, old.file), { force: true });
        await rm(join(this.dir, `${old.file}.json`), { force: true });
      }
      const bytes = (await stat(join(this.dir, name))).size;
      this.deps.logger.info('snapshot written', { height: manifest.height, file: name, bytes, records: exported.records, ms: Date.now() - started });
      return { ...info, file: name, bytes };
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  private async handle(method: string, path: string, range: string | undefined, res: import('node:http').ServerResponse): Promise<void> {
    if (method !== 'GET' && method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (path === '/snapshots' || path === '/snapshots/') {
      const list = (await this.list()).map((s) => ({ ...s, url: `/snapshots/${s.file}` }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(list));
      return;
    }
    const m = /^\/snapshots\/([^/]+)$/.exec(path);
    const name = m?.[1];
    if (!name || !NAME.test(name)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: GET /snapshots lists the snapshots\n');
      return;
    }
    const file = join(this.dir, name);
    const size = (await stat(file).catch(() => undefined))?.size;
    if (size === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`no snapshot ${name} (it may have been replaced by a newer one)\n`);
      return;
    }
    const r = range ? /^bytes=(\d+)-$/.exec(range) : null;
    const from = r ? Number(r[1]) : 0;
    if (from > size) {
      res.writeHead(416, { 'content-range': `bytes */${size}` }).end();
      return;
    }
    res.writeHead(r ? 206 : 200, {
      'content-type': 'application/zstd', 'content-length': String(size - from), 'accept-ranges': 'bytes',
      ...(r ? { 'content-range': `bytes ${from}-${size - 1}/${size}` } : {}),
    });
    if (method === 'HEAD') {
      res.end();
      return;
    }
    createReadStream(file, { start: from }).on('error', () => res.destroy()).pipe(res);
  }
}

export class SnapshotError extends Error {}

/**
 * `--snapshot-url <url>` on a first start: download (resuming a partial download of the same URL
 * with a Range request), unpack, and import into `dataDir` (src/operator/state-transfer.ts: verified
 * whole before the head is written, removed on any failure). `url` names a `.tar.zst`, or a
 * serving node's base URL, whose newest listed snapshot is taken.
 */
export async function restoreSnapshot(url: string, dataDir: string, options: {
  chainId?: number; onProgress?: (done: number, total: number) => void; logger: Logger;
  /** the peer check (src/operator/snapshot-peers.ts): the header at the snapshot's height from --bootnodes */
  peers?: Omit<PeerCheckOptions, 'dataDir' | 'logger'>;
}): Promise<ImportResult & { url: string }> {
  if (options.peers && options.peers.bootnodes.length === 0) {
    throw new SnapshotError('--snapshot-url needs --bootnodes: the snapshot\'s head is checked against the header peers serve at its height before anything is restored');
  }
  const fileUrl = await resolveSnapshotUrl(url);
  const partial = join(dataDir, 'snapshot-download.tar.zst.partial');
  const tag = `${partial}.url`;
  const previous = await readFile(tag, 'utf8').catch(() => undefined);
  let have = previous === fileUrl ? ((await stat(partial).catch(() => undefined))?.size ?? 0) : 0;
  if (have === 0) await rm(partial, { force: true });
  await writeFile(tag, fileUrl);
  let res: Response;
  try {
    res = await fetch(fileUrl, have > 0 ? { headers: { range: `bytes=${have}-` } } : {});
  } catch (error) {
    throw new SnapshotError(`--snapshot-url: ${fileUrl} is unreachable (${((error as Error).cause as Error | undefined)?.message ?? (error as Error).message})`);
  }
  if (res.status === 200) have = 0;
  else if (res.status !== 206) throw new SnapshotError(`--snapshot-url: ${fileUrl} answered HTTP ${res.status}`);
  if (have > 0) options.logger.info('resuming the snapshot download', { url: fileUrl, from: have });
  const length = Number(res.headers.get('content-length') ?? 0);
  const total = have + length;
  let done = have;
  const body = Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>);
  body.on('data', (chunk: Buffer) => {
    done += chunk.length;
    options.onProgress?.(done, total);
  });
  try {
    await pipeline(body, createWriteStream(partial, { flags: have > 0 ? 'a' : 'w' }));
  } catch (error) {
    throw new SnapshotError(`--snapshot-url: the download of ${fileUrl} broke off at byte ${done} of ${total} (${(error as Error).message}); start again to resume it`);
  }
  if (length > 0 && done !== total) throw new SnapshotError(`--snapshot-url: the download of ${fileUrl} ended at byte ${done} of ${total}; start again to resume it`);
  const work = await mkdtemp(join(dataDir, '.snapshot-'));
  try {
    try {
      await pipeline(createReadStream(partial), createZstdDecompress(), tar.x({ cwd: work, strict: true }) as unknown as NodeJS.WritableStream);
    } catch (error) {
      throw new SnapshotError(`--snapshot-url: ${fileUrl} is not a sound .tar.zst (${(error as Error).message})`);
    }
    const names = await readdir(work);
    if (!names.includes('state.ntvx')) throw new SnapshotError(`--snapshot-url: ${fileUrl} holds no state.ntvx`);
    const peerHeaders = options.peers ? await checkWithPeers(fileUrl, work, dataDir, { ...options.peers, chainId: options.chainId ?? options.peers.chainId }, options.logger) : undefined;
    let result: ImportResult;
    try {
      result = await importIntoDataDir(join(work, 'state.ntvx'), dataDir, {
        ...(options.chainId === undefined ? {} : { chainId: options.chainId }),
        checkHead: (header, certificate, state) => {
          const problem = snapshotHeadProblem(header, certificate, state);
          if (problem !== undefined) throw new ExportFormatError(`its head block ${header.height}: ${problem}`);
          // The head inside the archive is the one the peers served, and their certificates hold too.
          if (peerHeaders) {
            const disagreement = peerHeaderProblem(header.height, header.hash, peerHeaders);
            if (disagreement !== undefined) throw new ExportFormatError(disagreement);
            for (const p of peerHeaders) {
              const peerProblem = snapshotHeadProblem(p.header, p.certificate, state);
              if (peerProblem !== undefined) throw new ExportFormatError(`peer ${p.peer}'s block ${p.header.height}: ${peerProblem}`);
            }
          }
        },
      });
    } catch (error) {
      if (error instanceof ExportFormatError) throw new SnapshotError(`--snapshot-url: ${fileUrl} is refused: ${error.message}`);
      throw error;
    }
    await rm(partial, { force: true });
    await rm(tag, { force: true });
    return { ...result, url: fileUrl };
  } catch (error) {
    // A corrupt download is not resumed: the next start downloads afresh.
    if (error instanceof SnapshotError && !/resume it/.test(error.message)) await rm(partial, { force: true });
    throw error;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * The peer check before anything is imported (docs/operations.md "Snapshots: the peers' header"):
 * the manifest's chain, then the header at its height from the --bootnodes peers, which must be
 * the manifest's block. Returns the peers' headers for the import's head check.
 */
async function checkWithPeers(fileUrl: string, work: string, dataDir: string, peers: Omit<PeerCheckOptions, 'dataDir' | 'logger'>, logger: Logger): Promise<PeerHeader[]> {
  let manifest: { height?: unknown; blockHash?: unknown; chainId?: unknown };
  try {
    manifest = JSON.parse(await readFile(join(work, 'manifest.json'), 'utf8')) as typeof manifest;
  } catch (error) {
    throw new SnapshotError(`--snapshot-url: ${fileUrl} holds no readable manifest.json (${(error as Error).message})`);
  }
  const { height, blockHash, chainId } = manifest;
  if (typeof height !== 'number' || !Number.isSafeInteger(height) || typeof blockHash !== 'string' || !/^[0-9a-f]{64}$/.test(blockHash)) {
    throw new SnapshotError(`--snapshot-url: ${fileUrl}'s manifest.json names no height and block hash`);
  }
  if (chainId !== peers.chainId) throw new SnapshotError(`--snapshot-url: ${fileUrl} is refused: it is of chain ${String(chainId)}, this node runs chain ${peers.chainId}`);
  logger.info('checking the snapshot\'s head with peers', { height, blockHash, bootnodes: peers.bootnodes.length });
  let headers: PeerHeader[];
  try {
    headers = await peerHeadersAt(height, { ...peers, dataDir, logger });
  } catch (error) {
    if (error instanceof PeerCheckError) throw new SnapshotError(`--snapshot-url: ${fileUrl}: ${error.message}`);
    throw error;
  }
  const problem = peerHeaderProblem(height, Buffer.from(blockHash, 'hex'), headers);
  if (problem !== undefined) throw new SnapshotError(`--snapshot-url: ${fileUrl} is refused: ${problem}`);
  logger.info('the peers serve the snapshot\'s head', { height, peers: headers.map((h) => h.peer) });
  return headers;
}

/**
 * Why a snapshot's head is not to be trusted, or undefined when it is (issue 24 item 1,
 * docs/operations.md "Snapshots: the head check"). The import has already checked that the records
 * hash to the header's state root; here the header must hash to its block hash, carry its
 * proposer's signature, and be finalized: the certificate check block import applies
 * (`certificateProblem`, src/chain/votes.ts) against the validator set of the snapshot's state.
 */
export function snapshotHeadProblem(header: BlockHeader, certificate: Uint8Array, state: StateReadable): string | undefined {
  return certifiedHeaderProblem(header, certificate, readValidatorSet(state), chainParams(state).epochLength, 'the snapshot\'s set');
}

async function resolveSnapshotUrl(url: string): Promise<string> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SnapshotError(`--snapshot-url: "${url}" is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new SnapshotError(`--snapshot-url: "${url}" is not an http(s) URL`);
  if (parsed.pathname.endsWith('.tar.zst')) return parsed.toString();
  const listing = new URL('/snapshots', parsed).toString();
  let res: Response;
  try {
    res = await fetch(listing);
  } catch (error) {
    throw new SnapshotError(`--snapshot-url: ${listing} is unreachable (${((error as Error).cause as Error | undefined)?.message ?? (error as Error).message})`);
  }
  if (res.status !== 200) throw new SnapshotError(`--snapshot-url: ${listing} answered HTTP ${res.status}`);
  const list = (await res.json().catch(() => undefined)) as Array<{ url?: string; height?: number }> | undefined;
  const newest = Array.isArray(list) ? list.find((s) => typeof s.url === 'string') : undefined;
  if (!newest) throw new SnapshotError(`--snapshot-url: ${listing} lists no snapshot yet`);
  return new URL(newest.url!, parsed).toString();
}
