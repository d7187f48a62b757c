import { Type } from '@sinclair/typebox';
import type { BatchEntry } from '../../codec/collection-ops.js';
import { MAX_BATCH_ENTRIES } from '../../codec/collection-ops.js';
import type { Operation } from '../../codec/operations.js';
import { encodeCollection } from './reader.js';
import { APP_ERRORS, RpcError } from '../../rpc/errors.js';
import { defineMethod, type MethodDefinition } from '../../rpc/registry.js';
import { Address, DecimalString, Limit, parseAmount, parsed } from '../../rpc/schemas.js';
import type { MethodDependencies } from '../../rpc/methods/context.js';
import { AccountParam, accountParam, AmountParam } from '../../rpc/methods/params.js';
import { ReceiptSchema } from '../../rpc/methods/result-schemas.js';
import {
  BASE_URI, COLLECTION_NAME, COLLECTION_SYMBOL, CollectionParam, CollectionSchema, DETAIL_PARAMS, ROYALTY_BPS, TokenId, TokenIdParam, TokenTypeSchema,
  details, formatCollection, formatTokenType, parseTokenId,
} from './collection-rpc.js';

/**
 * Spec §4.4 multi-token collections (ERC-1155-like; docs/collections.md). Writes are the core's operations
 * 41–47 sent as unsigned convenience bundles (testnet only). A batch call groups its items by
 * recipient into BatchMint/BatchTransfer operations of at most 16 entries, all in one bundle, so a
 * batch is atomic: one failing item reverts every other (spec §7.5).
 */

const WRITE_ERRORS = [APP_ERRORS.NOT_FOUND.code, APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.BUNDLE_FAILED.code];
/** Items of one batch call: 64 operations of a bundle × 16 entries would allow more, but a convenience bundle has 100,000 gas. */
const MAX_BATCH_ITEMS = MAX_BATCH_ENTRIES;

const positive = (value: string, param: string, position: number) => {
  const n = parseAmount(value, param, position);
  if (n === 0n) throw RpcError.invalidParam(param, position, 'an amount greater than zero');
  return n;
};
/** Raw units above zero (params parsed once, issue 44 item 4). */
const Positive = () => parsed(DecimalString({ description: 'raw units, greater than zero' }), positive);

const BatchItem = (party: 'recipient' | 'to') => Type.Object({
  type_id: TokenId('the token type'),
  [party]: Address({ description: party === 'recipient' ? 'who receives the minted tokens' : 'who receives the tokens' }),
  amount: DecimalString({ description: 'raw units, greater than zero' }),
}, { additionalProperties: false });

/** Items grouped by counterparty in first-seen order, each group one operation's entries. */
function groupItems(items: ReadonlyArray<Record<string, unknown>>, party: 'recipient' | 'to', param: string, position: number): Array<[Uint8Array, BatchEntry[]]> {
  if (items.length === 0 || items.length > MAX_BATCH_ITEMS) {
    throw RpcError.invalidParam(param, position, `1 to ${MAX_BATCH_ITEMS} items`, { got: items.length });
  }
  const groups = new Map<string, [Uint8Array, BatchEntry[]]>();
  for (const [i, item] of items.entries()) {
    const who = accountParam(item[party] as string, `${param}[${i}].${party}`, position);
    const key = Buffer.from(who).toString('hex');
    if (!groups.has(key)) groups.set(key, [who, []]);
    groups.get(key)![1].push({
      typeId: parseTokenId(item.type_id as number | string, `${param}[${i}].type_id`, position),
      amount: positive(item.amount as string, `${param}[${i}].amount`, position),
    });
  }
  return [...groups.values()];
}
/** A batch's items grouped by counterparty, refused at the batch param's position. */
const Batch = (party: 'recipient' | 'to', description: string) =>
  parsed(Type.Array(BatchItem(party), { minItems: 1, maxItems: MAX_BATCH_ITEMS, description }), (items, param, position) => groupItems(items, party, param, position));

export function multiTokenMethods({ chain, readers }: MethodDependencies): MethodDefinition[] {
  const collections = () => readers.collections;
  const Collection = () => CollectionParam(collections, 'multi');
  /** A type's NOT_FOUND names the collection as the node encodes it. */
  const noType = (c: { address: Uint8Array }, id: bigint) => {
    const collection = encodeCollection(c.address);
    return RpcError.app('NOT_FOUND', `type ${id} is not defined in ${collection}`, { collection, type_id: id.toString() });
  };
  return [
    defineMethod({
      name: 'svc_createMultiTokenCollection',
      summary: 'Create a multi-token collection owned by `owner`, who sends the bundle (spec §4.4; unsigned convenience, testnet only).',
      description: 'The receipt\'s `created.collection` is the new Nx2… address. Token types are then defined with svc_defineTokenType.'
        + ' Spec §4.4. Errors: UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED with the reverted receipt.',
      params: [
        { name: 'name', schema: COLLECTION_NAME },
        { name: 'symbol', schema: COLLECTION_SYMBOL },
        { name: 'base_uri', schema: BASE_URI },
        { name: 'royalty_bps', schema: ROYALTY_BPS },
        { name: 'owner', schema: AccountParam({ description: 'the owner, who defines types and mints; also the sender' }) },
        ...DETAIL_PARAMS,
      ] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt; `created.collection`',
      },
      errors: [APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.BUNDLE_FAILED.code],
      handler: async ([name, symbol, baseUri, royaltyBps, from, description, iconUri, bannerUri, externalUrl]) => {
        return chain.submitOperations(from, [{
          type: 'CreateMultiTokenCollection', name, symbol, baseUri, royaltyBps, owner: from, ...details(description, iconUri, bannerUri, externalUrl),
        }]);
      },
    }),
    defineMethod({
      name: 'svc_defineTokenType',
      summary: 'Define a token type in a multi-token collection; the sender must be its owner (spec §4.4).',
      description: 'A non-fungible type has a supply of exactly one: max_supply must be "0" or "1" (docs/collections.md "Rules").'
        + ' Spec §4.4. Errors: NOT_FOUND for an unknown collection; UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED (NON_FUNGIBLE_SUPPLY,'
        + ' the type exists, the sender is not the owner).',
      params: [
        { name: 'collection', schema: Collection() },
        { name: 'type_id', schema: TokenIdParam('the new type\'s id') },
        { name: 'name', schema: Type.String({ minLength: 1, maxLength: 64, description: 'type name, 1–64 bytes' }) },
        { name: 'metadata_uri', schema: Type.String({ maxLength: 256, description: 'the type\'s metadata URI ("" to use base_uri + id)' }) },
        { name: 'max_supply', schema: AmountParam({ description: 'most ever minted, raw units; "0" = unlimited' }) },
        { name: 'is_fungible', schema: Type.Boolean() },
        { name: 'sender', schema: AccountParam({ description: 'the collection\'s owner' }) },
      ] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt; collection owner only; `max_supply` raw units, `"0"` = unlimited',
      },
      errors: WRITE_ERRORS,
      handler: async ([c, typeId, name, metadataUri, maxSupply, isFungible, sender]) =>
        chain.submitOperations(sender, [{ type: 'DefineTokenType', collection: c.address, typeId, name, metadataUri, maxSupply, isFungible }]),
    }),
    defineMethod({
      name: 'svc_mintMultiToken',
      summary: 'Mint `amount` of a token type to `recipient`; the sender must be the collection\'s owner (spec §4.4).',
      description: 'Spec §4.4; the receipt carries an ERC-1155 TransferSingle-shaped MultiTokenTransfer. Errors: NOT_FOUND for an unknown collection;'
        + ' UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED (unknown type, above max_supply, the sender is not the owner).',
      params: [
        { name: 'collection', schema: Collection() },
        { name: 'type_id', schema: TokenIdParam('the token type') },
        { name: 'recipient', schema: AccountParam() },
        { name: 'amount', schema: Positive() },
        { name: 'sender', schema: AccountParam({ description: 'the collection\'s owner' }) },
      ] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt; collection owner only',
      },
      errors: WRITE_ERRORS,
      handler: async ([c, typeId, recipient, amount, sender]) =>
        chain.submitOperations(sender, [{ type: 'MintMultiToken', collection: c.address, typeId, recipient, amount }]),
    }),
    defineMethod({
      name: 'svc_batchMintMultiToken',
      summary: 'Mint several token types to one or more recipients in one atomic bundle (spec §4.4; ERC-1155 TransferBatch per recipient).',
      paramsNote: '— 1–16 items `{type_id, recipient, amount}`',
      description: 'At most 16 entries; any failing entry reverts the whole bundle (spec §4.4). Errors: NOT_FOUND for an unknown collection;'
        + ' UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED (unknown type, above max_supply, the sender is not the owner).',
      params: [
        { name: 'collection', schema: Collection() },
        { name: 'mints', schema: Batch('recipient', `1 to ${MAX_BATCH_ITEMS} items {type_id, recipient, amount}`) },
        { name: 'sender', schema: AccountParam({ description: 'the collection\'s owner' }) },
      ] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt',
      },
      errors: WRITE_ERRORS,
      handler: async ([c, groups, sender]) => {
        const ops: Operation[] = groups.map(([recipient, entries]) => ({ type: 'BatchMintMultiToken', collection: c.address, recipient, entries }));
        return chain.submitOperations(sender, ops);
      },
    }),
    defineMethod({
      name: 'svc_transferMultiToken',
      summary: 'Transfer `amount` of a token type from `from`, the sender (spec §4.4).',
      description: 'Spec §4.4. Errors: NOT_FOUND for an unknown collection; UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED (unknown type, the'
        + ' balance is too low).',
      params: [
        { name: 'collection', schema: Collection() },
        { name: 'type_id', schema: TokenIdParam('the token type') },
        { name: 'to', schema: AccountParam() },
        { name: 'amount', schema: Positive() },
        { name: 'from', schema: AccountParam({ description: 'the holder, the sender' }) },
      ] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt; `from` is the sender',
      },
      errors: WRITE_ERRORS,
      handler: async ([c, typeId, to, amount, from]) =>
        chain.submitOperations(from, [{ type: 'TransferMultiToken', collection: c.address, typeId, to, amount }]),
    }),
    defineMethod({
      name: 'svc_batchTransferMultiToken',
      summary: 'Transfer several token types to one or more recipients in one atomic bundle (spec §4.4; ERC-1155 TransferBatch per recipient).',
      paramsNote: '— 1–16 items `{type_id, to, amount}`',
      description: 'At most 16 entries; any failing entry reverts the whole bundle (spec §4.4). Errors: NOT_FOUND for an unknown collection;'
        + ' UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED (unknown type, the balance is too low).',
      params: [
        { name: 'collection', schema: Collection() },
        { name: 'transfers', schema: Batch('to', `1 to ${MAX_BATCH_ITEMS} items {type_id, to, amount}`) },
        { name: 'sender', schema: AccountParam({ description: 'the holder, the sender' }) },
      ] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt',
      },
      errors: WRITE_ERRORS,
      handler: async ([c, groups, sender]) => {
        const ops: Operation[] = groups.map(([to, entries]) => ({ type: 'BatchTransferMultiToken', collection: c.address, to, entries }));
        return chain.submitOperations(sender, ops);
      },
    }),
    defineMethod({
      name: 'svc_burnMultiToken',
      summary: 'Burn `amount` of a token type held by `owner`, the sender (spec §4.4).',
      description: 'Spec §4.4. Errors: NOT_FOUND for an unknown collection; UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED (unknown type, the'
        + ' balance is too low).',
      params: [
        { name: 'collection', schema: Collection() },
        { name: 'type_id', schema: TokenIdParam('the token type') },
        { name: 'amount', schema: Positive() },
        { name: 'owner', schema: AccountParam({ description: 'the holder, the sender' }) },
      ] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt; from the owner\'s (the sender\'s) balance',
      },
      errors: WRITE_ERRORS,
      handler: async ([c, typeId, amount, owner]) => chain.submitOperations(owner, [{ type: 'BurnMultiToken', collection: c.address, typeId, amount }]),
    }),
    defineMethod({
      name: 'svc_getMultiTokenBalance',
      summary: 'How much of a token type an account holds, raw units as a decimal string (spec §4.4).',
      description: 'Reads one account\'s balance of one token type, "0" when it holds none (spec §4.4). Errors: NOT_FOUND when the collection does not'
        + ' exist.',
      params: [
        { name: 'collection', schema: Collection() },
        { name: 'type_id', schema: TokenIdParam('the token type') },
        { name: 'owner', schema: AccountParam() },
      ] as const,
      result: {
        name: 'balance', schema: Type.String({ description: 'raw units, decimal' }),
        description: 'raw units, decimal string; `-32003` for an undefined type',
      },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: ([c, id, owner]) => {
        if (!collections().tokenType(c.address, id)) throw noType(c, id);
        return collections().multiBalance(c.address, id, owner).toString();
      },
    }),
    defineMethod({
      name: 'svc_getTokenType',
      summary: 'A token type of a multi-token collection: name, URIs, fungibility, supply (spec §4.4).',
      description: 'Reads a token type (spec §4.4): name, metadata URI and resolved uri, fungibility, cap and supply counts. Errors: NOT_FOUND when'
        + ' the collection or the type does not exist.',
      params: [
        { name: 'collection', schema: Collection() },
        { name: 'type_id', schema: TokenIdParam('the token type') },
      ] as const,
      result: {
        name: 'type', schema: TokenTypeSchema,
        description: '`{collection, type_id, name, metadata_uri, uri, is_fungible, max_supply (null = unlimited), total_supply, minted, burned,'
          + ' created_height}`',
      },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: ([c, id]) => {
        const t = collections().tokenType(c.address, id);
        if (!t) throw noType(c, id);
        return formatTokenType(c, t);
      },
    }),
    defineMethod({
      name: 'svc_getMultiTokenCollection',
      summary: 'A multi-token collection: names, URIs, owner, royalty, number of types (spec §4.4).',
      description: 'Reads a multi-token collection (spec §4.4), with its ERC-1155 address. Errors: NOT_FOUND when no multi-token collection has that'
        + ' address.',
      params: [{ name: 'collection', schema: Collection() }] as const,
      result: {
        name: 'collection', schema: CollectionSchema,
        description: 'the collection shape of `svc_getNftCollection` with `kind: "multi"`; `total_supply` counts the types defined',
      },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: ([c]) => formatCollection(c),
    }),
    defineMethod({
      name: 'svc_listTokenTypes',
      summary: 'The token types of a multi-token collection, ordered by type id (spec §4.4).',
      description: 'Lists a multi-token collection\'s types by type id (spec §4.4); limit 1–1000, default 100. Errors: NOT_FOUND when the collection'
        + ' does not exist.',
      params: [
        { name: 'collection', schema: Collection() },
        { name: 'limit', schema: Limit({ default: 100 }), required: false },
      ] as const,
      result: {
        name: 'types', schema: Type.Array(TokenTypeSchema),
        description: 'the types ordered by id',
      },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: ([c, limit]) => {
        return collections().tokenTypes(c.address).slice(0, limit ?? 100).map((t) => formatTokenType(c, t));
      },
    }),
  ];
}
