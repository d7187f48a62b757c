/**
 * OpenRPC examples and descriptions of the methods in src/rpc/methods/nfts.ts (docs/collections.md),
 * recorded from a testnet node (the accounts, the AUR token, pool and collections of
 * src/rpc/examples/recorded-run.ts, created by the calls shown); long lists are cut to two items.
 * test/unit/rpc-openrpc.test.ts holds each to its method's own param and result schemas.
 */
import type { MethodExample } from '../registry.js';
import { ALICE, BOB, VALIDATOR, ART } from './recorded-run.js';

export const EXAMPLES: Record<string, MethodExample[]> = {
  svc_createNftCollection: [{
    name: 'a 10,000-piece collection with 5% royalty',
    params: [
      { name: 'name', value: 'Aurora Genesis' },
      { name: 'symbol', value: 'AURG' },
      { name: 'base_uri', value: 'ipfs://bafybeiaurora/' },
      { name: 'max_supply', value: 10000 },
      { name: 'royalty_bps', value: 500 },
      { name: 'owner', value: ALICE },
      { name: 'description', value: 'The first Aurora drop' },
    ],
    result: {
      name: 'receipt',
      value: {
        bundle_hash: 'NxhFgG8JirE2zq7F51giwQjPmHtUcvzZ7uzvPHhYJabPxiQ',
        block_height: 25,
        block_hash: 'NxhAhnRKHoQZG6T2m5zYxZdDB4pxt5piGqr5447MrWG6r4h',
        index: 0,
        timestamp: 1795621915,
        from: ALICE,
        nonce: '14',
        status: 'success',
        status_code: 0,
        status_name: 'OK',
        gas_used: 65000,
        fee: '650000',
        events: [
          {
            type: 'Fee',
            op_index: null,
            payer: ALICE,
            proposer: VALIDATOR,
            to_proposer: '520000',
            treasury: '0x0000000000000000000000000000000000000000000000000000000000000003',
            to_treasury: '130000',
          },
          { type: 'CollectionCreated', op_index: 0, collection: ART, kind: 'nft', owner: ALICE, creator: ALICE },
        ],
        created: { collection: ART },
      },
    },
  }],
  svc_mintNft: [{
    name: 'token 1 to its creator',
    params: [
      { name: 'collection', value: ART },
      { name: 'token_id', value: 1 },
      { name: 'metadata_uri', value: 'ipfs://bafybeiaurora/1.json' },
      { name: 'recipient', value: ALICE },
      { name: 'sender', value: ALICE },
    ],
    result: {
      name: 'receipt',
      value: {
        bundle_hash: 'NxhAjY8VQYVP8zY2BRpb917Q9Som5MeUasfDFKKiQWos95H',
        block_height: 26,
        block_hash: 'Nxh66X4LeR2g6MzR5dSRHZAv88gZEc52qqt3CzAkCwUMsjS',
        index: 0,
        timestamp: 1795621915,
        from: ALICE,
        nonce: '15',
        status: 'success',
        status_code: 0,
        status_name: 'OK',
        gas_used: 35000,
        fee: '350000',
        events: [
          {
            type: 'Fee',
            op_index: null,
            payer: ALICE,
            proposer: VALIDATOR,
            to_proposer: '280000',
            treasury: '0x0000000000000000000000000000000000000000000000000000000000000003',
            to_treasury: '70000',
          },
          { type: 'NftTransfer', op_index: 0, collection: ART, from: 'Nx011111111111111111111111111111111', to: ALICE, token_id: '1' },
        ],
      },
    },
  }],
  svc_transferNft: [{
    name: 'token 1 to another account',
    params: [{ name: 'collection', value: ART }, { name: 'token_id', value: 1 }, { name: 'to', value: BOB }, { name: 'owner', value: ALICE }],
    result: {
      name: 'receipt',
      value: {
        bundle_hash: 'Nxh26HaZFCHUzeCNTDa8xkmwvm89jmDnMhXWqLVW3eneBtt',
        block_height: 28,
        block_hash: 'NxhGspsoy5gdqR4qGX2fXVVveWVMq2dpACpuNZ9iqSUZKFp',
        index: 0,
        timestamp: 1795621916,
        from: ALICE,
        nonce: '17',
        status: 'success',
        status_code: 0,
        status_name: 'OK',
        gas_used: 30000,
        fee: '300000',
        events: [
          {
            type: 'Fee',
            op_index: null,
            payer: ALICE,
            proposer: VALIDATOR,
            to_proposer: '240000',
            treasury: '0x0000000000000000000000000000000000000000000000000000000000000003',
            to_treasury: '60000',
          },
          { type: 'NftTransfer', op_index: 0, collection: ART, from: ALICE, to: BOB, token_id: '1' },
        ],
      },
    },
  }],
  svc_burnNft: [{
    name: 'token 2',
    params: [{ name: 'collection', value: ART }, { name: 'token_id', value: 2 }, { name: 'owner', value: ALICE }],
    result: {
      name: 'receipt',
      value: {
        bundle_hash: 'NxhBsWMep15Fi7c6qrbqkxwmh3j2AajyXWsXCzKDg1M1eea',
        block_height: 29,
        block_hash: 'Nxh2QyFCtyCdSGaQgxPA13ecWiVqV8be11VCHCtkLvjyTKb',
        index: 0,
        timestamp: 1795621917,
        from: ALICE,
        nonce: '18',
        status: 'success',
        status_code: 0,
        status_name: 'OK',
        gas_used: 30000,
        fee: '300000',
        events: [
          {
            type: 'Fee',
            op_index: null,
            payer: ALICE,
            proposer: VALIDATOR,
            to_proposer: '240000',
            treasury: '0x0000000000000000000000000000000000000000000000000000000000000003',
            to_treasury: '60000',
          },
          { type: 'NftTransfer', op_index: 0, collection: ART, from: ALICE, to: 'Nx011111111111111111111111111111111', token_id: '2' },
        ],
      },
    },
  }],
  svc_getNft: [{
    name: 'token 1',
    params: [{ name: 'collection', value: ART }, { name: 'token_id', value: 1 }],
    result: {
      name: 'nft',
      value: {
        collection: ART,
        token_id: '1',
        owner: BOB,
        metadata_uri: 'ipfs://bafybeiaurora/1.json',
        token_uri: 'ipfs://bafybeiaurora/1.json',
        minted_height: 26,
        minted_at: 1795621915,
      },
    },
  }],
  svc_listNftsByOwner: [{
    name: 'one collection',
    params: [{ name: 'owner', value: BOB }, { name: 'collection', value: ART }, { name: 'limit', value: 10 }],
    result: {
      name: 'nfts',
      value: [
        {
          collection: ART,
          token_id: '1',
          owner: BOB,
          metadata_uri: 'ipfs://bafybeiaurora/1.json',
          token_uri: 'ipfs://bafybeiaurora/1.json',
          minted_height: 26,
          minted_at: 1795621915,
        },
      ],
    },
  }],
  svc_getNftCollection: [{
    name: 'an NFT collection',
    params: [{ name: 'collection', value: ART }],
    result: {
      name: 'collection',
      value: {
        address: ART,
        address_evm: '0x3720e6a09bbc262794bba8c2d49f452f6450b9d4',
        kind: 'nft',
        name: 'Aurora Genesis',
        symbol: 'AURG',
        base_uri: 'ipfs://bafybeiaurora/',
        description: 'The first Aurora drop',
        icon_uri: '',
        banner_uri: '',
        external_url: '',
        owner: ALICE,
        creator: ALICE,
        royalty_bps: 500,
        max_supply: '10000',
        total_supply: '1',
        minted: '2',
        burned: '1',
        created_height: 25,
        created_at: 1795621915,
      },
    },
  }],
};

/** What each method does, its errors by name and its spec section, for OpenRPC `description`. */
export const DESCRIPTIONS: Record<string, string> = {
  svc_createNftCollection:
    'Spec §4.3. Errors: UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED (e.g. royalty above 10,000 bps).',
  svc_mintNft:
    'Mints one NFT with its metadata URI (spec §4.3, §5.7); the receipt carries an NftTransfer from the zero account. Errors: NOT_FOUND for an unknown collection; UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED (the sender is not the owner, the id exists, the collection is at max_supply).',
  svc_transferNft:
    "Moves one NFT from `owner`, who must hold it (spec §4.3). Errors: NOT_FOUND for an unknown collection; UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED (the token does not exist or is not the sender's).",
  svc_burnNft:
    "Destroys one NFT held by `owner` (spec §4.3, §5.7). Errors: NOT_FOUND for an unknown collection; UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED (the token does not exist or is not the sender's).",
  svc_getNft:
    'Reads one NFT (spec §4.3); token_uri is the metadata URI, or base_uri + id when none was set. Errors: NOT_FOUND when the collection or the token does not exist.',
  svc_listNftsByOwner:
    'Lists the NFTs `owner` holds (spec §4.3), in one collection when given, ordered by collection then token id; limit 1–1000, default 100. Errors: NOT_FOUND when the named collection does not exist.',
  svc_getNftCollection:
    'Reads an NFT collection (spec §4.3): names, URIs, owner, creator, royalty and supply counts, with its ERC-721 address. Errors: NOT_FOUND when no NFT collection has that address.',
};
