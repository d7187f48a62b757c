// Presales and token staking pools over JSON-RPC against one running node (spec §4.5, §4.10;
// docs/presales.md, docs/staking-pools.md): a successful presale ends with a DEX pool whose LP is
// locked; a failed one refunds every contributor exactly; pool rewards match rate × blocks over the
// blocks staked; every method is called, bad input is a clear error with no state change, and on
// mainnet the convenience methods are refused while the client's signed bundles go through.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet, RpcClient } from '../../src/client/index.js';
import { encodeAccount, encodePrefixed } from '../../src/codec/address.js';
import { TestNode } from './harness.js';
import { systemAddressHex } from './bundles.js';

const NTV = 1_000_000_000n;
const RICH = systemAddressHex(7);
const creator = '0x' + 'c1'.repeat(32);
const alice = '0x' + 'a1'.repeat(32);
const bob = '0x' + 'b0'.repeat(32);
const carol = '0x' + 'ca'.repeat(32);

interface Receipt { status: string; status_name: string; block_height: number; timestamp: number; events: Array<Record<string, unknown> & { type: string }>; created?: { presale?: string; pool?: string; staking_pool?: string } }
type Json = Record<string, unknown>;

let node: TestNode;
let mainnet: TestNode;
const balance = async (address: string, token = 'NTV') => BigInt(await node.result<string>('svc_getBalance', [address, token]));
const head = async () => (await node.result<Array<{ height: number; timestamp: number }>>('svc_getRecentBlocks', [1]))[0]!;
async function waitUntil(unix: number) {
  for (;;) {
    const h = await head();
    if (h.timestamp >= unix) return;
    await new Promise((r) => setTimeout(r, 300));
  }
}

beforeAll(async () => {
  node = await TestNode.start({ args: ['--block-time', '1'] });
  for (const who of [creator, alice, bob, carol]) {
    await node.result('svc_transfer', [RICH, who, 'NTV', (10_000n * NTV).toString()]);
    await node.result('svc_transfer', [RICH, who, 'USDC', (1_000_000n * 10n ** 6n).toString()]);
  }
  await node.result('svc_createToken', ['Launch', 'LNCH', 9, (1_000_000n * NTV).toString(), creator]);
  await node.result('svc_createToken', ['Flop', 'FLOP', 9, (1_000_000n * NTV).toString(), creator]);
  await node.result('svc_createToken', ['Farm', 'FARM', 9, (1_000_000n * NTV).toString(), creator]);
}, 60_000);

afterAll(async () => {
  await node?.stop();
  await mainnet?.stop();
});

describe('presales', () => {
  it('a successful presale: escrow, contributions, finalize creates the DEX pool with the LP locked, then claims', async () => {
    const now = (await head()).timestamp;
    const lnch0 = await balance(creator, 'LNCH');
    // 2 LNCH per NTV, soft 100 NTV, hard 300 NTV, 10–200 NTV each, 60% to liquidity, LP locked 30 days
    const created = await node.result<Receipt>('svc_createPresale', ['LNCH', 'NTV', (2n * NTV).toString(), (100n * NTV).toString(), (300n * NTV).toString(),
      (10n * NTV).toString(), (200n * NTV).toString(), now, now + 8, 6000, 30 * 86_400, creator]);
    expect(created.status).toBe('success');
    const presale = created.created!.presale!;
    expect(presale).toMatch(/^Nx0/);
    expect(created.events.find((e) => e.type === 'PresaleCreated')).toMatchObject({ presale, token: expect.stringMatching(/^Nx1/) });
    // the sale and liquidity tokens for the hard cap (600 + 360 LNCH) and the 100 NTV pool fee, escrowed
    expect(await balance(presale, 'LNCH')).toBe(960n * NTV);
    expect(await balance(presale)).toBe(100n * NTV);
    expect(lnch0 - await balance(creator, 'LNCH')).toBe(960n * NTV);

    await node.result('svc_contributePresale', [presale, (150n * NTV).toString(), alice]);
    await node.result('svc_contributePresale', [presale, (50n * NTV).toString(), bob]);
    const status = await node.result<Json>('svc_getPresaleStatus', [presale]);
    expect(status).toMatchObject({ status: 'active', raised: (200n * NTV).toString(), soft_cap_reached: true, hard_cap_reached: false, contributors: 2, can_contribute: true, can_finalize: false, progress_bps: 6666 });
    // state rules answer BUNDLE_FAILED with the status, and change nothing
    const tooMuch = await node.rpcError('svc_contributePresale', [presale, (5n * NTV).toString(), carol]);
    expect(tooMuch).toMatchObject({ code: -32002, data: { status: 'CONTRIBUTION_OUT_OF_RANGE' } });
    const early = await node.rpcError('svc_finalizePresale', [presale, carol]);
    expect(early).toMatchObject({ code: -32002, data: { status: 'PRESALE_NOT_ENDED' } });
    const noRefund = await node.rpcError('svc_refundPresale', [presale, alice]);
    expect(noRefund).toMatchObject({ code: -32002, data: { status: 'PRESALE_NOT_FAILED' } });
    expect((await node.result<Json>('svc_getPresale', [presale])).raised).toBe((200n * NTV).toString());

    await waitUntil(now + 8);
    const late = await node.rpcError('svc_contributePresale', [presale, (10n * NTV).toString(), carol]);
    expect(late).toMatchObject({ code: -32002, data: { status: 'PRESALE_NOT_ACTIVE' } });
    expect((await node.result<Json>('svc_getPresaleStatus', [presale]))).toMatchObject({ status: 'succeeded', can_finalize: true });
    const creatorNtv = await balance(creator);
    const fin = await node.result<Receipt>('svc_finalizePresale', [presale, carol]); // anyone may finalize
    expect(fin.status).toBe('success');
    expect(fin.created?.pool).toMatch(/^Nx8/);
    // 60% of 200 NTV and 240 LNCH into the pool; the creator's LP locked for 30 days; 80 NTV to the creator
    const pool = await node.result<Json>('svc_getPool', ['LNCH', 'NTV']);
    expect(pool).toMatchObject({ address: fin.created!.pool, reserve_a: (240n * NTV).toString(), reserve_b: (120n * NTV).toString(), creator: expect.any(String) });
    expect(BigInt(pool.lp_locked as string)).toBe(BigInt(pool.lp_total_supply as string));
    expect((pool.lock_until as number) - (pool.created_at as number)).toBe(30 * 86_400);
    expect(await balance(creator) - creatorNtv).toBe(80n * NTV);
    const locked = await node.rpcError('svc_removeLiquidity', ['LNCH', 'NTV', '1', '0', '0', creator]);
    expect(locked).toMatchObject({ code: -32002, data: { status: 'LP_LOCKED' } });
    const record = await node.result<Json>('svc_getPresale', [presale]);
    expect(record).toMatchObject({ status: 'finalized', liquidity_paid: (120n * NTV).toString(), liquidity_tokens: (240n * NTV).toString(), tokens_sold: (400n * NTV).toString(),
      creator_proceeds: (80n * NTV).toString(), dex_pool: fin.created!.pool, lp_lock_until: fin.timestamp + 30 * 86_400 });
    // the unsold tokens went back: 960 − 240 − 400
    expect(lnch0 - await balance(creator, 'LNCH')).toBe(640n * NTV);

    const again = await node.rpcError('svc_finalizePresale', [presale, carol]);
    expect(again).toMatchObject({ code: -32002, data: { status: 'PRESALE_FINALIZED' } });
    const refundAfter = await node.rpcError('svc_refundPresale', [presale, alice]);
    expect(refundAfter).toMatchObject({ code: -32002, data: { status: 'PRESALE_FINALIZED' } });
    expect((await node.result<Receipt>('svc_claimPresaleTokens', [presale, alice])).status).toBe('success');
    expect(await balance(alice, 'LNCH')).toBe(300n * NTV);
    const twice = await node.rpcError('svc_claimPresaleTokens', [presale, alice]);
    expect(twice).toMatchObject({ code: -32002, data: { status: 'PRESALE_NOTHING_TO_CLAIM' } });
    const contributions = await node.result<{ count: number; contributions: Json[] }>('svc_getPresaleContributions', [presale]);
    expect(contributions.count).toBe(2);
    expect(contributions.contributions).toEqual([
      expect.objectContaining({ amount: (150n * NTV).toString(), tokens: (300n * NTV).toString(), state: 'claimed' }),
      expect.objectContaining({ amount: (50n * NTV).toString(), tokens: (100n * NTV).toString(), state: 'open' }),
    ]);
    const finalized = await node.result<Json[]>('svc_listPresales', [10, 'finalized']);
    expect(finalized.map((p) => p.presale_address)).toContain(presale);
  }, 60_000);

  it('a failed presale refunds every contributor exactly and the creator its escrow', async () => {
    const now = (await head()).timestamp;
    const flop0 = await balance(creator, 'FLOP');
    const created = await node.result<Receipt>('svc_createPresale', ['FLOP', 'USDC', (5n * NTV * 1000n).toString(), (1_000n * 10n ** 6n).toString(), (2_000n * 10n ** 6n).toString(),
      (1n * 10n ** 6n).toString(), (500n * 10n ** 6n).toString(), now, now + 6, 10_000, 86_400, creator]);
    const presale = created.created!.presale!;
    const a0 = await balance(alice, 'USDC'), b0 = await balance(bob, 'USDC');
    await node.result('svc_contributePresale', [presale, (300n * 10n ** 6n).toString(), alice]);
    await node.result('svc_contributePresale', [presale, (123_456_789n).toString(), bob]);
    await node.result('svc_contributePresale', [presale, (7n * 10n ** 6n).toString(), alice]);
    await waitUntil(now + 6);
    expect(await node.result<Json>('svc_getPresaleStatus', [presale])).toMatchObject({ status: 'failed', can_refund: true, can_finalize: false });
    const below = await node.rpcError('svc_finalizePresale', [presale, alice]);
    expect(below).toMatchObject({ code: -32002, data: { status: 'SOFT_CAP_NOT_MET' } });
    const claim = await node.rpcError('svc_claimPresaleTokens', [presale, alice]);
    expect(claim).toMatchObject({ code: -32002, data: { status: 'PRESALE_NOT_FINALIZED' } });
    for (const who of [alice, bob, creator]) expect((await node.result<Receipt>('svc_refundPresale', [presale, who])).status).toBe('success');
    expect(await balance(alice, 'USDC')).toBe(a0);
    expect(await balance(bob, 'USDC')).toBe(b0);
    expect(await balance(creator, 'FLOP')).toBe(flop0);
    expect(await balance(presale, 'USDC')).toBe(0n);
    const twice = await node.rpcError('svc_refundPresale', [presale, bob]);
    expect(twice).toMatchObject({ code: -32002, data: { status: 'NOTHING_TO_REFUND' } });
    expect(await node.result<Json>('svc_getPresale', [presale])).toMatchObject({ status: 'failed', creator_refunded: true });
    const states = (await node.result<{ contributions: Json[] }>('svc_getPresaleContributions', [presale])).contributions.map((c) => c.state);
    expect(states).toEqual(['refunded', 'refunded']);
  }, 60_000);

  it('bad input is a clear error and changes nothing', async () => {
    const before = await node.result<Json[]>('svc_listPresales', []);
    const now = (await head()).timestamp;
    const args = ['LNCH', 'USDC', '1000000000', '100', '200', '1', '50', now, now + 100, 5000, 86_400, creator];
    const with_ = (i: number, v: unknown) => args.map((a, j) => (j === i ? v : a));
    expect(await node.rpcError('svc_createPresale', with_(1, 'LNCH'))).toMatchObject({ code: -32602 });
    expect(await node.rpcError('svc_createPresale', with_(0, 'NOPE'))).toMatchObject({ message: expect.stringMatching(/unknown token/) });
    expect(await node.rpcError('svc_createPresale', with_(3, '0'))).toMatchObject({ code: -32602, message: expect.stringMatching(/soft_cap/) });
    expect(await node.rpcError('svc_createPresale', with_(4, '99'))).toMatchObject({ code: -32602, message: expect.stringMatching(/hard_cap/) });
    expect(await node.rpcError('svc_createPresale', with_(9, 0))).toMatchObject({ code: -32602, message: expect.stringMatching(/liquidity_bps/) });
    expect(await node.rpcError('svc_createPresale', with_(10, 60))).toMatchObject({ code: -32602, message: expect.stringMatching(/lp_lock_duration/) });
    expect(await node.rpcError('svc_createPresale', with_(8, now - 10))).toMatchObject({ code: -32602, message: expect.stringMatching(/end_time/) });
    expect(await node.rpcError('svc_createPresale', with_(2, '1'))).toMatchObject({ code: -32002, data: { status: 'INVALID_PRESALE_RATE' } });
    expect(await node.rpcError('svc_createPresale', args)).toMatchObject({ code: -32002, data: { status: 'PRESALE_LIQUIDITY_TOO_LOW' } });
    expect(await node.rpcError('svc_createPresale', args.map((a, j) => (j === 2 ? '340282366920938463463374607431768211455' : j === 4 ? (10n ** 20n).toString() : a)))).toMatchObject({ code: -32002, data: { status: 'INVALID_PRESALE_RATE' } });
    expect(await node.rpcError('svc_getPresale', [encodeAccount(new Uint8Array(32).fill(7))])).toMatchObject({ code: -32003 });
    expect(await node.rpcError('svc_getPresale', ['nope'])).toMatchObject({ code: -32602 });
    expect(await node.rpcError('svc_contributePresale', [before[0]!.presale_address, '0', alice])).toMatchObject({ code: -32602, message: expect.stringMatching(/amount/) });
    expect(await node.rpcError('svc_listPresales', [10, 'nearly'])).toMatchObject({ code: -32602 });
    expect(await node.result<Json[]>('svc_listPresales', [])).toEqual(before);
  });
});

describe('token staking pools', () => {
  it('rewards match reward_rate × blocks over N blocks, capped by the funded source', async () => {
    const created = await node.result<Receipt>('svc_createStakingPool', ['FARM', 'USDC', '1000000', 0, '0', '0', creator]);
    const pool = created.created!.staking_pool!;
    expect(pool).toMatch(/^Nx6/);
    await node.result('svc_transfer', [creator, alice, 'FARM', (100n * NTV).toString()]);
    const info0 = await node.result<Json>('svc_getStakingPool', [pool]);
    expect(info0).toMatchObject({ pool_address: pool, token_symbol: 'FARM', reward_symbol: 'USDC', reward_rate: '1000000', total_staked: '0', stakers: 0, reward_balance: '0' });
    await node.result('svc_fundStakingPool', [pool, (20n * 10n ** 6n).toString(), creator]); // 20 blocks' worth
    const staked = await node.result<Receipt>('svc_stakeToPool', [pool, (100n * NTV).toString(), alice]);
    expect(staked.status).toBe('success');
    await node.waitForHeight(staked.block_height + 5);
    const usdc0 = await balance(alice, 'USDC');
    const claim = await node.result<Receipt>('svc_claimPoolRewards', [pool, alice]);
    const n = BigInt(claim.block_height - staked.block_height);
    expect(await balance(alice, 'USDC') - usdc0).toBe(1_000_000n * n); // the only staker: rate × blocks
    // run the source dry: 20 blocks' worth in all, never more
    await node.waitForHeight(staked.block_height + 25);
    await node.result('svc_claimPoolRewards', [pool, alice]);
    expect(await balance(alice, 'USDC') - usdc0).toBe(20n * 10n ** 6n);
    const empty = await node.rpcError('svc_claimPoolRewards', [pool, alice]);
    expect(empty).toMatchObject({ code: -32002, data: { status: 'NO_POOL_REWARDS' } });
    const info = await node.result<Json>('svc_getStakingPool', [pool]);
    expect(info).toMatchObject({ total_staked: (100n * NTV).toString(), stakers: 1, reward_balance: '0', total_paid: (20n * 10n ** 6n).toString(), funded_blocks: 0 });
    const position = await node.result<Json>('svc_getPoolStake', [pool, alice]);
    expect(position).toMatchObject({ amount: (100n * NTV).toString(), pending_rewards: '0', locked: false });
    expect((await node.result<Receipt>('svc_unstakeFromPool', [pool, (100n * NTV).toString(), alice])).status).toBe('success');
    expect(await balance(alice, 'FARM')).toBe(100n * NTV);
    const listed = await node.result<Json[]>('svc_listStakingPools', [5]);
    expect(listed[0]!.pool_address).toBe(pool);
  }, 60_000);

  it('capacity, per-user cap and the lock are enforced; bad input is a clear error', async () => {
    const created = await node.result<Receipt>('svc_createStakingPool', ['USDC', 'NTV', '1', 3600, '1000', '600', creator]);
    const pool = created.created!.staking_pool!;
    await node.result('svc_stakeToPool', [pool, '600', alice]);
    expect(await node.rpcError('svc_stakeToPool', [pool, '1', alice])).toMatchObject({ code: -32002, data: { status: 'POOL_USER_CAP_EXCEEDED' } });
    await node.result('svc_stakeToPool', [pool, '400', bob]);
    expect(await node.rpcError('svc_stakeToPool', [pool, '1', carol])).toMatchObject({ code: -32002, data: { status: 'POOL_CAPACITY_EXCEEDED' } });
    expect(await node.rpcError('svc_unstakeFromPool', [pool, '1', alice])).toMatchObject({ code: -32002, data: { status: 'POOL_STAKE_LOCKED' } });
    expect(await node.rpcError('svc_unstakeFromPool', [pool, '601', alice])).toMatchObject({ code: -32002, data: { status: 'INSUFFICIENT_POOL_STAKE' } });
    expect(await node.result<Json>('svc_getPoolStake', [pool, alice])).toMatchObject({ amount: '600', locked: true });
    expect(await node.rpcError('svc_createStakingPool', ['USDC', 'NTV', '0', 0, '0', '0', creator])).toMatchObject({ code: -32602, message: expect.stringMatching(/reward_rate/) });
    expect(await node.rpcError('svc_createStakingPool', ['USDC', 'NTV', '1', 0, '10', '11', creator])).toMatchObject({ code: -32602, message: expect.stringMatching(/per_user_cap/) });
    expect(await node.rpcError('svc_createStakingPool', ['USDC', 'NTV', '1', -1, '0', '0', creator])).toMatchObject({ code: -32602 });
    expect(await node.rpcError('svc_getStakingPool', [pool.replace(/^Nx6/, 'Nx8')])).toMatchObject({ code: -32602 });
    expect(await node.rpcError('svc_getStakingPool', [encodePrefixed('Nx6', new Uint8Array(32).fill(7))])).toMatchObject({ code: -32003 });
    expect(await node.rpcError('svc_stakeToPool', [pool, '0', alice])).toMatchObject({ code: -32602 });
    expect(await node.result<Json>('svc_getStakingPool', [pool])).toMatchObject({ total_staked: '1000', stakers: 2 });
  }, 30_000);
});

describe('mainnet: convenience methods refused, signed bundles accepted', () => {
  it('the client helpers sign CreateStakingPool, FundStakingPool, StakeToPool and ClaimPoolRewards; svc_createPresale is -32004', async () => {
    mainnet = await TestNode.start({ args: ['--network', 'mainnet', '--block-time', '1', '--gas-price', '0'] });
    const refused = await mainnet.rpcError('svc_createStakingPool', ['USDC', 'NTV', '1', 0, '0', '0', alice]);
    expect(refused.code).toBe(-32004);
    const p = await mainnet.rpcError('svc_createPresale', ['USDC', 'NTV', '1', '1', '1', '1', '1', 0, 1, 1, 86_400, alice]);
    expect(p.code).toBe(-32004);
    const wallet = Wallet.generate(new RpcClient(mainnet.url));
    const r = await wallet.createStakingPool('USDC', 'NTV', 5n, 0n, 0n, 0n);
    const receipt = r.receipt as Receipt;
    expect(receipt.status).toBe('success');
    expect(receipt.created?.staking_pool).toMatch(/^Nx6/);
    const pool = await mainnet.result<Json>('svc_getStakingPool', [receipt.created!.staking_pool]);
    expect(pool).toMatchObject({ reward_rate: '5', creator: wallet.address });
    // the fresh account holds nothing: a stake fails in the core and is reverted whole
    const stake = await wallet.stakeToPool(receipt.created!.staking_pool!, 1n).catch((e: Error) => e);
    expect(String((stake as Error).message ?? '')).toMatch(/balance is lower/);
  }, 60_000);
});
