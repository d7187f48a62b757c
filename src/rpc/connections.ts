/**
 * Per-IP cap on open TCP connections to the RPC port (hardening issue item 5, docs/rpc.md
 * "Connections"). HTTP keep-alive and WebSocket connections are the same sockets, so one count
 * covers both. Without it one address could hold thousands of idle or half-sent connections and
 * starve everyone else of file descriptors; the rate limit (spec §4.20) counts calls, not sockets.
 */
import type { Socket } from 'node:net';

/** Reply written to a connection over the cap before it is closed (no request has been read). */
const REFUSAL_TEXT = 'too many open connections from this address\n';
const REFUSAL =
  'HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n' +
  `Content-Length: ${Buffer.byteLength(REFUSAL_TEXT)}\r\n\r\n${REFUSAL_TEXT}`;

/** IPv4 clients on a dual-stack socket show as ::ffff:a.b.c.d; one count per client either way. */
export function remoteIp(socket: { remoteAddress?: string | undefined }): string {
  const raw = socket.remoteAddress ?? '';
  return raw.startsWith('::ffff:') ? raw.slice(7) : raw;
}

export class ConnectionLimiter {
  /** Open connections per IP at most; 0 = unlimited. */
  readonly maxPerIp: number;
  readonly #open = new Map<string, number>();
  readonly #refused = new WeakSet<object>();

  constructor(maxPerIp: number) {
    if (!Number.isInteger(maxPerIp) || maxPerIp < 0) throw new RangeError('maxPerIp must be a non-negative integer');
    this.maxPerIp = maxPerIp;
  }

  /** Open connections of one IP (tests, metrics). */
  openFrom(ip: string): number {
    return this.#open.get(ip) ?? 0;
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
    if (this.maxPerIp === 0) return true;
    const ip = remoteIp(socket);
    const open = this.#open.get(ip) ?? 0;
    if (open >= this.maxPerIp) {
      this.#refused.add(socket);
      socket.on('error', () => {});
      socket.end(REFUSAL, () => socket.destroy());
      // A peer that does not read its reply is cut off rather than holding the socket.
      setTimeout(() => socket.destroy(), 1_000).unref();
      return false;
    }
    this.#open.set(ip, open + 1);
    socket.once('close', () => {
      const n = (this.#open.get(ip) ?? 1) - 1;
      if (n <= 0) this.#open.delete(ip);
      else this.#open.set(ip, n);
    });
    return true;
  }
}
