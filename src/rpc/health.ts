/**
 * `GET /health` on the RPC port, for load balancers and orchestrators (issue 26 item 5,
 * docs/rpc.md "Health"): 200 with a small JSON body while the node can answer reads about the
 * chain's present, 503 with the same body and the reasons while it cannot. It is not JSON-RPC (a
 * load balancer probes a path and reads the status code), takes no parameters and reads only
 * in-memory figures, so it is cheap enough to probe every second.
 *
 * Unhealthy means any of:
 * - `syncing`: catching up with peers (spec §6.2 pauses subscriptions then; answers are of the past);
 * - `stale_head`: the head block is older than `staleAfterMs` (10 block times, at least 30 s): the
 *   node stopped producing or receiving blocks. Before the first block the node's start time stands
 *   in for the head's (genesis carries a fixed 2026-01-01 timestamp, docs/genesis.md);
 * - `no_peers`: bootnodes were given (the node is meant to be part of a network) and no peer is connected.
 */
import type Koa from 'koa';

export interface HealthInputs {
  height: number;
  /** head block time, unix seconds */
  headTimestamp: number;
  syncing: boolean;
  peers: number;
  /** --bootnodes were given: a node without peers is cut off from its network */
  expectsPeers: boolean;
  /** ms since the epoch when the node started */
  startedAtMs: number;
  version: string;
}

export interface HealthReport {
  status: 'ok' | 'unhealthy';
  height: number;
  syncing: boolean;
  peers: number;
  /** seconds since the head block (or since start-up, before the first block) */
  head_age_seconds: number;
  reasons: Array<'syncing' | 'stale_head' | 'no_peers'>;
  version: string;
}

/** Stale after this many block times without a new head, and never sooner than MIN_STALE_MS. */
export const STALE_BLOCK_TIMES = 10;
export const MIN_STALE_MS = 30_000;

export function staleAfterMs(blockTimeMs: number): number {
  return Math.max(STALE_BLOCK_TIMES * blockTimeMs, MIN_STALE_MS);
}

export function healthReport(inputs: HealthInputs, staleMs: number, nowMs = Date.now()): HealthReport {
  const since = Math.max(inputs.headTimestamp * 1000, inputs.startedAtMs);
  const ageMs = Math.max(0, nowMs - since);
  const reasons: HealthReport['reasons'] = [];
  if (inputs.syncing) reasons.push('syncing');
  if (ageMs > staleMs) reasons.push('stale_head');
  if (inputs.expectsPeers && inputs.peers === 0) reasons.push('no_peers');
  return {
    status: reasons.length === 0 ? 'ok' : 'unhealthy',
    height: inputs.height,
    syncing: inputs.syncing,
    peers: inputs.peers,
    head_age_seconds: Math.floor(ageMs / 1000),
    reasons,
    version: inputs.version,
  };
}

/** GET / HEAD `/health`: 200 or 503 with the report; every other request goes on. */
export function healthMiddleware(inputs: () => HealthInputs, staleMs: number): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.path !== '/health' || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    const report = healthReport(inputs(), staleMs);
    ctx.status = report.status === 'ok' ? 200 : 503;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = report;
  };
}
