/**
 * eth_call on collection addresses (spec §4.18 "ERC-20/721/1155 selectors"; docs/eth.md "eth_call";
 * docs/collections.md): an NFT collection answers as an ERC-721 contract with its metadata extension, a
 * multi-token collection as an ERC-1155 contract with its metadata-URI extension, both from native
 * state. There are no approvals natively (only the holder moves its tokens), so `getApproved` is the
 * zero address and `isApprovedForAll` false. ABI work is viem's.
 */
import { decodeFunctionData, encodeFunctionResult, erc1155Abi, erc721Abi, parseAbi, type Hex } from 'viem';
import type { CollectionReads, CollectionRecord } from '../domains/collections/reader.js';
import { tokenUri } from '../domains/collections/reader.js';
import { executionReverted, noSuchFunction, type EthCallError } from './errors.js';
import { accountOfEvm, evmOf, U64_MAX } from '../chain/evm/units.js';

const erc165Abi = parseAbi(['function supportsInterface(bytes4 interfaceId) view returns (bool)']);
/** name() and symbol(): not part of ERC-1155, but wallets and explorers call them on any collection. */
const namedAbi = parseAbi(['function name() view returns (string)', 'function symbol() view returns (string)']);
const ERC165 = '0x01ffc9a7';
/** ERC-721 and its metadata extension; ERC-1155 and its metadata-URI extension (their EIPs' interface ids). */
const INTERFACES = { nft: new Set([ERC165, '0x80ac58cd', '0x5b5e139f']), multi: new Set([ERC165, '0xd9b67a26', '0x0e89341c']) };
const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

function unsupported(selector: string, kind: 'nft' | 'multi'): EthCallError {
  const reads = kind === 'nft'
    ? 'name, symbol, totalSupply, balanceOf, ownerOf, tokenURI, getApproved, isApprovedForAll, supportsInterface'
    : 'name, symbol, balanceOf, balanceOfBatch, uri, isApprovedForAll, supportsInterface';
  return noSuchFunction(selector, `the ${kind === 'nft' ? 'ERC-721' : 'ERC-1155'} reads are ${reads}; or malformed arguments`);
}

/** Decode against each ABI in turn; the first that knows the selector and accepts the arguments wins. */
function decodeWith(data: Hex, abis: readonly (readonly unknown[])[]): { functionName: string; args: readonly unknown[] } | undefined {
  for (const abi of abis) {
    try {
      const call = decodeFunctionData({ abi: abi as typeof erc721Abi, data }) as { functionName: string; args?: readonly unknown[] };
      return { functionName: call.functionName, args: call.args ?? [] };
    } catch {
      // not this ABI
    }
  }
  return undefined;
}

/** The answer to a read call on a collection, ABI-encoded: at the head (CollectionReader) or a past block (collectionReadsAt). */
export function callCollection(reader: CollectionReads, c: CollectionRecord, data: Hex): Hex {
  const selector = data.slice(0, 10).toLowerCase();
  const call = decodeWith(data, [erc165Abi, namedAbi, c.kind === 'nft' ? erc721Abi : erc1155Abi]);
  if (!call) throw unsupported(selector, c.kind);
  const { functionName: fn, args } = call;
  const id = (i: number) => args[i] as bigint;
  /** Ids are u64 natively; a larger uint256 names no token (the ERC-721/1155 answer for an unknown id). */
  const native = (i: number) => id(i) <= U64_MAX;
  switch (fn) {
    case 'supportsInterface':
      return encodeFunctionResult({ abi: erc165Abi, functionName: fn, result: INTERFACES[c.kind].has((args[0] as string).toLowerCase()) });
    case 'name':
    case 'symbol':
      return encodeFunctionResult({ abi: namedAbi, functionName: fn, result: fn === 'name' ? c.name : c.symbol });
    case 'isApprovedForAll':
      return encodeFunctionResult({ abi: erc721Abi, functionName: fn, result: false });
  }
  if (c.kind === 'nft') {
    const nft = (i: number) => {
      const n = native(i) ? reader.nft(c.address, id(i)) : undefined;
      if (!n) throw executionReverted('ERC721: invalid token ID');
      return n;
    };
    switch (fn) {
      case 'totalSupply':
        return encodeFunctionResult({ abi: erc721Abi, functionName: fn, result: c.minted - c.burned });
      case 'balanceOf':
        return encodeFunctionResult({ abi: erc721Abi, functionName: fn, result: reader.nftCount(c.address, accountOfEvm(args[0] as Hex)) });
      case 'ownerOf':
        return encodeFunctionResult({ abi: erc721Abi, functionName: fn, result: evmOf(nft(0).owner) });
      case 'tokenURI':
        return encodeFunctionResult({ abi: erc721Abi, functionName: fn, result: tokenUri(c, nft(0).metadataUri, id(0)) });
      case 'getApproved':
        nft(0);
        return encodeFunctionResult({ abi: erc721Abi, functionName: fn, result: ZERO_ADDRESS });
    }
  } else {
    const balance = (account: Hex, typeId: bigint) => (typeId <= U64_MAX ? reader.multiBalance(c.address, typeId, accountOfEvm(account)) : 0n);
    switch (fn) {
      case 'balanceOf':
        return encodeFunctionResult({ abi: erc1155Abi, functionName: fn, result: balance(args[0] as Hex, id(1)) });
      case 'balanceOfBatch': {
        const [accounts, ids] = args as [readonly Hex[], readonly bigint[]];
        if (accounts.length !== ids.length) throw executionReverted('ERC1155: accounts and ids length mismatch');
        return encodeFunctionResult({ abi: erc1155Abi, functionName: fn, result: accounts.map((a, i) => balance(a, ids[i]!)) });
      }
      case 'uri': {
        const t = native(0) ? reader.tokenType(c.address, id(0)) : undefined;
        if (!t) throw executionReverted('ERC1155: token type is not defined');
        return encodeFunctionResult({ abi: erc1155Abi, functionName: fn, result: tokenUri(c, t.metadataUri, id(0)) });
      }
    }
  }
  // Transfers and approvals change state: send them as signed transactions or native bundles.
  throw unsupported(selector, c.kind);
}
