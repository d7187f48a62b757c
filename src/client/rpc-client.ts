/**
 * JSON-RPC 2.0 over HTTP POST (spec §1.1, §7.1, §9.1): one endpoint URL, `Content-Type:
 * application/json`. Uses the global `fetch` so the same class runs in Node 22 and in browsers.
 */

/** An error object the node returned (spec §7.1); `code` is the JSON-RPC code, `data` its payload. */
export class RpcClientError extends Error {
  override readonly name = 'RpcClientError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    /** The method that failed, for messages and logs. */
    readonly method?: string,
  ) {
    super(method ? `${method}: ${message} (code ${code})` : `${message} (code ${code})`);
  }
}

/** The request never produced a JSON-RPC answer: network failure, timeout, HTTP status, bad JSON. */
export class RpcTransportError extends Error {
  override readonly name = 'RpcTransportError';
  constructor(
    message: string,
    readonly httpStatus?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface RpcClientOptions {
  /** Per-request timeout; default 30 s. */
  timeoutMs?: number;
  headers?: Record<string, string>;
  /** Replaceable for tests and custom transports. */
  fetch?: typeof fetch;
}

export interface RpcCall {
  method: string;
  params?: unknown[];
}

export type RpcBatchResult = { ok: true; result: unknown } | { ok: false; error: RpcClientError };

interface RpcResponse {
  jsonrpc?: unknown;
  id?: unknown;
  result?: unknown;
  error?: { code?: unknown; message?: unknown; data?: unknown };
}

export class RpcClient {
  private nextId = 1;
  private readonly timeoutMs: number;
  private readonly headers: Record<string, string>;
  private readonly fetchFn: typeof fetch;

  constructor(
    readonly url: string,
    options: RpcClientOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.headers = { 'content-type': 'application/json', ...options.headers };
    this.fetchFn = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /** Calls `method`; resolves with `result`, rejects with RpcClientError or RpcTransportError. */
  async call<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
    const id = this.nextId++;
    const body = await this.post({ jsonrpc: '2.0', id, method, params });
    const response = asResponse(body);
    if (response.id !== id) throw new RpcTransportError(`${method}: response id ${JSON.stringify(response.id)} does not match request id ${id}`);
    return unwrap(response, method) as T;
  }

  /**
   * One HTTP request carrying several calls (JSON-RPC 2.0 batch). Results come back in call order
   * whatever order the server answered in; a failed call does not fail the others.
   */
  async batch(calls: readonly RpcCall[]): Promise<RpcBatchResult[]> {
    if (calls.length === 0) return [];
    const firstId = this.nextId;
    this.nextId += calls.length;
    const requests = calls.map((c, i) => ({ jsonrpc: '2.0', id: firstId + i, method: c.method, params: c.params ?? [] }));
    const body = await this.post(requests);
    if (!Array.isArray(body)) {
      // A server refusing the whole batch answers with one error object.
      const single = asResponse(body);
      if (single.error) throw toRpcError(single.error, 'batch');
      throw new RpcTransportError('batch: expected an array of responses');
    }
    const byId = new Map<unknown, RpcResponse>();
    for (const item of body) {
      const response = asResponse(item);
      byId.set(response.id, response);
    }
    return calls.map((c, i): RpcBatchResult => {
      const response = byId.get(firstId + i);
      if (!response) return { ok: false, error: new RpcClientError(-32603, 'no response for this call in the batch', undefined, c.method) };
      if (response.error) return { ok: false, error: toRpcError(response.error, c.method) };
      return { ok: true, result: response.result };
    });
  }

  private async post(payload: unknown): Promise<unknown> {
    let res: Response;
    try {
      res = await this.fetchFn(this.url, {
        method: 'POST',
        headers: this.headers,
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      const reason = (error as Error).name === 'TimeoutError' ? `timed out after ${this.timeoutMs} ms` : (error as Error).message;
      throw new RpcTransportError(`request to ${this.url} failed: ${reason}`, undefined, { cause: error });
    }
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new RpcTransportError(`HTTP ${res.status} from ${this.url}: response is not JSON: ${text.slice(0, 200)}`, res.status);
    }
    // JSON-RPC servers may answer errors with a non-2xx status and a valid error object; keep it.
    if (!res.ok && (typeof body !== 'object' || body === null)) {
      throw new RpcTransportError(`HTTP ${res.status} from ${this.url}`, res.status);
    }
    return body;
  }
}

function asResponse(value: unknown): RpcResponse {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RpcTransportError('response is not a JSON-RPC object');
  }
  return value as RpcResponse;
}

function unwrap(response: RpcResponse, method: string): unknown {
  if (response.error !== undefined && response.error !== null) throw toRpcError(response.error, method);
  if (!('result' in response)) throw new RpcTransportError(`${method}: response has neither result nor error`);
  return response.result;
}

function toRpcError(error: RpcResponse['error'], method: string): RpcClientError {
  const code = typeof error?.code === 'number' ? error.code : -32603;
  const message = typeof error?.message === 'string' ? error.message : 'unknown error';
  return new RpcClientError(code, message, error?.data, method);
}
