import { Type } from '@sinclair/typebox';
import { APP_ERRORS, RpcError } from '../errors.js';
import { defineMethod, type MethodDefinition } from '../registry.js';
import { Address, Limit } from '../schemas.js';
import type { MethodDependencies } from './context.js';
import { accountParam } from './params.js';
import { ReceiptSchema } from './result-schemas.js';
import {
  BASE_URI, COLLECTION_NAME, COLLECTION_SYMBOL, CollectionAddress, CollectionSchema, DETAIL_PARAMS, NftSchema, ROYALTY_BPS, TokenId,
  collectionParam, details, formatCollection, formatNft, parseTokenId,
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
  return [
    defineMethod({
      name: 'svc_createNftCollection',
      summary: 'Create an NFT collection owned by `owner`, who sends the bundle (spec §4.3; unsigned convenience, testnet only).',
      description: 'The receipt\'s `created.collection` is the new Nx2… address (docs/collections.md "Addresses"). max_supply caps the tokens ever minted; "0" is unlimited.',
      params: [
        { name: 'name', schema: COLLECTION_NAME },
        { name: 'symbol', schema: COLLECTION_SYMBOL },
        { name: 'base_uri', schema: BASE_URI },
        { name: 'max_supply', schema: TokenId('most tokens ever minted; 0 = unlimited') },
        { name: 'royalty_bps', schema: ROYALTY_BPS },
        { name: 'owner', schema: Address({ description: 'the owner, who mints; also the sender' }) },
        ...DETAIL_PARAMS,
      ] as const,
      result: { name: 'receipt', schema: ReceiptSchema },
      errors: [APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.BUNDLE_FAILED.code],
      handler: async ([name, symbol, baseUri, maxSupply, royaltyBps, owner, description, iconUri, bannerUri, externalUrl]) => {
        const from = accountParam(owner, 'owner', 6);
        return chain.submitOperations(from, [{
          type: 'CreateNftCollection', name, symbol, baseUri, maxSupply: parseTokenId(maxSupply, 'max_supply', 4), royaltyBps, owner: from,
          ...details(description, iconUri, bannerUri, externalUrl),
        }]);
      },
    }),
    defineMethod({
      name: 'svc_mintNft',
      summary: 'Mint token `token_id` of a collection to `recipient`; the sender must be the collection\'s owner (spec §4.3, §5.7).',
      params: [
        { name: 'collection', schema: CollectionAddress() },
        { name: 'token_id', schema: TokenId('the new token\'s id') },
        { name: 'metadata_uri', schema: Type.String({ maxLength: 256, description: 'the token\'s metadata URI ("" to use base_uri + id)' }) },
        { name: 'recipient', schema: Address({ description: 'who receives the token' }) },
        { name: 'sender', schema: Address({ description: 'the collection\'s owner' }) },
      ] as const,
      result: { name: 'receipt', schema: ReceiptSchema },
      errors: WRITE_ERRORS,
      handler: async ([collection, tokenId, metadataUri, recipient, sender]) => {
        const c = collectionParam(collections(), collection, 1, 'nft');
        const id = parseTokenId(tokenId, 'token_id', 2);
        const to = accountParam(recipient, 'recipient', 4);
        return chain.submitOperations(accountParam(sender, 'sender', 5), [{ type: 'MintNft', collection: c.address, tokenId: id, metadataUri, recipient: to }]);
      },
    }),
    defineMethod({
      name: 'svc_transferNft',
      summary: 'Transfer an NFT; `owner` sends the bundle and must hold the token (spec §4.3).',
      params: [
        { name: 'collection', schema: CollectionAddress() },
        { name: 'token_id', schema: TokenId('the token') },
        { name: 'to', schema: Address({ description: 'the new owner' }) },
        { name: 'owner', schema: Address({ description: 'the current owner, the sender' }) },
      ] as const,
      result: { name: 'receipt', schema: ReceiptSchema },
      errors: WRITE_ERRORS,
      handler: async ([collection, tokenId, to, owner]) => {
        const c = collectionParam(collections(), collection, 1, 'nft');
        const id = parseTokenId(tokenId, 'token_id', 2);
        const recipient = accountParam(to, 'to', 3);
        return chain.submitOperations(accountParam(owner, 'owner', 4), [{ type: 'TransferNft', collection: c.address, tokenId: id, to: recipient }]);
      },
    }),
    defineMethod({
      name: 'svc_burnNft',
      summary: 'Burn an NFT; only its owner may (spec §4.3, §5.7). The id may be minted again later.',
      params: [
        { name: 'collection', schema: CollectionAddress() },
        { name: 'token_id', schema: TokenId('the token') },
        { name: 'owner', schema: Address({ description: 'the token\'s owner, the sender' }) },
      ] as const,
      result: { name: 'receipt', schema: ReceiptSchema },
      errors: WRITE_ERRORS,
      handler: async ([collection, tokenId, owner]) => {
        const c = collectionParam(collections(), collection, 1, 'nft');
        const id = parseTokenId(tokenId, 'token_id', 2);
        return chain.submitOperations(accountParam(owner, 'owner', 3), [{ type: 'BurnNft', collection: c.address, tokenId: id }]);
      },
    }),
    defineMethod({
      name: 'svc_getNft',
      summary: 'One NFT: owner, metadata URI, token URI, mint height and time (spec §4.3).',
      params: [
        { name: 'collection', schema: CollectionAddress() },
        { name: 'token_id', schema: TokenId('the token') },
      ] as const,
      result: { name: 'nft', schema: NftSchema },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: ([collection, tokenId]) => {
        const c = collectionParam(collections(), collection, 1, 'nft');
        const id = parseTokenId(tokenId, 'token_id', 2);
        const nft = collections().nft(c.address, id);
        if (!nft) throw RpcError.app('NOT_FOUND', `token ${id} of ${collection} does not exist (never minted, or burned)`, { collection, token_id: id.toString() });
        return formatNft(c, nft);
      },
    }),
    defineMethod({
      name: 'svc_listNftsByOwner',
      summary: 'The NFTs an account holds, in one collection or all, ordered by collection and token id (spec §4.3).',
      params: [
        { name: 'owner', schema: Address() },
        { name: 'collection', schema: CollectionAddress('only this collection'), required: false },
        { name: 'limit', schema: Limit({ default: 100 }), required: false },
      ] as const,
      result: { name: 'nfts', schema: Type.Array(NftSchema) },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: ([owner, collection, limit]) => {
        const who = accountParam(owner, 'owner', 1);
        const only = collection ? collectionParam(collections(), collection, 2, 'nft') : undefined;
        const reader = collections();
        return reader.nftsOf(who, only?.address).slice(0, limit ?? 100).map((n) => formatNft(only ?? reader.collection(n.collection)!, n));
      },
    }),
    defineMethod({
      name: 'svc_getNftCollection',
      summary: 'An NFT collection: names, URIs, owner, royalty, supply (spec §4.3).',
      params: [{ name: 'collection', schema: CollectionAddress() }] as const,
      result: { name: 'collection', schema: CollectionSchema },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: ([collection]) => formatCollection(collectionParam(collections(), collection, 1, 'nft')),
    }),
  ];
}
