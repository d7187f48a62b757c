import { Type } from '@sinclair/typebox';
import { encodeAccount, encodeMultiSig } from '../../codec/address.js';
import { listMultiSigTxs, readMultiSig, type MultiSigTxInfo } from './reader.js';
import { OperationJsonError, operationsFromJson, operationsToJson } from '../../chain/operation-json.js';
import { statusOf } from '../../chain/status.js';
import { NOT_NESTED, type Operation } from '../../codec/operations.js';
import { MAX_MULTISIG_SIGNERS } from '../../abi/constants.js';
import { APP_ERRORS, RpcError } from '../../rpc/errors.js';
import { defineMethod, type MethodDefinition } from '../../rpc/registry.js';
import { Address, parsed } from '../../rpc/schemas.js';
import type { MethodDependencies } from '../../rpc/methods/context.js';
import { AccountList, AccountParam, accountParam, invalidParamIn } from '../../rpc/methods/params.js';
import { ReceiptSchema } from '../../rpc/methods/result-schemas.js';

const TxId = Type.String({ pattern: '^[0-9]{1,20}$', description: 'the proposal id, decimal (0, 1, … per multi-sig)' });

const MultiSigTxSchema = Type.Object({
  tx_id: Type.String(), state: Type.Union([Type.Literal('pending'), Type.Literal('executed'), Type.Literal('failed'), Type.Literal('expired')]),
  proposer: Type.String(), description: Type.String(),
  operations: Type.Array(Type.Object({ type: Type.String() }, { additionalProperties: true }), { description: 'the held operations, as operations_json takes them' }),
  approvals: Type.Array(Type.String()), created_height: Type.Integer(), created_at: Type.Integer(), expires_at: Type.Integer(),
  executed_height: Type.Union([Type.Integer(), Type.Null()]), status_code: Type.Union([Type.Integer(), Type.Null()]), status_name: Type.Union([Type.String(), Type.Null()]),
}, { additionalProperties: false });

/**
 * Multi-sig accounts (spec §4.14, docs/multisig.md; the rules are the core's,
 * assembly/domains/multisig/ops.ts). The methods take the params spec §4.14 names (`from` first).
 * Every write is an unsigned convenience method (testnet only, spec §5.5); on mainnet the same
 * operations go in a signed bundle through svc_submitBundle (src/domains/multisig/client.ts builds them).
 */
export function multisigMethods({ chain, readers }: MethodDependencies): MethodDefinition[] {
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
