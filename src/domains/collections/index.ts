/**
 * The host module of NFT and multi-token collections (docs/collections.md): CreateNftCollection …
 * BatchTransferMultiToken. Its operations carry no proof the core cannot check and declare no NTV
 * spend, so it adds no chain-level hook; it is registered so that its folder (reader.ts, the RPC
 * files rpc.ts for NFTs, multitoken-rpc.ts and collection-rpc.ts, examples.json, client.ts) is a
 * domain's, held to the registry's rules.
 */

import { encodeCollection } from '../../codec/address.js';
import type { DomainModule } from '../module.js';
import { CollectionKind } from './reader.js';

export const collections: DomainModule = {
  name: 'collections',
  proofChecks: [],
  receiptFormats: {
    collection: encodeCollection,
    collectionKind: (v) => (v === CollectionKind.MULTI ? 'multi' : 'nft'),
  },
};
