// The intent planner's rules (spec §4.8 "Planner rules", §7.2–7.3; docs/intents.md) on hand-made
// parsed intents and pools, quoted by the core's own AMM math (build/core.wasm), cross-checked
// against the bigint formula of facts.md "DEX".
import { beforeAll, describe, expect, it } from 'vitest';
import { AmmMath, amountOutRef, poolAddress, sortPair, type PoolRecord } from '../../src/core/amm.js';
import { compileCore } from '../../src/core/loader.js';
import type { Operation, SwapOp } from '../../src/codec/bundle.js';
import type { Goal, ParsedIntent, TokenRef, ValidatorRef } from '../../src/intents/goals.js';
import type { StakingSource } from '../../src/intents/validators.js';
import type { ValidatorRecord } from '../../src/chain/validator-set.js';
import { GasMeter } from '../../src/intents/gas.js';
import { HookRegistry } from '../../src/intents/hooks.js';
import type { MarketSource } from '../../src/intents/market.js';
import { PlanError, planIntent, planIntents, routeType, WARNINGS, type Plan, type PendingReceive, type PlannerEnv } from '../../src/intents/planner.js';
import { bindParams, ProgramError, substitute, validateProgram } from '../../src/intents/programs.js';
import { nameProblem } from '../../src/domains/names/reader.js';

const mint = (n: number) => { const m = new Uint8Array(32); if (n) { m[0] = 0x11; m[31] = n; } return m; };
const NTV: TokenRef = { symbol: 'NTV', mint: mint(0), decimals: 9 };
const USDC: TokenRef = { symbol: 'USDC', mint: mint(1), decimals: 6 };
const SOL: TokenRef = { symbol: 'SOL', mint: mint(2), decimals: 9 };
const BTC: TokenRef = { symbol: 'BTC', mint: mint(3), decimals: 8 };
const DOGE: TokenRef = { symbol: 'DOGE', mint: mint(4), decimals: 8 };
const TOKENS = [NTV, USDC, SOL, BTC, DOGE];
const u = (whole: number | bigint, t: TokenRef) => BigInt(whole) * 10n ** BigInt(t.decimals);
const amt = (whole: number, t: TokenRef) => ({ token: t, raw: u(whole, t), text: String(whole) });
const SENDER = new Uint8Array(32).fill(0xa1);
const ALICE = new Uint8Array(32).fill(0xa2);

function pool(a: TokenRef, ra: bigint, b: TokenRef, rb: bigint): PoolRecord {
  const [t0] = sortPair(a.mint, b.mint);
  const aFirst = Buffer.compare(t0, a.mint) === 0;
  return {
    version: 1, token0: aFirst ? a.mint : b.mint, token1: aFirst ? b.mint : a.mint, reserve0: aFirst ? ra : rb, reserve1: aFirst ? rb : ra,
    lpSupply: 10n ** 12n, creator: new Uint8Array(32), createdAt: 0n, createdHeight: 0n, lockUntil: 0n, creatorLockedLp: 0n,
    price0Cumulative: 0n, price1Cumulative: 0n, lastUpdate: 0n,
  };
}

class Fixture implements MarketSource {
  readonly poolMap = new Map<string, PoolRecord>();
  balances = new Map<string, bigint>();
  addPool(p: PoolRecord) { this.poolMap.set(Buffer.from(poolAddress(p.token0, p.token1)).toString('hex'), p); }
  setBalance(t: TokenRef, v: bigint) { this.balances.set(Buffer.from(t.mint).toString('hex'), v); }
  pool(a: Uint8Array, b: Uint8Array) { return this.poolMap.get(Buffer.from(poolAddress(a, b)).toString('hex')); }
  balance(account: Uint8Array, m: Uint8Array) { return Buffer.compare(account, SENDER) === 0 ? this.balances.get(Buffer.from(m).toString('hex')) ?? 0n : 0n; }
  token(m: Uint8Array) { return TOKENS.find((t) => Buffer.compare(t.mint, m) === 0); }
  tokens() { return TOKENS; }
  pools() { return this.poolMap.values(); }
  validators = new Map<string, ValidatorRecord>();
  delegatedTo: Uint8Array[] = [];
  addValidator(v: Partial<ValidatorRecord> & { address: Uint8Array; consensusKey: Uint8Array }) {
    const stake = v.stake ?? u(1_000_000, NTV);
    this.validators.set(Buffer.from(v.address).toString('hex'), {
      stake, performanceBps: 8000, jailed: false, jailReleaseTime: 0, missedInRow: 0, commissionBps: 1000, active: true,
      selfStake: stake, delegated: 0n, lastCommissionChange: undefined, offences: 0, blocksProposed: 0n, blocksMissed: 0n, createdHeight: 0, createdTime: 0,
      accRewardPerShare: 0n, rewardPool: 0n, totalRewards: 0n, pendingConsensusKey: undefined, lastRotationEpoch: undefined, poolEnabled: false,
      minDelegation: 0n, autoCompoundDefault: false, bundlesIncluded: 0n, name: '', description: '', website: '', avatarUrl: '', poolName: '', ...v,
    });
  }
  readonly staking: StakingSource = {
    validator: (a) => this.validators.get(Buffer.from(a).toString('hex')),
    accountOfKey: (k) => [...this.validators.values()].find((v) => Buffer.compare(v.consensusKey, k) === 0)?.address,
    validators: () => [...this.validators.values()],
    delegated: () => 0n,
    delegatedTo: () => this.delegatedTo,
  };
}

let amm: AmmMath;
let gas: GasMeter;
beforeAll(async () => {
  amm = await AmmMath.create();
  gas = await GasMeter.create(await compileCore());
});

function setup(opts: { gasPrice?: bigint; hooks?: HookRegistry } = {}) {
  const f = new Fixture();
  f.addPool(pool(USDC, u(100_000, USDC), NTV, u(1_000, NTV)));
  f.addPool(pool(SOL, u(1_000, SOL), NTV, u(2_000, NTV)));
  f.addPool(pool(BTC, u(10, BTC), USDC, u(600_000, USDC)));
  f.setBalance(NTV, u(10_000, NTV));
  f.setBalance(USDC, u(50_000, USDC));
  f.setBalance(SOL, u(100, SOL));
  const names = new Map([['alice', ALICE]]);
  const env: PlannerEnv = {
    source: { pool: (a, b) => f.pool(a, b), balance: (a, m) => f.balance(a, m), token: (m) => f.token(m), tokens: () => f.tokens(), pools: () => f.pools() },
    amm, ntv: NTV, gasPrice: opts.gasPrice ?? 10n,
    bundleGas: (ops) => gas.bundleGas(ops),
    resolveName: (n) => names.get(n.toLowerCase().replace(/\.vex$/, '')),
    nameProblem, hooks: opts.hooks?.hooks, staking: f.staking,
  };
  return { f, env };
}

const intent = (goal: Goal, constraints: ParsedIntent['constraints'] = {}): ParsedIntent => ({ goal, constraints, language: 'en', normalized: '', source: 'nl' });
const swaps = (p: Plan) => p.operations.filter((o): o is SwapOp => o.type === 'Swap');
function rejects(f: () => unknown, reason: string, message?: RegExp): PlanError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(PlanError);
    expect((e as PlanError).reason).toBe(reason);
    if (message) expect((e as PlanError).message).toMatch(message);
    return e as PlanError;
  }
  throw new Error('expected a PlanError');
}

describe('gas from the core', () => {
  it('measures the documented schedule: a transfer bundle is 21,000, a swap 40,000 per operation', () => {
    expect(gas.bundleGas([{ type: 'Transfer', to: ALICE, token: NTV.mint, amount: 1n }])).toBe(21_000n);
    const swap: Operation = { type: 'Swap', fromToken: USDC.mint, toToken: NTV.mint, amountIn: 1n, minAmountOut: 0n };
    expect(gas.bundleGas([swap])).toBe(45_000n);
    expect(gas.bundleGas([swap, swap])).toBe(85_000n);
  });
});

describe('swaps', () => {
  it('a direct swap is one Swap op at the core quote, min out = quote·(10000−s)/10000', () => {
    const { env } = setup();
    const p = planIntent(intent({ type: 'Swap', amountIn: amt(1_000, USDC), tokenOut: NTV }, { slippageBps: 100 }), SENDER, env);
    const want = amountOutRef(u(1_000, USDC), u(100_000, USDC), u(1_000, NTV));
    expect(p.operations).toEqual([{ type: 'Swap', fromToken: USDC.mint, toToken: NTV.mint, amountIn: u(1_000, USDC), minAmountOut: (want * 9_900n) / 10_000n }]);
    expect(p.steps[0]!.estimatedOut).toBe(want);
    expect(p.steps[0]!.priceImpactBps).toBe(99);
    expect(routeType(p)).toBe('direct');
    expect(p.warnings).toEqual([]);
    expect(p.gas).toBe(45_000n);
    expect(p.fee).toBe(450_000n);
    expect(p.balance).toMatchObject({ sufficient: true, token: USDC, required: u(1_000, USDC), available: u(50_000, USDC) });
  });

  it('without a direct pool, routes through NTV: two legs, leg 2 spends exactly leg 1\'s minimum, warning says so', () => {
    const { env } = setup();
    const p = planIntent(intent({ type: 'Swap', amountIn: amt(1_000, USDC), tokenOut: SOL }, { slippageBps: 50 }), SENDER, env);
    expect(p.steps.map((s) => s.type)).toEqual(['Swap (Leg 1)', 'Swap (Leg 2)']);
    const [l1, l2] = swaps(p);
    const q1 = amountOutRef(u(1_000, USDC), u(100_000, USDC), u(1_000, NTV));
    expect(l1!.minAmountOut).toBe((q1 * 9_950n) / 10_000n);
    expect(l2!.amountIn).toBe(l1!.minAmountOut);
    expect(l2!.fromToken).toEqual(NTV.mint);
    const q2 = amountOutRef(l1!.minAmountOut, u(2_000, NTV), u(1_000, SOL));
    expect(l2!.minAmountOut).toBe((q2 * 9_950n) / 10_000n);
    expect(routeType(p)).toBe('auto-routed (2 hops)');
    expect(p.warnings).toEqual([WARNINGS.AUTO_ROUTED]);
  });

  it('no pool and no route is NOT_FOUND; a swap of a token for itself is an invalid intent', () => {
    const { env } = setup();
    rejects(() => planIntent(intent({ type: 'Swap', amountIn: amt(1, DOGE), tokenOut: NTV }), SENDER, env), 'NOT_FOUND', /no pool and no route/);
    rejects(() => planIntent(intent({ type: 'Swap', amountIn: amt(1, NTV), tokenOut: NTV }), SENDER, env), 'INVALID_INTENT');
  });

  it('price impact: above 5% warns, above 25% on any pool warns and rejects', () => {
    const { env } = setup();
    const high = planIntent(intent({ type: 'Swap', amountIn: amt(10_000, USDC), tokenOut: NTV }), SENDER, env);
    expect(high.maxImpactBps).toBeGreaterThan(500);
    expect(high.warnings).toEqual([WARNINGS.HIGH_IMPACT]);
    expect(high.rejection).toBeUndefined();
    const huge = planIntent(intent({ type: 'Swap', amountIn: amt(45_000, USDC), tokenOut: NTV }), SENDER, env);
    expect(huge.maxImpactBps).toBeGreaterThan(2500);
    expect(huge.warnings).toEqual([WARNINGS.HIGH_IMPACT, WARNINGS.IMPACT_REJECTED]);
    expect(huge.rejection?.reason).toBe('INTENT_REJECTED');
    expect(huge.rejection?.data).toMatchObject({ max_price_impact_bps: 2500 });
  });

  it('insufficient balance is a warning and a failed balance check, not a rejection (spec §7.2)', () => {
    const { env } = setup();
    const p = planIntent(intent({ type: 'Swap', amountIn: amt(200, SOL), tokenOut: NTV }), SENDER, env);
    expect(p.warnings).toContain(WARNINGS.INSUFFICIENT_BALANCE);
    expect(p.balance).toMatchObject({ sufficient: false, token: SOL, required: u(200, SOL), available: u(100, SOL) });
    expect(p.rejection).toBeUndefined();
  });

  it('a composite plans its steps in order: the second swap on the same pool sees the first one\'s trade', () => {
    const { env } = setup();
    const one = planIntent(intent({ type: 'Swap', amountIn: amt(1_000, USDC), tokenOut: NTV }), SENDER, env);
    const both = planIntent(intent({ type: 'Composite', steps: [
      { type: 'Swap', amountIn: amt(1_000, USDC), tokenOut: NTV },
      { type: 'Swap', amountIn: amt(1_000, USDC), tokenOut: NTV },
    ] }), SENDER, env);
    const [a, b] = both.steps;
    expect(a!.estimatedOut).toBe(one.steps[0]!.estimatedOut);
    expect(b!.estimatedOut).toBe(amountOutRef(u(1_000, USDC), u(101_000, USDC), u(1_000, NTV) - a!.estimatedOut));
    expect(b!.estimatedOut).toBeLessThan(a!.estimatedOut);
    expect(both.totalImpactBps).toBeGreaterThan(one.totalImpactBps);
  });
});

describe('acquire (reverse AMM math)', () => {
  it('pays the least input whose output covers the amount; the max cost is checked before execution', () => {
    const { env } = setup();
    const p = planIntent(intent({ type: 'Acquire', amountOut: amt(10, NTV), tokenIn: USDC }, { slippageBps: 0 }), SENDER, env);
    const [s] = swaps(p);
    expect(amountOutRef(s!.amountIn, u(100_000, USDC), u(1_000, NTV))).toBeGreaterThanOrEqual(u(10, NTV));
    expect(amountOutRef(s!.amountIn - 1n, u(100_000, USDC), u(1_000, NTV))).toBeLessThan(u(10, NTV));
    expect(s!.minAmountOut).toBe(u(10, NTV));
    const e = rejects(() => planIntent(intent({ type: 'Acquire', amountOut: amt(10, NTV), tokenIn: USDC, maxCost: amt(1_000, USDC) }), SENDER, env),
      'INTENT_REJECTED', /above the max cost/);
    expect(e.data).toEqual({ required: s!.amountIn.toString(), max: u(1_000, USDC).toString(), token: 'USDC' });
    const ok = planIntent(intent({ type: 'Acquire', amountOut: amt(10, NTV), tokenIn: USDC, maxCost: amt(1_100, USDC) }, { slippageBps: 0 }), SENDER, env);
    expect(swaps(ok)[0]!.amountIn).toBe(s!.amountIn);
  });

  it('routed: leg 1 guarantees at least what leg 2 needs, and leg 2 pays at least the amount at the planned reserves', () => {
    const { env } = setup();
    const p = planIntent(intent({ type: 'Acquire', amountOut: amt(5, SOL), tokenIn: USDC }, { slippageBps: 100 }), SENDER, env);
    const [l1, l2] = swaps(p);
    expect(l2!.amountIn).toBe(l1!.minAmountOut);
    expect(amountOutRef(l2!.amountIn, u(2_000, NTV), u(1_000, SOL))).toBeGreaterThanOrEqual(u(5, SOL));
    expect(l2!.minAmountOut).toBe((u(5, SOL) * 9_900n) / 10_000n);
    expect(p.warnings).toContain(WARNINGS.AUTO_ROUTED);
  });

  it('more than the pool holds is rejected', () => {
    const { env } = setup();
    rejects(() => planIntent(intent({ type: 'Acquire', amountOut: amt(1_000, NTV), tokenIn: USDC }), SENDER, env), 'INTENT_REJECTED', /cannot pay/);
  });
});

describe('liquidate, rebalance, allocate', () => {
  it('liquidate sells the best rate first (a direct pool beats a routed one) until the target is covered', () => {
    const { f, env } = setup();
    f.setBalance(BTC, u(1, BTC));
    f.setBalance(USDC, 0n);
    const p = planIntent(intent({ type: 'Liquidate', target: amt(1_000, USDC), keeping: [NTV], excluding: [] }), SENDER, env);
    // BTC/USDC is direct (one fee), SOL reaches USDC through NTV (two fees): BTC first, and it covers 1,000 USDC alone.
    expect(swaps(p)).toHaveLength(1);
    expect(swaps(p)[0]!.fromToken).toEqual(BTC.mint);
    expect(p.steps[0]!.estimatedOut).toBeGreaterThanOrEqual(u(1_000, USDC));
    const big = planIntent(intent({ type: 'Liquidate', target: amt(60_000, USDC), keeping: [NTV], excluding: [] }), SENDER, env);
    expect(big.steps.map((s) => `${s.from.symbol}:${s.type}`)).toEqual(['BTC:Swap', 'SOL:Swap (Leg 1)', 'NTV:Swap (Leg 2)']);
    expect(swaps(big)[0]!.amountIn).toBe(u(1, BTC));
  });

  it('liquidate that holdings cannot cover is flagged and refused for submission', () => {
    const { f, env } = setup();
    f.setBalance(SOL, 0n);
    const p = planIntent(intent({ type: 'Liquidate', target: amt(1_000, USDC), keeping: [], excluding: [NTV] }), SENDER, env);
    expect(p.warnings).toContain(WARNINGS.INSUFFICIENT_BALANCE);
    expect(p.rejection?.reason).toBe('INSUFFICIENT_BALANCE');
  });

  it('rebalance values holdings in NTV through the pools and buys the under-weight token with NTV', () => {
    const { f, env } = setup();
    f.setBalance(USDC, 0n);
    f.setBalance(SOL, 0n);
    f.setBalance(NTV, u(100, NTV));
    const p = planIntent(intent({ type: 'Rebalance', targets: [{ token: NTV, bps: 5_000 }, { token: USDC, bps: 5_000 }] }), SENDER, env);
    const [s] = swaps(p);
    expect(s!.fromToken).toEqual(NTV.mint);
    expect(s!.toToken).toEqual(USDC.mint);
    // about half of 100 NTV (less the fee reserve)
    expect(s!.amountIn).toBeGreaterThan(u(49, NTV));
    expect(s!.amountIn).toBeLessThan(u(50, NTV));
    rejects(() => planIntent(intent({ type: 'Rebalance', targets: [{ token: DOGE, bps: 10_000 }] }), SENDER, env), 'NOT_FOUND', /DOGE\/NTV/);
  });

  it('allocate (all liquidity) zaps half into the deepest NTV pool and adds liquidity', () => {
    const { env } = setup();
    const p = planIntent(intent({ type: 'Allocate', amount: amt(100, NTV), stakeBps: 0, liquidityBps: 10_000 }), SENDER, env);
    expect(p.steps.map((s) => s.type)).toEqual(['Swap', 'AddLiquidity']);
    const [swap, add] = p.operations;
    expect((swap as SwapOp).toToken).toEqual(SOL.mint); // SOL/NTV holds 2,000 NTV, USDC/NTV 1,000
    expect(add).toMatchObject({ type: 'AddLiquidity', amountA: u(50, NTV), amountB: (swap as SwapOp).minAmountOut });
  });
});

describe('other goals', () => {
  it('transfer to a name resolves through the name service; an unknown name is NOT_FOUND', () => {
    const { env } = setup();
    const p = planIntent(intent({ type: 'Transfer', amount: amt(5, NTV), to: { kind: 'name', name: 'alice.vex' } }), SENDER, env);
    expect(p.operations).toEqual([{ type: 'Transfer', to: ALICE, token: NTV.mint, amount: u(5, NTV) }]);
    expect(p.summary).toBe('Send 5 NTV to alice.vex');
    rejects(() => planIntent(intent({ type: 'Transfer', amount: amt(5, NTV), to: { kind: 'name', name: 'nobody.vex' } }), SENDER, env), 'NOT_FOUND', /not registered/);
  });

  it('bridge is unavailable on a node without a bridge reader', () => {
    const { env } = setup();
    rejects(() => planIntent(intent({ type: 'Bridge', amount: amt(1, USDC), chain: 'ethereum' }), SENDER, env), 'UNAVAILABLE_ON_NODE', /no bridge/);
  });

  describe('bridge against a pending receive (docs/intents.md "Bridge")', () => {
    const held = (over: Partial<PendingReceive> = {}): PendingReceive => ({ chain: 'ethereum', txHash: '0xaa', mint: USDC.mint, amount: u(100, USDC), reason: 'TOKEN_PAUSED', ...over });
    function bridgeEnv(pending: PendingReceive[]) {
      const { f, env } = setup();
      f.setBalance(USDC, 0n);
      const asked: Uint8Array[] = [];
      return { env: { ...env, pendingReceives: (r: Uint8Array) => { asked.push(r); return pending; } }, asked };
    }
    const bridge = { type: 'Bridge', amount: amt(100, USDC), chain: 'ethereum' } as const;

    it('claims the matching pending receive', () => {
      const { env, asked } = bridgeEnv([held({ chain: 'solana', txHash: '0xsol' }), held({ amount: u(5, USDC), txHash: '0x05' }), held()]);
      const p = planIntent(intent(bridge), SENDER, env);
      expect(asked).toEqual([SENDER]);
      expect(p.operations).toEqual([{ type: 'ClaimBridgeDeposit', chain: 'ethereum', txHash: '0xaa' }]);
      expect(p.summary).toBe('Claim 100 USDC bridged from ethereum (deposit 0xaa)');
      expect(p.notes.join(' ')).toMatch(/TOKEN_PAUSED/);
    });

    it('and swap: ONE bundle, the claim then the swap, spending the credited amount', () => {
      const { env } = bridgeEnv([held()]);
      const p = planIntent(intent({ type: 'Composite', steps: [bridge, { type: 'Swap', amountIn: amt(100, USDC), tokenOut: NTV }] }), SENDER, env);
      expect(p.operations.map((o) => o.type)).toEqual(['ClaimBridgeDeposit', 'Swap']);
      expect(swaps(p)[0]).toMatchObject({ fromToken: USDC.mint, toToken: NTV.mint, amountIn: u(100, USDC) });
      expect(p.balance.byToken.find((b) => b.token.symbol === 'USDC')).toBeUndefined();
      expect(p.balance.sufficient).toBe(true);
      expect(p.summary).toMatch(/^Claim 100 USDC bridged from ethereum \(deposit 0xaa\); then Swap 100 USDC for ≈/);
    });

    it('no matching deposit is NOT_FOUND naming what is pending', () => {
      const e = rejects(() => planIntent(intent(bridge), SENDER, bridgeEnv([held({ amount: u(5, USDC) })]).env), 'NOT_FOUND', /no pending receive of 100 USDC from ethereum.*pending from ethereum: 5 USDC/);
      expect(e.data).toMatchObject({ goal: 'Bridge', chain: 'ethereum', token: 'USDC', amount: u(100, USDC).toString() });
      rejects(() => planIntent(intent(bridge), SENDER, bridgeEnv([held({ mint: SOL.mint })]).env), 'NOT_FOUND', /no pending receive/);
      rejects(() => planIntent(intent(bridge), SENDER, bridgeEnv([]).env), 'NOT_FOUND', /no pending receive/);
    });

    it('two bridge steps never claim the same deposit', () => {
      const { env } = bridgeEnv([held(), held({ txHash: '0xbb' })]);
      const p = planIntent(intent({ type: 'Composite', steps: [bridge, bridge] }), SENDER, env);
      expect(p.operations).toEqual([{ type: 'ClaimBridgeDeposit', chain: 'ethereum', txHash: '0xaa' }, { type: 'ClaimBridgeDeposit', chain: 'ethereum', txHash: '0xbb' }]);
      rejects(() => planIntent(intent({ type: 'Composite', steps: [bridge, bridge] }), SENDER, bridgeEnv([held()]).env), 'NOT_FOUND');
    });
  });

  it('register becomes a RegisterName operation', () => {
    const { env } = setup();
    const p = planIntent(intent({ type: 'Custom', action: 'register_name', name: 'bob' }), SENDER, env);
    expect(p.operations).toEqual([{ type: 'RegisterName', name: 'bob' }]);
    rejects(() => planIntent(intent({ type: 'Custom', action: 'register_name', name: 'alice' }), SENDER, env), 'INTENT_REJECTED', /already registered/);
  });

  describe('stake', () => {
    const key = (n: number) => new Uint8Array(32).fill(n);
    it('delegates to the validator named by account, consensus key or name; never a Stake', () => {
      const { f, env } = setup();
      f.addValidator({ address: key(3), consensusKey: key(4), commissionBps: 500 });
      f.addValidator({ address: ALICE, consensusKey: key(6), commissionBps: 900 });
      const delegate = (v: Uint8Array) => [{ type: 'Delegate', validator: v, amount: u(1_000, NTV) }];
      const plan = (validator: ValidatorRef) => planIntent(intent({ type: 'Stake', amount: amt(1_000, NTV), validator }), SENDER, env);
      expect(plan({ kind: 'bytes', bytes: key(3), text: 'acct' }).operations).toEqual(delegate(key(3)));
      expect(plan({ kind: 'bytes', bytes: key(4), text: 'key' }).operations).toEqual(delegate(key(3)));
      expect(plan({ kind: 'name', name: 'alice.vex', text: 'alice' }).operations).toEqual(delegate(ALICE));
      expect(plan({ kind: 'name', name: 'alice.vex', text: 'alice' }).steps[0]!.validator).toEqual(ALICE);
      rejects(() => plan({ kind: 'bytes', bytes: key(9), text: 'Nx0nobody' }), 'NOT_FOUND', /neither a validator's staking account nor/);
      rejects(() => plan({ kind: 'name', name: 'carol.vex', text: 'carol' }), 'NOT_FOUND', /no validator is named carol.vex/);
      rejects(() => planIntent(intent({ type: 'Stake', amount: amt(10, USDC) }), SENDER, env), 'INVALID_INTENT', /only NTV/);
    });

    it('without a validator: the active, unjailed one of lowest commission, then least stake', () => {
      const { f, env } = setup();
      f.addValidator({ address: key(1), consensusKey: key(11), commissionBps: 100, jailed: true });
      f.addValidator({ address: key(2), consensusKey: key(12), commissionBps: 100, active: false });
      f.addValidator({ address: key(3), consensusKey: key(13), commissionBps: 300, stake: 5n });
      f.addValidator({ address: key(4), consensusKey: key(14), commissionBps: 300, stake: 2n });
      f.addValidator({ address: key(5), consensusKey: key(15), commissionBps: 800 });
      const p = planIntent(intent({ type: 'Stake', amount: amt(1_000, NTV) }), SENDER, env);
      expect(p.operations).toEqual([{ type: 'Delegate', validator: key(4), amount: u(1_000, NTV) }]);
      expect(p.notes.some((n) => n.includes('default rule'))).toBe(true);
      f.validators.clear();
      rejects(() => planIntent(intent({ type: 'Stake', amount: amt(1_000, NTV) }), SENDER, env), 'NOT_FOUND', /no active validator/);
    });

    it('refuses before submission what the core would fail: pool minimum, 32 delegations, the balance', () => {
      const { f, env } = setup();
      f.addValidator({ address: key(3), consensusKey: key(4), poolEnabled: true, minDelegation: u(5_000, NTV) });
      const ref: ValidatorRef = { kind: 'bytes', bytes: key(3), text: 'v' };
      const low = planIntent(intent({ type: 'Stake', amount: amt(1_000, NTV), validator: ref }), SENDER, env);
      expect(low.rejection?.data).toMatchObject({ status: 'DELEGATION_BELOW_MINIMUM' });
      const short = planIntent(intent({ type: 'Stake', amount: amt(20_000, NTV), validator: ref }), SENDER, env);
      expect(short.rejection?.reason).toBe('INSUFFICIENT_BALANCE');
      expect(short.warnings).toContain(WARNINGS.INSUFFICIENT_BALANCE);
      for (let i = 100; i < 132; i++) f.delegatedTo.push(key(i));
      f.addValidator({ address: key(100), consensusKey: key(200) });
      const full = planIntent(intent({ type: 'Stake', amount: amt(6_000, NTV), validator: ref }), SENDER, env);
      expect(full.rejection?.data).toMatchObject({ status: 'TOO_MANY_ENTRIES' });
      const ok = planIntent(intent({ type: 'Stake', amount: amt(6_000, NTV), validator: { kind: 'bytes', bytes: key(100), text: 'x' } }), SENDER, env);
      expect(ok.rejection).toBeUndefined();
    });
  });

  it('allocate splits into a Delegate and a liquidity zap', () => {
    const { f, env } = setup();
    f.addValidator({ address: new Uint8Array(32).fill(3), consensusKey: new Uint8Array(32).fill(4) });
    const p = planIntent(intent({ type: 'Allocate', amount: amt(2_000, NTV), stakeBps: 6_000, liquidityBps: 4_000 }), SENDER, env);
    expect(p.steps.map((s) => s.type)).toEqual(['Delegate', 'Swap', 'AddLiquidity']);
    expect(p.operations[0]).toMatchObject({ type: 'Delegate', amount: u(1_200, NTV) });
    expect((p.operations[1] as SwapOp).amountIn).toBe(u(400, NTV));
  });

  it('synthetic intents: without a hook preview notes it and submit is refused; a registered hook supplies the operations', () => {
    const hooks = new HookRegistry();
    const goal = intent({ type: 'MintSynthetic', synthetic: 'sTSLA', amount: { raw: 2n * 10n ** 18n, text: '2', decimals: 18 }, payWith: USDC });
    const bare = planIntent(goal, SENDER, setup({ hooks }).env);
    expect(bare.operations).toEqual([]);
    // Spec §7.3 fixes the warning strings; the missing hook is a note, not a warning.
    expect(bare.warnings).toEqual([]);
    expect(bare.notes).toEqual([expect.stringMatching(/^No integrator hook registered/)]);
    expect(bare.rejection?.reason).toBe('UNAVAILABLE_ON_NODE');
    const vault = new Uint8Array(32).fill(9);
    hooks.register({
      name: 'test-oracle',
      mintSynthetic: (r) => ({
        operations: [{ type: 'Transfer', to: vault, token: r.payWith.mint, amount: 500n * 10n ** 6n }],
        pays: { token: r.payWith, amount: 500n * 10n ** 6n }, summary: 'at 250 USDC each', notes: ['oracle price is 30 s old'],
      }),
    });
    const priced = planIntent(goal, SENDER, setup({ hooks }).env);
    expect(priced.rejection).toBeUndefined();
    expect(priced.operations).toEqual([{ type: 'Transfer', to: vault, token: USDC.mint, amount: 500n * 10n ** 6n }]);
    expect(priced.summary).toMatch(/via test-oracle: at 250 USDC each/);
    expect([priced.warnings, priced.notes]).toEqual([[], ['oracle price is 30 s old']]);
  });

  it('max fee and gas limit bound the bundle: too low is rejected, else max_gas follows them', () => {
    const { env } = setup({ gasPrice: 10n });
    const swap = { type: 'Swap', amountIn: amt(10, USDC), tokenOut: NTV } as const;
    rejects(() => planIntent(intent(swap, { maxFee: 100_000n }), SENDER, env), 'INTENT_REJECTED', /max fee/);
    rejects(() => planIntent(intent(swap, { gasLimit: 30_000n }), SENDER, env), 'INTENT_REJECTED', /gas limit/);
    expect(planIntent(intent(swap, { maxFee: 1_000_000n }), SENDER, env).maxGas).toBe(100_000n);
    expect(planIntent(intent(swap, { gasLimit: 60_000n }), SENDER, env).maxGas).toBe(60_000n);
    expect(planIntent(intent(swap), SENDER, env).maxGas).toBe(45_000n);
    expect(planIntent(intent(swap, { deadlineSeconds: 120 }), SENDER, env).deadlineSeconds).toBe(120);
  });

  it('recurring and conditional goals plan their inner goal and carry the schedule; programs cannot hold them', () => {
    const { env } = setup();
    const inner: Goal = { type: 'Swap', amountIn: amt(10, USDC), tokenOut: NTV };
    const p = planIntent(intent({ type: 'Recurring', goal: inner, intervalSeconds: 86_400, runs: 7 }), SENDER, env);
    expect(p.schedule).toMatchObject({ kind: 'Recurring', intervalSeconds: 86_400, runs: 7 });
    expect(p.summary).toMatch(/^Every day, 7 runs/);
    expect(p.operations).toHaveLength(1);
    const rec = intent({ type: 'Recurring', goal: inner, intervalSeconds: 3600, runs: 2 });
    rejects(() => planIntents([rec, intent(inner)], SENDER, env, (i) => `steps[${i}].intent`), 'INVALID_INTENT', /steps\[0\]\.intent/);
  });
});

describe('programs', () => {
  const checks = { tokenExists: (t: string) => ['NTV', 'USDC', 'SOL'].includes(t.toUpperCase()), addressValid: (t: string) => t.startsWith('Nx0') || t.endsWith('.vex') };
  const good = { name: 'dca-sol', description: 'buy SOL', params: [{ name: 'amount', type: 'amount', default: '10' }, { name: 'token', type: 'token' }], steps: [{ intent: 'swap ${amount} USDC for ${token}' }] };

  it('validates the format and names the bad field', () => {
    expect(validateProgram(JSON.stringify(good), checks)).toMatchObject({ name: 'dca-sol', steps: [{ intent: 'swap ${amount} USDC for ${token}' }] });
    const bad: Array<[unknown, string]> = [
      ['{', 'program_json'],
      [{ ...good, name: 'X' }, 'name'],
      [{ ...good, params: [{ name: 'amount', type: 'money' }] }, 'params[0].type'],
      [{ ...good, params: [{ name: 'a', type: 'amount' }, { name: 'a', type: 'token' }] }, 'params[1].name'],
      [{ ...good, params: [{ name: 'amount', type: 'amount', default: 'ten' }] }, 'params[0].default'],
      [{ ...good, steps: [] }, 'steps'],
      [{ ...good, steps: [{ intent: 'swap 1 USDC for NTV' }, { intent: 'swap ${nope} USDC for NTV' }] }, 'steps[1].intent'],
      [{ ...good, steps: [{ intent: 'x', extra: 1 }] }, 'steps[0].extra'],
      [{ ...good, surprise: true }, 'surprise'],
    ];
    for (const [json, field] of bad) {
      try {
        validateProgram(json, checks);
        throw new Error(`accepted ${JSON.stringify(json)}`);
      } catch (e) {
        expect(e, JSON.stringify(json)).toBeInstanceOf(ProgramError);
        expect((e as ProgramError).field).toBe(field);
      }
    }
  });

  it('binds call params by type, with defaults, naming params.<name> on error', () => {
    const def = validateProgram(good, checks);
    expect(bindParams(def, { token: 'SOL' }, checks)).toEqual({ amount: '10', token: 'SOL' });
    expect(substitute(def.steps[0]!.intent, { amount: '2.5', token: 'SOL' })).toBe('swap 2.5 USDC for SOL');
    const cases: Array<[unknown, string]> = [
      [{}, 'params.token'],
      [{ token: 'DOGE' }, 'params.token'],
      [{ token: 'SOL', amount: '1 USDC and 1000 NTV' }, 'params.amount'],
      [{ token: 'SOL', amount: '0' }, 'params.amount'],
      [{ token: 'SOL', other: 1 }, 'params.other'],
      [[1], 'params'],
    ];
    for (const [values, field] of cases) {
      try {
        bindParams(def, values, checks);
        throw new Error(`accepted ${JSON.stringify(values)}`);
      } catch (e) {
        expect((e as ProgramError).field, JSON.stringify(values)).toBe(field);
      }
    }
  });
});
