/**
 * Which web pages may talk to the RPC (hardening issue item 4, docs/rpc.md "Browsers and origins").
 *
 * A page on another origin can send a "simple" cross-origin POST (Content-Type text/plain, form or
 * multipart) without a CORS preflight, and the browser delivers it even though the page cannot read
 * the reply: on testnet that is enough to move funds with an unsigned convenience method. So:
 *
 * - a JSON-RPC POST must say `Content-Type: application/json` (a browser only sends that
 *   cross-origin after a preflight the node answers);
 * - a POST or WebSocket upgrade whose `Origin` is another site is refused unless the operator listed
 *   that origin (`--rpc-cors` for HTTP, `--ws-origins` for WebSocket; `*` = any). A request without
 *   `Origin` (curl, SDKs, other nodes) and a same-origin one (the explorer page served on GET `/`
 *   calling back to the node that served it) pass.
 *
 * geth has the same split (`--http.corsdomain`, `--ws.origins`, both empty by default); unlike geth
 * the HTTP side also refuses the request itself, not only the CORS headers, as a browser delivers a
 * simple request regardless of the answer.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';

/** Media types accepted for a JSON-RPC POST (the ones geth accepts). */
/** Host headers whose verdict HostList remembers at most. */
const MAX_REMEMBERED_HOSTS = 256;
const JSON_MEDIA_TYPES = new Set(['application/json', 'application/json-rpc', 'application/jsonrequest']);

/** How long a browser may cache a preflight answer, seconds. */
export const PREFLIGHT_MAX_AGE_SECONDS = 600;

/** A list of origins from a flag: exact `scheme://host[:port]` entries, or `*` for any. */
export class OriginList {
  readonly any: boolean;
  readonly #origins: ReadonlySet<string>;

  constructor(entries: readonly string[]) {
    const normalised = entries.map((e) => e.trim()).filter((e) => e.length > 0);
    this.any = normalised.includes('*');
    this.#origins = new Set(normalised.filter((e) => e !== '*').map(normaliseOrigin));
  }

  /** `a,b,c` as given on the command line; an empty string is the empty list. */
  static parse(text: string): OriginList {
    return new OriginList(text.split(','));
  }

  get empty(): boolean {
    return !this.any && this.#origins.size === 0;
  }

  has(origin: string): boolean {
    return this.any || this.#origins.has(origin.toLowerCase());
  }

  /** The list as configured (for the start-up log line). */
  describe(): string[] {
    return this.any ? ['*'] : [...this.#origins];
  }
}

/**
 * `scheme://host[:port]` lower-cased, default port dropped, as browsers send `Origin`. Throws on an
 * entry that is not an origin (a path, no scheme): a typo would otherwise silently allow nothing.
 */
export function normaliseOrigin(entry: string): string {
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    throw new Error(`"${entry}" is not an origin; expected scheme://host[:port], e.g. http://localhost:3000, or *`);
  }
  if (url.origin === 'null' || (url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '') {
    throw new Error(`"${entry}" is not an origin; expected scheme://host[:port] without a path, e.g. http://localhost:3000, or *`);
  }
  return url.origin.toLowerCase();
}

/**
 * True when `Origin` names the host the request was sent to (the `Host` header): the page was
 * served by this node. An `Origin` that is not a URL (`null` from a sandboxed frame or a file://
 * page) is never same-origin.
 */
export function isSameOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined || host === '') return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  try {
    // URL.host drops the scheme's default port, as a Host header does.
    return url.host === new URL(`${url.protocol}//${host}`).host;
  } catch {
    // A Host header that is no host name at all: not the node's own page.
    return false;
  }
}

/** The single `Origin` header value, or undefined when absent. */
export function originOf(headers: IncomingHttpHeaders): string | undefined {
  const origin = headers.origin;
  return typeof origin === 'string' && origin !== '' ? origin : undefined;
}

/**
 * Browser-extension origins (issue 42 item 4): a Chromium MV3 extension, which is how MetaMask and
 * other wallets call a custom RPC, sends `Origin: chrome-extension://<id>`, Firefox
 * `moz-extension://<uuid>`, Safari `safari-web-extension://<uuid>`. They are served by default: a web
 * page cannot send such an Origin (the browser sets it), so the cross-site risk the origin checks
 * guard against (a page making the user's browser call the node) does not arise; an extension runs
 * with the permissions the user installed it with, as a local script does.
 */
const EXTENSION_SCHEMES = ['chrome-extension://', 'moz-extension://', 'safari-web-extension://'];

export function isExtensionOrigin(origin: string): boolean {
  for (const scheme of EXTENSION_SCHEMES) if (origin.startsWith(scheme) && origin.length > scheme.length) return true;
  return false;
}

/** Whether a request from `origin` gets CORS headers: a listed origin or a browser extension. */
export function corsAllowed(origin: string, allowed: OriginList): boolean {
  return allowed.has(origin) || isExtensionOrigin(origin);
}

/** Whether a request with these headers may be served, given the operator's list for its transport. */
export function originAllowed(headers: IncomingHttpHeaders, allowed: OriginList): boolean {
  const origin = originOf(headers);
  if (origin === undefined) return true;
  return corsAllowed(origin, allowed) || isSameOrigin(origin, headers.host);
}

/** True when the Content-Type's media type is a JSON one (parameters such as charset ignored). */
export function isJsonContentType(value: string | undefined): boolean {
  if (value === undefined) return false;
  if (value === 'application/json') return true; // what nearly every client sends: no parsing on the hot path
  const semi = value.indexOf(';');
  return JSON_MEDIA_TYPES.has((semi === -1 ? value : value.slice(0, semi)).trim().toLowerCase());
}

/**
 * Host names a request may be addressed to (`--rpc-vhosts`, as geth's `--http.vhosts`): a page on
 * an attacker's domain that re-resolves to this node (DNS rebinding) is same-origin with it, but
 * its requests carry the attacker's host name in `Host`. An IP literal is always allowed (no DNS
 * involved), so are requests without `Host` (HTTP/1.0: no browser sends those).
 */
export class HostList {
  readonly any: boolean;
  readonly #hosts: ReadonlySet<string>;
  readonly #verdicts = new Map<string, boolean>();

  constructor(entries: readonly string[]) {
    const normalised = entries.map((e) => e.trim().toLowerCase()).filter((e) => e.length > 0);
    this.any = normalised.includes('*');
    this.#hosts = new Set(normalised);
  }

  allows(hostHeader: string | undefined): boolean {
    if (hostHeader === undefined || this.any) return true;
    // A client sends the same Host on every request of a connection: the verdict is remembered
    // (bounded, cleared when full), so the hot path does no parsing (docs/rpc.md "Connections").
    const known = this.#verdicts.get(hostHeader);
    if (known !== undefined) return known;
    const host = hostOnly(hostHeader);
    const verdict = isIP(host) !== 0 || this.#hosts.has(host);
    if (this.#verdicts.size >= MAX_REMEMBERED_HOSTS) this.#verdicts.clear();
    this.#verdicts.set(hostHeader, verdict);
    return verdict;
  }
}

/** `Host` without its port, brackets of an IPv6 literal removed, lower-cased. */
function hostOnly(header: string): string {
  const h = header.trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    return end === -1 ? h : h.slice(1, end);
  }
  const colon = h.lastIndexOf(':');
  return colon === -1 || h.indexOf(':') !== colon ? h : h.slice(0, colon);
}
