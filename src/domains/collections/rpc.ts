import { Type } from '@sinclair/typebox';
import { multiTokenMethods } from './multitoken-rpc.js';
import { encodeCollection } from './reader.js';
import { APP_ERRORS, RpcError } from '../../rpc/errors.js';
import { defineMethod, type MethodDefinition } from '../../rpc/registry.js';
import { Limit } from '../../rpc/schemas.js';
import type { MethodDependencies } from '../../rpc/methods/context.js';
import { AccountParam } from '../../rpc/methods/params.js';
import { ReceiptSchema } from '../../rpc/methods/result-schemas.js';
import {
  BASE_URI, COLLECTION_NAME, COLLECTION_SYMBOL, CollectionParam, CollectionSchema, DETAIL_PARAMS, NftSchema, ROYALTY_BPS, TokenIdParam,
  details, formatCollection, formatNft,
} from './collection-rpc.js';

/**
 * Spec §4.3 NFT collections (docs/collections.md). The writes are the core's CreateNftCollection, MintNft,
 * TransferNft and BurnNft operations (disc. 37–40), sent here as unsigned convenience bundles
 * (testnet only; a wallet signs the same operations into a bundle for svc_submitBundle). The core
 * decides ownership, supply and id rules; these handlers check the params and that the collection
 * exists, so a wrong address is a clear -32003 rather than a failed bundle.
 */

const WRITE_ERRORS = [APP_ERRORS.NOT_FOUND.code, APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.BUNDLE_FAILED.code];

/**
 * The domain's methods, NFTs' (here) and multi-tokens' (./multitoken-rpc.ts): the one function of
 * its rpc.ts the registry lists (scripts/gen-domains.mjs).
 */
export function collectionMethods(deps: MethodDependencies): MethodDefinition[] {
  return [...nftMethods(deps), ...multiTokenMethods(deps)];
}

function nftMethods({ chain, readers }: MethodDependencies): MethodDefinition[] {
  const collections = () => readers.collections;
  /** Params parsed once (issue 44 item 4): the collection as its record, NOT_FOUND for none or a multi-token one. */
  const Collection = (description?: string) => CollectionParam(collections, 'nft', description);
  return [
    defineMethod({
      name: 'svc_createNftCollection',
      summary: 'Create an NFT collection owned by `owner`, who sends the bundle (spec §4.3; unsigned convenience, testnet only).',
      description: 'The receipt\'s `created.collection` is the new Nx2… address (docs/collections.md "Addresses"). max_supply caps the tokens ever minted; "0" is unlimited.'
        + ' Spec §4.3. Errors: UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED (e.g. royalty above 10,000 bps).',
      params: [
        { name: 'name', schema: COLLECTION_NAME },
        { name: 'symbol', schema: COLLECTION_SYMBOL },
        { name: 'base_uri', schema: BASE_URI },
        { name: 'max_supply', schema: TokenIdParam('most tokens ever minted; 0 = unlimited') },
        { name: 'royalty_bps', schema: ROYALTY_BPS },
        { name: 'owner', schema: AccountParam({ description: 'the owner, who mints; also the sender' }) },
        ...DETAIL_PARAMS,
      ] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt; `created.collection` is the new address. `max_supply` 0 = unlimited; `royalty_bps` 0–10,000',
      },
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
      description: 'Mints one NFT with its metadata URI (spec §4.3, §5.7); the receipt carries an NftTransfer from the zero account. Errors:'
        + ' NOT_FOUND for an unknown collection; UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED (the sender is not the owner, the id'
        + ' exists, the collection is at max_supply).',
      params: [
        { name: 'collection', schema: Collection() },
        { name: 'token_id', schema: TokenIdParam('the new token\'s id') },
        { name: 'metadata_uri', schema: Type.String({ maxLength: 256, description: 'the token\'s metadata URI ("" to use base_uri + id)' }) },
        { name: 'recipient', schema: AccountParam({ description: 'who receives the token' }) },
        { name: 'sender', schema: AccountParam({ description: 'the collection\'s owner' }) },
      ] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt; the sender must own the collection',
      },
      errors: WRITE_ERRORS,
      handler: async ([c, tokenId, metadataUri, recipient, sender]) => {
        return chain.submitOperations(sender, [{ type: 'MintNft', collection: c.address, tokenId, metadataUri, recipient }]);
      },
    }),
    defineMethod({
      name: 'svc_transferNft',
      summary: 'Transfer an NFT; `owner` sends the bundle and must hold the token (spec §4.3).',
      description: 'Moves one NFT from `owner`, who must hold it (spec §4.3). Errors: NOT_FOUND for an unknown collection; UNAVAILABLE_ON_NETWORK on'
        + ' mainnet; BUNDLE_FAILED (the token does not exist or is not the sender\'s).',
      params: [
        { name: 'collection', schema: Collection() },
        { name: 'token_id', schema: TokenIdParam('the token') },
        { name: 'to', schema: AccountParam({ description: 'the new owner' }) },
        { name: 'owner', schema: AccountParam({ description: 'the current owner, the sender' }) },
      ] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt; `owner` (the sender) must hold the token',
      },
      errors: WRITE_ERRORS,
      handler: async ([c, tokenId, to, owner]) => {
        return chain.submitOperations(owner, [{ type: 'TransferNft', collection: c.address, tokenId, to }]);
      },
    }),
    defineMethod({
      name: 'svc_burnNft',
      summary: 'Burn an NFT; only its owner may (spec §4.3, §5.7). The id may be minted again later.',
      description: 'Destroys one NFT held by `owner` (spec §4.3, §5.7). Errors: NOT_FOUND for an unknown collection; UNAVAILABLE_ON_NETWORK on'
        + ' mainnet; BUNDLE_FAILED (the token does not exist or is not the sender\'s).',
      params: [
        { name: 'collection', schema: Collection() },
        { name: 'token_id', schema: TokenIdParam('the token') },
        { name: 'owner', schema: AccountParam({ description: 'the token\'s owner, the sender' }) },
      ] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt; owner only (spec §5.7); the id may be minted again',
      },
      errors: WRITE_ERRORS,
      handler: async ([c, tokenId, owner]) => {
        return chain.submitOperations(owner, [{ type: 'BurnNft', collection: c.address, tokenId }]);
      },
    }),
    defineMethod({
      name: 'svc_getNft',
      summary: 'One NFT: owner, metadata URI, token URI, mint height and time (spec §4.3).',
      description: 'Reads one NFT (spec §4.3); token_uri is the metadata URI, or base_uri + id when none was set. Errors: NOT_FOUND when the'
        + ' collection or the token does not exist.',
      params: [
        { name: 'collection', schema: Collection() },
        { name: 'token_id', schema: TokenIdParam('the token') },
      ] as const,
      result: {
        name: 'nft', schema: NftSchema,
        description: '`{collection, token_id, owner, metadata_uri, token_uri, minted_height, minted_at}`; `token_uri` is `metadata_uri`, else'
          + ' `base_uri` + id; `-32003` when not minted or burned',
      },
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
      description: 'Lists the NFTs `owner` holds (spec §4.3), in one collection when given, ordered by collection then token id; limit 1–1000,'
        + ' default 100. Errors: NOT_FOUND when the named collection does not exist.',
      params: [
        { name: 'owner', schema: AccountParam() },
        { name: 'collection', schema: Collection('only this collection'), required: false },
        { name: 'limit', schema: Limit({ default: 100 }), required: false },
      ] as const,
      result: {
        name: 'nfts', schema: Type.Array(NftSchema),
        description: 'the owner\'s NFTs (shape of `svc_getNft`) ordered by collection and id; limit 1–1000, default 100',
      },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: ([who, only, limit]) => {
        const reader = collections();
        return reader.nftsOf(who, only?.address).slice(0, limit ?? 100).map((n) => formatNft(only ?? reader.collection(n.collection)!, n));
      },
    }),
    defineMethod({
      name: 'svc_getNftCollection',
      summary: 'An NFT collection: names, URIs, owner, royalty, supply (spec §4.3).',
      description: 'Reads an NFT collection (spec §4.3): names, URIs, owner, creator, royalty and supply counts, with its ERC-721 address. Errors:'
        + ' NOT_FOUND when no NFT collection has that address.',
      params: [{ name: 'collection', schema: Collection() }] as const,
      result: {
        name: 'collection', schema: CollectionSchema,
        description: '`{address, address_evm, kind: "nft", name, symbol, base_uri, description, icon_uri, banner_uri, external_url, owner, creator,'
          + ' royalty_bps, max_supply (null = unlimited), total_supply, minted, burned, created_height, created_at}`',
      },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: ([c]) => formatCollection(c),
    }),
  ];
}
