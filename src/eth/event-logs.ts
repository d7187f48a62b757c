/**
 * Which native receipt events an EVM wallet sees as logs, and how (spec §4.18 eth_getLogs "ERC-20
 * Transfer, ERC-721 Transfer, ERC-1155 events"; docs/eth.md "Logs"): STD-7 token transfers as
 * ERC-20 Transfer, NFT transfers as ERC-721 Transfer (tokenId indexed), multi-token transfers as
 * ERC-1155 TransferSingle/TransferBatch. The log's address is the token's or the collection's EVM
 * form. Native-coin movements are value transfers, not token events: no log, as on Ethereum.
 */
import { encodeAbiParameters, keccak256, type Hex } from 'viem';
import { parseAddress, parseMint } from '../codec/address.js';
import { decodeCollectionText } from '../chain/collections.js';
import type { ReceiptEvent } from '../chain/receipts.js';
import { evmOf, hex, isNativeMintBytes } from './units.js';

/** keccak256("Transfer(address,address,uint256)"): ERC-20 and ERC-721 Transfer. */
export const TRANSFER_TOPIC: Hex = keccak256(Buffer.from('Transfer(address,address,uint256)'));
export const TRANSFER_SINGLE_TOPIC: Hex = keccak256(Buffer.from('TransferSingle(address,address,address,uint256,uint256)'));
export const TRANSFER_BATCH_TOPIC: Hex = keccak256(Buffer.from('TransferBatch(address,address,address,uint256[],uint256[])'));

const word = (n: bigint | string): Hex => `0x${BigInt(n).toString(16).padStart(64, '0')}`;
/** The full 32-byte account: for EVM-form accounts this is the usual left-padded address. */
const account = (text: string): Hex => hex(parseAddress(text));

/** The log an event shows as, without its block and position fields; undefined when it shows none. */
export function eventLog(event: ReceiptEvent): { address: Hex; topics: Hex[]; data: Hex } | undefined {
  switch (event.type) {
    case 'Transfer': {
      const mint = parseMint(event.token);
      if (isNativeMintBytes(mint)) return undefined;
      return { address: evmOf(mint), topics: [TRANSFER_TOPIC, account(event.from), account(event.to)], data: word(event.amount) };
    }
    case 'NftTransfer':
      // ERC-721 indexes all three arguments, so the data is empty.
      return { address: evmOf(decodeCollectionText(event.collection)!), topics: [TRANSFER_TOPIC, account(event.from), account(event.to), word(event.token_id)], data: '0x' };
    case 'MultiTokenTransfer': {
      const address = evmOf(decodeCollectionText(event.collection)!);
      const parties = [account(event.operator), account(event.from), account(event.to)];
      if (!event.batch) {
        const [only] = event.entries;
        return { address, topics: [TRANSFER_SINGLE_TOPIC, ...parties], data: encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [BigInt(only!.type_id), BigInt(only!.amount)]) };
      }
      const data = encodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], [event.entries.map((e) => BigInt(e.type_id)), event.entries.map((e) => BigInt(e.amount))]);
      return { address, topics: [TRANSFER_BATCH_TOPIC, ...parties], data };
    }
    default:
      return undefined;
  }
}
