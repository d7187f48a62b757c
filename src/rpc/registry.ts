/**
 * The one registry of JSON-RPC methods (DESIGN.md src/rpc): each method carries its param and
 * result schemas, so validation, -32602 messages and the OpenRPC document (rpc.discover) come from
 * one place. HTTP and WebSocket dispatch through the same registry (spec §1.1, §6).
 */
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { RpcError, errorNameOf } from './errors.js';
import { expectedOf, parserOf, type ParamParser } from './schemas.js';
import { buildOpenRpcDocument, DISCOVER_EXAMPLE, discoverResultSchema, type OpenRpcDocument, type OpenRpcInfo } from './openrpc.js';
import type { MethodDefinition } from './method.js';

// Method authors import the definition types and defineMethod with the registry (src/rpc/methods/*).
export { defineMethod, type CallContext, type MethodDefinition, type MethodDocs, type MethodExample, type MethodParam, type ParamValues, type RpcConnection } from './method.js';

/** A param prepared for the hot path: compiled checker and the "expected" phrase precomputed. */
interface PreparedParam {
  readonly name: string;
  readonly position: number;
  readonly required: boolean;
  readonly check: TypeCheck<TSchema>;
  readonly expected: string;
  readonly fallback: unknown;
  /** the schema's parser (issue 44 item 4): the handler gets its result, not the JSON value */
  readonly parse: ParamParser<unknown, unknown> | undefined;
}

export interface RegisteredMethod {
  readonly definition: MethodDefinition;
  readonly params: readonly PreparedParam[];
  readonly byName: boolean;
  readonly requiredCount: number;
  readonly handler: MethodDefinition['handler'];
}

export interface MethodRegistryOptions {
  /** OpenRPC `info` of rpc.discover: title and version (e.g. NODE_VERSION). */
  readonly info: OpenRpcInfo;
}

const METHOD_NAME = /^[A-Za-z][A-Za-z0-9_.]*$/;

/** Told of every call of a registered method once it settles: its time and whether it succeeded. */
export type CallObserver = (method: string, seconds: number, ok: boolean) => void;

export class MethodRegistry {
  readonly #methods = new Map<string, RegisteredMethod>();
  /** Set by node.ts when --metrics is on (src/operator/metrics.ts); the dispatcher calls it. */
  callObserver: CallObserver | undefined;
  /**
   * The error for a method this registry does not hold, instead of -32601 (a `--light` node names
   * the methods it cannot serve, src/rpc/light.ts); undefined keeps -32601.
   */
  unregistered: ((name: string) => { code: number; message: string; data?: unknown } | undefined) | undefined;
  readonly #info: OpenRpcInfo;
  #discoverCache: OpenRpcDocument | undefined;

  constructor(options: MethodRegistryOptions) {
    this.#info = options.info;
    // JSON-RPC 2.0 §4: names beginning "rpc." are reserved for rpc-internal methods; rpc.discover is
    // the OpenRPC service-discovery method, registered here so every transport serves it.
    this.#add(
      {
        name: 'rpc.discover',
        summary: 'Returns the OpenRPC document describing every method of this node.',
        description: 'OpenRPC service discovery (https://spec.open-rpc.org/#service-discovery-method; docs/rpc.md): every method with '
          + 'its params, result schema, application errors and examples, generated from the registry the node validates with, '
          + 'so client generators read what the node does. No params; no application errors.',
        params: [],
        result: {
          name: 'OpenRPC document', schema: discoverResultSchema,
          description: 'the OpenRPC 1.3 document',
        },
        examples: [DISCOVER_EXAMPLE],
        handler: () => (this.#discoverCache ??= buildOpenRpcDocument(this.#info, this.definitions())),
      },
      true,
    );
  }

  /** Registers a method; throws on a duplicate or reserved name or a malformed definition (a bug). */
  register(definition: MethodDefinition): void {
    this.#add(definition, false);
  }

  registerAll(definitions: Iterable<MethodDefinition>): void {
    for (const d of definitions) this.register(d);
  }

  #add(definition: MethodDefinition, internal: boolean): void {
    const { name } = definition;
    if (!METHOD_NAME.test(name)) throw new Error(`method name ${JSON.stringify(name)} is not a valid identifier`);
    if (!internal && name.startsWith('rpc.')) throw new Error(`method name ${name} is reserved (JSON-RPC 2.0 §4)`);
    if (this.#methods.has(name)) throw new Error(`method ${name} is registered twice`);
    for (const code of definition.errors ?? []) {
      if (errorNameOf(code) === undefined) throw new Error(`method ${name}: error code ${code} is not in the error table (src/rpc/errors.ts)`);
    }
    const seen = new Set<string>();
    let sawOptional = false;
    let requiredCount = 0;
    const params = definition.params.map((p, i): PreparedParam => {
      if (seen.has(p.name)) throw new Error(`method ${name}: param ${p.name} appears twice`);
      seen.add(p.name);
      const required = p.required !== false;
      // Positional calls can only omit trailing params, so a required param after an optional one
      // could never be omitted-by-position correctly.
      if (required && sawOptional) throw new Error(`method ${name}: required param ${p.name} follows an optional one`);
      if (!required) sawOptional = true;
      else requiredCount++;
      return {
        name: p.name,
        position: i + 1,
        required,
        check: TypeCompiler.Compile(p.schema),
        expected: expectedOf(p.schema),
        fallback: (p.schema as { default?: unknown }).default,
        parse: parserOf(p.schema),
      };
    });
    this.#methods.set(name, {
      definition,
      params,
      byName: definition.paramStructure !== 'by-position',
      requiredCount,
      handler: definition.handler,
    });
    this.#discoverCache = undefined;
  }

  get(name: string): RegisteredMethod | undefined {
    return this.#methods.get(name);
  }

  has(name: string): boolean {
    return this.#methods.has(name);
  }

  /** Definitions in registration order (rpc.discover first). */
  definitions(): MethodDefinition[] {
    return [...this.#methods.values()].map((m) => m.definition);
  }

  /** The OpenRPC document rpc.discover returns. */
  discover(): OpenRpcDocument {
    return (this.#discoverCache ??= buildOpenRpcDocument(this.#info, this.definitions()));
  }

  /**
   * Normalises raw JSON-RPC params (absent, array or by-name object) to a validated positional
   * array of length method.params.length, each param with a parser parsed (an absent optional one
   * stays its default). Throws RpcError -32602 naming the first bad param and its position.
   */
  prepareParams(method: RegisteredMethod, raw: unknown): unknown[] {
    const spec = method.params;
    const n = spec.length;
    let values: unknown[];
    if (raw === undefined) {
      values = new Array(n);
    } else if (Array.isArray(raw)) {
      if (raw.length > n) {
        throw RpcError.invalidParams(`too many params: ${method.definition.name} takes at most ${n}, got ${raw.length}`, {
          maxParams: n,
          got: raw.length,
        });
      }
      // Copy so a handler never sees (or mutates) the request's array; pad to n.
      values = raw.length === n ? raw.slice() : raw.concat(new Array(n - raw.length));
    } else {
      // By-name (JSON-RPC 2.0 §4.2): every key must be a param name.
      if (!method.byName) {
        throw RpcError.invalidParams(`${method.definition.name} takes its params as a positional array`, { paramStructure: 'by-position' });
      }
      const obj = raw as Record<string, unknown>;
      values = new Array(n);
      let matched = 0;
      for (let i = 0; i < n; i++) {
        const key = spec[i]!.name;
        if (Object.hasOwn(obj, key)) {
          values[i] = obj[key];
          matched++;
        }
      }
      if (matched !== Object.keys(obj).length) {
        const known = new Set(spec.map((p) => p.name));
        const unknown = Object.keys(obj).filter((k) => !known.has(k));
        throw RpcError.invalidParams(`unknown param ${JSON.stringify(unknown[0])}; ${method.definition.name} takes ${spec.map((p) => p.name).join(', ') || 'no params'}`, {
          param: unknown[0],
          known: spec.map((p) => p.name),
        });
      }
    }
    for (let i = 0; i < n; i++) {
      const p = spec[i]!;
      const v = values[i];
      if (v === undefined || v === null) {
        if (!p.required) {
          values[i] = p.parse && p.fallback !== undefined ? p.parse(p.fallback, p.name, p.position) : p.fallback;
          continue;
        }
        if (v === undefined) {
          throw new RpcError(-32602, `invalid params: missing "${p.name}" (param ${p.position}), expected ${p.expected}`, {
            param: p.name,
            position: p.position,
            expected: p.expected,
          });
        }
      }
      if (!p.check.Check(v)) throw paramError(p, v);
      // Schemas say "a string", but a JSON string may hold a lone UTF-16 surrogate ("\ud800"),
      // which no UTF-8 encoder can write: refused here for every method's every string, so no
      // handler meets one (hardening issue item 6: they surfaced as -32603 from the codec).
      const badAt = illFormedStringAt(v);
      if (badAt !== undefined) throw surrogateError(p, badAt);
      if (p.parse) values[i] = p.parse(v, p.name, p.position);
    }
    return values;
  }
}

type WellFormed = { isWellFormed(): boolean };

/**
 * JSON pointer (TypeBox's path form, '' = the value itself) of the first string or object key in
 * `value` holding a lone UTF-16 surrogate, or undefined. Iterative: a deeply nested value accepted by
 * a loose schema must not overflow the stack.
 */
export function illFormedStringAt(value: unknown): string | undefined {
  if (typeof value === 'string') return (value as unknown as WellFormed).isWellFormed() ? undefined : '';
  if (typeof value !== 'object' || value === null) return undefined;
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (typeof node === 'string') {
      if (!(node as unknown as WellFormed).isWellFormed()) return path;
    } else if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push([node[i], `${path}/${i}`]);
    } else if (typeof node === 'object' && node !== null) {
      for (const [key, child] of Object.entries(node)) {
        const childPath = `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
        if (!(key as unknown as WellFormed).isWellFormed()) return childPath;
        stack.push([child, childPath]);
      }
    }
  }
  return undefined;
}

function surrogateError(p: PreparedParam, path: string): RpcError {
  const reason = 'string holds a lone UTF-16 surrogate (not Unicode text)';
  return new RpcError(-32602, `invalid params: "${p.name}" (param ${p.position}) must be ${p.expected}; at ${path === '' ? '/' : path}: ${reason}`, {
    param: p.name,
    position: p.position,
    expected: p.expected,
    path,
    reason,
  });
}

/** -32602 for a value that failed its schema; nested failures add TypeBox's path and reason. */
function paramError(p: PreparedParam, value: unknown): RpcError {
  const first = p.check.Errors(value).First();
  if (first === undefined || first.path === '') return RpcError.invalidParam(p.name, p.position, p.expected);
  return new RpcError(
    -32602,
    `invalid params: "${p.name}" (param ${p.position}) must be ${p.expected}; at ${first.path}: ${first.message}`,
    { param: p.name, position: p.position, expected: p.expected, path: first.path, reason: first.message },
  );
}
