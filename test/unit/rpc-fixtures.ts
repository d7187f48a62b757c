/** Sample methods and helpers shared by the rpc-*.test.ts files (not a test file itself). */
import { Type } from '@sinclair/typebox';
import type { Logger } from '../../src/logger.js';
import { APP_ERRORS, RpcError } from '../../src/rpc/errors.js';
import { MethodRegistry, defineMethod } from '../../src/rpc/registry.js';
import { Address, DecimalString, Limit, TokenSymbol, parseAmount } from '../../src/rpc/schemas.js';
import { RpcServer, type RpcServerOptions } from '../../src/rpc/server.js';

export interface LogLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  context?: object;
}

export function memoryLogger(): Logger & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  return {
    lines,
    debug: (message, context) => lines.push({ level: 'debug', message, ...(context ? { context } : {}) }),
    info: (message, context) => lines.push({ level: 'info', message, ...(context ? { context } : {}) }),
    warn: (message, context) => lines.push({ level: 'warn', message, ...(context ? { context } : {}) }),
    error: (message, context) => lines.push({ level: 'error', message, ...(context ? { context } : {}) }),
  };
}

/** A registry with a few sample methods; `notified` records calls of test_record. */
export function sampleRegistry(): { registry: MethodRegistry; notified: unknown[] } {
  const notified: unknown[] = [];
  const registry = new MethodRegistry({ info: { title: 'test node', version: '9.9.9' } });
  registry.register(
    defineMethod({
      name: 'test_echo',
      summary: 'Returns its param.',
      params: [{ name: 'value', schema: Type.String() }],
      result: { name: 'value', schema: Type.String() },
      handler: ([value]) => value,
    }),
  );
  registry.register(
    defineMethod({
      name: 'test_transfer',
      summary: 'Pretends to transfer.',
      params: [
        { name: 'from', schema: Address() },
        { name: 'to', schema: Address() },
        { name: 'token', schema: TokenSymbol() },
        { name: 'amount', schema: DecimalString() },
        { name: 'memo', schema: Type.String({ maxLength: 32 }), required: false },
      ],
      result: { name: 'receipt', schema: Type.Object({ amount: Type.String(), memo: Type.Union([Type.String(), Type.Null()]) }) },
      errors: [APP_ERRORS.INSUFFICIENT_BALANCE.code],
      handler: ([, , , amount, memo]) => {
        const n = parseAmount(amount, 'amount', 4);
        return { amount: (n + 1n).toString(), memo: memo ?? null };
      },
    }),
  );
  registry.register(
    defineMethod({
      name: 'test_list',
      summary: 'Returns the limit it got.',
      params: [{ name: 'limit', schema: Limit({ default: 100 }), required: false }],
      result: { name: 'limit', schema: Type.Integer() },
      handler: ([limit]) => limit as number,
    }),
  );
  registry.register({
    name: 'test_async',
    summary: 'Answers after a delay.',
    params: [{ name: 'ms', schema: Type.Integer({ minimum: 0, maximum: 1000 }) }],
    result: { name: 'ms', schema: Type.Integer() },
    handler: async (params) => {
      await new Promise((r) => setTimeout(r, params[0] as number));
      return params[0];
    },
  });
  registry.register({
    name: 'test_crash',
    summary: 'Throws an unexpected error.',
    params: [],
    result: { name: 'never', schema: Type.Null() },
    handler: () => {
      throw new Error('secret: leveldb at /var/lib/ntv is corrupt');
    },
  });
  registry.register({
    name: 'test_notFound',
    summary: 'Throws NOT_FOUND.',
    params: [],
    result: { name: 'never', schema: Type.Null() },
    errors: [APP_ERRORS.NOT_FOUND.code],
    handler: () => {
      throw RpcError.app('NOT_FOUND', 'no block at height 12', { height: 12 });
    },
  });
  registry.register({
    name: 'test_chainError',
    summary: 'Throws an error shaped like src/chain ChainError.',
    params: [],
    result: { name: 'never', schema: Type.Null() },
    handler: () => {
      throw Object.assign(new Error('nonce too low'), { name: 'ChainError', reason: 'BUNDLE_INVALID', data: { status: 'NONCE_TOO_LOW', bundle_hash: new Uint8Array([0xab, 0xcd]) } });
    },
  });
  registry.register({
    name: 'test_record',
    summary: 'Records its param (for notifications).',
    params: [{ name: 'value', schema: Type.Unknown() }],
    result: { name: 'ok', schema: Type.Boolean() },
    handler: (params) => {
      notified.push(params[0]);
      return true;
    },
  });
  registry.register({
    name: 'test_bigint',
    summary: 'Returns a bigint, which serialises as a decimal string.',
    params: [],
    result: { name: 'n', schema: Type.String() },
    handler: () => ({ n: 2n ** 100n }),
  });
  return { registry, notified };
}

export async function startServer(options: RpcServerOptions = {}, now?: () => number): Promise<{
  server: RpcServer;
  url: string;
  logger: ReturnType<typeof memoryLogger>;
  notified: unknown[];
  registry: MethodRegistry;
}> {
  const { registry, notified } = sampleRegistry();
  const logger = memoryLogger();
  const server = new RpcServer({ port: 0, rateLimit: 0, ...options }, { registry, logger, ...(now ? { now } : {}) });
  await server.start();
  return { server, url: server.url, logger, notified, registry };
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

export function call(method: string, params?: unknown, id: unknown = 1): Record<string, unknown> {
  return params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
}

export const ALICE = '0x' + '11'.repeat(32);
export const BOB = '0x' + '22'.repeat(20);
