/**
 * Serves the block explorer page (issue 6, spec §4.11) from build/explorer/ on GET `/` of the RPC
 * port, as RpcServer's `httpMiddleware`. The bundle is built by scripts/build-explorer.mjs; it
 * needs no network at run time (no CDN).
 *
 * Files are read once at start-up into memory (the bundle is a few tens of KiB) and only those
 * names are served, so no request path ever reaches the file system (no traversal).
 * Caching: `/` (index.html) is `no-cache` so a new node version is picked up at once; files under
 * `/assets/` carry a content hash in their name (esbuild `[name]-[hash]`) and are `immutable`.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Koa from 'koa';
import type { Logger } from '../logger.js';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

/**
 * Path routes that get the page itself (docs/explorer.md "Routes"): the links EVM wallets build from
 * a block-explorer URL (MetaMask "View on block explorer": `<url>/tx/<hash>`, `/address/<addr>`,
 * `/token/<contract>`; `/block/<n>`). One segment of letters and digits, so no path reaches anything
 * but index.html; the page reads the path and shows that record.
 */
const SPA_PATH = /^\/(tx|address|block|token)\/[0-9A-Za-z]{1,128}\/?$/;

interface StaticFile {
  readonly body: Buffer;
  readonly type: string;
  readonly etag: string;
  readonly cacheControl: string;
}

/** build/explorer/ next to dist/ (running from dist/src/rpc) or to src/ (running the sources). */
export function defaultExplorerDir(): string | undefined {
  for (const rel of ['../../../build/explorer/', '../../build/explorer/']) {
    const dir = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(join(dir, 'index.html'))) return dir;
  }
  return undefined;
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/**
 * The middleware, or undefined when no built page exists (the node then answers `/` with 405 as
 * before, and logs how to build it).
 */
export function explorerMiddleware(dir: string | undefined, logger: Logger): Koa.Middleware | undefined {
  if (dir === undefined || !existsSync(join(dir, 'index.html'))) {
    logger.warn('explorer page not built; GET / is not served (npm run build builds build/explorer/)');
    return undefined;
  }
  const files = new Map<string, StaticFile>();
  for (const path of walk(dir)) {
    const urlPath = '/' + relative(dir, path).split(sep).join('/');
    const body = readFileSync(path);
    const isIndex = urlPath === '/index.html';
    files.set(isIndex ? '/' : urlPath, {
      body,
      type: CONTENT_TYPES[extname(path)] ?? 'application/octet-stream',
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
      cacheControl: isIndex || !urlPath.startsWith('/assets/') ? 'no-cache' : 'public, max-age=31536000, immutable',
    });
  }
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    const page = ctx.path === '/' || SPA_PATH.test(ctx.path);
    const file = files.get(page ? '/' : ctx.path);
    if (file === undefined) return next();
    ctx.set('Cache-Control', file.cacheControl);
    ctx.set('ETag', file.etag);
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (page) {
      // The page talks only to this origin (RPC over fetch and ws on the same port).
      ctx.set('Content-Security-Policy', "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self' ws: wss:; img-src 'self' data:; style-src 'self'; base-uri 'none'; frame-ancestors 'none'");
      ctx.set('Referrer-Policy', 'no-referrer');
    }
    if (ctx.get('If-None-Match') === file.etag) {
      ctx.status = 304;
      return;
    }
    ctx.type = file.type;
    ctx.body = file.body;
  };
}
