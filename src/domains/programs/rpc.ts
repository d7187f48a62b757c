import { Type } from '@sinclair/typebox';
import type { StoredProgram } from '../../intents/programs.js';
import { APP_ERRORS, RpcError } from '../../rpc/errors.js';
import { defineMethod, type MethodDefinition } from '../../rpc/registry.js';
import { Limit } from '../../rpc/schemas.js';
import type { MethodDependencies } from '../../rpc/methods/context.js';
import { guarded, INTENT_ERROR_CODES, simulation, SimulationSchema } from '../../rpc/methods/intent-shared.js';
import { AccountParam } from '../../rpc/methods/params.js';

/**
 * Spec §4.9 intent programs (docs/programs.md). Registration is the RegisterProgram operation
 * (bundle-format disc. 48); svc_registerProgram is its unsigned convenience form (testnet only).
 * Reads come from chain state through the intent engine (src/intents/service.ts), which reads
 * src/domains/programs/reader.ts and validates each record as it reads it; simulate and execute
 * plan the program's steps as one bundle, as the intent methods do (src/rpc/methods/intent-shared.ts).
 */

const ProgramName = Type.String({ minLength: 1, maxLength: 64, description: 'program name (3–64 of a–z, 0–9, -, _)' });

const ProgramSchema = Type.Object({
  name: Type.String(), description: Type.String(),
  params: Type.Array(Type.Object({ name: Type.String(), type: Type.String(), default: Type.Optional(Type.String()), description: Type.Optional(Type.String()) })),
  steps: Type.Array(Type.Object({ intent: Type.String(), description: Type.Optional(Type.String()) })),
  owner: Type.String(), version: Type.Integer({ description: 'the record\'s revision: 1, + 1 each time the owner replaces it' }),
  registered_at: Type.Integer(), updated_at: Type.Integer(),
  registered_height: Type.Integer(), updated_height: Type.Integer(),
  program_hash: Type.String({ description: 'Blake3 of the program JSON as stored on chain, 0x hex' }),
  valid: Type.Boolean({ description: 'false when the JSON stored on chain does not validate as a program of this name (it cannot run); see invalid_reason' }),
  invalid_reason: Type.Optional(Type.String()),
}, { title: 'IntentProgram' });

/**
 * The param lists, parsed once (issue 44 item 4): senders reach the handlers as 32 bytes; the
 * program JSON and the program's params are read by the engine, whose errors name them (guarded).
 */
const REGISTER_PARAMS = [
  { name: 'program_json', schema: Type.Union([Type.String({ maxLength: 65_536 }), Type.Object({}, { additionalProperties: true })], { description: 'the program as a JSON object or JSON text' }) },
  { name: 'sender', schema: AccountParam() },
] as const;
const PROGRAM_PARAMS = [
  { name: 'name', schema: ProgramName },
  { name: 'params', schema: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()], { description: 'parameter name → value; {} or null when every parameter has a default' }) },
  { name: 'sender', schema: AccountParam() },
] as const;

/** A program as the methods answer with it (ProgramSchema). */
function programJson(p: StoredProgram) {
  return {
    name: p.name, description: p.description, params: p.params, steps: p.steps, owner: p.owner, version: p.version, registered_at: p.registered_at,
    updated_at: p.updated_at, registered_height: p.registered_height, updated_height: p.updated_height, program_hash: p.program_hash, valid: p.valid,
    ...(p.invalid_reason !== undefined ? { invalid_reason: p.invalid_reason } : {}),
  };
}

export function programMethods({ intents }: MethodDependencies): MethodDefinition[] {
  if (!intents) return [];
  const service = intents;
  return [
    defineMethod({
      name: 'svc_registerProgram',
      summary: 'Register an intent program (spec §4.9): name, description, typed params, intent templates with ${param} placeholders (unsigned convenience, testnet only).',
      description: 'Sends the RegisterProgram operation (bundle-format discriminant 48) as an unsigned bundle for `sender` and answers, once it is '
        + 'in a block, with the program as chain state holds it (docs/intents.md "Programs on chain"). On mainnet it is refused (-32004): sign the same '
        + 'operation and send it with svc_submitBundle. The owner may register the same name again to replace it (version + 1); another account is '
        + 'refused. Errors name the bad field, e.g. steps[2].intent.'
        + ' Errors: UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_INVALID (a malformed program, naming the field); BUNDLE_FAILED (the name'
        + ' belongs to another account).',
      paramsNote: '— object or JSON text',
      params: REGISTER_PARAMS,
      result: {
        name: 'program', schema: ProgramSchema,
        description: 'sends `RegisterProgram` (disc. 48) unsigned for `sender` (testnet convenience; mainnet `-32004`: sign the operation and use'
          + ' `svc_submitBundle`) and answers once it is in a block with the program as chain state holds it `{name, description, params[],'
          + ' steps[], owner, version, registered_at, updated_at, registered_height, updated_height, program_hash, valid}`; the owner may'
          + ' register the name again (version + 1), anyone else `-32602` naming `name`',
      },
      errors: [APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.BUNDLE_FAILED.code, APP_ERRORS.BUNDLE_INVALID.code],
      handler: async ([json, owner]) => programJson(await guarded(REGISTER_PARAMS, 'program_json', () => service.registerProgram(json, owner))),
    }),
    defineMethod({
      name: 'svc_getProgram',
      summary: 'A registered intent program by name (spec §4.9), read from chain state.',
      description: 'Reads a registered program from chain state (spec §4.9): its params and steps, owner, version, heights and hash, and whether its'
        + ' templates are valid today. Errors: NOT_FOUND.',
      params: [{ name: 'name', schema: ProgramName }] as const,
      result: {
        name: 'program', schema: ProgramSchema,
        description: 'the program, read from chain state (docs/intents.md "Programs on chain"); `valid: false` with `invalid_reason` when the stored'
          + ' JSON does not validate; `-32003 NOT_FOUND`',
      },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: ([name]) => {
        const p = service.getProgram(name);
        if (!p) throw RpcError.app('NOT_FOUND', `no program named "${name}" is registered`, { name });
        return programJson(p);
      },
    }),
    defineMethod({
      name: 'svc_listPrograms',
      summary: 'Registered intent programs in registration order, oldest first (spec §4.9), read from chain state.',
      paramsNote: '(1–1000, default 100)',
      description: 'Lists registered programs, oldest first (spec §4.9); limit 1–1000, default 100. No application errors.',
      params: [{ name: 'limit', schema: Limit({ default: 100 }), required: false }] as const,
      result: {
        name: 'programs', schema: Type.Array(ProgramSchema),
        description: 'programs in registration order, oldest first (the core\'s list index)',
      },
      handler: ([limit]) => service.listPrograms(limit ?? 100).map(programJson),
    }),
    defineMethod({
      name: 'svc_simulateProgram',
      summary: 'Simulate a program with the given params as its one bundle (spec §4.9); the §2.6 simulation result plus the intents run.',
      paramsNote: '— `params` an object name → value (or null)',
      description: 'Fills the templates with `params` (defaults for the rest) and simulates all steps as one bundle over committed state, as'
        + ' svc_simulateIntent does (spec §4.9, §2.6). Errors: INTENT_REJECTED (a missing or ill-typed param, a step that does not parse),'
        + ' NOT_FOUND (no such program, no pool), UNKNOWN_TOKEN, UNAVAILABLE_ON_NODE.',
      params: PROGRAM_PARAMS,
      result: {
        name: 'simulation', schema: Type.Intersect([SimulationSchema, Type.Object({ program: Type.String(), intents: Type.Array(Type.String()) })]),
        description: 'the `svc_simulateIntent` result plus `{program, intents[]}` (the step texts with the values put in)',
      },
      errors: INTENT_ERROR_CODES,
      handler: async ([name, params, from]) => {
        const { texts, plan: p } = await guarded(PROGRAM_PARAMS, 'params', () => service.planProgram(name, params, from));
        return { ...(await simulation(service, p)), program: name, intents: texts };
      },
    }),
    defineMethod({
      name: 'svc_executeProgram',
      summary: 'Execute a program with the given params: every step in ONE atomic bundle (spec §4.9; testnet convenience); returns the bundle hash.',
      description: 'Fills the templates and sends every step as ONE atomic unsigned bundle (spec §4.9); answers with its hash once in the mempool.'
        + ' Errors: INTENT_REJECTED, NOT_FOUND, UNKNOWN_TOKEN, UNAVAILABLE_ON_NODE, UNAVAILABLE_ON_NETWORK on mainnet, BUNDLE_INVALID.',
      params: PROGRAM_PARAMS,
      result: {
        name: 'bundle_hash', schema: Type.String(),
        description: 'bundle hash; every step in one atomic bundle',
      },
      errors: [...INTENT_ERROR_CODES, APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.BUNDLE_INVALID.code],
      handler: async ([name, params, from]) => (await guarded(PROGRAM_PARAMS, 'params', () => service.executeProgram(name, params, from))).hash,
    }),
  ];
}
