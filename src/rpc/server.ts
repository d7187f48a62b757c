/**
 * The JSON-RPC 2.0 server: Koa + koa-bodyparser for HTTP POST `/` and `ws` on the same
 * http.Server (spec §1.1 and §6: WebSocket on the same port, default 9933), both dispatching through
 * one MethodRegistry. Binds to 127.0.0.1 unless told otherwise (spec §5.11).
 *
 * Hot path: POST `/` is served by one Koa middleware that parses, rate-limits, dispatches and
 * writes the reply itself (no router, no per-request closures); everything else falls through to
 * the optional `httpMiddleware` (the later GET `/` explorer page), then 404/405.
 *
 * Before any of that (hardening issue items 4 and 5, docs/rpc.md "Browsers and origins" and
 * "Connections"): a connection over the per-IP cap is refused, a POST must be JSON and come from no
 * page, the node's own page or an `--rpc-cors` origin, a CORS preflight is answered here, and a
 * WebSocket upgrade from a page must be same-origin or `--ws-origins`.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import Koa from 'koa';
import bodyParser from 'koa-bodyparser';
import { WebSocketServer, WebSocket, type RawData } from 'ws';
import type { Logger } from '../logger.js';
import { APP_ERRORS, STANDARD_ERRORS } from './errors.js';
import { parseArrayByElement } from './batch-parse.js';
import { RateLimiter } from './rate-limit.js';
import { bodyCost, byteCost } from './costs.js';
import { ConnectionLimiter, defaultMaxConnections, perIpLimitsApply, remoteIp, type RefusalReason } from './connections.js';
import { HostList, OriginList, PREFLIGHT_MAX_AGE_SECONDS, corsAllowed, isJsonContentType, originAllowed, originOf } from './origin.js';
import type { CallContext, MethodRegistry, RpcConnection } from './registry.js';
import {
  Dispatcher,
  failure,
  parseErrorResponse,
  rateLimitedResponse,
  type DispatchResult,
  type JsonRpcResponse,
} from './dispatch.js';

export interface RpcServerOptions {
  /** Default 127.0.0.1 (spec §5.11: RPC reachable from localhost only unless the operator says so). */
  readonly host?: string;
  /** Default 9933 (spec §1.8); 0 picks a free port (tests). */
  readonly port?: number;
  /** Largest HTTP body in bytes; larger is HTTP 413 with a -32600 body. Default 5 MiB. */
  readonly bodyLimit?: number;
  /** Longest batch; longer is -32600. Default 1000. */
  readonly maxBatch?: number;
  /** Per-IP JSON-RPC calls per second over HTTP and WS together (spec §4.20), 0 = unlimited. Default 100. */
  readonly rateLimit?: number;
  /**
   * How long an idle keep-alive HTTP connection stays open between two requests, in ms; advertised
   * to clients as `Keep-Alive: timeout=<s>`. Default 120 000 (Node's own default is 5 000).
   */
  readonly keepAliveTimeoutMs?: number;
  /**
   * A request's headers must all arrive within this many ms of its first byte (or of the
   * connection opening), else HTTP 408 and the connection is closed (slow-header "slowloris"
   * connections, and connections that never send anything). Default 10 000.
   */
  readonly headersTimeoutMs?: number;
  /**
   * A whole request, headers and body, must arrive within this many ms, else HTTP 408 and close
   * (a body trickled in byte by byte). Only the upload counts, not the wait for the reply (a write
   * waiting for its block). At least headersTimeoutMs. Default 30 000.
   */
  readonly requestTimeoutMs?: number;
  /** Open TCP connections per client IP (HTTP and WebSocket together); more get 503. 0 = no cap. Default 128. */
  readonly maxConnectionsPerIp?: number;
  /**
   * Open TCP connections in all (HTTP keep-alive and WebSocket); more get 503 and a warning is
   * logged. 0 = no cap. Default: half the process's open-file limit, at most 4096 (defaultMaxConnections).
   */
  readonly maxConnections?: number;
  /**
   * Whether the per-IP limits (rateLimit, maxConnectionsPerIp, maxWsConnectionsPerIp and the
   * subscription and filter shares) apply to loopback clients (127.0.0.0/8, ::1). Default false:
   * a wallet or script on the node's machine is the operator's (issue 42 item 4); set it behind a
   * reverse proxy on the same machine (`--rpc-limit-loopback`).
   */
  readonly limitLoopback?: boolean;
  /** Largest reply to one call in bytes; larger is LIMIT_EXCEEDED (RESPONSE_TOO_LARGE). 0 = none. Default 16 MiB. */
  readonly maxResponseBytes?: number;
  /** Largest reply to one batch in bytes (geth's --rpc.batch-response-max-size). 0 = none. Default 25,000,000. */
  readonly maxBatchResponseBytes?: number;
  /**
   * Bytes per second of large bodies (64 KiB and more: HTTP bodies and WebSocket messages) the node
   * reads from all clients together, loopback included; beyond it such a body is refused on its
   * headers with 429 like an over-budget client's. 0 = none. Default 32 MiB/s.
   */
  readonly maxBodyBytesPerSecond?: number;
  /**
   * Origins of web pages allowed to POST JSON-RPC and read the reply (CORS, `--rpc-cors`):
   * `scheme://host[:port]` entries or `*`. Default none: only requests without `Origin` (non-browser
   * clients) and same-origin ones (the explorer page on GET `/`).
   */
  readonly corsOrigins?: readonly string[];
  /** Origins of web pages allowed to open a WebSocket (`--ws-origins`), as corsOrigins. Default none. */
  readonly wsOrigins?: readonly string[];
  /**
   * Host names POST `/` and WebSocket upgrades may be addressed to (`Host` header, `--rpc-vhosts`);
   * IP literals always pass, `*` = any. Default ['localhost'] (against DNS rebinding).
   */
  readonly vhosts?: readonly string[];
  /** Rate-limit bucket capacity (burst) in calls. Default = rateLimit. */
  readonly rateBurst?: number;
  /** Open WebSocket connections at most; more are refused with HTTP 503 at upgrade. Default 1000. */
  readonly maxWsConnections?: number;
  /** Open WebSocket connections per client IP (a share of maxWsConnections); more get 503. 0 = none. Default 32. */
  readonly maxWsConnectionsPerIp?: number;
  /**
   * Send buffers of all WebSocket connections together at most, in bytes: checked every second, the
   * connections with the largest buffers are closed until the total is under it. Default 256 MiB.
   */
  readonly maxWsBufferedTotalBytes?: number;
  /** Largest WebSocket message in bytes; larger closes the connection with 1009. Default = bodyLimit. */
  readonly maxWsMessageBytes?: number;
  /** Calls in progress per WebSocket connection; more are answered SERVER_BUSY. Default 64. */
  readonly maxWsInFlight?: number;
  /**
   * Send buffer per connection, in bytes: a notification that finds the buffer over it is held back
   * (the subscription's 64-block rule, spec §6.1); a reply that finds it over it closes the
   * connection (a client that does not read its replies, as geth drops one). Default 4 MiB.
   */
  readonly maxWsBufferedBytes?: number;
  /** WebSocket ping interval; a connection silent for two intervals is dropped. Default 30 s, 0 = off. */
  readonly wsPingIntervalMs?: number;
  /**
   * Koa middleware for every HTTP request that is not POST `/` (e.g. the explorer page on GET `/`).
   * Requests it leaves without a body get 404, or 405 on `/`.
   */
  readonly httpMiddleware?: Koa.Middleware;
  /**
   * How POST `/` is served. 'direct' (default): the http.Server's request listener answers it before
   * Koa builds a context — Koa's fixed cost per request (context objects, on-finished listeners,
   * compose) alone kept a trivial method under 0.8× a bare node:http server (bench/rpc.ts).
   * 'koa': through a Koa middleware with koa-bodyparser. Both give the same replies.
   */
  readonly hotPath?: 'direct' | 'koa';
}

export interface RpcServerDependencies {
  readonly registry: MethodRegistry;
  readonly logger: Logger;
  /** The rate limiter's clock in ms (default Date.now); tests step a manual one. */
  readonly now?: () => number;
}

const BODY_ERROR = Symbol('rpc.bodyError');
type BodyErrorContext = Koa.Context & { [BODY_ERROR]?: Error & { status?: number; type?: string } };

const DEFAULT_BODY_LIMIT = 5 * 1024 * 1024;
/**
 * Idle keep-alive connections are closed after 120 s, not Node's 5 s. A client that pauses longer
 * than the idle timeout between two requests, e.g. with its event loop busy signing bundles,
 * writes its next POST into a socket the node has already closed before it reads the FIN: fetch
 * (undici) then fails with `other side closed` and does not retry a POST. No JSON-RPC error can be
 * sent for that, as no request was in flight when the node closed. The signed-transfer benchmark hit
 * it after 14 s of signing between funding and submitting. 120 s is geth's HTTP idle timeout. Only
 * idle connections are affected: headersTimeout and requestTimeout apply while a request is read,
 * not while its reply waits for inclusion in a block (Node ≥ 18).
 */
const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 120_000;
/**
 * Slow-upload limits (hardening issue item 5). Node's own are 60 s for headers and 300 s for a
 * request, checked every 30 s: a client could hold a connection 90 s for free with a header line a
 * minute. 10 s for headers is ample for any real client; 30 s for a whole request leaves a 5 MiB
 * body (the body limit) room at ~170 KiB/s.
 */
const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/**
 * Open connections per IP. Browsers open at most 6 per host, SDKs a small pool; 128 leaves room for
 * a load test (bench/rpc.ts uses 50) while 2,000 idle sockets from one address are refused.
 */
const DEFAULT_MAX_CONNECTIONS_PER_IP = 128;
/**
 * Reply budgets (issue 46; docs/rpc.md "Response budget"). 25,000,000 bytes per batch is geth's
 * --rpc.batch-response-max-size; one call's reply may be 16 MiB (a block of 10,000 bundles with
 * their receipts is ~6 MB), larger asks for a narrower range.
 */
const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
const DEFAULT_MAX_BATCH_RESPONSE_BYTES = 25_000_000;
/**
 * Large bodies parsed per second from all clients together: JSON.parse reads ~100–300 MB/s on this
 * machine's cores, so 32 MiB/s keeps it to a fraction of one core however many addresses send them.
 */
const DEFAULT_MAX_BODY_BYTES_PER_SECOND = 32 * 1024 * 1024;
/** The key of the node-wide bucket of large bodies. */
const GLOBAL = '*';
/** How often the total of the WebSocket send buffers is checked. */
const WS_BUFFER_SWEEP_MS = 1_000;
/** At most one warning per this interval while connections are refused at the global cap. */
const REFUSAL_LOG_INTERVAL_MS = 10_000;
const JSON_TYPE = 'application/json; charset=utf-8';
const PARSE_ERROR_JSON = JSON.stringify(parseErrorResponse());
const EMPTY_BODY_JSON = JSON.stringify(parseErrorResponse('empty body'));
/** Bodies from this size are parsed element by element when they are an array (src/rpc/batch-parse.ts). */
const SPLIT_PARSE_MIN_BYTES = 16 * 1024;

/** What an HTTP POST `/` gets back; json undefined = no body (204). */
interface HttpReply {
  readonly status: number;
  /** the JSON text, or its UTF-8 bytes (a batch's, Dispatcher.bytes) */
  readonly json?: string | Buffer;
  readonly retryAfterSeconds?: number;
  /** Close the connection after the reply (oversize upload not read to its end). */
  readonly close?: boolean;
}

const NO_CONTENT: HttpReply = Object.freeze({ status: 204 });

function tooLarge(): Error & { status: number; type: string } {
  return Object.assign(new Error('request entity too large'), { status: 413, type: 'entity.too.large' });
}
const noop = async (): Promise<void> => {};

const CORS_ALLOW_METHODS = 'POST, OPTIONS';
// Content-Type is the only non-safelisted header a JSON-RPC call needs.
const CORS_ALLOW_HEADERS = 'Content-Type';
const VARY_PREFLIGHT = 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers';

export class RpcServer {
  readonly host: string;
  readonly app: Koa;
  readonly #options: Required<Omit<RpcServerOptions, 'httpMiddleware' | 'rateBurst' | 'corsOrigins' | 'wsOrigins' | 'vhosts'>>;
  /** Whether the per-IP limits apply to a client (all but loopback ones unless limitLoopback). */
  readonly perIpApplies: (ip: string) => boolean;
  readonly #wsPerIp = new Map<string, number>();
  #sweeper: NodeJS.Timeout | undefined;
  /** refusals by reason since the last warning, and when that was (a flood logs one line per 10 s) */
  readonly #refusals: Record<RefusalReason, number> = { 'per-ip': 0, global: 0 };
  #refusalLoggedAt = 0;
  readonly #koaHandler: (req: http.IncomingMessage, res: http.ServerResponse) => void;
  readonly #logger: Logger;
  readonly #dispatcher: Dispatcher;
  readonly #limiter: RateLimiter;
  /** large bodies from all clients, in cost units of body bytes (one bucket, key GLOBAL) */
  readonly #bodies: RateLimiter;
  readonly #connections: ConnectionLimiter;
  readonly #cors: OriginList;
  readonly #wsOrigins: OriginList;
  readonly #vhosts: HostList;
  readonly #server: http.Server;
  readonly #wss: WebSocketServer;
  // One CallContext per HTTP socket, reused across keep-alive requests (no per-request allocation).
  readonly #httpContexts = new WeakMap<object, CallContext>();
  readonly #alive = new WeakSet<WebSocket>();
  #pinger: NodeJS.Timeout | undefined;
  #connectionSeq = 0;
  #port: number | undefined;

  constructor(options: RpcServerOptions, dependencies: RpcServerDependencies) {
    const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
    this.#options = {
      host: options.host ?? '127.0.0.1',
      port: options.port ?? 9933,
      bodyLimit,
      maxBatch: options.maxBatch ?? 1000,
      rateLimit: options.rateLimit ?? 100,
      keepAliveTimeoutMs: options.keepAliveTimeoutMs ?? DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
      headersTimeoutMs: options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: options.requestTimeoutMs ?? Math.max(DEFAULT_REQUEST_TIMEOUT_MS, options.headersTimeoutMs ?? 0),
      maxConnectionsPerIp: options.maxConnectionsPerIp ?? DEFAULT_MAX_CONNECTIONS_PER_IP,
      maxConnections: options.maxConnections ?? defaultMaxConnections(),
      limitLoopback: options.limitLoopback ?? false,
      maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      maxBatchResponseBytes: options.maxBatchResponseBytes ?? DEFAULT_MAX_BATCH_RESPONSE_BYTES,
      maxBodyBytesPerSecond: options.maxBodyBytesPerSecond ?? DEFAULT_MAX_BODY_BYTES_PER_SECOND,
      maxWsConnections: options.maxWsConnections ?? 1000,
      maxWsConnectionsPerIp: options.maxWsConnectionsPerIp ?? 32,
      maxWsBufferedTotalBytes: options.maxWsBufferedTotalBytes ?? 256 * 1024 * 1024,
      maxWsMessageBytes: options.maxWsMessageBytes ?? bodyLimit,
      maxWsInFlight: options.maxWsInFlight ?? 64,
      maxWsBufferedBytes: options.maxWsBufferedBytes ?? 4 * 1024 * 1024,
      wsPingIntervalMs: options.wsPingIntervalMs ?? 30_000,
      hotPath: options.hotPath ?? 'direct',
    };
    this.host = this.#options.host;
    const { headersTimeoutMs, requestTimeoutMs } = this.#options;
    if (!(headersTimeoutMs > 0) || !(requestTimeoutMs >= headersTimeoutMs)) {
      throw new RangeError(`headersTimeoutMs (${headersTimeoutMs}) must be > 0 and at most requestTimeoutMs (${requestTimeoutMs})`);
    }
    this.perIpApplies = perIpLimitsApply(this.#options.limitLoopback);
    this.#connections = new ConnectionLimiter({
      maxPerIp: this.#options.maxConnectionsPerIp,
      maxTotal: this.#options.maxConnections,
      perIpApplies: this.perIpApplies,
      onRefused: (reason, ip) => this.#connectionRefused(reason, ip),
    });
    this.#cors = new OriginList(options.corsOrigins ?? []);
    this.#wsOrigins = new OriginList(options.wsOrigins ?? []);
    this.#vhosts = new HostList(options.vhosts ?? ['localhost']);
    this.#logger = dependencies.logger;
    this.#dispatcher = new Dispatcher({
      registry: dependencies.registry, logger: this.#logger, maxBatch: this.#options.maxBatch,
      maxResponseBytes: this.#options.maxResponseBytes, maxBatchResponseBytes: this.#options.maxBatchResponseBytes,
    });
    this.#limiter = new RateLimiter({
      ratePerSecond: this.#options.rateLimit,
      ...(options.rateBurst !== undefined ? { burst: options.rateBurst } : {}),
      ...(dependencies.now !== undefined ? { now: dependencies.now } : {}),
    });

    const bodyUnitsPerSecond = byteCost(this.#options.maxBodyBytesPerSecond);
    // Room for one body at the size limit at least, or no large body could ever pass.
    this.#bodies = new RateLimiter({
      ratePerSecond: bodyUnitsPerSecond, burst: Math.max(bodyUnitsPerSecond, byteCost(bodyLimit) + 1),
      ...(dependencies.now !== undefined ? { now: dependencies.now } : {}),
    });

    this.app = new Koa();
    // Koa would print errors to stderr; ours go to the node's logger with a context object.
    this.app.silent = true;
    this.app.on('error', (err: unknown) => this.#logger.warn('rpc http error', { err }));
    this.app.use(this.#rpcMiddleware(options.httpMiddleware === undefined));
    if (options.httpMiddleware !== undefined) {
      this.app.use(options.httpMiddleware);
      this.app.use(notFoundMiddleware);
    }

    this.#koaHandler = this.app.callback();
    this.#server = http.createServer(
      {
        headersTimeout: headersTimeoutMs,
        requestTimeout: requestTimeoutMs,
        keepAliveTimeout: this.#options.keepAliveTimeoutMs,
        // Node checks the two timeouts above only this often (its default, 30 s, would let a
        // slow-header connection live 30 s past a 10 s limit).
        connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(headersTimeoutMs / 4))),
      },
      (req, res) => this.#onRequest(req, res),
    );
    // Before the http.Server's own listener sees the socket, so a refused one is never counted as open.
    this.#server.prependListener('connection', (socket: Socket) => {
      this.#connections.admit(socket);
    });
    this.#wss = new WebSocketServer({ noServer: true, maxPayload: this.#options.maxWsMessageBytes });
    this.#server.on('upgrade', (req, socket, head) => this.#onUpgrade(req, socket, head));
    this.#wss.on('connection', (ws: WebSocket, req: http.IncomingMessage) => this.#onConnection(ws, req));
  }

  /** The bound port once started. */
  get port(): number {
    if (this.#port === undefined) throw new Error('RpcServer is not started');
    return this.#port;
  }

  get url(): string {
    return `http://${this.host.includes(':') ? `[${this.host}]` : this.host}:${this.port}/`;
  }

  /** Listens; resolves with the bound port (useful with port 0). */
  start(): Promise<number> {
    return new Promise((resolve, reject) => {
      const onError = (err: Error): void => reject(err);
      this.#server.once('error', onError);
      this.#server.listen(this.#options.port, this.#options.host, () => {
        this.#server.off('error', onError);
        this.#server.on('error', (err) => this.#logger.error('rpc server error', { err }));
        const address = this.#server.address();
        this.#port = typeof address === 'object' && address !== null ? address.port : this.#options.port;
        if (this.#options.wsPingIntervalMs > 0) {
          this.#pinger = setInterval(() => this.#ping(), this.#options.wsPingIntervalMs);
          this.#pinger.unref();
        }
        this.#sweeper = setInterval(() => this.#sweepWsBuffers(), WS_BUFFER_SWEEP_MS);
        this.#sweeper.unref();
        this.#logger.info('rpc listening', {
          host: this.host, port: this.#port, maxConnections: this.#options.maxConnections, limitLoopback: this.#options.limitLoopback,
        });
        resolve(this.#port);
      });
    });
  }

  /** Stops listening and closes every HTTP and WebSocket connection. */
  async stop(): Promise<void> {
    if (this.#pinger !== undefined) clearInterval(this.#pinger);
    this.#pinger = undefined;
    if (this.#sweeper !== undefined) clearInterval(this.#sweeper);
    this.#sweeper = undefined;
    this.#limiter.close();
    this.#bodies.close();
    const closing: Array<Promise<void>> = [];
    for (const ws of this.#wss.clients) {
      closing.push(new Promise((resolve) => ws.once('close', () => resolve())));
      ws.close(1001, 'server stopping');
    }
    // A peer that does not answer the close frame is cut off.
    const cutoff = setTimeout(() => {
      for (const ws of this.#wss.clients) ws.terminate();
    }, 500);
    await Promise.all(closing);
    clearTimeout(cutoff);
    await new Promise<void>((resolve) => this.#wss.close(() => resolve()));
    if (!this.#server.listening) return;
    await new Promise<void>((resolve, reject) => {
      this.#server.close((err) => (err ? reject(err) : resolve()));
      this.#server.closeAllConnections();
    });
    this.#logger.info('rpc stopped', { port: this.#port });
  }

  // ---------------------------------------------------------------- HTTP

  /** Every HTTP request: origin and content checks for `/`, then the direct path or Koa. */
  #onRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
    if (this.#connections.refused(req.socket)) {
      res.destroy();
      return;
    }
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    if ((q === -1 ? url : url.slice(0, q)) === '/') {
      if (req.method === 'OPTIONS' && originOf(req.headers) !== undefined) return this.#preflight(req, res);
      if (req.method === 'POST') {
        const refusal = this.#gate(req, res) ?? this.#overBudget(req);
        if (refusal !== undefined) return this.#writeDirect(res, refusal);
        if (this.#options.hotPath === 'direct' && url === '/') return this.#direct(req, res);
      }
    }
    this.#koaHandler(req, res);
  }

  /**
   * A POST `/` addressed to a host name not in `--rpc-vhosts`, or from a web page of another origin
   * not in `--rpc-cors`, is 403; a body that does not
   * say it is JSON is 415 (a browser sends text/plain, form or multipart cross-origin without a
   * preflight). Both -32600 with id null, the body not read, the connection closed. An allowed
   * cross-origin request gets its CORS headers on `res` here.
   */
  #gate(req: http.IncomingMessage, res: http.ServerResponse): HttpReply | undefined {
    const origin = originOf(req.headers);
    if (!this.#vhosts.allows(req.headers.host)) {
      return {
        status: 403,
        close: true,
        json: JSON.stringify(
          failure(null, STANDARD_ERRORS.INVALID_REQUEST.code, `invalid request: host ${req.headers.host} is not allowed (--rpc-vhosts)`, { host: req.headers.host }),
        ),
      };
    }
    if (!originAllowed(req.headers, this.#cors)) {
      return {
        status: 403,
        close: true,
        json: JSON.stringify(
          failure(null, STANDARD_ERRORS.INVALID_REQUEST.code, `invalid request: origin ${origin} is not allowed (--rpc-cors)`, { origin }),
        ),
      };
    }
    if (!isJsonContentType(req.headers['content-type'])) {
      return {
        status: 415,
        close: true,
        json: JSON.stringify(
          failure(null, STANDARD_ERRORS.INVALID_REQUEST.code, 'invalid request: Content-Type must be application/json', {
            contentType: req.headers['content-type'] ?? null,
          }),
        ),
      };
    }
    if (origin !== undefined && corsAllowed(origin, this.#cors)) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Vary', 'Origin');
    }
    return undefined;
  }

  /**
   * CORS preflight (OPTIONS `/` with Origin): 204 with the allow headers for an origin in
   * `--rpc-cors` asking for POST; 403 without them otherwise, so the browser never sends the call.
   */
  #preflight(req: http.IncomingMessage, res: http.ServerResponse): void {
    const origin = originOf(req.headers)!;
    const method = req.headers['access-control-request-method'];
    res.setHeader('Vary', VARY_PREFLIGHT);
    res.setHeader('Content-Length', '0');
    if (!corsAllowed(origin, this.#cors) || (method !== undefined && method.toUpperCase() !== 'POST')) {
      res.statusCode = 403;
      res.end();
      return;
    }
    res.statusCode = 204;
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Allow-Methods', CORS_ALLOW_METHODS);
    res.setHeader('Access-Control-Allow-Headers', CORS_ALLOW_HEADERS);
    res.setHeader('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_SECONDS));
    res.end();
  }

  /** The RPC's reply to one parsed body (shared by both HTTP paths). */
  #answer(body: unknown, callContext: CallContext): HttpReply | Promise<HttpReply> {
    const limited = this.#limited(callContext.ip);
    if (limited) {
      const decision = this.#limiter.take(callContext.ip, bodyCost(body));
      if (!decision.ok) {
        return {
          status: 429,
          json: this.#dispatcher.serialize(rateLimitedResponse(body, decision)),
          retryAfterSeconds: Math.max(1, Math.ceil(decision.retryAfterMs / 1000)),
        };
      }
    }
    const result = this.#dispatcher.handle(body, callContext);
    return result instanceof Promise ? result.then((r) => this.#toReply(r, limited ? callContext.ip : undefined)) : this.#toReply(result, limited ? callContext.ip : undefined);
  }

  /** The reply's bytes, charged to the client's bucket when it is rate-limited (src/rpc/costs.ts). */
  #toReply(result: DispatchResult, chargeIp: string | undefined): HttpReply {
    // Notifications only: JSON-RPC 2.0 §6 sends nothing back.
    if (result === undefined) return NO_CONTENT;
    const json = this.#dispatcher.bytes(result);
    if (chargeIp !== undefined) this.#limiter.charge(chargeIp, byteCost(typeof json === 'string' ? json.length : json.length));
    return { status: 200, json };
  }

  /** Whether calls from `ip` are rate-limited: a limit is set and the per-IP limits apply to it. */
  #limited(ip: string): boolean {
    return !this.#limiter.unlimited && this.perIpApplies(ip);
  }

  /**
   * A client over its budget is refused on its headers, before its body is read or parsed (issue
   * 46: 120 bodies of 5 MiB from 20 addresses froze the node for 19 s): a body of 64 KiB or more
   * must fit its bucket with one call besides, and is charged for its bytes. The connection is
   * closed, so the upload is never read. A smaller body is cheap to parse and is refused after, with
   * its call's id. A body without Content-Length (chunked) is checked as it streams (#direct).
   */
  #overBudget(req: http.IncomingMessage): HttpReply | undefined {
    const declared = Number(req.headers['content-length'] ?? 0);
    const bodyUnits = Number.isFinite(declared) && declared > 0 ? byteCost(declared) : 0;
    return bodyUnits === 0 ? undefined : this.#takeBodyBytes(remoteIp(req.socket), bodyUnits);
  }

  /**
   * Charges a large body's bytes to its client (when rate-limited) and to the node's budget of large
   * bodies from all clients (issue 46: 5 MiB bodies from many addresses, each within its own
   * budget, still add up), or the 429 refusal (id null, connection closed) when they do not fit.
   */
  #takeBodyBytes(ip: string, bodyUnits: number): HttpReply | undefined {
    const limited = this.#limited(ip);
    let decision = limited ? this.#limiter.peek(ip, 1 + bodyUnits) : { ok: true as const };
    if (decision.ok) decision = this.#bodies.take(GLOBAL, bodyUnits);
    if (decision.ok) {
      if (limited) this.#limiter.charge(ip, bodyUnits);
      return undefined;
    }
    return {
      status: 429,
      close: true,
      json: JSON.stringify(rateLimitedResponse(null, decision)),
      retryAfterSeconds: Math.max(1, Math.ceil(decision.retryAfterMs / 1000)),
    };
  }

  #connectionRefused(reason: RefusalReason, ip: string): void {
    this.#refusals[reason]++;
    const now = Date.now();
    if (reason === 'per-ip' && this.#refusals.global === 0) this.#logger.debug('rpc connection refused: per-IP cap', { ip, cap: this.#options.maxConnectionsPerIp });
    if (reason === 'global' && now - this.#refusalLoggedAt >= REFUSAL_LOG_INTERVAL_MS) {
      // One line per interval however many are refused: the cap is reached under a flood.
      this.#logger.warn('rpc connection refused: global connection cap reached (--rpc-max-connections)', {
        cap: this.#options.maxConnections, open: this.#connections.open, refusedGlobal: this.#refusals.global, refusedPerIp: this.#refusals['per-ip'], lastIp: ip,
      });
      this.#refusalLoggedAt = now;
      this.#refusals.global = 0;
      this.#refusals['per-ip'] = 0;
    }
  }

  /** One CallContext per HTTP socket, reused across keep-alive requests. */
  #httpContext(socket: Socket): CallContext {
    let callContext = this.#httpContexts.get(socket);
    if (callContext === undefined) {
      callContext = Object.freeze({ transport: 'http', ip: remoteIp(socket) });
      this.#httpContexts.set(socket, callContext);
    }
    return callContext;
  }

  /**
   * Malformed JSON is -32700 with id null (koa-bodyparser would answer a plain-text 400 with a
   * stack). A body over the limit is HTTP 413 with a -32600 body; the connection is closed so the
   * rest of an oversize upload is never read.
   */
  #bodyErrorReply(err: Error & { status?: number; type?: string }): HttpReply {
    if (err.status === 413 || err.type === 'entity.too.large') {
      return {
        status: 413,
        close: true,
        json: JSON.stringify(
          failure(null, STANDARD_ERRORS.INVALID_REQUEST.code, `invalid request: body exceeds ${this.#options.bodyLimit} bytes`, {
            limit: this.#options.bodyLimit,
          }),
        ),
      };
    }
    if (err instanceof SyntaxError) return { status: 200, json: PARSE_ERROR_JSON };
    // Aborted upload, unsupported Content-Encoding, length mismatch: not JSON we could read.
    this.#logger.debug('rpc body unreadable', { type: err.type, message: err.message });
    return { status: err.status === 415 ? 415 : 400, json: JSON.stringify(parseErrorResponse(err.type ?? 'unreadable body')) };
  }

  // ------------------------------------------------------- HTTP, direct path

  /** POST `/` without Koa: read the body within the limit, parse, answer. */
  #direct(req: http.IncomingMessage, res: http.ServerResponse): void {
    const limit = this.#options.bodyLimit;
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > limit) {
      return this.#writeDirect(res, this.#bodyErrorReply(tooLarge()));
    }
    const encoding = req.headers['content-encoding'];
    if (encoding !== undefined && encoding !== 'identity') {
      return this.#writeDirect(res, {
        status: 415,
        json: JSON.stringify(parseErrorResponse('unsupported content-encoding')),
      });
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    // A chunked body (no Content-Length) is charged as it streams, 64 KiB at a time.
    const ip = declared === undefined ? remoteIp(req.socket) : undefined;
    let charged = 0;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        this.#writeDirect(res, this.#bodyErrorReply(tooLarge()));
        return;
      }
      if (ip !== undefined && byteCost(size) > charged) {
        const refusal = this.#takeBodyBytes(ip, byteCost(size) - charged);
        if (refusal !== undefined) {
          failed = true;
          this.#writeDirect(res, refusal);
          return;
        }
        charged = byteCost(size);
      }
      chunks.push(chunk);
    });
    req.on('error', () => {
      failed = true;
      res.destroy();
    });
    req.on('end', () => {
      if (failed) return;
      const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
      // The reply's callbacks keep this request's closure scope, `chunks` with it, until the answer:
      // for a batch waiting on its blocks, a second or two of ~200 KB held for nothing.
      chunks.length = 0;
      let body: unknown;
      try {
        // A large body (a batch) element by element, else (or when that is unsure) as one value.
        body = (size >= SPLIT_PARSE_MIN_BYTES ? parseArrayByElement(bytes) : undefined) ?? JSON.parse(bytes.toString('utf8'));
      } catch {
        return this.#writeDirect(res, { status: 200, json: bytes.toString('utf8').trim() === '' ? EMPTY_BODY_JSON : PARSE_ERROR_JSON });
      }
      const reply = this.#answer(body, this.#httpContext(req.socket));
      if (!(reply instanceof Promise)) return this.#writeDirect(res, reply);
      reply.then(
        (r) => this.#writeDirect(res, r),
        (err: unknown) => {
          this.#logger.error('rpc http dispatch failed', { err });
          res.destroy();
        },
      );
    });
  }

  #writeDirect(res: http.ServerResponse, reply: HttpReply): void {
    if (res.headersSent || res.destroyed) return;
    if (reply.json !== undefined && reply.retryAfterSeconds === undefined && reply.close !== true) {
      // The common answer: its headers as one flat list to writeHead, which builds the header block
      // from it directly (no per-response header object and setHeader checks: docs/performance.md
      // "svc_getBalance"). Headers set before (CORS) are merged by writeHead.
      const length = typeof reply.json === 'string' ? Buffer.byteLength(reply.json) : reply.json.length;
      res.writeHead(reply.status, ['Content-Type', JSON_TYPE, 'Content-Length', String(length)]);
      res.end(reply.json);
      return;
    }
    res.statusCode = reply.status;
    if (reply.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(reply.retryAfterSeconds));
    if (reply.close === true) res.setHeader('Connection', 'close');
    if (reply.json === undefined) {
      res.end();
      return;
    }
    res.setHeader('Content-Type', JSON_TYPE);
    res.end(reply.json);
  }

  // ---------------------------------------------------------- HTTP, Koa path

  #rpcMiddleware(terminal: boolean): Koa.Middleware {
    const parse = bodyParser({
      enableTypes: ['json'],
      jsonLimit: `${this.#options.bodyLimit}b`,
      // Any JSON value: a bare number must be -32600 (not an object), not a parse error.
      strict: false,
      // The endpoint is JSON only; parse whatever the Content-Type says (curl -d sends form type).
      detectJSON: () => true,
      onerror: (err: Error, ctx: Koa.Context) => {
        (ctx as BodyErrorContext)[BODY_ERROR] = err;
      },
      // `__proto__` keys are dropped instead of failing the whole body.
      onProtoPoisoning: 'remove',
    } as bodyParser.Options);

    return async (ctx, next) => {
      if (ctx.method !== 'POST' || ctx.path !== '/') {
        if (terminal) return notFoundMiddleware(ctx, noop);
        return next();
      }
      await parse(ctx, noop);
      const bodyError = (ctx as BodyErrorContext)[BODY_ERROR];
      let reply: HttpReply;
      if (bodyError !== undefined) {
        reply = this.#bodyErrorReply(bodyError);
      } else if (ctx.request.body === '' && String(ctx.request.rawBody).trim() === '') {
        // strict:false hands an empty body through as ''; it is not JSON.
        reply = { status: 200, json: EMPTY_BODY_JSON };
      } else {
        reply = await this.#answer(ctx.request.body, this.#httpContext(ctx.req.socket));
      }
      ctx.status = reply.status;
      if (reply.retryAfterSeconds !== undefined) ctx.set('Retry-After', String(reply.retryAfterSeconds));
      if (reply.close === true) ctx.set('Connection', 'close');
      if (reply.json !== undefined) {
        ctx.type = JSON_TYPE;
        ctx.body = reply.json;
      }
    };
  }

  // ---------------------------------------------------------------- WebSocket

  #onUpgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    if (this.#connections.refused(socket)) {
      socket.destroy();
      return;
    }
    const path = (req.url ?? '/').split('?', 1)[0];
    if (path !== '/') return refuseUpgrade(socket, 404, 'Not Found');
    if (!this.#vhosts.allows(req.headers.host) || !originAllowed(req.headers, this.#wsOrigins)) {
      this.#logger.debug('rpc ws connection refused: origin', { origin: originOf(req.headers) });
      return refuseUpgrade(socket, 403, 'Forbidden');
    }
    if (this.#wss.clients.size >= this.#options.maxWsConnections) {
      this.#logger.warn('rpc ws connection refused: limit reached', { limit: this.#options.maxWsConnections });
      return refuseUpgrade(socket, 503, 'Service Unavailable');
    }
    const ip = remoteIp(req.socket);
    const share = this.#options.maxWsConnectionsPerIp;
    if (share > 0 && (this.#wsPerIp.get(ip) ?? 0) >= share && this.perIpApplies(ip)) {
      // A few addresses cannot take every WebSocket slot (issue 46: 8 took all 1,000).
      this.#logger.debug('rpc ws connection refused: per-IP share reached', { ip, share });
      return refuseUpgrade(socket, 503, 'Service Unavailable');
    }
    this.#wss.handleUpgrade(req, socket, head, (ws) => this.#wss.emit('connection', ws, req));
  }

  #onConnection(ws: WebSocket, req: http.IncomingMessage): void {
    const id = ++this.#connectionSeq;
    const closeHandlers: Array<() => void> = [];
    let closed = false;
    let inFlight = 0;
    const maxBuffered = this.#options.maxWsBufferedBytes;
    const ip = remoteIp(req.socket);
    const limited = (): boolean => this.#limited(ip);
    this.#wsPerIp.set(ip, (this.#wsPerIp.get(ip) ?? 0) + 1);
    const socket = (ws as unknown as { _socket?: Duplex })._socket;
    // Texts sent inside cork(), written as one buffer of frames when it returns.
    let corked: string[] | undefined;
    let corkedBytes = 0;
    const connection: RpcConnection = {
      id,
      ip,
      send: (message: unknown): boolean => connection.sendText!(JSON.stringify(message)),
      // Notifications: held back (false) while the client has not read what it was sent (spec §6.1).
      sendText: (text: string): boolean => {
        if (ws.readyState !== WebSocket.OPEN || ws.bufferedAmount + corkedBytes > maxBuffered) return false;
        if (corked !== undefined) {
          corked.push(text);
          corkedBytes += text.length;
        } else {
          ws.send(text, { binary: false });
        }
        return true;
      },
      // Many notifications to one client in one write of one buffer (issue 46 fan-out).
      cork: (fn: () => void): void => {
        if (socket === undefined || corked !== undefined) return fn();
        corked = [];
        try {
          fn();
        } finally {
          const texts = corked;
          corked = undefined;
          corkedBytes = 0;
          if (texts.length > 0 && ws.readyState === WebSocket.OPEN) socket.write(textFrames(texts));
        }
      },
      onClose: (fn: () => void): void => {
        if (closed) queueMicrotask(fn);
        else closeHandlers.push(fn);
      },
    };
    const ctx: CallContext = Object.freeze({ transport: 'ws', ip, connection });
    this.#alive.add(ws);

    ws.on('pong', () => this.#alive.add(ws));
    ws.on('error', (err) => this.#logger.debug('rpc ws error', { connection: id, err }));
    ws.on('close', (code) => {
      closed = true;
      const n = (this.#wsPerIp.get(ip) ?? 1) - 1;
      if (n <= 0) this.#wsPerIp.delete(ip);
      else this.#wsPerIp.set(ip, n);
      this.#logger.debug('rpc ws closed', { connection: id, code });
      for (const fn of closeHandlers.splice(0)) {
        try {
          fn();
        } catch (err) {
          this.#logger.error('rpc ws close handler failed', { connection: id, err });
        }
      }
    });
    ws.on('message', (data: RawData) => {
      // A large message over budget: refused before it is parsed (src/rpc/costs.ts), its bytes charged.
      const size = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : data.byteLength;
      const bodyUnits = byteCost(size);
      if (bodyUnits > 0) {
        const refusal = this.#takeBodyBytes(ip, bodyUnits);
        if (refusal !== undefined) return this.#wsReply(ws, refusal.json!);
      }
      let body: unknown;
      try {
        body = JSON.parse(data.toString());
      } catch {
        this.#wsReply(ws, PARSE_ERROR_JSON);
        return;
      }
      if (limited()) {
        const decision = this.#limiter.take(ip, bodyCost(body));
        if (!decision.ok) return this.#wsReply(ws, JSON.stringify(rateLimitedResponse(body, decision)));
      }
      if (inFlight >= this.#options.maxWsInFlight) {
        const reqId = !Array.isArray(body) && typeof body === 'object' && body !== null ? (body as { id?: unknown }).id : undefined;
        return this.#wsReply(
          ws,
          JSON.stringify(
            failure(typeof reqId === 'string' || typeof reqId === 'number' ? reqId : null, APP_ERRORS.SERVER_BUSY.code, 'server busy: too many calls in flight on this connection', {
              maxInFlight: this.#options.maxWsInFlight,
            }),
          ),
        );
      }
      inFlight++;
      Promise.resolve(this.#dispatcher.handle(body, ctx)).then(
        (result: DispatchResult) => {
          inFlight--;
          if (result === undefined) return;
          const reply = this.#dispatcher.bytes(result as JsonRpcResponse | JsonRpcResponse[]);
          if (limited()) this.#limiter.charge(ip, byteCost(reply.length));
          this.#wsReply(ws, reply);
        },
        (err: unknown) => {
          // Dispatcher.handle never rejects; a rejection here is a bug worth a log line.
          inFlight--;
          this.#logger.error('rpc ws dispatch failed', { connection: id, err });
        },
      );
    });
  }

  /**
   * A reply (JSON-RPC over WebSocket is text frames, a batch's bytes included: `binary: false`). A
   * client whose send buffer is over maxWsBufferedBytes has not read what it was sent: it is
   * disconnected, as geth drops a client that falls behind, rather than buffered without bound
   * (issue 46: one 100-entry batch a second grew the node to 2 GB). So a connection holds at most
   * the bound plus one reply (itself at most maxBatchResponseBytes).
   */
  #wsReply(ws: WebSocket, text: string | Buffer): void {
    if (ws.readyState !== WebSocket.OPEN) return;
    if (ws.bufferedAmount > this.#options.maxWsBufferedBytes) {
      this.#dropSlowReader(ws, 'reply');
      return;
    }
    ws.send(text, { binary: false });
  }

  #dropSlowReader(ws: WebSocket, why: 'reply' | 'total'): void {
    this.#logger.debug('rpc ws connection dropped: client not reading', { why, buffered: ws.bufferedAmount, bound: this.#options.maxWsBufferedBytes });
    // terminate, not close: a close frame would queue behind what the client does not read.
    ws.terminate();
  }

  /**
   * Keeps the send buffers of all WebSocket connections under maxWsBufferedTotalBytes: the
   * connections holding the most are dropped first (each holds at most its bound plus one reply, but
   * a thousand of them would still be gigabytes).
   */
  #sweepWsBuffers(): void {
    let total = 0;
    for (const ws of this.#wss.clients) total += ws.bufferedAmount;
    if (total <= this.#options.maxWsBufferedTotalBytes) return;
    const byBuffer = [...this.#wss.clients].sort((a, b) => b.bufferedAmount - a.bufferedAmount);
    for (const ws of byBuffer) {
      if (total <= this.#options.maxWsBufferedTotalBytes) break;
      total -= ws.bufferedAmount;
      this.#dropSlowReader(ws, 'total');
    }
  }

  /** Drops connections that did not answer the previous ping. */
  #ping(): void {
    for (const ws of this.#wss.clients) {
      if (!this.#alive.has(ws)) {
        ws.terminate();
        continue;
      }
      this.#alive.delete(ws);
      ws.ping();
    }
  }
}

/**
 * Unmasked final text frames (RFC 6455 §5.2) of `texts`, one buffer. The hub's notifications to one
 * client are written so, one write instead of a `ws.send` (a buffer, a frame header and two socket
 * writes) per message. Written straight to the socket: the server's `ws` frames every message
 * synchronously (no permessage-deflate queue), so the socket is always at a frame boundary here.
 */
export function textFrames(texts: readonly string[]): Buffer {
  const sizes = new Array<number>(texts.length);
  let total = 0;
  for (let i = 0; i < texts.length; i++) {
    const n = Buffer.byteLength(texts[i]!);
    sizes[i] = n;
    total += n + (n < 126 ? 2 : n < 65_536 ? 4 : 10);
  }
  const out = Buffer.allocUnsafe(total);
  let o = 0;
  for (let i = 0; i < texts.length; i++) {
    const n = sizes[i]!;
    out[o++] = 0x81; // FIN, opcode 1 (text)
    if (n < 126) {
      out[o++] = n;
    } else if (n < 65_536) {
      out[o++] = 126;
      out.writeUInt16BE(n, o);
      o += 2;
    } else {
      out[o++] = 127;
      out.writeUInt32BE(Math.floor(n / 2 ** 32), o);
      out.writeUInt32BE(n >>> 0, o + 4);
      o += 8;
    }
    o += out.write(texts[i]!, o);
  }
  return out;
}

function refuseUpgrade(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/** Anything that is not the RPC endpoint or the optional page: 405 on `/` (POST only), else 404. */
async function notFoundMiddleware(ctx: Koa.Context, _next: Koa.Next): Promise<void> {
  if (ctx.body !== undefined && ctx.body !== null) return;
  if (ctx.path === '/') {
    ctx.set('Allow', 'POST');
    ctx.status = 405;
  } else {
    ctx.status = 404;
  }
}
