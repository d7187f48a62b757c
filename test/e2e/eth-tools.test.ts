// What dApps and wallets do against one running node, with the libraries they are written with
// (issue 26 items 1-3, 6; docs/eth.md "Events", "Errors", "More reads"): ethers 6, viem 2 and
// web3.js 4 over HTTP and WebSocket, the filter and subscription methods over raw JSON-RPC, and the
// execution-apis shape check of blocks, transactions, receipts and logs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Type, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import WebSocket from 'ws';
import { Contract, JsonRpcProvider, Wallet, WebSocketProvider, isError, type Log as EthersLog } from 'ethers';
import {
  BaseError, createPublicClient, createWalletClient, defineChain, erc20Abi, FeeCapTooLowError, http, InsufficientFundsError, keccak256,
  NonceTooLowError, webSocket, type Hex,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { Web3 } from 'web3';
import { EthBlockObject, EthLogObject, EthReceiptObject, EthTransactionObject } from '../../src/rpc/methods/eth-schemas.js';
import { TestNode, sleep } from './harness.js';
import { fundedEvm, SYSTEM_USDC, usdcEvmAddress } from './evm-accounts.js';

const CHAIN_ID = 1618032;
const GWEI = 1_000_000_000n;
const ERC20_ABI = [
  'function transfer(address to, uint256 amount) returns (bool)',
  'function balanceOf(address) view returns (uint256)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
];

let node: TestNode;
let usdc: Hex;
let wsUrl: string;
const chain = defineChain({
  id: CHAIN_ID, name: 'ntv-testnet', nativeCurrency: { name: 'NTV', symbol: 'NTV', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1'] } },
});
const cleanups: Array<() => unknown> = [];

beforeAll(async () => {
  node = await TestNode.start({ args: ['--block-time', '1'] });
  wsUrl = node.url.replace('http://', 'ws://');
  usdc = await usdcEvmAddress(node);
}, 30_000);

afterAll(async () => {
  for (const fn of cleanups.splice(0)) await fn();
  await node?.stop();
});

/** A USDC movement: the system float pays `to`, which leaves an ERC-20 Transfer log. */
const payUsdc = (to: string, amount: bigint) => node.result('svc_transfer', [SYSTEM_USDC, to, 'USDC', amount.toString()]);

async function until<T>(what: string, fn: () => T | undefined | Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** The error of a JSON-RPC call that must fail. */

describe('ethers 6', () => {
  it('contract.on("Transfer") fires over HTTP polling (eth_newFilter / eth_getFilterChanges)', async () => {
    const provider = new JsonRpcProvider(node.url, CHAIN_ID, { staticNetwork: true, pollingInterval: 200 });
    cleanups.push(() => provider.destroy());
    const to = Wallet.createRandom().address;
    const token = new Contract(usdc, ERC20_ABI, provider);
    const seen: Array<{ from: string; to: string; value: bigint; hash: string }> = [];
    await token.on('Transfer', (from: string, recipient: string, value: bigint, event: { log: EthersLog }) => {
      if (recipient === to) seen.push({ from, to: recipient, value, hash: event.log.transactionHash });
    });
    await sleep(2_000); // ethers installs the filter (eth_newFilter) on the first new block it polls
    await payUsdc(to, 1_234_567n);
    const got = await until('the Transfer event over HTTP', () => seen[0]);
    expect(got.to).toBe(to);
    expect(got.value).toBe(1_234_567n);
    await token.removeAllListeners();
  }, 30_000);

  it('contract.on("Transfer") and on("block") fire over WebSocket (eth_subscribe)', async () => {
    const provider = new WebSocketProvider(wsUrl, CHAIN_ID, { staticNetwork: true });
    cleanups.push(() => provider.destroy());
    const blocks: number[] = [];
    await provider.on('block', (n: number) => blocks.push(n));
    const to = Wallet.createRandom().address;
    const token = new Contract(usdc, ERC20_ABI, provider);
    const seen: bigint[] = [];
    await token.on('Transfer', (_from: string, recipient: string, value: bigint) => {
      if (recipient === to) seen.push(value);
    });
    await sleep(1_000); // the eth_subscribe request goes out after on() resolves
    await payUsdc(to, 42n);
    expect(await until('the Transfer event over WebSocket', () => seen[0])).toBe(42n);
    await until('two blocks over WebSocket', () => (blocks.length >= 2 ? blocks : undefined));
    expect(blocks[1]!).toBeGreaterThan(blocks[0]!);
    await provider.destroy();
  }, 30_000);

  it('nonce too low and a replacement underpriced arrive as NONCE_EXPIRED and REPLACEMENT_UNDERPRICED', async () => {
    const provider = new JsonRpcProvider(node.url, CHAIN_ID, { staticNetwork: true, pollingInterval: 200 });
    cleanups.push(() => provider.destroy());
    const { key } = await fundedEvm(node, 10n * GWEI);
    const wallet = new Wallet(key, provider);
    const to = Wallet.createRandom().address;
    const fees = { maxFeePerGas: 40n * GWEI, maxPriorityFeePerGas: 10n * GWEI, gasLimit: 21_000n, type: 2 };
    const first = await wallet.sendTransaction({ to, value: GWEI, nonce: 0, ...fees });
    await first.wait();
    // A different transaction at the used nonce (the same bytes again would answer their hash).
    const stale = await wallet.sendTransaction({ to, value: 2n * GWEI, nonce: 0, ...fees }).catch((e: unknown) => e);
    expect(isError(stale, 'NONCE_EXPIRED')).toBe(true);
    // Nonce 2 waits behind the gap at 1; the same tip again does not replace it (10% more needed).
    await wallet.sendTransaction({ to, value: GWEI, nonce: 2, ...fees });
    const again = await wallet.sendTransaction({ to, value: 2n * GWEI, nonce: 2, ...fees }).catch((e: unknown) => e);
    expect(isError(again, 'REPLACEMENT_UNDERPRICED')).toBe(true);
    const poor = await new Wallet(generatePrivateKey(), provider).sendTransaction({ to, value: GWEI, nonce: 0, ...fees }).catch((e: unknown) => e);
    expect(isError(poor, 'INSUFFICIENT_FUNDS')).toBe(true);
  }, 30_000);
});

describe('viem 2', () => {
  it('watchBlocks over WebSocket', async () => {
    const client = createPublicClient({ chain, transport: webSocket(wsUrl) });
    cleanups.push(async () => (await client.transport.getRpcClient()).close());
    const heights: bigint[] = [];
    const unwatch = client.watchBlocks({ onBlock: (block) => heights.push(block.number) });
    await until('two blocks from watchBlocks', () => (heights.length >= 2 ? heights : undefined));
    unwatch();
    expect(heights[1]! > heights[0]!).toBe(true);
  }, 30_000);

  it('watchContractEvent over WebSocket', async () => {
    const client = createPublicClient({ chain, transport: webSocket(wsUrl) });
    cleanups.push(async () => (await client.transport.getRpcClient()).close());
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const values: bigint[] = [];
    const unwatch = client.watchContractEvent({ address: usdc, abi: erc20Abi, eventName: 'Transfer', args: { to }, onLogs: (logs) => logs.forEach((l) => values.push(l.args.value!)) });
    await sleep(300);
    await payUsdc(to, 77n);
    expect(await until('the viem Transfer event', () => values[0])).toBe(77n);
    unwatch();
  }, 30_000);

  it('simulateContract of transfer, then writeContract; a transfer above the balance reverts', async () => {
    const { account } = await fundedEvm(node, GWEI, 5_000n);
    const client = createPublicClient({ chain, transport: http(node.url) });
    const wallet = createWalletClient({ account, chain, transport: http(node.url) });
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const { result, request } = await client.simulateContract({ account, address: usdc, abi: erc20Abi, functionName: 'transfer', args: [to, 4_000n] });
    expect(result).toBe(true);
    const hash = await wallet.writeContract(request);
    expect((await client.waitForTransactionReceipt({ hash, pollingInterval: 200 })).status).toBe('success');
    const tooMuch = await client.simulateContract({ account, address: usdc, abi: erc20Abi, functionName: 'transfer', args: [to, 4_000n] }).catch((e: unknown) => e);
    expect(tooMuch).toBeInstanceOf(BaseError);
    expect((tooMuch as BaseError).message).toContain('ERC20: transfer amount exceeds balance');
    // Sent anyway, the transfer is refused as the contract would revert: code 3, not "insufficient funds".
    const raw = await account.signTransaction({
      chainId: CHAIN_ID, type: 'eip1559', nonce: 1, to: usdc, gas: 30_000n, maxFeePerGas: 20n * GWEI, maxPriorityFeePerGas: 0n,
      data: `0xa9059cbb000000000000000000000000${to.slice(2)}${(9_999n).toString(16).padStart(64, '0')}`,
    });
    const reverted = await node.rpcError('eth_sendRawTransaction', [raw]);
    expect(reverted.code).toBe(3);
    expect(reverted.message).toBe('execution reverted: ERC20: transfer amount exceeds balance');
  }, 30_000);

  it('nonce too low, fee cap under the base fee and insufficient funds are viem\'s typed errors', async () => {
    const { account } = await fundedEvm(node, GWEI);
    const wallet = createWalletClient({ account, chain, transport: http(node.url) });
    const client = createPublicClient({ chain, transport: http(node.url) });
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const hash = await wallet.sendTransaction({ to, value: GWEI, nonce: 0, gas: 21_000n, maxFeePerGas: 20n * GWEI, maxPriorityFeePerGas: 0n });
    await client.waitForTransactionReceipt({ hash, pollingInterval: 200 });
    const stale = await wallet.sendTransaction({ to, value: 2n * GWEI, nonce: 0, gas: 21_000n, maxFeePerGas: 20n * GWEI, maxPriorityFeePerGas: 0n }).catch((e: BaseError) => e);
    expect((stale as BaseError).walk((e) => e instanceof NonceTooLowError)).toBeInstanceOf(NonceTooLowError);
    const cheap = await wallet.sendTransaction({ to, value: GWEI, nonce: 1, gas: 21_000n, maxFeePerGas: GWEI, maxPriorityFeePerGas: 0n }).catch((e: BaseError) => e);
    expect((cheap as BaseError).walk((e) => e instanceof FeeCapTooLowError)).toBeInstanceOf(FeeCapTooLowError);
    const broke = createWalletClient({ account: privateKeyToAccount(generatePrivateKey()), chain, transport: http(node.url) });
    const poor = await broke.sendTransaction({ to, value: GWEI, nonce: 0, gas: 21_000n, maxFeePerGas: 20n * GWEI, maxPriorityFeePerGas: 0n }).catch((e: BaseError) => e);
    expect((poor as BaseError).walk((e) => e instanceof InsufficientFundsError)).toBeInstanceOf(InsufficientFundsError);
    // Sending the same signed transaction while it waits in the pool is geth's "already known".
    const queued = await account.signTransaction({ chainId: CHAIN_ID, type: 'eip1559', nonce: 5, to, value: GWEI, gas: 21_000n, maxFeePerGas: 20n * GWEI, maxPriorityFeePerGas: 0n });
    await node.result('eth_sendRawTransaction', [queued]);
    const known = await node.rpcError('eth_sendRawTransaction', [queued]);
    expect(known).toMatchObject({ code: -32000, message: 'already known' });
  }, 30_000);
});

describe('web3.js 4', () => {
  it('sends an ERC-20 transfer with its default gas estimate', async () => {
    const { key, account } = await fundedEvm(node, GWEI, 1_000_000n);
    const web3 = new Web3(node.url);
    web3.eth.accounts.wallet.add(key);
    const token = new web3.eth.Contract(erc20Abi, usdc);
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const estimate = await token.methods.transfer(to, 250_000n).estimateGas({ from: account.address });
    // Never below the intrinsic gas of the 68 bytes of calldata (web3.js refuses to sign less).
    expect(BigInt(estimate)).toBeGreaterThan(21_000n);
    const receipt = await token.methods.transfer(to, 250_000n).send({ from: account.address });
    expect(receipt.status).toBe(1n);
    expect(await token.methods.balanceOf(to).call()).toBe(250_000n);
  }, 60_000);
});

describe('filters and subscriptions over JSON-RPC', () => {
  it('block, pending-transaction and log filters; unknown ids are geth\'s "filter not found"', async () => {
    const blockFilter = await node.result<string>('eth_newBlockFilter');
    const pendingFilter = await node.result<string>('eth_newPendingTransactionFilter');
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const toTopic = `0x${'00'.repeat(12)}${to.slice(2).toLowerCase()}`;
    const logFilter = await node.result<string>('eth_newFilter', [{ address: usdc, topics: [null, null, toTopic] }]);
    await sleep(50);
    await payUsdc(to, 5n);
    const logs = await until('filter logs', async () => {
      const got = await node.result<Array<{ data: string; blockHash: string }>>('eth_getFilterChanges', [logFilter]);
      return got.length > 0 ? got : undefined;
    });
    expect(logs).toHaveLength(1);
    expect(BigInt(logs[0]!.data)).toBe(5n);
    expect(await node.result('eth_getFilterChanges', [logFilter])).toEqual([]); // drained
    expect(await node.result<unknown[]>('eth_getFilterLogs', [logFilter])).toHaveLength(1);
    const hashes = await node.result<string[]>('eth_getFilterChanges', [blockFilter]);
    expect(hashes).toContain(logs[0]!.blockHash);
    const pending = await node.result<string[]>('eth_getFilterChanges', [pendingFilter]);
    expect(pending.length).toBeGreaterThanOrEqual(1);
    expect(pending.every((h) => /^0x[0-9a-f]{64}$/.test(h))).toBe(true);
    expect(await node.result('eth_uninstallFilter', [logFilter])).toBe(true);
    expect(await node.result('eth_uninstallFilter', [logFilter])).toBe(false);
    expect(await node.rpcError('eth_getFilterChanges', [logFilter])).toMatchObject({ code: -32000, message: 'filter not found' });
    expect(await node.rpcError('eth_getFilterLogs', [blockFilter])).toMatchObject({ code: -32000, message: 'filter not found' });
    expect((await node.rpcError('eth_getFilterChanges', ['nope'])).code).toBe(-32602);
    expect((await node.rpcError('eth_newFilter', [{ blockHash: `0x${'ab'.repeat(32)}`, fromBlock: '0x1' }])).code).toBe(-32602);
    await node.result('eth_uninstallFilter', [blockFilter]);
    await node.result('eth_uninstallFilter', [pendingFilter]);
  }, 30_000);

  it('eth_subscribe over WebSocket: newHeads, logs with filters, newPendingTransactions; refused over HTTP', async () => {
    const ws = new WebSocket(wsUrl);
    cleanups.push(() => ws.close());
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const messages: Array<{ id?: number; method?: string; result?: unknown; error?: { code: number }; params?: { subscription: string; result: Record<string, unknown> & string } }> = [];
    ws.on('message', (data) => messages.push(JSON.parse(String(data))));
    let nextId = 1;
    const call = async (method: string, params: unknown[]) => {
      const id = nextId++;
      ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
      return until(`${method} reply`, () => messages.find((m) => m.id === id));
    };
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const heads = (await call('eth_subscribe', ['newHeads'])).result as string;
    const logs = (await call('eth_subscribe', ['logs', { address: usdc, topics: [null, null, `0x${'00'.repeat(12)}${to.slice(2).toLowerCase()}`] }])).result as string;
    const pending = (await call('eth_subscribe', ['newPendingTransactions'])).result as string;
    // syncing: an id; a node that never syncs sends nothing (geth sends on a change only)
    const syncing = (await call('eth_subscribe', ['syncing'])).result as string;
    expect(syncing).toMatch(/^0x[0-9a-f]+$/);
    expect((await call('eth_subscribe', ['syncing', { address: usdc }])).error?.code).toBe(-32602);
    const sent = await node.result<{ bundle_hash?: string }>('svc_transfer', [SYSTEM_USDC, to, 'USDC', '9']);
    const log = await until('a log notification', () => messages.find((m) => m.method === 'eth_subscription' && m.params?.subscription === logs));
    expect(Value.Check(EthLogObject, log.params!.result)).toBe(true);
    expect(BigInt(log.params!.result.data as string)).toBe(9n);
    const head = await until('a newHeads notification', () => messages.find((m) => m.params?.subscription === heads));
    expect(head.params!.result).toMatchObject({ number: expect.stringMatching(/^0x/), hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(head.params!.result.transactions).toBeUndefined();
    const tx = await until('a pending notification', () => messages.find((m) => m.params?.subscription === pending));
    expect(tx.params!.result).toMatch(/^0x[0-9a-f]{64}$/);
    expect(sent).toBeDefined();
    expect((await call('eth_unsubscribe', [logs])).result).toBe(true);
    expect((await call('eth_unsubscribe', [logs])).result).toBe(false);
    // svc_ subscriptions end only with their own method, and the other way round.
    const svc = (await call('svc_subscribe_newHeads', [])).result as string;
    expect((await call('eth_unsubscribe', [svc])).result).toBe(false);
    expect((await call('svc_unsubscribe_newHeads', [heads])).result).toBe(false);
    ws.close();
    expect((await node.rpcError('eth_subscribe', ['newHeads'])).code).toBe(-32014);
  }, 30_000);
});

describe('the rest of what common tools call', () => {
  it('block receipts, counts, transactions by position, storage, access lists, net_ and web3_ basics', async () => {
    const to = privateKeyToAccount(generatePrivateKey()).address;
    await payUsdc(to, 11n);
    const [log] = await node.result<Array<{ blockNumber: string; blockHash: string; transactionHash: string; transactionIndex: string }>>('eth_getLogs', [{ fromBlock: '0x0', address: usdc, topics: [null, null, `0x${'00'.repeat(12)}${to.slice(2).toLowerCase()}`] }]);
    const receipts = await node.result<Array<{ transactionHash: string }>>('eth_getBlockReceipts', [log!.blockNumber]);
    expect(receipts.map((r) => r.transactionHash)).toContain(log!.transactionHash);
    expect(await node.result('eth_getBlockReceipts', [{ blockHash: log!.blockHash }])).toEqual(receipts);
    expect(await node.result('eth_getBlockReceipts', ['0xffffffff'])).toBeNull();
    const count = await node.result<string>('eth_getBlockTransactionCountByNumber', [log!.blockNumber]);
    expect(Number(count)).toBe(receipts.length);
    expect(await node.result('eth_getBlockTransactionCountByHash', [log!.blockHash])).toBe(count);
    expect(await node.result('eth_getBlockTransactionCountByHash', [`0x${'ab'.repeat(32)}`])).toBeNull();
    const byNumber = await node.result<{ hash: string }>('eth_getTransactionByBlockNumberAndIndex', [log!.blockNumber, log!.transactionIndex]);
    expect(byNumber.hash).toBe(log!.transactionHash);
    expect(await node.result('eth_getTransactionByBlockHashAndIndex', [log!.blockHash, log!.transactionIndex])).toEqual(byNumber);
    expect(await node.result('eth_getTransactionByBlockHashAndIndex', [log!.blockHash, '0xff'])).toBeNull();
    expect(await node.result('eth_getUncleCountByBlockNumber', ['latest'])).toBe('0x0');
    expect(await node.result('eth_getUncleCountByBlockHash', [log!.blockHash])).toBe('0x0');
    expect(await node.result('eth_getUncleCountByBlockNumber', ['0xffffffff'])).toBeNull();
    expect(await node.result('eth_getStorageAt', [usdc, '0x0', 'latest'])).toBe(`0x${'00'.repeat(32)}`);
    const access = await node.result<{ accessList: unknown[]; gasUsed: string }>('eth_createAccessList', [{ to, value: '0x3b9aca00' }]);
    expect(access).toEqual({ accessList: [], gasUsed: '0x5208' });
    expect(await node.result('net_listening')).toBe(true);
    expect(await node.result('net_peerCount')).toBe('0x0');
    expect(await node.result('web3_sha3', ['0x68656c6c6f20776f726c64'])).toBe(keccak256('0x68656c6c6f20776f726c64'));
    expect(await node.result('eth_protocolVersion')).toMatch(/^0x[0-9a-f]+$/);
    expect(await node.result('eth_coinbase')).toBe((await node.result<{ miner: string }>('eth_getBlockByNumber', ['latest', false])).miner);
    expect(await node.result('eth_mining')).toBe(false);
  }, 30_000);

  it('EIP-1898 block params name past blocks, whose state is served (docs/eth.md "Block parameters")', async () => {
    const who = privateKeyToAccount(generatePrivateKey()).address;
    const latest = await node.result<{ number: string; hash: string }>('eth_getBlockByNumber', ['latest', false]);
    const height = await node.result<string>('eth_blockNumber');
    const head = await node.result<{ hash: string }>('eth_getBlockByNumber', [height, false]);
    expect(await node.result('eth_getBalance', [who, { blockHash: head.hash, requireCanonical: true }])).toBe('0x0');
    await node.waitForHeight(Number(latest.number) + 1);
    // `who` was never paid: 0 at every past block, by each way of naming one
    for (const block of [{ blockHash: latest.hash }, { blockNumber: latest.number }, latest.number, 'earliest']) {
      expect(await node.result('eth_getBalance', [who, block])).toBe('0x0');
    }
    const supplyAtGenesis = await node.result<string>('eth_call', [{ to: usdc, data: '0x18160ddd' }, { blockNumber: '0x0' }]);
    expect(BigInt(supplyAtGenesis)).toBeGreaterThan(0n);
    expect((await node.rpcError('eth_getCode', [usdc, { blockHash: `0x${'ab'.repeat(32)}` }])).code).toBe(-32000);
    expect((await node.rpcError('eth_getBalance', [who, { blockNumber: 'latest' }])).code).toBe(-32602);
    expect(await node.result('eth_getTransactionCount', [who, 'earliest'])).toBe('0x0'); // genesis nonce: known
  }, 30_000);
});

// ------------------------------------------------------------------ execution-apis shapes

// An independent transcription of execution-apis (src/schemas/base-types.yaml, block.yaml,
// transaction.yaml, receipt.yaml): required fields and their base types, nothing of this node's.
const uint = Type.String({ pattern: '^0x(0|[1-9a-f][0-9a-f]*)$' });
const hash32 = Type.String({ pattern: '^0x[0-9a-f]{64}$' });
const address = Type.String({ pattern: '^0x[0-9a-fA-F]{40}$' });
const bytes = Type.String({ pattern: '^0x[0-9a-f]*$' });
const bytes8 = Type.String({ pattern: '^0x[0-9a-f]{16}$' });
const bytes256 = Type.String({ pattern: '^0x[0-9a-f]{512}$' });
const ApiLog = Type.Object({
  removed: Type.Boolean(), logIndex: uint, transactionIndex: uint, transactionHash: hash32, blockHash: hash32, blockNumber: uint,
  address, data: bytes, topics: Type.Array(hash32),
});
const ApiTransaction = Type.Object({
  type: bytes, nonce: uint, to: Type.Union([address, Type.Null()]), gas: uint, value: uint, input: bytes, r: uint, s: uint, v: uint,
  gasPrice: uint, hash: hash32, from: address, blockHash: Type.Union([hash32, Type.Null()]), blockNumber: Type.Union([uint, Type.Null()]),
  transactionIndex: Type.Union([uint, Type.Null()]),
  chainId: Type.Optional(uint), yParity: Type.Optional(uint), maxFeePerGas: Type.Optional(uint), maxPriorityFeePerGas: Type.Optional(uint),
  accessList: Type.Optional(Type.Array(Type.Object({ address, storageKeys: Type.Array(hash32) }))),
});
const ApiReceipt = Type.Object({
  type: Type.Optional(bytes), transactionHash: hash32, transactionIndex: uint, blockHash: hash32, blockNumber: uint, from: address,
  to: Type.Union([address, Type.Null()]), cumulativeGasUsed: uint, gasUsed: uint, contractAddress: Type.Union([address, Type.Null()]),
  logs: Type.Array(ApiLog), logsBloom: bytes256, status: Type.Optional(uint), effectiveGasPrice: uint,
});
const ApiBlock = Type.Object({
  parentHash: hash32, sha3Uncles: hash32, miner: address, stateRoot: hash32, transactionsRoot: hash32, receiptsRoot: hash32,
  logsBloom: bytes256, difficulty: Type.Optional(uint), number: uint, gasLimit: uint, gasUsed: uint, timestamp: uint, extraData: bytes,
  mixHash: hash32, nonce: bytes8, totalDifficulty: Type.Optional(uint), baseFeePerGas: Type.Optional(uint), size: uint,
  transactions: Type.Union([Type.Array(hash32), Type.Array(ApiTransaction)]), uncles: Type.Array(hash32), hash: hash32,
});

function expectShape(what: string, schema: TSchema, value: unknown) {
  const errors = [...Value.Errors(schema, value)].map((e) => `${e.path}: ${e.message}`);
  expect(errors, `${what} against ${schema.title ?? 'execution-apis'}`).toEqual([]);
}

describe('execution-apis shapes', () => {
  it('blocks, transactions, receipts and logs match execution-apis and the OpenRPC result schemas', async () => {
    const { account } = await fundedEvm(node, 2n * GWEI, 10_000n);
    const wallet = createWalletClient({ account, chain, transport: http(node.url) });
    const client = createPublicClient({ chain, transport: http(node.url) });
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const hashes = [
      await wallet.writeContract({ address: usdc, abi: erc20Abi, functionName: 'transfer', args: [to, 10n] }),
      await wallet.sendTransaction({ to, value: GWEI, type: 'legacy', gasPrice: 10n * GWEI }),
      await wallet.sendTransaction({ to, value: GWEI, type: 'eip2930', gasPrice: 10n * GWEI, accessList: [] }),
    ];
    for (const hash of hashes) await client.waitForTransactionReceipt({ hash, pollingInterval: 200 });
    const native = (await payUsdc(to, 3n)) as { bundle_hash: string };
    expect(native).toBeDefined();
    let checked = { blocks: 0, transactions: 0, receipts: 0, logs: 0 };
    for (const hash of hashes) {
      const tx = await node.result<{ blockNumber: string }>('eth_getTransactionByHash', [hash]);
      expectShape('transaction', ApiTransaction, tx);
      expectShape('transaction', EthTransactionObject, tx);
      const block = await node.result<{ transactions: unknown[] }>('eth_getBlockByNumber', [tx.blockNumber, true]);
      expectShape('block', ApiBlock, block);
      expectShape('block', EthBlockObject, block);
      expectShape('block', ApiBlock, await node.result('eth_getBlockByNumber', [tx.blockNumber, false]));
      for (const t of block.transactions) expectShape('transaction in a block', ApiTransaction, t);
      const receipts = await node.result<Array<{ logs: unknown[] }>>('eth_getBlockReceipts', [tx.blockNumber]);
      for (const r of receipts) {
        expectShape('receipt', ApiReceipt, r);
        expectShape('receipt', EthReceiptObject, r);
        for (const l of r.logs) {
          expectShape('log', ApiLog, l);
          expectShape('log', EthLogObject, l);
          checked.logs++;
        }
        checked.receipts++;
      }
      checked = { ...checked, blocks: checked.blocks + 1, transactions: checked.transactions + block.transactions.length };
    }
    const logs = await node.result<unknown[]>('eth_getLogs', [{ fromBlock: '0x0', address: usdc }]);
    for (const l of logs) expectShape('log', ApiLog, l);
    expect(checked.blocks).toBe(3);
    expect(checked.logs).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it('every eth_, net_ and web3_ method in rpc.discover has a description, an example and a typed result', async () => {
    const doc = await node.result<{ methods: Array<{ name: string; description?: string; examples?: unknown[]; result: { schema: Record<string, unknown> } }> }>('rpc.discover');
    const eth = doc.methods.filter((m) => /^(eth|net|web3)_/.test(m.name) && m.name !== 'web3_clientVersion');
    expect(eth.length).toBeGreaterThan(40);
    for (const m of eth) {
      expect(m.description, m.name).toBeTruthy();
      expect(m.examples?.length ?? 0, `${m.name} examples`).toBeGreaterThanOrEqual(1);
    }
    const block = doc.methods.find((m) => m.name === 'eth_getBlockByNumber')!;
    expect(JSON.stringify(block.result.schema)).toContain('"baseFeePerGas"');
    const receipt = doc.methods.find((m) => m.name === 'eth_getTransactionReceipt')!;
    expect(JSON.stringify(receipt.result.schema)).toContain('"logsBloom"');
  });
});
