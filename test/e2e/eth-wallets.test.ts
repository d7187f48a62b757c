// Ethereum semantics wallets depend on (issue 42 items 2-5, 8; docs/eth.md "EVM semantics",
// "Replacement", "Answer"), with ethers 6, viem 2 and web3.js 4 against one running node: a 0-value
// self-send cancels a pending transaction, a 0-amount ERC-20 transfer succeeds, simulation and
// execution agree on the zero address, a failed EVM transaction uses its nonce, a speed-up by +10%
// (EIP-1559 and legacy), "already known" and "nonce too low" for a known transaction, Multicall3.
// Each library covers each of the points 2, 3 and 5 (a table in the issue 42 report).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonRpcProvider, Wallet, isError, Contract } from 'ethers';
import { BaseError, createPublicClient, createWalletClient, defineChain, encodeFunctionData, erc20Abi, http, NonceTooLowError, parseAbi, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { Web3 } from 'web3';
import { TestNode } from './harness.js';
import { errorText, fundedEvm, usdcEvmAddress } from './evm-accounts.js';

const CHAIN_ID = 1618032;
const GWEI = 1_000_000_000n;
const ZERO = '0x0000000000000000000000000000000000000000';
const MULTICALL3 = '0xcA11bde05977b3631167028862bE2a173976CA11' as const;

let node: TestNode;
let usdc: Hex;
const chain = defineChain({
  id: CHAIN_ID, name: 'ntv-testnet', nativeCurrency: { name: 'NTV', symbol: 'NTV', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1'] } },
});
const cleanups: Array<() => unknown> = [];

beforeAll(async () => {
  node = await TestNode.start({ args: ['--block-time', '1'] });
  usdc = await usdcEvmAddress(node);
}, 30_000);

afterAll(async () => {
  for (const fn of cleanups.splice(0)) await fn();
  await node?.stop();
});


const publicClient = () => createPublicClient({ chain, transport: http(node.url) });
const usdcBalance = async (who: string) => BigInt(await node.result<string>('eth_call', [{ to: usdc, data: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [who as Hex] }) }]));
const transferData = (to: string, amount: bigint) => encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to as Hex, amount] });

describe('viem 2', () => {
  it('a 0-value send to oneself at a pending nonce replaces (cancels) it; +9% is refused, quoting wei', async () => {
    const { account } = await fundedEvm(node, 10n * GWEI);
    const client = publicClient();
    const wallet = createWalletClient({ account, chain, transport: http(node.url) });
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const fees = { gas: 21_000n, maxFeePerGas: 20n * GWEI, maxPriorityFeePerGas: GWEI };
    // Nonce 1 waits behind the gap at 0: the transaction a wallet would cancel.
    const payment = await wallet.sendTransaction({ to, value: 3n * GWEI * GWEI, nonce: 1, ...fees });
    const cheap = await wallet.sendTransaction({ to: account.address, value: 0n, nonce: 1, gas: 21_000n, maxFeePerGas: 21_800_000_000n, maxPriorityFeePerGas: 1_100_000_000n }).catch((e: BaseError) => e);
    expect(cheap).toBeInstanceOf(BaseError);
    expect((cheap as BaseError).message).toMatch(/replacement transaction underpriced: .*tip 1000000000 wei and fee cap 20000000000 wei.*at least 1100000000 wei .*at least 22000000000 wei/);
    // +10% on both fields, wei-exact (1.0 → 1.1 gwei, a tip the core charges as 1 nanoNTV).
    const cancel = await wallet.sendTransaction({ to: account.address, value: 0n, nonce: 1, gas: 21_000n, maxFeePerGas: 22n * GWEI, maxPriorityFeePerGas: 1_100_000_000n });
    const first = await wallet.sendTransaction({ to, value: GWEI, nonce: 0, ...fees });
    expect((await client.waitForTransactionReceipt({ hash: first, pollingInterval: 200 })).status).toBe('success');
    const receipt = await client.waitForTransactionReceipt({ hash: cancel, pollingInterval: 200 });
    expect(receipt.status).toBe('success');
    expect(receipt.gasUsed).toBe(21_000n);
    expect(await client.getTransactionCount({ address: account.address })).toBe(2);
    // The cancelled payment never happened: only nonce 0's 1 gwei reached `to`.
    expect(await client.getBalance({ address: to })).toBe(GWEI);
    expect(await node.result('eth_getTransactionReceipt', [payment])).toBeNull();
  }, 40_000);

  it('a failed EVM transaction uses its nonce; the next one is not taken for a replacement', async () => {
    const { account } = await fundedEvm(node, GWEI, 1_000n);
    const client = publicClient();
    const wallet = createWalletClient({ account, chain, transport: http(node.url) });
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const tx = { to: usdc, gas: 30_000n, maxFeePerGas: 20n * GWEI, maxPriorityFeePerGas: 0n };
    // Both simulate well against committed state; nonce 0 then moves everything, so nonce 1 fails.
    const second = await wallet.sendTransaction({ ...tx, nonce: 1, data: transferData(to, 1_000n) });
    const first = await wallet.sendTransaction({ ...tx, nonce: 0, data: transferData(to, 1_000n) });
    expect((await client.waitForTransactionReceipt({ hash: first, pollingInterval: 200 })).status).toBe('success');
    const failed = await client.waitForTransactionReceipt({ hash: second, pollingInterval: 200 });
    expect(failed.status).toBe('reverted');
    expect(await client.getTransactionCount({ address: account.address })).toBe(2);
    // The next transaction takes nonce 2 and is reported as itself, successful.
    const next = await wallet.sendTransaction({ to, value: GWEI, gas: 21_000n, maxFeePerGas: 20n * GWEI, maxPriorityFeePerGas: 0n });
    const receipt = await client.waitForTransactionReceipt({ hash: next, pollingInterval: 200, onReplaced: () => { throw new Error('reported as replaced'); } });
    expect(receipt.status).toBe('success');
    expect((await client.getTransaction({ hash: next })).nonce).toBe(2);
    // The failed one sent again: its nonce is used.
    const raw = await account.signTransaction({ chainId: CHAIN_ID, type: 'eip1559', nonce: 1, ...tx, data: transferData(to, 1_000n) });
    expect((await node.rpcError('eth_sendRawTransaction', [raw])).message).toMatch(/^nonce too low: address 0x[0-9a-f]{40}, tx: 1 state: 3$/);
  }, 40_000);

  it('simulation and execution agree: 0 succeeds, the zero address reverts in eth_call, eth_estimateGas and eth_sendRawTransaction', async () => {
    const { account } = await fundedEvm(node, GWEI, 500n);
    const client = publicClient();
    const wallet = createWalletClient({ account, chain, transport: http(node.url) });
    const { result } = await client.simulateContract({ account, address: usdc, abi: erc20Abi, functionName: 'transfer', args: [account.address, 0n] });
    expect(result).toBe(true);
    const toZero = { account, address: usdc, abi: erc20Abi, functionName: 'transfer', args: [ZERO, 1n] } as const;
    const simulated = await client.simulateContract(toZero).catch((e: BaseError) => e);
    expect((simulated as BaseError).message).toContain('ERC20: transfer to the zero address');
    const estimated = await node.rpcError('eth_estimateGas', [{ from: account.address, to: usdc, data: transferData(ZERO, 1n) }]);
    expect(estimated).toMatchObject({ code: 3, message: 'execution reverted: ERC20: transfer to the zero address' });
    const raw = await account.signTransaction({ chainId: CHAIN_ID, type: 'eip1559', nonce: 0, to: usdc, gas: 30_000n, maxFeePerGas: 20n * GWEI, maxPriorityFeePerGas: 0n, data: transferData(ZERO, 1n) });
    expect(await node.rpcError('eth_sendRawTransaction', [raw])).toMatchObject({ code: 3, message: 'execution reverted: ERC20: transfer to the zero address' });
    // A 0-amount transfer to oneself (a ping) is a no-op that pays its gas.
    const hash = await wallet.writeContract({ address: usdc, abi: erc20Abi, functionName: 'transfer', args: [account.address, 0n] });
    expect((await client.waitForTransactionReceipt({ hash, pollingInterval: 200 })).status).toBe('success');
    expect(await usdcBalance(account.address)).toBe(500n);
    expect(await usdcBalance(ZERO)).toBe(0n);
    // A function the token does not have reverts, as a contract without it does.
    expect(await node.rpcError('eth_call', [{ to: usdc, data: '0x12345678' }])).toMatchObject({ code: 3, data: '0x' });
    const notAFunction = await client.readContract({ address: usdc, abi: [{ type: 'function', name: 'owners', inputs: [], outputs: [{ type: 'address' }], stateMutability: 'view' }], functionName: 'owners' }).catch((e: BaseError) => e);
    expect(notAFunction).toBeInstanceOf(BaseError);
  }, 40_000);
});

describe('ethers 6', () => {
  it('a 0-amount ERC-20 transfer succeeds with a Transfer log of 0; a legacy speed-up by +10% of the gas price replaces', async () => {
    const provider = new JsonRpcProvider(node.url, CHAIN_ID, { staticNetwork: true, pollingInterval: 200 });
    cleanups.push(() => provider.destroy());
    const { key, account } = await fundedEvm(node, 10n * GWEI, 100n);
    const wallet = new Wallet(key, provider);
    const token = new Contract(usdc, ['function transfer(address to, uint256 amount) returns (bool)', 'event Transfer(address indexed from, address indexed to, uint256 value)'], wallet);
    const to = Wallet.createRandom().address;
    const zero = await (await token.getFunction('transfer')(to, 0n, { gasLimit: 30_000n, gasPrice: 10n * GWEI, type: 0 })).wait();
    expect(zero?.status).toBe(1);
    expect(zero?.logs).toHaveLength(1);
    expect(BigInt(zero!.logs[0]!.data)).toBe(0n);
    // Legacy at a pending nonce (a gap at 2): gas price 10 gwei; 10.9 is refused, 11 replaces it.
    const legacy = { to, gasLimit: 21_000n, type: 0 };
    const slow = await wallet.sendTransaction({ ...legacy, value: 5n * GWEI, nonce: 2, gasPrice: 10n * GWEI });
    const under = await wallet.sendTransaction({ ...legacy, value: 5n * GWEI, nonce: 2, gasPrice: 10_900_000_000n }).catch((e: unknown) => e);
    expect(isError(under, 'REPLACEMENT_UNDERPRICED')).toBe(true);
    const fast = await wallet.sendTransaction({ ...legacy, value: 5n * GWEI, nonce: 2, gasPrice: 11n * GWEI });
    await (await wallet.sendTransaction({ ...legacy, value: GWEI, nonce: 1, gasPrice: 10n * GWEI })).wait();
    const mined = await fast.wait();
    expect(mined?.status).toBe(1);
    expect(mined?.hash).toBe(fast.hash);
    expect(await provider.getTransactionReceipt(slow.hash)).toBeNull();
    expect(await provider.getTransactionCount(account.address)).toBe(3);
  }, 40_000);

  it('a speed-up by +10% of both EIP-1559 fee fields replaces; ethers re-sending an included transaction is NONCE_EXPIRED', async () => {
    const provider = new JsonRpcProvider(node.url, CHAIN_ID, { staticNetwork: true, pollingInterval: 200 });
    cleanups.push(() => provider.destroy());
    const { key } = await fundedEvm(node, 10n * GWEI);
    const wallet = new Wallet(key, provider);
    const to = Wallet.createRandom().address;
    const base = { to, value: GWEI, gasLimit: 21_000n, type: 2, nonce: 1 };
    const slow = await wallet.sendTransaction({ ...base, maxFeePerGas: 20n * GWEI, maxPriorityFeePerGas: 2n * GWEI });
    // Only the tip raised: refused (geth wants both).
    const tipOnly = await wallet.sendTransaction({ ...base, maxFeePerGas: 20n * GWEI, maxPriorityFeePerGas: 3n * GWEI }).catch((e: unknown) => e);
    expect(isError(tipOnly, 'REPLACEMENT_UNDERPRICED')).toBe(true);
    const fast = await wallet.sendTransaction({ ...base, maxFeePerGas: 22n * GWEI, maxPriorityFeePerGas: 2_200_000_000n });
    const zerothRaw = await wallet.signTransaction({ to, value: GWEI, gasLimit: 21_000n, type: 2, nonce: 0, maxFeePerGas: 20n * GWEI, maxPriorityFeePerGas: 0n, chainId: CHAIN_ID });
    await (await provider.broadcastTransaction(zerothRaw)).wait();
    expect((await fast.wait())?.status).toBe(1);
    expect(await provider.getTransactionReceipt(slow.hash)).toBeNull();
    const again = await provider.broadcastTransaction(zerothRaw).catch((e: unknown) => e);
    expect(isError(again, 'NONCE_EXPIRED')).toBe(true);
  }, 40_000);

  it('a send → receipt → send loop never reports a payment that did not happen (issue 42 item 4: ethers\' request cache)', async () => {
    // The loop, 12 rounds: ethers caches an identical request for 250 ms, so a send right
    // after the last receipt could sign the last nonce again, and with the same payment the same
    // bytes. The node answered those with the included transaction's hash, and ethers, finding its
    // receipt, reported a second payment that never happened. Each round here sends the payment, then
    // sends it again at the nonce just used (what the cached count gave): now "nonce too low"
    // (NONCE_EXPIRED), and the recipient holds exactly what ethers reported.
    const provider = new JsonRpcProvider(node.url, CHAIN_ID, { staticNetwork: true, pollingInterval: 50 });
    cleanups.push(() => provider.destroy());
    const { key } = await fundedEvm(node, 10n * GWEI);
    const wallet = new Wallet(key, provider);
    const to = Wallet.createRandom().address;
    const payment = { to, value: GWEI, gasLimit: 21_000n, type: 2, maxFeePerGas: 20n * GWEI, maxPriorityFeePerGas: 0n };
    let reported = 0n;
    for (let round = 0; round < 12; round++) {
      const sent = await wallet.sendTransaction(payment);
      expect((await sent.wait())?.status).toBe(1);
      reported += GWEI;
      const again = await wallet.sendTransaction({ ...payment, nonce: sent.nonce }).catch((e: unknown) => e);
      expect(isError(again, 'NONCE_EXPIRED'), `round ${round}: ${String(again)}`).toBe(true);
      // read past ethers' cache: what arrived is what ethers reported
      expect(BigInt(await node.result<string>('eth_getBalance', [to, 'latest'])), `round ${round}`).toBe(reported);
    }
    expect(await provider.getTransactionCount(wallet.address, 'latest')).toBe(12);
  }, 60_000);

  it('a 0-value send to oneself at a pending nonce, +10% on both fee fields, cancels it', async () => {
    const provider = new JsonRpcProvider(node.url, CHAIN_ID, { staticNetwork: true, pollingInterval: 200 });
    cleanups.push(() => provider.destroy());
    const { key, account } = await fundedEvm(node, 10n * GWEI);
    const wallet = new Wallet(key, provider);
    const to = Wallet.createRandom().address;
    const fees = { gasLimit: 21_000n, type: 2, maxFeePerGas: 20n * GWEI, maxPriorityFeePerGas: GWEI };
    // Nonce 1 waits behind the gap at 0: the payment the wallet cancels.
    const payment = await wallet.sendTransaction({ to, value: 3n * GWEI * GWEI, nonce: 1, ...fees });
    const cancel = await wallet.sendTransaction({ to: account.address, value: 0n, nonce: 1, gasLimit: 21_000n, type: 2, maxFeePerGas: 22n * GWEI, maxPriorityFeePerGas: 1_100_000_000n });
    await (await wallet.sendTransaction({ to, value: GWEI, nonce: 0, ...fees })).wait();
    const receipt = await cancel.wait();
    expect(receipt).toMatchObject({ status: 1, hash: cancel.hash, gasUsed: 21_000n });
    expect(await provider.getTransactionReceipt(payment.hash)).toBeNull();
    expect(await provider.getBalance(to)).toBe(GWEI);
    expect(await provider.getTransactionCount(account.address)).toBe(2);
  }, 40_000);
});

describe('web3.js 4', () => {
  it('already known while pending, nonce too low once included', async () => {
    const { key, account } = await fundedEvm(node, GWEI);
    const web3 = new Web3(node.url);
    const signed = await web3.eth.accounts.signTransaction({
      from: account.address, to: privateKeyToAccount(generatePrivateKey()).address, value: GWEI, gas: 21_000, maxFeePerGas: 20n * GWEI, maxPriorityFeePerGas: 0n, nonce: 1, chainId: CHAIN_ID, type: 2,
    }, key);
    const waiting = signed.rawTransaction as Hex;
    await node.result('eth_sendRawTransaction', [waiting]);
    expect(await node.rpcError('eth_sendRawTransaction', [waiting])).toMatchObject({ code: -32000, message: 'already known' });
    const zeroth = await web3.eth.accounts.signTransaction({
      from: account.address, to: account.address, value: 0n, gas: 21_000, maxFeePerGas: 20n * GWEI, maxPriorityFeePerGas: 0n, nonce: 0, chainId: CHAIN_ID, type: 2,
    }, key);
    const receipt = await web3.eth.sendSignedTransaction(zeroth.rawTransaction);
    expect(receipt.status).toBe(1n); // a 0-value send to oneself succeeds
    const client = publicClient();
    await client.waitForTransactionReceipt({ hash: signed.transactionHash as Hex, pollingInterval: 200 });
    const included = await web3.eth.sendSignedTransaction(waiting).catch((e: unknown) => e);
    expect(String((included as { cause?: { message?: string } }).cause?.message ?? included)).toMatch(/nonce too low/);
    const viemError = await createWalletClient({ chain, transport: http(node.url) }).sendRawTransaction({ serializedTransaction: waiting }).catch((e: BaseError) => e);
    expect(viemError).toMatchObject({ code: -32000, details: expect.stringMatching(/^nonce too low: address 0x[0-9a-f]{40}, tx: 1 state: 2$/) });
    // viem's sendTransaction classifies the same answer (getNodeError)
    const resend = await createWalletClient({ account: privateKeyToAccount(key as Hex), chain, transport: http(node.url) })
      .sendTransaction({ to: account.address, value: 0n, nonce: 1, gas: 21_000n, maxFeePerGas: 20n * GWEI, maxPriorityFeePerGas: 0n }).catch((e: BaseError) => e);
    expect((resend as BaseError).walk((e) => e instanceof NonceTooLowError)).toBeInstanceOf(NonceTooLowError);
  }, 40_000);

  it('a speed-up by +10% of the gas price replaces a pending legacy transaction (+9% is refused, quoting wei); a 0-value self-send cancels one', async () => {
    const { key, account } = await fundedEvm(node, 10n * GWEI);
    const web3 = new Web3(node.url);
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const sign = async (nonce: number, gasPrice: bigint, value: bigint) => (await web3.eth.accounts.signTransaction({
      from: account.address, to, value, gas: 21_000, gasPrice, nonce, chainId: CHAIN_ID, type: 0,
    }, key));
    // Nonce 1 waits behind the gap at 0 (web3's sendSignedTransaction would wait for its receipt:
    // it goes in through web3's request manager, as a wallet's broadcast does).
    const slow = await sign(1, 10n * GWEI, 5n * GWEI);
    await web3.requestManager.send({ method: 'eth_sendRawTransaction', params: [slow.rawTransaction] });
    const under = await web3.eth.sendSignedTransaction((await sign(1, 10_900_000_000n, 5n * GWEI)).rawTransaction).catch((e: unknown) => e);
    expect(errorText(under)).toMatch(/replacement transaction underpriced: .*tip 10000000000 wei and fee cap 10000000000 wei.*at least 11000000000 wei .*at least 11000000000 wei/);
    const fast = await sign(1, 11n * GWEI, 5n * GWEI);
    const replaced = web3.eth.sendSignedTransaction(fast.rawTransaction);
    await new Promise((resolve, reject) => { replaced.on('transactionHash', resolve).catch(reject); });
    const zeroth = await web3.eth.sendSignedTransaction((await sign(0, 10n * GWEI, GWEI)).rawTransaction);
    expect(zeroth.status).toBe(1n);
    const receipt = await replaced;
    expect(receipt).toMatchObject({ status: 1n, transactionHash: fast.transactionHash });
    expect(await node.result('eth_getTransactionReceipt', [slow.transactionHash])).toBeNull();
    expect(await web3.eth.getTransactionCount(account.address)).toBe(2n);
    expect(await web3.eth.getBalance(to)).toBe(6n * GWEI);
    // Cancel: a payment at nonce 3 (behind a gap at 2) replaced by a 0-value send to oneself at +10%.
    const payment = await sign(3, 10n * GWEI, 7n * GWEI);
    await web3.requestManager.send({ method: 'eth_sendRawTransaction', params: [payment.rawTransaction] });
    const cancel = await web3.eth.accounts.signTransaction({ from: account.address, to: account.address, value: 0n, gas: 21_000, gasPrice: 11n * GWEI, nonce: 3, chainId: CHAIN_ID, type: 0 }, key);
    const cancelled = web3.eth.sendSignedTransaction(cancel.rawTransaction);
    await new Promise((resolve, reject) => { cancelled.on('transactionHash', resolve).catch(reject); });
    expect((await web3.eth.sendSignedTransaction((await sign(2, 10n * GWEI, GWEI)).rawTransaction)).status).toBe(1n);
    expect(await cancelled).toMatchObject({ status: 1n, transactionHash: cancel.transactionHash, gasUsed: 21_000n });
    expect(await node.result('eth_getTransactionReceipt', [payment.transactionHash])).toBeNull();
    expect(await web3.eth.getBalance(to)).toBe(7n * GWEI);
    expect(await web3.eth.getTransactionCount(account.address)).toBe(4n);
  }, 60_000);

  it('a 0-amount ERC-20 transfer succeeds; a transfer to the zero address reverts in call and estimateGas alike', async () => {
    const { key, account } = await fundedEvm(node, GWEI, 300n);
    const web3 = new Web3(node.url);
    web3.eth.accounts.wallet.add(key);
    const token = new web3.eth.Contract(erc20Abi, usdc);
    const to = privateKeyToAccount(generatePrivateKey()).address;
    expect(await token.methods.transfer(to, 0n).call({ from: account.address })).toBe(true);
    const receipt = await token.methods.transfer(to, 0n).send({ from: account.address, gas: '30000', maxFeePerGas: String(20n * GWEI), maxPriorityFeePerGas: '0' });
    expect(receipt.status).toBe(1n);
    expect(receipt.events?.Transfer?.returnValues).toMatchObject({ to, value: 0n });
    expect(await token.methods.balanceOf(account.address).call()).toBe(300n);
    const called = await token.methods.transfer(ZERO, 1n).call({ from: account.address }).catch((e: unknown) => e);
    expect(errorText(called)).toContain('ERC20: transfer to the zero address');
    const estimated = await token.methods.transfer(ZERO, 1n).estimateGas({ from: account.address }).catch((e: unknown) => e);
    expect(errorText(estimated)).toContain('ERC20: transfer to the zero address');
    expect(await token.methods.balanceOf(ZERO).call()).toBe(0n);
  }, 40_000);

  it('Multicall3 aggregate3 and getEthBalance through a web3 Contract; a read above the head is "header not found"', async () => {
    const { account } = await fundedEvm(node, 2n * GWEI, 77n);
    const web3 = new Web3(node.url);
    const multicall = new web3.eth.Contract(parseAbi([
      'struct Call3 { address target; bool allowFailure; bytes callData; }',
      'struct Result { bool success; bytes returnData; }',
      'function aggregate3(Call3[] calls) payable returns (Result[] returnData)',
      'function getEthBalance(address addr) view returns (uint256 balance)',
    ]), MULTICALL3);
    const read = (functionName: 'decimals' | 'symbol' | 'balanceOf', args: readonly [Hex] | [] = []) =>
      ({ target: usdc, allowFailure: true, callData: encodeFunctionData({ abi: erc20Abi, functionName, args } as never) });
    const results = await multicall.methods.aggregate3([read('decimals'), read('symbol'), read('balanceOf', [account.address]), { target: usdc, allowFailure: true, callData: '0x12345678' }]).call();
    expect(results.map((r) => r.success)).toEqual([true, true, true, false]);
    expect(BigInt(results[0]!.returnData as Hex)).toBe(6n);
    expect(BigInt(results[2]!.returnData as Hex)).toBe(77n);
    expect(await multicall.methods.getEthBalance(account.address).call()).toBe(2n * GWEI * GWEI);
    const above = (await web3.eth.getBlockNumber()) + 1000n;
    const error = await web3.eth.getBalance(account.address, above).catch((e: unknown) => e);
    expect(errorText(error)).toContain('header not found');
  }, 30_000);
});

describe('tooling: Multicall3, txpool, rpc_modules, reads above the head', () => {
  const withMulticall = defineChain({ ...chain, contracts: { multicall3: { address: MULTICALL3 } } });

  it('viem multicall of ten reads through Multicall3 (aggregate3), with a failing one allowed', async () => {
    const { account } = await fundedEvm(node, 3n * GWEI, 1_234n);
    const client = createPublicClient({ chain: withMulticall, transport: http(node.url) });
    expect(await client.getCode({ address: MULTICALL3 })).toMatch(/^0xfe/);
    const multicallAbi = parseAbi(['function getEthBalance(address) view returns (uint256)', 'function getBlockNumber() view returns (uint256)',
      'function getCurrentBlockTimestamp() view returns (uint256)', 'function getChainId() view returns (uint256)']);
    const token = (functionName: 'name' | 'symbol' | 'decimals' | 'totalSupply') => ({ address: usdc, abi: erc20Abi, functionName }) as const;
    const results = await client.multicall({
      contracts: [
        token('name'), token('symbol'), token('decimals'), token('totalSupply'),
        { address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [account.address] },
        { address: usdc, abi: erc20Abi, functionName: 'allowance', args: [account.address, MULTICALL3] },
        { address: MULTICALL3, abi: multicallAbi, functionName: 'getEthBalance', args: [account.address] },
        { address: MULTICALL3, abi: multicallAbi, functionName: 'getBlockNumber' },
        { address: MULTICALL3, abi: multicallAbi, functionName: 'getChainId' },
        // the zero address holds nothing: a transfer from Multicall3 (the caller) reverts, and is allowed to
        { address: usdc, abi: erc20Abi, functionName: 'transfer', args: [account.address, 1n] },
      ],
    });
    expect(results.slice(0, 9).map((r) => r.status)).toEqual(Array(9).fill('success'));
    expect(results.map((r) => r.result).slice(0, 7)).toEqual(['USD Coin', 'USDC', 6, BigInt((await node.result<{ total_supply: string }>('svc_getTokenInfo', ['USDC'])).total_supply), 1_234n, 0n, 3n * GWEI * GWEI]);
    expect(results[7]!.result).toBeGreaterThan(0n);
    expect(results[8]!.result).toBe(BigInt(CHAIN_ID));
    expect(results[9]!.status).toBe('failure');
    expect(String(results[9]!.error)).toContain('ERC20: transfer amount exceeds balance');
    // allowFailure false: viem raises the failing call's own revert
    const strict = await client.multicall({ contracts: [token('name'), { address: usdc, abi: erc20Abi, functionName: 'transfer', args: [account.address, 1n] }], allowFailure: false }).catch((e: BaseError) => e);
    expect(String(strict)).toContain('ERC20: transfer amount exceeds balance');
    // aggregate3 with a call that may not fail: Multicall3's own revert
    const call3 = encodeFunctionData({ abi: parseAbi(['struct Call3 { address target; bool allowFailure; bytes callData; }', 'function aggregate3(Call3[] calls) returns ((bool, bytes)[])']),
      functionName: 'aggregate3', args: [[{ target: usdc, allowFailure: false, callData: '0x12345678' }]] });
    expect(await node.rpcError('eth_call', [{ to: MULTICALL3, data: call3 }])).toMatchObject({ code: 3, message: 'execution reverted: Multicall3: call failed' });
  }, 30_000);

  it('ethers: aggregate and tryAggregate, and the read helpers', async () => {
    const provider = new JsonRpcProvider(node.url, CHAIN_ID, { staticNetwork: true });
    cleanups.push(() => provider.destroy());
    const multicall = new Contract(MULTICALL3, [
      'function aggregate((address target, bytes callData)[] calls) returns (uint256 blockNumber, bytes[] returnData)',
      'function tryAggregate(bool requireSuccess, (address target, bytes callData)[] calls) returns ((bool success, bytes returnData)[])',
      'function getCurrentBlockTimestamp() view returns (uint256)',
      'function getBlockHash(uint256) view returns (bytes32)',
    ], provider);
    const decimals = { target: usdc, callData: encodeFunctionData({ abi: erc20Abi, functionName: 'decimals' }) };
    const bad = { target: usdc, callData: '0x12345678' };
    const [blockNumber, returnData] = await multicall.getFunction('aggregate').staticCall([decimals, decimals]);
    expect(blockNumber).toBeGreaterThan(0n);
    expect(returnData.map((d: string) => BigInt(d))).toEqual([6n, 6n]);
    const tried = await multicall.getFunction('tryAggregate').staticCall(false, [decimals, bad]);
    expect(tried.map((r: { success: boolean }) => r.success)).toEqual([true, false]);
    const failed = await multicall.getFunction('aggregate').staticCall([decimals, bad]).catch((e: unknown) => e);
    expect(isError(failed, 'CALL_EXCEPTION')).toBe(true);
    const head = await provider.getBlock('latest');
    expect(await multicall.getFunction('getCurrentBlockTimestamp').staticCall()).toBeGreaterThanOrEqual(BigInt(head!.timestamp));
    expect(await multicall.getFunction('getBlockHash').staticCall(head!.number - 1)).toBe((await provider.getBlock(head!.number - 1))!.hash);
  }, 30_000);

  it('txpool_status and txpool_content show pending and queued transactions; rpc_modules lists the namespaces', async () => {
    const { account } = await fundedEvm(node, GWEI);
    const fees = { chainId: CHAIN_ID, type: 'eip1559' as const, gas: 21_000n, maxFeePerGas: 20n * GWEI, maxPriorityFeePerGas: 0n, to: account.address, value: 0n };
    const queuedHash = await node.result<Hex>('eth_sendRawTransaction', [await account.signTransaction({ ...fees, nonce: 3 })]);
    const status = await node.result<{ pending: string; queued: string }>('txpool_status');
    expect(BigInt(status.queued)).toBeGreaterThanOrEqual(1n);
    const content = await node.result<{ pending: Record<string, unknown>; queued: Record<string, Record<string, { hash: string; nonce: string }>> }>('txpool_content');
    expect(content.queued[account.address]?.['3']).toMatchObject({ hash: queuedHash, nonce: '0x3' });
    expect(await node.result('rpc_modules')).toMatchObject({ eth: '1.0', net: '1.0', web3: '1.0', txpool: '1.0', rpc: '1.0', svc: '1.0' });
  }, 30_000);

  it('a read above the head is geth\'s "header not found" (-32000), which viem does not word as a failed transaction', async () => {
    const client = publicClient();
    const above = (await client.getBlockNumber()) + 1000n;
    const error = await client.getBalance({ address: ZERO, blockNumber: above }).catch((e: BaseError) => e);
    expect(error).toBeInstanceOf(BaseError);
    expect((error as BaseError).message).toContain('header not found');
    expect((error as BaseError).message).not.toContain('Transaction creation failed');
    expect(await node.rpcError('eth_call', [{ to: usdc, data: '0x313ce567' }, `0x${above.toString(16)}`])).toMatchObject({ code: -32000, data: { reason: 'HEADER_NOT_FOUND' } });
  }, 30_000);
});
