import { Type } from '@sinclair/typebox';
import type { BatchEntry } from '../../codec/collection-ops.js';
import { MAX_BATCH_ENTRIES } from '../../codec/collection-ops.js';
import type { Operation } from '../../codec/operations.js';
import { APP_ERRORS, RpcError } from '../errors.js';
import { defineMethod, type MethodDefinition } from '../registry.js';
import { Address, DecimalString, Limit, parseAmount } from '../schemas.js';
import type { MethodDependencies } from './context.js';
import { accountParam } from './params.js';
import { ReceiptSchema } from './result-schemas.js';
import {
  BASE_URI, COLLECTION_NAME, COLLECTION_SYMBOL, CollectionAddress, CollectionSchema, DETAIL_PARAMS, ROYALTY_BPS, TokenId, TokenTypeSchema,
  collectionParam, details, formatCollection, formatTokenType, parseTokenId,
} from './collections.js';

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

export function multiTokenMethods({ chain, readers }: MethodDependencies): MethodDefinition[] {
  const collections = () => readers.collections;
  return [
    defineMethod({
      name: 'svc_createMultiTokenCollection',
      summary: 'Create a multi-token collection owned by `owner`, who sends the bundle (spec §4.4; unsigned convenience, testnet only).',
      description: 'The receipt\'s `created.collection` is the new Nx2… address. Token types are then defined with svc_defineTokenType.',
      params: [
        { name: 'name', schema: COLLECTION_NAME },
        { name: 'symbol', schema: COLLECTION_SYMBOL },
        { name: 'base_uri', schema: BASE_URI },
        { name: 'royalty_bps', schema: ROYALTY_BPS },
        { name: 'owner', schema: Address({ description: 'the owner, who defines types and mints; also the sender' }) },
        ...DETAIL_PARAMS,
      ] as const,
      result: { name: 'receipt', schema: ReceiptSchema },
      errors: [APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.BUNDLE_FAILED.code],
      handler: async ([name, symbol, baseUri, royaltyBps, owner, description, iconUri, bannerUri, externalUrl]) => {
        const from = accountParam(owner, 'owner', 5);
        return chain.submitOperations(from, [{
          type: 'CreateMultiTokenCollection', name, symbol, baseUri, royaltyBps, owner: from, ...details(description, iconUri, bannerUri, externalUrl),
        }]);
      },
    }),
    defineMethod({
      name: 'svc_defineTokenType',
      summary: 'Define a token type in a multi-token collection; the sender must be its owner (spec §4.4).',
      description: 'A non-fungible type has a supply of exactly one: max_supply must be "0" or "1" (docs/collections.md "Rules").',
      params: [
        { name: 'collection', schema: CollectionAddress() },
        { name: 'type_id', schema: TokenId('the new type\'s id') },
        { name: 'name', schema: Type.String({ minLength: 1, maxLength: 64, description: 'type name, 1–64 bytes' }) },
        { name: 'metadata_uri', schema: Type.String({ maxLength: 256, description: 'the type\'s metadata URI ("" to use base_uri + id)' }) },
        { name: 'max_supply', schema: DecimalString({ description: 'most ever minted, raw units; "0" = unlimited' }) },
        { name: 'is_fungible', schema: Type.Boolean() },
        { name: 'sender', schema: Address({ description: 'the collection\'s owner' }) },
      ] as const,
      result: { name: 'receipt', schema: ReceiptSchema },
      errors: WRITE_ERRORS,
      handler: async ([collection, typeId, name, metadataUri, maxSupply, isFungible, sender]) => {
        const c = collectionParam(collections(), collection, 1, 'multi');
        const op: Operation = {
          type: 'DefineTokenType', collection: c.address, typeId: parseTokenId(typeId, 'type_id', 2), name, metadataUri,
          maxSupply: parseAmount(maxSupply, 'max_supply', 5), isFungible,
        };
        return chain.submitOperations(accountParam(sender, 'sender', 7), [op]);
      },
    }),
    defineMethod({
      name: 'svc_mintMultiToken',
      summary: 'Mint `amount` of a token type to `recipient`; the sender must be the collection\'s owner (spec §4.4).',
      params: [
        { name: 'collection', schema: CollectionAddress() },
        { name: 'type_id', schema: TokenId('the token type') },
        { name: 'recipient', schema: Address() },
        { name: 'amount', schema: DecimalString({ description: 'raw units, greater than zero' }) },
        { name: 'sender', schema: Address({ description: 'the collection\'s owner' }) },
      ] as const,
      result: { name: 'receipt', schema: ReceiptSchema },
      errors: WRITE_ERRORS,
      handler: async ([collection, typeId, recipient, amount, sender]) => {
        const c = collectionParam(collections(), collection, 1, 'multi');
        const op: Operation = {
          type: 'MintMultiToken', collection: c.address, typeId: parseTokenId(typeId, 'type_id', 2),
          recipient: accountParam(recipient, 'recipient', 3), amount: positive(amount, 'amount', 4),
        };
        return chain.submitOperations(accountParam(sender, 'sender', 5), [op]);
      },
    }),
    defineMethod({
      name: 'svc_batchMintMultiToken',
      summary: 'Mint several token types to one or more recipients in one atomic bundle (spec §4.4; ERC-1155 TransferBatch per recipient).',
      params: [
        { name: 'collection', schema: CollectionAddress() },
        { name: 'mints', schema: Type.Array(BatchItem('recipient'), { minItems: 1, maxItems: MAX_BATCH_ITEMS, description: `1 to ${MAX_BATCH_ITEMS} items {type_id, recipient, amount}` }) },
        { name: 'sender', schema: Address({ description: 'the collection\'s owner' }) },
      ] as const,
      result: { name: 'receipt', schema: ReceiptSchema },
      errors: WRITE_ERRORS,
      handler: async ([collection, mints, sender]) => {
        const c = collectionParam(collections(), collection, 1, 'multi');
        const ops: Operation[] = groupItems(mints, 'recipient', 'mints', 2)
          .map(([recipient, entries]) => ({ type: 'BatchMintMultiToken', collection: c.address, recipient, entries }));
        return chain.submitOperations(accountParam(sender, 'sender', 3), ops);
      },
    }),
    defineMethod({
      name: 'svc_transferMultiToken',
      summary: 'Transfer `amount` of a token type from `from`, the sender (spec §4.4).',
      params: [
        { name: 'collection', schema: CollectionAddress() },
        { name: 'type_id', schema: TokenId('the token type') },
        { name: 'to', schema: Address() },
        { name: 'amount', schema: DecimalString({ description: 'raw units, greater than zero' }) },
        { name: 'from', schema: Address({ description: 'the holder, the sender' }) },
      ] as const,
      result: { name: 'receipt', schema: ReceiptSchema },
      errors: WRITE_ERRORS,
      handler: async ([collection, typeId, to, amount, from]) => {
        const c = collectionParam(collections(), collection, 1, 'multi');
        const op: Operation = {
          type: 'TransferMultiToken', collection: c.address, typeId: parseTokenId(typeId, 'type_id', 2),
          to: accountParam(to, 'to', 3), amount: positive(amount, 'amount', 4),
        };
        return chain.submitOperations(accountParam(from, 'from', 5), [op]);
      },
    }),
    defineMethod({
      name: 'svc_batchTransferMultiToken',
      summary: 'Transfer several token types to one or more recipients in one atomic bundle (spec §4.4; ERC-1155 TransferBatch per recipient).',
      params: [
        { name: 'collection', schema: CollectionAddress() },
        { name: 'transfers', schema: Type.Array(BatchItem('to'), { minItems: 1, maxItems: MAX_BATCH_ITEMS, description: `1 to ${MAX_BATCH_ITEMS} items {type_id, to, amount}` }) },
        { name: 'sender', schema: Address({ description: 'the holder, the sender' }) },
      ] as const,
      result: { name: 'receipt', schema: ReceiptSchema },
      errors: WRITE_ERRORS,
      handler: async ([collection, transfers, sender]) => {
        const c = collectionParam(collections(), collection, 1, 'multi');
        const ops: Operation[] = groupItems(transfers, 'to', 'transfers', 2)
          .map(([to, entries]) => ({ type: 'BatchTransferMultiToken', collection: c.address, to, entries }));
        return chain.submitOperations(accountParam(sender, 'sender', 3), ops);
      },
    }),
    defineMethod({
      name: 'svc_burnMultiToken',
      summary: 'Burn `amount` of a token type held by `owner`, the sender (spec §4.4).',
      params: [
        { name: 'collection', schema: CollectionAddress() },
        { name: 'type_id', schema: TokenId('the token type') },
        { name: 'amount', schema: DecimalString({ description: 'raw units, greater than zero' }) },
        { name: 'owner', schema: Address({ description: 'the holder, the sender' }) },
      ] as const,
      result: { name: 'receipt', schema: ReceiptSchema },
      errors: WRITE_ERRORS,
      handler: async ([collection, typeId, amount, owner]) => {
        const c = collectionParam(collections(), collection, 1, 'multi');
        const op: Operation = { type: 'BurnMultiToken', collection: c.address, typeId: parseTokenId(typeId, 'type_id', 2), amount: positive(amount, 'amount', 3) };
        return chain.submitOperations(accountParam(owner, 'owner', 4), [op]);
      },
    }),
    defineMethod({
      name: 'svc_getMultiTokenBalance',
      summary: 'How much of a token type an account holds, raw units as a decimal string (spec §4.4).',
      params: [
        { name: 'collection', schema: CollectionAddress() },
        { name: 'type_id', schema: TokenId('the token type') },
        { name: 'owner', schema: Address() },
      ] as const,
      result: { name: 'balance', schema: Type.String({ description: 'raw units, decimal' }) },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: ([collection, typeId, owner]) => {
        const c = collectionParam(collections(), collection, 1, 'multi');
        const id = parseTokenId(typeId, 'type_id', 2);
        if (!collections().tokenType(c.address, id)) throw RpcError.app('NOT_FOUND', `type ${id} is not defined in ${collection}`, { collection, type_id: id.toString() });
        return collections().multiBalance(c.address, id, accountParam(owner, 'owner', 3)).toString();
      },
    }),
    defineMethod({
      name: 'svc_getTokenType',
      summary: 'A token type of a multi-token collection: name, URIs, fungibility, supply (spec §4.4).',
      params: [
        { name: 'collection', schema: CollectionAddress() },
        { name: 'type_id', schema: TokenId('the token type') },
      ] as const,
      result: { name: 'type', schema: TokenTypeSchema },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: ([collection, typeId]) => {
        const c = collectionParam(collections(), collection, 1, 'multi');
        const id = parseTokenId(typeId, 'type_id', 2);
        const t = collections().tokenType(c.address, id);
        if (!t) throw RpcError.app('NOT_FOUND', `type ${id} is not defined in ${collection}`, { collection, type_id: id.toString() });
        return formatTokenType(c, t);
      },
    }),
    defineMethod({
      name: 'svc_getMultiTokenCollection',
      summary: 'A multi-token collection: names, URIs, owner, royalty, number of types (spec §4.4).',
      params: [{ name: 'collection', schema: CollectionAddress() }] as const,
      result: { name: 'collection', schema: CollectionSchema },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: ([collection]) => formatCollection(collectionParam(collections(), collection, 1, 'multi')),
    }),
    defineMethod({
      name: 'svc_listTokenTypes',
      summary: 'The token types of a multi-token collection, ordered by type id (spec §4.4).',
      params: [
        { name: 'collection', schema: CollectionAddress() },
        { name: 'limit', schema: Limit({ default: 100 }), required: false },
      ] as const,
      result: { name: 'types', schema: Type.Array(TokenTypeSchema) },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: ([collection, limit]) => {
        const c = collectionParam(collections(), collection, 1, 'multi');
        return collections().tokenTypes(c.address).slice(0, limit ?? 100).map((t) => formatTokenType(c, t));
      },
    }),
  ];
}
