// The DEX over JSON-RPC against a real node (spec §4.2, docs/dex.md): every method, and every bad
// input answered with a clear JSON-RPC error and no state change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestNode } from './harness.js';
import { systemAddressHex } from './bundles.js';

const NTV = 1_000_000_000n;
const RICH = systemAddressHex(7); // testnet rewards: NTV and the testnet float of every genesis token
const TREASURY = systemAddressHex(3);
const alice = '0x' + 'a1'.repeat(32);
const bob = '0x' + 'b0'.repeat(32);

interface Receipt { status: string; status_name: string; events: Array<Record<string, unknown> & { type: string }>; created?: { pool?: string } }
interface Pool { address: string; token_a: string; token_b: string; symbol_a: string; reserve_a: string; reserve_b: string; lp_total_supply: string; lp_locked: string; creator: string; created_at: number; lock_until: number }
interface Quote { amount_out: string; price_impact_percent: number; price_impact_bps: number; fee: string; pool_address: string; reserve_in: string; reserve_out: string; route_type: string; route: string[] }

let node: TestNode;
const balance = async (address: string, token = 'NTV') => BigInt(await node.result<string>('svc_getBalance', [address, token]));

beforeAll(async () => {
  node = await TestNode.start({ args: ['--block-time', '1'] });
  for (const who of [alice, bob]) {
    await node.result('svc_transfer', [RICH, who, 'NTV', (10_000n * NTV).toString()]);
    await node.result('svc_transfer', [RICH, who, 'USDC', (1_000_000n * 10n ** 6n).toString()]);
    await node.result('svc_transfer', [RICH, who, 'SOL', (10_000n * NTV).toString()]);
  }
}, 60_000);

afterAll(async () => {
  await node?.stop();
});

describe('pools', () => {
  it('svc_createPool creates a pool, charges 100 NTV to the treasury, locks 1,000 LP forever and the creator LP for the lock', async () => {
    const treasury = await balance(TREASURY);
    const receipt = await node.result<Receipt>('svc_createPool', ['USDC', 'NTV', (100_000n * 10n ** 6n).toString(), (1_000n * NTV).toString(), 3600, alice]);
    expect(receipt.status).toBe('success');
    expect(receipt.created?.pool).toMatch(/^Nx8/);
    const created = receipt.events.find((e) => e.type === 'PoolCreated')!;
    expect(created.fee).toBe((100n * NTV).toString());
    expect(await balance(TREASURY) - treasury).toBeGreaterThanOrEqual(100n * NTV);
    const pool = await node.result<Pool>('svc_getPool', ['USDC', 'NTV']);
    expect(pool).toMatchObject({ address: receipt.created!.pool, symbol_a: 'USDC', reserve_a: (100_000n * 10n ** 6n).toString(), reserve_b: (1_000n * NTV).toString() });
    const lp = BigInt(pool.lp_total_supply);
    expect(lp).toBe(316_227_766_016n); // floor(sqrt(1e11 · 1e12))
    expect(BigInt(pool.lp_locked)).toBe(lp); // 1,000 + the creator's lp − 1,000 while locked
    expect(pool.lock_until - pool.created_at).toBe(3600);
    const flipped = await node.result<Pool>('svc_getPool', ['NTV', 'usdc']);
    expect([flipped.reserve_a, flipped.reserve_b]).toEqual([pool.reserve_b, pool.reserve_a]);
    const mine = await node.result<{ lp_balance: string; locked: string }>('svc_getLpBalance', ['USDC', 'NTV', alice]);
    expect(BigInt(mine.lp_balance)).toBe(lp - 1000n);
    expect(mine.locked).toBe(mine.lp_balance);
    // The lock holds: removing fails in the core, reverted whole.
    const locked = await node.rpcError('svc_removeLiquidity', ['USDC', 'NTV', '1', '0', '0', alice]);
    expect(locked.code).toBe(-32002);
    expect(locked.data?.status).toBe('LP_LOCKED');
    const again = await node.rpcError('svc_createPool', ['NTV', 'USDC', '1000000', '1000000', 0, bob]);
    expect([again.code, again.data?.status]).toEqual([-32002, 'POOL_EXISTS']);
    await node.result('svc_createPool', ['SOL', 'NTV', (1_000n * NTV).toString(), (2_000n * NTV).toString(), 0, bob]);
    const list = await node.result<Pool[]>('svc_listPools', [10]);
    expect(list.map((p) => p.address)).toContain(receipt.created!.pool);
    expect(list).toHaveLength(2);
    expect(await node.result<Pool[]>('svc_listPools', { limit: 1 })).toHaveLength(1);
    // issue 41 item 9: the by-name object inside the params array too
    expect(await node.result<Pool[]>('svc_listPools', [{ limit: 1 }])).toHaveLength(1);
    expect((await node.rpcError('svc_listPools', [{ limit: 0 }])).code).toBe(-32602);
    // A pool's Nx8 address holds its reserves, readable with svc_getBalance (issue 41 item 9)
    const listed = (await node.result<Array<Pool & { reserve_a: string; reserve_b: string; token_a: string; token_b: string }>>('svc_listPools', [10]))[0]!;
    expect(await node.result('svc_getBalance', [listed.address, listed.token_a])).toBe(listed.reserve_a);
    expect(await node.result('svc_getBalance', [listed.address, listed.token_b])).toBe(listed.reserve_b);
    // and a staking pool's Nx6 address, the tokens staked in it: none, then what alice staked
    const staking = await node.result<{ created: { staking_pool: string } }>('svc_createStakingPool', ['USDC', 'NTV', '1000', 0, '0', '0', bob]);
    expect(await node.result('svc_getBalance', [staking.created.staking_pool, 'USDC'])).toBe('0');
    await node.result('svc_stakeToPool', [staking.created.staking_pool, '2500', alice]);
    expect(await node.result('svc_getBalance', [staking.created.staking_pool, 'USDC'])).toBe('2500');
  });

  it('svc_quoteSwap equals what svc_swap pays; one unit above the quote is refused', async () => {
    const amountIn = (1_000n * 10n ** 6n).toString();
    const quote = await node.result<Quote>('svc_quoteSwap', ['USDC', 'NTV', amountIn]);
    const want = (1_000n * NTV * 1_000_000_000n * 997n) / (100_000_000_000n * 1000n + 1_000_000_000n * 997n);
    expect(BigInt(quote.amount_out)).toBe(want);
    expect(quote.route_type).toBe('direct');
    expect(quote.fee).toBe('3000000');
    expect(quote.price_impact_bps).toBe(99); // 997/(100000+997) rounded up
    expect(quote.price_impact_percent).toBeCloseTo(0.99);
    const tooMuch = await node.rpcError('svc_swap', ['USDC', 'NTV', amountIn, (BigInt(quote.amount_out) + 1n).toString(), bob]);
    expect([tooMuch.code, tooMuch.data?.status]).toEqual([-32002, 'SLIPPAGE_EXCEEDED']);
    const before = await balance(bob, 'USDC');
    const receipt = await node.result<Receipt>('svc_swap', ['USDC', 'NTV', amountIn, quote.amount_out, bob]);
    const swap = receipt.events.find((e) => e.type === 'Swap')!;
    expect(swap.amount_out).toBe(quote.amount_out);
    expect(before - (await balance(bob, 'USDC'))).toBe(1_000n * 10n ** 6n);
  });

  it('add and remove liquidity with minimums; removing more LP than held is refused', async () => {
    const pool = await node.result<Pool>('svc_getPool', ['SOL', 'NTV']);
    const r = await node.result<Receipt>('svc_addLiquidity', ['SOL', 'NTV', (10n * NTV).toString(), (100n * NTV).toString(), '1', alice]);
    const added = r.events.find((e) => e.type === 'LiquidityAdded')!;
    expect(BigInt(added.lp as string)).toBeGreaterThan(0n);
    const slip = await node.rpcError('svc_addLiquidity', ['SOL', 'NTV', '1000', '2000', (10n ** 30n).toString(), alice]);
    expect([slip.code, slip.data?.status]).toEqual([-32002, 'SLIPPAGE_EXCEEDED']);
    const held = BigInt((await node.result<{ lp_balance: string }>('svc_getLpBalance', ['SOL', 'NTV', alice])).lp_balance);
    const over = await node.rpcError('svc_removeLiquidity', ['SOL', 'NTV', (held + 1n).toString(), '0', '0', alice]);
    expect([over.code, over.data?.status]).toEqual([-32002, 'INSUFFICIENT_LP_BALANCE']);
    const minTooHigh = await node.rpcError('svc_removeLiquidity', ['SOL', 'NTV', held.toString(), (10n ** 20n).toString(), '0', alice]);
    expect(minTooHigh.data?.status).toBe('SLIPPAGE_EXCEEDED');
    const sol = await balance(alice, 'SOL');
    const out = await node.result<Receipt>('svc_removeLiquidity', ['SOL', 'NTV', held.toString(), '1', '1', alice]);
    expect(out.events.find((e) => e.type === 'LiquidityRemoved')!.lp).toBe(held.toString());
    expect(await balance(alice, 'SOL')).toBeGreaterThan(sol);
    expect((await node.result<Pool>('svc_getPool', ['SOL', 'NTV'])).lp_total_supply).toBe(pool.lp_total_supply);
  });

  it('svc_getPrice gives spot and TWAP, directly and auto-routed through NTV', async () => {
    const direct = await node.result<{ price: string; twap: string; route_type: string }>('svc_getPrice', ['SOL', 'NTV']);
    expect(direct.route_type).toBe('direct');
    expect(Number(direct.price)).toBeCloseTo(2, 1);
    expect(Number(direct.twap)).toBeGreaterThan(0);
    const routed = await node.result<{ price: string; route_type: string; route: string[] }>('svc_getPrice', ['USDC', 'SOL']);
    expect(routed.route_type).toBe('auto-routed (2 hops)');
    expect(routed.route).toEqual(['USDC', 'NTV', 'SOL']);
    expect(Number(routed.price)).toBeGreaterThan(0);
    const routedQuote = await node.result<Quote>('svc_quoteSwap', ['USDC', 'SOL', '1000000']);
    expect(routedQuote.route_type).toBe('auto-routed (2 hops)');
    expect(BigInt(routedQuote.amount_out)).toBeGreaterThan(0n);
  });

  it('every bad input is a clear JSON-RPC error and changes nothing', async () => {
    const before = await balance(bob, 'USDC');
    const nonce = (await node.result<{ nonce: string }>('svc_getAccount', [bob])).nonce;
    const cases: Array<[string, unknown[], number, RegExp]> = [
      ['svc_createPool', ['USDC', 'USDC', '1', '1', 0, bob], -32602, /token_b/],
      ['svc_createPool', ['USDC', 'NOPE', '1', '1', 0, bob], -32009, /NOPE/],
      ['svc_createPool', ['USDC', 'SOL', '0', '1', 0, bob], -32602, /amount_a/],
      ['svc_createPool', ['USDC', 'SOL', '1', '-1', 0, bob], -32602, /amount_b/],
      ['svc_createPool', ['USDC', 'SOL', (1n << 128n).toString(), '1', 0, bob], -32602, /amount_a/],
      ['svc_createPool', ['USDC', 'SOL', '1', '1', 315_360_001, bob], -32602, /lp_lock_duration/],
      ['svc_createPool', ['USDC', 'SOL', '1', '1', 0, 'nobody'], -32602, /sender/],
      ['svc_addLiquidity', ['USDC', 'SOL', '1', '1', '0', bob], -32003, /no pool/],
      ['svc_addLiquidity', ['USDC', 'NTV', '1', '1', 'x', bob], -32602, /min_lp_tokens/],
      ['svc_removeLiquidity', ['USDC', 'NTV', '0', '0', '0', bob], -32602, /lp_amount/],
      ['svc_swap', ['USDC', 'NTV', '0', '0', bob], -32602, /amount_in/],
      ['svc_swap', ['NTV', 'ntv', '5', '0', bob], -32602, /to_token/],
      ['svc_swap', ['USDC', 'SOL', '5', '0', bob], -32003, /no pool/],
      ['svc_getPool', ['USDC', 'SOL'], -32003, /no pool/],
      ['svc_getPool', ['USDC'], -32602, /token_b/],
      ['svc_listPools', [0], -32602, /limit/],
      ['svc_quoteSwap', ['USDC', 'BTC', '5'], -32003, /no pool and no route/],
      ['svc_quoteSwap', ['USDC', 'NTV', '0'], -32602, /amount_in/],
      ['svc_getPrice', ['USDC', 'BTC'], -32003, /no pool and no route/],
      ['svc_getPrice', ['USDC', 'NOPE'], -32009, /NOPE/],
    ];
    for (const [method, params, code, message] of cases) {
      const err = await node.rpcError(method, params);
      expect([method, err.code], err.message).toEqual([method, code]);
      expect(err.message).toMatch(message);
    }
    const poor = '0x' + 'c3'.repeat(32);
    await node.result('svc_transfer', [RICH, poor, 'NTV', (1n * NTV).toString()]);
    const broke = await node.rpcError('svc_swap', ['USDC', 'NTV', '1000', '0', poor]);
    expect([broke.code, broke.data?.status]).toEqual([-32002, 'INSUFFICIENT_BALANCE']);
    const noFee = await node.rpcError('svc_createPool', ['USDC', 'SOL', '1000000', '1000000', 0, poor]);
    expect(noFee.data?.status).toBe('INSUFFICIENT_BALANCE');
    expect(await balance(bob, 'USDC')).toBe(before);
    expect((await node.result<{ nonce: string }>('svc_getAccount', [bob])).nonce).toBe(nonce);
  });
});
