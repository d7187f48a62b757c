import { AddressError, parseAddress, parseHash } from '../../codec/address.js';
import type { ChainApi } from '../../chain/interface.js';
import type { RegisteredToken, TokenRegistry } from '../../chain/token-registry.js';
import { Type, type TInteger, type TString, type TUnion } from '@sinclair/typebox';
import { RpcError } from '../errors.js';
import type { MethodParam } from '../method.js';
import { Address, DecimalString, Hash, parseAmount, parsed } from '../schemas.js';

/**
 * Turning validated param strings into bytes. The schema has already checked the shape; these
 * catch what a pattern cannot (base58 that does not decode to 32 bytes) and name the param.
 */
export function accountParam(value: string, param: string, position: number): Uint8Array {
  try {
    return parseAddress(value);
  } catch (error) {
    throw RpcError.invalidParam(param, position, 'an address (Nx0… base58 of 32 bytes, or 0x + 40 or 64 hex digits)', {
      reason: error instanceof AddressError ? error.message : String(error),
    });
  }
}

export function hashParam(value: string, param: string, position: number): Uint8Array {
  try {
    return parseHash(value);
  } catch (error) {
    throw RpcError.invalidParam(param, position, 'a hash (Nxh… base58 of 32 bytes, or 0x + 64 hex digits)', {
      reason: (error as Error).message,
    });
  }
}

/** A token by symbol or mint; unknown is an application error, not a param fault. */
export function tokenParam(tokens: TokenRegistry, value: string): RegisteredToken {
  const token = tokens.resolve(value);
  if (!token) throw RpcError.app('UNKNOWN_TOKEN', `unknown token "${value}": no token has that symbol or mint address`, { token: value });
  return token;
}

/**
 * A state read's `height` param (svc_getBalance, svc_getProof; docs/methods.md): a block above the
 * head is NOT_FOUND; one below the state window is refused by the read itself (-32013 naming the
 * oldest height served, src/chain/state-history.ts).
 */
export function pastHeight(chain: Pick<ChainApi, 'height'>, height: number): number {
  if (height > chain.height) throw RpcError.app('NOT_FOUND', `no block at height ${height}: the head is ${chain.height}`, { height, head: chain.height });
  return height;
}

/**
 * Params parsed once (issue 44 item 4; src/rpc/schemas.ts `parsed`): schemas whose value reaches
 * the handler parsed by the registry, with the param's own name and position in its -32602.
 */
export const AccountParam = (options?: Parameters<typeof Address>[0]) => parsed(Address(options), accountParam);
export const HashParam = (options?: Parameters<typeof Hash>[0]) => parsed(Hash(options), hashParam);
export const AmountParam = (options?: Parameters<typeof DecimalString>[0], bits: 64 | 128 = 128) =>
  parsed(DecimalString(options), (value, param, position) => parseAmount(value, param, position, bits));
/** A raw-unit amount above zero (u128). */
export const PositiveAmount = (options?: Parameters<typeof DecimalString>[0]) => parsed(DecimalString(options), (value, param, position) => {
  const n = parseAmount(value, param, position);
  if (n === 0n) throw RpcError.invalidParam(param, position, 'a raw-unit amount greater than 0');
  return n;
});
/** An amount or null (a Union: the parser wraps it whole, as the registry runs only the top-level one). */
export const AmountOrNull = (options?: Parameters<typeof DecimalString>[0], bits: 64 | 128 = 128) =>
  parsed(Type.Union([DecimalString(), Type.Null()], options), (value, param, position) => (value === null ? null : parseAmount(value, param, position, bits)));
/** A token by symbol or mint (`tokens` from the method factory's readers); unknown is UNKNOWN_TOKEN. */
export const TokenParam = (tokens: TokenRegistry, schema: TString = Type.String()) => parsed(schema, (value) => tokenParam(tokens, value));

/** A list of addresses as their 32-byte keys laid end to end, each named `<param>[i]` when refused. */
export function accountsParam(list: readonly string[], param: string, position: number): Uint8Array {
  const out = new Uint8Array(32 * list.length);
  list.forEach((a, i) => out.set(accountParam(a, `${param}[${i}]`, position), 32 * i));
  return out;
}

/**
 * -32602 for a param a handler finds wrong against another (a proof that attests another amount
 * than the `amount` param): the position is the param's in `params`, as the registry counts.
 */
export function invalidParamIn<const P extends readonly MethodParam[]>(params: P, name: P[number]['name'], expected: string, extra?: Record<string, unknown>): RpcError {
  return RpcError.invalidParam(name, positionIn(params, name), expected, extra);
}

/** A param's position as the registry counts it (from 1), for a handler that parses a param only in some cases. */
export function positionIn<const P extends readonly MethodParam[]>(params: P, name: P[number]['name']): number {
  return params.findIndex((p) => p.name === name) + 1;
}

const U64_MAX = (1n << 64n) - 1n;

/** A token or type id, u64: a JSON integer or a decimal string (ids above 2^53 need the string). */
export function TokenId(description: string): TUnion<[TInteger, TString]> {
  return Type.Union([Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }), Type.String({ pattern: '^[0-9]{1,20}$' })], {
    title: 'TokenId', description: `${description}: an integer 0 … 2^64−1, as a JSON number or a decimal string`,
  });
}

export function parseTokenId(value: number | string, param: string, position: number): bigint {
  const id = BigInt(value);
  if (id > U64_MAX) throw RpcError.invalidParam(param, position, 'an id from 0 to 2^64−1', { max: U64_MAX.toString() });
  return id;
}

/**
 * A proposal id, from 1: a JSON integer or a decimal string parsed to a bigint (params parsed
 * once, issue 44 item 4); DAO proposals (src/domains/dao/) are numbered the same way.
 */
export const ProposalIdParam = (description: string) => parsed(TokenId(description), (value, param, position) => {
  const id = parseTokenId(value, param, position);
  if (id === 0n) throw RpcError.invalidParam(param, position, 'a proposal id from 1');
  return id;
});

/** 1 to `max` distinct addresses: guardians (svc_setRecovery) and multi-sig signers (svc_createMultiSig). */
export function accountList(values: string[], param: string, position: number, max: number): Uint8Array[] {
  if (values.length === 0 || values.length > max) throw RpcError.invalidParam(param, position, `1 to ${max} addresses`, { got: values.length });
  const out = values.map((v, i) => accountParam(v, `${param}[${i}]`, position));
  if (new Set(out.map((a) => Buffer.from(a).toString('hex'))).size !== out.length) throw RpcError.invalidParam(param, position, 'distinct addresses (one is listed twice)');
  return out;
}

/** 1 to `max` distinct addresses as a parsed param (params parsed once, issue 44 item 4). */
export const AccountList = (max: number) => parsed(Type.Array(Address(), { minItems: 1, maxItems: max }), (values, param, position) => accountList(values, param, position, max));

