import { Type, type TSchema } from '@sinclair/typebox';
import { encodeAccount, encodeHash } from '../../codec/address.js';
import { encodeForSigning, signingHash } from '../../codec/bundle.js';
import { encodePool } from '../../core/amm.js';
import { IntentParseError } from '../../intents/parse-error.js';
import { PlanError, routeType, WARNINGS, type Plan } from '../../intents/planner.js';
import { ProgramError, type StoredProgram } from '../../intents/programs.js';
import type { IntentService } from '../../intents/service.js';
import type { SimulationOutcome } from '../../intents/simulate.js';
import { operationJson } from '../../intents/schedules.js';
import { bpsPercent, formatUnits } from '../../intents/units.js';
import { APP_ERRORS, RpcError } from '../errors.js';
import { defineMethod, type MethodDefinition } from '../registry.js';
import { Hash, Limit, parsed } from '../schemas.js';
import type { MethodParam } from '../method.js';
import type { MethodDependencies } from './context.js';
import { AccountParam, hashParam, positionIn } from './params.js';

/**
 * Spec §4.8 intent engine and §4.9 intent programs (docs/intents.md). Preview and simulate plan
 * against committed state and change nothing; simulate also runs the planned bundle through a
 * scratch core. Submit and execute send ONE unsigned bundle (testnet convenience, like svc_swap)
 * and answer with its hash once it is in the mempool; svc_getIntentStatus follows it.
 */

const IntentString = Type.String({
  minLength: 1, maxLength: 2000,
  description: 'Natural language in one of 7 languages ("swap 100 USDC for NTV with 1% slippage") or a JSON goal (docs/intents.md).',
});
const ProgramName = Type.String({ minLength: 1, maxLength: 64, description: 'program name (3–64 of a–z, 0–9, -, _)' });

/** Spec §7.3 lists the only strings `warnings` may hold; everything else the node has to say goes here. */
const Warnings = Type.Array(Type.String(), {
  description: 'exactly the spec §7.3 warnings that apply: "High price impact (>5%)", "Auto-routed through the intermediate token (slippage applied per leg)", '
    + '"Price impact exceeds 25% and execution will be rejected", "Insufficient balance"',
});
const Notes = Type.Array(Type.String(), {
  description: 'this node\'s extension of spec §2.6: other messages for the wallet, e.g. "No integrator hook registered: …", '
    + '"Execution would fail: <STATUS> (…)", "Submission would be refused: …"; [] when there are none',
});

const PreviewSchema = Type.Object({
  summary: Type.String(),
  route_type: Type.String({ description: '"direct" or "auto-routed (<n> hops)"' }),
  estimated_fee_vxs: Type.String({ description: 'the fee in whole NTV, decimal string (gas × gas price)' }),
  price_impact: Type.String({ description: 'combined price impact of the swaps, percent string, e.g. "0.99%"' }),
  slippage_tolerance: Type.String({ description: 'percent string, e.g. "0.5%"' }),
  balance_sufficient: Type.Boolean(),
  warnings: Warnings,
  notes: Notes,
}, { title: 'IntentPreview' });

const SimulationSchema = Type.Object({
  success: Type.Boolean({ description: 'the core executed the planned bundle without failure and the node would accept it' }),
  operations: Type.Array(Type.Object({
    type: Type.String({ description: 'Swap, Swap (Leg 1), Swap (Leg 2), Transfer, AddLiquidity, CreatePool, Stake, RegisterName, …' }),
    from_token: Type.String(), to_token: Type.String(), amount_in: Type.String(), estimated_out: Type.String(), price_impact_bps: Type.Integer(),
  })),
  estimated_gas: Type.Integer(),
  total_price_impact_bps: Type.Integer(),
  warnings: Warnings,
  notes: Notes,
  balance_check: Type.Object({ sufficient: Type.Boolean(), required: Type.String(), available: Type.String() }),
}, { title: 'IntentSimulation' });

const ProgramSchema = Type.Object({
  name: Type.String(), description: Type.String(),
  params: Type.Array(Type.Object({ name: Type.String(), type: Type.String(), default: Type.Optional(Type.String()), description: Type.Optional(Type.String()) })),
  steps: Type.Array(Type.Object({ intent: Type.String(), description: Type.Optional(Type.String()) })),
  owner: Type.String(), version: Type.Integer({ description: 'the record\'s revision: 1, + 1 each time the owner replaces it' }),
  registered_at: Type.Integer(), updated_at: Type.Integer(),
  registered_height: Type.Integer(), updated_height: Type.Integer(),
  program_hash: Type.String({ description: 'Blake3 of the program JSON as stored on chain, 0x hex' }),
  valid: Type.Boolean({ description: 'false when the JSON stored on chain does not validate as a program of this name (it cannot run); see invalid_reason' }),
  invalid_reason: Type.Optional(Type.String()),
}, { title: 'IntentProgram' });

/** An operation in bundle-format JSON: snake_case fields, bytes as 0x hex, u64/u128 as decimal strings (docs/bundle-format.md). */
const OperationJson = Type.Record(Type.String(), Type.Unknown(), { description: 'an operation as docs/bundle-format.md names its fields: type, then snake_case fields; bytes 0x hex, integers decimal strings' });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** svc_getExecutionPlan's answer (spec §4.8; docs/intents.md "Execution plans"). */
const ExecutionPlanSchema = Type.Object({
  summary: Type.String({ description: 'one line a wallet shows' }),
  route_type: Type.String({ description: 'direct, auto-routed (2 hops), multi-step, …' }),
  steps: Type.Array(Type.Object({
    index: Type.Integer(), type: Type.String({ description: 'the operation type of the step' }),
    from_token: Type.String({ description: 'symbol' }), to_token: Type.String({ description: 'symbol' }),
    amount_in: Type.String({ description: 'raw units, decimal' }), estimated_out: Type.String({ description: 'raw units, decimal' }),
    min_out: Type.String({ description: 'raw units after the slippage tolerance' }), price_impact_bps: Type.Integer(),
    pool: Type.Optional(Type.String({ description: 'Nx8… pool of a swap step' })),
    validator: Type.Optional(Type.String({ description: 'Nx0… staking account a Delegate step delegates to (docs/intents.md "Stake and allocate")' })),
    operation: OperationJson,
  })),
  estimated_gas: Type.Integer(),
  estimated_fee: Type.String({ description: 'raw NTV units, decimal: gas × the current gas price' }),
  total_price_impact_bps: Type.Integer(),
  warnings: Warnings,
  notes: Notes,
  savings: Type.Object({
    baseline: Type.String(), naive_bundles: Type.Integer(), naive_gas: Type.Integer(), planned_gas: Type.Integer(),
    gas_saved: Type.Integer(), fee_saved: Type.String({ description: 'raw NTV units, decimal' }),
  }, { description: 'against sending each operation as its own bundle' }),
  schedule: Type.Optional(Type.Object({
    kind: Type.String({ description: 'Recurring or Conditional' }), interval_seconds: Nullable(Type.Integer()), runs: Nullable(Type.Integer()), operation: Type.String({ description: 'CreateSchedule: the one operation the schedule is signed as' }),
  }, { description: 'present for a Recurring or Conditional intent' })),
  bundle: Type.Union([
    Type.Object({
      user_account: Type.String({ description: 'Nx0… sender' }), operations: Type.Array(OperationJson), max_gas: Type.String(), max_priority_fee: Type.String(),
      valid_until: Type.Integer(), nonce: Type.String({ description: 'the sender\'s pending nonce, decimal' }), signature: Type.String({ description: 'empty: the wallet signs signing_hash' }),
      expiry_timestamp: Type.Null(), sender_pubkey: Type.Null(),
      unsigned_bundle_hex: Type.String({ description: 'the Borsh bundle with an empty signature, 0x hex' }),
      signing_hash: Type.String({ description: 'Nxh… hash to sign (docs/bundle-format.md "Signing")' }),
    }, { description: 'with a sender: ready to sign' }),
    Type.Object({
      user_account: Type.Null(), operations: Type.Array(OperationJson), max_gas: Type.String(), max_priority_fee: Type.String(),
      valid_until: Type.Integer(), nonce: Type.Null(),
    }, { description: 'without a sender: the route only, no bytes' }),
  ]),
}, { title: 'ExecutionPlan' });

const StatusSchema = Type.Object({
  status: Type.Union([Type.Literal('pending'), Type.Literal('completed'), Type.Literal('failed')]),
  gas_used: Type.Integer(),
  block_height: Type.Union([Type.Integer(), Type.Null()]),
}, { title: 'IntentStatus', additionalProperties: true });

/** Map the engine's errors to JSON-RPC errors naming what was wrong. */
function intentErrors(param: string, position: number) {
  return (error: unknown): never => {
    if (error instanceof IntentParseError) {
      throw RpcError.invalidParams(`"${param}" (param ${position}): ${error.message}`, {
        param, position, part: error.part, reason: error.reason, ...(error.position !== undefined ? { at: error.position } : {}),
      });
    }
    if (error instanceof ProgramError) throw RpcError.invalidParams(error.message, { param, position, field: error.field });
    if (error instanceof PlanError) {
      if (error.reason === 'INVALID_INTENT') throw RpcError.invalidParams(`"${param}" (param ${position}): ${error.message}`, { param, position, ...error.data });
      throw RpcError.app(error.reason, error.message, error.data);
    }
    throw error;
  };
}

/** Runs f, its engine errors naming `name` at its position in `params` (as the registry counts). */
async function guarded<T, const P extends readonly MethodParam[]>(params: P, name: P[number]['name'], f: () => T | Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (error) {
    return intentErrors(name, positionIn(params, name))(error);
  }
}

/**
 * The param lists, parsed once (issue 44 item 4): senders reach the handlers as 32 bytes; the
 * intent text and the program's params are read by the engine, whose errors name them (guarded).
 */
const INTENT_PARAMS = [
  { name: 'intent_string', schema: IntentString },
  { name: 'sender_address', schema: AccountParam() },
] as const;
const PLAN_PARAMS = [
  { name: 'intent_string', schema: IntentString },
  { name: 'sender_address', schema: AccountParam(), required: false },
] as const;
const REGISTER_PARAMS = [
  { name: 'program_json', schema: Type.Union([Type.String({ maxLength: 65_536 }), Type.Object({}, { additionalProperties: true })], { description: 'the program as a JSON object or JSON text' }) },
  { name: 'sender', schema: AccountParam() },
] as const;
const PROGRAM_PARAMS = [
  { name: 'name', schema: ProgramName },
  { name: 'params', schema: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()], { description: 'parameter name → value; {} or null when every parameter has a default' }) },
  { name: 'sender', schema: AccountParam() },
] as const;
/** A bundle hash or schedule id, checked to decode; the service looks it up as written. */
const BundleHash = () => parsed(Hash(), (value, param, position) => {
  hashParam(value, param, position);
  return value;
});

function preview(plan: Plan) {
  return {
    summary: plan.summary,
    route_type: routeType(plan),
    estimated_fee_vxs: formatUnits(plan.fee, 9),
    price_impact: bpsPercent(plan.totalImpactBps),
    slippage_tolerance: bpsPercent(plan.slippageBps),
    balance_sufficient: plan.balance.sufficient,
    warnings: plan.warnings,
    notes: plan.notes,
  };
}

async function simulation(service: IntentService, plan: Plan) {
  const sim: SimulationOutcome | undefined = plan.operations.length > 0 ? await service.simulate(plan) : undefined;
  // Spec §7.3 fixes the warning strings, so the core's verdict and the refusal are notes.
  const notes = [...plan.notes];
  if (sim && !sim.ok) notes.push(`Execution would fail: ${sim.statusName} (${sim.error}); the whole intent would be reverted`);
  if (plan.rejection) notes.push(`Submission would be refused: ${plan.rejection.message}`);
  return {
    success: sim !== undefined && sim.ok && !plan.rejection,
    operations: plan.steps.map((s, i) => ({
      type: s.type,
      from_token: s.from.symbol,
      to_token: s.to.symbol,
      amount_in: s.amountIn.toString(),
      estimated_out: (sim?.ok ? sim.outputs.get(i) ?? s.estimatedOut : s.estimatedOut).toString(),
      price_impact_bps: s.priceImpactBps,
    })),
    estimated_gas: Number(sim?.ok ? sim.gasUsed : plan.gas),
    total_price_impact_bps: plan.totalImpactBps,
    warnings: plan.warnings,
    notes,
    balance_check: { sufficient: plan.balance.sufficient, required: plan.balance.required.toString(), available: plan.balance.available.toString() },
  };
}


function programJson(p: StoredProgram) {
  return {
    name: p.name, description: p.description, params: p.params, steps: p.steps, owner: p.owner, version: p.version, registered_at: p.registered_at,
    updated_at: p.updated_at, registered_height: p.registered_height, updated_height: p.updated_height, program_hash: p.program_hash, valid: p.valid,
    ...(p.invalid_reason !== undefined ? { invalid_reason: p.invalid_reason } : {}),
  };
}

const NO_SENDER = new Uint8Array(32);

export function intentMethods({ chain, readers, intents }: MethodDependencies): MethodDefinition[] {
  if (!intents) return [];
  const service = intents;
  const plan = (text: string, sender: Uint8Array) => guarded(INTENT_PARAMS, 'intent_string', () => service.plan([text], sender).plan);
  const intentErrorCodes = [APP_ERRORS.INTENT_REJECTED.code, APP_ERRORS.NOT_FOUND.code, APP_ERRORS.UNKNOWN_TOKEN.code, APP_ERRORS.UNAVAILABLE_ON_NODE.code];
  return [
    defineMethod({
      name: 'svc_previewIntent',
      summary: 'What an intent would do, for wallet confirmation (spec §2.6 preview; read-only).',
      description: 'Plans the intent against committed state: summary, route, fee, combined price impact, slippage, whether the balance '
        + 'covers it, the spec §7.3 warnings and, in `notes`, anything else (a missing integrator hook). Max cost and fee limits above what the plan needs are INTENT_REJECTED (-32012).'
        + ' Errors: INTENT_REJECTED (the text does not parse or the plan breaks a limit), NOT_FOUND (no pool for a route), UNKNOWN_TOKEN,'
        + ' UNAVAILABLE_ON_NODE when the node runs without the intent engine.',
      params: INTENT_PARAMS,
      result: {
        name: 'preview', schema: PreviewSchema,
        description: '`{summary, route_type ("direct" | "auto-routed (2 hops)"), estimated_fee_vxs (whole NTV), price_impact ("0.99%"),'
          + ' slippage_tolerance ("0.5%"), balance_sufficient, warnings[], notes[]}` — `warnings` holds only the spec §7.3 strings; `notes`'
          + ' (this node\'s addition to §2.6) everything else, e.g. a missing integrator hook ([intents.md](intents.md) "Preview fields")',
      },
      errors: intentErrorCodes,
      handler: async ([text, sender]) => preview(await plan(text, sender)),
    }),
    defineMethod({
      name: 'svc_simulateIntent',
      summary: 'Plan the intent and execute its bundle on a scratch core over committed state (spec §2.6 simulation; nothing is written).',
      description: 'Plans the intent and executes its bundle on a scratch copy of the core over committed state; nothing is written (spec §2.6).'
        + ' Errors: INTENT_REJECTED, NOT_FOUND (no pool for a route), UNKNOWN_TOKEN, UNAVAILABLE_ON_NODE.',
      params: INTENT_PARAMS,
      result: {
        name: 'simulation', schema: SimulationSchema,
        description: '`{success, operations[{type, from_token, to_token, amount_in, estimated_out, price_impact_bps}], estimated_gas,'
          + ' total_price_impact_bps, warnings[], notes[], balance_check {sufficient, required, available}}`; `warnings` as in preview,'
          + ' `notes` also says why execution would fail or submission be refused; the bundle runs on a scratch core over committed state;'
          + ' routed legs are `Swap (Leg 1)`, `Swap (Leg 2)`',
      },
      errors: intentErrorCodes,
      handler: async ([text, sender]) => simulation(service, await plan(text, sender)),
    }),
    defineMethod({
      name: 'svc_submitIntent',
      summary: 'Plan the intent and send it as ONE unsigned bundle (spec §4.8; testnet convenience); returns the bundle hash.',
      description: 'Answers once the bundle is in the mempool; follow it with svc_getIntentStatus. A failing step reverts the whole intent '
        + '(spec §7.5). Deadline → valid_until, max fee / gas limit → max_gas, slippage → min_amount_out of every swap, all enforced by the core. '
        + 'A Recurring or Conditional intent is sent as ONE CreateSchedule bundle (docs/intents.md "Schedules on chain") and answered with its schedule id (Nxh…); '
        + 'the core runs it on every node. On mainnet: sign the bundle svc_getExecutionPlan shows and send it with svc_submitBundle.'
        + ' Errors: INTENT_REJECTED, NOT_FOUND, UNKNOWN_TOKEN, UNAVAILABLE_ON_NODE, UNAVAILABLE_ON_NETWORK on mainnet, BUNDLE_INVALID,'
        + ' MEMPOOL_FULL.',
      params: INTENT_PARAMS,
      result: {
        name: 'bundle_hash', schema: Type.String({ description: 'Nxh… bundle hash, or the schedule id of a Recurring/Conditional intent' }),
        description: 'bundle hash (`Nxh…`); Recurring/Conditional intents: ONE `CreateSchedule` bundle is sent and the answer is the schedule id'
          + ' (`Nxh…`, docs/intents.md "Schedules on chain"). Testnet only: on mainnet `-32004` (sign the bundle `svc_getExecutionPlan` shows'
          + ' and use `svc_submitBundle`)',
      },
      errors: [...intentErrorCodes, APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.BUNDLE_INVALID.code, APP_ERRORS.MEMPOOL_FULL.code],
      handler: async ([text, from]) => (await guarded(INTENT_PARAMS, 'intent_string', () => service.submit(text, from))).hash,
    }),
    defineMethod({
      name: 'svc_getExecutionPlan',
      summary: 'The execution steps, estimated gas, savings against one bundle per step, and the unsigned bundle a wallet signs (spec §4.8).',
      description: 'sender_address is optional (an extension of spec §4.8): with it, the plan uses its balances and the bundle carries its '
        + 'pending nonce, ready to sign (sign signing_hash, put the signature in, svc_submitBundle); without it, a zero sender plans '
        + 'the route only and no bytes are given. Liquidate and Rebalance need the sender.'
        + ' Errors: INTENT_REJECTED, NOT_FOUND (no pool for a route), UNKNOWN_TOKEN, UNAVAILABLE_ON_NODE.',
      params: PLAN_PARAMS,
      result: {
        name: 'plan', schema: ExecutionPlanSchema,
        description: '`{summary, route_type, steps[{index, type, from_token, to_token, amount_in, estimated_out, min_out, price_impact_bps, pool?,'
          + ' operation}], estimated_gas, estimated_fee, total_price_impact_bps, warnings[], notes[], savings {baseline, naive_bundles,'
          + ' naive_gas, planned_gas, gas_saved, fee_saved}, schedule? {kind, interval_seconds, runs, operation: "CreateSchedule"}, bundle'
          + ' {user_account, operations[], max_gas, max_priority_fee, valid_until, nonce, signature, expiry_timestamp, sender_pubkey,'
          + ' unsigned_bundle_hex, signing_hash}}` — for a Recurring/Conditional intent `bundle.operations` is the one `CreateSchedule`'
          + ' holding the steps\' operations, and `max_gas` its gas; with a sender the bundle is ready to sign (sign `signing_hash`, put the'
          + ' signature in, `svc_submitBundle`); without one, `user_account`/`nonce` are null and no bytes are given, and `warnings` never'
          + ' holds "Insufficient balance" (there is no balance to check)',
      },
      errors: intentErrorCodes,
      handler: async ([text, from]) => {
        const planned = await guarded(PLAN_PARAMS, 'intent_string', () => {
          const r = service.plan([text], from ?? NO_SENDER);
          // A Recurring/Conditional intent is signed as ONE CreateSchedule operation (docs/intents.md "Schedules on chain").
          return { p: r.plan, carried: service.bundleFor(r.plan, r.intents[0]!) };
        });
        const { p, carried } = planned;
        const gasPrice = chain.gasPrice;
        // Naive execution: every operation in its own bundle, each paying the 5,000 base (docs/core-abi.md).
        const naiveGas = p.operations.reduce((acc, op) => acc + service.gas.bundleGas([op]), 0n);
        const validUntil = BigInt(Math.max(Math.floor(Date.now() / 1000), chain.headHeader.timestamp) + p.deadlineSeconds);
        const bundle = from && p.operations.length > 0
          ? (() => {
              const b = { userAccount: from, operations: carried.operations, maxGas: carried.maxGas, maxPriorityFee: 0n, validUntil, nonce: chain.pendingNonce(from), signature: new Uint8Array(0) };
              return {
                user_account: encodeAccount(from), operations: carried.operations.map(operationJson), max_gas: carried.maxGas.toString(), max_priority_fee: '0',
                valid_until: Number(validUntil), nonce: b.nonce.toString(), signature: '', expiry_timestamp: null, sender_pubkey: null,
                unsigned_bundle_hex: '0x' + Buffer.from(encodeForSigning(b)).toString('hex'),
                signing_hash: encodeHash(signingHash(b)),
              };
            })()
          : { user_account: null, operations: carried.operations.map(operationJson), max_gas: carried.maxGas.toString(), max_priority_fee: '0', valid_until: Number(validUntil), nonce: null };
        return {
          summary: p.summary,
          route_type: routeType(p),
          steps: p.steps.map((s, i) => ({
            index: i, type: s.type, from_token: s.from.symbol, to_token: s.to.symbol, amount_in: s.amountIn.toString(), estimated_out: s.estimatedOut.toString(),
            min_out: s.minOut.toString(), price_impact_bps: s.priceImpactBps, ...(s.pool ? { pool: encodePool(s.pool) } : {}),
            ...(s.validator ? { validator: encodeAccount(s.validator) } : {}),
            operation: operationJson(s.op),
          })),
          estimated_gas: Number(p.gas),
          estimated_fee: p.fee.toString(),
          total_price_impact_bps: p.totalImpactBps,
          // Without a sender there are no balances to check: the zero sender the route is planned for
          // holds nothing, and its shortfall is no warning to the caller.
          warnings: from ? p.warnings : p.warnings.filter((w) => w !== WARNINGS.INSUFFICIENT_BALANCE),
          notes: p.notes,
          savings: {
            baseline: 'each operation sent as its own bundle',
            naive_bundles: p.operations.length,
            naive_gas: Number(naiveGas),
            planned_gas: Number(p.gas),
            gas_saved: Number(naiveGas - p.gas),
            fee_saved: ((naiveGas - p.gas) * gasPrice).toString(),
          },
          ...(p.schedule ? { schedule: { kind: p.schedule.kind, interval_seconds: p.schedule.intervalSeconds ?? null, runs: p.schedule.runs ?? null, operation: 'CreateSchedule' } } : {}),
          bundle,
        };
      },
    }),
    defineMethod({
      name: 'svc_getIntentStatus',
      summary: 'Status of a submitted intent: pending, completed or failed, gas used, block height (spec §2.6); a schedule id shows its runs.',
      description: 'The status of an intent by its bundle hash (spec §2.6): pending while in the mempool, then completed or failed with gas and'
        + ' height; a schedule id answers with its runs. Errors: NOT_FOUND when neither a bundle nor a schedule has that hash; SERVER_BUSY'
        + ' while indexing.',
      params: [{ name: 'bundle_hash', schema: BundleHash() }] as const,
      result: {
        name: 'status', schema: StatusSchema,
        description: '`{status: "pending" | "completed" | "failed", gas_used, block_height, bundle_hash, status_name, error, fee, kind, intent,'
          + ' summary, sender, receipt}`; a schedule id gives, from chain state on any node, `{schedule_id, status, kind, schedule_state'
          + ' (active/completed/failed/expired/cancelled), sender, runs_done, runs_left, created_at, created_height, runs_total,'
          + ' interval_seconds, next_due (Recurring), condition {direction, price, base, quote, price_num, price_den}, expires_at, next_check,'
          + ' last_check (Conditional), last_error, gas_used, block_height, operations[], runs[{run, at, block_height, status, status_name,'
          + ' error?, gas_used, fee}], intent?, summary?, bundle_hash?}` (the last three on the node that took the intent); before its'
          + ' `CreateSchedule` bundle is in a block, that bundle\'s status with `kind: "schedule"`; `-32003` when unknown. `CancelSchedule` has'
          + ' no RPC method of its own: sign it (disc. 50, `cancelScheduleOp` in `src/client`) and use `svc_submitBundle`',
      },
      errors: [APP_ERRORS.NOT_FOUND.code, APP_ERRORS.SERVER_BUSY.code],
      handler: async ([hash]) => {
        const status = await service.status(hash);
        if (!status) throw RpcError.app('NOT_FOUND', `no intent, schedule or bundle ${hash} is known to this node`, { bundle_hash: hash });
        return status as { status: 'pending' | 'completed' | 'failed'; gas_used: number; block_height: number | null };
      },
    }),
    defineMethod({
      name: 'svc_registerProgram',
      summary: 'Register an intent program (spec §4.9): name, description, typed params, intent templates with ${param} placeholders (unsigned convenience, testnet only).',
      description: 'Sends the RegisterProgram operation (bundle-format discriminant 48) as an unsigned bundle for `sender` and answers, once it is '
        + 'in a block, with the program as chain state holds it (docs/intents.md "Programs on chain"). On mainnet it is refused (-32004): sign the same '
        + 'operation and send it with svc_submitBundle. The owner may register the same name again to replace it (version + 1); another account is '
        + 'refused. Errors name the bad field, e.g. steps[2].intent.'
        + ' Errors: UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_INVALID (a malformed program, naming the field); BUNDLE_FAILED (the name'
        + ' belongs to another account).',
      paramsNote: '— object or JSON text',
      params: REGISTER_PARAMS,
      result: {
        name: 'program', schema: ProgramSchema,
        description: 'sends `RegisterProgram` (disc. 48) unsigned for `sender` (testnet convenience; mainnet `-32004`: sign the operation and use'
          + ' `svc_submitBundle`) and answers once it is in a block with the program as chain state holds it `{name, description, params[],'
          + ' steps[], owner, version, registered_at, updated_at, registered_height, updated_height, program_hash, valid}`; the owner may'
          + ' register the name again (version + 1), anyone else `-32602` naming `name`',
      },
      errors: [APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.BUNDLE_FAILED.code, APP_ERRORS.BUNDLE_INVALID.code],
      handler: async ([json, owner]) => programJson(await guarded(REGISTER_PARAMS, 'program_json', () => service.registerProgram(json, owner))),
    }),
    defineMethod({
      name: 'svc_getProgram',
      summary: 'A registered intent program by name (spec §4.9), read from chain state.',
      description: 'Reads a registered program from chain state (spec §4.9): its params and steps, owner, version, heights and hash, and whether its'
        + ' templates are valid today. Errors: NOT_FOUND.',
      params: [{ name: 'name', schema: ProgramName }] as const,
      result: {
        name: 'program', schema: ProgramSchema,
        description: 'the program, read from chain state (docs/intents.md "Programs on chain"); `valid: false` with `invalid_reason` when the stored'
          + ' JSON does not validate; `-32003 NOT_FOUND`',
      },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: ([name]) => {
        const p = service.getProgram(name);
        if (!p) throw RpcError.app('NOT_FOUND', `no program named "${name}" is registered`, { name });
        return programJson(p);
      },
    }),
    defineMethod({
      name: 'svc_listPrograms',
      summary: 'Registered intent programs in registration order, oldest first (spec §4.9), read from chain state.',
      paramsNote: '(1–1000, default 100)',
      description: 'Lists registered programs, oldest first (spec §4.9); limit 1–1000, default 100. No application errors.',
      params: [{ name: 'limit', schema: Limit({ default: 100 }), required: false }] as const,
      result: {
        name: 'programs', schema: Type.Array(ProgramSchema),
        description: 'programs in registration order, oldest first (the core\'s list index)',
      },
      handler: ([limit]) => service.listPrograms(limit ?? 100).map(programJson),
    }),
    defineMethod({
      name: 'svc_simulateProgram',
      summary: 'Simulate a program with the given params as its one bundle (spec §4.9); the §2.6 simulation result plus the intents run.',
      paramsNote: '— `params` an object name → value (or null)',
      description: 'Fills the templates with `params` (defaults for the rest) and simulates all steps as one bundle over committed state, as'
        + ' svc_simulateIntent does (spec §4.9, §2.6). Errors: INTENT_REJECTED (a missing or ill-typed param, a step that does not parse),'
        + ' NOT_FOUND (no such program, no pool), UNKNOWN_TOKEN, UNAVAILABLE_ON_NODE.',
      params: PROGRAM_PARAMS,
      result: {
        name: 'simulation', schema: Type.Intersect([SimulationSchema, Type.Object({ program: Type.String(), intents: Type.Array(Type.String()) })]),
        description: 'the `svc_simulateIntent` result plus `{program, intents[]}` (the step texts with the values put in)',
      },
      errors: intentErrorCodes,
      handler: async ([name, params, from]) => {
        const { texts, plan: p } = await guarded(PROGRAM_PARAMS, 'params', () => service.planProgram(name, params, from));
        return { ...(await simulation(service, p)), program: name, intents: texts };
      },
    }),
    defineMethod({
      name: 'svc_executeProgram',
      summary: 'Execute a program with the given params: every step in ONE atomic bundle (spec §4.9; testnet convenience); returns the bundle hash.',
      description: 'Fills the templates and sends every step as ONE atomic unsigned bundle (spec §4.9); answers with its hash once in the mempool.'
        + ' Errors: INTENT_REJECTED, NOT_FOUND, UNKNOWN_TOKEN, UNAVAILABLE_ON_NODE, UNAVAILABLE_ON_NETWORK on mainnet, BUNDLE_INVALID.',
      params: PROGRAM_PARAMS,
      result: {
        name: 'bundle_hash', schema: Type.String(),
        description: 'bundle hash; every step in one atomic bundle',
      },
      errors: [...intentErrorCodes, APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.BUNDLE_INVALID.code],
      handler: async ([name, params, from]) => (await guarded(PROGRAM_PARAMS, 'params', () => service.executeProgram(name, params, from))).hash,
    }),
  ];
}
