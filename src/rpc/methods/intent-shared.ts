import { Type } from '@sinclair/typebox';
import { IntentParseError } from '../../intents/parse-error.js';
import { PlanError, type Plan } from '../../intents/planner.js';
import { ProgramError } from '../../intents/programs.js';
import type { IntentService } from '../../intents/service.js';
import type { SimulationOutcome } from '../../intents/simulate.js';
import { APP_ERRORS, RpcError } from '../errors.js';
import type { MethodParam } from '../method.js';
import { positionIn } from './params.js';

/**
 * What the intent methods (src/rpc/methods/intents.ts, spec §4.8) and the intent programs' methods
 * (src/domains/programs/rpc.ts, spec §4.9) share: the §2.6 simulation result and its schema, the
 * warnings and notes, and the mapping of the intent engine's errors to JSON-RPC errors. Both import
 * this file and it imports neither, so the imports point one way.
 */

/** Spec §7.3 lists the only strings `warnings` may hold; everything else the node has to say goes here. */
export const Warnings = Type.Array(Type.String(), {
  description: 'exactly the spec §7.3 warnings that apply: "High price impact (>5%)", "Auto-routed through the intermediate token (slippage applied per leg)", '
    + '"Price impact exceeds 25% and execution will be rejected", "Insufficient balance"',
});
export const Notes = Type.Array(Type.String(), {
  description: 'this node\'s extension of spec §2.6: other messages for the wallet, e.g. "No integrator hook registered: …", '
    + '"Execution would fail: <STATUS> (…)", "Submission would be refused: …"; [] when there are none',
});

/** The spec §2.6 simulation result (svc_simulateIntent; svc_simulateProgram adds its program and intents). */
export const SimulationSchema = Type.Object({
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

/** The application errors every planning method may answer with (docs/rpc.md "Errors"). */
export const INTENT_ERROR_CODES = [APP_ERRORS.INTENT_REJECTED.code, APP_ERRORS.NOT_FOUND.code, APP_ERRORS.UNKNOWN_TOKEN.code, APP_ERRORS.UNAVAILABLE_ON_NODE.code];

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
export async function guarded<T, const P extends readonly MethodParam[]>(params: P, name: P[number]['name'], f: () => T | Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (error) {
    return intentErrors(name, positionIn(params, name))(error);
  }
}

/** The §2.6 simulation result of a plan: its steps, with the scratch core's outputs and verdict where it ran. */
export async function simulation(service: IntentService, plan: Plan) {
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
