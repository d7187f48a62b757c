// The intent engine over JSON-RPC against a real node (spec §4.8, §4.9, §2.6, §7.2–7.3;
// docs/intents.md): the wallet flow preview → submit → status, the planner's rejections, routing,
// atomicity, the node-held recurring and conditional intents (across a restart), programs, and
// bad input answered with clear errors and no state change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep, TestNode } from './harness.js';
import { nowSeconds, systemAddressHex } from './bundles.js';
import { decodeBundleHex } from '../../src/codec/bundle.js';

const NTV = 1_000_000_000n;
const USD = 1_000_000n;
const GAS_PRICE = 10n; // the node's default (spec §8)
const RICH = systemAddressHex(7);
const who = (b: string) => '0x' + b.repeat(32);
const alice = who('a1');
const bob = who('b0');
const carol = who('c4');
const dave = who('d5');
const erin = who('e6');
const frank = who('f7');
const gina = who('9a');
const hank = who('3c');

interface Preview { summary: string; route_type: string; estimated_fee_vxs: string; price_impact: string; slippage_tolerance: string; balance_sufficient: boolean; warnings: string[]; notes: string[] }
interface SimOp { type: string; from_token: string; to_token: string; amount_in: string; estimated_out: string; price_impact_bps: number }
interface Simulation { success: boolean; operations: SimOp[]; estimated_gas: number; total_price_impact_bps: number; warnings: string[]; notes: string[]; balance_check: { sufficient: boolean; required: string; available: string } }
interface ExecutionPlan { bundle: { max_gas: string; valid_until: number; nonce: string; unsigned_bundle_hex: string } }
interface Status { status: 'pending' | 'completed' | 'failed'; gas_used: number; block_height: number | null; status_name?: string; receipt?: { events: Array<{ type: string; amount_out?: string; op_index: number | null }> }; [k: string]: unknown }

let node: TestNode;
const balance = async (address: string, token = 'NTV') => BigInt(await node.result<string>('svc_getBalance', [address, token]));
async function settled(hash: string, timeoutMs = 20_000): Promise<Status> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const s = await node.result<Status>('svc_getIntentStatus', [hash]);
    if (s.status !== 'pending' || Date.now() > deadline) return s;
    await sleep(200);
  }
}
// Spec §2.6 lists these fields of the preview and simulation results. `notes` is the one field this
// node adds (docs/intents.md "Preview fields"): what is not a spec §7.3 warning goes there, so
// `warnings` carries the §7.3 strings and nothing else.
const PREVIEW_FIELDS_2_6 = ['summary', 'route_type', 'estimated_fee_vxs', 'price_impact', 'slippage_tolerance', 'balance_sufficient', 'warnings'];
const SIMULATION_FIELDS_2_6 = ['success', 'operations', 'estimated_gas', 'total_price_impact_bps', 'warnings', 'balance_check'];
const withNotes = (fields: string[]) => [...fields, 'notes'].sort();
const nonceOf = async (address: string) => (await node.result<{ nonce: string }>('svc_getAccount', [address])).nonce;

beforeAll(async () => {
  node = await TestNode.start({ args: ['--block-time', '1'] });
  for (const w of [alice, bob, carol, dave, erin, frank, hank]) {
    await node.result('svc_transfer', [RICH, w, 'NTV', (10_000n * NTV).toString()]);
    await node.result('svc_transfer', [RICH, w, 'USDC', (1_000_000n * USD).toString()]);
    await node.result('svc_transfer', [RICH, w, 'SOL', (5_000n * NTV).toString()]);
  }
  await node.result('svc_transfer', [RICH, gina, 'NTV', (100n * NTV).toString()]);
  await node.result('svc_transfer', [RICH, gina, 'USDC', (1_000n * USD).toString()]);
  await node.result('svc_transfer', [RICH, gina, 'SOL', NTV.toString()]);
  await node.result('svc_createPool', ['USDC', 'NTV', (100_000n * USD).toString(), (1_000n * NTV).toString(), 0, alice]);
  await node.result('svc_createPool', ['SOL', 'NTV', (1_000n * NTV).toString(), (2_000n * NTV).toString(), 0, alice]);
}, 90_000);

afterAll(async () => {
  await node?.stop();
});

describe('the wallet flow', () => {
  it('preview → submit the same string → completed, and the balances moved as the preview and simulation said', async () => {
    const text = 'swap 100 USDC for NTV with 1% slippage';
    const preview = await node.result<Preview>('svc_previewIntent', [text, bob]);
    expect(Object.keys(preview).sort()).toEqual(withNotes(PREVIEW_FIELDS_2_6));
    expect(preview).toMatchObject({ route_type: 'direct', estimated_fee_vxs: '0.00045', price_impact: '0.1%', slippage_tolerance: '1%', balance_sufficient: true, warnings: [], notes: [] });
    expect(preview.summary).toMatch(/^Swap 100 USDC for ≈0\.9\d+ NTV/);

    const sim = await node.result<Simulation>('svc_simulateIntent', [text, bob]);
    expect(Object.keys(sim).sort()).toEqual(withNotes(SIMULATION_FIELDS_2_6));
    const quote = await node.result<{ amount_out: string }>('svc_quoteSwap', ['USDC', 'NTV', (100n * USD).toString()]);
    expect(sim).toMatchObject({ success: true, estimated_gas: 45_000, total_price_impact_bps: 10, warnings: [], notes: [] });
    expect(sim.operations).toEqual([{ type: 'Swap', from_token: 'USDC', to_token: 'NTV', amount_in: (100n * USD).toString(), estimated_out: quote.amount_out, price_impact_bps: 10 }]);
    expect(sim.balance_check).toEqual({ sufficient: true, required: (100n * USD).toString(), available: (1_000_000n * USD).toString() });

    const [usdc, ntv] = [await balance(bob, 'USDC'), await balance(bob)];
    const hash = await node.result<string>('svc_submitIntent', [text, bob]);
    expect(hash).toMatch(/^Nxh/);
    const status = await settled(hash);
    expect(status).toMatchObject({ status: 'completed', gas_used: 45_000, intent: text, kind: 'intent' });
    expect(status.block_height).toBeGreaterThan(0);
    expect(status.receipt!.events.find((e) => e.type === 'Swap')!.amount_out).toBe(quote.amount_out);
    expect(usdc - (await balance(bob, 'USDC'))).toBe(100n * USD);
    expect((await balance(bob)) - ntv).toBe(BigInt(quote.amount_out) - 45_000n * GAS_PRICE);
  });

  it('svc_getExecutionPlan gives the steps, gas, savings and an unsigned bundle that svc_submitBundle executes', async () => {
    const plan = await node.result<{ steps: Array<{ type: string; operation: { type: string; min_amount_out: string } }>; estimated_gas: number; savings: { gas_saved: number; naive_bundles: number }; bundle: { unsigned_bundle_hex: string; signing_hash: string; nonce: string; max_gas: string } }>(
      'svc_getExecutionPlan', ['swap 10 USDC and 1 SOL for NTV', frank]);
    expect(plan.steps.map((s) => s.type)).toEqual(['Swap', 'Swap']);
    expect(plan.estimated_gas).toBe(85_000);
    expect(plan.savings).toMatchObject({ naive_bundles: 2, gas_saved: 5_000 });
    expect(plan.bundle.nonce).toBe(await nonceOf(frank));
    expect(plan.bundle.signing_hash).toMatch(/^Nxh/);
    const receipt = await node.result<{ status: string; gas_used: number }>('svc_submitBundle', [plan.bundle.unsigned_bundle_hex]);
    expect(receipt).toMatchObject({ status: 'success', gas_used: 85_000 });
    const routeOnly = await node.result<{ bundle: { user_account: null; nonce: null } }>('svc_getExecutionPlan', ['swap 10 USDC for NTV']);
    expect(routeOnly.bundle).toMatchObject({ user_account: null, nonce: null });
  });
});

describe('planner rules over RPC', () => {
  it('an Acquire whose cost is above its max cost is refused before execution, naming required and max', async () => {
    const nonce = await nonceOf(bob);
    for (const method of ['svc_previewIntent', 'svc_submitIntent']) {
      const err = await node.rpcError(method, ['buy 10 NTV with USDC max 5 USDC', bob]);
      expect(err.code).toBe(-32012);
      expect(err.message).toMatch(/above the max cost/);
      expect(err.data).toMatchObject({ max: (5n * USD).toString(), token: 'USDC' });
      expect(BigInt(err.data!.required as string)).toBeGreaterThan(5n * USD);
    }
    expect(await nonceOf(bob)).toBe(nonce);
    const ok = await node.result<string>('svc_submitIntent', ['buy 1 NTV with USDC max 200 USDC', bob]);
    const ntv = await balance(bob);
    expect((await settled(ok)).status).toBe('completed');
    expect(await balance(bob)).toBeGreaterThanOrEqual(ntv);
  });

  it('a swap with 30% price impact is shown with the warning and refused at submission', async () => {
    const text = 'swap 45000 USDC for NTV';
    const preview = await node.result<Preview>('svc_previewIntent', [text, bob]);
    expect(preview.warnings).toEqual(['High price impact (>5%)', 'Price impact exceeds 25% and execution will be rejected']);
    expect(Number(preview.price_impact.replace('%', ''))).toBeGreaterThan(25);
    const sim = await node.result<Simulation>('svc_simulateIntent', [text, bob]);
    expect(sim.success).toBe(false);
    expect(sim.operations[0]!.price_impact_bps).toBeGreaterThan(2500);
    expect(sim.warnings).toEqual(preview.warnings);
    expect(sim.notes).toEqual([expect.stringMatching(/^Submission would be refused: price impact .* exceeds the 25% maximum/)]);
    const usdc = await balance(bob, 'USDC');
    const err = await node.rpcError('svc_submitIntent', [text, bob]);
    expect(err.code).toBe(-32012);
    expect(err.data).toMatchObject({ max_price_impact_bps: 2500 });
    expect(await balance(bob, 'USDC')).toBe(usdc);
  });

  it('without a direct pool the swap is auto-routed through NTV: two legs, executed in one bundle', async () => {
    const text = 'swap 100 USDC for SOL';
    const preview = await node.result<Preview>('svc_previewIntent', [text, carol]);
    expect(preview.route_type).toBe('auto-routed (2 hops)');
    expect(preview.warnings).toEqual(['Auto-routed through the intermediate token (slippage applied per leg)']);
    const sim = await node.result<Simulation>('svc_simulateIntent', [text, carol]);
    expect(sim.operations.map((o) => [o.type, o.from_token, o.to_token])).toEqual([['Swap (Leg 1)', 'USDC', 'NTV'], ['Swap (Leg 2)', 'NTV', 'SOL']]);
    expect(sim.operations[1]!.amount_in).not.toBe(sim.operations[0]!.estimated_out); // leg 2 spends leg 1's minimum
    expect(sim.estimated_gas).toBe(85_000);
    const sol = await balance(carol, 'SOL');
    const status = await settled(await node.result<string>('svc_submitIntent', [text, carol]));
    expect(status.status).toBe('completed');
    expect(status.receipt!.events.filter((e) => e.type === 'Swap').map((e) => e.op_index)).toEqual([0, 1]);
    expect((await balance(carol, 'SOL')) - sol).toBe(BigInt(sim.operations[1]!.estimated_out));
  });

  it('a failing step reverts the whole intent: nothing moves', async () => {
    // gina holds 1 SOL and cannot cover the second swap; spec §7.2: a warning in preview, and the
    // bundle fails whole on chain.
    const text = 'swap 100 USDC and 10 SOL for NTV';
    const preview = await node.result<Preview>('svc_previewIntent', [text, gina]);
    expect(preview.balance_sufficient).toBe(false);
    expect(preview.warnings).toContain('Insufficient balance');
    const sim = await node.result<Simulation>('svc_simulateIntent', [text, gina]);
    expect(sim.success).toBe(false);
    expect(sim.balance_check).toEqual({ sufficient: false, required: (10n * NTV).toString(), available: NTV.toString() });
    // Spec §7.3 names the warning; the core's verdict is a note.
    expect(sim.warnings).toEqual(['Insufficient balance']);
    expect(sim.notes).toEqual([expect.stringMatching(/^Execution would fail: INSUFFICIENT_BALANCE /)]);
    const [usdc, ntv, sol, nonce] = [await balance(gina, 'USDC'), await balance(gina), await balance(gina, 'SOL'), await nonceOf(gina)];
    const status = await settled(await node.result<string>('svc_submitIntent', [text, gina]));
    // nothing moves but the fee for its gas (docs/core-abi.md "Failed bundles: fee and replay")
    expect(status).toMatchObject({ status: 'failed', status_name: 'INSUFFICIENT_BALANCE' });
    expect(status.gas_used).toBeGreaterThan(0);
    const fee = BigInt(status.gas_used) * 10n; // the node's gas price, no tip
    expect([await balance(gina, 'USDC'), await balance(gina), await balance(gina, 'SOL'), await nonceOf(gina)])
      .toEqual([usdc, ntv - fee, sol, nonce]);
  });

  it('a second swap whose slippage can no longer be met reverts the first one with it', async () => {
    // dave's big swap moves the USDC/NTV pool; his composite was planned before it executed, with
    // 0% slippage, so its second step (USDC → NTV) misses its minimum and the SOL swap is undone too.
    for (let attempt = 0; attempt < 3; attempt++) {
      const sol = await balance(dave, 'SOL');
      const first = await node.result<string>('svc_submitIntent', ['swap 2000 USDC for NTV', dave]);
      const second = await node.result<string>('svc_submitIntent', ['swap 1 SOL and 100 USDC for NTV with 0% slippage', dave]);
      expect((await settled(first)).status).toBe('completed');
      const status = await settled(second);
      if (status.status === 'completed') continue; // planned after the first was committed; try again
      expect(status).toMatchObject({ status: 'failed', status_name: 'SLIPPAGE_EXCEEDED' });
      expect(await balance(dave, 'SOL')).toBe(sol);
      return;
    }
    throw new Error('the composite was planned after the first swap committed three times in a row');
  });
});

describe('constraints become the bundle\'s limits (spec §4.8 rule 5, docs/intents.md "Constraints")', () => {
  const swap = 'swap 10 USDC for NTV';
  // A direct swap needs 45,000 gas: 450,000 nanoNTV (0.00045 NTV) at the default gas price.
  const PLAN_GAS = 45_000n;

  it('max fee N sets max_gas to N / gas price; a max fee below the plan\'s fee is refused before anything is sent', async () => {
    const plan = await node.result<ExecutionPlan>('svc_getExecutionPlan', [`${swap} max fee 0.001`, hank]);
    expect(plan.bundle.max_gas).toBe((NTV / 1_000n / GAS_PRICE).toString());
    // The limit is inside the bytes the wallet signs, not only in the JSON beside them.
    expect(decodeBundleHex(plan.bundle.unsigned_bundle_hex).maxGas).toBe(NTV / 1_000n / GAS_PRICE);

    const nonce = await nonceOf(hank);
    const err = await node.rpcError('svc_submitIntent', [`${swap} max fee 0.00044`, hank]);
    expect(err.code).toBe(-32012);
    expect(err.message).toMatch(/costs 0\.00045 NTV in fees, above the max fee of 0\.00044 NTV/);
    expect(err.data).toMatchObject({ required_fee: (PLAN_GAS * GAS_PRICE).toString(), max_fee: '440000', gas: PLAN_GAS.toString() });
    expect(await nonceOf(hank)).toBe(nonce);

    // A fee cap of exactly the plan's fee executes, and the fee charged stays within it.
    const status = await settled(await node.result<string>('svc_submitIntent', [`${swap} fee cap 0.00045`, hank]));
    expect(status).toMatchObject({ status: 'completed', gas_used: Number(PLAN_GAS), fee: (PLAN_GAS * GAS_PRICE).toString() });
  });

  it('within N minutes / deadline N seconds set valid_until = now + N; past it the bundle is refused EXPIRED', async () => {
    const before = Number(nowSeconds());
    const minutes = await node.result<ExecutionPlan>('svc_getExecutionPlan', [`${swap} within 5 minutes`, hank]);
    expect(minutes.bundle.valid_until - before).toBeGreaterThanOrEqual(300);
    expect(minutes.bundle.valid_until - Number(nowSeconds())).toBeLessThanOrEqual(301);

    const short = await node.result<ExecutionPlan>('svc_getExecutionPlan', [`${swap} deadline 1 seconds`, hank]);
    expect(decodeBundleHex(short.bundle.unsigned_bundle_hex).validUntil).toBe(BigInt(short.bundle.valid_until));
    expect(short.bundle.valid_until - before).toBeLessThanOrEqual(2);
    while (nowSeconds() <= BigInt(short.bundle.valid_until)) await sleep(200);
    const nonce = await nonceOf(hank);
    const err = await node.rpcError('svc_submitBundle', [short.bundle.unsigned_bundle_hex]);
    expect(err.code).toBe(-32001);
    expect(err.data?.status).toBe('EXPIRED');
    expect(err.message).toMatch(new RegExp(`bundle expired at ${short.bundle.valid_until}`));
    expect(await nonceOf(hank)).toBe(nonce);

    // A deadline cannot be set in the past: the parser refuses 0 and names the constraint.
    const zero = await node.rpcError('svc_previewIntent', [`${swap} deadline 0 seconds`, hank]);
    expect(zero.code).toBe(-32602);
    expect(zero.message).toMatch(/deadline/);
  });
});

describe('custom tokens in intents (spec §4.8: decimals from the on-chain registry at parse time)', () => {
  it('a token made with svc_createToken is parsed with its own 4 decimals', async () => {
    const MYTK = 10_000n; // 1 MYTK in raw units (4 decimals)
    const created = await node.result<{ created: { mint: string } }>('svc_createToken', ['My Token', 'MYTK', 4, (1_000_000n * MYTK).toString(), hank]);
    expect(created.created.mint).toBeTruthy();
    await node.result('svc_createPool', ['MYTK', 'NTV', (10_000n * MYTK).toString(), (100n * NTV).toString(), 0, hank]);

    const preview = await node.result<Preview>('svc_previewIntent', ['swap 1.5 MYTK for NTV', hank]);
    expect(preview.summary).toMatch(/^Swap 1\.5 MYTK for ≈0\.01\d+ NTV/);
    expect(preview).toMatchObject({ route_type: 'direct', balance_sufficient: true, warnings: [] });
    const sim = await node.result<Simulation>('svc_simulateIntent', ['swap 1.5 MYTK for NTV', hank]);
    expect(sim.success).toBe(true);
    expect(sim.operations.map((o) => [o.type, o.from_token, o.amount_in])).toEqual([['Swap', 'MYTK', '15000']]);
    // No pool needed for a transfer: the amount is still read with 4 decimals.
    const send = await node.result<Simulation>('svc_simulateIntent', [`send 2.5 MYTK to ${alice}`, hank]);
    expect(send.operations.map((o) => [o.type, o.amount_in])).toEqual([['Transfer', '25000']]);
    // A fifth decimal place is finer than the token allows.
    const finer = await node.rpcError('svc_previewIntent', ['swap 1.23456 MYTK for NTV', hank]);
    expect(finer.code).toBe(-32602);
    expect(finer.message).toMatch(/has 5 decimal places but the token has 4/);
  });
});

describe('programs', () => {
  const program = {
    name: 'usdc-to-ntv-and-tip',
    description: 'swap USDC for NTV, then tip an address',
    params: [{ name: 'amount', type: 'amount', default: '10' }, { name: 'to', type: 'address' }, { name: 'tip', type: 'amount' }],
    steps: [{ intent: 'swap ${amount} USDC for NTV with 2% slippage' }, 'send ${tip} NTV to ${to}'],
  };

  it('register, get, list, simulate and execute (all steps in one bundle)', async () => {
    const stored = await node.result<{ name: string; owner: string; version: number }>('svc_registerProgram', [program, erin]);
    expect(stored).toMatchObject({ name: program.name, version: 1 });
    expect(stored.owner).toMatch(/^Nx0/);
    expect(await node.result('svc_getProgram', [program.name])).toEqual(stored);
    expect((await node.result<Array<{ name: string }>>('svc_listPrograms', [10])).map((p) => p.name)).toContain(program.name);
    const again = await node.result<{ version: number }>('svc_registerProgram', [JSON.stringify({ ...program, description: 'v2' }), erin]);
    expect(again.version).toBe(2);
    const taken = await node.rpcError('svc_registerProgram', [program, bob]);
    expect([taken.code, taken.data?.field]).toEqual([-32602, 'name']);

    const params = { to: alice, tip: '1.5' };
    const sim = await node.result<Simulation & { intents: string[] }>('svc_simulateProgram', [program.name, params, erin]);
    expect(sim.success).toBe(true);
    expect(sim.intents).toEqual(['swap 10 USDC for NTV with 2% slippage', `send 1.5 NTV to ${alice}`]);
    expect(sim.operations.map((o) => o.type)).toEqual(['Swap', 'Transfer']);
    expect(sim.estimated_gas).toBe(5_000 + 40_000 + 16_000);

    const aliceNtv = await balance(alice);
    const usdc = await balance(erin, 'USDC');
    const status = await settled(await node.result<string>('svc_executeProgram', [program.name, params, erin]));
    expect(status).toMatchObject({ status: 'completed', kind: 'program', program: program.name, gas_used: 61_000 });
    expect((await balance(alice)) - aliceNtv).toBe(1_500_000_000n);
    expect(usdc - (await balance(erin, 'USDC'))).toBe(10n * USD);
  });

  it('validation errors name the bad field and change nothing', async () => {
    const cases: Array<[string, unknown[], string]> = [
      ['svc_registerProgram', [{ ...program, name: 'x' }, erin], 'name'],
      ['svc_registerProgram', [{ ...program, steps: ['swap 1 USDC for NTV', 'swap ${amount} USDC for NTV', 'teleport 5 NTV'] }, erin], 'steps[2].intent'],
      ['svc_registerProgram', [{ ...program, params: [{ name: 'amount', type: 'money' }] }, erin], 'params[0].type'],
      ['svc_registerProgram', ['{not json', erin], 'program_json'],
      ['svc_simulateProgram', [program.name, { to: alice, tip: '1', amount: 'lots' }, erin], 'params.amount'],
      ['svc_simulateProgram', [program.name, { tip: '1' }, erin], 'params.to'],
      ['svc_executeProgram', [program.name, { to: alice, tip: '1', extra: 2 }, erin], 'params.extra'],
    ];
    const nonce = await nonceOf(erin);
    for (const [method, params, field] of cases) {
      const err = await node.rpcError(method, params);
      expect([method, err.code, err.data?.field]).toEqual([method, -32602, field]);
      expect(err.message).toContain(field);
    }
    expect((await node.rpcError('svc_getProgram', ['nope-program'])).code).toBe(-32003);
    expect((await node.rpcError('svc_executeProgram', ['nope-program', {}, erin])).code).toBe(-32003);
    expect(await nonceOf(erin)).toBe(nonce);
  });
});

describe('bad input', () => {
  it('is a clear JSON-RPC error naming what was wrong, and changes no state', async () => {
    const nonce = await nonceOf(bob);
    const usdc = await balance(bob, 'USDC');
    const cases: Array<[string, unknown[], number, RegExp]> = [
      ['svc_previewIntent', ['teleport 5 NTV to the moon', bob], -32602, /intent_string.*teleport/],
      ['svc_simulateIntent', ['swap 10 ZZZQ for NTV', bob], -32602, /unknown token "ZZZQ"/],
      ['svc_submitIntent', ['', bob], -32602, /intent_string/],
      ['svc_submitIntent', ['swap 10 USDC for NTV', 'nobody'], -32602, /sender_address/],
      ['svc_submitIntent', ['bridge 10 USDC from ethereum and swap to NTV', bob], -32003, /no pending receive of 10 USDC from ethereum/],
      ['svc_previewIntent', ['bridge 10 USDC from mars', bob], -32602, /unknown chain "mars"/],
      ['svc_submitIntent', ['send 1 NTV to nobody-here.vex', bob], -32003, /not registered/],
      ['svc_submitIntent', ['swap 10 USDC for BTC', bob], -32003, /no pool and no route/],
      ['svc_submitIntent', ['buy 1 sTSLA with USDC', bob], -32013, /integrator hook/],
      ['svc_submitIntent', ['swap 10 USDC for NTV max fee 0.00001', bob], -32012, /max fee/],
      ['svc_getIntentStatus', ['Nxh' + '1'.repeat(44)], -32602, /bundle_hash/],
      ['svc_getIntentStatus', ['0x' + '00'.repeat(32)], -32003, /no intent/],
      ['svc_listPrograms', [0], -32602, /limit/],
    ];
    for (const [method, params, code, message] of cases) {
      const err = await node.rpcError(method, params);
      expect([method, err.code], err.message).toEqual([method, code]);
      expect(err.message).toMatch(message);
    }
    const stake = await node.result<Simulation>('svc_simulateIntent', ['stake 1000 NTV', bob]);
    expect(stake.operations.map((o) => [o.type, o.amount_in])).toEqual([['Delegate', (1_000n * NTV).toString()]]);
    const synthetic = await node.result<Preview>('svc_previewIntent', ['buy 1 sTSLA with USDC', bob]);
    expect(synthetic.warnings).toEqual([]);
    expect(synthetic.notes).toEqual([expect.stringMatching(/^No integrator hook registered/)]);
    expect(await nonceOf(bob)).toBe(nonce);
    expect(await balance(bob, 'USDC')).toBe(usdc);
  });
});

describe('Recurring and Conditional intents (on-chain schedules)', () => {
  it('a limit buy (Conditional Acquire) executes once the pool price is below the limit', async () => {
    const sol = await balance(frank, 'SOL');
    const id = await node.result<string>('svc_submitIntent', ['limit buy 1 SOL at 5 NTV', frank]);
    const deadline = Date.now() + 20_000;
    let status = await node.result<Status>('svc_getIntentStatus', [id]);
    while (status.status === 'pending' && Date.now() < deadline) {
      await sleep(250);
      status = await node.result<Status>('svc_getIntentStatus', [id]);
    }
    expect(status).toMatchObject({ status: 'completed', kind: 'Conditional', runs_done: 1, runs_left: 0 });
    expect((await balance(frank, 'SOL')) - sol).toBeGreaterThanOrEqual(NTV);
    const never = await node.result<string>('svc_submitIntent', ['limit buy 1 SOL at 0.5 NTV', frank]);
    await sleep(2500);
    const waiting = await node.result<Status>('svc_getIntentStatus', [never]);
    expect(waiting).toMatchObject({ status: 'pending', runs_done: 0, schedule_state: 'active' });
    expect((waiting.last_check as { price: string }).price).toMatch(/^2\./);
  });

  it('svc_getExecutionPlan shows a Recurring intent as ONE CreateSchedule bundle; sent with svc_submitBundle, the core runs it', async () => {
    const once = JSON.stringify({ goal: 'Recurring', interval_seconds: 3600, runs: 1, then: { goal: 'Swap', amount_in: '1', token_in: 'USDC', token_out: 'NTV' } });
    const plan = await node.result<{ bundle: { unsigned_bundle_hex: string; operations: Array<Record<string, unknown>>; max_gas: string } }>('svc_getExecutionPlan', [once, frank]);
    expect(plan.bundle.operations).toHaveLength(1);
    expect(plan.bundle.operations[0]).toMatchObject({ type: 'CreateSchedule', trigger: { kind: 'Recurring', interval_seconds: '3600', runs: 1, first_run: '0' } });
    const receipt = await node.result<{ status: string; block_height: number; events: Array<Record<string, unknown>> }>('svc_submitBundle', [plan.bundle.unsigned_bundle_hex]);
    expect(receipt.status).toBe('success');
    const created = receipt.events.find((e) => e.type === 'ScheduleCreated')!;
    const status = await node.result<Status & { runs: Array<{ status: string; block_height: number }> }>('svc_getIntentStatus', [created.schedule_id]);
    expect(status).toMatchObject({ status: 'completed', kind: 'Recurring', runs_done: 1 });
    expect(status.runs[0]).toMatchObject({ status: 'completed', block_height: receipt.block_height });
  });

  it('a recurring intent runs each time it is due, each run recorded on chain, across a restart', async () => {
    const recurring = JSON.stringify({ goal: 'Recurring', interval_seconds: 60, runs: 2, then: { goal: 'Swap', amount_in: '10', token_in: 'USDC', token_out: 'NTV' } });
    const preview = await node.result<Preview>('svc_previewIntent', [recurring, erin]);
    expect(preview.summary).toMatch(/^Every minute, 2 runs/);
    const usdc = await balance(erin, 'USDC');
    const id = await node.result<string>('svc_submitIntent', [recurring, erin]);
    type Runs = Status & { runs_done: number; runs_left: number; next_due: number | null; runs: Array<{ status: string; bundle_hash?: string; block_height?: number }> };
    const waitFor = async (pred: (s: Runs) => boolean, ms: number) => {
      const deadline = Date.now() + ms;
      for (;;) {
        const s = await node.result<Runs>('svc_getIntentStatus', [id]);
        if (pred(s)) return s;
        if (Date.now() > deadline) throw new Error(`schedule did not get there: ${JSON.stringify(s)}`);
        await sleep(500);
      }
    };
    // Until the CreateSchedule bundle is in a block, the status is that bundle's (no runs yet).
    const first = await waitFor((s) => s.runs?.[0]?.status === 'completed', 20_000);
    expect(first).toMatchObject({ status: 'pending', kind: 'Recurring', runs_done: 1, runs_left: 1, runs_total: 2, interval_seconds: 60 });
    expect(first.next_due).toBeGreaterThan(Math.floor(Date.now() / 1000));
    // Runs are executed by the core (docs/schedules.md): no bundle of their own,
    // a run record with its block, status and gas; the CreateSchedule bundle can be followed.
    expect(first.runs[0]).toMatchObject({ run: 1, status: 'completed', gas_used: 45_000 });
    const creating = await node.result<Status>('svc_getIntentStatus', [(first as unknown as { bundle_hash: string }).bundle_hash]);
    expect(creating).toMatchObject({ status: 'completed', kind: 'schedule' });
    expect((creating as unknown as { block_height: number }).block_height).toBe(first.runs[0]!.block_height);

    // The schedule is chain state: it survives a hard kill and the chain runs the rest.
    await node.kill9();
    await node.launch();
    expect((await node.result<{ name: string }>('svc_getProgram', ['usdc-to-ntv-and-tip'])).name).toBe('usdc-to-ntv-and-tip');
    const done = await waitFor((s) => s.status !== 'pending', 90_000);
    expect(done).toMatchObject({ status: 'completed', runs_done: 2, runs_left: 0, next_due: null });
    expect(done.runs.map((r) => r.status)).toEqual(['completed', 'completed']);
    expect(done.runs[1]!.block_height).toBeGreaterThan(done.runs[0]!.block_height!);
    expect(done.gas_used).toBe(90_000);
    expect(usdc - (await balance(erin, 'USDC'))).toBe(20n * USD);
  }, 150_000);
});
