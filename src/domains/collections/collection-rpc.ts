import { Type, type TString } from '@sinclair/typebox';
import { encodeAccount, encodeEvm } from '../../codec/address.js';
import {
  COLLECTION_ID_PREFIX, decodeCollectionText, encodeCollection, tokenUri,
  type CollectionReader, type CollectionRecord, type NftRecord, type TokenTypeRecord,
} from './reader.js';
import { RpcError } from '../../rpc/errors.js';
import { BASE58_32, HEX_ADDRESS, parsed, withExpected } from '../../rpc/schemas.js';
import { parseTokenId, TokenId } from '../../rpc/methods/params.js';

export { parseTokenId, TokenId };

/**
 * What the NFT (spec §4.3) and multi-token (spec §4.4) method files share: the collection and id
 * params, the optional descriptive strings, and the result shapes (docs/collections.md, docs/methods.md).
 */

const Str = (description: string) => Type.String({ description });
const Int = (description: string) => Type.Integer({ description });

/** A collection: `Nx2…`, its 32-byte `0x` form, or the 20-byte EVM form a wallet shows. */
export function CollectionAddress(description = 'the collection'): TString {
  return withExpected(
    Type.String({
      title: 'CollectionAddress',
      pattern: `^(Nx2${BASE58_32}|${HEX_ADDRESS})$`,
      description: `${description}: Nx2… (base58 of 32 bytes), 0x + 64 hex, or its EVM form 0x + 40 hex`,
    }),
    'a collection address (Nx2…, 0x + 64 hex or 0x + 40 hex)',
  );
}

/** A token or type id parsed to a bigint (params parsed once, issue 44 item 4: the union wrapped whole). */
export const TokenIdParam = (description: string) => parsed(TokenId(description), parseTokenId);

/**
 * The optional descriptive params after the owner (spec §4.3/§4.4 `description?` … `external_url?`);
 * omitted or null means none, stored as "". The core applies the exact limits (docs/collections.md).
 */
export const DETAIL_PARAMS = [
  { name: 'description', schema: Type.String({ maxLength: 1024, description: 'description, at most 1,024 bytes' }), required: false },
  { name: 'icon_uri', schema: Type.String({ maxLength: 256, description: 'icon URI, at most 256 bytes' }), required: false },
  { name: 'banner_uri', schema: Type.String({ maxLength: 256, description: 'banner URI, at most 256 bytes' }), required: false },
  { name: 'external_url', schema: Type.String({ maxLength: 256, description: 'external URL, at most 256 bytes' }), required: false },
] as const;

export function details(description?: string | null, iconUri?: string | null, bannerUri?: string | null, externalUrl?: string | null) {
  return { description: description ?? '', iconUri: iconUri ?? '', bannerUri: bannerUri ?? '', externalUrl: externalUrl ?? '' };
}

/** Name, symbol and base URI of a new collection, with the core's limits (docs/collections.md). */
export const COLLECTION_NAME = Type.String({ minLength: 1, maxLength: 64, description: 'collection name, 1–64 bytes' });
export const COLLECTION_SYMBOL = Type.String({ pattern: '^[A-Za-z0-9]{1,16}$', description: 'collection symbol, 1–16 letters or digits' });
export const BASE_URI = Type.String({ maxLength: 256, description: 'base URI, at most 256 bytes ("" for none)' });
export const ROYALTY_BPS = Type.Integer({ minimum: 0, maximum: 10_000, description: 'royalty in basis points, 0–10,000' });

/** The collection of a param, which must exist and be of the expected kind (-32003 otherwise). */
export function collectionParam(reader: CollectionReader, value: string, position: number, kind: 'nft' | 'multi', param = 'collection'): CollectionRecord {
  const record = reader.byText(value);
  if (!record && value.startsWith(COLLECTION_ID_PREFIX) && !decodeCollectionText(value)) {
    throw RpcError.invalidParam(param, position, 'a collection address (Nx2… base58 of 32 bytes)');
  }
  const what = kind === 'nft' ? 'NFT collection' : 'multi-token collection';
  if (!record) throw RpcError.app('NOT_FOUND', `no ${what} at ${value}`, { collection: value });
  if (record.kind !== kind) {
    throw RpcError.app('NOT_FOUND', `${value} is a ${record.kind === 'nft' ? 'NFT' : 'multi-token'} collection, not a ${what}`, { collection: value, kind: record.kind });
  }
  return record;
}

/** A collection param parsed to its record (`reader` read at call time: the node's readers are built after the methods). */
export const CollectionParam = (reader: () => CollectionReader, kind: 'nft' | 'multi', description?: string) =>
  parsed(CollectionAddress(description), (value, param, position) => collectionParam(reader(), value, position, kind, param));

const supplyOrNull = (max: bigint) => (max === 0n ? null : max.toString());

export const CollectionSchema = Type.Object({
  address: Str('Nx2… collection address'),
  address_evm: Str('EVM form (last 20 bytes), the contract address wallets use'),
  kind: Type.Union([Type.Literal('nft'), Type.Literal('multi')]),
  name: Str('collection name'),
  symbol: Str('collection symbol'),
  base_uri: Str('base URI; a token without its own metadata URI has base_uri + id'),
  description: Str('description ("" when none)'),
  icon_uri: Str('icon URI ("" when none)'),
  banner_uri: Str('banner URI ("" when none)'),
  external_url: Str('external URL ("" when none)'),
  owner: Str('Nx0… owner: mints and defines token types'),
  creator: Str('Nx0… account that created it'),
  royalty_bps: Int('royalty in basis points, 0–10,000'),
  max_supply: Type.Union([Type.String(), Type.Null()], { description: 'NFT: most tokens ever minted, decimal; null = unlimited (multi-token: null)' }),
  total_supply: Str('NFT: tokens in existence (minted − burned); multi-token: token types defined'),
  minted: Str('NFT: tokens ever minted'),
  burned: Str('NFT: tokens burned'),
  created_height: Int('block height of creation'),
  created_at: Int('unix seconds of creation'),
}, { title: 'Collection', additionalProperties: false });

export function formatCollection(c: CollectionRecord) {
  return {
    address: encodeCollection(c.address), address_evm: encodeEvm(c.address), kind: c.kind, name: c.name, symbol: c.symbol, base_uri: c.baseUri,
    description: c.description, icon_uri: c.iconUri, banner_uri: c.bannerUri, external_url: c.externalUrl,
    owner: encodeAccount(c.owner), creator: encodeAccount(c.creator), royalty_bps: c.royaltyBps, max_supply: supplyOrNull(c.maxSupply),
    total_supply: (c.kind === 'nft' ? c.minted - c.burned : c.minted).toString(), minted: c.minted.toString(), burned: c.burned.toString(),
    created_height: Number(c.createdHeight), created_at: Number(c.createdAt),
  };
}

export const NftSchema = Type.Object({
  collection: Str('Nx2… collection'),
  token_id: Str('token id, decimal'),
  owner: Str('Nx0… owner'),
  metadata_uri: Str('the token\'s own metadata URI ("" when none)'),
  token_uri: Str('what ERC-721 tokenURI answers: metadata_uri, else base_uri + id'),
  minted_height: Int('block height of the mint'),
  minted_at: Int('unix seconds of the mint'),
}, { title: 'Nft', additionalProperties: false });

export function formatNft(c: CollectionRecord, n: NftRecord) {
  return {
    collection: encodeCollection(n.collection), token_id: n.tokenId.toString(), owner: encodeAccount(n.owner), metadata_uri: n.metadataUri,
    token_uri: tokenUri(c, n.metadataUri, n.tokenId), minted_height: Number(n.mintedHeight), minted_at: Number(n.mintedAt),
  };
}

export const TokenTypeSchema = Type.Object({
  collection: Str('Nx2… collection'),
  type_id: Str('type id, decimal'),
  name: Str('type name'),
  metadata_uri: Str('the type\'s own metadata URI ("" when none)'),
  uri: Str('what ERC-1155 uri(id) answers: metadata_uri, else base_uri + id'),
  is_fungible: Type.Boolean({ description: 'false: a single token (supply 1)' }),
  max_supply: Type.Union([Type.String(), Type.Null()], { description: 'most ever minted, raw units; null = unlimited' }),
  total_supply: Str('in existence: minted − burned'),
  minted: Str('ever minted'),
  burned: Str('burned'),
  created_height: Int('block height of the definition'),
}, { title: 'TokenType', additionalProperties: false });

export function formatTokenType(c: CollectionRecord, t: TokenTypeRecord) {
  return {
    collection: encodeCollection(t.collection), type_id: t.typeId.toString(), name: t.name, metadata_uri: t.metadataUri,
    uri: tokenUri(c, t.metadataUri, t.typeId), is_fungible: t.isFungible, max_supply: supplyOrNull(t.maxSupply),
    total_supply: (t.minted - t.burned).toString(), minted: t.minted.toString(), burned: t.burned.toString(), created_height: Number(t.createdHeight),
  };
}
