import { Type } from '@sinclair/typebox';
import { APP_ERRORS } from '../errors.js';
import { defineMethod, type MethodDefinition } from '../registry.js';
import { Address, DecimalString, Limit, parseAmount } from '../schemas.js';
import type { MethodDependencies } from './context.js';
import { formatToken } from './format.js';
import { accountParam, tokenParam } from './params.js';
import { ReceiptSchema, TokenSchema } from './result-schemas.js';

/** Spec §4.1 token methods of the foundation (metadata and reputation arrive with the DEX issue). */
export function tokenMethods({ chain }: MethodDependencies): MethodDefinition[] {
  return [
    defineMethod({
      name: 'svc_createToken',
      summary: 'Create an STD-7 token (unsigned convenience, testnet only; the owner is the sender and receives the supply).',
      description: 'The mint is derived from creator, symbol, block time and nonce (docs/core-abi.md); the receipt carries it in created.mint. '
        + 'Symbols are unique case-insensitively and the STD-8 reserved symbols are refused (spec §2.1).',
      params: [
        { name: 'name', schema: Type.String({ minLength: 1, maxLength: 64, description: 'token name, 1 to 64 bytes' }) },
        { name: 'symbol', schema: Type.String({ pattern: '^[A-Za-z0-9]{1,16}$', description: '1 to 16 letters or digits' }) },
        { name: 'decimals', schema: Type.Integer({ minimum: 0, maximum: 18, description: '0 to 18' }) },
        { name: 'supply', schema: DecimalString({ description: 'initial supply in raw units, > 0' }) },
        { name: 'owner', schema: Address() },
      ] as const,
      result: { name: 'receipt', schema: ReceiptSchema },
      errors: [APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.BUNDLE_FAILED.code],
      handler: async ([name, symbol, decimals, supply, owner]) => {
        const ownerBytes = accountParam(owner, 'owner', 5);
        const amount = parseAmount(supply, 'supply', 4);
        return chain.submitOperations(ownerBytes, [{ type: 'CreateToken', name, symbol, decimals, supply: amount, owner: ownerBytes }]);
      },
    }),
    defineMethod({
      name: 'svc_getTokenInfo',
      summary: 'A token record by symbol or mint (spec §4.1, facts.md "Token record").',
      params: [{ name: 'symbol_or_mint', schema: Type.String({ minLength: 1, maxLength: 64, description: 'symbol or Nx1… mint' }) }] as const,
      result: { name: 'token', schema: TokenSchema },
      errors: [APP_ERRORS.UNKNOWN_TOKEN.code],
      handler: ([symbolOrMint]) => formatToken(tokenParam(chain, symbolOrMint)),
    }),
    defineMethod({
      name: 'svc_listTokens',
      summary: 'Tokens with their mint addresses and decimals, genesis tokens first (spec §4.1).',
      params: [{ name: 'limit', schema: Limit({ default: 100 }), required: false }] as const,
      result: { name: 'tokens', schema: Type.Array(TokenSchema) },
      handler: ([limit]) => chain.tokens.list().slice(0, limit ?? 100).map(formatToken),
    }),
  ];
}
