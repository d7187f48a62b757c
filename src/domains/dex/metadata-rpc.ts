import { Type } from '@sinclair/typebox';
import { encodeAccount } from '../../codec/address.js';
import { TOKEN_METADATA_FIELDS } from '../../codec/operations.js';
import type { RegisteredToken } from '../../chain/token-registry.js';
import { APP_ERRORS, RpcError } from '../../rpc/errors.js';
import { defineMethod, type MethodDefinition } from '../../rpc/registry.js';
import { parsed } from '../../rpc/schemas.js';
import type { MethodDependencies } from '../../rpc/methods/context.js';
import { AccountParam, TokenParam } from '../../rpc/methods/params.js';
import { ReceiptSchema } from '../../rpc/methods/result-schemas.js';

/**
 * Token metadata (spec §2.3, §4.1; docs/dex.md "Token metadata"): UpdateTokenMetadata and
 * LockTokenMetadata are the dex ABI group's operations, so their testnet convenience methods are
 * the dex domain's, listed with its others by ./rpc.ts. The metadata is read with the token's
 * record by svc_getTokenInfo (src/rpc/methods/token.ts).
 */

/** A metadata field of at most `max` bytes of UTF-8 (the schema counts characters; the parser, run only on a present value, counts bytes). */
const MetadataParam = <const F extends string>(field: F, max: number) => ({
  name: field,
  schema: parsed(Type.String({ maxLength: max, description: `${field}, at most ${max} bytes; "" clears it, absent or null keeps it` }), (value, param, position) => {
    if (Buffer.byteLength(value) > max) throw RpcError.invalidParam(param, position, `at most ${max} bytes of UTF-8`);
    return value;
  }),
  required: false as const,
});

export function tokenMetadataMethods({ chain, readers }: MethodDependencies): MethodDefinition[] {
  /** A token by symbol or mint (params parsed once, issue 44 item 4). */
  const Token = (description: string) => TokenParam(readers.tokens, Type.String({ minLength: 1, maxLength: 64, description }));
  return [
    defineMethod({
      name: 'svc_updateTokenMetadata',
      summary: 'Set a token\'s metadata fields (spec §4.1; creator only, the token must be mutable; unsigned convenience, testnet only).',
      description: 'Absent or null fields keep their value; "" clears a field. Limits in bytes: metadata_uri, image, external_url 256; '
        + 'description 1,024; twitter, discord, telegram, github 128.'
        + ' Spec §4.1. Errors: UNKNOWN_TOKEN; UNAUTHORIZED when the sender is not the creator; UNAVAILABLE_ON_NETWORK on mainnet;'
        + ' BUNDLE_FAILED (e.g. the metadata is locked).',
      params: [
        { name: 'mint', schema: Token('Nx1… mint (or symbol)') },
        { name: 'sender', schema: AccountParam({ description: 'the token creator' }) },
        MetadataParam('metadata_uri', 256),
        MetadataParam('image', 256),
        MetadataParam('description', 1024),
        MetadataParam('external_url', 256),
        MetadataParam('twitter', 128),
        MetadataParam('discord', 128),
        MetadataParam('telegram', 128),
        MetadataParam('github', 128),
      ] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt (event `TokenMetadataUpdated {mint, creator, fields_set[]}`). Creator only (`-32011 UNAUTHORIZED`), token mutable (else'
          + ' `-32002`, status `METADATA_LOCKED`). Absent/null keeps a field, `""` clears it; byte limits 256 (uri, image, external_url),'
          + ' 1,024 (description), 128 (socials), `-32602` naming the field. Unsigned convenience, testnet only',
      },
      errors: [APP_ERRORS.UNKNOWN_TOKEN.code, APP_ERRORS.UNAUTHORIZED.code, APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.BUNDLE_FAILED.code],
      handler: async ([token, from, ...fields]) => {
        const values: Record<string, string> = {};
        fields.forEach((value, i) => {
          if (value !== undefined && value !== null) values[TOKEN_METADATA_FIELDS[i]!] = value;
        });
        assertCreator(token, from);
        return chain.submitOperations(from, [{ type: 'UpdateTokenMetadata', mint: token.mint, ...values }]);
      },
    }),
    defineMethod({
      name: 'svc_lockTokenMetadata',
      summary: 'Make a token\'s metadata permanently immutable (spec §4.1; creator only, one-way; unsigned convenience, testnet only).',
      description: 'Sends LockTokenMetadata for the token\'s creator (spec §4.1); afterwards is_mutable is false and svc_updateTokenMetadata fails.'
        + ' Errors: UNKNOWN_TOKEN; UNAUTHORIZED when the sender is not the creator; UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED with'
        + ' the reverted receipt.',
      params: [
        { name: 'mint', schema: Token('Nx1… mint (or symbol)') },
        { name: 'sender', schema: AccountParam({ description: 'the token creator' }) },
      ] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt (`TokenMetadataLocked`). Creator only, one-way: `is_mutable` becomes false for good; again → `-32002 METADATA_LOCKED`',
      },
      errors: [APP_ERRORS.UNKNOWN_TOKEN.code, APP_ERRORS.UNAUTHORIZED.code, APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.BUNDLE_FAILED.code],
      handler: async ([token, from]) => {
        assertCreator(token, from);
        return chain.submitOperations(from, [{ type: 'LockTokenMetadata', mint: token.mint }]);
      },
    }),
  ];
}

function assertCreator(token: RegisteredToken, sender: Uint8Array): void {
  if (Buffer.compare(token.creator, sender) !== 0) {
    throw RpcError.app('UNAUTHORIZED', `only the creator of ${token.symbol} (${encodeAccount(token.creator)}) may change its metadata (spec §4.1)`, {
      creator: encodeAccount(token.creator), sender: encodeAccount(sender),
    });
  }
}
