// ERC-20 allowances against one running node (docs/allowances.md; issue 26 item 3): approve then
// transferFrom with viem 2 and ethers 6 (simulate, send, read back, logs, reverts as OpenZeppelin
// words them), the native svc_approve / svc_transferFrom / svc_getAllowance, and the client
// library's signed Approve / TransferFrom bundles.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contract, JsonRpcProvider, Wallet as EthersWallet } from 'ethers';
import { BaseError, createPublicClient, createWalletClient, defineChain, erc20Abi, http, keccak256, maxUint256, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { Wallet } from '../../src/client/index.js';
import { TestNode } from './harness.js';
import { fundedEvm, SYSTEM_NTV, SYSTEM_USDC, usdcEvmAddress } from './evm-accounts.js';

const CHAIN_ID = 1618032;
const GWEI = 1_000_000_000n;
const APPROVAL_TOPIC = keccak256(Buffer.from('Approval(address,address,uint256)'));
const TRANSFER_TOPIC = keccak256(Buffer.from('Transfer(address,address,uint256)'));
const word = (address: string) => `0x${address.slice(2).toLowerCase().padStart(64, '0')}`;

let node: TestNode;
let usdc: Hex;
const chain = defineChain({
  id: CHAIN_ID, name: 'ntv-testnet', nativeCurrency: { name: 'NTV', symbol: 'NTV', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1'] } },
});

beforeAll(async () => {
  node = await TestNode.start({ args: ['--block-time', '1'] });
  usdc = await usdcEvmAddress(node);
}, 30_000);

afterAll(async () => {
  await node?.stop();
});


describe('viem 2', () => {
  it('simulateContract and writeContract: approve, then transferFrom by the spender; logs, reads and reverts', async () => {
    const { account: owner } = await fundedEvm(node, GWEI, 10_000n);
    const { account: spender } = await fundedEvm(node, GWEI);
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const client = createPublicClient({ chain, transport: http(node.url) });
    const ownerWallet = createWalletClient({ account: owner, chain, transport: http(node.url) });
    const spenderWallet = createWalletClient({ account: spender, chain, transport: http(node.url) });
    const allowance = () => client.readContract({ address: usdc, abi: erc20Abi, functionName: 'allowance', args: [owner.address, spender.address] });
    expect(await allowance()).toBe(0n);

    // Before any approval the spender's simulation reverts as OpenZeppelin's ERC20 would.
    const early = await client.simulateContract({ account: spender, address: usdc, abi: erc20Abi, functionName: 'transferFrom', args: [owner.address, to, 1n] }).catch((e: unknown) => e);
    expect(early).toBeInstanceOf(BaseError);
    expect((early as BaseError).message).toContain('ERC20: insufficient allowance');

    const approve = await client.simulateContract({ account: owner, address: usdc, abi: erc20Abi, functionName: 'approve', args: [spender.address, 6_000n] });
    expect(approve.result).toBe(true);
    const approveHash = await ownerWallet.writeContract(approve.request);
    const approveReceipt = await client.waitForTransactionReceipt({ hash: approveHash, pollingInterval: 200 });
    expect(approveReceipt.status).toBe('success');
    expect(approveReceipt.gasUsed).toBe(21_000n);
    // The receipt and eth_getLogs carry the ERC-20 Approval log on the token's address.
    const approval = approveReceipt.logs.find((l) => l.topics[0] === APPROVAL_TOPIC)!;
    expect(approval.address).toBe(usdc);
    expect(approval.topics.slice(1)).toEqual([word(owner.address), word(spender.address)]);
    expect(BigInt(approval.data)).toBe(6_000n);
    const logs = await node.result<Array<{ transactionHash: string }>>('eth_getLogs', [{ fromBlock: approveReceipt.blockNumber.toString(16).replace(/^/, '0x'), address: usdc, topics: [APPROVAL_TOPIC, word(owner.address)] }]);
    expect(logs.map((l) => l.transactionHash)).toEqual([approveHash]);
    expect(await allowance()).toBe(6_000n);

    // transferFrom: simulated, estimated, sent; the owner's balance moves, the allowance shrinks.
    const move = await client.simulateContract({ account: spender, address: usdc, abi: erc20Abi, functionName: 'transferFrom', args: [owner.address, to, 4_000n] });
    expect(move.result).toBe(true);
    const estimate = await client.estimateContractGas({ account: spender, address: usdc, abi: erc20Abi, functionName: 'transferFrom', args: [owner.address, to, 4_000n] });
    expect(estimate).toBeGreaterThanOrEqual(26_000n);
    const moveHash = await spenderWallet.writeContract(move.request);
    const moveReceipt = await client.waitForTransactionReceipt({ hash: moveHash, pollingInterval: 200 });
    expect(moveReceipt.status).toBe('success');
    expect(moveReceipt.gasUsed).toBe(26_000n);
    const transfer = moveReceipt.logs.find((l) => l.topics[0] === TRANSFER_TOPIC)!;
    expect(transfer.topics.slice(1)).toEqual([word(owner.address), word(to)]);
    expect(BigInt(transfer.data)).toBe(4_000n);
    const balanceOf = (a: Hex) => client.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [a] });
    expect(await balanceOf(owner.address)).toBe(6_000n);
    expect(await balanceOf(to)).toBe(4_000n);
    expect(await allowance()).toBe(2_000n);

    // Beyond the allowance: the simulation and eth_estimateGas revert, and a signed transaction is
    // refused as the contract would revert (code 3), before it reaches the pool.
    const over = await client.simulateContract({ account: spender, address: usdc, abi: erc20Abi, functionName: 'transferFrom', args: [owner.address, to, 2_001n] }).catch((e: unknown) => e);
    expect((over as BaseError).message).toContain('ERC20: insufficient allowance');
    const data = `0x23b872dd${word(owner.address).slice(2)}${word(to).slice(2)}${(2_001n).toString(16).padStart(64, '0')}` as Hex;
    const estimated = await node.rpcError('eth_estimateGas', [{ from: spender.address, to: usdc, data }]);
    expect(estimated.code).toBe(3);
    const raw = await spender.signTransaction({ chainId: CHAIN_ID, type: 'eip1559', nonce: 1, to: usdc, gas: 40_000n, maxFeePerGas: 20n * GWEI, maxPriorityFeePerGas: 0n, data });
    const reverted = await node.rpcError('eth_sendRawTransaction', [raw]);
    expect(reverted.code).toBe(3);
    expect(reverted.message).toBe('execution reverted: ERC20: insufficient allowance');
    // Within the allowance but beyond the owner's balance: the balance revert.
    await ownerWallet.writeContract((await client.simulateContract({ account: owner, address: usdc, abi: erc20Abi, functionName: 'approve', args: [spender.address, 50_000n] })).request)
      .then((hash) => client.waitForTransactionReceipt({ hash, pollingInterval: 200 }));
    const broke = await client.simulateContract({ account: spender, address: usdc, abi: erc20Abi, functionName: 'transferFrom', args: [owner.address, to, 6_001n] }).catch((e: unknown) => e);
    expect((broke as BaseError).message).toContain('ERC20: transfer amount exceeds balance');
  }, 60_000);

  it('approve(spender, maxUint256) is the infinite allowance: it reads back as maxUint256 and transferFrom does not decrement it', async () => {
    const { account: owner } = await fundedEvm(node, GWEI, 1_000n);
    const { account: spender } = await fundedEvm(node, GWEI);
    const client = createPublicClient({ chain, transport: http(node.url) });
    const hash = await createWalletClient({ account: owner, chain, transport: http(node.url) })
      .writeContract({ address: usdc, abi: erc20Abi, functionName: 'approve', args: [spender.address, maxUint256] });
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 200 });
    expect(BigInt(receipt.logs.find((l) => l.topics[0] === APPROVAL_TOPIC)!.data)).toBe(maxUint256);
    const read = () => client.readContract({ address: usdc, abi: erc20Abi, functionName: 'allowance', args: [owner.address, spender.address] });
    expect(await read()).toBe(maxUint256);
    const move = await createWalletClient({ account: spender, chain, transport: http(node.url) })
      .writeContract({ address: usdc, abi: erc20Abi, functionName: 'transferFrom', args: [owner.address, spender.address, 300n] });
    expect((await client.waitForTransactionReceipt({ hash: move, pollingInterval: 200 })).status).toBe('success');
    expect(await read()).toBe(maxUint256);
    const native = await node.result<{ allowance: string; infinite: boolean }>('svc_getAllowance', ['USDC', owner.address, spender.address]);
    expect(native).toMatchObject({ allowance: ((1n << 128n) - 1n).toString(), infinite: true });
  }, 60_000);
});

describe('ethers 6', () => {
  it('contract.approve then contract.transferFrom from the spender, with ethers\' own gas estimates', async () => {
    const { key: ownerKey, account: owner } = await fundedEvm(node, GWEI, 3_000n);
    const { key: spenderKey, account: spender } = await fundedEvm(node, GWEI);
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const provider = new JsonRpcProvider(node.url, CHAIN_ID, { staticNetwork: true, pollingInterval: 200 });
    const abi = [
      'function approve(address spender, uint256 amount) returns (bool)',
      'function transferFrom(address from, address to, uint256 amount) returns (bool)',
      'function allowance(address owner, address spender) view returns (uint256)',
      'function balanceOf(address) view returns (uint256)',
      'event Approval(address indexed owner, address indexed spender, uint256 value)',
    ];
    const asOwner = new Contract(usdc, abi, new EthersWallet(ownerKey, provider));
    const asSpender = new Contract(usdc, abi, new EthersWallet(spenderKey, provider));
    expect(await asOwner.approve!.staticCall(spender.address, 1_500n)).toBe(true);
    const approved = await (await asOwner.approve!(spender.address, 1_500n)).wait();
    expect(approved!.status).toBe(1);
    const parsed = approved!.logs.map((l: { topics: readonly string[]; data: string }) => asOwner.interface.parseLog(l)).find((l: { name?: string } | null) => l?.name === 'Approval');
    expect(parsed!.args.toArray()).toEqual([owner.address, spender.address, 1_500n]);
    expect(await asOwner.allowance!(owner.address, spender.address)).toBe(1_500n);
    const moved = await (await asSpender.transferFrom!(owner.address, to, 1_000n)).wait();
    expect(moved!.status).toBe(1);
    expect(await asOwner.balanceOf!(to)).toBe(1_000n);
    expect(await asOwner.allowance!(owner.address, spender.address)).toBe(500n);
    // ethers estimates before sending: beyond the allowance it is CALL_EXCEPTION with the reason.
    const refused = await asSpender.transferFrom!(owner.address, to, 501n).catch((e: { code?: string; reason?: string }) => e);
    expect(refused).toMatchObject({ code: 'CALL_EXCEPTION', reason: 'ERC20: insufficient allowance' });
    provider.destroy();
  }, 60_000);
});

describe('native methods (testnet convenience)', () => {
  it('svc_approve, svc_getAllowance and svc_transferFrom; refusals name what is wrong', async () => {
    const owner = privateKeyToAccount(generatePrivateKey()).address;
    const spender = privateKeyToAccount(generatePrivateKey()).address;
    const to = privateKeyToAccount(generatePrivateKey()).address;
    await node.result('svc_transfer', [SYSTEM_NTV, owner, 'NTV', GWEI.toString()]);
    await node.result('svc_transfer', [SYSTEM_NTV, spender, 'NTV', GWEI.toString()]);
    await node.result('svc_transfer', [SYSTEM_USDC, owner, 'USDC', '900']);

    const approved = await node.result<{ status: string; events: Array<Record<string, unknown>> }>('svc_approve', ['usdc', spender, '700', owner]);
    expect(approved.status).toBe('success');
    expect(approved.events.find((e) => e.type === 'Approval')).toMatchObject({ symbol: 'USDC', amount: '700' });
    const read = await node.result<Record<string, unknown>>('svc_getAllowance', ['USDC', owner, spender]);
    expect(read).toMatchObject({ symbol: 'USDC', allowance: '700', infinite: false });
    expect(read.owner).toMatch(/^Nx0/);

    const moved = await node.result<{ status: string; events: Array<Record<string, unknown>> }>('svc_transferFrom', ['USDC', owner, to, '650', spender]);
    expect(moved.status).toBe('success');
    const transfer = moved.events.find((e) => e.type === 'Transfer')!;
    expect(transfer.amount).toBe('650');
    expect(await node.result('svc_getBalance', [to, 'USDC'])).toBe('650');
    expect((await node.result<{ allowance: string }>('svc_getAllowance', ['USDC', owner, spender])).allowance).toBe('50');

    // Beyond the allowance the bundle fails in the core: -32002 with the status.
    const short = await node.rpcError('svc_transferFrom', ['USDC', owner, to, '51', spender]);
    expect(short.code).toBe(-32002);
    expect((short.data as { status: string }).status).toBe('INSUFFICIENT_ALLOWANCE');
    // NTV has no allowances: refused as a bad param before any bundle.
    for (const [method, params] of [['svc_approve', ['NTV', spender, '1', owner]], ['svc_transferFrom', ['ntv', owner, to, '1', spender]], ['svc_getAllowance', ['NTV', owner, spender]]] as const) {
      const e = await node.rpcError(method, [...params]);
      expect(e.code, method).toBe(-32602);
      expect(e.message, method).toContain('NTV');
    }
    expect((await node.rpcError('svc_approve', ['NOPE', spender, '1', owner])).code).toBe(-32009);
    expect((await node.rpcError('svc_approve', ['USDC', 'not-an-address', '1', owner])).message).toContain('spender');
    expect((await node.rpcError('svc_transferFrom', ['USDC', owner, to, '-1', spender])).code).toBe(-32602);
    // listed in rpc.discover with their params
    const doc = await node.result<{ methods: Array<{ name: string; params: Array<{ name: string }> }> }>('rpc.discover');
    expect(doc.methods.find((m) => m.name === 'svc_transferFrom')!.params.map((p) => p.name)).toEqual(['token', 'from', 'to', 'amount', 'sender']);
  }, 60_000);
});

describe('client library', () => {
  it('Wallet.approve and Wallet.transferFrom send signed bundles; getAllowance reads them', async () => {
    const owner = Wallet.generate(node.url);
    const spender = Wallet.generate(node.url);
    for (const w of [owner, spender]) await node.result('svc_transfer', [SYSTEM_NTV, w.address, 'NTV', GWEI.toString()]);
    await node.result('svc_transfer', [SYSTEM_USDC, owner.address, 'USDC', '5000']);
    const approved = await owner.approve(spender.address, 'USDC', 1_200n);
    expect((approved.receipt as { status: string }).status).toBe('success');
    expect(await spender.getAllowance('USDC', spender.address, owner.address)).toBe(1_200n);
    const moved = await spender.transferFrom(owner.address, spender.address, 'USDC', 1_000n);
    expect((moved.receipt as { status: string }).status).toBe('success');
    expect(await spender.getBalance('USDC')).toBe(1_000n);
    expect(await owner.getAllowance('USDC', spender.address)).toBe(200n);
  }, 60_000);
});
