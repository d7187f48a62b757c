// State at past blocks (issue 42 item 1; docs/storage.md "State history", docs/eth.md "Block
// parameters"): ethers 6, viem 2 and web3.js 4 read balances, an ERC-20 balanceOf (eth_call), a
// nonce and code at head−1, head−127 and (archive) height 1, against the values recorded at those
// heights; Multicall3 (viem multicall, readContract batched through it, ethers and web3.js
// aggregate3) at those heights reads the state and block as of them; svc_getBalance and svc_getProof
// take a height, the proof verifying against that block's state root; eth_estimateGas and
// eth_createAccessList judge funds and the call as of the block. A node with --pruning aggressive and its default window serves the last 128 blocks'
// state to the three libraries (head−1, head−127) and refuses a read below it with -32013 naming the
// oldest height (docs/operations.md "Pruning").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contract, JsonRpcProvider } from 'ethers';
import { createPublicClient, decodeFunctionResult, defineChain, encodeFunctionData, erc20Abi, http, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { Web3 } from 'web3';
import { TestNode } from './harness.js';
import { errorText } from './evm-accounts.js';
import { NATIVE_MINT, parseHash, parseMint } from '../../src/codec/address.js';
import { verifyBalanceProof, type GetProofResult } from '../../src/client/proof.js';
import { multicall3Abi } from '../../src/eth/multicall.js';

const CHAIN_ID = 1618032;
const SYSTEM_NTV = `0x${'00'.repeat(31)}01`;
const SYSTEM_USDC = `0x${'00'.repeat(31)}07`;
const WEI_PER_NANO = 1_000_000_000n;
const MULTICALL3 = '0xcA11bde05977b3631167028862bE2a173976CA11' as const;

/** What a block changed for the recipient, as its receipts said: the totals from that height on. */
interface Recorded { height: number; ntv: bigint; usdc: bigint; systemNonce: bigint }

let node: TestNode;
let usdc: Hex;
let usdcMint: string;
const recipient = privateKeyToAccount(generatePrivateKey()).address;
const recorded: Recorded[] = [];
/** the head the reads below are relative to, fixed once the history is made */
let head: number;
/** a token created mid-history: its block, its EVM address, the owner holding its supply */
let created: { height: number; evm: Hex; owner: string };
/**
 * A node with `--pruning aggressive` and its default state window (the last 128 blocks, as geth),
 * started beside the archive one and paid the same way: early payments that fall below its window,
 * late ones inside it. Pruning runs every 5 blocks here (spec: 100) so the window moves while read.
 */
let pruning: TestNode;
const prunedRecipient = privateKeyToAccount(generatePrivateKey()).address;
const prunedRecorded: Recorded[] = [];

/** The recipient's totals as of the end of block `height` (every transfer included at or below it). */
function expectedAt(height: number, list: Recorded[] = recorded): Recorded {
  let out: Recorded = { height, ntv: 0n, usdc: 0n, systemNonce: 0n };
  for (const r of list) if (r.height <= height) out = { ...r, height };
  return out;
}

/** Pays `who` on `target` (NTV, then USDC) and records the totals from each receipt's block on. */
async function pay(target: TestNode, list: Recorded[], who: string, i: number): Promise<void> {
  const ntv = BigInt(1000 * (i + 1));
  const usdcRaw = BigInt(7 * (i + 1));
  const a = await target.result<{ block_height: number; nonce: string }>('svc_transfer', [SYSTEM_NTV, who, 'NTV', ntv.toString()]);
  const b = await target.result<{ block_height: number }>('svc_transfer', [SYSTEM_USDC, who, 'USDC', usdcRaw.toString()]);
  const last = list.at(-1) ?? { height: 0, ntv: 0n, usdc: 0n, systemNonce: 0n };
  // Two receipts, possibly in two blocks: the NTV one first, then the USDC one.
  list.push({ height: a.block_height, ntv: last.ntv + ntv, usdc: last.usdc, systemNonce: BigInt(a.nonce) + 1n });
  list.push({ height: b.block_height, ntv: last.ntv + ntv, usdc: last.usdc + usdcRaw, systemNonce: BigInt(a.nonce) + 1n });
}

beforeAll(async () => {
  // 0.5 s idle blocks (the least --block-time): the 135 blocks below take ~70 s.
  [node, pruning] = await Promise.all([
    TestNode.start({ args: ['--block-time', '0.5'] }),
    TestNode.start({ args: ['--block-time', '0.5', '--pruning', 'aggressive', '--pruning-every', '5'] }),
  ]);
  const info = await node.result<{ mint_address: string }>('svc_getTokenInfo', ['USDC']);
  usdcMint = info.mint_address;
  usdc = (await node.result<{ evm_address: string }>('svc_getAccount', [info.mint_address])).evm_address as Hex;
  // Payments early (below head−127 once the chain has grown), then blocks pass, then payments at the end.
  for (let i = 0; i < 3; i++) await pay(node, recorded, recipient, i);
  await pay(pruning, prunedRecorded, prunedRecipient, 0);
  const owner = privateKeyToAccount(generatePrivateKey()).address;
  await node.result('svc_faucet', [owner]); // the owner sends the bundle and pays its fee
  const receipt = await node.result<{ block_height: number; created?: { mint: string } }>('svc_createToken', ['History Token', 'HIST', 6, '1000000', owner]);
  created = { height: receipt.block_height, evm: (await node.result<{ evm_address: string }>('svc_getAccount', [receipt.created!.mint])).evm_address as Hex, owner };
  await Promise.all([node.waitForHeight(recorded.at(-1)!.height + 135, 150_000), pruning.waitForHeight(prunedRecorded.at(-1)!.height + 135, 150_000)]);
  for (let i = 3; i < 6; i++) await pay(node, recorded, recipient, i);
  await pay(pruning, prunedRecorded, prunedRecipient, 1);
  head = Number(BigInt(await node.result<string>('eth_blockNumber')));
}, 240_000);

afterAll(async () => {
  await Promise.all([node?.stop(), pruning?.stop()]);
});


/** The heights the issue names: head−1, head−127 and height 1 (an archive node), and each payment's own. */
const heights = () => [head - 1, head - 127, 1, ...new Set(recorded.map((r) => r.height))];

describe('state at past blocks through the libraries (archive node)', () => {
  it('ethers: balances, ERC-20 balanceOf, nonce and code at past blocks equal the values recorded at them', async () => {
    const provider = new JsonRpcProvider(node.url, CHAIN_ID, { staticNetwork: true });
    const token = new Contract(usdc, erc20Abi, provider);
    for (const height of heights()) {
      const want = expectedAt(height);
      expect(await provider.getBalance(recipient, height)).toBe(want.ntv * WEI_PER_NANO);
      expect(await token.getFunction('balanceOf').staticCall(recipient, { blockTag: height })).toBe(want.usdc);
      expect(BigInt(await provider.getTransactionCount(`0x${SYSTEM_NTV.slice(-40)}`, height))).toBe(want.systemNonce);
    }
    expect(await provider.getCode(usdc, 1)).toMatch(/^0xfe/);
    provider.destroy();
  });

  it('viem: getBalance and readContract(balanceOf) with blockNumber', async () => {
    const chain = defineChain({ id: CHAIN_ID, name: 'ntv', nativeCurrency: { name: 'NTV', symbol: 'NTV', decimals: 18 }, rpcUrls: { default: { http: [node.url] } } });
    const client = createPublicClient({ chain, transport: http(node.url) });
    for (const height of heights()) {
      const want = expectedAt(height);
      const blockNumber = BigInt(height);
      expect(await client.getBalance({ address: recipient, blockNumber })).toBe(want.ntv * WEI_PER_NANO);
      expect(await client.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [recipient], blockNumber })).toBe(want.usdc);
    }
  });

  it('web3.js: getBalance and contract.methods.balanceOf().call at a block', async () => {
    const web3 = new Web3(node.url);
    const token = new web3.eth.Contract(erc20Abi, usdc);
    for (const height of heights()) {
      const want = expectedAt(height);
      expect(await web3.eth.getBalance(recipient, height)).toBe(want.ntv * WEI_PER_NANO);
      expect(await token.methods.balanceOf(recipient).call(undefined, height)).toBe(want.usdc);
    }
  });

  it('svc_getBalance takes a height; svc_getProof at a height verifies against that block\'s state root', async () => {
    for (const height of heights()) {
      const want = expectedAt(height);
      expect(await node.result('svc_getBalance', [recipient, 'NTV', height])).toBe(want.ntv.toString());
      expect(await node.result('svc_getBalance', [recipient, 'USDC', height])).toBe(want.usdc.toString());
      const proof = await node.result<GetProofResult>('svc_getProof', [recipient, 'USDC', height]);
      expect(proof.height).toBe(height);
      const header = await node.result<{ stateRoot: string }>('svc_getBlockByHeight', [height]);
      expect(proof.state_root).toBe(header.stateRoot);
      expect(verifyBalanceProof(proof, recipient, parseMint(usdcMint), parseHash(header.stateRoot))).toBe(want.usdc);
      const ntvProof = await node.result<GetProofResult>('svc_getProof', [recipient, 'NTV', height]);
      expect(verifyBalanceProof(ntvProof, recipient, NATIVE_MINT, parseHash(header.stateRoot))).toBe(want.ntv);
    }
    // above the head: not found, as a block above it is
    expect((await node.call('svc_getBalance', [recipient, 'NTV', head + 10_000])).error).toMatchObject({ code: -32003 });
    expect((await node.call('svc_getBalance', [recipient, 'NTV', -1])).error).toMatchObject({ code: -32602 });
  });

  it('an account or token created after a block has no balance or code at it', async () => {
    const first = recorded[0]!.height;
    expect(await node.result('eth_getBalance', [recipient, `0x${(first - 1).toString(16)}`])).toBe('0x0');
    expect(await node.result('svc_getBalance', [recipient, 'USDC', first - 1])).toBe('0');
    const before = `0x${(created.height - 1).toString(16)}`;
    const at = `0x${created.height.toString(16)}`;
    expect(await node.result('eth_getCode', [created.evm, before])).toBe('0x');
    expect(await node.result('eth_getCode', [created.evm, at])).toMatch(/^0xfe/);
    expect(await node.result('eth_call', [{ to: created.evm, data: '0x18160ddd' }, before])).toBe('0x'); // totalSupply(): no code then
    expect(BigInt(await node.result<string>('eth_call', [{ to: created.evm, data: '0x18160ddd' }, at]))).toBe(1_000_000n);
    const provider = new JsonRpcProvider(node.url, CHAIN_ID, { staticNetwork: true });
    const token = new Contract(created.evm, erc20Abi, provider);
    expect(await token.getFunction('balanceOf').staticCall(created.owner, { blockTag: created.height })).toBe(1_000_000n);
    expect(await token.getFunction('balanceOf').staticCall(created.owner, { blockTag: head - 1 })).toBe(1_000_000n);
    provider.destroy();
  });

  it('eth_estimateGas and eth_createAccessList at a past block judge the call over the state as of it: funds, the transfer\'s revert, and a token not yet created', async () => {
    // A spender paid NTV (for fees) in block A, then 500 HIST in block B: at B−1 the transfer of
    // those 500 reverts, at B it is estimated, before A its NTV cannot pay the fee.
    const spender = privateKeyToAccount(generatePrivateKey()).address;
    const a = (await node.result<{ block_height: number }>('svc_faucet', [spender])).block_height;
    const b = (await node.result<{ block_height: number }>('svc_transfer', [created.owner, spender, 'HIST', '500'])).block_height;
    const hex = (h: number) => `0x${h.toString(16)}`;
    const transfer = (amount: bigint) => encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [recipient, amount] });
    const call = { from: spender, to: created.evm, data: transfer(500n) };
    const atHead = await node.result<string>('eth_estimateGas', [call]);
    expect(await node.result('eth_estimateGas', [call, hex(b)])).toBe(atHead);
    expect(await node.result('eth_createAccessList', [call, hex(b)])).toEqual({ accessList: [], gasUsed: atHead });
    expect(b).toBeGreaterThan(a); // the transfer was sent once the faucet's receipt was in
    const before = await node.rpcError('eth_estimateGas', [call, hex(b - 1)]);
    expect(before.code).toBe(3);
    expect(before.message).toContain('ERC20: transfer amount exceeds balance');
    expect((await node.rpcError('eth_createAccessList', [call, hex(b - 1)])).code).toBe(3);
    expect((await node.rpcError('eth_estimateGas', [{ ...call, data: transfer(501n) }, hex(b)])).message).toContain('ERC20: transfer amount exceeds balance');
    // before the faucet's block the spender held no NTV for the fee
    expect((await node.rpcError('eth_estimateGas', [call, hex(a - 1)])).message).toMatch(/^insufficient funds/);
    // viem passes blockNumber through
    const chain = defineChain({ id: CHAIN_ID, name: 'ntv', nativeCurrency: { name: 'NTV', symbol: 'NTV', decimals: 18 }, rpcUrls: { default: { http: [node.url] } } });
    const client = createPublicClient({ chain, transport: http(node.url) });
    expect(await client.estimateContractGas({ account: spender, address: created.evm, abi: erc20Abi, functionName: 'transfer', args: [recipient, 500n], blockNumber: BigInt(b) })).toBe(BigInt(atHead));
    // before the token was created its address had no code: a call to it costs its calldata's intrinsic gas
    const intrinsic = 21_000n + [...Buffer.from(transfer(500n).slice(2), 'hex')].reduce((gas, byte) => gas + (byte === 0 ? 4n : 16n), 0n);
    expect(BigInt(await node.result<string>('eth_estimateGas', [{ to: created.evm, data: transfer(500n) }, hex(created.height - 1)]))).toBe(intrinsic);
  });

  it('Multicall3 at a past block: viem multicall (and readContract batched through it, as wagmi\'s clients do), ethers and web3.js aggregate3 read the state and the block as of it', async () => {
    const chain = defineChain({
      id: CHAIN_ID, name: 'ntv', nativeCurrency: { name: 'NTV', symbol: 'NTV', decimals: 18 },
      rpcUrls: { default: { http: [node.url] } }, contracts: { multicall3: { address: MULTICALL3 } },
    });
    const client = createPublicClient({ chain, transport: http(node.url), batch: { multicall: true } });
    const provider = new JsonRpcProvider(node.url, CHAIN_ID, { staticNetwork: true });
    const ethersMulticall = new Contract(MULTICALL3, multicall3Abi, provider);
    const web3 = new Web3(node.url);
    const web3Multicall = new web3.eth.Contract(multicall3Abi, MULTICALL3);
    const balanceOf = encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [recipient] });
    const getEthBalance = encodeFunctionData({ abi: multicall3Abi, functionName: 'getEthBalance', args: [recipient] });
    const getBlockNumber = encodeFunctionData({ abi: multicall3Abi, functionName: 'getBlockNumber' });
    const calls = [{ target: usdc, allowFailure: false, callData: balanceOf }, { target: MULTICALL3, allowFailure: false, callData: getEthBalance },
      { target: MULTICALL3, allowFailure: false, callData: getBlockNumber }];
    for (const height of heights()) {
      const want = expectedAt(height);
      const blockNumber = BigInt(height);
      const { timestamp } = await client.getBlock({ blockNumber });
      const results = await client.multicall({
        blockNumber, allowFailure: false, contracts: [
          { address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [recipient] },
          { address: MULTICALL3, abi: multicall3Abi, functionName: 'getEthBalance', args: [recipient] },
          { address: MULTICALL3, abi: multicall3Abi, functionName: 'getBlockNumber' },
          { address: MULTICALL3, abi: multicall3Abi, functionName: 'getCurrentBlockTimestamp' },
        ],
      });
      expect(results, `viem multicall at ${height}`).toEqual([want.usdc, want.ntv * WEI_PER_NANO, blockNumber, timestamp]);
      // two reads in one tick: the client batches them into one Multicall3 eth_call at the block
      const batched = await Promise.all([
        client.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [recipient], blockNumber }),
        client.readContract({ address: MULTICALL3, abi: multicall3Abi, functionName: 'getEthBalance', args: [recipient], blockNumber }),
      ]);
      expect(batched, `viem batched readContract at ${height}`).toEqual([want.usdc, want.ntv * WEI_PER_NANO]);
      const expected = [want.usdc, want.ntv * WEI_PER_NANO, blockNumber];
      const viaEthers = await ethersMulticall.getFunction('aggregate3').staticCall(calls, { blockTag: height }) as Array<{ success: boolean; returnData: string }>;
      expect(viaEthers.map((r) => r.success)).toEqual([true, true, true]);
      expect(viaEthers.map((r) => BigInt(r.returnData)), `ethers aggregate3 at ${height}`).toEqual(expected);
      const viaWeb3 = await web3Multicall.methods.aggregate3(calls).call(undefined, height) as Array<{ success: boolean; returnData: string }>;
      expect(viaWeb3.map((r) => BigInt(r.returnData)), `web3.js aggregate3 at ${height}`).toEqual(expected);
    }
    // aggregate's block number and getLastBlockHash are those of the block read
    const [number] = await ethersMulticall.getFunction('aggregate').staticCall([{ target: usdc, callData: balanceOf }], { blockTag: head - 127 }) as [bigint];
    expect(number).toBe(BigInt(head - 127));
    expect(await ethersMulticall.getFunction('getLastBlockHash').staticCall({ blockTag: head - 127 })).toBe((await provider.getBlock(head - 128))!.hash);
    provider.destroy();
  });

  it('a simulated transfer at a past block runs over the state as of it: viem simulateContract, ethers staticCall and web3.js call, and inside Multicall3', async () => {
    const chain = defineChain({ id: CHAIN_ID, name: 'ntv', nativeCurrency: { name: 'NTV', symbol: 'NTV', decimals: 18 }, rpcUrls: { default: { http: [node.url] } } });
    const client = createPublicClient({ chain, transport: http(node.url) });
    const provider = new JsonRpcProvider(node.url, CHAIN_ID, { staticNetwork: true });
    const ethersToken = new Contract(usdc, erc20Abi, provider);
    const web3 = new Web3(node.url);
    const web3Token = new web3.eth.Contract(erc20Abi, usdc);
    const to = `0x${'42'.repeat(20)}` as Hex;
    /** transfer(to, amount) from the recipient at `height`, through each library: true, or the revert's reason */
    const transferAt = async (height: number, amount: bigint) => ({
      viem: await client.simulateContract({ account: recipient, address: usdc, abi: erc20Abi, functionName: 'transfer', args: [to, amount], blockNumber: BigInt(height) })
        .then((r) => r.result, (e: Error) => (e.message.includes('ERC20: transfer amount exceeds balance') ? 'exceeds' : e.message)),
      ethers: await ethersToken.getFunction('transfer').staticCall(to, amount, { from: recipient, blockTag: height })
        .then((r: boolean) => r, (e: Error) => (e.message.includes('ERC20: transfer amount exceeds balance') ? 'exceeds' : e.message)),
      web3: await web3Token.methods.transfer(to, amount).call({ from: recipient }, height)
        .then((r) => r, (e: unknown) => (errorText(e).includes('ERC20: transfer amount exceeds balance') ? 'exceeds' : errorText(e))),
    });
    const all = (v: boolean | string) => ({ viem: v, ethers: v, web3: v });
    // the recipient's whole USDC balance as of each block moves, one unit more does not
    for (const height of [recorded[1]!.height, recorded[3]!.height, head - 127, head - 1]) {
      const want = expectedAt(height).usdc;
      expect(want, `USDC at ${height}`).toBeGreaterThan(0n);
      expect(await transferAt(height, want), `transfer of ${want} at ${height}`).toEqual(all(true));
      expect(await transferAt(height, want + 1n), `transfer of ${want + 1n} at ${height}`).toEqual(all('exceeds'));
    }
    // before the first USDC payment: 1 unit is more than the recipient held
    expect(await transferAt(recorded[0]!.height - 1, 1n)).toEqual(all('exceeds'));
    // inside Multicall3 at a past block: the inner transfer runs from Multicall3 (msg.sender), which holds nothing
    const aggregate3 = encodeFunctionData({ abi: multicall3Abi, functionName: 'aggregate3', args: [[{ target: usdc, allowFailure: true, callData: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, 1n] }) }]] });
    const [result] = decodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', data: await node.result<Hex>('eth_call', [{ to: MULTICALL3, data: aggregate3 }, `0x${(head - 1).toString(16)}`]) });
    expect(result!.success).toBe(false);
    provider.destroy();
  }, 60_000);
});

describe('a pruning node (aggressive, default window) serves the last 128 blocks and names the oldest height below them', () => {
  it('ethers, viem and web3.js read balances and ERC-20 balanceOf at head−1 and head−127 as recorded there', async () => {
    const provider = new JsonRpcProvider(pruning.url, CHAIN_ID, { staticNetwork: true });
    const ethersToken = new Contract(usdc, erc20Abi, provider);
    const chain = defineChain({ id: CHAIN_ID, name: 'ntv', nativeCurrency: { name: 'NTV', symbol: 'NTV', decimals: 18 }, rpcUrls: { default: { http: [pruning.url] } } });
    const client = createPublicClient({ chain, transport: http(pruning.url) });
    const web3 = new Web3(pruning.url);
    const web3Token = new web3.eth.Contract(erc20Abi, usdc);
    const who = prunedRecipient;
    const readAt = async (height: number) => ({
      ethers: [await provider.getBalance(who, height), await ethersToken.getFunction('balanceOf').staticCall(who, { blockTag: height })],
      viem: [await client.getBalance({ address: who, blockNumber: BigInt(height) }),
        await client.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [who], blockNumber: BigInt(height) })],
      web3: [await web3.eth.getBalance(who, height), await web3Token.methods.balanceOf(who).call(undefined, height)],
    });
    // A prune at head h (every 5 blocks here) keeps the states from h−127 on, so head−127 of a head
    // read just before is served unless a prune ran during the reads: if the head passed a multiple
    // of 5 meanwhile, read again.
    let checked = 0;
    for (let attempt = 0; attempt < 20 && checked === 0; attempt++) {
      const now = Number(BigInt(await pruning.result<string>('eth_blockNumber')));
      const read = await Promise.all([now - 1, now - 127].map(async (height) => ({ height, got: await readAt(height).catch((e: unknown) => e) })));
      if (Math.floor(Number(BigInt(await pruning.result<string>('eth_blockNumber'))) / 5) !== Math.floor(now / 5)) continue;
      for (const { height, got } of read) {
        if (got instanceof Error) throw got;
        const want = expectedAt(height, prunedRecorded);
        // the early payments, 135 blocks before the late ones, are at or below head−127
        expect(want.ntv).toBeGreaterThan(0n);
        const pair = [want.ntv * WEI_PER_NANO, want.usdc];
        expect(got, `at ${height} (head ${now})`).toEqual({ ethers: pair, viem: pair, web3: pair });
        checked++;
      }
    }
    expect(checked).toBe(2);
    provider.destroy();
  }, 60_000);

  it('-32013 below the window, naming the oldest height served, which is at most head−127', async () => {
    const early = prunedRecorded[0]!.height;
    // pruning runs beside the pipeline: wait until a run has moved past the early payment
    let error: { code: number; message: string; data?: Record<string, unknown> } | undefined;
    const deadline = Date.now() + 30_000;
    while (!error && Date.now() < deadline) {
      error = (await pruning.call('eth_getBalance', [prunedRecipient, `0x${early.toString(16)}`])).error;
      if (!error) await new Promise((r) => setTimeout(r, 100));
    }
    expect(error).toMatchObject({ code: -32013, message: expect.stringMatching(/^missing trie node: the state at block 0x[0-9a-f]+ is not kept; this node serves state from block 0x[0-9a-f]+/) });
    const oldest = Number(BigInt(error!.data!.oldest_block as string));
    expect(oldest).toBeGreaterThan(early);
    expect(oldest).toBeLessThanOrEqual(Number(BigInt(await pruning.result<string>('eth_blockNumber'))) - 127);
    const call = (await pruning.call('eth_call', [{ to: usdc, data: `0x70a08231${prunedRecipient.slice(2).toLowerCase().padStart(64, '0')}` }, `0x${early.toString(16)}`])).error;
    expect(call).toMatchObject({ code: -32013 });
    const svc = (await pruning.call('svc_getBalance', [prunedRecipient, 'NTV', 1])).error;
    expect(svc).toMatchObject({ code: -32013, data: { height: 1 } });
    expect(Number(svc!.data!.oldest_height)).toBeGreaterThanOrEqual(oldest);
    expect(svc!.message).toMatch(/serves state from block \d+/);
    expect((await pruning.call('svc_getProof', [prunedRecipient, 'NTV', 1])).error).toMatchObject({ code: -32013 });
  }, 60_000);
});
