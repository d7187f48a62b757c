// Settlement with market makers, anchoring and passports over JSON-RPC against running nodes
// (spec §2.7, §4.7, §4.17; docs/settlement.md, docs/anchors.md, docs/passports.md): an order's
// lifecycle in svc_getAtomenceOrder and the stats, the settlement listing and market makers, a
// verified anchor, a passport found by gamertag and a game profile; the testnet convenience methods
// and signed bundles through svc_submitBundle (client helpers); refusals with clear errors and no
// state change; on mainnet the convenience methods refused and the signed operations accepted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet } from '../../src/client/index.js';
import { systemAddressHex } from './bundles.js';
import { TestNode } from './harness.js';
import { APP_ERRORS } from '../../src/rpc/errors.js';

const NTV = 1_000_000_000n;
const SYSTEM = systemAddressHex(7);
const UNKNOWN_TOKEN = APP_ERRORS.UNKNOWN_TOKEN.code; // holds NTV and the genesis stablecoins on testnet

interface Receipt { status: string; status_name: string; fee: string; block_height: number; timestamp: number; events: Array<Record<string, unknown>> }
interface Order {
  order_id: string; state: string; expired: boolean; creator: string; escrow: string; sell_token: string; sell_amount: string; buy_token: string;
  min_buy_amount: string; expiry: number; created_height: number; market_maker: string | null; bid_amount: string | null; ask_amount: string | null;
  spread_bps: number | null; matched_height: number | null; closed_height: number | null; closed_at: number | null;
}
interface Stats { settled_count: number; total_volume: string; avg_spread_bps: number; last_settlement_block: number | null; active_mm_count: number }

let node: TestNode;
let maker: Wallet;
let creator: Wallet;
let usdcMint: string;

beforeAll(async () => {
  node = await TestNode.start({ args: ['--block-time', '1'] });
  maker = Wallet.generate(node.url);
  creator = Wallet.generate(node.url);
  await node.result('svc_transfer', [SYSTEM, maker.address, 'NTV', (25_000n * NTV).toString()]);
  await node.result('svc_transfer', [SYSTEM, creator.address, 'NTV', (10n * NTV).toString()]);
  await node.result('svc_transfer', [SYSTEM, creator.address, 'USDC', '5000000']);
  usdcMint = (await node.result<{ mint_address: string }>('svc_getTokenInfo', ['USDC'])).mint_address;
}, 60_000);

afterAll(async () => {
  await node?.stop();
});

const balance = async (who: string, token: string) => BigInt(await node.result<string>('svc_getBalance', [who, token]));

describe('settlement with market makers (spec §2.7, §4.17)', () => {
  it('an order lives through create, match and settle as signed bundles; svc_getAtomenceOrder and svc_atomenceStats follow it', async () => {
    const before = await node.result<Stats>('svc_atomenceStats', []);
    expect(before).toEqual({ settled_count: 0, total_volume: '0', avg_spread_bps: 0, last_settlement_block: null, active_mm_count: 0 });

    const registered = await maker.registerMarketMaker(1);
    expect((registered.receipt as Receipt).status).toBe('success');
    const mms = await node.result<Array<Record<string, unknown>>>('svc_getMarketMakers', []);
    expect(mms).toEqual([expect.objectContaining({ address: maker.address, tier: 1, stake: (10_000n * NTV).toString(), max_spread_bps: 50, open_matches: 0 })]);
    expect(await node.result('svc_getMarketMakers', [1])).toHaveLength(1);
    expect(await node.result('svc_getMarketMakers', [2])).toEqual([]);
    expect(await balance(mms[0]!.stake_escrow as string, 'NTV')).toBe(10_000n * NTV);

    const now = Math.floor(Date.now() / 1000);
    const created = await creator.createAtomenceOrder('USDC', 1_000_000n, 'NTV', 2n * NTV, now + 600);
    expect((created.receipt as Receipt).status).toBe('success');
    let order = await node.result<Order>('svc_getAtomenceOrder', [created.orderId]);
    expect(order).toMatchObject({ order_id: created.orderId, state: 'open', expired: false, creator: creator.address, sell_token: usdcMint, sell_amount: '1000000', min_buy_amount: (2n * NTV).toString(), market_maker: null, closed_height: null });
    expect(await balance(order.escrow, 'USDC')).toBe(1_000_000n);

    // bid 2 NTV, ask 2.01 NTV: ⌈0.01 · 20,000 / 4.01⌉ = 50 bps, tier 1's widest
    const matched = await maker.matchAtomenceOrder(created.orderId, 2n * NTV, 2_010_000_000n);
    expect((matched.receipt as Receipt).status).toBe('success');
    order = await node.result<Order>('svc_getAtomenceOrder', [created.orderId]);
    expect(order).toMatchObject({ state: 'matched', market_maker: maker.address, bid_amount: (2n * NTV).toString(), ask_amount: '2010000000', spread_bps: 50 });

    const usdcBefore = await balance(maker.address, 'USDC');
    const ntvBefore = await balance(creator.address, 'NTV');
    const settled = await creator.settleAtomenceOrder(created.orderId);
    const receipt = settled.receipt as Receipt;
    expect(receipt.status).toBe('success');
    // both legs in one operation, each a Transfer out of the escrow
    expect(receipt.events.filter((e) => e.type === 'Transfer').map((e) => [e.from, e.to, e.amount])).toEqual([
      [order.escrow, maker.address, '1000000'], [order.escrow, creator.address, (2n * NTV).toString()],
    ]);
    expect(await balance(maker.address, 'USDC')).toBe(usdcBefore + 1_000_000n);
    expect(await balance(creator.address, 'NTV')).toBe(ntvBefore + 2n * NTV - BigInt(receipt.fee));
    order = await node.result<Order>('svc_getAtomenceOrder', [created.orderId]);
    expect(order).toMatchObject({ state: 'settled', closed_height: receipt.block_height, closed_at: receipt.timestamp });

    const stats = await node.result<Stats>('svc_atomenceStats', []);
    expect(stats).toEqual({ settled_count: 1, total_volume: (1_000_000n + 2n * NTV).toString(), avg_spread_bps: 50, last_settlement_block: receipt.block_height, active_mm_count: 1 });
    expect(Object.keys(stats).sort()).toEqual(['active_mm_count', 'avg_spread_bps', 'last_settlement_block', 'settled_count', 'total_volume']);
    expect(await node.result<Stats>('svc_atomenceStats', ['USDC'])).toEqual({ settled_count: 1, total_volume: '1000000', avg_spread_bps: 50, last_settlement_block: receipt.block_height, active_mm_count: 1 });
    expect((await node.result<Stats>('svc_atomenceStats', ['USDT'])).settled_count).toBe(0);

    const list = await node.result<Order[]>('svc_listAtomenceSettlements', []);
    expect(list.map((o) => o.order_id)).toEqual([created.orderId]);
    expect((await node.result<Order[]>('svc_listAtomenceSettlements', ['USDC', receipt.block_height, 10])).map((o) => o.order_id)).toEqual([created.orderId]);
    expect(await node.result('svc_listAtomenceSettlements', ['USDC', receipt.block_height + 1])).toEqual([]);
    expect(await node.result('svc_listAtomenceSettlements', ['USDT'])).toEqual([]);
    expect(await node.result('svc_getAtomenceOrder', ['0x' + '00'.repeat(32)])).toBeNull();
  });

  it('the testnet convenience methods run the same operations; cancel refunds an open order', async () => {
    const now = Math.floor(Date.now() / 1000);
    const created = await node.result<{ order_id: string; receipt: Receipt }>('svc_createAtomenceOrder', ['USDC', '250000', 'NTV', '1000', now + 600, creator.address]);
    expect(created.receipt.status).toBe('success');
    const order = await node.result<Order>('svc_getAtomenceOrder', [created.order_id]);
    expect(order.state).toBe('open');
    const usdc = await balance(creator.address, 'USDC');
    const cancelled = await node.result<Receipt>('svc_cancelAtomenceOrder', [created.order_id, creator.address]);
    expect(cancelled.status).toBe('success');
    expect(await balance(creator.address, 'USDC')).toBe(usdc + 250_000n);
    expect((await node.result<Order>('svc_getAtomenceOrder', [created.order_id])).state).toBe('cancelled');
    // settling a cancelled order fails and changes nothing
    const settle = await node.call('svc_settleAtomenceOrder', [created.order_id, creator.address]);
    expect(settle.error).toMatchObject({ code: -32002, data: { status: 'ORDER_NOT_MATCHED' } });
    expect(await balance(creator.address, 'USDC')).toBe(usdc + 250_000n);

    // a match above tier 1's spread is refused, with the order left open
    const again = await node.result<{ order_id: string }>('svc_createAtomenceOrder', ['USDC', '1000', 'NTV', '1000', now + 600, creator.address]);
    const wide = await node.call('svc_matchAtomenceOrder', [again.order_id, '1000', '1011', maker.address]);
    expect(wide.error).toMatchObject({ code: -32002, data: { status: 'SPREAD_TOO_WIDE' } });
    expect((await node.result<Order>('svc_getAtomenceOrder', [again.order_id])).state).toBe('open');
    const ok = await node.result<Receipt>('svc_matchAtomenceOrder', [again.order_id, '1000', '1005', maker.address]);
    expect(ok.status).toBe('success');
    const dereg = await node.call('svc_deregisterMarketMaker', [maker.address]);
    expect(dereg.error).toMatchObject({ code: -32002, data: { status: 'MM_HAS_OPEN_MATCHES' } });
    const early = await node.call('svc_cancelAtomenceOrder', [again.order_id, maker.address]);
    expect(early.error).toMatchObject({ code: -32002, data: { status: 'ORDER_NOT_EXPIRED' } });
    expect((await node.result<Receipt>('svc_settleAtomenceOrder', [again.order_id, maker.address])).status).toBe('success');
    expect((await node.result<Stats>('svc_atomenceStats', [])).settled_count).toBe(2);
    const same = await node.call('svc_registerMarketMaker', [1, maker.address]);
    expect(same.error).toMatchObject({ code: -32002, data: { status: 'MM_TIER_UNCHANGED' } });
  });

  it('refuses bad input with clear errors that change no state', async () => {
    const expectParam = async (method: string, params: unknown[], param: string) => {
      const res = await node.call(method, params);
      expect(res.error?.code, `${method} ${param}`).toBe(-32602);
      expect(res.error?.data?.param).toBe(param);
    };
    await expectParam('svc_registerMarketMaker', [4, maker.address], 'tier');
    await expectParam('svc_registerMarketMaker', [0, maker.address], 'tier');
    await expectParam('svc_getMarketMakers', [5], 'tier');
    await expectParam('svc_createAtomenceOrder', ['USDC', '-1', 'NTV', '1', 1, creator.address], 'sell_amount');
    await expectParam('svc_createAtomenceOrder', ['USDC', '1', 'NTV', '1', -5, creator.address], 'expiry');
    await expectParam('svc_createAtomenceOrder', ['USDC', '1', 'NTV', '1', 1e30, creator.address], 'expiry');
    await expectParam('svc_setGameProfile', ['chess.v1', creator.address, '18446744073709551616', '{}', maker.address], 'score');
    await expectParam('svc_setGameProfile', ['chess.v1', creator.address, '1', 'é'.repeat(600), maker.address], 'data');
    await expectParam('svc_matchAtomenceOrder', ['not-an-id', '1', '1', maker.address], 'order_id');
    await expectParam('svc_getAtomenceOrder', ['0x1234'], 'order_id');
    await expectParam('svc_listAtomenceSettlements', [null, null, 1001], 'limit');
    await expectParam('svc_listAtomenceSettlements', [null, -1], 'since_block');
    const unknown = await node.call('svc_atomenceStats', ['NOPE']);
    expect(unknown.error?.code).toBe(UNKNOWN_TOKEN);
    expect(unknown.error?.message).toMatch(/unknown token/);
    const zero = await node.call('svc_createAtomenceOrder', ['USDC', '0', 'NTV', '1', Math.floor(Date.now() / 1000) + 60, creator.address]);
    expect(zero.error).toMatchObject({ code: -32002, data: { status: 'ZERO_AMOUNT' } });
    const past = await node.call('svc_createAtomenceOrder', ['USDC', '1', 'NTV', '1', 1, creator.address]);
    expect(past.error).toMatchObject({ code: -32002, data: { status: 'INVALID_ORDER_EXPIRY' } });
    const notMm = await node.call('svc_matchAtomenceOrder', ['0x' + '11'.repeat(32), '1', '1', creator.address]);
    expect(notMm.error).toMatchObject({ code: -32002, data: { status: 'NOT_MARKET_MAKER' } });
  });
});

describe('anchoring (spec §4.7)', () => {
  it('svc_anchor, svc_verifyAnchor and svc_getAnchors; the namespace belongs to its first writer; keys are write-once', async () => {
    const hash = '0x' + 'ab'.repeat(32);
    const r = await node.result<Receipt>('svc_anchor', ['acme.audits', 'reports/2026-q3.pdf', hash, creator.address]);
    expect(r.status).toBe('success');
    const v = await node.result<Record<string, unknown>>('svc_verifyAnchor', ['acme.audits', 'reports/2026-q3.pdf']);
    expect(v).toMatchObject({ exists: true, namespace: 'acme.audits', key: 'reports/2026-q3.pdf', anchorer: creator.address, height: r.block_height, time: r.timestamp, index: 0 });
    expect(v.value_hash).toMatch(/^Nxh/);
    expect(await node.result('svc_verifyAnchor', ['acme.audits', 'missing'])).toMatchObject({ exists: false, value_hash: null, anchorer: null });
    const signed = await creator.anchor('acme.audits', 'reports/2026-q4.pdf', '0x' + 'cd'.repeat(32));
    expect((signed.receipt as Receipt).status).toBe('success');
    const list = await node.result<{ owner: string; count: number; anchors: Array<{ key: string }> }>('svc_getAnchors', ['acme.audits', 10]);
    expect(list.owner).toBe(creator.address);
    expect(list.count).toBe(2);
    expect(list.anchors.map((a) => a.key)).toEqual(['reports/2026-q4.pdf', 'reports/2026-q3.pdf']);
    expect((await node.result<{ anchors: unknown[] }>('svc_getAnchors', ['acme.audits', 1])).anchors).toHaveLength(1);
    expect(await node.result('svc_getAnchors', ['unused-ns'])).toEqual({ namespace: 'unused-ns', owner: null, count: 0, anchors: [] });
    const mine = await node.result<Array<{ namespace: string; key: string }>>('svc_getAnchorsByAccount', [creator.address]);
    expect(mine.map((a) => [a.namespace, a.key])).toEqual([['acme.audits', 'reports/2026-q4.pdf'], ['acme.audits', 'reports/2026-q3.pdf']]);
    expect(await node.result('svc_getAnchorsByAccount', [maker.address])).toEqual([]);

    const again = await node.call('svc_anchor', ['acme.audits', 'reports/2026-q3.pdf', '0x' + '00'.repeat(32), creator.address]);
    expect(again.error).toMatchObject({ code: -32002, data: { status: 'ANCHOR_EXISTS' } });
    const other = await node.call('svc_anchor', ['acme.audits', 'fake.pdf', hash, maker.address]);
    expect(other.error).toMatchObject({ code: -32002, data: { status: 'NOT_NAMESPACE_OWNER' } });
    expect((await node.result<{ count: number }>('svc_getAnchors', ['acme.audits'])).count).toBe(2);
    const badNs = await node.call('svc_anchor', ['Acme Audits', 'k', hash, creator.address]);
    expect(badNs.error).toMatchObject({ code: -32602, data: { param: 'namespace' } });
    const badHash = await node.call('svc_anchor', ['acme.audits', 'k', '0x12', creator.address]);
    expect(badHash.error).toMatchObject({ code: -32602, data: { param: 'value_hash' } });
    const longKey = await node.call('svc_verifyAnchor', ['acme.audits', 'é'.repeat(200)]);
    expect(longKey.error).toMatchObject({ code: -32602, data: { param: 'key' } });
  });
});

describe('passports and game profiles (spec §4.17)', () => {
  it('a passport is found by gamertag in any case; a publisher writes its game\'s profiles', async () => {
    expect((await node.result<Receipt>('svc_createPassport', ['Neo_1', creator.address])).status).toBe('success');
    const p = await node.result<Record<string, unknown>>('svc_lookupPassport', ['NEO_1']);
    expect(p).toMatchObject({ owner: creator.address, gamertag: 'Neo_1', games: 0 });
    expect(await node.result('svc_getPassport', [creator.address])).toEqual(p);
    expect(await node.result('svc_getPassport', [maker.address])).toBeNull();
    expect(await node.result('svc_lookupPassport', ['nobody'])).toBeNull();
    const taken = await node.call('svc_createPassport', ['neo_1', maker.address]);
    expect(taken.error).toMatchObject({ code: -32002, data: { status: 'GAMERTAG_TAKEN' } });
    const second = await node.call('svc_createPassport', ['Trinity', creator.address]);
    expect(second.error).toMatchObject({ code: -32002, data: { status: 'PASSPORT_EXISTS' } });
    const bad = await node.call('svc_createPassport', ['no-dashes', maker.address]);
    expect(bad.error).toMatchObject({ code: -32602, data: { param: 'gamertag' } });

    expect((await maker.registerGame('chess.v1', 'Chess')).receipt).toMatchObject({ status: 'success' });
    const notPublisher = await node.call('svc_setGameProfile', ['chess.v1', creator.address, '1', '{}', creator.address]);
    expect(notPublisher.error).toMatchObject({ code: -32002, data: { status: 'NOT_GAME_PUBLISHER' } });
    const noPassport = await node.call('svc_setGameProfile', ['chess.v1', maker.address, '1', '{}', maker.address]);
    expect(noPassport.error).toMatchObject({ code: -32002, data: { status: 'NO_PASSPORT' } });
    expect((await node.result<Receipt>('svc_setGameProfile', ['chess.v1', creator.address, '1200', '{"elo":1200}', maker.address])).status).toBe('success');
    await maker.setGameProfile('chess.v1', creator.address, 1250, '{"elo":1250}');
    const profile = await node.result<Record<string, unknown>>('svc_getGameProfile', [creator.address, 'chess.v1']);
    expect(profile).toMatchObject({ passport_owner: creator.address, gamertag: 'Neo_1', game_id: 'chess.v1', game_name: 'Chess', publisher: maker.address, score: '1250', data: '{"elo":1250}', revision: 2 });
    expect(await node.result('svc_getGameProfile', [creator.address, 'go.v2'])).toBeNull();
    expect(await node.result('svc_getPassportStats', [])).toEqual({ total_passports: 1, total_games: 1, total_profiles: 1 });
    expect((await node.result<{ games: number }>('svc_getPassport', [creator.address])).games).toBe(1);
  });
});

describe('mainnet (spec §5.6): convenience methods refused, signed operations accepted', () => {
  let main: TestNode;
  beforeAll(async () => {
    main = await TestNode.start({ args: ['--network', 'mainnet', '--block-time', '1', '--gas-price', '0'] });
  }, 60_000);
  afterAll(async () => {
    await main?.stop();
  });

  it('refuses the unsigned forms with -32004 and runs the signed bundles', async () => {
    const w = Wallet.generate(main.url);
    for (const [method, params] of [
      ['svc_registerMarketMaker', [1, w.address]], ['svc_deregisterMarketMaker', [w.address]],
      ['svc_createAtomenceOrder', ['NTV', '1', 'USDC', '1', 1, w.address]], ['svc_matchAtomenceOrder', ['0x' + '11'.repeat(32), '1', '1', w.address]],
      ['svc_settleAtomenceOrder', ['0x' + '11'.repeat(32), w.address]], ['svc_cancelAtomenceOrder', ['0x' + '11'.repeat(32), w.address]],
      ['svc_anchor', ['ns', 'k', '0x' + '11'.repeat(32), w.address]], ['svc_createPassport', ['Mainnet_1', w.address]],
      ['svc_registerGame', ['game.m', 'Game', w.address]], ['svc_setGameProfile', ['game.m', w.address, '1', '', w.address]],
    ] as const) {
      const res = await main.call(method, params as unknown as unknown[]);
      expect(res.error?.code, method).toBe(-32004);
    }
    expect(((await w.anchor('mainnet.docs', 'a', '0x' + '22'.repeat(32))).receipt as Receipt).status).toBe('success');
    expect((await main.result<{ exists: boolean }>('svc_verifyAnchor', ['mainnet.docs', 'a'])).exists).toBe(true);
    expect(((await w.createPassport('Mainnet_1')).receipt as Receipt).status).toBe('success');
    expect(((await w.registerGame('game.m', 'Game')).receipt as Receipt).status).toBe('success');
    expect(((await w.setGameProfile('game.m', w.address, 7, 'x')).receipt as Receipt).status).toBe('success');
    expect((await main.result<{ gamertag: string }>('svc_lookupPassport', ['mainnet_1'])).gamertag).toBe('Mainnet_1');
    // the settlement operations arrive signed and the core decides: this account holds no NTV to stake
    const stake = await w.registerMarketMaker(1).catch((e: { code?: number; data?: { status?: string } }) => e);
    expect(stake).toMatchObject({ code: -32002, data: { status: 'INSUFFICIENT_BALANCE' } });
    const missing = await w.settleAtomenceOrder('0x' + '11'.repeat(32)).catch((e: { code?: number; data?: { status?: string } }) => e);
    expect(missing).toMatchObject({ code: -32002, data: { status: 'ORDER_NOT_FOUND' } });
  }, 60_000);
});
