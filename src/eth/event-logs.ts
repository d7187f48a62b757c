/**
 * Which native receipt events an EVM wallet sees as logs, and how (spec §4.18 eth_getLogs "ERC-20
 * Transfer, ERC-721 Transfer, ERC-1155 events", §6 rule 5; docs/eth.md "Logs"): every STD-7 token
 * movement as an ERC-20 Transfer — the Transfer operation's, and those of swaps, liquidity, pool
 * creation and token creation (src/chain/token-movements.ts) — NFT transfers as ERC-721 Transfer
 * (tokenId indexed), multi-token transfers as ERC-1155 TransferSingle/TransferBatch. The log's
 * address is the token's or the collection's EVM form. An Approve shows as ERC-20 Approval
 * (docs/allowances.md); a TransferFrom is a Transfer event, so it shows as ERC-20 Transfer. Native-coin movements are value transfers,
 * not token events: no log, as on Ethereum.
 */
import { encodeAbiParameters, keccak256, type Hex } from 'viem';
import { parseAddress, parseMint } from '../codec/address.js';
import { parsePool } from '../core/amm.js';
import { tokenMovements } from '../chain/token-movements.js';
import { decodeCollectionText } from '../domains/collections/reader.js';
import type { ReceiptEvent } from '../chain/receipts.js';
import { evmAllowance, evmOf, hex, isNativeMintBytes } from '../chain/evm/units.js';

/** keccak256("Transfer(address,address,uint256)"): ERC-20 and ERC-721 Transfer. */
export const TRANSFER_TOPIC: Hex = keccak256(Buffer.from('Transfer(address,address,uint256)'));
/** keccak256("Approval(address,address,uint256)"): ERC-20 Approval (docs/allowances.md). */
export const APPROVAL_TOPIC: Hex = keccak256(Buffer.from('Approval(address,address,uint256)'));
export const TRANSFER_SINGLE_TOPIC: Hex = keccak256(Buffer.from('TransferSingle(address,address,address,uint256,uint256)'));
export const TRANSFER_BATCH_TOPIC: Hex = keccak256(Buffer.from('TransferBatch(address,address,address,uint256[],uint256[])'));

const word = (n: bigint | string): Hex => `0x${BigInt(n).toString(16).padStart(64, '0')}`;
/**
 * The full 32-byte account: for EVM-form accounts this is the usual left-padded address; a pool
 * (`Nx8…`) is its 32-byte address too.
 */
const account = (text: string): Hex => hex(parsePool(text) ?? parseAddress(text));

export type EventLog = { address: Hex; topics: Hex[]; data: Hex };

/** The logs an event shows as, in order, without their block and position fields; none for most kinds. */
export function eventLogs(event: ReceiptEvent): EventLog[] {
  switch (event.type) {
    case 'Approval':
      // Approval(owner indexed, spender indexed, value); the infinite allowance as 2^256−1.
      return [{ address: evmOf(parseMint(event.token)), topics: [APPROVAL_TOPIC, account(event.owner), account(event.spender)], data: word(evmAllowance(BigInt(event.amount))) }];
    case 'NftTransfer':
      // ERC-721 indexes all three arguments, so the data is empty.
      return [{ address: evmOf(decodeCollectionText(event.collection)!), topics: [TRANSFER_TOPIC, account(event.from), account(event.to), word(event.token_id)], data: '0x' }];
    case 'MultiTokenTransfer': {
      const address = evmOf(decodeCollectionText(event.collection)!);
      const parties = [account(event.operator), account(event.from), account(event.to)];
      if (!event.batch) {
        const [only] = event.entries;
        return [{ address, topics: [TRANSFER_SINGLE_TOPIC, ...parties], data: encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [BigInt(only!.type_id), BigInt(only!.amount)]) }];
      }
      const data = encodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], [event.entries.map((e) => BigInt(e.type_id)), event.entries.map((e) => BigInt(e.amount))]);
      return [{ address, topics: [TRANSFER_BATCH_TOPIC, ...parties], data }];
    }
    default: {
      // ERC-20 Transfer(from indexed, to indexed, value): one per STD-7 token moved, none for NTV.
      const logs: EventLog[] = [];
      for (const m of tokenMovements(event)) {
        const mint = parseMint(m.token);
        if (isNativeMintBytes(mint)) continue;
        logs.push({ address: evmOf(mint), topics: [TRANSFER_TOPIC, account(m.from), account(m.to)], data: word(m.amount) });
      }
      return logs;
    }
  }
}
