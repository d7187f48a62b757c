// How a receipt shows the STD-8 stablecoin events' named fields (docs/stablecoins.md "Events";
// abi/events.mjs `j`): the names of their enum values, and an issuer proof's subject. The receipt
// JSON itself is generated with every kind's (src/abi/events.ts); src/chain/receipts.ts takes these
// from the module (src/domains/stablecoins/index.ts `receiptFormats`).
import { toHex0x } from '../../codec/hash.js';
import { nameOf, type DomainReceiptFormats } from '../module.js';

/** StableIssuerProof.method names (abi/operations.mjs), also svc_getIssuerOnboarding's. */
export const ISSUER_PROOF_METHODS = ['admin_signature', 'domain', 'documents'] as const;
/** StableAdmin.action names (docs/stablecoins.md "Events"). */
export const STABLE_ADMIN_ACTIONS = ['pause', 'blacklist', 'mint_freeze', 'guardians', 'security', 'supply_cap', 'issuer_verified', 'role_applied'] as const;
/** StablePending kind and outcome names. */
export const STABLE_PENDING_KINDS = ['role_change', 'minter_addition', 'handover', 'mint'] as const;
export const STABLE_PENDING_OUTCOMES = ['queued', 'executed', 'cancelled', 'approved'] as const;


export const stablecoinReceiptFormats: DomainReceiptFormats = {
  stableAdminAction: (v) => nameOf(STABLE_ADMIN_ACTIONS, v),
  stablePendingKind: (v) => nameOf(STABLE_PENDING_KINDS, v),
  stablePendingOutcome: (v) => nameOf(STABLE_PENDING_OUTCOMES, v),
  stableMinterAction: (v) => (['added', 'removed', 'configured'] as const)[v] ?? 'configured',
  issuerProofMethod: (v) => nameOf(ISSUER_PROOF_METHODS, v),
  // the admin's EVM address (the last 20 bytes), or the evidence digest (docs/stablecoins.md "Issuer onboarding")
  issuerProofSubject: (v, e) => toHex0x(e.method === 0 ? v.subarray(12) : v),
  issuerVerification: (v) => nameOf(['Pending', 'Verified', 'Issuer-Held'], v),
};
