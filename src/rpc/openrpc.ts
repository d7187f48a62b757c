/**
 * The OpenRPC 1.3 document served by `rpc.discover`, generated from the registry so the doc can
 * never disagree with what the node validates. Schemas are the TypeBox schemas themselves (plain
 * JSON Schema once serialised; TypeBox's symbol keys do not serialise).
 */
import { Type } from '@sinclair/typebox';
import { APP_ERRORS, STANDARD_ERRORS, errorNameOf } from './errors.js';
import type { MethodDefinition } from './registry.js';

export interface OpenRpcInfo {
  readonly title: string;
  readonly version: string;
  readonly description?: string;
}

export interface OpenRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface OpenRpcMethod {
  name: string;
  summary: string;
  description?: string;
  paramStructure: 'either' | 'by-position';
  params: Array<{ name: string; required: boolean; description?: string; schema: unknown }>;
  result: { name: string; description?: string; schema: unknown };
  errors?: OpenRpcErrorObject[];
  examples?: unknown[];
}

export interface OpenRpcDocument {
  openrpc: string;
  info: OpenRpcInfo;
  methods: OpenRpcMethod[];
  components: { errors: Record<string, OpenRpcErrorObject> };
}

export const OPENRPC_VERSION = '1.3.2';

/** rpc.discover's result, by reference to the OpenRPC meta-schema (as other nodes publish it). */
export const discoverResultSchema = Type.Unsafe<OpenRpcDocument>({
  $ref: 'https://raw.githubusercontent.com/open-rpc/meta-schema/1.14.2/schema.json',
  description: 'OpenRPC document (https://spec.open-rpc.org/)',
});

function errorObject(code: number, meaning: string): OpenRpcErrorObject {
  return { code, message: errorNameOf(code) ?? String(code), data: meaning };
}

/** Strips TypeBox's non-JSON parts (symbols) by a JSON round trip: plain JSON Schema out. */
function plainSchema(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema ?? {}));
}

export function buildOpenRpcDocument(info: OpenRpcInfo, definitions: readonly MethodDefinition[]): OpenRpcDocument {
  const meaningByCode = new Map<number, string>();
  const components: Record<string, OpenRpcErrorObject> = {};
  for (const [name, e] of [...Object.entries(STANDARD_ERRORS), ...Object.entries(APP_ERRORS)]) {
    meaningByCode.set(e.code, e.meaning);
    components[name] = errorObject(e.code, e.meaning);
  }
  const methods = definitions.map((d): OpenRpcMethod => {
    const m: OpenRpcMethod = {
      name: d.name,
      summary: d.summary,
      paramStructure: d.paramStructure ?? 'either',
      params: d.params.map((p) => ({
        name: p.name,
        required: p.required !== false,
        ...(p.description !== undefined ? { description: p.description } : {}),
        schema: plainSchema(p.schema),
      })),
      result: {
        name: d.result.name,
        ...(d.result.description !== undefined ? { description: d.result.description } : {}),
        schema: plainSchema(d.result.schema),
      },
    };
    // Client generators show the description; a method whose summary says it all repeats it.
    m.description = d.description ?? d.summary;
    if (d.errors !== undefined && d.errors.length > 0) {
      m.errors = d.errors.map((code) => errorObject(code, meaningByCode.get(code) ?? 'unlisted application error'));
    }
    if (d.examples !== undefined) m.examples = d.examples.map((e) => plainSchema(e));
    return m;
  });
  return { openrpc: OPENRPC_VERSION, info: { ...info }, methods, components: { errors: components } };
}
