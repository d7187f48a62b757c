// Spec conformance over JSON-RPC against one running node (hardening item 8): every token movement
// has its ERC-20 Transfer log (spec §4.18, §6 rule 5) and appears in the explorer and the logs
// subscription; NTV's max supply (§1.4); token features read from each record; system accounts in their
// 0x form (§1.6); a sane averageBlockTime on a young chain; no balance warning without a sender.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import WebSocket from 'ws';
import { keccak256, toHex } from 'viem';
import { encodeAccount, parseAddress, parseMint } from '../../src/codec/address.js';
import { parsePool } from '../../src/core/amm.js';
import { TestNode } from './harness.js';
import { systemAddressHex } from './bundles.js';

const NTV = 1_000_000_000n;
const RICH = systemAddressHex(7); // testnet rewards: NTV and the testnet float of every genesis token
const alice = '0x' + 'a7'.repeat(32);
const bob = '0x' + 'b7'.repeat(32);
const TRANSFER_TOPIC = keccak256(toHex('Transfer(address,address,uint256)'));

type Event = Record<string, unknown> & { type: string };
interface Receipt { bundle_hash: string; block_height: number; from: string; status: string; events: Event[]; created?: { pool?: string; mint?: string } }
interface Log { address: string; topics: string[]; data: string; transactionHash: string }
interface Token { mint_address: string; symbol: string; standard: string; total_supply: string; max_supply?: string; features: Record<string, boolean> }

let node: TestNode;
const mints: Record<string, string> = {};
/** A log's 32-byte party topic of an account (0x…64), an Nx0/Nx1 text or a pool (Nx8). */
const topic = (text: string) => toHex(parsePool(text) ?? parseAddress(text), { size: 32 });
const evm = (symbol: string) => toHex(parseMint(mints[symbol]!).subarray(12));
const word = (amount: string | bigint) => toHex(BigInt(amount), { size: 32 });

/** The ERC-20 logs of one token in the block of a receipt (svc_* writes are one bundle a block here). */
async function logsOf(receipt: Receipt, symbol: string): Promise<Log[]> {
  const h = toHex(receipt.block_height);
  return node.result<Log[]>('eth_getLogs', [{ fromBlock: h, toBlock: h, address: evm(symbol) }]);
}
const transferLog = (from: string, to: string, amount: string | bigint) => ({ topics: [TRANSFER_TOPIC, topic(from), topic(to)], data: word(amount) });

beforeAll(async () => {
  node = await TestNode.start({ args: ['--block-time', '1'] });
  for (const t of await node.result<Token[]>('svc_listTokens', [1000])) mints[t.symbol] = t.mint_address;
  for (const who of [alice, bob]) {
    await node.result('svc_transfer', [RICH, who, 'NTV', (10_000n * NTV).toString()]);
    await node.result('svc_transfer', [RICH, who, 'USDC', (1_000_000n * 10n ** 6n).toString()]);
    await node.result('svc_transfer', [RICH, who, 'SOL', (10_000n * NTV).toString()]);
  }
}, 60_000);

afterAll(async () => {
  await node?.stop();
});

describe('ERC-20 Transfer logs for every token movement (spec §4.18, §6 rule 5)', () => {
  let pool: string;

  it('a pool creation logs creator → pool for both tokens', async () => {
    const usdc = (50_000n * 10n ** 6n).toString();
    const sol = (500n * NTV).toString();
    const receipt = await node.result<Receipt>('svc_createPool', ['USDC', 'SOL', usdc, sol, 0, alice]);
    expect(receipt.status).toBe('success');
    pool = receipt.created!.pool!;
    expect(await logsOf(receipt, 'USDC')).toEqual([expect.objectContaining(transferLog(alice, pool, usdc))]);
    expect(await logsOf(receipt, 'SOL')).toEqual([expect.objectContaining(transferLog(alice, pool, sol))]);
  });

  it('a swap logs trader → pool for the token in and pool → trader for the token out', async () => {
    const amountIn = (1_000n * 10n ** 6n).toString();
    const receipt = await node.result<Receipt>('svc_swap', ['USDC', 'SOL', amountIn, '1', bob]);
    const swap = receipt.events.find((e) => e.type === 'Swap')!;
    // The receipt names the token out, which the core's Swap event leaves to the pool.
    expect(swap).toMatchObject({ token_in: mints.USDC, token_out: mints.SOL, amount_in: amountIn });
    expect(await logsOf(receipt, 'USDC')).toEqual([expect.objectContaining(transferLog(bob, pool, amountIn))]);
    expect(await logsOf(receipt, 'SOL')).toEqual([expect.objectContaining(transferLog(pool, bob, swap.amount_out as string))]);
    // The same logs, filtered by topic as a wallet asks for its incoming transfers.
    const h = toHex(receipt.block_height);
    const incoming = await node.result<Log[]>('eth_getLogs', [{ fromBlock: h, toBlock: h, topics: [TRANSFER_TOPIC, null, topic(bob)] }]);
    expect(incoming.map((l) => l.address)).toContain(evm('SOL'));
  });

  it('adding liquidity logs provider → pool, removing it pool → provider, for both tokens', async () => {
    const added = await node.result<Receipt>('svc_addLiquidity', ['USDC', 'SOL', (1_000n * 10n ** 6n).toString(), (100n * NTV).toString(), '1', bob]);
    const add = added.events.find((e) => e.type === 'LiquidityAdded')!;
    expect(add).toMatchObject({ token0: expect.stringMatching(/^Nx1/), token1: expect.stringMatching(/^Nx1/) });
    const amountOf = (e: Event, symbol: string) => (e.token0 === mints[symbol] ? e.amount0 : e.amount1) as string;
    expect(await logsOf(added, 'USDC')).toEqual([expect.objectContaining(transferLog(bob, pool, amountOf(add, 'USDC')))]);
    expect(await logsOf(added, 'SOL')).toEqual([expect.objectContaining(transferLog(bob, pool, amountOf(add, 'SOL')))]);

    const removed = await node.result<Receipt>('svc_removeLiquidity', ['USDC', 'SOL', add.lp as string, '0', '0', bob]);
    const remove = removed.events.find((e) => e.type === 'LiquidityRemoved')!;
    expect(await logsOf(removed, 'USDC')).toEqual([expect.objectContaining(transferLog(pool, bob, amountOf(remove, 'USDC')))]);
    expect(await logsOf(removed, 'SOL')).toEqual([expect.objectContaining(transferLog(pool, bob, amountOf(remove, 'SOL')))]);
  });

  it('a token creation logs a mint from the zero address to the owner', async () => {
    const receipt = await node.result<Receipt>('svc_createToken', ['Conform Coin', 'CNFM', 6, '5000000', alice]);
    mints.CNFM = receipt.created!.mint!;
    expect(await logsOf(receipt, 'CNFM')).toEqual([expect.objectContaining(transferLog('0x' + '00'.repeat(32), alice, 5_000_000n))]);
  });

  it('an NTV leg is a value movement and has no ERC-20 log, as on Ethereum', async () => {
    const created = await node.result<Receipt>('svc_createPool', ['NTV', 'CNFM', (10n * NTV).toString(), '1000000', 0, alice]);
    const h = toHex(created.block_height);
    const logs = await node.result<Log[]>('eth_getLogs', [{ fromBlock: h, toBlock: h, topics: [TRANSFER_TOPIC, topic(alice)] }]);
    // Only the CNFM leg: the 10 NTV deposit and the 100 NTV fee move the native coin.
    expect(logs.map((l) => l.address)).toEqual([evm('CNFM')]);
  });

  it('svc_getTokenTransfers lists the swap and liquidity legs of a token, newest first', async () => {
    const transfers = await node.result<Array<Record<string, unknown>>>('svc_getTokenTransfers', ['SOL', 20]);
    const kinds = transfers.map((t) => t.event);
    expect(kinds.slice(0, 4)).toEqual(['LiquidityRemoved', 'LiquidityAdded', 'Swap', 'PoolCreated']);
    expect(transfers[2]).toMatchObject({ event: 'Swap', from: pool, to: encodeAccount(parseAddress(bob)), token: mints.SOL, symbol: 'SOL' });
    expect(transfers.every((t) => t.token === mints.SOL)).toBe(true);
    const heights = transfers.map((t) => t.block_height as number);
    expect([...heights].sort((a, b) => b - a)).toEqual(heights);
    const ntv = await node.result<Array<Record<string, unknown>>>('svc_getTokenTransfers', ['NTV', 5]);
    // NTV/CNFM: the 10 NTV deposit and the fee; USDC/SOL before it: the fee to the treasury 0x00…03.
    expect(ntv.filter((t) => t.event === 'PoolCreated').map((t) => t.to)).toEqual([expect.stringMatching(/^Nx8/), systemAddressHex(3), systemAddressHex(3)]);
  });

  it('svc_getAddressHistory shows a pool its swaps and a swap recipient as one', async () => {
    const history = await node.result<Array<Receipt & { role: string }>>('svc_getAddressHistory', [topic(pool), 10]);
    expect(history.map((r) => r.events.find((e) => e.type !== 'Fee')?.type)).toEqual(['LiquidityRemoved', 'LiquidityAdded', 'Swap', 'PoolCreated']);
    expect(history.find((r) => r.events.some((e) => e.type === 'Swap'))!.role).toBe('recipient');
  });

  it('svc_subscribe_logs items carry the token movements of their operation', async () => {
    const ws = new WebSocket(node.url.replace('http', 'ws'));
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    try {
      const items: Array<Record<string, unknown>> = [];
      ws.on('message', (raw) => {
        const msg = JSON.parse(raw.toString()) as { method?: string; params?: { result: Record<string, unknown> } };
        if (msg.method === 'svc_subscription') items.push(msg.params!.result);
      });
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'svc_subscribe_logs', params: [{ opType: ['Swap'] }] }));
      await new Promise((resolve) => ws.once('message', resolve));
      const receipt = await node.result<Receipt>('svc_swap', ['SOL', 'USDC', (1n * NTV).toString(), '1', alice]);
      const swap = receipt.events.find((e) => e.type === 'Swap')!;
      const deadline = Date.now() + 10_000;
      while (!items.some((i) => i.bundleHash === receipt.bundle_hash) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const item = items.find((i) => i.bundleHash === receipt.bundle_hash)!;
      expect((item.data as { transfers: unknown[] }).transfers).toEqual([
        { from: encodeAccount(parseAddress(alice)), to: pool, token: mints.SOL, amount: (1n * NTV).toString() },
        { from: pool, to: encodeAccount(parseAddress(alice)), token: mints.USDC, amount: swap.amount_out },
      ]);
    } finally {
      ws.close();
    }
  });
});

describe('token records (spec §1.4, §2.1)', () => {
  it('NTV shows its 1.618 billion max supply beside the minted supply', async () => {
    const ntv = await node.result<Token>('svc_getTokenInfo', ['NTV']);
    expect(ntv.max_supply).toBe('1618000000000000000');
    expect(BigInt(ntv.total_supply)).toBeLessThanOrEqual(BigInt(ntv.max_supply!));
    expect((await node.result<Token>('svc_getTokenInfo', ['USDC'])).max_supply).toBeUndefined();
  });

  it('features come from each token\'s record: an STD-8 coin by its pause, bridge tokens mint and burn, STD-7 and NTV nothing (issue 41 item 5)', async () => {
    const ALL = { mintable: true, burnable: true, pausable: true, freezable: true };
    const NONE = { mintable: false, burnable: false, pausable: false, freezable: false };
    const tokens = await node.result<Token[]>('svc_listTokens', [1000]);
    const stable = tokens.filter((t) => t.standard === 'STD-8');
    expect(stable.length).toBe(18);
    for (const t of stable) expect(t.features, t.symbol).toEqual(ALL);
    const bridged = tokens.filter((t) => t.standard === 'STD-7 (bridge-canonical)');
    expect(bridged.length).toBeGreaterThan(0);
    for (const t of bridged) expect(t.features, t.symbol).toEqual({ mintable: true, burnable: true, pausable: false, freezable: false });
    expect((await node.result<Token>('svc_getTokenInfo', ['NTV'])).features).toEqual(NONE);
    await node.result('svc_createToken', ['Feature Test', 'FEAT', 6, '1000000', alice]);
    expect((await node.result<Token>('svc_getTokenInfo', ['FEAT'])).features).toEqual(NONE);
    // Paused, PYUSD can be neither minted nor burned; governance holds its pauser role (and pays the fee).
    const governance = systemAddressHex(9);
    await node.result('svc_transfer', [RICH, governance, 'NTV', (10n * NTV).toString()]);
    await node.result('svc_stablePause', ['PYUSD', true, governance]);
    const paused = { mintable: false, burnable: false, pausable: true, freezable: true };
    expect((await node.result<Token>('svc_getTokenInfo', ['PYUSD'])).features).toEqual(paused);
    expect((await node.result<Token[]>('svc_listTokens', [1000])).find((t) => t.symbol === 'PYUSD')!.features).toEqual(paused);
    expect((await node.result<{ token: Token }>('svc_search', ['PYUSD'])).token.features).toEqual(paused);
    await node.result('svc_stablePause', ['PYUSD', false, governance]);
    expect((await node.result<Token>('svc_getTokenInfo', ['PYUSD'])).features).toEqual(ALL);
  });
});

describe('system accounts in their 0x 32-byte form (spec §1.6, §1.9)', () => {
  const faucet = systemAddressHex(7);
  const nx0 = 'Nx0' + bs58.encode(parseAddress(faucet));

  it('svc_getAccount answers 0x…07 for both input forms', async () => {
    for (const input of [faucet, nx0]) expect((await node.result<{ address: string }>('svc_getAccount', [input])).address).toBe(faucet);
  });

  it('receipts and the address history name system accounts in 0x form', async () => {
    const history = await node.result<Array<Receipt & { role: string }>>('svc_getAddressHistory', [nx0, 3]);
    expect(history.length).toBeGreaterThan(0);
    expect(history.every((r) => r.from === faucet && r.role === 'sender')).toBe(true);
    const fee = history[0]!.events.find((e) => e.type === 'Fee')!;
    expect(fee.treasury).toBe(systemAddressHex(3));
    expect(await node.result('svc_getAddressHistory', [faucet, 3])).toEqual(history);
  });
});

describe('network stats and plans', () => {
  it('averageBlockTime leaves the genesis timestamp out', async () => {
    const stats = await node.result<{ averageBlockTime: number; blockHeight: number }>('svc_getNetworkStats');
    expect(stats.blockHeight).toBeGreaterThan(2);
    // --block-time 1, blocks every 0.5–1 s: the genesis date (2026-01-01) would make it days.
    expect(stats.averageBlockTime).toBeGreaterThanOrEqual(0);
    expect(stats.averageBlockTime).toBeLessThan(5);
  });

  it('a fresh node reports its configured block time before two blocks follow genesis', async () => {
    const fresh = await TestNode.start({ args: ['--block-time', '7'] });
    try {
      // Idle blocks come every 7 s: the node answers long before its second one.
      const stats = await fresh.result<{ averageBlockTime: number; blockHeight: number }>('svc_getNetworkStats');
      expect(stats.blockHeight).toBeLessThan(2);
      expect(stats.averageBlockTime).toBe(7);
    } finally {
      await fresh.stop();
    }
  });

  it('svc_getExecutionPlan without a sender warns of no balance; with a poor sender it does', async () => {
    const intent = 'swap 100 USDC for SOL';
    const anonymous = await node.result<{ warnings: string[]; steps: unknown[] }>('svc_getExecutionPlan', [intent]);
    expect(anonymous.steps.length).toBeGreaterThan(0);
    expect(anonymous.warnings).not.toContain('Insufficient balance');
    const poor = await node.result<{ warnings: string[] }>('svc_getExecutionPlan', [intent, '0x' + 'c3'.repeat(32)]);
    expect(poor.warnings).toContain('Insufficient balance');
  });
});
