/**
 * The page's link to the node it is served from: JSON-RPC calls over HTTP POST `/` and the spec §6
 * subscriptions over one WebSocket on the same port (docs/subscriptions.md). Nothing else is
 * contacted (no CDN, no third-party origin).
 */

export class RpcCallError extends Error {
  constructor(readonly code: number, message: string, readonly data?: unknown) {
    super(message);
  }
}

let nextId = 1;

export async function call<T>(method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch('/', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
  });
  const body = (await res.json()) as { result?: T; error?: { code: number; message: string; data?: unknown } };
  if (body.error) throw new RpcCallError(body.error.code, body.error.message, body.error.data);
  return body.result as T;
}

let methodsPromise: Promise<Set<string>> | undefined;

/** The method names rpc.discover lists, so pages can say "not available on this node" for the rest. */
export function availableMethods(): Promise<Set<string>> {
  methodsPromise ??= call<{ methods: Array<{ name: string }> }>('rpc.discover')
    .then((doc) => new Set(doc.methods.map((m) => m.name)))
    .catch(() => new Set<string>());
  return methodsPromise;
}

type Listener = (item: unknown) => void;

/**
 * One WebSocket for every live list on the page; resubscribes after a reconnect. Notifications are
 * `{method: 'svc_subscription', params: {subscription, result}}`.
 */
export class LiveFeed {
  #ws: WebSocket | undefined;
  #wanted = new Map<string, Set<Listener>>();
  #idToMethod = new Map<string, string>();
  #pending = new Map<number, string>();
  #closed = false;
  onStatus: (connected: boolean) => void = () => {};

  constructor() {
    this.#connect();
  }

  /** Calls fn for every item of the subscription (e.g. svc_subscribe_newHeads); returns an undo. */
  subscribe(method: string, fn: Listener): () => void {
    let set = this.#wanted.get(method);
    if (!set) {
      set = new Set();
      this.#wanted.set(method, set);
      this.#send(method);
    }
    set.add(fn);
    return () => set!.delete(fn);
  }

  close(): void {
    this.#closed = true;
    this.#ws?.close();
  }

  #send(method: string): void {
    const ws = this.#ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    const id = nextId++;
    this.#pending.set(id, method);
    ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params: [] }));
  }

  #connect(): void {
    const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/`);
    this.#ws = ws;
    ws.onopen = () => {
      this.onStatus(true);
      this.#idToMethod.clear();
      for (const method of this.#wanted.keys()) this.#send(method);
    };
    ws.onmessage = (event) => {
      const msg = JSON.parse(String(event.data)) as {
        id?: number; result?: unknown; method?: string; params?: { subscription: string; result: unknown };
      };
      if (msg.method === 'svc_subscription' && msg.params) {
        const method = this.#idToMethod.get(msg.params.subscription);
        if (method) for (const fn of this.#wanted.get(method) ?? []) fn(msg.params.result);
        return;
      }
      if (typeof msg.id === 'number' && this.#pending.has(msg.id)) {
        const method = this.#pending.get(msg.id)!;
        this.#pending.delete(msg.id);
        if (typeof msg.result === 'string') this.#idToMethod.set(msg.result, method);
      }
    };
    ws.onclose = () => {
      this.onStatus(false);
      if (!this.#closed) setTimeout(() => this.#connect(), 2000);
    };
  }
}
