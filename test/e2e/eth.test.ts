import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPublicClient, createWalletClient, defineChain, erc20Abi, http, parseEventLogs, parseTransaction, serializeTransaction,
  type Hex, type PublicClient,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { TestNode, sleep } from './harness.js';

const CHAIN_ID = 1618032;
const SYSTEM_NTV = `0x${'00'.repeat(31)}01`; // 0x…01 holds NTV on testnet
const SYSTEM_USDC = `0x${'00'.repeat(31)}07`; // 0x…07 holds the testnet USDC float
const GWEI = 1_000_000_000n;

let node: TestNode;
let publicClient: PublicClient;
let usdc: Hex;
const chain = defineChain({
  id: CHAIN_ID, name: 'ntv-testnet', nativeCurrency: { name: 'NTV', symbol: 'NTV', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1'] } },
});

beforeAll(async () => {
  node = await TestNode.start({ args: ['--block-time', '1'] });
  publicClient = createPublicClient({ chain, transport: http(node.url) });
  const info = await node.result<{ mint_address: string }>('svc_getTokenInfo', ['USDC']);
  const mint32 = await node.result<{ evm_address: string }>('svc_getAccount', [info.mint_address]).catch(() => undefined);
  // The token's EVM form: last 20 bytes of its mint (svc_getAccount parses any address form).
  usdc = (mint32?.evm_address ?? '') as Hex;
  expect(usdc).toMatch(/^0x[0-9a-f]{40}$/);
}, 30_000);

afterAll(async () => {
  await node?.stop();
});

/** A fresh EVM account funded from the system accounts with NTV (and USDC when asked). */
async function fundedAccount(ntv: bigint, usdcRaw = 0n) {
  const account = privateKeyToAccount(generatePrivateKey());
  await node.result('svc_transfer', [SYSTEM_NTV, account.address, 'NTV', ntv.toString()]);
  if (usdcRaw > 0n) await node.result('svc_transfer', [SYSTEM_USDC, account.address, 'USDC', usdcRaw.toString()]);
  return { account, wallet: createWalletClient({ account, chain, transport: http(node.url) }) };
}

async function receiptOf(hash: Hex) {
  return publicClient.waitForTransactionReceipt({ hash, pollingInterval: 200, timeout: 20_000 });
}


describe('eth_* adapter with viem clients', () => {
  it('identity: chain ID, block number, client version, gas price', async () => {
    expect(await publicClient.getChainId()).toBe(CHAIN_ID);
    expect(await node.result('net_version')).toBe(String(CHAIN_ID));
    expect(await publicClient.getBlockNumber()).toBeGreaterThanOrEqual(0n);
    expect(await node.result('web3_clientVersion')).toMatch(/\//);
    expect(await publicClient.getGasPrice()).toBe(10n * GWEI); // --gas-price 10 nanoNTV
    expect(await node.result('eth_maxPriorityFeePerGas')).toBe('0x0');
    expect(await node.result('eth_accounts')).toEqual([]);
    expect(await node.result('eth_syncing')).toBe(false);
  });

  it('balances in wei and ERC-20 reads of genesis USDC', async () => {
    const { account } = await fundedAccount(5n * GWEI, 2_500_000n);
    expect(await publicClient.getBalance({ address: account.address })).toBe(5n * GWEI * GWEI);
    const read = (functionName: 'name' | 'symbol' | 'decimals' | 'totalSupply') => publicClient.readContract({ address: usdc, abi: erc20Abi, functionName });
    expect(await read('symbol')).toBe('USDC');
    expect(await read('name')).toBe('USD Coin');
    expect(await read('decimals')).toBe(6);
    const info = await node.result<{ total_supply: string }>('svc_getTokenInfo', ['USDC']);
    expect(await read('totalSupply')).toBe(BigInt(info.total_supply));
    expect(await publicClient.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [account.address] })).toBe(2_500_000n);
    expect(await publicClient.readContract({ address: usdc, abi: erc20Abi, functionName: 'allowance', args: [account.address, account.address] })).toBe(0n);
    expect(await publicClient.getCode({ address: usdc })).toMatch(/^0xfe/);
    expect(await publicClient.getCode({ address: account.address })).toBeUndefined(); // viem maps 0x to undefined
    expect(await node.result('eth_call', [{ to: account.address, data: '0x06fdde03' }])).toBe('0x');
    const supports = await node.result('eth_call', [{ to: usdc, data: '0x01ffc9a780ac58cd00000000000000000000000000000000000000000000000000000000' }]);
    expect(BigInt(supports as string)).toBe(0n); // not ERC-721
    // Malformed arguments revert, as the contract would (no data), rather than -32602.
    expect(await node.rpcError('eth_call', [{ to: usdc, data: '0xa9059cbb' }])).toMatchObject({ code: 3, data: '0x' });
  });

  it('a signed EIP-1559 native transfer: hash, receipt, balances, nonce, block forms', async () => {
    const { account, wallet } = await fundedAccount(10n * GWEI);
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const hash = await wallet.sendTransaction({ to, value: 3n * GWEI * GWEI, type: 'eip1559' });
    const receipt = await receiptOf(hash);
    expect(receipt.status).toBe('success');
    expect(receipt.gasUsed).toBe(21_000n);
    expect(receipt.effectiveGasPrice).toBe(10n * GWEI);
    expect(receipt.logs).toEqual([]);
    expect(await publicClient.getBalance({ address: to })).toBe(3n * GWEI * GWEI);
    // 10 NTV − 3 NTV − 21,000 gas × 10 nanoNTV
    expect(await publicClient.getBalance({ address: account.address })).toBe((7n * GWEI - 210_000n) * GWEI);
    expect(await publicClient.getTransactionCount({ address: account.address })).toBe(1);

    const tx = await publicClient.getTransaction({ hash });
    expect(tx.from).toBe(account.address.toLowerCase());
    expect(tx.to).toBe(to.toLowerCase());
    expect(tx.value).toBe(3n * GWEI * GWEI);
    expect(tx.type).toBe('eip1559');
    expect(tx.blockNumber).toBe(receipt.blockNumber);

    const block = await publicClient.getBlock({ blockNumber: receipt.blockNumber, includeTransactions: false });
    expect(block.transactions).toContain(hash);
    expect(block.baseFeePerGas).toBe(10n * GWEI);
    const full = await publicClient.getBlock({ blockHash: block.hash!, includeTransactions: true });
    expect(full.transactions.find((t) => t.hash === hash)?.from).toBe(account.address.toLowerCase());
  });

  it('an ERC-20 transfer: balances, receipt logs and eth_getLogs with filters', async () => {
    const { account, wallet } = await fundedAccount(GWEI, 5_000_000n);
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const hash = await wallet.writeContract({ address: usdc, abi: erc20Abi, functionName: 'transfer', args: [to, 1_250_000n] });
    const receipt = await receiptOf(hash);
    expect(receipt.status).toBe('success');
    const [log] = parseEventLogs({ abi: erc20Abi, logs: receipt.logs, eventName: 'Transfer' });
    expect(log?.address).toBe(usdc);
    expect(log?.args).toEqual({ from: account.address, to, value: 1_250_000n });
    expect(await publicClient.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [to] })).toBe(1_250_000n);

    const logs = await publicClient.getContractEvents({
      address: usdc, abi: erc20Abi, eventName: 'Transfer', args: { to }, fromBlock: 0n, toBlock: 'latest',
    });
    expect(logs).toHaveLength(1);
    expect(logs[0]!.transactionHash).toBe(hash);
    const byHash = await node.result<unknown[]>('eth_getLogs', [{ blockHash: receipt.blockHash, address: usdc }]);
    expect(byHash.length).toBeGreaterThanOrEqual(1);
    expect(await node.result('eth_getLogs', [{ fromBlock: '0x0', address: to }])).toEqual([]); // no token at that address
    const wrongTopic = await node.result('eth_getLogs', [{ fromBlock: '0x0', topics: [`0x${'11'.repeat(32)}`] }]);
    expect(wrongTopic).toEqual([]);
    // Native transfers leave no logs: the funding transfers do not show.
    const all = await node.result<Array<{ address: string }>>('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }]);
    expect(all.every((l) => l.address !== `0x${'00'.repeat(20)}`)).toBe(true);
  });

  it('legacy (EIP-155) and EIP-2930 transactions', async () => {
    const { account, wallet } = await fundedAccount(10n * GWEI);
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const legacy = await wallet.sendTransaction({ to, value: GWEI * GWEI, type: 'legacy', gasPrice: 10n * GWEI });
    expect((await receiptOf(legacy)).status).toBe('success');
    const eip2930 = await wallet.sendTransaction({ to, value: 2n * GWEI * GWEI, type: 'eip2930', gasPrice: 20n * GWEI, accessList: [] });
    const r = await receiptOf(eip2930);
    expect(r.status).toBe('success');
    expect(r.type).toBe('eip2930');
    expect(await publicClient.getBalance({ address: to })).toBe(3n * GWEI * GWEI);
    expect(await publicClient.getTransactionCount({ address: account.address, blockTag: 'pending' })).toBe(2);
    expect((await publicClient.getTransaction({ hash: legacy })).type).toBe('legacy');
  });

  it('refuses a wrong chain ID, a bad signature, unpayable and unrepresentable transactions', async () => {
    const { account } = await fundedAccount(GWEI);
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const base = { to, value: GWEI, gas: 21_000n, nonce: 0, maxFeePerGas: 20n * GWEI, maxPriorityFeePerGas: 0n, type: 'eip1559' as const };
    const wrongChain = await account.signTransaction({ ...base, chainId: 1 });
    const e1 = await node.rpcError('eth_sendRawTransaction', [wrongChain]);
    // geth's code and text for every admission refusal (docs/eth.md "Errors"), the status in data.
    expect(e1.code).toBe(-32000);
    expect(e1.message).toBe(`invalid chain id for signer: have 1 want ${CHAIN_ID}`);
    expect(e1.data?.status).toBe('WRONG_CHAIN_ID');

    const good = await account.signTransaction({ ...base, chainId: CHAIN_ID });
    const parsed = parseTransaction(good);
    // r beyond the curve order recovers nobody.
    const badSig = serializeTransaction({ ...parsed, chainId: CHAIN_ID, type: 'eip1559' } as never, {
      r: `0x${'ff'.repeat(32)}`, s: parsed.s!, yParity: parsed.yParity!,
    });
    const e2 = await node.rpcError('eth_sendRawTransaction', [badSig]);
    expect(e2.code).toBe(-32000);
    expect(e2.message).toBe('invalid sender: the signature does not recover a sender');
    expect(e2.data?.status).toBe('BAD_SIGNATURE');
    // A tampered value recovers some other, empty account: nothing to pay with.
    const tampered = serializeTransaction({ ...parsed, value: 2n * GWEI } as never, { r: parsed.r!, s: parsed.s!, yParity: parsed.yParity! });
    expect((await node.rpcError('eth_sendRawTransaction', [tampered])).message).toMatch(/^insufficient funds for gas \* price \+ value: /);

    const dust = await account.signTransaction({ ...base, chainId: CHAIN_ID, value: GWEI + 1n });
    expect((await node.rpcError('eth_sendRawTransaction', [dust])).data?.status).toBe('VALUE_NOT_REPRESENTABLE');
    const cheap = await account.signTransaction({ ...base, chainId: CHAIN_ID, maxFeePerGas: GWEI });
    expect((await node.rpcError('eth_sendRawTransaction', [cheap])).data?.status).toBe('FEE_CAP_TOO_LOW');
    const unsigned = serializeTransaction({ ...base, chainId: CHAIN_ID });
    expect((await node.rpcError('eth_sendRawTransaction', [unsigned])).code).toBe(-32000);
    const call = await account.signTransaction({ ...base, chainId: CHAIN_ID, value: 0n, data: '0x1234' });
    expect((await node.rpcError('eth_sendRawTransaction', [call])).data?.status).toBe('UNSUPPORTED_CALL');
    expect((await node.rpcError('eth_sendRawTransaction', ['0xzz'])).code).toBe(-32602);
    const malformed = await node.rpcError('eth_sendRawTransaction', ['0x0102']);
    expect(malformed.data?.status).toBe('MALFORMED_TRANSACTION');
    // The decoder's own text stays inside the node.
    expect(malformed.message).toBe('invalid transaction: not a valid signed transaction (malformed RLP, field or type byte)');

    // The good one goes through; sending it again once included is geth's "nonce too low".
    const hash = await node.result<Hex>('eth_sendRawTransaction', [good]);
    expect((await receiptOf(hash)).status).toBe('success');
    expect((await node.rpcError('eth_sendRawTransaction', [good])).message).toMatch(/^nonce too low: /);
  });

  it('counts the sender\'s waiting transactions against its funds, in geth\'s words with wei (docs/mempool.md "Funds")', async () => {
    // 1 NTV; 0.6 NTV waits at nonce 0, so 0.6 NTV more at nonce 1 is more than is left.
    const { account } = await fundedAccount(GWEI);
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const base = { to, value: 600_000_000n * GWEI, gas: 21_000n, maxFeePerGas: 20n * GWEI, maxPriorityFeePerGas: 0n, type: 'eip1559' as const, chainId: CHAIN_ID };
    const first = await node.result<Hex>('eth_sendRawTransaction', [await account.signTransaction({ ...base, nonce: 0 })]);
    const second = await node.rpcError('eth_sendRawTransaction', [await account.signTransaction({ ...base, nonce: 1 })]);
    const fee = 21_000n * 10n; // gas limit × the node's price, nanoNTV
    const [have, want] = [GWEI - 600_000_000n - fee, 600_000_000n + fee].map((nano) => nano * GWEI);
    expect(second).toMatchObject({ code: -32000, data: { status: 'INSUFFICIENT_FUNDS' } });
    expect(second.message.toLowerCase()).toBe(`insufficient funds for gas * price + value: address ${account.address.toLowerCase()} have ${have} want ${want}`);
    expect((await receiptOf(first)).status).toBe('success');
    expect(await publicClient.getTransactionCount({ address: account.address })).toBe(1);
  });

  it('null and edge cases of every read method', async () => {
    const unknown = `0x${'ab'.repeat(32)}`;
    expect(await node.result('eth_getTransactionByHash', [unknown])).toBeNull();
    expect(await node.result('eth_getTransactionReceipt', [unknown])).toBeNull();
    expect(await node.result('eth_getBlockByHash', [unknown, false])).toBeNull();
    expect(await node.result('eth_getBlockByNumber', ['0xffffffff', false])).toBeNull();
    const genesis = await node.result<{ number: string; transactions: unknown[]; parentHash: string }>('eth_getBlockByNumber', ['earliest', true]);
    expect(genesis.number).toBe('0x0');
    expect(genesis.transactions).toEqual([]);
    for (const tag of ['latest', 'pending', 'safe', 'finalized']) {
      expect(await node.result('eth_getBlockByNumber', [tag, false])).toMatchObject({ hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    }
    const who = `0x${'12'.repeat(20)}`;
    expect(await node.result('eth_getBalance', [who, 'latest'])).toBe('0x0');
    expect(await node.result('eth_getTransactionCount', [who, 'earliest'])).toBe('0x0');
    expect(await node.rpcError('eth_getBalance', [who, '0xffffffff'])).toMatchObject({ code: -32000, message: expect.stringMatching(/^header not found/) });
    expect((await node.rpcError('eth_getBalance', ['0x1234', 'latest'])).code).toBe(-32602);
    expect((await node.rpcError('eth_getBlockByNumber', ['newest', false])).code).toBe(-32602);
    expect((await node.rpcError('eth_getLogs', [{ fromBlock: '0x5', toBlock: '0x2' }])).code).toBe(-32602);
    expect((await node.rpcError('eth_getLogs', [{ blockHash: unknown, fromBlock: '0x0' }])).code).toBe(-32602);
    expect((await node.rpcError('eth_getLogs', [{ fromBlock: '0x0', toBlock: '0x2710' }])).code).toBe(-32015);
    expect(await node.result('eth_getLogs', [{ fromBlock: '0xffffff', toBlock: '0xffffff' }])).toEqual([]);
    expect((await node.rpcError('eth_estimateGas', [{ to: who, value: '0x1' }])).data?.status).toBe('VALUE_NOT_REPRESENTABLE');
    expect(await node.result('eth_estimateGas', [{ to: who, value: '0x3b9aca00' }])).toBe('0x5208');
    expect((await node.rpcError('eth_estimateGas', [{ from: who, to: who, value: '0x3b9aca00' }])).message).toMatch(/^insufficient funds for gas \* price \+ value/);
    // An ERC-20 call's estimate covers its calldata's intrinsic gas (21,000 + 16 or 4 per byte).
    const transferData = `0xa9059cbb${'00'.repeat(12)}${'12'.repeat(20)}${'00'.repeat(31)}01`;
    expect(BigInt(await node.result<string>('eth_estimateGas', [{ to: usdc, data: transferData }]))).toBe(21_000n + 4n * 16n + 12n * 4n + 20n * 16n + 31n * 4n + 16n);
    const history = await publicClient.getFeeHistory({ blockCount: 3, rewardPercentiles: [25, 75] });
    expect(history.baseFeePerGas.length).toBe(history.gasUsedRatio.length + 1);
    expect(history.reward?.[0]).toHaveLength(2);
  });

  it('EVM transaction hashes and receipts survive a restart', async () => {
    const { wallet } = await fundedAccount(2n * GWEI);
    const hash = await wallet.sendTransaction({ to: privateKeyToAccount(generatePrivateKey()).address, value: GWEI * GWEI });
    const before = await receiptOf(hash);
    await node.kill9();
    await node.launch();
    const after = await node.result<{ transactionHash: string; blockHash: string; status: string }>('eth_getTransactionReceipt', [hash]);
    expect(after).toMatchObject({ transactionHash: hash, blockHash: before.blockHash, status: '0x1' });
    expect(await node.result<{ hash: string }>('eth_getTransactionByHash', [hash])).toMatchObject({ hash });
    await sleep(10);
  }, 60_000);
});
