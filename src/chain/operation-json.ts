import { BorshWriter } from '../codec/borsh.js';
import { encodeAccount, encodeMint, parseAddress, parseHash } from '../codec/address.js';
import { ENUM_VARIANTS, OPERATION_FIELDS, writeOperation, type Operation, type OperationField } from '../codec/operations.js';

/**
 * Operations written as JSON (docs/multisig.md "Operations as JSON"): what svc_proposeMultiSigTx's
 * `operations_json` holds. One object per operation, `type` its name in the ABI table
 * (abi/operations.mjs) and its fields by name, camelCase or the Borsh wire name:
 *
 *   [{ "type": "Transfer", "to": "Nx0…", "token": "NTV", "amount": "1000000000" },
 *    { "type": "Swap", "from_token": "USDC", "to_token": "NTV", "amount_in": "5", "min_amount_out": "0" }]
 *
 * Integers are decimal strings or safe JSON numbers; 32-byte fields are addresses (Nx0, Nx5, 0x),
 * token fields also a symbol or Nx1 mint, ids and hashes Nxh or 64 hex; byte fields are hex;
 * nested operations and tagged enums (`{ "kind": "Recurring", … }`) nest the same way. The result is
 * checked by the codec's writer, so a value out of range is refused here with the field's path.
 */
export class OperationJsonError extends Error {
  constructor(readonly path: string, message: string) {
    super(`${path}: ${message}`);
  }
}

/** 32-byte fields that name a token: a symbol or mint is accepted there. */
const TOKEN_FIELDS = /^(token|mint|fromToken|toToken|tokenA|tokenB|base|quote)$/;

export function operationsFromJson(value: unknown, resolveToken: (text: string) => Uint8Array | undefined, path = 'operations'): Operation[] {
  if (!Array.isArray(value)) throw new OperationJsonError(path, 'expected a JSON array of operations');
  return value.map((item, i) => operationFromJson(item, resolveToken, `${path}[${i}]`));
}

function operationFromJson(item: unknown, resolveToken: (text: string) => Uint8Array | undefined, path: string): Operation {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new OperationJsonError(path, 'expected an object with a "type"');
  const obj = item as Record<string, unknown>;
  const type = obj.type;
  if (typeof type !== 'string' || !(type in OPERATION_FIELDS)) {
    throw new OperationJsonError(`${path}.type`, `unknown operation type ${JSON.stringify(type)}; one of ${Object.keys(OPERATION_FIELDS).join(', ')}`);
  }
  const op = { type, ...fieldsFromJson(obj, OPERATION_FIELDS[type as Operation['type']], resolveToken, path) } as Operation;
  try {
    writeOperation(new BorshWriter(), op);
  } catch (error) {
    throw new OperationJsonError(path, (error as Error).message);
  }
  return op;
}

function fieldsFromJson(obj: Record<string, unknown>, fields: readonly OperationField[], resolveToken: (text: string) => Uint8Array | undefined, path: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = obj[f.name] ?? obj[f.wire];
    const at = `${path}.${f.name}`;
    if (v === undefined || v === null) {
      if (f.type === 'option-string') continue;
      throw new OperationJsonError(at, `missing (${f.type})`);
    }
    out[f.name] = fieldFromJson(v, f, resolveToken, at);
  }
  return out;
}

function fieldFromJson(v: unknown, f: OperationField, resolveToken: (text: string) => Uint8Array | undefined, at: string): unknown {
  const t = f.type;
  const text = (): string => {
    if (typeof v !== 'string') throw new OperationJsonError(at, `expected a string, got ${JSON.stringify(v)}`);
    return v;
  };
  if (t === 'u8' || t === 'u16' || t === 'u32') {
    if (typeof v === 'number' && Number.isInteger(v)) return v;
    if (typeof v === 'string' && /^\d{1,10}$/.test(v)) return Number(v);
    throw new OperationJsonError(at, `expected an integer, got ${JSON.stringify(v)}`);
  }
  if (t === 'u64' || t === 'u128') {
    if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
    if (typeof v === 'string' && /^\d{1,40}$/.test(v)) return BigInt(v);
    throw new OperationJsonError(at, `expected a non-negative integer as a decimal string, got ${JSON.stringify(v)}`);
  }
  if (t === 'bool') {
    if (typeof v !== 'boolean') throw new OperationJsonError(at, `expected true or false, got ${JSON.stringify(v)}`);
    return v;
  }
  if (t === 'string' || t === 'option-string') return text();
  if (t.startsWith('choice:')) {
    const values = t.slice(7).split('|');
    if (!values.includes(text())) throw new OperationJsonError(at, `expected one of ${values.join(', ')}`);
    return v;
  }
  if (t === 'bytes32') return bytes32(text(), f.name, resolveToken, at);
  if (t === 'bytes64' || t === 'vec') return hexBytes(text(), at);
  if (t === 'accounts') {
    if (!Array.isArray(v)) throw new OperationJsonError(at, 'expected an array of addresses');
    return v.map((a, i) => bytes32(typeof a === 'string' ? a : '', 'account', resolveToken, `${at}[${i}]`));
  }
  if (t === 'entries') {
    if (!Array.isArray(v)) throw new OperationJsonError(at, 'expected an array of { type_id, amount }');
    return v.map((e, i) => fieldsFromJson((e ?? {}) as Record<string, unknown>, [{ name: 'typeId', wire: 'type_id', type: 'u64' }, { name: 'amount', wire: 'amount', type: 'u128' }], resolveToken, `${at}[${i}]`));
  }
  if (t === 'operations') return operationsFromJson(v, resolveToken, at);
  if (t.startsWith('tagged:')) {
    const variants = ENUM_VARIANTS[t.slice(7)] ?? [];
    const obj = (typeof v === 'object' && v !== null ? v : {}) as Record<string, unknown>;
    const variant = variants.find((x) => x.name === obj.kind);
    if (!variant) throw new OperationJsonError(`${at}.kind`, `expected one of ${variants.map((x) => x.name).join(', ')}`);
    return { kind: variant.name, ...fieldsFromJson(obj, variant.fields, resolveToken, at) };
  }
  throw new OperationJsonError(at, `field type ${t} cannot be written as JSON`);
}

function bytes32(text: string, field: string, resolveToken: (text: string) => Uint8Array | undefined, at: string): Uint8Array {
  if (TOKEN_FIELDS.test(field)) {
    const mint = resolveToken(text);
    if (mint) return mint;
  }
  try {
    return parseAddress(text);
  } catch {
    try {
      return parseHash(text);
    } catch {
      if (/^(0x)?[0-9a-fA-F]{64}$/.test(text)) return hexBytes(text, at);
      throw new OperationJsonError(at, `expected an address (Nx0…, Nx5…, 0x…)${TOKEN_FIELDS.test(field) ? ', a token symbol or mint (Nx1…)' : ''} or a 32-byte hash, got ${JSON.stringify(text)}`);
    }
  }
}

function hexBytes(text: string, at: string): Uint8Array {
  const body = text.startsWith('0x') ? text.slice(2) : text;
  if (body.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(body)) throw new OperationJsonError(at, 'expected hex bytes');
  return new Uint8Array(Buffer.from(body, 'hex'));
}

/** The JSON form of decoded operations (the inverse of operationsFromJson; mints as Nx1…, accounts as Nx0…). */
export function operationsToJson(ops: readonly Operation[]): Array<Record<string, unknown>> {
  return ops.map((op) => ({ type: op.type, ...fieldsToJson(op as unknown as Record<string, unknown>, OPERATION_FIELDS[op.type]) }));
}

function fieldsToJson(obj: Record<string, unknown>, fields: readonly OperationField[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = obj[f.name];
    if (v === undefined) continue;
    out[f.wire] = fieldToJson(v, f);
  }
  return out;
}

function fieldToJson(v: unknown, f: OperationField): unknown {
  if (typeof v === 'bigint') return v.toString();
  if (f.type === 'bytes32') return TOKEN_FIELDS.test(f.name) ? encodeMint(v as Uint8Array) : encodeAccount(v as Uint8Array);
  if (v instanceof Uint8Array) return '0x' + Buffer.from(v).toString('hex');
  if (f.type === 'accounts') return (v as Uint8Array[]).map((a) => encodeAccount(a));
  if (f.type === 'operations') return operationsToJson(v as Operation[]);
  if (f.type === 'entries') return (v as Array<{ typeId: bigint; amount: bigint }>).map((e) => ({ type_id: e.typeId.toString(), amount: e.amount.toString() }));
  if (f.type.startsWith('tagged:')) {
    const obj = v as Record<string, unknown>;
    const variant = (ENUM_VARIANTS[f.type.slice(7)] ?? []).find((x) => x.name === obj.kind);
    return { kind: obj.kind, ...(variant ? fieldsToJson(obj, variant.fields) : {}) };
  }
  return v;
}
