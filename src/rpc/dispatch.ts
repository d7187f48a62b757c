/**
 * JSON-RPC 2.0 envelope handling shared by the HTTP and WebSocket transports: request-object
 * checks, batches (each entry independent, results in order, notifications omitted), method
 * lookup, param normalisation and the mapping of thrown errors to error objects. An unexpected
 * fault is -32603 without a stack or internal message: it is logged under a correlation id that
 * the reply carries in data.id.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '../logger.js';
import { APP_ERRORS, STANDARD_ERRORS, toRpcError } from './errors.js';
import type { CallContext, MethodRegistry } from './registry.js';
import type { RateDecision } from './rate-limit.js';

export type JsonRpcId = string | number | null;

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcSuccess {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result: unknown;
}

export interface JsonRpcFailure {
  jsonrpc: '2.0';
  id: JsonRpcId;
  error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;

/** What one body produces: one response, an array for a batch, or nothing (notifications only). */
export type DispatchResult = JsonRpcResponse | JsonRpcResponse[] | undefined;

export interface DispatcherOptions {
  readonly registry: MethodRegistry;
  readonly logger: Logger;
  /** Longest batch accepted; longer is -32600 (default 1000). */
  readonly maxBatch: number;
  /**
   * Largest reply to one call, in bytes; a larger one is replaced by LIMIT_EXCEEDED
   * (RESPONSE_TOO_LARGE). 0 = no bound. Default in RpcServer (docs/rpc.md "Response budget").
   */
  readonly maxResponseBytes?: number;
  /**
   * Largest reply to one batch, in bytes (geth's --rpc.batch-response-max-size): the entries that fit,
   * in order, keep their replies; from the first that does not, every entry is LIMIT_EXCEEDED
   * (RESPONSE_TOO_LARGE) and is not serialised. 0 = no bound.
   */
  readonly maxBatchResponseBytes?: number;
}

export function failure(id: JsonRpcId, code: number, message: string, data?: unknown): JsonRpcFailure {
  return data === undefined
    ? { jsonrpc: '2.0', id, error: { code, message } }
    : { jsonrpc: '2.0', id, error: { code, message, data } };
}

function success(id: JsonRpcId, result: unknown): JsonRpcSuccess {
  // A handler returning undefined would drop "result" from the JSON; JSON-RPC requires it.
  return { jsonrpc: '2.0', id, result: result === undefined ? null : result };
}

export function parseErrorResponse(detail?: string): JsonRpcFailure {
  // JSON-RPC 2.0 §5: a parse error replies with id null.
  return failure(null, STANDARD_ERRORS.PARSE_ERROR.code, detail === undefined ? 'parse error' : `parse error: ${detail}`);
}

/** The RATE_LIMITED reply: a single call keeps its id; a batch is refused whole with id null. */
export function rateLimitedResponse(body: unknown, decision: Exclude<RateDecision, { ok: true }>): JsonRpcFailure {
  const id = !Array.isArray(body) && isObject(body) && isValidId(body.id) ? body.id : null;
  return failure(id, APP_ERRORS.RATE_LIMITED.code, 'rate limited: too many calls from this address', {
    retryAfterMs: decision.retryAfterMs,
    cost: decision.cost,
    capacity: decision.capacity,
  });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isValidId(id: unknown): id is JsonRpcId {
  return id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
}

export class Dispatcher {
  readonly #registry: MethodRegistry;
  readonly #logger: Logger;
  readonly #maxBatch: number;
  readonly #maxResponse: number;
  readonly #maxBatchResponse: number;

  constructor(options: DispatcherOptions) {
    this.#registry = options.registry;
    this.#logger = options.logger;
    this.#maxBatch = options.maxBatch;
    this.#maxResponse = options.maxResponseBytes ?? 0;
    this.#maxBatchResponse = options.maxBatchResponseBytes ?? 0;
  }

  /**
   * Handles a parsed body: a request object or a batch. Synchronous when every handler involved
   * returned a plain value (no promise hop on the hot path); never rejects.
   */
  handle(body: unknown, ctx: CallContext): DispatchResult | Promise<DispatchResult> {
    return Array.isArray(body) ? this.#batch(body, ctx) : this.call(body, ctx);
  }

  #batch(entries: unknown[], ctx: CallContext): Promise<DispatchResult> {
    if (entries.length === 0) {
      return Promise.resolve(failure(null, STANDARD_ERRORS.INVALID_REQUEST.code, 'invalid request: empty batch'));
    }
    if (entries.length > this.#maxBatch) {
      return Promise.resolve(failure(null, STANDARD_ERRORS.INVALID_REQUEST.code, `invalid request: batch of ${entries.length} exceeds the limit of ${this.#maxBatch}`, {
        maxBatch: this.#maxBatch,
        got: entries.length,
      }));
    }
    // Not an async function: its frame (and the request objects with their params, ~200 KB of hex
    // for 500 bundles) would live until the last call of the batch is answered, a second or two
    // later, through the young generation's collections (docs/performance.md "Batch requests and
    // replies"). Only the calls' promises wait.
    return this.#collect(entries.map((e) => this.call(e, ctx)));
  }

  async #collect(calls: Array<JsonRpcResponse | undefined | Promise<JsonRpcResponse | undefined>>): Promise<DispatchResult> {
    const settled = await Promise.all(calls);
    const out: JsonRpcResponse[] = [];
    for (const r of settled) if (r !== undefined) out.push(r);
    // All notifications: nothing to send (JSON-RPC 2.0 §6).
    return out.length === 0 ? undefined : out;
  }

  /** One request object; undefined for a notification. Never throws or rejects. */
  call(req: unknown, ctx: CallContext): JsonRpcResponse | undefined | Promise<JsonRpcResponse | undefined> {
    if (!isObject(req)) {
      return failure(null, STANDARD_ERRORS.INVALID_REQUEST.code, 'invalid request: expected a request object');
    }
    const hasId = req.id !== undefined;
    const idValid = !hasId || isValidId(req.id);
    const id: JsonRpcId = hasId && idValid ? (req.id as JsonRpcId) : null;
    if (req.jsonrpc !== '2.0') {
      return failure(id, STANDARD_ERRORS.INVALID_REQUEST.code, 'invalid request: jsonrpc must be "2.0"');
    }
    if (!idValid) {
      return failure(null, STANDARD_ERRORS.INVALID_REQUEST.code, 'invalid request: id must be a string, a number or null');
    }
    const name = req.method;
    if (typeof name !== 'string') {
      return failure(id, STANDARD_ERRORS.INVALID_REQUEST.code, 'invalid request: method must be a string');
    }
    const params = req.params;
    if (params !== undefined && (typeof params !== 'object' || params === null)) {
      return failure(id, STANDARD_ERRORS.INVALID_REQUEST.code, 'invalid request: params must be an array or an object');
    }
    const method = this.#registry.get(name);
    if (method === undefined) {
      // A node mode without a method answers why (a --light node: -32013, src/rpc/light.ts).
      const refusal = this.#registry.unregistered?.(name);
      if (refusal) return hasId ? failure(id, refusal.code, refusal.message, refusal.data) : undefined;
      return hasId ? failure(id, STANDARD_ERRORS.METHOD_NOT_FOUND.code, `method not found: ${name}`, { method: name }) : undefined;
    }
    const observer = this.#registry.callObserver;
    const started = observer ? performance.now() : 0;
    let result: unknown;
    try {
      result = method.handler(this.#registry.prepareParams(method, params), ctx);
    } catch (err) {
      observer?.(name, (performance.now() - started) / 1000, false);
      const response = this.#errorResponse(err, id, name);
      return hasId ? response : undefined;
    }
    if (result instanceof Promise) {
      return result.then(
        (value: unknown) => {
          observer?.(name, (performance.now() - started) / 1000, true);
          return hasId ? success(id, value) : undefined;
        },
        (err: unknown) => {
          observer?.(name, (performance.now() - started) / 1000, false);
          const response = this.#errorResponse(err, id, name);
          return hasId ? response : undefined;
        },
      );
    }
    observer?.(name, (performance.now() - started) / 1000, true);
    return hasId ? success(id, result) : undefined;
  }

  #errorResponse(err: unknown, id: JsonRpcId, method: string): JsonRpcFailure {
    const known = toRpcError(err);
    if (known !== undefined) return failure(id, known.code, known.message, known.data);
    const correlationId = randomUUID();
    this.#logger.error('rpc method failed', { correlationId, method, err });
    return failure(id, STANDARD_ERRORS.INTERNAL_ERROR.code, 'internal error', { id: correlationId });
  }

  /**
   * JSON text of one response. Falls back when it cannot be serialised as is: bigint becomes a
   * decimal string (amounts are decimal strings at the boundary, DESIGN.md); anything else (a
   * cycle) becomes -32603 logged under a correlation id. A batch goes through `bytes`.
   */
  serialize(result: JsonRpcResponse): string {
    try {
      return JSON.stringify(result);
    } catch {
      return this.#serializeOne(result);
    }
  }

  /**
   * The bytes of a result, for a transport that sends bytes: a batch is serialised response by
   * response into one Buffer, the same bytes as `serialize` gives. One `JSON.stringify` of a whole
   * batch of 500 receipts (~450 KB) cost ~2.4 ms against ~0.6 for the 500 small ones written into
   * one buffer (docs/performance.md "Batch requests and replies"): the one large string is built by growing and
   * copying, and the socket then converts it to bytes again.
   */
  bytes(result: JsonRpcResponse | JsonRpcResponse[]): string | Buffer {
    if (!Array.isArray(result)) {
      const text = this.serialize(result);
      return this.#maxResponse > 0 && overBytes(text, this.#maxResponse) ? this.#tooLarge(result.id, 'response', this.#maxResponse) : text;
    }
    const parts = new Array<string>(result.length);
    // '[' and ']' and a comma between each two
    let length = result.length + 1;
    const batchLimit = this.#maxBatchResponse > 0 ? this.#maxBatchResponse : Infinity;
    let tooLarge: string | undefined;
    for (let i = 0; i < result.length; i++) {
      const r = result[i]!;
      let text: string;
      if (tooLarge === undefined) {
        // plain JSON.stringify first: the replacer of the fallback is called for every key
        text = this.serialize(r);
        if (this.#maxResponse > 0 && overBytes(text, this.#maxResponse)) text = this.#tooLarge(r.id, 'response', this.#maxResponse);
        const size = Buffer.byteLength(text);
        if (length + size > batchLimit) {
          // From here on nothing is serialised: a 1,000-entry batch of rpc.discover (~1 MB each)
          // stops at the budget instead of building a gigabyte of text.
          tooLarge = this.#tooLarge(null, 'batch', batchLimit);
          this.#logger.debug('rpc batch reply over its budget', { entries: result.length, answered: i, limit: batchLimit });
        } else {
          parts[i] = text;
          length += size;
          continue;
        }
      }
      text = r.id === null ? tooLarge! : this.#tooLarge(r.id, 'batch', batchLimit);
      parts[i] = text;
      length += Buffer.byteLength(text);
    }
    const out = Buffer.allocUnsafe(length);
    out[0] = OPEN_BRACKET;
    let o = 1;
    for (let i = 0; i < parts.length; i++) {
      if (i > 0) out[o++] = COMMA;
      o += out.write(parts[i]!, o);
    }
    out[o] = CLOSE_BRACKET;
    return out;
  }

  /** LIMIT_EXCEEDED (RESPONSE_TOO_LARGE) for a reply over the per-call or the batch budget. */
  #tooLarge(id: JsonRpcId, what: 'response' | 'batch', limit: number): string {
    const message = what === 'response'
      ? `response too large: the reply exceeds ${limit} bytes (--rpc-response-max-size); ask for less (a narrower range, a smaller limit)`
      : `response too large: the batch reply exceeds ${limit} bytes (--rpc-batch-response-max-size); the reply to this entry was dropped (the call ran), as were the replies to the entries after it; send smaller batches`;
    return JSON.stringify(failure(id, APP_ERRORS.LIMIT_EXCEEDED.code, message, { reason: 'RESPONSE_TOO_LARGE', limit }));
  }

  #serializeOne(r: JsonRpcResponse): string {
    try {
      return JSON.stringify(r, bigintAsDecimal);
    } catch (err) {
      const correlationId = randomUUID();
      this.#logger.error('rpc result not serialisable', { correlationId, err });
      return JSON.stringify(failure(r.id, STANDARD_ERRORS.INTERNAL_ERROR.code, 'internal error', { id: correlationId }));
    }
  }
}

/** The bytes around and between a batch reply's responses (Dispatcher.bytes). */
const OPEN_BRACKET = '['.charCodeAt(0);
const COMMA = ','.charCodeAt(0);
const CLOSE_BRACKET = ']'.charCodeAt(0);

/** Whether a reply's UTF-8 bytes exceed `limit`, without encoding it when its length alone decides. */
function overBytes(text: string, limit: number): boolean {
  if (text.length > limit) return true;
  return text.length * 3 > limit && Buffer.byteLength(text) > limit;
}

function bigintAsDecimal(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}
