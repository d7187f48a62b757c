/**
 * Prometheus metrics (spec §4.20 `--metrics`, `--metrics-port`, `--metrics-external`; issue 24
 * item 5; docs/operations.md "Metrics"). One prom-client registry per node, as Lodestar exposes its
 * beacon node: gauges read on scrape (height, finality lag, mempool, peers, sync), histograms and
 * counters fed by the chain's `block` event and the RPC's call observer, and prom-client's process
 * metrics. Names carry their unit (`_seconds`, `_bytes`, `_total`), the Prometheus naming rule.
 */
import { createServer, type Server } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ChainReader } from '../chain/interface.js';
import type { ProducedBlock } from '../chain/producer.js';

/** What the gauges read on each scrape; node.ts wires it to the chain, the p2p view and the store. */
export interface MetricsSources {
  chain: Pick<ChainReader, 'height' | 'headHeader' | 'syncing'> & { readonly mempoolSize: number; readonly executionParent: { height: number } };
  peers(): number;
  /** the transaction lookup index's height (docs/storage.md), -1 when none */
  lookupHeight(): number;
  /** group commits since start (docs/storage.md "The writer thread") */
  writeStats(): { groups: number; blocks: number };
}

/** Buckets for block phases: 0.1 ms … 10 s (a full block executes in ~30 ms, a write ~5–20 ms). */
const PHASE_BUCKETS = [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];
/** Buckets for RPC calls: 50 µs … 30 s (the inclusion timeout). */
const RPC_BUCKETS = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5, 30];

const PHASES = ['wait', 'verify', 'execute', 'commit', 'receipts', 'index', 'write'] as const;

export class NodeMetrics {
  readonly registry = new Registry();
  private readonly blockSeconds: Histogram<'origin'>;
  private readonly phaseSeconds: Histogram<'origin' | 'phase'>;
  private readonly blocks: Counter<'origin'>;
  private readonly bundles: Counter<'status'>;
  private readonly gas: Counter;
  private readonly rpcRequests: Counter<'method' | 'outcome'>;
  private readonly rpcSeconds: Histogram<'method'>;
  private readonly syncDone: Gauge;
  private readonly syncTarget: Gauge;

  constructor(sources: MetricsSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    const { chain } = sources;
    new Gauge({ name: 'ntv_block_height', help: 'Height of the last durable (final) block', registers, collect() { this.set(chain.height); } });
    new Gauge({
      name: 'ntv_finality_lag_blocks', help: 'Blocks executed but not yet final (execution head minus durable head; docs/consensus.md "Commit on finality")',
      registers, collect() { this.set(Math.max(0, chain.executionParent.height - chain.height)); },
    });
    new Gauge({
      name: 'ntv_head_age_seconds', help: 'Seconds since the timestamp of the last durable block',
      registers, collect() { this.set(Math.max(0, Date.now() / 1000 - chain.headHeader.timestamp)); },
    });
    new Gauge({ name: 'ntv_mempool_bundles', help: 'Bundles waiting in the mempool', registers, collect() { this.set(chain.mempoolSize); } });
    new Gauge({ name: 'ntv_peers', help: 'Connected peers', registers, collect() { this.set(sources.peers()); } });
    new Gauge({ name: 'ntv_syncing', help: '1 while the node catches up from peers, else 0', registers, collect() { this.set(chain.syncing ? 1 : 0); } });
    new Gauge({
      name: 'ntv_tx_lookup_height', help: 'Height up to which every block has its transaction lookup records (docs/storage.md)',
      registers, collect() { this.set(sources.lookupHeight()); },
    });
    // A running count, so a counter (issue 42 item 10; it was a gauge): rate() works on it.
    let groupsSeen = 0;
    new Counter({
      name: 'ntv_storage_write_groups_total', help: 'Synced block batches written since start (group commit)',
      registers,
      collect() {
        const groups = sources.writeStats().groups;
        if (groups > groupsSeen) this.inc(groups - groupsSeen);
        groupsSeen = groups;
      },
    });
    this.syncDone = new Gauge({ name: 'ntv_sync_done_blocks', help: 'Blocks imported in the current or last catch-up', registers });
    this.syncTarget = new Gauge({ name: 'ntv_sync_target_blocks', help: 'Blocks to import in the current or last catch-up', registers });
    this.blocks = new Counter({ name: 'ntv_blocks_total', help: 'Blocks made durable, by origin (produce: this node; import: a peer\'s)', labelNames: ['origin'], registers });
    this.blockSeconds = new Histogram({
      name: 'ntv_block_seconds', help: 'Time of a block from execution to durable write, by origin', labelNames: ['origin'], buckets: PHASE_BUCKETS, registers,
    });
    this.phaseSeconds = new Histogram({
      name: 'ntv_block_phase_seconds', help: 'Time of a block in each pipeline phase (docs/architecture.md "Block path by file"), by origin',
      labelNames: ['origin', 'phase'], buckets: PHASE_BUCKETS, registers,
    });
    this.bundles = new Counter({
      name: 'ntv_bundles_total', help: 'Bundles by outcome: success and failed are in blocks; left_out were selected but not included (invalid or retried)',
      labelNames: ['status'], registers,
    });
    this.gas = new Counter({ name: 'ntv_gas_used_total', help: 'Gas used by durable blocks', registers });
    this.rpcRequests = new Counter({
      name: 'ntv_rpc_requests_total', help: 'JSON-RPC calls of registered methods, by method and outcome (ok, error)', labelNames: ['method', 'outcome'], registers,
    });
    this.rpcSeconds = new Histogram({
      name: 'ntv_rpc_request_duration_seconds', help: 'JSON-RPC call time by method, from dispatch to result', labelNames: ['method'], buckets: RPC_BUCKETS, registers,
    });
  }

  /** The chain's `block` event: a block is durable. */
  observeBlock(produced: ProducedBlock): void {
    const timings = produced.timings;
    // An imported block (src/chain/import.ts) is verified before it executes; a produced one is not.
    const origin = timings.verify === undefined ? 'produce' : 'import';
    let total = 0;
    for (const phase of PHASES) {
      const ms = timings[phase];
      if (ms === undefined) continue;
      total += ms;
      this.phaseSeconds.observe({ origin, phase }, ms / 1000);
    }
    this.blockSeconds.observe({ origin }, total / 1000);
    this.blocks.inc({ origin });
    this.gas.inc(produced.block.header.gasUsed);
    const result = produced.result;
    const failed = result.failedCount();
    if (result.count - failed > 0) this.bundles.inc({ status: 'success' }, result.count - failed);
    if (failed > 0) this.bundles.inc({ status: 'failed' }, failed);
    if (produced.leftOut > 0) this.bundles.inc({ status: 'left_out' }, produced.leftOut);
  }

  /** The RPC's call observer (MethodRegistry.observeCalls). */
  observeCall(method: string, seconds: number, ok: boolean): void {
    this.rpcRequests.inc({ method, outcome: ok ? 'ok' : 'error' });
    this.rpcSeconds.observe({ method }, seconds);
  }

  /** Catch-up progress (src/p2p/sync.ts onProgress). */
  observeSync(done: number, total: number): void {
    this.syncDone.set(done);
    this.syncTarget.set(total);
  }
}

export interface MetricsServer {
  port: number;
  /** Start answering from this registry (the node listens first, so a port in use fails before anything opens). */
  serve(registry: Registry): void;
  close(): Promise<void>;
}

/**
 * Serve `GET /metrics` in the Prometheus text format on its own port (spec §4.20: 9100), bound to
 * loopback unless `--metrics-external`. A port in use is an Error naming the flag.
 */
export function serveMetrics(options: { host: string; port: number }): Promise<MetricsServer> {
  let registry: Registry | undefined;
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: metrics are at /metrics\n');
      return;
    }
    const current = registry;
    if (!current) {
      res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '1' }).end('the node is starting\n');
      return;
    }
    current.metrics().then(
      (text) => res.writeHead(200, { 'content-type': current.contentType }).end(req.method === 'HEAD' ? undefined : text),
      (err: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics collection failed: ${(err as Error).message}\n`),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      const where = `${options.host}:${options.port}`;
      if (err.code === 'EADDRINUSE') reject(new Error(`--metrics-port ${options.port}: ${where} is already in use (another node or exporter?); pick another port with --metrics-port`));
      else if (err.code === 'EACCES') reject(new Error(`--metrics-port ${options.port}: not allowed to listen on ${where} (a port below 1024 needs privileges)`));
      else reject(new Error(`--metrics-port ${options.port}: cannot listen on ${where}: ${err.message}`));
    });
    server.listen(options.port, options.host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : options.port;
      resolve({
        port,
        serve: (r) => {
          registry = r;
        },
        close: () => new Promise<void>((done) => {
          server.closeAllConnections();
          server.close(() => done());
        }),
      });
    });
  });
}
