import { Type } from '@sinclair/typebox';
import { encodeAccount, encodeMultiSig } from '../../codec/address.js';
import { listMultiSigTxs, readMultiSig, type MultiSigTxInfo } from '../../chain/accounts.js';
import { OperationJsonError, operationsFromJson, operationsToJson } from '../../chain/operation-json.js';
import { statusOf } from '../../chain/status.js';
import { NOT_NESTED, type Operation } from '../../codec/operations.js';
import { ED25519_PUBLIC_KEY_BYTES, KEY_ROLE_NAMES, ML_DSA_65_PUBLIC_KEY_BYTES, MAX_GUARDIANS, MAX_MULTISIG_SIGNERS, RECOVERY_MAX_TIMELOCK } from '../../abi/constants.js';
import { APP_ERRORS, RpcError } from '../errors.js';
import { defineMethod, type MethodDefinition } from '../registry.js';
import { Address, HexBytes, parsed } from '../schemas.js';
import type { MethodDependencies } from './context.js';
import { AccountParam, accountParam, invalidParamIn, positionIn } from './params.js';
import { ReceiptSchema } from './result-schemas.js';

const KEY_TYPES = ['Ed25519', 'ML-DSA-65'] as const;
const ROLES = KEY_ROLE_NAMES;
const KeyType = Type.Union(KEY_TYPES.map((k) => Type.Literal(k)), { description: 'Ed25519 (32-byte key) or ML-DSA-65 (1,952-byte key)' });
const Role = Type.Union(ROLES.map((k) => Type.Literal(k)), { description: 'owner: everything; operator: everything but key and recovery management (docs/accounts.md "Roles")' });
const KeyHash = () => parsed(Type.String({ pattern: '^(0x)?[0-9a-fA-F]{64}$', description: 'SHA256 of the public key, 64 hex digits (0x optional): the key_hash svc_getAccount lists' }), hex32);
const PublicKey = HexBytes({ maxBytes: ML_DSA_65_PUBLIC_KEY_BYTES, description: 'the public key as hex: 32 bytes (Ed25519) or 1,952 bytes (ML-DSA-65)' });
const TxId = Type.String({ pattern: '^[0-9]{1,20}$', description: 'the proposal id, decimal (0, 1, … per multi-sig)' });

const MultiSigTxSchema = Type.Object({
  tx_id: Type.String(), state: Type.Union([Type.Literal('pending'), Type.Literal('executed'), Type.Literal('failed'), Type.Literal('expired')]),
  proposer: Type.String(), description: Type.String(),
  operations: Type.Array(Type.Object({ type: Type.String() }, { additionalProperties: true }), { description: 'the held operations, as operations_json takes them' }),
  approvals: Type.Array(Type.String()), created_height: Type.Integer(), created_at: Type.Integer(), expires_at: Type.Integer(),
  executed_height: Type.Union([Type.Integer(), Type.Null()]), status_code: Type.Union([Type.Integer(), Type.Null()]), status_name: Type.Union([Type.String(), Type.Null()]),
}, { additionalProperties: false });

function hex32(value: string): Uint8Array {
  return new Uint8Array(Buffer.from(value.replace(/^0x/, ''), 'hex'));
}

function publicKeyParam(value: string, keyType: (typeof KEY_TYPES)[number], param: string, position: number): Uint8Array {
  const bytes = new Uint8Array(Buffer.from(value.replace(/^0x/, ''), 'hex'));
  const want = keyType === 'Ed25519' ? ED25519_PUBLIC_KEY_BYTES : ML_DSA_65_PUBLIC_KEY_BYTES;
  if (bytes.length !== want) throw RpcError.invalidParam(param, position, `a ${keyType} public key of ${want} bytes (${want * 2} hex digits)`, { got_bytes: bytes.length });
  return bytes;
}

function accountList(values: string[], param: string, position: number, max: number): Uint8Array[] {
  if (values.length === 0 || values.length > max) throw RpcError.invalidParam(param, position, `1 to ${max} addresses`, { got: values.length });
  const out = values.map((v, i) => accountParam(v, `${param}[${i}]`, position));
  if (new Set(out.map((a) => Buffer.from(a).toString('hex'))).size !== out.length) throw RpcError.invalidParam(param, position, 'distinct addresses (one is listed twice)');
  return out;
}

/** 1 to `max` distinct addresses (params parsed once, issue 44 item 4). */
const AccountList = (max: number) => parsed(Type.Array(Address(), { minItems: 1, maxItems: max }), (values, param, position) => accountList(values, param, position, max));

/**
 * Account keys, guardian recovery and multi-sig accounts (docs/accounts.md; the rules are the
 * core's, assembly/ops/accounts.ts and multisig.ts). The multi-sig methods take the params spec §4.14
 * names (`from` first); the key and recovery methods, which the spec does not name, follow
 * svc_transfer's style with the acting account last as `sender`. Every write is an unsigned
 * convenience method (testnet only, spec §5.5); on mainnet the same operations go in a signed
 * bundle through svc_submitBundle (the client's wallet helpers build them).
 */
export function accountsMethods({ chain, readers }: MethodDependencies): MethodDefinition[] {
  const writeErrors = [APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.BUNDLE_FAILED.code, APP_ERRORS.BUNDLE_INVALID.code];
  const submit = (sender: Uint8Array, op: Operation) => chain.submitOperations(sender, [op]);
  const multisigParam = (value: string, param: string, position: number): Uint8Array => {
    const ms = accountParam(value, param, position);
    if (!readMultiSig(chain.state, ms)) throw RpcError.app('NOT_FOUND', `no multi-sig account at ${value}`, { multisig_address: value });
    return ms;
  };
  /** A multi-sig account; one that does not exist is NOT_FOUND. */
  const MultiSig = () => parsed(Address(), multisigParam);
  /** operations_json: 1 to 16 operations a multi-sig may run. */
  const operationsParam = (json: string, param: string, position: number): Operation[] => {
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch (error) {
      throw RpcError.invalidParam(param, position, 'a JSON array of operations', { reason: (error as Error).message });
    }
    let operations: Operation[];
    try {
      operations = operationsFromJson(value, (t) => readers.tokens.resolve(t)?.mint);
    } catch (error) {
      if (error instanceof OperationJsonError) throw RpcError.invalidParam(param, position, 'a JSON array of 1 to 16 operations (docs/accounts.md "Operations as JSON")', { reason: error.message });
      throw error;
    }
    if (operations.length === 0 || operations.length > 16) throw RpcError.invalidParam(param, position, '1 to 16 operations', { got: operations.length });
    const held = operations.find((o) => NOT_NESTED.has(o.type));
    if (held) throw RpcError.invalidParam(param, position, `operations a multi-sig may run: ${held.type} cannot be inside a proposal (docs/accounts.md "Multi-sig")`);
    return operations;
  };
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
  const createMultiSigParams = [
    { name: 'from', schema: AccountParam({ description: 'the creating account (it need not be a signer)' }) },
    { name: 'signers_array', schema: AccountList(MAX_MULTISIG_SIGNERS) },
    { name: 'threshold', schema: Type.Integer({ minimum: 1, maximum: MAX_MULTISIG_SIGNERS }) },
    { name: 'label', schema: Type.String({ maxLength: 64, description: 'a name for wallets, at most 64 bytes' }) },
  ] as const;
  const txJson = (t: MultiSigTxInfo, now: number) => ({
    tx_id: t.txId.toString(),
    state: t.state === 1 ? 'executed' as const : t.state === 2 ? 'failed' as const : BigInt(now) > t.expiresAt ? 'expired' as const : 'pending' as const,
    proposer: encodeAccount(t.proposer), description: t.description,
    operations: operationsToJson(t.operations) as Array<{ type: string }>,
    approvals: t.approvals.map(encodeAccount), created_height: Number(t.createdHeight), created_at: Number(t.createdAt), expires_at: Number(t.expiresAt),
    executed_height: t.state === 0 ? null : Number(t.executedHeight), status_code: t.state === 0 ? null : t.status, status_name: t.state === 0 ? null : statusOf(t.status).name,
  });
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
    defineMethod({
      name: 'svc_createMultiSig',
      summary: 'Create a multi-sig account (Nx5…) of `signers_array` needing `threshold` approvals (spec §4.14; unsigned convenience, testnet only).',
      description: 'The receipt\'s created.multisig is the new address; fund it with ordinary transfers. docs/accounts.md "Multi-sig".'
        + ' Errors: UNAVAILABLE_ON_NETWORK on mainnet (sign the operation and use svc_submitBundle; the wallet helper of the same name'
        + ' does), BUNDLE_FAILED with the reverted receipt and data.status naming the rule (docs/accounts.md "Statuses"), BUNDLE_INVALID'
        + ' when admission refuses the bundle.',
      params: createMultiSigParams,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt; `created.multisig` is the `Nx5…` address',
      },
      errors: writeErrors,
      handler: async ([from, list, threshold, label]) => {
        if (threshold > list.length) throw invalidParamIn(createMultiSigParams, 'threshold', `1 to the number of signers (${list.length})`, { got: threshold });
        return submit(from, { type: 'CreateMultiSig', signers: list, threshold, label });
      },
    }),
    defineMethod({
      name: 'svc_proposeMultiSigTx',
      summary: 'As a signer, propose operations for a multi-sig to run as itself once approved; the proposal counts as the first approval (spec §4.14; testnet only).',
      description: 'operations_json is a JSON array of operations (docs/accounts.md "Operations as JSON"), e.g. [{"type":"Transfer","to":"Nx0…","token":"NTV","amount":"1000"}]; '
        + 'the proposer prepays their gas. The receipt\'s MultiSigTxUpdated event carries the tx_id; a proposal expires 7 days after it was made.'
        + ' A bad operations_json is -32602 naming the operation and field; an unknown multi-sig NOT_FOUND. Errors: UNAVAILABLE_ON_NETWORK'
        + ' on mainnet (sign the operation and use svc_submitBundle; the wallet helper of the same name does), BUNDLE_FAILED with the'
        + ' reverted receipt and data.status naming the rule (docs/accounts.md "Statuses"), BUNDLE_INVALID when admission refuses the bundle.',
      params: [
        { name: 'from', schema: AccountParam({ description: 'a signer of the multi-sig' }) }, { name: 'multisig_address', schema: MultiSig() },
        { name: 'operations_json', schema: parsed(Type.String({ minLength: 2, maxLength: 65_536, description: 'JSON array of 1–16 operations' }), operationsParam) },
        { name: 'description', schema: Type.String({ maxLength: 256 }) },
      ] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt with `MultiSigTxUpdated` (`tx_id`); `operations_json` as in [accounts.md](accounts.md) "Operations as JSON"',
      },
      errors: [...writeErrors, APP_ERRORS.NOT_FOUND.code],
      handler: async ([sender, multisig, operations, description]) => submit(sender, { type: 'ProposeMultiSigTx', multisig, operations, description }),
    }),
    defineMethod({
      name: 'svc_approveMultiSigTx',
      summary: 'As a signer, approve a multi-sig proposal; the approval that reaches the threshold runs its operations as the multi-sig, all or nothing (spec §4.14; testnet only).',
      description: 'The receipt then carries MultiSigTxExecuted with the execution\'s status (OK, or the failing operation\'s status: the operations were reverted). docs/accounts.md.'
        + ' MULTISIG_TX_EXPIRED after 7 days, ALREADY_APPROVED, NOT_MULTISIG_SIGNER, MULTISIG_TX_NOT_PENDING once executed or failed.'
        + ' Errors: UNAVAILABLE_ON_NETWORK on mainnet (sign the operation and use svc_submitBundle; the wallet helper of the same name'
        + ' does), BUNDLE_FAILED with the reverted receipt and data.status naming the rule (docs/accounts.md "Statuses"), BUNDLE_INVALID'
        + ' when admission refuses the bundle.',
      params: [{ name: 'from', schema: AccountParam() }, { name: 'multisig_address', schema: MultiSig() }, { name: 'tx_id', schema: TxId }] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt; at the threshold also the operations\' events and `MultiSigTxExecuted` (status)',
      },
      errors: [...writeErrors, APP_ERRORS.NOT_FOUND.code],
      handler: async ([from, multisig, txId]) => submit(from, { type: 'ApproveMultiSigTx', multisig, txId: BigInt(txId) }),
    }),
    defineMethod({
      name: 'svc_revokeMultiSigApproval',
      summary: 'As a signer, withdraw an approval from a pending multi-sig proposal (spec §4.14; testnet only).',
      description: 'NOT_APPROVED without an approval to withdraw. Errors: UNAVAILABLE_ON_NETWORK on mainnet (sign the operation and use'
        + ' svc_submitBundle; the wallet helper of the same name does), BUNDLE_FAILED with the reverted receipt and data.status naming the'
        + ' rule (docs/accounts.md "Statuses"), BUNDLE_INVALID when admission refuses the bundle.',
      params: [{ name: 'from', schema: AccountParam() }, { name: 'multisig_address', schema: MultiSig() }, { name: 'tx_id', schema: TxId }] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt with `MultiSigTxUpdated` (`revoked`)',
      },
      errors: [...writeErrors, APP_ERRORS.NOT_FOUND.code],
      handler: async ([from, multisig, txId]) => submit(from, { type: 'RevokeMultiSigApproval', multisig, txId: BigInt(txId) }),
    }),
    defineMethod({
      name: 'svc_getMultiSig',
      summary: 'A multi-sig account: signers, threshold, label, creator, its NTV balance and how many proposals it has had (spec §4.14).',
      description: 'NOT_FOUND when no multi-sig has this address. docs/accounts.md "Multi-sig".',
      params: [{ name: 'address', schema: MultiSig() }] as const,
      result: {
        description: '`{address, label, signers, threshold, creator, created_height, created_at, proposals, balance}`; -32003 when none',
        name: 'multisig',
        schema: Type.Object({
          address: Type.String(), label: Type.String(), signers: Type.Array(Type.String()), threshold: Type.Integer(), creator: Type.String(),
          created_height: Type.Integer(), created_at: Type.Integer(), proposals: Type.Integer(), balance: Type.String({ description: 'NTV, raw units' }),
        }, { additionalProperties: false }),
      },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: ([ms]) => {
        const m = readMultiSig(chain.state, ms)!;
        return {
          address: encodeMultiSig(ms), label: m.label, signers: m.signers.map(encodeAccount), threshold: m.threshold, creator: encodeAccount(m.creator),
          created_height: Number(m.createdHeight), created_at: Number(m.createdAt), proposals: Number(m.nextTxId), balance: chain.balance(ms, new Uint8Array(32)).toString(),
        };
      },
    }),
    defineMethod({
      name: 'svc_listMultiSigTxs',
      summary: 'A multi-sig\'s proposals, newest first (at most 100): state, approvals, operations as JSON and the execution\'s status (spec §4.14).',
      description: 'state is pending, executed, failed (its operations reverted; status_name says why) or expired. NOT_FOUND when no multi-sig has'
        + ' this address.',
      params: [{ name: 'address', schema: MultiSig() }] as const,
      result: {
        name: 'proposals', schema: Type.Array(MultiSigTxSchema),
        description: 'proposals newest first: `{tx_id, state, proposer, description, operations, approvals, created_height, created_at, expires_at,'
          + ' executed_height, status_code, status_name}`',
      },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: ([ms]) => {
        const now = Math.floor(Date.now() / 1000);
        return listMultiSigTxs(chain.state, ms).map((t) => txJson(t, now));
      },
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

