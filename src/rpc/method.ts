/**
 * What a JSON-RPC method is (spec §1.1): its name, param and result schemas, errors, examples and
 * handler, and the context a call runs in. The registry (./registry.ts) serves these, the OpenRPC
 * document (./openrpc.ts) describes them; both import them from here.
 */
import type { Static, TSchema } from '@sinclair/typebox';
import type { Parse, ParamParser } from './schemas.js';

/** A WebSocket connection as methods see it, so subscriptions (spec §6) can push notifications. */
export interface RpcConnection {
  readonly id: number;
  /**
   * Sends a JSON value on the socket. Returns false when it was not sent: the connection is closed,
   * or the client is not reading and the send buffer is over its bound (a slow consumer skips, spec §6.1).
   */
  send(message: unknown): boolean;
  /**
   * The client's address, on a socket's connection; absent on the pseudo-connections of polled
   * filters (src/rpc/eth-filters.ts), which have their own caps. The subscription hub counts
   * per-IP and global subscription caps by it.
   */
  readonly ip?: string;
  /** send() of JSON text already encoded (the hub encodes each notification item once). */
  sendText?(text: string): boolean;
  /** Runs fn with the socket corked, so the messages it sends leave in one write. */
  cork?(fn: () => void): void;
  /** Runs fn once when the connection closes (unsubscribe, free buffers). */
  onClose(fn: () => void): void;
}

export interface CallContext {
  readonly transport: 'http' | 'ws';
  /** Remote address of the socket (the RPC does not trust proxy headers). */
  readonly ip: string;
  /** Present on WebSocket calls only. */
  readonly connection?: RpcConnection;
}

export interface MethodParam {
  readonly name: string;
  readonly schema: TSchema;
  /** Default true. An optional param may be absent or null (spec §4: "`?` marks optional (null allowed)"). */
  readonly required?: boolean;
  readonly description?: string;
}

export interface MethodExample {
  readonly name: string;
  readonly params: ReadonlyArray<{ name: string; value: unknown }>;
  readonly result: { name: string; value: unknown };
  readonly description?: string;
}

/**
 * What one examples file holds (src/rpc/examples/*.json, or a domain's
 * `src/domains/<name>/examples.json`): examples with named params, or recorded positional ones.
 */
export interface MethodDocs {
  EXAMPLES?: Record<string, MethodExample[]>;
  POSITIONAL_EXAMPLES?: Record<string, Array<{ name: string; params: unknown[]; result: unknown }>>;
}

/** What a method author registers. */
export interface MethodDefinition {
  readonly name: string;
  /**
   * The method's one description (issue 44 item 4), from which OpenRPC (./openrpc.ts) and
   * docs/methods.md (scripts/gen-methods-doc.ts) are produced: `summary` one line, `description`
   * how it works and its errors (OpenRPC's method description), `paramsNote` what the param list
   * alone does not say (defaults, forms; after the list in docs/methods.md), `result.description`
   * what it answers (the result column of docs/methods.md, OpenRPC's result description).
   */
  readonly summary: string;
  readonly description?: string;
  readonly paramsNote?: string;
  readonly params: readonly MethodParam[];
  readonly result: { readonly name: string; readonly schema: TSchema; readonly description?: string };
  /** Application codes (APP_ERRORS) the method may return; listed in OpenRPC. */
  readonly errors?: readonly number[];
  readonly examples?: readonly MethodExample[];
  /**
   * 'either' (default): a positional array or an object keyed by param name (JSON-RPC 2.0 §4.2).
   * 'by-position': only arrays, for methods whose spec is positional-only.
   */
  readonly paramStructure?: 'either' | 'by-position';
  /**
   * Positional params: always params.length entries; absent or null optional params arrive as the
   * schema's `default` if it has one, else undefined.
   */
  handler(params: unknown[], ctx: CallContext): Promise<unknown> | unknown;
}

/** A schema's value as the handler gets it: its parser's result (src/rpc/schemas.ts `parsed`), else the JSON value. */
type SchemaValue<S extends TSchema> = S extends { readonly [Parse]: ParamParser<never, infer Out> } ? Out : Static<S>;

type ParamValue<P> = P extends { schema: infer S extends TSchema; required: false }
  ? SchemaValue<S> | undefined
  : P extends { schema: infer S extends TSchema }
    ? SchemaValue<S>
    : never;

/** The handler's positional params typed from the param schemas. */
export type ParamValues<P extends readonly MethodParam[]> = { -readonly [K in keyof P]: ParamValue<P[K]> };

/**
 * Typed form of a definition: `handler` receives params typed from their schemas (an optional param
 * is `T | undefined`). Returns a plain MethodDefinition for `registry.register`.
 */
export function defineMethod<const P extends readonly MethodParam[], R extends TSchema>(
  definition: Omit<MethodDefinition, 'params' | 'result' | 'handler'> & {
    params: P;
    result: { name: string; schema: R; description?: string };
    handler(params: ParamValues<P>, ctx: CallContext): Promise<Static<R>> | Static<R>;
  },
): MethodDefinition {
  return definition as unknown as MethodDefinition;
}
