import { BorshReader, BorshWriter } from './borsh.js';

/**
 * NFT and multi-token collection operations (spec §4.3, §4.4; docs/nfts.md "Operations"),
 * discriminants 37–47. Only the Borsh shape is checked here; lengths, the symbol alphabet, royalty
 * and supply rules are the core's to refuse with a status (docs/nfts.md "Statuses").
 */

export const CollectionOpCode = {
  CreateNftCollection: 37,
  MintNft: 38,
  TransferNft: 39,
  BurnNft: 40,
  CreateMultiTokenCollection: 41,
  DefineTokenType: 42,
  MintMultiToken: 43,
  TransferMultiToken: 44,
  BurnMultiToken: 45,
  BatchMintMultiToken: 46,
  BatchTransferMultiToken: 47,
} as const;
export type CollectionOpName = keyof typeof CollectionOpCode;

/** Codec bound per string before anything is allocated; the core applies the exact limits. */
export const MAX_COLLECTION_STRING_BYTES = 4096;
/** Entries of one batch operation (docs/nfts.md: 1–16; the core refuses others with INVALID_BATCH). */
export const MAX_BATCH_ENTRIES = 16;
/** The codec's own bound on a batch's length prefix, so a test can still send 17 and see the core refuse it. */
const CODEC_BATCH_BOUND = 1024;

/** The descriptive strings shared by both collection kinds, in their Borsh order after `owner`. */
export interface CollectionDetails {
  description: string;
  iconUri: string;
  bannerUri: string;
  externalUrl: string;
}
export interface CreateNftCollectionOp extends CollectionDetails {
  type: 'CreateNftCollection';
  name: string;
  symbol: string;
  baseUri: string;
  /** 0 = unlimited (u64) */
  maxSupply: bigint;
  royaltyBps: number;
  owner: Uint8Array;
}
export interface MintNftOp { type: 'MintNft'; collection: Uint8Array; tokenId: bigint; metadataUri: string; recipient: Uint8Array }
export interface TransferNftOp { type: 'TransferNft'; collection: Uint8Array; tokenId: bigint; to: Uint8Array }
export interface BurnNftOp { type: 'BurnNft'; collection: Uint8Array; tokenId: bigint }
export interface CreateMultiTokenCollectionOp extends CollectionDetails {
  type: 'CreateMultiTokenCollection';
  name: string;
  symbol: string;
  baseUri: string;
  royaltyBps: number;
  owner: Uint8Array;
}
export interface DefineTokenTypeOp {
  type: 'DefineTokenType';
  collection: Uint8Array;
  typeId: bigint;
  name: string;
  metadataUri: string;
  /** 0 = unlimited (u128); a non-fungible type has exactly 1 */
  maxSupply: bigint;
  isFungible: boolean;
}
export interface MintMultiTokenOp { type: 'MintMultiToken'; collection: Uint8Array; typeId: bigint; recipient: Uint8Array; amount: bigint }
export interface TransferMultiTokenOp { type: 'TransferMultiToken'; collection: Uint8Array; typeId: bigint; to: Uint8Array; amount: bigint }
export interface BurnMultiTokenOp { type: 'BurnMultiToken'; collection: Uint8Array; typeId: bigint; amount: bigint }
export interface BatchEntry { typeId: bigint; amount: bigint }
export interface BatchMintMultiTokenOp { type: 'BatchMintMultiToken'; collection: Uint8Array; recipient: Uint8Array; entries: BatchEntry[] }
export interface BatchTransferMultiTokenOp { type: 'BatchTransferMultiToken'; collection: Uint8Array; to: Uint8Array; entries: BatchEntry[] }

export type CollectionOperation = CreateNftCollectionOp | MintNftOp | TransferNftOp | BurnNftOp | CreateMultiTokenCollectionOp
  | DefineTokenTypeOp | MintMultiTokenOp | TransferMultiTokenOp | BurnMultiTokenOp | BatchMintMultiTokenOp | BatchTransferMultiTokenOp;

export function isCollectionOp(op: { type: string }): op is CollectionOperation {
  return op.type in CollectionOpCode;
}

const str = (w: BorshWriter, value: string, field: string) => w.string(value, field, MAX_COLLECTION_STRING_BYTES);

function writeDetails(w: BorshWriter, d: CollectionDetails): void {
  str(w, d.description, 'description');
  str(w, d.iconUri, 'icon_uri');
  str(w, d.bannerUri, 'banner_uri');
  str(w, d.externalUrl, 'external_url');
}

function writeEntries(w: BorshWriter, entries: BatchEntry[]): void {
  w.vecLength(entries.length, 'entries', CODEC_BATCH_BOUND);
  for (const [i, e] of entries.entries()) {
    w.u64(e.typeId, `entries[${i}].type_id`);
    w.u128(e.amount, `entries[${i}].amount`);
  }
}

export function writeCollectionOperation(w: BorshWriter, op: CollectionOperation): void {
  w.u8(CollectionOpCode[op.type], 'type');
  switch (op.type) {
    case 'CreateNftCollection':
    case 'CreateMultiTokenCollection':
      str(w, op.name, 'name');
      str(w, op.symbol, 'symbol');
      str(w, op.baseUri, 'base_uri');
      // Only an NFT collection caps its supply; a multi-token type carries its own (DefineTokenType).
      if (op.type === 'CreateNftCollection') w.u64(op.maxSupply, 'max_supply');
      w.u16(op.royaltyBps, 'royalty_bps');
      w.fixedBytes(op.owner, 32, 'owner');
      return writeDetails(w, op);
    case 'MintNft':
      w.fixedBytes(op.collection, 32, 'collection');
      w.u64(op.tokenId, 'token_id');
      str(w, op.metadataUri, 'metadata_uri');
      w.fixedBytes(op.recipient, 32, 'recipient');
      return;
    case 'TransferNft':
      w.fixedBytes(op.collection, 32, 'collection');
      w.u64(op.tokenId, 'token_id');
      w.fixedBytes(op.to, 32, 'to');
      return;
    case 'BurnNft':
      w.fixedBytes(op.collection, 32, 'collection');
      w.u64(op.tokenId, 'token_id');
      return;
    case 'DefineTokenType':
      w.fixedBytes(op.collection, 32, 'collection');
      w.u64(op.typeId, 'type_id');
      str(w, op.name, 'name');
      str(w, op.metadataUri, 'metadata_uri');
      w.u128(op.maxSupply, 'max_supply');
      w.bool(op.isFungible, 'is_fungible');
      return;
    case 'MintMultiToken':
    case 'TransferMultiToken':
      w.fixedBytes(op.collection, 32, 'collection');
      w.u64(op.typeId, 'type_id');
      w.fixedBytes(op.type === 'MintMultiToken' ? op.recipient : op.to, 32, op.type === 'MintMultiToken' ? 'recipient' : 'to');
      w.u128(op.amount, 'amount');
      return;
    case 'BurnMultiToken':
      w.fixedBytes(op.collection, 32, 'collection');
      w.u64(op.typeId, 'type_id');
      w.u128(op.amount, 'amount');
      return;
    case 'BatchMintMultiToken':
    case 'BatchTransferMultiToken':
      w.fixedBytes(op.collection, 32, 'collection');
      w.fixedBytes(op.type === 'BatchMintMultiToken' ? op.recipient : op.to, 32, op.type === 'BatchMintMultiToken' ? 'recipient' : 'to');
      return writeEntries(w, op.entries);
  }
}

const rstr = (r: BorshReader, field: string) => r.string(field, MAX_COLLECTION_STRING_BYTES);

function readDetails(r: BorshReader): CollectionDetails {
  return { description: rstr(r, 'description'), iconUri: rstr(r, 'icon_uri'), bannerUri: rstr(r, 'banner_uri'), externalUrl: rstr(r, 'external_url') };
}

function readEntries(r: BorshReader): BatchEntry[] {
  const n = r.vecLength('entries', CODEC_BATCH_BOUND);
  const entries: BatchEntry[] = [];
  for (let i = 0; i < n; i++) entries.push({ typeId: r.u64(`entries[${i}].type_id`), amount: r.u128(`entries[${i}].amount`) });
  return entries;
}

/** The operation after its discriminant `disc` (37–47), or undefined for another discriminant. */
export function readCollectionOperation(r: BorshReader, disc: number): CollectionOperation | undefined {
  switch (disc) {
    case CollectionOpCode.CreateNftCollection: {
      const name = rstr(r, 'name'), symbol = rstr(r, 'symbol'), baseUri = rstr(r, 'base_uri');
      const maxSupply = r.u64('max_supply'), royaltyBps = r.u16('royalty_bps'), owner = r.fixedBytes(32, 'owner');
      return { type: 'CreateNftCollection', name, symbol, baseUri, maxSupply, royaltyBps, owner, ...readDetails(r) };
    }
    case CollectionOpCode.CreateMultiTokenCollection: {
      const name = rstr(r, 'name'), symbol = rstr(r, 'symbol'), baseUri = rstr(r, 'base_uri');
      const royaltyBps = r.u16('royalty_bps'), owner = r.fixedBytes(32, 'owner');
      return { type: 'CreateMultiTokenCollection', name, symbol, baseUri, royaltyBps, owner, ...readDetails(r) };
    }
    case CollectionOpCode.MintNft:
      return { type: 'MintNft', collection: r.fixedBytes(32, 'collection'), tokenId: r.u64('token_id'), metadataUri: rstr(r, 'metadata_uri'), recipient: r.fixedBytes(32, 'recipient') };
    case CollectionOpCode.TransferNft:
      return { type: 'TransferNft', collection: r.fixedBytes(32, 'collection'), tokenId: r.u64('token_id'), to: r.fixedBytes(32, 'to') };
    case CollectionOpCode.BurnNft:
      return { type: 'BurnNft', collection: r.fixedBytes(32, 'collection'), tokenId: r.u64('token_id') };
    case CollectionOpCode.DefineTokenType:
      return {
        type: 'DefineTokenType', collection: r.fixedBytes(32, 'collection'), typeId: r.u64('type_id'), name: rstr(r, 'name'),
        metadataUri: rstr(r, 'metadata_uri'), maxSupply: r.u128('max_supply'), isFungible: r.bool('is_fungible'),
      };
    case CollectionOpCode.MintMultiToken:
      return { type: 'MintMultiToken', collection: r.fixedBytes(32, 'collection'), typeId: r.u64('type_id'), recipient: r.fixedBytes(32, 'recipient'), amount: r.u128('amount') };
    case CollectionOpCode.TransferMultiToken:
      return { type: 'TransferMultiToken', collection: r.fixedBytes(32, 'collection'), typeId: r.u64('type_id'), to: r.fixedBytes(32, 'to'), amount: r.u128('amount') };
    case CollectionOpCode.BurnMultiToken:
      return { type: 'BurnMultiToken', collection: r.fixedBytes(32, 'collection'), typeId: r.u64('type_id'), amount: r.u128('amount') };
    case CollectionOpCode.BatchMintMultiToken:
      return { type: 'BatchMintMultiToken', collection: r.fixedBytes(32, 'collection'), recipient: r.fixedBytes(32, 'recipient'), entries: readEntries(r) };
    case CollectionOpCode.BatchTransferMultiToken:
      return { type: 'BatchTransferMultiToken', collection: r.fixedBytes(32, 'collection'), to: r.fixedBytes(32, 'to'), entries: readEntries(r) };
    default:
      return undefined;
  }
}
