import { Type, type TSchema } from '@sinclair/typebox';
import { encodeAccount, encodeHash } from '../../codec/address.js';
import { encodeForSigning, signingHash } from '../../codec/bundle.js';
import { encodePool } from '../../core/amm.js';
import { routeType, WARNINGS, type Plan } from '../../intents/planner.js';
import { operationJson } from '../../intents/schedules.js';
import { bpsPercent, formatUnits } from '../../intents/units.js';
import { APP_ERRORS, RpcError } from '../errors.js';
import { defineMethod, type MethodDefinition } from '../registry.js';
import { Hash, parsed } from '../schemas.js';
import type { MethodDependencies } from './context.js';
import { guarded, INTENT_ERROR_CODES, Notes, simulation, SimulationSchema, Warnings } from './intent-shared.js';
import { AccountParam, hashParam } from './params.js';

/**
 * Spec §4.8 intent engine (docs/intents.md); the §4.9 intent programs' methods are their domain's
 * (src/domains/programs/rpc.ts), sharing src/rpc/methods/intent-shared.ts. Preview and simulate plan
 * against committed state and change nothing; simulate also runs the planned bundle through a
 * scratch core. Submit and execute send ONE unsigned bundle (testnet convenience, like svc_swap)
 * and answer with its hash once it is in the mempool; svc_getIntentStatus follows it.
 */

const IntentString = Type.String({
  minLength: 1, maxLength: 2000,
  description: 'Natural language in one of 7 languages ("swap 100 USDC for NTV with 1% slippage") or a JSON goal (docs/intents.md).',
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

const NO_SENDER = new Uint8Array(32);

export function intentMethods({ chain, readers, intents }: MethodDependencies): MethodDefinition[] {
  if (!intents) return [];
  const service = intents;
  const plan = (text: string, sender: Uint8Array) => guarded(INTENT_PARAMS, 'intent_string', () => service.plan([text], sender).plan);
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
      errors: INTENT_ERROR_CODES,
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
      errors: INTENT_ERROR_CODES,
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
      errors: [...INTENT_ERROR_CODES, APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.BUNDLE_INVALID.code, APP_ERRORS.MEMPOOL_FULL.code],
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
      errors: INTENT_ERROR_CODES,
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
  ];
}
