/**
 * NFT and multi-token collections' wallet helpers (37–47; docs/collections.md): the signed path of
 * svc_createNftCollection … svc_burnMultiToken. Composed into Wallet (src/client/wallet.ts).
 */
import { decodeCollectionText } from '../../codec/address.js';
import type { BatchEntry } from '../../codec/bundle.js';
import type { BundleOptions, SubmitResult, WalletCore } from '../../client/wallet-core.js';
import { accountBytes, toBigInt, type AccountRef, type Amount, type CollectionRef } from '../../client/args.js';

export class CollectionClient {
  /** CreateNftCollection (37; docs/collections.md): the receipt's `created.collection` is its Nx2… address. */
  async createNftCollection(this: WalletCore, params: CreateNftCollectionParams, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({
      type: 'CreateNftCollection', name: params.name, symbol: params.symbol, baseUri: params.baseUri ?? '',
      maxSupply: toBigInt(params.maxSupply ?? 0n, 'maxSupply'), royaltyBps: params.royaltyBps ?? 0,
      owner: params.owner === undefined ? this.account : accountBytes(params.owner, 'owner'), ...collectionTexts(params),
    }, opts);
  }

  /** MintNft (38), collection owner only; `metadataUri` "" uses the collection's base_uri + id. */
  async mintNft(this: WalletCore, collection: CollectionRef, tokenId: Amount, metadataUri: string, recipient: AccountRef, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({
      type: 'MintNft', collection: collectionBytes(collection), tokenId: toBigInt(tokenId, 'tokenId'), metadataUri, recipient: accountBytes(recipient, 'recipient'),
    }, opts);
  }

  /** TransferNft (39): a token this account holds. */
  async transferNft(this: WalletCore, collection: CollectionRef, tokenId: Amount, to: AccountRef, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'TransferNft', collection: collectionBytes(collection), tokenId: toBigInt(tokenId, 'tokenId'), to: accountBytes(to, 'to') }, opts);
  }

  /** BurnNft (40): a token this account holds. */
  async burnNft(this: WalletCore, collection: CollectionRef, tokenId: Amount, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'BurnNft', collection: collectionBytes(collection), tokenId: toBigInt(tokenId, 'tokenId') }, opts);
  }

  /** CreateMultiTokenCollection (41; docs/collections.md): the receipt's `created.collection` is its Nx2… address. */
  async createMultiTokenCollection(this: WalletCore, params: CreateMultiTokenCollectionParams, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({
      type: 'CreateMultiTokenCollection', name: params.name, symbol: params.symbol, baseUri: params.baseUri ?? '',
      royaltyBps: params.royaltyBps ?? 0, owner: params.owner === undefined ? this.account : accountBytes(params.owner, 'owner'), ...collectionTexts(params),
    }, opts);
  }

  /** DefineTokenType (42), collection owner only: `maxSupply` 0 = unlimited; a non-fungible type has supply 1. */
  async defineTokenType(this: WalletCore, collection: CollectionRef, typeId: Amount, name: string, metadataUri: string, maxSupply: Amount, isFungible: boolean, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({
      type: 'DefineTokenType', collection: collectionBytes(collection), typeId: toBigInt(typeId, 'typeId'), name, metadataUri,
      maxSupply: toBigInt(maxSupply, 'maxSupply'), isFungible,
    }, opts);
  }

  /** MintMultiToken (43), collection owner only. */
  async mintMultiToken(this: WalletCore, collection: CollectionRef, typeId: Amount, recipient: AccountRef, amount: Amount, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({
      type: 'MintMultiToken', collection: collectionBytes(collection), typeId: toBigInt(typeId, 'typeId'), recipient: accountBytes(recipient, 'recipient'), amount: toBigInt(amount, 'amount'),
    }, opts);
  }

  /** BatchMintMultiToken (46), collection owner only: 1–16 entries to one recipient, applied in order. */
  async batchMintMultiToken(this: WalletCore, collection: CollectionRef, recipient: AccountRef, entries: BatchEntryInput[], opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'BatchMintMultiToken', collection: collectionBytes(collection), recipient: accountBytes(recipient, 'recipient'), entries: batchEntries(entries) }, opts);
  }

  /** TransferMultiToken (44): from this account's balance. */
  async transferMultiToken(this: WalletCore, collection: CollectionRef, typeId: Amount, to: AccountRef, amount: Amount, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({
      type: 'TransferMultiToken', collection: collectionBytes(collection), typeId: toBigInt(typeId, 'typeId'), to: accountBytes(to, 'to'), amount: toBigInt(amount, 'amount'),
    }, opts);
  }

  /** BatchTransferMultiToken (47): 1–16 entries to one recipient, applied in order. */
  async batchTransferMultiToken(this: WalletCore, collection: CollectionRef, to: AccountRef, entries: BatchEntryInput[], opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'BatchTransferMultiToken', collection: collectionBytes(collection), to: accountBytes(to, 'to'), entries: batchEntries(entries) }, opts);
  }

  /** BurnMultiToken (45): from this account's balance. */
  async burnMultiToken(this: WalletCore, collection: CollectionRef, typeId: Amount, amount: Amount, opts: BundleOptions = {}): Promise<SubmitResult> {
    return this.sendOperation({ type: 'BurnMultiToken', collection: collectionBytes(collection), typeId: toBigInt(typeId, 'typeId'), amount: toBigInt(amount, 'amount') }, opts);
  }
}

export interface BatchEntryInput {
  typeId: Amount;
  amount: Amount;
}

interface CollectionTextParams {
  /** Default "". */
  description?: string;
  iconUri?: string;
  bannerUri?: string;
  externalUrl?: string;
}

export interface CreateNftCollectionParams extends CollectionTextParams {
  name: string;
  symbol: string;
  /** Default "". */
  baseUri?: string;
  /** Most tokens ever minted; default 0 = unlimited. */
  maxSupply?: Amount;
  /** Default 0. */
  royaltyBps?: number;
  /** Who mints; default this wallet's account. */
  owner?: AccountRef;
}

export interface CreateMultiTokenCollectionParams extends CollectionTextParams {
  name: string;
  symbol: string;
  baseUri?: string;
  royaltyBps?: number;
  /** Who defines types and mints; default this wallet's account. */
  owner?: AccountRef;
}

function collectionBytes(value: CollectionRef): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (typeof value === 'string' && /^0x[0-9a-fA-F]{64}$/.test(value)) return new Uint8Array(Buffer.from(value.slice(2), 'hex'));
  const bytes = typeof value === 'string' ? decodeCollectionText(value) : undefined;
  if (!bytes) throw new Error(`collection: expected Nx2… (base58 of 32 bytes), 0x + 64 hex or 32 bytes, got ${JSON.stringify(value)}`);
  return bytes;
}

function collectionTexts(params: CollectionTextParams): { description: string; iconUri: string; bannerUri: string; externalUrl: string } {
  return { description: params.description ?? '', iconUri: params.iconUri ?? '', bannerUri: params.bannerUri ?? '', externalUrl: params.externalUrl ?? '' };
}

function batchEntries(entries: BatchEntryInput[]): BatchEntry[] {
  return entries.map((e, i) => ({ typeId: toBigInt(e.typeId, `entries[${i}].typeId`), amount: toBigInt(e.amount, `entries[${i}].amount`) }));
}
