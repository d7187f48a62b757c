import { Type } from '@sinclair/typebox';
import type { Operation } from '../../codec/operations.js';
import { ED25519_PUBLIC_KEY_BYTES, KEY_ROLE_NAMES, ML_DSA_65_PUBLIC_KEY_BYTES, MAX_GUARDIANS, RECOVERY_MAX_TIMELOCK } from '../../abi/constants.js';
import { APP_ERRORS, RpcError } from '../errors.js';
import { defineMethod, type MethodDefinition } from '../registry.js';
import { HexBytes, parsed } from '../schemas.js';
import type { MethodDependencies } from './context.js';
import { AccountList, AccountParam, invalidParamIn, positionIn } from './params.js';
import { ReceiptSchema } from './result-schemas.js';

const KEY_TYPES = ['Ed25519', 'ML-DSA-65'] as const;
const ROLES = KEY_ROLE_NAMES;
const KeyType = Type.Union(KEY_TYPES.map((k) => Type.Literal(k)), { description: 'Ed25519 (32-byte key) or ML-DSA-65 (1,952-byte key)' });
const Role = Type.Union(ROLES.map((k) => Type.Literal(k)), { description: 'owner: everything; operator: everything but key and recovery management (docs/accounts.md "Roles")' });
const KeyHash = () => parsed(Type.String({ pattern: '^(0x)?[0-9a-fA-F]{64}$', description: 'SHA256 of the public key, 64 hex digits (0x optional): the key_hash svc_getAccount lists' }), hex32);
const PublicKey = HexBytes({ maxBytes: ML_DSA_65_PUBLIC_KEY_BYTES, description: 'the public key as hex: 32 bytes (Ed25519) or 1,952 bytes (ML-DSA-65)' });

function hex32(value: string): Uint8Array {
  return new Uint8Array(Buffer.from(value.replace(/^0x/, ''), 'hex'));
}

function publicKeyParam(value: string, keyType: (typeof KEY_TYPES)[number], param: string, position: number): Uint8Array {
  const bytes = new Uint8Array(Buffer.from(value.replace(/^0x/, ''), 'hex'));
  const want = keyType === 'Ed25519' ? ED25519_PUBLIC_KEY_BYTES : ML_DSA_65_PUBLIC_KEY_BYTES;
  if (bytes.length !== want) throw RpcError.invalidParam(param, position, `a ${keyType} public key of ${want} bytes (${want * 2} hex digits)`, { got_bytes: bytes.length });
  return bytes;
}

/**
 * Account keys and guardian recovery (docs/accounts.md; the rules are the core's, assembly/ops/accounts.ts).
 * The key and recovery methods, which the spec does not name, follow svc_transfer's style with the
 * acting account last as `sender` (multi-sig accounts: src/domains/multisig/rpc.ts). Every write is an unsigned
 * convenience method (testnet only, spec §5.5); on mainnet the same operations go in a signed
 * bundle through svc_submitBundle (the client's wallet helpers build them).
 */
export function accountsMethods({ chain }: MethodDependencies): MethodDefinition[] {
  const writeErrors = [APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.BUNDLE_FAILED.code, APP_ERRORS.BUNDLE_INVALID.code];
  const submit = (sender: Uint8Array, op: Operation) => chain.submitOperations(sender, [op]);
  const addKeyParams = [
    { name: 'public_key', schema: PublicKey }, { name: 'key_type', schema: KeyType }, { name: 'role', schema: Role },
    { name: 'sender', schema: AccountParam({ description: 'the account that gets the key' }) },
  ] as const;
  const rotateKeyParams = [
    { name: 'old_key_hash', schema: KeyHash() }, { name: 'new_public_key', schema: PublicKey }, { name: 'new_key_type', schema: KeyType },
    { name: 'sender', schema: AccountParam() },
  ] as const;
  const setRecoveryParams = [
    { name: 'guardians', schema: AccountList(MAX_GUARDIANS) },
    { name: 'threshold', schema: Type.Integer({ minimum: 1, maximum: MAX_GUARDIANS, description: 'guardian approvals a recovery needs' }) },
    { name: 'timelock', schema: Type.Integer({ minimum: 1, maximum: Number(RECOVERY_MAX_TIMELOCK), description: 'seconds between initiation and finalization' }) },
    { name: 'sender', schema: AccountParam() },
  ] as const;
  const initiateRecoveryParams = [
    { name: 'account', schema: AccountParam({ description: 'the account to recover' }) }, { name: 'new_public_key', schema: PublicKey },
    { name: 'key_type', schema: KeyType }, { name: 'sender', schema: AccountParam({ description: 'a guardian of the account' }) },
  ] as const;
  return [
    defineMethod({
      name: 'svc_addKey',
      summary: 'Register another signing key for `sender` (AddKey; unsigned convenience, testnet only). docs/accounts.md.',
      description: 'Up to 8 keys per account; the key then signs bundles for the account as its role allows. A failed bundle is -32002 with data.status '
        + 'INVALID_KEY, INVALID_KEY_ROLE, KEY_EXISTS or TOO_MANY_KEYS.'
        + ' Errors: UNAVAILABLE_ON_NETWORK on mainnet (sign the operation and use svc_submitBundle; the wallet helper of the same name'
        + ' does), BUNDLE_FAILED with the reverted receipt and data.status naming the rule (docs/accounts.md "Statuses"), BUNDLE_INVALID'
        + ' when admission refuses the bundle.',
      params: addKeyParams,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt with `KeyAdded`; `key_type` `Ed25519`/`ML-DSA-65`, `role` `owner`/`operator`; at most 8 keys',
      },
      errors: writeErrors,
      handler: async ([publicKey, keyType, role, sender]) => {
        // The key's length depends on key_type, so it is checked here, at the position the registry counts.
        const pubkey = publicKeyParam(publicKey, keyType, 'public_key', positionIn(addKeyParams, 'public_key'));
        return submit(sender, { type: 'AddKey', pubkey, keyType: KEY_TYPES.indexOf(keyType), role: ROLES.indexOf(role) });
      },
    }),
    defineMethod({
      name: 'svc_removeKey',
      summary: 'Remove one of `sender`\'s keys by its hash (RemoveKey; unsigned convenience, testnet only). The account keeps at least one owner key.',
      description: 'A key is named by its hash as svc_getAccount lists it. Errors: UNAVAILABLE_ON_NETWORK on mainnet (sign the operation and use'
        + ' svc_submitBundle; the wallet helper of the same name does), BUNDLE_FAILED with the reverted receipt and data.status naming the'
        + ' rule (docs/accounts.md "Statuses"), BUNDLE_INVALID when admission refuses the bundle.',
      params: [{ name: 'key_hash', schema: KeyHash() }, { name: 'sender', schema: AccountParam() }] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt with `KeyRemoved`; the account keeps an owner key (`LAST_OWNER_KEY`)',
      },
      errors: writeErrors,
      handler: async ([pubkeyHash, sender]) => submit(sender, { type: 'RemoveKey', pubkeyHash }),
    }),
    defineMethod({
      name: 'svc_rotateKey',
      summary: 'Replace one of `sender`\'s keys by a new one in one step, keeping its role (RotateKey; unsigned convenience, testnet only).',
      description: 'The new key takes the old one\'s role; bundles signed by the old key are refused from the next block. Errors:'
        + ' UNAVAILABLE_ON_NETWORK on mainnet (sign the operation and use svc_submitBundle; the wallet helper of the same name does),'
        + ' BUNDLE_FAILED with the reverted receipt and data.status naming the rule (docs/accounts.md "Statuses"), BUNDLE_INVALID when'
        + ' admission refuses the bundle.',
      params: rotateKeyParams,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt with `KeyRemoved`, `KeyAdded`: one atomic swap keeping the role',
      },
      errors: writeErrors,
      handler: async ([oldPubkeyHash, newKey, keyType, sender]) => {
        const newPubkey = publicKeyParam(newKey, keyType, 'new_public_key', positionIn(rotateKeyParams, 'new_public_key'));
        return submit(sender, { type: 'RotateKey', oldPubkeyHash, newPubkey, newKeyType: KEY_TYPES.indexOf(keyType) });
      },
    }),
    defineMethod({
      name: 'svc_setRecovery',
      summary: 'Name `sender`\'s guardians, how many must approve a recovery and its timelock (SetRecovery; unsigned convenience, testnet only).',
      description: `1 to ${MAX_GUARDIANS} guardians other than the account; the timelock is 24 hours to 30 days on mainnet (10 s to 30 days on a testnet), 48–72 hours recommended. `
        + 'Replaces an earlier configuration; refused while a recovery is pending (RECOVERY_PENDING). docs/accounts.md "Recovery".'
        + ' Errors: UNAVAILABLE_ON_NETWORK on mainnet (sign the operation and use svc_submitBundle; the wallet helper of the same name'
        + ' does), BUNDLE_FAILED with the reverted receipt and data.status naming the rule (docs/accounts.md "Statuses"), BUNDLE_INVALID'
        + ' when admission refuses the bundle.',
      params: setRecoveryParams,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt with `RecoverySet`; 1–10 guardians, timelock 24 h–30 days (10 s on testnet)',
      },
      errors: writeErrors,
      handler: async ([list, threshold, timelock, sender]) => {
        if (threshold > list.length) throw invalidParamIn(setRecoveryParams, 'threshold', `1 to the number of guardians (${list.length})`, { got: threshold });
        return submit(sender, { type: 'SetRecovery', guardians: list, threshold, timelock: BigInt(timelock) });
      },
    }),
    defineMethod({
      name: 'svc_initiateRecovery',
      summary: 'As a guardian (`sender`), start the recovery of `account` to a new key, approving it (InitiateRecovery; unsigned convenience, testnet only).',
      description: 'Records the initiating guardian\'s approval; the timelock runs from this block. Errors: UNAVAILABLE_ON_NETWORK on mainnet (sign'
        + ' the operation and use svc_submitBundle; the wallet helper of the same name does), BUNDLE_FAILED with the reverted receipt and'
        + ' data.status naming the rule (docs/accounts.md "Statuses"), BUNDLE_INVALID when admission refuses the bundle.',
      params: initiateRecoveryParams,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt with `RecoveryInitiated` (`executable_at`); sender is a guardian',
      },
      errors: writeErrors,
      handler: async ([account, newKey, keyType, sender]) => {
        const newPubkey = publicKeyParam(newKey, keyType, 'new_public_key', positionIn(initiateRecoveryParams, 'new_public_key'));
        return submit(sender, { type: 'InitiateRecovery', account, newPubkey, keyType: KEY_TYPES.indexOf(keyType) });
      },
    }),
    defineMethod({
      name: 'svc_approveRecovery',
      summary: 'As a further guardian (`sender`), approve the pending recovery of `account` to the key with hash `new_key_hash` (ApproveRecovery; testnet only).',
      description: 'The hash guards against approving another key than the one pending. Errors: UNAVAILABLE_ON_NETWORK on mainnet (sign the operation'
        + ' and use svc_submitBundle; the wallet helper of the same name does), BUNDLE_FAILED with the reverted receipt and data.status'
        + ' naming the rule (docs/accounts.md "Statuses"), BUNDLE_INVALID when admission refuses the bundle.',
      params: [
        { name: 'account', schema: AccountParam() }, { name: 'new_key_hash', schema: KeyHash() },
        { name: 'sender', schema: AccountParam({ description: 'a guardian of the account' }) },
      ] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt with `RecoveryApproved`',
      },
      errors: writeErrors,
      handler: async ([account, newKeyHash, sender]) => submit(sender, { type: 'ApproveRecovery', account, newKeyHash }),
    }),
    defineMethod({
      name: 'svc_cancelRecovery',
      summary: 'As the owner, cancel the pending recovery of `sender` during its timelock (CancelRecovery; unsigned convenience, testnet only).',
      description: 'Only during the timelock (RECOVERY_TIMELOCK_ELAPSED after it). Errors: UNAVAILABLE_ON_NETWORK on mainnet (sign the operation and'
        + ' use svc_submitBundle; the wallet helper of the same name does), BUNDLE_FAILED with the reverted receipt and data.status naming'
        + ' the rule (docs/accounts.md "Statuses"), BUNDLE_INVALID when admission refuses the bundle.',
      params: [{ name: 'sender', schema: AccountParam({ description: 'the account being recovered' }) }] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt with `RecoveryCancelled`; during the timelock only',
      },
      errors: writeErrors,
      handler: async ([sender]) => submit(sender, { type: 'CancelRecovery' }),
    }),
    defineMethod({
      name: 'svc_finalizeRecovery',
      summary: 'Once the timelock has elapsed and enough guardians approved, replace every key of `account` by the recovery key (FinalizeRecovery; anyone may send it).',
      description: 'RECOVERY_TIMELOCK_ACTIVE before the timelock has elapsed, RECOVERY_THRESHOLD_NOT_MET with too few approvals. Errors:'
        + ' UNAVAILABLE_ON_NETWORK on mainnet (sign the operation and use svc_submitBundle; the wallet helper of the same name does),'
        + ' BUNDLE_FAILED with the reverted receipt and data.status naming the rule (docs/accounts.md "Statuses"), BUNDLE_INVALID when'
        + ' admission refuses the bundle.',
      params: [{ name: 'account', schema: AccountParam() }, { name: 'sender', schema: AccountParam({ description: 'any account (pays the fee)' }) }] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt with `RecoveryFinalized`: every key replaced by the recovery key',
      },
      errors: writeErrors,
      handler: async ([account, sender]) => submit(sender, { type: 'FinalizeRecovery', account }),
    }),
  ];
}

/** svc_getAccount's `keys` and `recovery` (docs/accounts.md "Reading an account"). */
export function keyJson(k: { keyHash: Uint8Array; keyType: number; role: number; addedHeight: bigint; addedAt: bigint }) {
  return {
    key_hash: Buffer.from(k.keyHash).toString('hex'), key_type: KEY_TYPES[k.keyType] ?? String(k.keyType), role: k.role,
    role_name: ROLES[k.role] ?? String(k.role), added_height: Number(k.addedHeight), added_at: Number(k.addedAt),
  };
}

