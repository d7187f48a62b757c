/**
 * Intent programs (spec §4.9, docs/intents.md "Programs"): a named, parameterised list of intent
 * templates, executed as ONE atomic bundle. The JSON format:
 *
 *   { "name": "dca-sol",                        3–64 of a–z, 0–9, '-', '_'; starts with a letter or digit
 *     "description": "Buy SOL with USDC",        optional, at most 1,024 characters
 *     "params": [                                at most 16
 *       { "name": "amount", "type": "amount", "default": "10", "description": "USDC per run" },
 *       { "name": "token",  "type": "token" } ],
 *     "steps": [                                 1–16; an object with "intent", or the intent text alone
 *       { "intent": "swap ${amount} USDC for ${token} with 1% slippage" } ] }
 *
 * Parameter types: amount (a human decimal as intents write it, "1.5"), token (a registered symbol
 * or Nx1 mint), address (Nx0…/0x… or a registered-name syntax), percent (0–100, up to two
 * decimals), integer (0–2^53), string (1–64 of letters, digits, space . , _ -). A value is checked
 * against its type before it is put into a template, so a parameter cannot smuggle grammar in.
 * Every validation error names the field: `name`, `params[1].type`, `steps[2].intent`,
 * `params.amount` (a call's parameter).
 */

export const PARAM_TYPES = ['amount', 'token', 'address', 'percent', 'integer', 'string'] as const;
export type ParamType = (typeof PARAM_TYPES)[number];

export interface ProgramParam {
  name: string;
  type: ParamType;
  default?: string;
  description?: string;
}

export interface ProgramStep {
  intent: string;
  description?: string;
}

export interface ProgramDefinition {
  name: string;
  description: string;
  params: ProgramParam[];
  steps: ProgramStep[];
}

/** A registered program as svc_getProgram returns it, read from its chain record (src/domains/programs/reader.ts). */
export interface StoredProgram extends ProgramDefinition {
  owner: string;
  /** the record's revision: 1, then + 1 each time the owner replaces it */
  version: number;
  registered_at: number;
  updated_at: number;
  registered_height: number;
  updated_height: number;
  /** Blake3 of the JSON text as stored, 0x hex */
  program_hash: string;
  /** whether the stored JSON validates as a program of this name (docs/intents.md "Programs on chain") */
  valid: boolean;
  invalid_reason?: string;
}

export class ProgramError extends Error {
  constructor(
    /** the bad field: `steps[2].intent`, `params.amount`, … */
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = 'ProgramError';
  }
}

export const MAX_PROGRAM_STEPS = 16;
export const MAX_PROGRAM_PARAMS = 16;
const MAX_INTENT_CHARS = 512;
const NAME = /^[a-z0-9][a-z0-9_-]{2,63}$/;
const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,31}$/;
const PLACEHOLDER = /\$\{([^}]*)\}/g;
const SAFE_STRING = /^[A-Za-z0-9 .,_-]{1,64}$/;

export interface ValueChecks {
  /** a token symbol or mint is registered */
  tokenExists(symbolOrMint: string): boolean;
  /** an address or a name parses (names need not be registered yet) */
  addressValid(text: string): boolean;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function onlyKeys(v: Record<string, unknown>, allowed: string[], at: string): void {
  for (const k of Object.keys(v)) {
    if (!allowed.includes(k)) throw new ProgramError(at ? `${at}.${k}` : k, `is not a field of a program${at ? ' ' + at.replace(/\[\d+\]$/, '') : ''} (allowed: ${allowed.join(', ')})`);
  }
}

/** Check a parameter value against its type; returns the text to substitute. */
export function checkValue(type: ParamType, value: unknown, field: string, checks: ValueChecks): string {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string') throw new ProgramError(field, `must be a string${type === 'integer' || type === 'percent' || type === 'amount' ? ' or a number' : ''}`);
  switch (type) {
    case 'amount':
      if (!/^\d{1,30}(\.\d{1,18})?$/.test(text)) throw new ProgramError(field, `must be an amount such as "10" or "1.5" (got ${JSON.stringify(text)})`);
      if (/^0+(\.0+)?$/.test(text)) throw new ProgramError(field, 'must be greater than 0');
      return text;
    case 'token':
      if (!/^([A-Za-z0-9]{1,16}|Nx1[1-9A-HJ-NP-Za-km-z]{32,44}|0x[0-9a-fA-F]{64})$/.test(text)) throw new ProgramError(field, `must be a token symbol or mint (got ${JSON.stringify(text)})`);
      if (!checks.tokenExists(text)) throw new ProgramError(field, `unknown token ${JSON.stringify(text)}`);
      return text;
    case 'address':
      if (!checks.addressValid(text)) throw new ProgramError(field, `must be an address (Nx0…, 0x…) or a name such as alice.vex (got ${JSON.stringify(text)})`);
      return text;
    case 'percent': {
      if (!/^\d{1,3}(\.\d{1,2})?$/.test(text) || Number(text) > 100) throw new ProgramError(field, `must be a percent from 0 to 100 with at most two decimals (got ${JSON.stringify(text)})`);
      return text;
    }
    case 'integer':
      if (!/^\d{1,16}$/.test(text) || Number(text) > Number.MAX_SAFE_INTEGER) throw new ProgramError(field, `must be a non-negative integer (got ${JSON.stringify(text)})`);
      return text;
    case 'string':
      if (!SAFE_STRING.test(text)) throw new ProgramError(field, 'must be 1–64 characters of letters, digits, spaces and . , _ -');
      return text;
  }
}

/**
 * Validate a program's JSON shape and its templates (placeholders declared). Parsing each step is
 * the caller's (the intent parser needs the token registry): see `sampleValues`.
 */
export function validateProgram(input: unknown, checks: ValueChecks): ProgramDefinition {
  let json = input;
  if (typeof json === 'string') {
    try {
      json = JSON.parse(json);
    } catch (error) {
      throw new ProgramError('program_json', `is not valid JSON: ${(error as Error).message}`);
    }
  }
  if (!isObject(json)) throw new ProgramError('program_json', 'must be a JSON object with name, description, params and steps');
  onlyKeys(json, ['name', 'description', 'params', 'steps'], '');
  const name = json.name;
  if (typeof name !== 'string' || !NAME.test(name)) throw new ProgramError('name', 'must be 3–64 characters of a–z, 0–9, "-" and "_", starting with a letter or digit');
  const description = json.description ?? '';
  if (typeof description !== 'string' || description.length > 1024) throw new ProgramError('description', 'must be a string of at most 1,024 characters');
  const rawParams = json.params ?? [];
  if (!Array.isArray(rawParams)) throw new ProgramError('params', 'must be an array of {name, type, default?, description?}');
  if (rawParams.length > MAX_PROGRAM_PARAMS) throw new ProgramError('params', `has ${rawParams.length} entries; at most ${MAX_PROGRAM_PARAMS}`);
  const params: ProgramParam[] = [];
  rawParams.forEach((p, i) => {
    const at = `params[${i}]`;
    if (!isObject(p)) throw new ProgramError(at, 'must be an object {name, type, default?, description?}');
    onlyKeys(p, ['name', 'type', 'default', 'description'], at);
    if (typeof p.name !== 'string' || !PARAM_NAME.test(p.name)) throw new ProgramError(`${at}.name`, 'must be 1–32 characters of letters, digits and _, not starting with a digit');
    if (params.some((q) => q.name === p.name)) throw new ProgramError(`${at}.name`, `duplicates the parameter "${p.name}"`);
    if (typeof p.type !== 'string' || !(PARAM_TYPES as readonly string[]).includes(p.type)) {
      throw new ProgramError(`${at}.type`, `must be one of ${PARAM_TYPES.join(', ')}`);
    }
    if (p.description !== undefined && (typeof p.description !== 'string' || p.description.length > 256)) {
      throw new ProgramError(`${at}.description`, 'must be a string of at most 256 characters');
    }
    const param: ProgramParam = { name: p.name, type: p.type as ParamType };
    if (p.default !== undefined && p.default !== null) param.default = checkValue(param.type, p.default, `${at}.default`, checks);
    if (p.description) param.description = p.description as string;
    params.push(param);
  });
  const rawSteps = json.steps;
  if (!Array.isArray(rawSteps) || rawSteps.length === 0) throw new ProgramError('steps', 'must be a non-empty array of intent templates');
  if (rawSteps.length > MAX_PROGRAM_STEPS) throw new ProgramError('steps', `has ${rawSteps.length} entries; at most ${MAX_PROGRAM_STEPS}`);
  const steps: ProgramStep[] = rawSteps.map((s, i) => {
    const at = `steps[${i}]`;
    const step: ProgramStep = typeof s === 'string' ? { intent: s } : isObject(s) ? { intent: s.intent as string } : { intent: undefined as unknown as string };
    if (isObject(s)) {
      onlyKeys(s, ['intent', 'description'], at);
      if (s.description !== undefined) {
        if (typeof s.description !== 'string' || s.description.length > 256) throw new ProgramError(`${at}.description`, 'must be a string of at most 256 characters');
        step.description = s.description;
      }
    }
    if (typeof step.intent !== 'string' || step.intent.trim() === '' || step.intent.length > MAX_INTENT_CHARS) {
      throw new ProgramError(`${at}.intent`, `must be an intent template of 1–${MAX_INTENT_CHARS} characters`);
    }
    for (const m of step.intent.matchAll(PLACEHOLDER)) {
      if (!params.some((p) => p.name === m[1])) throw new ProgramError(`${at}.intent`, `uses \${${m[1]}}, which is not a declared parameter`);
    }
    if (/\$\{(?![^}]*\})/.test(step.intent)) throw new ProgramError(`${at}.intent`, 'has an unterminated ${ placeholder');
    return step;
  });
  return { name, description, params, steps };
}

/**
 * The values of a call (`params` object of svc_simulateProgram/svc_executeProgram) checked against
 * the program: every declared parameter has a value or a default, nothing undeclared is passed.
 */
export function bindParams(program: ProgramDefinition, values: unknown, checks: ValueChecks): Record<string, string> {
  const given = values ?? {};
  if (!isObject(given)) throw new ProgramError('params', 'must be an object of parameter name → value');
  for (const k of Object.keys(given)) {
    if (!program.params.some((p) => p.name === k)) throw new ProgramError(`params.${k}`, `is not a parameter of program "${program.name}" (it takes ${program.params.map((p) => p.name).join(', ') || 'none'})`);
  }
  const out: Record<string, string> = {};
  for (const p of program.params) {
    const v = given[p.name];
    if (v === undefined || v === null) {
      if (p.default === undefined) throw new ProgramError(`params.${p.name}`, `is required (${p.type})`);
      out[p.name] = p.default;
    } else {
      out[p.name] = checkValue(p.type, v, `params.${p.name}`, checks);
    }
  }
  return out;
}

/** A template with its placeholders replaced. */
export function substitute(template: string, values: Record<string, string>): string {
  return template.replace(PLACEHOLDER, (_, name: string) => values[name]!);
}

/**
 * Stand-in values used at registration to check that every step parses: the defaults, else one
 * per type (distinct token symbols from `tokens`, so "swap ${a} ${x} for ${y}" does not become a
 * swap of a token for itself).
 */
export function sampleValues(program: ProgramDefinition, tokens: string[], address: string): Record<string, string> {
  const out: Record<string, string> = {};
  let t = 0;
  for (const p of program.params) {
    if (p.default !== undefined) {
      out[p.name] = p.default;
      continue;
    }
    switch (p.type) {
      case 'amount': out[p.name] = '1'; break;
      case 'token': out[p.name] = tokens[t++ % Math.max(1, tokens.length)] ?? 'NTV'; break;
      case 'address': out[p.name] = address; break;
      case 'percent': out[p.name] = '50'; break;
      case 'integer': out[p.name] = '1'; break;
      case 'string': out[p.name] = 'sample'; break;
    }
  }
  return out;
}
