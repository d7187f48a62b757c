/**
 * STD-8 stablecoins as the host reads them (docs/stablecoins.md): the core's 0x40 StableCoin record,
 * 0x41 blacklist entries and 0x42 profile, with the token record's paused flag. The rules are the
 * core's (assembly/domains/stablecoins/ops.ts, the movement rules in assembly/ledger.ts); `refusal` mirrors
 * their order over committed state so a convenience method can answer a caller it would refuse
 * with the rule's name before any bundle (and fee) exists. The core still decides: a bundle that
 * gets past this and fails in the block is an ordinary failed bundle.
 */
import {
  decodeTokenFields, tokenKey, decodeStableCoinFields, decodeStableProfileFields, stableBlacklistKey, stableKey, stableProfileKey,
  decodeStableOnboardingFields, stableOnboardingKey, type StableCoinFields, type StableProfileFields, type StableOnboardingFields,
} from '../abi/state.js';
import { STD8_MIN_HANDOVER_DELAY, STD8_PENDING_HANDOVER, STD8_PENDING_MINT, TOKEN_FLAG_PAUSED, GOVERNANCE, FOUNDATION } from '../abi/constants.js';
import { STABLE_TRANSFER_ROLE_ROLE_VALUES, type Operation } from '../abi/operations.js';
import type { StatusName } from '../core/status.js';
import type { TokenRecord } from '../core/records.js';
import type { StateReader } from './state-reader.js';

export type { StableCoinFields, StableProfileFields, StableOnboardingFields };

/** StableCoin.flags bits (abi/state.mjs). */
export const STABLE_FLAG_MINT_FROZEN = 1;
export const STABLE_FLAG_QUANTUM = 2;
/** spec §2.2 Verification Status by StableCoin.verification, with its reputation points. */
export const VERIFICATION = [
  { status: 'Pending', points: 10 },
  { status: 'Verified', points: 12 },
  { status: 'Issuer-Held', points: 15 },
] as const;
/** The STD-8 roles by number, as StableTransferRole's role byte names them (abi/operations.mjs). */
export const ROLE_NAMES = STABLE_TRANSFER_ROLE_ROLE_VALUES;
export type RoleName = (typeof ROLE_NAMES)[number];
export const PENDING_KINDS = ['role_change', 'minter_addition', 'handover', 'mint'] as const;

export function stableRecord(state: StateReader, mint: Uint8Array): StableCoinFields | undefined {
  const v = state.get(stableKey(mint));
  return v ? decodeStableCoinFields(v) : undefined;
}
export function stableProfile(state: StateReader, mint: Uint8Array): StableProfileFields | undefined {
  const v = state.get(stableProfileKey(mint));
  return v ? decodeStableProfileFields(v) : undefined;
}
/** The issuer-onboarding proofs recorded for a token (0x44; docs/stablecoins.md "Issuer onboarding"), or undefined before the first. */
export function stableOnboarding(state: StateReader, mint: Uint8Array): StableOnboardingFields | undefined {
  const v = state.get(stableOnboardingKey(mint));
  return v ? decodeStableOnboardingFields(v) : undefined;
}
/** Distinct proofs that make a Pending issuer Verified (spec §4.16: two of three). */
export const ONBOARDING_PROOFS_REQUIRED = 2;
export function isBlacklisted(state: StateReader, mint: Uint8Array, account: Uint8Array): boolean {
  return state.get(stableBlacklistKey(mint, account)) !== undefined;
}
export function isPaused(token: Pick<TokenRecord, 'flags'>): boolean {
  return (token.flags & TOKEN_FLAG_PAUSED) !== 0;
}
/** The pause as committed state has it now (for callers holding a token record of an index that may lag). */
export function isPausedNow(state: StateReader, mint: Uint8Array): boolean {
  const v = state.get(tokenKey(mint));
  return v !== undefined && isPaused(decodeTokenFields(v));
}

const eq = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);
const zero = (a: Uint8Array) => a.every((x) => x === 0);

/** A refusal: the core status the operation would fail with and a sentence naming the rule. */
export interface Refusal {
  status: StatusName;
  message: string;
}

/**
 * The first rule the core would refuse `op` with, sent by `sender` at the next block (height + 1),
 * or undefined. Mirrors assembly/domains/stablecoins/ops.ts's order for the rules that depend on roles,
 * the flags, the blacklist and the pending list; the limits of a mint and the shapes of lists
 * are left to the core.
 */
export function refusal(state: StateReader, token: TokenRecord | undefined, height: number, sender: Uint8Array, op: Operation): Refusal | undefined {
  const r = (status: StatusName, message: string): Refusal => ({ status, message });
  if (op.type === 'CreateStableToken') {
    return eq(sender, GOVERNANCE) ? undefined : r('NOT_GOVERNANCE', 'only the governance authority 0x00…09 may create a stablecoin (a passed proposal; on testnet name it as sender)');
  }
  if (!('token' in op) || !token) return undefined;
  const mint = op.token as Uint8Array;
  const s = stableRecord(state, mint);
  if (!s) return r('NOT_STABLECOIN', 'the token is not an STD-8 stablecoin');
  const next = BigInt(height) + 1n;
  const owner = eq(sender, s.owner);
  const guardian = s.guardians.some((g) => eq(g, sender));
  const black = (a: Uint8Array) => isBlacklisted(state, mint, a);
  const pending = (id: bigint) => s.pending.find((p) => p.id === id);
  switch (op.type) {
    case 'StableMint': {
      if (op.amount === 0n) return r('ZERO_AMOUNT', 'the amount must be greater than zero');
      if (black(sender) || black(op.to)) return r('ADDRESS_BLACKLISTED', `the ${black(sender) ? 'minter' : 'recipient'} is blacklisted for this stablecoin`);
      if (isPaused(token)) return r('TOKEN_PAUSED', 'the stablecoin is paused: minting is blocked');
      if (s.flags & STABLE_FLAG_MINT_FROZEN) return r('MINT_FROZEN', 'minting is frozen by a guardian until the owner unfreezes it');
      const m = s.minters.find((x) => eq(x.minter, sender));
      if (!m) return r('NOT_MINTER', 'the sender is not a configured minter of this stablecoin');
      if (s.flags & STABLE_FLAG_QUANTUM) return r('QUANTUM_SIGNATURE_REQUIRED', 'this stablecoin accepts mints only in bundles signed with an ML-DSA-65 key (svc_submitBundle)');
      if (m.allowance < op.amount) return r('MINTER_ALLOWANCE_EXCEEDED', `the mint is above the minter's remaining allowance ${m.allowance}`);
      return undefined;
    }
    case 'StableBurn':
      if (op.amount === 0n) return r('ZERO_AMOUNT', 'the amount must be greater than zero');
      if (isPaused(token)) return r('TOKEN_PAUSED', 'the stablecoin is paused: every movement is blocked');
      if (black(sender)) return r('ADDRESS_BLACKLISTED', 'the sender is blacklisted for this stablecoin');
      return undefined;
    case 'StablePause':
      return eq(sender, s.pauser) ? undefined : r('NOT_PAUSER', 'only the pauser role may pause or unpause');
    case 'StableBlacklist':
      return eq(sender, s.blacklister) ? undefined : r('NOT_BLACKLISTER', 'only the blacklister role may change the blacklist');
    case 'StableTransferRole':
      if (!owner) return r('NOT_STABLE_OWNER', 'only the owner role may transfer a role');
      return zero(op.newAddress) ? r('ZERO_ADDRESS_ROLE', 'a role cannot go to the zero address') : undefined;
    case 'StableConfigureMinter': {
      if (!eq(sender, s.masterMinter)) return r('NOT_MASTER_MINTER', 'only the master_minter role may configure minters');
      if (zero(op.minter)) return r('ZERO_ADDRESS_ROLE', 'a minter cannot be the zero address');
      const exists = s.minters.some((x) => eq(x.minter, op.minter));
      if (op.action === 'add' && exists) return r('MINTER_EXISTS', 'the account is already a minter (use configure)');
      if (op.action !== 'add' && !exists) return r('MINTER_NOT_FOUND', 'the account is not a minter of this stablecoin');
      return undefined;
    }
    case 'StableHandover':
      if (!owner) return r('NOT_STABLE_OWNER', 'only the owner role may start a handover');
      if ([op.newOwner, op.newMasterMinter, op.newPauser, op.newBlacklister].some(zero)) return r('ZERO_ADDRESS_ROLE', 'a role cannot go to the zero address');
      if (s.pending.some((p) => p.kind === STD8_PENDING_HANDOVER)) return r('HANDOVER_PENDING', 'a handover is already pending');
      return undefined;
    case 'StableCancelPending': {
      const p = pending(op.pendingId);
      if (!p) return r('PENDING_NOT_FOUND', `no pending change or mint ${op.pendingId}`);
      let ok = owner || guardian;
      if (p.kind === STD8_PENDING_HANDOVER) ok = ok || eq(sender, FOUNDATION) || eq(sender, GOVERNANCE);
      if (p.kind === STD8_PENDING_MINT) ok = ok || eq(sender, s.masterMinter);
      return ok ? undefined : r('CANCEL_NOT_ALLOWED', 'the sender may not cancel this pending change');
    }
    case 'StableExecutePending': {
      const p = pending(op.pendingId);
      if (!p || p.kind === STD8_PENDING_MINT) return r('PENDING_NOT_FOUND', `no timelocked change ${op.pendingId} (a pending mint executes through its cosigners)`);
      if (next < p.effectiveHeight) return r('PENDING_NOT_DUE', `the timelock runs until height ${p.effectiveHeight}`);
      return undefined;
    }
    case 'StableFreezeMint':
      return guardian ? undefined : r('NOT_STABLE_GUARDIAN', 'only a guardian may freeze minting');
    case 'StableUnfreezeMint':
    case 'StableSetGuardians':
    case 'StableConfigureSecurity':
      return owner ? undefined : r('NOT_STABLE_OWNER', 'only the owner role may do this');
    case 'StableApproveMint': {
      const p = pending(op.pendingId);
      if (!p || p.kind !== STD8_PENDING_MINT) return r('PENDING_NOT_FOUND', `no pending mint ${op.pendingId}`);
      const i = s.cosigners.findIndex((c) => eq(c, sender));
      if (i < 0) return r('NOT_COSIGNER', 'the sender is not an authorized cosigner');
      return p.approvals & (1 << i) ? r('STABLE_ALREADY_APPROVED', 'this cosigner already approved the pending mint') : undefined;
    }
    case 'StableRaiseSupplyCap':
      if (!eq(sender, GOVERNANCE)) return r('NOT_GOVERNANCE', 'only governance may raise a supply cap, never the owner');
      if (s.supplyCap === 0n || (op.supplyCap !== 0n && op.supplyCap <= s.supplyCap)) return r('SUPPLY_CAP_NOT_RAISED', 'the new cap must be above the current one (0 removes it)');
      return undefined;
    case 'StableVerifyIssuer':
      return eq(sender, GOVERNANCE) ? undefined : r('NOT_GOVERNANCE', 'only governance may verify an issuer');
    case 'StableIssuerProof': {
      if (!eq(sender, FOUNDATION) && !eq(sender, GOVERNANCE)) return r('NOT_FOUNDATION', 'only the foundation 0x00…03 (or governance 0x00…09) records an issuer-onboarding proof');
      const method = ['admin_signature', 'domain', 'documents'].indexOf(op.method);
      const done = stableOnboarding(state, op.token)?.proofs.some((p) => p.method === method) ?? false;
      return done ? r('PROOF_ALREADY_RECORDED', `the ${op.method} proof is already recorded for this token`) : undefined;
    }
    default:
      return undefined;
  }
}

/** The height a handover queued at `height` becomes executable (spec §3: at least 720 blocks). */
export function handoverDue(s: StableCoinFields, height: bigint): bigint {
  const min = BigInt(STD8_MIN_HANDOVER_DELAY);
  return height + (s.timelock < min ? min : s.timelock);
}
