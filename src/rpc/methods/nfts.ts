import { Type } from '@sinclair/typebox';
import { encodeCollection } from '../../chain/collections.js';
import { APP_ERRORS, RpcError } from '../errors.js';
import { defineMethod, type MethodDefinition } from '../registry.js';
import { Limit } from '../schemas.js';
import type { MethodDependencies } from './context.js';
import { AccountParam } from './params.js';
import { ReceiptSchema } from './result-schemas.js';
import {
  BASE_URI, COLLECTION_NAME, COLLECTION_SYMBOL, CollectionParam, CollectionSchema, DETAIL_PARAMS, NftSchema, ROYALTY_BPS, TokenIdParam,
  details, formatCollection, formatNft,
} from './collections.js';

/**
 * Spec §4.3 NFT collections (docs/collections.md). The writes are the core's CreateNftCollection, MintNft,
 * TransferNft and BurnNft operations (disc. 37–40), sent here as unsigned convenience bundles
 * (testnet only; a wallet signs the same operations into a bundle for svc_submitBundle). The core
 * decides ownership, supply and id rules; these handlers check the params and that the collection
 * exists, so a wrong address is a clear -32003 rather than a failed bundle.
 */

const WRITE_ERRORS = [APP_ERRORS.NOT_FOUND.code, APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.BUNDLE_FAILED.code];

export function nftMethods({ chain, readers }: MethodDependencies): MethodDefinition[] {
  const collections = () => readers.collections;
  /** Params parsed once (issue 44 item 4): the collection as its record, NOT_FOUND for none or a multi-token one. */
  const Collection = (description?: string) => CollectionParam(collections, 'nft', description);
  return [
    defineMethod({
      name: 'svc_createNftCollection',
      summary: 'Create an NFT collection owned by `owner`, who sends the bundle (spec §4.3; unsigned convenience, testnet only).',
      description: 'The receipt\'s `created.collection` is the new Nx2… address (docs/collections.md "Addresses"). max_supply caps the tokens ever minted; "0" is unlimited.',
      params: [
        { name: 'name', schema: COLLECTION_NAME },
        { name: 'symbol', schema: COLLECTION_SYMBOL },
        { name: 'base_uri', schema: BASE_URI },
        { name: 'max_supply', schema: TokenIdParam('most tokens ever minted; 0 = unlimited') },
        { name: 'royalty_bps', schema: ROYALTY_BPS },
        { name: 'owner', schema: AccountParam({ description: 'the owner, who mints; also the sender' }) },
        ...DETAIL_PARAMS,
      ] as const,
      result: { name: 'receipt', schema: ReceiptSchema },
      errors: [APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.BUNDLE_FAILED.code],
      handler: async ([name, symbol, baseUri, maxSupply, royaltyBps, from, description, iconUri, bannerUri, externalUrl]) => {
        return chain.submitOperations(from, [{
          type: 'CreateNftCollection', name, symbol, baseUri, maxSupply, royaltyBps, owner: from,
          ...details(description, iconUri, bannerUri, externalUrl),
        }]);
      },
    }),
    defineMethod({
      name: 'svc_mintNft',
      summary: 'Mint token `token_id` of a collection to `recipient`; the sender must be the collection\'s owner (spec §4.3, §5.7).',
      params: [
        { name: 'collection', schema: Collection() },
        { name: 'token_id', schema: TokenIdParam('the new token\'s id') },
        { name: 'metadata_uri', schema: Type.String({ maxLength: 256, description: 'the token\'s metadata URI ("" to use base_uri + id)' }) },
        { name: 'recipient', schema: AccountParam({ description: 'who receives the token' }) },
        { name: 'sender', schema: AccountParam({ description: 'the collection\'s owner' }) },
      ] as const,
      result: { name: 'receipt', schema: ReceiptSchema },
      errors: WRITE_ERRORS,
      handler: async ([c, tokenId, metadataUri, recipient, sender]) => {
        return chain.submitOperations(sender, [{ type: 'MintNft', collection: c.address, tokenId, metadataUri, recipient }]);
      },
    }),
    defineMethod({
      name: 'svc_transferNft',
      summary: 'Transfer an NFT; `owner` sends the bundle and must hold the token (spec §4.3).',
      params: [
        { name: 'collection', schema: Collection() },
        { name: 'token_id', schema: TokenIdParam('the token') },
        { name: 'to', schema: AccountParam({ description: 'the new owner' }) },
        { name: 'owner', schema: AccountParam({ description: 'the current owner, the sender' }) },
      ] as const,
      result: { name: 'receipt', schema: ReceiptSchema },
      errors: WRITE_ERRORS,
      handler: async ([c, tokenId, to, owner]) => {
        return chain.submitOperations(owner, [{ type: 'TransferNft', collection: c.address, tokenId, to }]);
      },
    }),
    defineMethod({
      name: 'svc_burnNft',
      summary: 'Burn an NFT; only its owner may (spec §4.3, §5.7). The id may be minted again later.',
      params: [
        { name: 'collection', schema: Collection() },
        { name: 'token_id', schema: TokenIdParam('the token') },
        { name: 'owner', schema: AccountParam({ description: 'the token\'s owner, the sender' }) },
      ] as const,
      result: { name: 'receipt', schema: ReceiptSchema },
      errors: WRITE_ERRORS,
      handler: async ([c, tokenId, owner]) => {
        return chain.submitOperations(owner, [{ type: 'BurnNft', collection: c.address, tokenId }]);
      },
    }),
    defineMethod({
      name: 'svc_getNft',
      summary: 'One NFT: owner, metadata URI, token URI, mint height and time (spec §4.3).',
      params: [
        { name: 'collection', schema: Collection() },
        { name: 'token_id', schema: TokenIdParam('the token') },
      ] as const,
      result: { name: 'nft', schema: NftSchema },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: ([c, id]) => {
        const nft = collections().nft(c.address, id);
        const collection = encodeCollection(c.address);
        if (!nft) throw RpcError.app('NOT_FOUND', `token ${id} of ${collection} does not exist (never minted, or burned)`, { collection, token_id: id.toString() });
        return formatNft(c, nft);
      },
    }),
    defineMethod({
      name: 'svc_listNftsByOwner',
      summary: 'The NFTs an account holds, in one collection or all, ordered by collection and token id (spec §4.3).',
      params: [
        { name: 'owner', schema: AccountParam() },
        { name: 'collection', schema: Collection('only this collection'), required: false },
        { name: 'limit', schema: Limit({ default: 100 }), required: false },
      ] as const,
      result: { name: 'nfts', schema: Type.Array(NftSchema) },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: ([who, only, limit]) => {
        const reader = collections();
        return reader.nftsOf(who, only?.address).slice(0, limit ?? 100).map((n) => formatNft(only ?? reader.collection(n.collection)!, n));
      },
    }),
    defineMethod({
      name: 'svc_getNftCollection',
      summary: 'An NFT collection: names, URIs, owner, royalty, supply (spec §4.3).',
      params: [{ name: 'collection', schema: Collection() }] as const,
      result: { name: 'collection', schema: CollectionSchema },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: ([c]) => formatCollection(c),
    }),
  ];
}
