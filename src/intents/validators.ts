import { AddressError, encodeAccount, parseAddressDetailed } from '../codec/address.js';
import { canonicalName, nameProblem, NAME_SUFFIX } from '../domains/names/reader.js';
import type { ValidatorRecord } from '../chain/validator-set.js';
import type { ValidatorRef } from './goals.js';
import { PlanError } from './plan-error.js';

/**
 * Which validator a Stake or Allocate intent delegates to (docs/intents.md "Stake and allocate").
 * The intent engine never sends a Stake operation: Stake{validator_pubkey} registers the SENDER as
 * a validator with that consensus key (docs/staking.md "Operations"), so an intent naming someone
 * else's validator would make the sender a validator nobody can sign for. Every stake intent is a
 * Delegate{validator, amount} to a registered validator's staking account; to the sender's own
 * validator that is self stake, as the core rules.
 */

/** docs/staking.md "Limits": delegations per account (assembly/domains/staking/ops.ts MAX_DELEGATIONS). */
export const MAX_DELEGATIONS = 32;

/** The planner's view of committed staking state (src/chain/validator-set.ts readers). */
export interface StakingSource {
  validator(account: Uint8Array): ValidatorRecord | undefined;
  /** the staking account whose current consensus key this is */
  accountOfKey(consensusKey: Uint8Array): Uint8Array | undefined;
  /** every registered validator */
  validators(): ValidatorRecord[];
  /** the delegation's amount, 0 when there is none */
  delegated(validator: Uint8Array, delegator: Uint8Array): bigint;
  /** the validators the account delegates to (its own included) */
  delegatedTo(delegator: Uint8Array): Uint8Array[];
}

/** A validator as an intent names it: Nx0…/0x/64-hex bytes (account or consensus key alike), else a name. */
export function validatorRef(text: string): ValidatorRef {
  if (/^[0-9a-fA-F]{64}$/.test(text)) return { kind: 'bytes', bytes: new Uint8Array(Buffer.from(text, 'hex')), text };
  if (/^(Nx|0x)/i.test(text)) {
    const parsed = parseAddressDetailed(text);
    if (parsed.kind === 'account' || parsed.kind === 'hex32') return { kind: 'bytes', bytes: parsed.bytes, text };
    throw new AddressError('BAD_PREFIX', `a validator is an Nx0… address, a 64-hex consensus key or a name, not ${parsed.kind === 'evm' ? 'a 20-byte EVM address' : 'a token mint'}`, text);
  }
  const label = canonicalName(text);
  if (!label) throw new AddressError('BAD_PREFIX', `not a validator address, consensus key or name: ${nameProblem(text)}`, text);
  return { kind: 'name', name: label + NAME_SUFFIX, text };
}

/**
 * The validator a reference names. Bytes are tried as a staking account, then as a consensus key
 * (a wallet shows either); a name as a `.vex` name whose owner is a validator, then as a
 * validator's own metadata name (SetValidatorMetadata), which must be unique.
 */
export function resolveValidator(ref: ValidatorRef, staking: StakingSource, resolveName: (name: string) => Uint8Array | undefined): ValidatorRecord {
  if (ref.kind === 'bytes') {
    const direct = staking.validator(ref.bytes);
    if (direct) return direct;
    const account = staking.accountOfKey(ref.bytes);
    const byKey = account && staking.validator(account);
    if (byKey) return byKey;
    throw new PlanError('NOT_FOUND', `${ref.text} is neither a validator's staking account nor a validator's consensus key`, { validator: ref.text });
  }
  const owner = resolveName(ref.name);
  const byName = owner && staking.validator(owner);
  if (byName) return byName;
  const wanted = ref.text.toLowerCase();
  const byMetadata = staking.validators().filter((v) => v.name !== '' && v.name.toLowerCase() === wanted);
  if (byMetadata.length === 1) return byMetadata[0]!;
  if (byMetadata.length > 1) {
    throw new PlanError('INTENT_REJECTED', `${byMetadata.length} validators are named "${ref.text}"; name one by its address`, {
      validator: ref.text, candidates: byMetadata.map((v) => encodeAccount(v.address)),
    });
  }
  const why = owner ? `${ref.name} belongs to ${encodeAccount(owner)}, which is not a validator` : `no validator is named ${ref.name} or "${ref.text}"`;
  throw new PlanError('NOT_FOUND', why, { validator: ref.text });
}

/**
 * The documented default (docs/intents.md "Stake and allocate"), when an intent names no validator:
 * the sender's own validator if it is one (the stake adds to its self stake); otherwise, among
 * validators in the active set and not jailed that would accept the delegation, the lowest
 * commission, then the least total stake (spreading stake over the set), then the staking
 * account's bytes. Deterministic over committed state, so preview and submission agree.
 */
export function chooseValidator(staking: StakingSource, delegator: Uint8Array, amount: bigint, planned: ReadonlyMap<string, bigint>): ValidatorRecord {
  const own = staking.validator(delegator);
  if (own) return own;
  const candidates = staking.validators()
    .filter((v) => v.active && !v.jailed && !delegationProblem(v, delegator, amount, staking, planned))
    .sort((a, b) => a.commissionBps - b.commissionBps || (a.stake < b.stake ? -1 : a.stake > b.stake ? 1 : 0) || Buffer.compare(a.address, b.address));
  const chosen = candidates[0];
  if (!chosen) throw new PlanError('NOT_FOUND', 'no active validator accepts this delegation; name one: stake <amount> NTV with validator <address or name>');
  return chosen;
}

/**
 * Why the core would refuse Delegate{v, amount} from `delegator` (assembly/domains/staking/ops.ts delegate),
 * counting what earlier steps of the same plan delegate (`planned`, by validator account hex); the
 * balance is the planner's own check.
 */
export function delegationProblem(
  v: ValidatorRecord, delegator: Uint8Array, amount: bigint, staking: StakingSource, planned: ReadonlyMap<string, bigint>,
): PlanError | undefined {
  const key = Buffer.from(v.address).toString('hex');
  const current = staking.delegated(v.address, delegator) + (planned.get(key) ?? 0n);
  const own = Buffer.compare(v.address, delegator) === 0;
  if (!own && v.poolEnabled && current + amount < v.minDelegation) {
    return new PlanError('INTENT_REJECTED', `validator ${validatorLabel(v)} takes delegations of at least ${v.minDelegation} raw NTV (its pool's min_delegation); this one would total ${current + amount}`, {
      status: 'DELEGATION_BELOW_MINIMUM', validator: encodeAccount(v.address), min_delegation: v.minDelegation.toString(),
    });
  }
  if (current === 0n) {
    const existing = new Set(staking.delegatedTo(delegator).map((a) => Buffer.from(a).toString('hex')));
    for (const k of planned.keys()) existing.add(k);
    if (!existing.has(key) && existing.size >= MAX_DELEGATIONS) {
      return new PlanError('INTENT_REJECTED', `the sender already delegates to ${MAX_DELEGATIONS} validators, the most an account may (docs/staking.md "Limits"); add to one of them instead`, {
        status: 'TOO_MANY_ENTRIES', validator: encodeAccount(v.address),
      });
    }
  }
  return undefined;
}

/** `Nx0… ("name")`: what a preview shows of a validator. */
export function validatorLabel(v: ValidatorRecord): string {
  return v.name ? `${encodeAccount(v.address)} ("${v.name}")` : encodeAccount(v.address);
}
