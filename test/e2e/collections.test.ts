import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPublicClient, createWalletClient, defineChain, erc1155Abi, erc721Abi, http, parseAbi, parseEventLogs, type Hex, type Log, type PublicClient,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { Contract, JsonRpcProvider } from 'ethers';
import { Web3 } from 'web3';
import { Signer } from '../../src/codec/keys.js';
import { decodeCollectionText } from '../../src/domains/collections/reader.js';
import { TestNode } from './harness.js';
import { bundleFor, signedHex, systemAddressHex } from './bundles.js';

// Spec §4.3 NFT collections and §4.4 multi-token collections end to end (docs/collections.md), over
// JSON-RPC and, as an EVM wallet sees them, as ERC-721 and ERC-1155 contracts through viem
// (spec §4.18, issue "Real clients": ownerOf, tokenURI, TransferSingle, TransferBatch).

const CHAIN_ID = 1618032;
const chain = defineChain({
  id: CHAIN_ID, name: 'ntv-testnet', nativeCurrency: { name: 'NTV', symbol: 'NTV', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1'] } },
});
const erc165 = parseAbi(['function supportsInterface(bytes4 interfaceId) view returns (bool)']);
const SYSTEM = systemAddressHex(1);

interface Receipt { status: string; status_name: string; block_height: number; created?: { collection?: string }; events: Array<Record<string, unknown>> }
interface Collection { address: string; address_evm: Hex; kind: string; name: string; symbol: string; owner: string; max_supply: string | null; total_supply: string; minted: string; burned: string; royalty_bps: number; description: string; icon_uri: string }
interface Nft { collection: string; token_id: string; owner: string; metadata_uri: string; token_uri: string }
interface TokenType { type_id: string; name: string; is_fungible: boolean; max_supply: string | null; total_supply: string; uri: string }

let node: TestNode;
let client: PublicClient;
const owner = Signer.generate();
const alice = privateKeyToAccount(generatePrivateKey()); // an EVM wallet's account
const bob = Signer.generate();
const carol = privateKeyToAccount(generatePrivateKey());
const aliceWallet = () => createWalletClient({ account: alice, chain, transport: http(node.url) });

async function ok(method: string, params: unknown[]): Promise<Receipt> {
  const receipt = await node.result<Receipt>(method, params);
  expect(receipt.status, `${method} ${receipt.status_name}`).toBe('success');
  return receipt;
}


beforeAll(async () => {
  node = await TestNode.start({ args: ['--block-time', '1'] });
  client = createPublicClient({ chain, transport: http(node.url) });
  // Fees of the unsigned convenience bundles come from each sender's NTV.
  for (const who of [owner.address, alice.address, bob.address]) await ok('svc_transfer', [SYSTEM, who, 'NTV', '50000000000']);
}, 60_000);

afterAll(async () => {
  await node?.stop();
});

describe('NFT collections (spec §4.3)', () => {
  let collection: Collection;

  it('creates a collection, mints, transfers and burns; reads agree at every step', async () => {
    const created = await ok('svc_createNftCollection', ['Sunsets', 'SUN', 'ipfs://sun/', 3, 250, owner.address, 'Evening skies', 'ipfs://icon', null]);
    expect(created.created?.collection).toMatch(/^Nx2/);
    expect(created.events.find((e) => e.type === 'CollectionCreated')).toMatchObject({ kind: 'nft', owner: owner.address, creator: owner.address });
    collection = await node.result<Collection>('svc_getNftCollection', [created.created!.collection]);
    expect(collection).toMatchObject({
      kind: 'nft', name: 'Sunsets', symbol: 'SUN', owner: owner.address, max_supply: '3', total_supply: '0', royalty_bps: 250,
      description: 'Evening skies', icon_uri: 'ipfs://icon',
    });

    const minted = await ok('svc_mintNft', [collection.address, 1, 'ipfs://sun/one.json', alice.address, owner.address]);
    expect(minted.events.find((e) => e.type === 'NftTransfer')).toMatchObject({ token_id: '1', to: expect.stringMatching(/^Nx0/) });
    await ok('svc_mintNft', [collection.address, '2', '', alice.address, owner.address]);
    await ok('svc_mintNft', [collection.address, 3, '', bob.address, owner.address]);
    expect(await node.result<Nft>('svc_getNft', [collection.address, 1])).toMatchObject({ token_id: '1', metadata_uri: 'ipfs://sun/one.json', token_uri: 'ipfs://sun/one.json' });
    // without a metadata URI of its own, a token's URI is base_uri + id
    expect((await node.result<Nft>('svc_getNft', [collection.address, 2])).token_uri).toBe('ipfs://sun/2');
    expect((await node.result<Nft[]>('svc_listNftsByOwner', [alice.address, null, 10])).map((n) => n.token_id)).toEqual(['1', '2']);

    // max_supply 3 caps the tokens ever minted
    const capped = await node.rpcError('svc_mintNft', [collection.address, 4, '', bob.address, owner.address]);
    expect(capped.data?.status).toBe('MAX_SUPPLY_REACHED');

    await ok('svc_transferNft', [collection.address, 2, bob.address, alice.address]);
    expect((await node.result<Nft>('svc_getNft', [collection.address, 2])).owner).toBe(bob.address);
    expect((await node.result<Nft[]>('svc_listNftsByOwner', [bob.address, collection.address])).map((n) => n.token_id)).toEqual(['2', '3']);

    await ok('svc_burnNft', [collection.address, 3, bob.address]);
    expect((await node.rpcError('svc_getNft', [collection.address, 3])).code).toBe(-32003);
    expect(await node.result<Collection>('svc_getNftCollection', [collection.address])).toMatchObject({ total_supply: '2', minted: '3', burned: '1' });
  });

  it('refuses what the roles and rules forbid, naming why, and changes nothing', async () => {
    const notOwner = await node.rpcError('svc_transferNft', [collection.address, 1, bob.address, bob.address]);
    expect(notOwner.code).toBe(-32002);
    expect(notOwner.data?.status).toBe('NOT_NFT_OWNER');
    const burnByOther = await node.rpcError('svc_burnNft', [collection.address, 1, bob.address]);
    expect(burnByOther.data?.status).toBe('NOT_NFT_OWNER');
    const mintByOther = await node.rpcError('svc_mintNft', [collection.address, 9, '', bob.address, bob.address]);
    expect(mintByOther.data?.status).toBe('NOT_COLLECTION_OWNER');
    expect((await node.result<Nft>('svc_getNft', [collection.address, 1])).owner).not.toBe(bob.address);

    const toZero = await node.rpcError('svc_transferNft', [collection.address, 2, `0x${'0'.repeat(64)}`, bob.address]);
    expect(toZero.data?.status).toBe('ZERO_RECIPIENT');
    const unknown = await node.rpcError('svc_getNftCollection', [`Nx2${'1'.repeat(32)}`]);
    expect(unknown.code).toBe(-32003);
    const badId = await node.rpcError('svc_getNft', [collection.address, '18446744073709551616']);
    expect(badId.code).toBe(-32602);
    expect(badId.message).toMatch(/token_id/);
    const negative = await node.rpcError('svc_getNft', [collection.address, -1]);
    expect(negative.code).toBe(-32602);
    const badRoyalty = await node.rpcError('svc_createNftCollection', ['X', 'X', '', 0, 10_001, owner.address]);
    expect(badRoyalty.code).toBe(-32602);
    const badSymbol = await node.rpcError('svc_createNftCollection', ['X', 'X-1', '', 0, 0, owner.address]);
    expect(badSymbol.code).toBe(-32602);
  });

  it('is an ERC-721 contract to an EVM wallet: reads, interface ids, reverts and Transfer logs', async () => {
    const address = collection.address_evm;
    expect(address).toMatch(/^0x[0-9a-f]{40}$/);
    const read = (functionName: string, args: unknown[] = []) =>
      client.readContract({ address, abi: erc721Abi, functionName: functionName as 'name', args: args as [] });
    expect(await read('name')).toBe('Sunsets');
    expect(await read('symbol')).toBe('SUN');
    expect(await read('totalSupply')).toBe(2n);
    expect(await read('balanceOf', [alice.address])).toBe(1n);
    expect((await read('ownerOf', [1n]) as string).toLowerCase()).toBe(alice.address.toLowerCase());
    expect(await read('tokenURI', [2n])).toBe('ipfs://sun/2');
    await expect(read('ownerOf', [3n])).rejects.toThrow(/invalid token ID/);
    expect(await client.readContract({ address, abi: erc165, functionName: 'supportsInterface', args: ['0x80ac58cd'] })).toBe(true);
    expect(await client.readContract({ address, abi: erc165, functionName: 'supportsInterface', args: ['0xd9b67a26'] })).toBe(false);
    expect(await client.getCode({ address })).toMatch(/^0xfe/);
    // the explorer's search box finds a collection by either of its forms
    for (const q of [collection.address, address]) {
      expect(await node.result('svc_search', [q])).toMatchObject({ type: 'collection', address: collection.address, collection: { name: 'Sunsets' } });
    }
    expect(await node.result('svc_search', [`Nx2${'1'.repeat(32)}`])).toMatchObject({ type: 'not_found' });

    const logs = await client.request({ method: 'eth_getLogs', params: [{ address, fromBlock: '0x0', toBlock: 'latest' }] }) as Log[];
    const transfers = parseEventLogs({ abi: erc721Abi, logs, eventName: 'Transfer' });
    // mints of 1, 2, 3 (from zero), 2 to bob, 3 burned (to zero)
    expect(transfers.map((t) => t.args.tokenId)).toEqual([1n, 2n, 3n, 2n, 3n]);
    expect(transfers[0]!.args.from).toBe('0x0000000000000000000000000000000000000000');
    expect(transfers[0]!.args.to.toLowerCase()).toBe(alice.address.toLowerCase());
    expect(transfers[4]!.args.to).toBe('0x0000000000000000000000000000000000000000');
    // tokenId is indexed: a topic filter selects one token's history
    const two = await client.request({ method: 'eth_getLogs', params: [{ address, fromBlock: '0x0', toBlock: 'latest', topics: [transfers[0]!.topics[0], null, null, `0x${'0'.repeat(63)}2`] }] }) as Log[];
    expect(two).toHaveLength(2);
  });

  it('takes an ERC-721 transferFrom signed by an EVM wallet as a native TransferNft', async () => {
    const address = collection.address_evm;
    const args = [alice.address, carol.address, 1n] as const;
    // the estimate is the core's charge for the operation: 5,000 base + 25,000 (docs/collections.md "Gas")
    expect(await client.estimateContractGas({ address, abi: erc721Abi, functionName: 'transferFrom', args, account: alice })).toBe(30_000n);
    const hash = await aliceWallet().writeContract({ address, abi: erc721Abi, functionName: 'transferFrom', args });
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 200, timeout: 20_000 });
    expect(receipt.status).toBe('success');
    expect(receipt.gasUsed).toBe(30_000n);
    expect(parseEventLogs({ abi: erc721Abi, logs: receipt.logs, eventName: 'Transfer' }).map((l) => [l.args.from, l.args.to, l.args.tokenId]))
      .toEqual([[alice.address, carol.address, 1n]]);
    expect((await client.readContract({ address, abi: erc721Abi, functionName: 'ownerOf', args: [1n] })).toLowerCase()).toBe(carol.address.toLowerCase());
    // no approvals natively: moving someone else's token is refused at admission
    await expect(aliceWallet().writeContract({ address, abi: erc721Abi, functionName: 'transferFrom', args: [carol.address, alice.address, 1n], gas: 30_000n }))
      .rejects.toThrow(/not the sender|no approvals/);
  });

  it('takes a signed MintNft bundle through svc_submitBundle', async () => {
    const signer = Signer.generate();
    await ok('svc_transfer', [SYSTEM, signer.address, 'NTV', '5000000000']);
    const own = await ok('svc_createNftCollection', ['Signed', 'SIG', '', 0, 0, signer.address]);
    const address = decodeCollectionText(own.created!.collection!)!;
    const nonce = BigInt((await node.result<{ pending_nonce: string }>('svc_getAccount', [signer.address])).pending_nonce);
    const receipt = await node.result<Receipt>('svc_submitBundle', [
      signedHex(signer, bundleFor(signer, nonce, [{ type: 'MintNft', collection: address, tokenId: 7n, metadataUri: 'ipfs://seven', recipient: bob.account }], { senderPubkey: signer.publicKey })),
    ]);
    expect(receipt.status).toBe('success');
    expect((await node.result<Nft>('svc_getNft', [own.created!.collection, 7])).owner).toBe(bob.address);
  });
});

describe('multi-token collections (spec §4.4)', () => {
  let collection: Collection;

  it('defines fungible and non-fungible types, mints, transfers, batches and burns', async () => {
    const created = await ok('svc_createMultiTokenCollection', ['Game Items', 'ITEM', 'https://items.example/', 500, owner.address]);
    collection = await node.result<Collection>('svc_getMultiTokenCollection', [created.created!.collection]);
    expect(collection).toMatchObject({ kind: 'multi', symbol: 'ITEM', royalty_bps: 500, max_supply: null });
    await ok('svc_defineTokenType', [collection.address, 1, 'Gold', '', '1000000', true, owner.address]);
    await ok('svc_defineTokenType', [collection.address, 2, 'Sword of Dawn', 'ipfs://sword', '1', false, owner.address]);
    await ok('svc_defineTokenType', [collection.address, 3, 'Potion', '', '0', true, owner.address]);
    expect((await node.result<TokenType[]>('svc_listTokenTypes', [collection.address, 10])).map((t) => [t.type_id, t.is_fungible, t.max_supply]))
      .toEqual([['1', true, '1000000'], ['2', false, '1'], ['3', true, null]]);
    expect(await node.result<TokenType>('svc_getTokenType', [collection.address, 1])).toMatchObject({ name: 'Gold', uri: 'https://items.example/1' });

    await ok('svc_mintMultiToken', [collection.address, 1, alice.address, '600', owner.address]);
    const nonFungibleTwice = await node.rpcError('svc_mintMultiToken', [collection.address, 2, alice.address, '2', owner.address]);
    expect(nonFungibleTwice.data?.status).toBe('NON_FUNGIBLE_SUPPLY');
    await ok('svc_batchMintMultiToken', [collection.address, [
      { type_id: 2, recipient: alice.address, amount: '1' },
      { type_id: 3, recipient: alice.address, amount: '40' },
      { type_id: 3, recipient: bob.address, amount: '5' },
    ], owner.address]);
    const balance = (type: number, who: string) => node.result<string>('svc_getMultiTokenBalance', [collection.address, type, who]);
    expect([await balance(1, alice.address), await balance(2, alice.address), await balance(3, alice.address), await balance(3, bob.address)]).toEqual(['600', '1', '40', '5']);

    await ok('svc_transferMultiToken', [collection.address, 1, bob.address, '100', alice.address]);
    await ok('svc_batchTransferMultiToken', [collection.address, [{ type_id: 1, to: bob.address, amount: '50' }, { type_id: 3, to: bob.address, amount: '10' }], alice.address]);
    await ok('svc_burnMultiToken', [collection.address, 3, '15', bob.address]);
    expect([await balance(1, alice.address), await balance(1, bob.address), await balance(3, alice.address), await balance(3, bob.address)]).toEqual(['450', '150', '30', '0']);
    expect(await node.result<TokenType>('svc_getTokenType', [collection.address, 3])).toMatchObject({ total_supply: '30' });
  });

  it('a failing batch entry reverts the whole batch; bad input is a clear error', async () => {
    const before = await node.result<string>('svc_getMultiTokenBalance', [collection.address, 1, bob.address]);
    // 10 of type 1 is fine, 10,000 of type 3 is more than alice holds: neither moves
    const failed = await node.rpcError('svc_batchTransferMultiToken', [collection.address, [{ type_id: 1, to: bob.address, amount: '10' }, { type_id: 3, to: bob.address, amount: '10000' }], alice.address]);
    expect(failed.data?.status).toBe('INSUFFICIENT_BALANCE');
    expect(await node.result<string>('svc_getMultiTokenBalance', [collection.address, 1, bob.address])).toBe(before);

    expect((await node.rpcError('svc_mintMultiToken', [collection.address, 99, bob.address, '1', owner.address])).data?.status).toBe('TOKEN_TYPE_NOT_FOUND');
    expect((await node.rpcError('svc_defineTokenType', [collection.address, 1, 'Again', '', '0', true, owner.address])).data?.status).toBe('TOKEN_TYPE_EXISTS');
    expect((await node.rpcError('svc_getTokenType', [collection.address, 99])).code).toBe(-32003);
    expect((await node.rpcError('svc_transferMultiToken', [collection.address, 1, bob.address, '0', alice.address])).code).toBe(-32602);
    expect((await node.rpcError('svc_batchMintMultiToken', [collection.address, [], owner.address])).code).toBe(-32602);
    const overflow = await node.rpcError('svc_mintMultiToken', [collection.address, 3, bob.address, (1n << 128n).toString(), owner.address]);
    expect(overflow.code).toBe(-32602);
    // a multi-token collection is not an NFT collection, and the reverse
    expect((await node.rpcError('svc_getNftCollection', [collection.address])).message).toMatch(/multi-token collection, not a NFT collection/);
  });

  it('is an ERC-1155 contract to an EVM wallet: balances, uri, TransferSingle and TransferBatch logs', async () => {
    const address = collection.address_evm;
    expect(await client.readContract({ address, abi: erc1155Abi, functionName: 'balanceOf', args: [alice.address, 1n] })).toBe(450n);
    const bobEvm = `0x${Buffer.from(bob.account.subarray(12)).toString('hex')}` as Hex;
    expect(await client.readContract({ address, abi: erc1155Abi, functionName: 'balanceOfBatch', args: [[alice.address, alice.address], [1n, 3n]] })).toEqual([450n, 30n]);
    expect(await client.readContract({ address, abi: erc1155Abi, functionName: 'uri', args: [2n] })).toBe('ipfs://sword');
    expect(await client.readContract({ address, abi: erc165, functionName: 'supportsInterface', args: ['0xd9b67a26'] })).toBe(true);
    expect(bobEvm).toMatch(/^0x[0-9a-f]{40}$/);

    const logs = await client.request({ method: 'eth_getLogs', params: [{ address, fromBlock: '0x0', toBlock: 'latest' }] }) as Log[];
    const singles = parseEventLogs({ abi: erc1155Abi, logs, eventName: 'TransferSingle' });
    const batches = parseEventLogs({ abi: erc1155Abi, logs, eventName: 'TransferBatch' });
    // mint 600 of 1, transfer 100 of 1, burn 15 of 3
    expect(singles.map((s) => [s.args.id, s.args.value])).toEqual([[1n, 600n], [1n, 100n], [3n, 15n]]);
    expect(singles[2]!.args.to).toBe('0x0000000000000000000000000000000000000000');
    // the batch mint is one operation per recipient (alice: types 2 and 3; bob: 3), then alice's batch transfer
    expect(batches.map((b) => [b.args.ids, b.args.values])).toEqual([[[2n, 3n], [1n, 40n]], [[3n], [5n]], [[1n, 3n], [50n, 10n]]]);
    expect(batches[2]!.args.from.toLowerCase()).toBe(alice.address.toLowerCase());
  });

  it('takes an ERC-1155 safeBatchTransferFrom signed by an EVM wallet as a native batch transfer', async () => {
    const address = collection.address_evm;
    const hash = await aliceWallet().writeContract({
      address, abi: erc1155Abi, functionName: 'safeBatchTransferFrom', args: [alice.address, carol.address, [1n, 3n], [25n, 5n], '0x'],
    });
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 200, timeout: 20_000 });
    expect(receipt.status).toBe('success');
    expect(receipt.gasUsed).toBe(30_000n); // 5,000 + 15,000 + 2 × 5,000
    const [batch] = parseEventLogs({ abi: erc1155Abi, logs: receipt.logs, eventName: 'TransferBatch' });
    expect([batch!.args.ids, batch!.args.values]).toEqual([[1n, 3n], [25n, 5n]]);
    expect(await client.readContract({ address, abi: erc1155Abi, functionName: 'balanceOfBatch', args: [[carol.address, carol.address], [1n, 3n]] })).toEqual([25n, 5n]);
  });
});

describe('collections at past blocks (issue 42 item 1; docs/eth.md "Block parameters")', () => {
  it('ethers, viem and web3.js read ownerOf, balanceOf, totalSupply, tokenURI and ERC-1155 balances as of each block', async () => {
    const nft = await ok('svc_createNftCollection', ['Tides', 'TIDE', 'ipfs://tide/', 10, 0, owner.address, '', '', null]);
    const nftAddress = nft.created!.collection!;
    const nftEvm = (await node.result<Collection>('svc_getNftCollection', [nftAddress])).address_evm;
    const minted = await ok('svc_mintNft', [nftAddress, 1, '', alice.address, owner.address]);
    const moved = await ok('svc_transferNft', [nftAddress, 1, carol.address, alice.address]);
    const multi = await ok('svc_createMultiTokenCollection', ['Shells', 'SHELL', 'https://shells.example/', 0, owner.address]);
    const multiAddress = multi.created!.collection!;
    const multiEvm = (await node.result<Collection>('svc_getMultiTokenCollection', [multiAddress])).address_evm;
    await ok('svc_defineTokenType', [multiAddress, 1, 'Pearl', '', '1000', true, owner.address]);
    const pearls = await ok('svc_mintMultiToken', [multiAddress, 1, alice.address, '70', owner.address]);
    const given = await ok('svc_transferMultiToken', [multiAddress, 1, carol.address, '30', alice.address]);
    // each step in its own block, so each height below names the state between two steps
    expect(nft.block_height < minted.block_height && minted.block_height < moved.block_height && moved.block_height < multi.block_height).toBe(true);
    expect(pearls.block_height < given.block_height).toBe(true);

    const provider = new JsonRpcProvider(node.url, CHAIN_ID, { staticNetwork: true });
    const web3 = new Web3(node.url);
    try {
      const ethersNft = new Contract(nftEvm, erc721Abi, provider);
      const web3Nft = new web3.eth.Contract(erc721Abi, nftEvm);
      const nftAt = async (height: number) => {
        const blockNumber = BigInt(height);
        const owned = await client.readContract({ address: nftEvm, abi: erc721Abi, functionName: 'ownerOf', args: [1n], blockNumber }).then((o) => o.toLowerCase(), () => 'none');
        return {
          owner: owned,
          ethersOwner: await ethersNft.getFunction('ownerOf').staticCall(1n, { blockTag: height }).then((o: string) => o.toLowerCase(), () => 'none'),
          web3Owner: await web3Nft.methods.ownerOf(1n).call(undefined, height).then((o) => String(o).toLowerCase(), () => 'none'),
          alice: await client.readContract({ address: nftEvm, abi: erc721Abi, functionName: 'balanceOf', args: [alice.address], blockNumber }),
          carol: await ethersNft.getFunction('balanceOf').staticCall(carol.address, { blockTag: height }) as bigint,
          supply: await web3Nft.methods.totalSupply().call(undefined, height),
        };
      };
      const none = { owner: 'none', ethersOwner: 'none', web3Owner: 'none', alice: 0n, carol: 0n, supply: 0n };
      const at = (who: string) => ({ owner: who.toLowerCase(), ethersOwner: who.toLowerCase(), web3Owner: who.toLowerCase() });
      expect(await nftAt(nft.block_height)).toEqual(none);
      expect(await nftAt(minted.block_height)).toEqual({ ...at(alice.address), alice: 1n, carol: 0n, supply: 1n });
      expect(await nftAt(moved.block_height - 1)).toEqual({ ...at(alice.address), alice: 1n, carol: 0n, supply: 1n });
      expect(await nftAt(moved.block_height)).toEqual({ ...at(carol.address), alice: 0n, carol: 1n, supply: 1n });
      expect(await client.readContract({ address: nftEvm, abi: erc721Abi, functionName: 'tokenURI', args: [1n], blockNumber: BigInt(minted.block_height) })).toBe('ipfs://tide/1');
      // before the collection existed: no code, so an empty answer, as geth gives for such an address
      const before = `0x${(nft.block_height - 1).toString(16)}`;
      expect(await node.result('eth_call', [{ to: nftEvm, data: '0x18160ddd' }, before])).toBe('0x');
      expect(await node.result('eth_getCode', [nftEvm, before])).toBe('0x');

      const ethersMulti = new Contract(multiEvm, erc1155Abi, provider);
      const web3Multi = new web3.eth.Contract(erc1155Abi, multiEvm);
      const multiAt = async (height: number) => ({
        viem: await client.readContract({ address: multiEvm, abi: erc1155Abi, functionName: 'balanceOfBatch', args: [[alice.address, carol.address], [1n, 1n]], blockNumber: BigInt(height) }),
        ethers: [...await ethersMulti.getFunction('balanceOfBatch').staticCall([alice.address, carol.address], [1n, 1n], { blockTag: height }) as bigint[]],
        web3: [await web3Multi.methods.balanceOf(alice.address, 1n).call(undefined, height), await web3Multi.methods.balanceOf(carol.address, 1n).call(undefined, height)],
      });
      const both = (a: bigint, c: bigint) => ({ viem: [a, c], ethers: [a, c], web3: [a, c] });
      expect(await multiAt(pearls.block_height - 1)).toEqual(both(0n, 0n));
      expect(await multiAt(pearls.block_height)).toEqual(both(70n, 0n));
      expect(await multiAt(given.block_height)).toEqual(both(40n, 30n));
    } finally {
      provider.destroy();
    }
  }, 60_000);
});

describe('rpc.discover', () => {
  it('lists every collection method with its params', async () => {
    const doc = await node.result<{ methods: Array<{ name: string; params: unknown[] }> }>('rpc.discover');
    const names = new Set(doc.methods.map((m) => m.name));
    for (const m of [
      'svc_createNftCollection', 'svc_mintNft', 'svc_transferNft', 'svc_burnNft', 'svc_getNft', 'svc_listNftsByOwner', 'svc_getNftCollection',
      'svc_createMultiTokenCollection', 'svc_defineTokenType', 'svc_mintMultiToken', 'svc_batchMintMultiToken', 'svc_transferMultiToken',
      'svc_batchTransferMultiToken', 'svc_burnMultiToken', 'svc_getMultiTokenBalance', 'svc_getTokenType', 'svc_getMultiTokenCollection', 'svc_listTokenTypes',
    ]) expect(names.has(m), m).toBe(true);
  });
});
