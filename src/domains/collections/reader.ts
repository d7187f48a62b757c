import { COLLECTION_PREFIX, decodeCollectionText, encodeCollection } from '../../codec/address.js';
import { COLLECTION_KIND_MULTI_TOKEN, COLLECTION_KIND_NFT, Prefix } from '../../abi/constants.js';
import {
  collectionKey, nftKey, nftCountKey, tokenTypeKey, multiBalanceKey, decodeCollectionFields, decodeNftFields, decodeTokenTypeFields,
  type CollectionFields,
} from '../../abi/state.js';
import type { StateReader, WatchableState } from '../../chain/state-reader.js';

/**
 * NFT and multi-token collections on the host side (spec §4.3, §4.4; docs/collections.md): the `Nx2`
 * address form, key builders and record decoding mirroring the core byte for byte, and a reader
 * that keeps in-memory indexes (NFTs by owner, token types by collection, collections by EVM
 * address) in step with every committed write. It is shared by the svc_* methods and the eth_*
 * adapter, so both read the same state.
 */

/** The collection prefixes of the generated table (abi/state.mjs; docs/collections.md "State layout"). */
export const CollectionPrefix = {
  COLLECTION: Prefix.COLLECTION, NFT: Prefix.NFT, NFT_COUNT: Prefix.NFT_COUNT, TOKEN_TYPE: Prefix.TOKEN_TYPE, MULTI_BALANCE: Prefix.MULTI_BALANCE,
} as const;
/** facts.md "Addresses": Nx2 for NFT collections; multi-token collections share it (docs/collections.md). */
export const COLLECTION_ID_PREFIX = COLLECTION_PREFIX;
/** A collection record's kind, from the ABI table (abi/constants.mjs COLLECTION_KIND_*). */
export const CollectionKind = { NFT: COLLECTION_KIND_NFT, MULTI: COLLECTION_KIND_MULTI_TOKEN } as const;

// The Nx2 text form lives with the other address forms (src/codec/address.ts).
export { decodeCollectionText, encodeCollection };

// Keys and record layouts are generated from the ABI table (abi/state.mjs → src/abi/state.ts).
export { collectionKey, nftKey, nftCountKey, tokenTypeKey, multiBalanceKey };

/**
 * A collection's record: its address (the key), its kind by name, and the generated fields
 * (abi/state.mjs Collection) but the layout version. `maxSupply`: NFT 0 = unlimited, multi-token 0;
 * `minted`: NFT tokens ever minted, multi-token types defined.
 */
export interface CollectionRecord extends Omit<CollectionFields, 'version' | 'kind'> {
  address: Uint8Array;
  kind: 'nft' | 'multi';
}

export function decodeCollectionRecord(address: Uint8Array, value: Uint8Array): CollectionRecord {
  const { version: _version, kind, ...fields } = decodeCollectionFields(value);
  return { address, kind: kind === CollectionKind.MULTI ? 'multi' : 'nft', ...fields };
}

export interface NftRecord {
  collection: Uint8Array;
  tokenId: bigint;
  owner: Uint8Array;
  mintedHeight: bigint;
  mintedAt: bigint;
  metadataUri: string;
}

export function decodeNftRecord(collection: Uint8Array, tokenId: bigint, value: Uint8Array): NftRecord {
  const r = decodeNftFields(value);
  return { collection, tokenId, owner: r.owner, mintedHeight: r.mintedHeight, mintedAt: r.mintedAt, metadataUri: r.metadataUri };
}

export interface TokenTypeRecord {
  collection: Uint8Array;
  typeId: bigint;
  isFungible: boolean;
  /** 0 = unlimited */
  maxSupply: bigint;
  minted: bigint;
  burned: bigint;
  createdHeight: bigint;
  name: string;
  metadataUri: string;
}

export function decodeTokenTypeRecord(collection: Uint8Array, typeId: bigint, value: Uint8Array): TokenTypeRecord {
  const r = decodeTokenTypeFields(value);
  return {
    collection, typeId, isFungible: r.isFungible, maxSupply: r.maxSupply, minted: r.minted, burned: r.burned, createdHeight: r.createdHeight,
    name: r.name, metadataUri: r.metadataUri,
  };
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const keyId = (key: Uint8Array, at: number) => new DataView(key.buffer, key.byteOffset, key.byteLength).getBigUint64(at, false);

/** A token's URI: its own metadata URI, else the collection's base URI followed by the id (the ERC-721 convention). */
export function tokenUri(collection: CollectionRecord, own: string, id: bigint): string {
  if (own !== '') return own;
  return collection.baseUri === '' ? '' : collection.baseUri + id.toString();
}

/**
 * The reads of one token or balance a collection's ERC-721/1155 answers need (src/eth/collection-calls.ts),
 * each a state record: CollectionReader answers them at the head, `collectionReadsAt` over the state
 * as of a past block (docs/eth.md "Block parameters").
 */
export type CollectionReads = Pick<CollectionReader, 'nft' | 'nftCount' | 'tokenType' | 'multiBalance'>;

/** A collection's record and its reads over `state` (the state as of a past block); undefined before it existed. */
export function collectionReadsAt(state: StateReader, address: Uint8Array): { record: CollectionRecord; reads: CollectionReads } | undefined {
  const value = state.get(collectionKey(address));
  if (!value) return undefined;
  const reads: CollectionReads = {
    nft: (collection, tokenId) => {
      const v = state.get(nftKey(collection, tokenId));
      return v ? decodeNftRecord(collection, tokenId, v) : undefined;
    },
    nftCount: (collection, owner) => u64At(state.get(nftCountKey(collection, owner))),
    tokenType: (collection, typeId) => {
      const v = state.get(tokenTypeKey(collection, typeId));
      return v ? decodeTokenTypeRecord(collection, typeId, v) : undefined;
    },
    multiBalance: (collection, typeId, owner) => u128At(state.get(multiBalanceKey(collection, typeId, owner))),
  };
  return { record: decodeCollectionRecord(address, value), reads };
}

/** A u64 count record (little-endian; absent: 0). */
function u64At(v: Uint8Array | undefined): bigint {
  return v ? new DataView(v.buffer, v.byteOffset, v.byteLength).getBigUint64(0, true) : 0n;
}

/** A u128 balance record (little-endian; absent: 0). */
function u128At(v: Uint8Array | undefined): bigint {
  if (!v) return 0n;
  const dv = new DataView(v.buffer, v.byteOffset, v.byteLength);
  return dv.getBigUint64(0, true) | (dv.getBigUint64(8, true) << 64n);
}

export class CollectionReader {
  /** collection hex → record */
  private readonly collections = new Map<string, CollectionRecord>();
  /** last 20 bytes (hex) → collection address, for the eth_* adapter (docs/eth.md) */
  private readonly byEvm = new Map<string, Uint8Array>();
  /** owner hex → (collection hex ‖ ":" ‖ id) → NFT record */
  private readonly nftsByOwner = new Map<string, Map<string, NftRecord>>();
  /** collection hex → type id → record */
  private readonly types = new Map<string, Map<bigint, TokenTypeRecord>>();

  /** Built once in node.ts over committed state; its indexes are built from state, then kept in step. */
  constructor(private readonly state: WatchableState) {
    state.watch(CollectionPrefix.COLLECTION, (key, value) => {
      const address = key.slice(1, 33);
      if (value === null) return; // collections are never deleted
      this.collections.set(hex(address), decodeCollectionRecord(address, value));
      if (!this.byEvm.has(hex(address.subarray(12)))) this.byEvm.set(hex(address.subarray(12)), address);
    });
    // The owner index needs the previous owner of a rewritten record: drop the id wherever it was.
    const owners = new Map<string, string>();
    state.watch(CollectionPrefix.NFT, (key, value) => {
      const collection = key.slice(1, 33);
      const id = keyId(key, 33);
      const slot = `${hex(collection)}:${id}`;
      const previous = owners.get(slot);
      if (previous !== undefined) this.nftsByOwner.get(previous)?.delete(slot);
      if (value === null) {
        owners.delete(slot);
        return;
      }
      const record = decodeNftRecord(collection, id, value);
      const owner = hex(record.owner);
      owners.set(slot, owner);
      let held = this.nftsByOwner.get(owner);
      if (!held) this.nftsByOwner.set(owner, (held = new Map()));
      held.set(slot, record);
    });
    state.watch(CollectionPrefix.TOKEN_TYPE, (key, value) => {
      const collection = key.slice(1, 33);
      const id = keyId(key, 33);
      let list = this.types.get(hex(collection));
      if (!list) this.types.set(hex(collection), (list = new Map()));
      if (value === null) list.delete(id);
      else list.set(id, decodeTokenTypeRecord(collection, id, value));
    });
  }

  collection(address: Uint8Array): CollectionRecord | undefined {
    return this.collections.get(hex(address));
  }

  /**
   * A collection by any text form a caller may hold: `Nx2…`, its `0x` + 64 hex form, or the EVM form
   * (`0x` + 40 hex) wallets show; undefined for other text or when no collection is there.
   */
  byText(text: string): CollectionRecord | undefined {
    if (text.startsWith(COLLECTION_ID_PREFIX)) {
      const address = decodeCollectionText(text);
      return address ? this.collection(address) : undefined;
    }
    if (/^0x[0-9a-fA-F]{64}$/.test(text)) return this.collection(Buffer.from(text.slice(2), 'hex'));
    if (/^0x[0-9a-fA-F]{40}$/.test(text)) return this.collectionByEvm(Buffer.from(text.slice(2), 'hex'));
    return undefined;
  }

  /** A collection by its EVM-form address (the last 20 bytes). */
  collectionByEvm(address20: Uint8Array): CollectionRecord | undefined {
    const address = this.byEvm.get(hex(address20));
    return address ? this.collection(address) : undefined;
  }

  nft(collection: Uint8Array, tokenId: bigint): NftRecord | undefined {
    const v = this.state.get(nftKey(collection, tokenId));
    return v ? decodeNftRecord(collection, tokenId, v) : undefined;
  }

  /** How many of the collection's NFTs `owner` holds (ERC-721 balanceOf). */
  nftCount(collection: Uint8Array, owner: Uint8Array): bigint {
    return u64At(this.state.get(nftCountKey(collection, owner)));
  }

  /** NFTs held by `owner`, optionally in one collection, ordered by collection then token id. */
  nftsOf(owner: Uint8Array, collection?: Uint8Array): NftRecord[] {
    const held = [...(this.nftsByOwner.get(hex(owner))?.values() ?? [])];
    const mine = collection ? held.filter((n) => Buffer.compare(n.collection, collection) === 0) : held;
    return mine.sort((a, b) => Buffer.compare(a.collection, b.collection) || (a.tokenId < b.tokenId ? -1 : a.tokenId > b.tokenId ? 1 : 0));
  }

  tokenType(collection: Uint8Array, typeId: bigint): TokenTypeRecord | undefined {
    return this.types.get(hex(collection))?.get(typeId);
  }

  /** The collection's token types ordered by id. */
  tokenTypes(collection: Uint8Array): TokenTypeRecord[] {
    return [...(this.types.get(hex(collection))?.values() ?? [])].sort((a, b) => (a.typeId < b.typeId ? -1 : a.typeId > b.typeId ? 1 : 0));
  }

  multiBalance(collection: Uint8Array, typeId: bigint, owner: Uint8Array): bigint {
    return u128At(this.state.get(multiBalanceKey(collection, typeId, owner)));
  }
}
