/**
 * The OpenRPC 1.3 document served by `rpc.discover`, generated from the registry so the doc can
 * never disagree with what the node validates. Schemas are the TypeBox schemas themselves (plain
 * JSON Schema once serialised; TypeBox's symbol keys do not serialise).
 */
import { Type } from '@sinclair/typebox';
import { APP_ERRORS, STANDARD_ERRORS, errorNameOf } from './errors.js';
import type { MethodDefinition } from './method.js';

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

const ErrorObjectSchema = Type.Object({
  code: Type.Integer({ description: 'JSON-RPC error code' }),
  message: Type.String({ description: 'the error\'s name (docs/rpc.md "Errors")' }),
  data: Type.Optional(Type.Unknown({ description: 'what the code means' })),
}, { title: 'OpenRPC Error Object' });

/**
 * rpc.discover's result: the OpenRPC 1.3 document as this node writes it, typed so that a client
 * generator gets its fields (issue 26 item 6); the full grammar is the OpenRPC meta-schema
 * (https://raw.githubusercontent.com/open-rpc/meta-schema/1.14.2/schema.json). Param and result
 * `schema` values are JSON Schema objects.
 */
export const discoverResultSchema = Type.Object({
  openrpc: Type.String({ description: 'OpenRPC version of the document' }),
  info: Type.Object({
    title: Type.String(),
    version: Type.String({ description: 'node version' }),
    description: Type.Optional(Type.String()),
  }),
  methods: Type.Array(Type.Object({
    name: Type.String(),
    summary: Type.String(),
    description: Type.Optional(Type.String()),
    paramStructure: Type.Union([Type.Literal('either'), Type.Literal('by-position')]),
    params: Type.Array(Type.Object({
      name: Type.String(),
      required: Type.Boolean(),
      description: Type.Optional(Type.String()),
      schema: Type.Unknown({ description: 'JSON Schema of the param' }),
    })),
    result: Type.Object({
      name: Type.String(),
      description: Type.Optional(Type.String()),
      schema: Type.Unknown({ description: 'JSON Schema of the result' }),
    }),
    errors: Type.Optional(Type.Array(ErrorObjectSchema)),
    examples: Type.Optional(Type.Array(Type.Unknown({ description: 'OpenRPC Example Pairing Object' }))),
  })),
  components: Type.Object({ errors: Type.Record(Type.String(), ErrorObjectSchema) }),
}, { title: 'OpenRPC document', description: 'OpenRPC document (https://spec.open-rpc.org/)' });

/** rpc.discover's OpenRPC example: a document cut down to one method. */
export const DISCOVER_EXAMPLE = {
  name: 'a node\'s document, cut to one method',
  params: [],
  result: {
    name: 'OpenRPC document',
    value: {
      openrpc: '1.3.2',
      info: { title: 'ntv-node JSON-RPC', version: '0.1.0' },
      methods: [{
        name: 'svc_version',
        summary: 'Node version, network and chain ID (spec §4.17, §9.3).',
        description: 'The node\'s version, client string, network, EIP-155 chain ID and the validator address it produces blocks as (spec §4.17, §9.3). No application errors.',
        paramStructure: 'either',
        params: [],
        result: { name: 'version', schema: { type: 'object', required: ['version', 'client', 'network', 'chain_id', 'validator'], properties: { version: { type: 'string' } } } },
        examples: [{ name: 'a testnet node', params: [], result: { name: 'version', value: { version: '0.1.0', client: 'ntv-node/0.1.0', network: 'testnet', chain_id: 1618032, validator: 'Nx0GFdJdiN8NAswTxkZeYnG1P9Wq7psZEZYEHH4H39SEioE' } } }],
      }],
      components: { errors: { INVALID_PARAMS: { code: -32602, message: 'INVALID_PARAMS', data: STANDARD_ERRORS.INVALID_PARAMS.meaning } } },
    },
  },
};

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
    // Client generators show the description; a method whose summary says it all repeats it. The
    // params note is docs/methods.md's text after the param list (one description per method,
    // issue 44 item 4: both documents are produced from the definition).
    const description = d.description ?? d.summary;
    m.description = d.paramsNote === undefined ? description : `${description} Params: ${d.paramsNote.replace(/^[—,]\s*/, '')}`;
    if (d.errors !== undefined && d.errors.length > 0) {
      m.errors = d.errors.map((code) => errorObject(code, meaningByCode.get(code) ?? 'unlisted application error'));
    }
    if (d.examples !== undefined) m.examples = d.examples.map((e) => plainSchema(e));
    return m;
  });
  return { openrpc: OPENRPC_VERSION, info: { ...info }, methods, components: { errors: components } };
}
