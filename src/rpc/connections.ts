/**
 * Caps on open TCP connections to the RPC port (hardening issue item 5, issue 46 item 6; docs/rpc.md
 * "Connections"): per client IP, and for the whole server. HTTP keep-alive and WebSocket connections
 * are the same sockets, so one count covers both. Without the per-IP cap one address could hold
 * thousands of idle or half-sent connections; without the global one, ~20,000 keep-alive sockets from
 * 170 addresses ran the process out of file descriptors and nothing was logged. The rate limit
 * (spec §4.20) counts calls, not sockets.
 */
import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';

/** The global cap's ceiling: ample for any real use of one node's RPC, far below a flood. */
const MAX_DEFAULT_CONNECTIONS = 4096;

/**
 * The default global cap: half the process's soft open-file limit (the other half is for the
 * database, block files, P2P and the log), at most 4096; 4096 where the limit cannot be read
 * (not Linux). With `ulimit -n 1024` that is 512, so a flood of sockets is refused by the node,
 * with a log line, before accept() starts failing with EMFILE.
 */
export function defaultMaxConnections(limitsFile = '/proc/self/limits'): number {
  try {
    const line = readFileSync(limitsFile, 'utf8').split('\n').find((l) => l.startsWith('Max open files'));
    const soft = Number(line?.slice('Max open files'.length).trim().split(/\s+/)[0]);
    if (Number.isInteger(soft) && soft > 0) return Math.max(64, Math.min(MAX_DEFAULT_CONNECTIONS, Math.floor(soft / 2)));
  } catch {
    // no /proc: not Linux
  }
  return MAX_DEFAULT_CONNECTIONS;
}

/** Reply written to a connection over a cap before it is closed (no request has been read). */
function refusal(text: string): string {
  return 'HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`;
}
const PER_IP_REFUSAL = refusal('too many open connections from this address\n');
const GLOBAL_REFUSAL = refusal('too many open connections to this node\n');

/** IPv4 clients on a dual-stack socket show as ::ffff:a.b.c.d; one count per client either way. */
export function remoteIp(socket: { remoteAddress?: string | undefined }): string {
  const raw = socket.remoteAddress ?? '';
  return raw.startsWith('::ffff:') ? raw.slice(7) : raw;
}

/** 127.0.0.0/8 and ::1: a client on the node's own machine (issue 42 item 4, docs/rpc.md "Loopback clients"). */
export function isLoopback(ip: string): boolean {
  return ip.startsWith('127.') || ip === '::1';
}

/**
 * Which clients the per-IP limits (rate, connections, filter and subscription shares) apply to:
 * every client, or every client but loopback ones (the default, issue 42 item 4). A wallet or script
 * on the node's own machine is the operator's; a reverse proxy on the same machine makes every
 * client look like 127.0.0.1, and its operator sets `--rpc-limit-loopback`.
 */
export function perIpLimitsApply(limitLoopback: boolean): (ip: string) => boolean {
  return limitLoopback ? () => true : (ip) => !isLoopback(ip);
}

export type RefusalReason = 'per-ip' | 'global';

export interface ConnectionLimiterOptions {
  /** Open connections per IP at most; 0 = unlimited. */
  readonly maxPerIp: number;
  /** Open connections in all at most; 0 = unlimited. */
  readonly maxTotal?: number;
  /** Whether the per-IP cap applies to this IP (loopback exemption); default all. */
  readonly perIpApplies?: (ip: string) => boolean;
  /** Called for every refused connection (the server logs, throttled). */
  readonly onRefused?: (reason: RefusalReason, ip: string) => void;
}

export class ConnectionLimiter {
  readonly maxPerIp: number;
  readonly maxTotal: number;
  readonly #perIpApplies: (ip: string) => boolean;
  readonly #onRefused: ((reason: RefusalReason, ip: string) => void) | undefined;
  readonly #open = new Map<string, number>();
  readonly #refused = new WeakSet<object>();
  #total = 0;

  constructor(options: ConnectionLimiterOptions | number) {
    const o = typeof options === 'number' ? { maxPerIp: options } : options;
    for (const [name, v] of [['maxPerIp', o.maxPerIp], ['maxTotal', o.maxTotal ?? 0]] as const) {
      if (!Number.isInteger(v) || v < 0) throw new RangeError(`${name} must be a non-negative integer`);
    }
    this.maxPerIp = o.maxPerIp;
    this.maxTotal = o.maxTotal ?? 0;
    this.#perIpApplies = o.perIpApplies ?? (() => true);
    this.#onRefused = o.onRefused;
  }

  /** Open connections of one IP (tests, metrics). */
  openFrom(ip: string): number {
    return this.#open.get(ip) ?? 0;
  }

  /** Open connections in all. */
  get open(): number {
    return this.#total;
  }

  /**
   * True for a connection admit() refused: the http.Server has attached its parser to it anyway
   * (its own 'connection' listener runs too), so the request and upgrade handlers must ignore it.
   */
  refused(socket: object): boolean {
    return this.#refused.has(socket);
  }

  /**
   * Counts a new connection, or refuses it: a 503 is written and the connection closed; any
   * request that arrives on it meanwhile is ignored (see refused()). Returns whether it was admitted.
   */
  admit(socket: Socket): boolean {
    const ip = remoteIp(socket);
    const open = this.#open.get(ip) ?? 0;
    if (this.maxTotal > 0 && this.#total >= this.maxTotal) return this.#refuse(socket, 'global', ip);
    if (this.maxPerIp > 0 && open >= this.maxPerIp && this.#perIpApplies(ip)) return this.#refuse(socket, 'per-ip', ip);
    this.#open.set(ip, open + 1);
    this.#total++;
    socket.once('close', () => {
      this.#total--;
      const n = (this.#open.get(ip) ?? 1) - 1;
      if (n <= 0) this.#open.delete(ip);
      else this.#open.set(ip, n);
    });
    return true;
  }

  #refuse(socket: Socket, reason: RefusalReason, ip: string): false {
    this.#refused.add(socket);
    socket.on('error', () => {});
    socket.end(reason === 'global' ? GLOBAL_REFUSAL : PER_IP_REFUSAL, () => socket.destroy());
    // A peer that does not read its reply is cut off rather than holding the socket.
    setTimeout(() => socket.destroy(), 1_000).unref();
    this.#onRefused?.(reason, ip);
    return false;
  }
}
