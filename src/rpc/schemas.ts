/**
 * Reusable param and result schemas for the method files (src/rpc/methods). Each carries a
 * `description` that feeds the OpenRPC document and a short "expected" phrase the validator puts in
 * its -32602 message (`"amount" (param 4) must be a raw-unit decimal string`).
 */
import { Type, Kind, type Static, type TSchema, type TString, type TInteger, type SchemaOptions } from '@sinclair/typebox';
import { RpcError } from './errors.js';

/** Symbol-keyed so it never shows in JSON output (OpenRPC) but survives TypeBox's Clone. */
export const Expected: unique symbol = Symbol.for('ntv.rpc.expected');

/** Attaches the phrase that completes "must be …" in -32602 messages to any schema. */
export function withExpected<T extends TSchema>(schema: T, expected: string): T {
  (schema as T & { [Expected]?: string })[Expected] = expected;
  return schema;
}

/** The phrase for "must be …": the helper's own, else one derived from the schema's kind. */
export function expectedOf(schema: TSchema): string {
  const own = (schema as TSchema & { [Expected]?: string })[Expected];
  if (own !== undefined) return own;
  switch (schema[Kind]) {
    case 'String':
      return schema.pattern !== undefined ? `a string matching ${schema.pattern}` : 'a string';
    case 'Integer':
    case 'Number': {
      const noun = schema[Kind] === 'Integer' ? 'an integer' : 'a number';
      if (schema.minimum !== undefined && schema.maximum !== undefined) return `${noun} from ${schema.minimum} to ${schema.maximum}`;
      if (schema.minimum !== undefined) return `${noun} ≥ ${schema.minimum}`;
      if (schema.maximum !== undefined) return `${noun} ≤ ${schema.maximum}`;
      return noun;
    }
    case 'Boolean':
      return 'a boolean';
    case 'Null':
      return 'null';
    case 'Literal':
      return JSON.stringify(schema.const);
    case 'Array':
      return 'an array';
    case 'Object':
    case 'Record':
      return 'an object';
    case 'Union':
      return (schema.anyOf as TSchema[]).map(expectedOf).join(' or ');
    default:
      return typeof schema.description === 'string' ? schema.description : 'a valid value';
  }
}

/**
 * Params parsed once (issue 44 item 4): a schema may carry the parser that turns its validated JSON
 * value into what the handler works with (an address into its 32 bytes, an amount into a bigint,
 * a token into its registry entry). The registry runs it after the schema check with the param's
 * name and its position as the registry counts them, so its -32602 names the right param and no
 * handler numbers positions by hand. Symbol-keyed, as `Expected`: never in the OpenRPC output.
 */
export const Parse: unique symbol = Symbol.for('ntv.rpc.parse');

export type ParamParser<In, Out> = (value: In, param: string, position: number) => Out;

/** A schema whose value reaches the handler parsed: the handler's param type is `Out`. */
export type Parsed<S extends TSchema, Out> = S & { readonly [Parse]: ParamParser<Static<S>, Out> };

/** Attaches the parser to a schema (a fresh one each call, as the schema builders make). */
export function parsed<S extends TSchema, Out>(schema: S, parse: ParamParser<Static<S>, Out>): Parsed<S, Out> {
  (schema as S & { [Parse]?: unknown })[Parse] = parse;
  return schema as Parsed<S, Out>;
}

/** The schema's parser, when it has one. */
export function parserOf(schema: TSchema): ParamParser<unknown, unknown> | undefined {
  return (schema as TSchema & { [Parse]?: ParamParser<unknown, unknown> })[Parse];
}

type Described = Pick<SchemaOptions, 'description' | 'examples' | 'default'>;

/** Digits only, no sign; 39 digits hold u128. The exact range is checked by parseAmount. */
export function DecimalString(options: Described = {}): TString {
  return withExpected(
    Type.String({
      title: 'DecimalString',
      pattern: '^[0-9]{1,39}$',
      description:
        'Amount in raw units (value × 10^decimals) as a decimal string: digits only, no sign, no decimal point, ' +
        'at most 39 digits, within u128.',
      examples: ['1000000000'],
      ...options,
    }),
    'a raw-unit decimal string',
  );
}

const U128_MAX = (1n << 128n) - 1n;
const U64_MAX = (1n << 64n) - 1n;

/**
 * Converts a DecimalString param to bigint and checks the integer range (u128 unless told u64).
 * Throws -32602 naming the param, as the schema check would.
 */
export function parseAmount(value: string, param: string, position: number, bits: 64 | 128 = 128): bigint {
  if (!/^[0-9]{1,39}$/.test(value)) throw RpcError.invalidParam(param, position, 'a raw-unit decimal string');
  const n = BigInt(value);
  if (n > (bits === 128 ? U128_MAX : U64_MAX)) {
    throw RpcError.invalidParam(param, position, `at most 2^${bits}−1`, { max: (bits === 128 ? U128_MAX : U64_MAX).toString() });
  }
  return n;
}

// Base58 alphabet (no 0, O, I, l); 32 bytes encode to 32…44 characters.
export const BASE58_32 = '[1-9A-HJ-NP-Za-km-z]{32,44}';
/**
 * The two `0x` address forms, 40 or 64 hex digits, as one alternative: written as two, a 64-digit
 * address was scanned twice (the 40-digit branch fails at its end), ~250 ns a check against ~115 on
 * svc_getBalance's path (docs/performance.md "sixth round").
 */
export const HEX_ADDRESS = '0x[0-9a-fA-F]{40}(?:[0-9a-fA-F]{24})?';

/** Native account or token mint address, or the 0x forms (facts.md "Addresses"). */
export function Address(options: Described = {}): TString {
  return withExpected(
    Type.String({
      title: 'Address',
      pattern: `^(Nx[0157]${BASE58_32}|${HEX_ADDRESS})$`,
      description:
        'Address: native `Nx0…` account, `Nx1…` token mint, `Nx5…` multi-sig or `Nx7…` DAO (base58 of 32 bytes), a 20-byte EVM-form `0x` address ' +
        '(right-aligned into 32 bytes) or a 32-byte `0x` address.',
      examples: ['0x0000000000000000000000000000000000000000000000000000000000000001'],
      ...options,
    }),
    'an address (Nx0…/Nx1…/Nx5…/Nx7… base58, or 0x + 40 or 64 hex digits)',
  );
}

/** A 32-byte hash: `Nxh` + base58, or 0x + 64 hex. */
export function Hash(options: Described = {}): TString {
  return withExpected(
    Type.String({
      title: 'Hash',
      pattern: `^(Nxh${BASE58_32}|0x[0-9a-fA-F]{64})$`,
      description: 'A 32-byte hash (block or bundle): `Nxh` + base58, or `0x` + 64 hex digits.',
      ...options,
    }),
    'a hash (Nxh… base58 or 0x + 64 hex digits)',
  );
}

/** Bytes as hex, `0x` optional (facts.md: svc_submitBundle takes hex with or without 0x). */
export function HexBytes(options: Described & { maxBytes?: number } = {}): TString {
  const { maxBytes, ...rest } = options;
  return withExpected(
    Type.String({
      title: 'HexBytes',
      // non-capturing groups: the same language, matched in half the time by V8's irregexp (a
      // capture in a repetition is recorded at every pair; ~0.4 → 0.2 µs for a 440-digit bundle)
      pattern: '^(?:0x)?(?:[0-9a-fA-F]{2})*$',
      ...(maxBytes !== undefined ? { maxLength: 2 + 2 * maxBytes } : {}),
      description: `Bytes as hex, an even number of hex digits, \`0x\` prefix optional${maxBytes !== undefined ? `, at most ${maxBytes} bytes` : ''}.`,
      ...rest,
    }),
    maxBytes !== undefined ? `hex bytes (even number of hex digits, 0x optional, at most ${maxBytes} bytes)` : 'hex bytes (even number of hex digits, 0x optional)',
  );
}

/** A token symbol such as NTV, USDC, USDe, EURCV. */
export function TokenSymbol(options: Described = {}): TString {
  return withExpected(
    Type.String({
      title: 'Symbol',
      pattern: '^[A-Za-z0-9]{1,16}$',
      description: 'Token symbol: 1 to 16 letters or digits, case-sensitive (e.g. NTV, USDC, USDe).',
      ...options,
    }),
    'a token symbol (1 to 16 letters or digits)',
  );
}

/** A page size, 1…1000 (spec §8: listing limit default 100, max 1000). */
export function Limit(options: Described = {}): TInteger {
  return withExpected(
    Type.Integer({
      title: 'Limit',
      minimum: 1,
      maximum: 1000,
      description: 'Maximum number of items to return, 1 to 1000.',
      ...options,
    }),
    'an integer from 1 to 1000',
  );
}

/** A block height: a JSON integer ≥ 0. */
export function Height(options: Described = {}): TInteger {
  return withExpected(
    Type.Integer({
      title: 'Height',
      minimum: 0,
      description: 'Block height, a non-negative integer.',
      ...options,
    }),
    'a non-negative integer block height',
  );
}

/** An EVM hex quantity (`0x0`, `0x1a`, no leading zeros), as eth_* methods take them. */
export function HexQuantity(options: Described = {}): TString {
  return withExpected(
    Type.String({
      title: 'HexQuantity',
      pattern: '^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$',
      description: 'An integer as EVM hex quantity: `0x` followed by hex digits without leading zeros.',
      ...options,
    }),
    'a hex quantity (0x without leading zeros)',
  );
}
