import { Type, type Static } from '@sinclair/typebox';
import { decodeCollectionText, encodeAccount, encodeCollection } from '../../codec/address.js';
import { BorshReader, CodecError } from '../../codec/borsh.js';
import { readNested, type Operation, type ProposalAction } from '../../codec/operations.js';
import { MAX_PROPOSAL_OPS, MAX_PROPOSAL_TITLE, MAX_PROPOSAL_DESCRIPTION, MAX_SAFETY_TEXT } from '../../abi/constants.js';
import { PARAMETER_KEYS, type ParameterKey } from '../../core/events.js';
import {
  lookupProposal, listProposals, PROPOSAL_STATUSES, PROPOSAL_TYPES, SAFETY_LEVELS, type ProposalRecord, type ProposalType,
} from './reader.js';
import { APP_ERRORS, RpcError } from '../../rpc/errors.js';
import { defineMethod, type MethodDefinition } from '../../rpc/registry.js';
import { HexBytes, parsed } from '../../rpc/schemas.js';
import type { MethodDependencies } from '../../rpc/methods/context.js';
import { AccountParam, AmountParam, invalidParamIn, ProposalIdParam } from '../../rpc/methods/params.js';
import { ReceiptSchema } from '../../rpc/methods/result-schemas.js';
import { operationJson } from '../../rpc/methods/format.js';
import type { MethodParam } from '../../rpc/method.js';

/**
 * Spec §4.14 protocol proposals (docs/governance.md). Each write is one operation (bundle-format
 * disc. 18–21) that the core checks; these are their unsigned convenience forms (testnet only, the
 * chain refuses them on mainnet with -32004), and on mainnet the same operations arrive signed
 * through svc_submitBundle. Reads come from committed state through src/domains/governance/reader.ts.
 */

const TYPES = Object.values(PROPOSAL_TYPES) as ProposalType[];
const Str = (description: string) => Type.String({ description });
const Int = (description: string) => Type.Integer({ description });

const ProposalSchema = Type.Object({
  proposal_id: Str('the proposal id, decimal (ids run 1, 2, …)'),
  proposer: Str('Nx0… account that created it'),
  proposal_type: Str(`one of ${TYPES.join(', ')}`),
  status: Str(`one of ${PROPOSAL_STATUSES.join(', ')}: passed and rejected once the voting period is over, by quorum and threshold`),
  title: Str('title'),
  description: Str('description'),
  created_height: Int('height of the block that created it'),
  created_at: Int('unix seconds of that block'),
  end_height: Int('the last height at which votes count; executable from end_height + 1'),
  quorum_bps: Int('votes cast must reach this share of total_stake, basis points'),
  threshold_bps: Int('yes must exceed this share of the votes cast, basis points'),
  total_stake: Str('bonded stake when it was created, raw NTV (the quorum base)'),
  yes: Str('stake that voted yes, raw NTV'),
  no: Str('stake that voted no, raw NTV'),
  voters: Int('accounts that voted'),
  executed_height: Type.Union([Type.Integer(), Type.Null()], { description: 'height at which it was executed; null until then' }),
  parameter_key: Type.Optional(Str('parameter_change: the chain parameter')),
  parameter_value: Type.Optional(Str('parameter_change: the new value, decimal')),
  treasury_recipient: Type.Optional(Str('treasury_spend: Nx0… recipient')),
  treasury_amount: Type.Optional(Str('treasury_spend: raw NTV from the foundation treasury 0x00…03')),
  safety_chain: Type.Optional(Str('contract_safety: origin chain')),
  safety_contract: Type.Optional(Str('contract_safety: contract address on that chain')),
  safety_collection: Type.Optional(Str('collection_safety: Nx2… collection')),
  safety_level: Type.Optional(Str(`contract_safety and collection_safety: ${SAFETY_LEVELS.join(', ')}`)),
  operations: Type.Optional(Type.Array(Type.Object({ type: Str('operation name') }, { additionalProperties: true }), { description: 'the operations a passed proposal runs as GOVERNANCE 0x00…09' })),
}, { title: 'Proposal', additionalProperties: false });


export function proposalJson(p: ProposalRecord): Static<typeof ProposalSchema> {
  const a = p.action;
  const extra: Partial<Static<typeof ProposalSchema>> = {};
  if (a.kind === 'ParameterChange') Object.assign(extra, { parameter_key: a.key, parameter_value: a.value.toString() });
  else if (a.kind === 'TreasurySpend') Object.assign(extra, { treasury_recipient: encodeAccount(a.recipient), treasury_amount: a.amount.toString() });
  else if (a.kind === 'ContractSafety') Object.assign(extra, { safety_chain: a.chain, safety_contract: a.contract, safety_level: SAFETY_LEVELS[a.level] ?? String(a.level) });
  else if (a.kind === 'CollectionSafety') Object.assign(extra, { safety_collection: encodeCollection(a.collection), safety_level: SAFETY_LEVELS[a.level] ?? String(a.level) });
  else if (a.kind !== 'Text') extra.operations = a.operations.map(operationJson);
  return {
    proposal_id: p.id.toString(), proposer: encodeAccount(p.proposer), proposal_type: p.type, status: p.status, title: p.title, description: p.description,
    created_height: Number(p.createdHeight), created_at: Number(p.createdAt), end_height: Number(p.endHeight), quorum_bps: p.quorumBps,
    threshold_bps: p.thresholdBps, total_stake: p.totalStake.toString(), yes: p.yes.toString(), no: p.no.toString(), voters: p.voters,
    executed_height: p.status === 'executed' ? Number(p.executedHeight) : null, ...extra,
  };
}

/** A safety level by name or number 0–3. */
function levelParam(value: string, param: string, position: number): number {
  const byName = (SAFETY_LEVELS as readonly string[]).indexOf(value.toLowerCase());
  if (byName >= 0) return byName;
  if (/^[0-3]$/.test(value)) return Number(value);
  throw RpcError.invalidParam(param, position, `one of ${SAFETY_LEVELS.join(', ')} (or 0–3)`);
}

/** A value that must be one of `allowed`, named with what was sent. */
function oneOf<const T extends string>(allowed: readonly T[], description: string) {
  return parsed(Type.String({ description }), (value, param, position): T => {
    if (!(allowed as readonly string[]).includes(value)) throw RpcError.invalidParam(param, position, `one of ${allowed.join(', ')}`, { got: value });
    return value as T;
  });
}


/** A Borsh Vec<Operation> as in a bundle (hex), checked by the codec: 1–8 operations, none a proposal or schedule operation. */
function operationsParam(hex: string, position: number): Operation[] {
  const bytes = Buffer.from(hex.replace(/^0x/, ''), 'hex');
  try {
    // Read as a proposal's operations are (the codec's bounds and the operations a proposal may not hold).
    const r = new BorshReader(bytes);
    const ops = readNested(r, 'operations', MAX_PROPOSAL_OPS, 'a proposal');
    if (r.remaining !== 0) throw new CodecError('TRAILING_BYTES', 'operations', 'trailing bytes after the operations');
    return ops;
  } catch (error) {
    if (error instanceof CodecError) {
      throw RpcError.invalidParam('operations', position, `hex of a Borsh Vec<Operation> as in a bundle: 1 to ${MAX_PROPOSAL_OPS} operations, none of them a proposal or schedule operation`, { reason: error.message });
    }
    throw error;
  }
}

/**
 * svc_createProposal's params, parsed once (issue 44 item 4): each type-specific param is checked
 * at its position when given; which of them a type needs is checked in actionOf, named by name.
 */
const CREATE_PARAMS = [
  { name: 'from', schema: AccountParam({ description: 'the proposer: an account with bonded stake' }) },
  { name: 'proposal_type', schema: oneOf(TYPES, `one of ${TYPES.join(', ')}`) },
  { name: 'title', schema: Type.String({ maxLength: 4 * MAX_PROPOSAL_TITLE, description: `1–${MAX_PROPOSAL_TITLE} bytes of UTF-8` }) },
  { name: 'description', schema: Type.String({ maxLength: 4 * MAX_PROPOSAL_DESCRIPTION, description: `at most ${MAX_PROPOSAL_DESCRIPTION} bytes of UTF-8` }) },
  { name: 'parameter_key', schema: oneOf(PARAMETER_KEYS, `parameter_change: one of ${PARAMETER_KEYS.join(', ')}`), required: false },
  { name: 'parameter_value', schema: AmountParam({ description: 'parameter_change: the new value (docs/governance.md "Parameters" lists the ranges)' }), required: false },
  { name: 'treasury_recipient', schema: AccountParam({ description: 'treasury_spend: the recipient' }), required: false },
  { name: 'treasury_amount', schema: AmountParam({ description: 'treasury_spend: raw NTV from the foundation treasury 0x00…03' }), required: false },
  { name: 'safety_chain', schema: Type.String({ maxLength: 4 * MAX_SAFETY_TEXT, description: `contract_safety: origin chain, 1–${MAX_SAFETY_TEXT} bytes` }), required: false },
  { name: 'safety_contract', schema: Type.String({ maxLength: 4 * MAX_SAFETY_TEXT, description: `contract_safety: contract address, 1–${MAX_SAFETY_TEXT} bytes` }), required: false },
  { name: 'safety_level', schema: parsed(Type.String({ description: `${SAFETY_LEVELS.join(', ')} (or 0–3); unreviewed clears a level` }), levelParam), required: false },
  {
    name: 'safety_collection',
    schema: parsed(Type.String({ description: 'collection_safety: the Nx2… collection' }), (text, param, position) => {
      const collection = decodeCollectionText(text);
      if (!collection) throw RpcError.invalidParam(param, position, 'an Nx2… collection address');
      return collection;
    }),
    required: false,
  },
  {
    name: 'operations',
    schema: parsed(HexBytes({ maxBytes: 4096, description: 'create_stablecoin, verify_issuer, raise_supply_cap, bridge_attesters: hex of the Borsh Vec<Operation> GOVERNANCE runs' }),
      (hex, _param, position) => operationsParam(hex, position)),
    required: false,
  },
  {
    name: 'bridge_attesters',
    schema: parsed(
      Type.Array(Type.String({ description: '64 hex' }), { minItems: 1, maxItems: 16, description: 'bridge_attesters (instead of operations): the new attester set, 32-byte Ed25519 public keys (docs/bridge.md "Attesters")' }),
      (keys, param, position) => new Uint8Array(Buffer.concat(keys.map((k, i) => {
        const body = k.replace(/^0x/, '');
        if (!/^[0-9a-fA-F]{64}$/.test(body)) throw RpcError.invalidParam(param, position, '32-byte Ed25519 public keys as 64 hex', { index: i });
        return Buffer.from(body, 'hex');
      }))),
    ),
    required: false,
  },
  { name: 'bridge_threshold', schema: Type.Integer({ minimum: 1, maximum: 16, description: 'bridge_attesters: signatures a proof needs, 1 to the number of attesters' }), required: false },
] as const satisfies readonly MethodParam[];

interface CreateParams {
  parameterKey?: ParameterKey; parameterValue?: bigint; recipient?: Uint8Array; amount?: bigint; chain?: string;
  contract?: string; level?: number; collection?: Uint8Array; operations?: Operation[];
  /** bridge_attesters without `operations`: the new set (32-byte Ed25519 keys laid end to end) and threshold */
  attesters?: Uint8Array; threshold?: number;
}

/** The ProposalAction of svc_createProposal's params, each already parsed; a param the type needs and lacks is named. */
function actionOf(type: ProposalType, p: CreateParams): ProposalAction {
  const need = <T>(v: T | undefined, name: (typeof CREATE_PARAMS)[number]['name'], expected: string): T => {
    if (v === undefined) throw invalidParamIn(CREATE_PARAMS, name, `${expected} (required for proposal_type ${type})`);
    return v;
  };
  const level = () => need(p.level, 'safety_level', `one of ${SAFETY_LEVELS.join(', ')}`);
  switch (type) {
    case 'text': return { kind: 'Text' };
    case 'parameter_change':
      return {
        kind: 'ParameterChange',
        key: need(p.parameterKey, 'parameter_key', `one of ${PARAMETER_KEYS.join(', ')}`),
        value: need(p.parameterValue, 'parameter_value', 'a decimal integer'),
      };
    case 'treasury_spend':
      return { kind: 'TreasurySpend', recipient: need(p.recipient, 'treasury_recipient', 'an address'), amount: need(p.amount, 'treasury_amount', 'raw NTV, decimal') };
    case 'contract_safety':
      return { kind: 'ContractSafety', chain: need(p.chain, 'safety_chain', 'a chain name'), contract: need(p.contract, 'safety_contract', 'a contract address'), level: level() };
    case 'collection_safety':
      return { kind: 'CollectionSafety', collection: need(p.collection, 'safety_collection', 'an Nx2… collection'), level: level() };
    default: {
      if (type === 'bridge_attesters' && p.operations === undefined && p.attesters) {
        // The set itself (docs/bridge.md "Attesters"): carried as SetBridgeAttesters (73).
        const threshold = need(p.threshold, 'bridge_threshold', 'the number of attester signatures a proof needs');
        return { kind: 'BridgeAttesters', operations: [{ type: 'SetBridgeAttesters', attesters: p.attesters, threshold }] };
      }
      const operations = need(p.operations, 'operations', 'hex of a Borsh Vec<Operation>');
      const kind = ({ create_stablecoin: 'CreateStablecoin', verify_issuer: 'VerifyIssuer', raise_supply_cap: 'RaiseSupplyCap', bridge_attesters: 'BridgeAttesters' } as const)[type];
      return { kind, operations };
    }
  }
}

const ProposalId = () => ProposalIdParam('the proposal id');

export function governanceMethods({ chain }: MethodDependencies): MethodDefinition[] {
  const notFound = (id: bigint) => RpcError.app('NOT_FOUND', `no proposal ${id}`, { proposal_id: id.toString() });
  const writes = [APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.BUNDLE_FAILED.code];
  return [
    defineMethod({
      name: 'svc_createProposal',
      summary: 'Create a protocol proposal (spec §4.14); the sender must hold bonded stake (unsigned convenience, testnet only).',
      description: `proposal_type is one of ${TYPES.join(', ')} (docs/governance.md "Proposal types"); each needs its own params: `
        + 'parameter_change parameter_key and parameter_value, treasury_spend treasury_recipient and treasury_amount, contract_safety safety_chain, '
        + 'safety_contract and safety_level, collection_safety safety_collection and safety_level, and create_stablecoin, verify_issuer, '
        + 'raise_supply_cap and bridge_attesters `operations` (hex of a Borsh Vec<Operation>, run as GOVERNANCE 0x00…09 once passed); '
        + 'bridge_attesters may instead give bridge_attesters and bridge_threshold (the new attester set, carried as SetBridgeAttesters). '
        + 'The core checks ranges and balances: INVALID_PARAMETER_VALUE, TREASURY_INSUFFICIENT, INVALID_SAFETY_TARGET, NO_VOTING_POWER.'
        + ' Spec §4.14 (docs/governance.md "Proposal types"): proposal_type and the params it needs. Errors: INVALID_PARAMS naming a missing'
        + ' or malformed param or an unknown proposal_type; UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED (NO_VOTING_POWER,'
        + ' INVALID_PROPOSAL_TEXT, INVALID_PARAMETER_VALUE, TREASURY_INSUFFICIENT, INVALID_SAFETY_TARGET, INVALID_PROPOSAL_OPERATIONS).',
      params: CREATE_PARAMS,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt; `ProposalCreated` carries the `proposal_id`. `proposal_type`: `text`, `parameter_change`, `treasury_spend`,'
          + ' `contract_safety`, `collection_safety`, `create_stablecoin`, `verify_issuer`, `raise_supply_cap`, `bridge_attesters` (the last'
          + ' four take `operations`, hex of a Borsh `Vec<Operation>`)',
      },
      errors: writes,
      handler: async ([from, type, title, description, parameterKey, parameterValue, recipient, amount, chain_, contract, level, collection, operations, attesters, threshold]) => {
        const action = actionOf(type, { parameterKey, parameterValue, recipient, amount, chain: chain_, contract, level, collection, operations, attesters, threshold });
        return chain.submitOperations(from, [{ type: 'CreateProposal', title, description, action }]);
      },
    }),
    defineMethod({
      name: 'svc_voteProposal',
      summary: 'Vote on a proposal with the sender\'s bonded stake (spec §4.14; one vote per account; unsigned convenience, testnet only).',
      description: 'The weight is the sender\'s bonded stake when it votes (self stake and delegations). Fails VOTING_CLOSED after end_height, '
        + 'ALREADY_VOTED on a second vote, NO_VOTING_POWER without stake, PROPOSAL_NOT_FOUND.'
        + ' Spec §4.14: one stake-weighted vote per account while the proposal is open. Errors: UNAVAILABLE_ON_NETWORK on mainnet;'
        + ' BUNDLE_FAILED (PROPOSAL_NOT_FOUND, VOTING_CLOSED, ALREADY_VOTED, NO_VOTING_POWER).',
      params: [
        { name: 'from', schema: AccountParam({ description: 'the voter: an account with bonded stake' }) },
        { name: 'proposal_id', schema: ProposalId() },
        { name: 'approve', schema: Type.Boolean({ description: 'true = yes, false = no' }) },
      ] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt; `ProposalVoted` carries the weight',
      },
      errors: writes,
      handler: async ([from, proposalId, approve]) => chain.submitOperations(from, [{ type: 'VoteProposal', proposalId, approve }]),
    }),
    defineMethod({
      name: 'svc_executeProposal',
      summary: 'Execute a passed proposal once its voting period is over; anyone may (spec §4.14; unsigned convenience, testnet only).',
      description: 'Runs the proposal\'s action as the governance authority 0x00…09. Fails VOTING_NOT_ENDED before end_height + 1, PROPOSAL_REJECTED '
        + 'below quorum or threshold, PROPOSAL_NOT_EXECUTABLE once executed or cancelled, or with the action\'s own status (nothing changes then).'
        + ' Spec §4.14: runs a passed proposal as GOVERNANCE 0x00…09, once, after end_height. Errors: UNAVAILABLE_ON_NETWORK on mainnet;'
        + ' BUNDLE_FAILED (PROPOSAL_NOT_FOUND, PROPOSAL_NOT_EXECUTABLE, VOTING_NOT_ENDED, PROPOSAL_REJECTED, or the action\'s own status,'
        + ' e.g. TREASURY_INSUFFICIENT).',
      params: [{ name: 'from', schema: AccountParam({ description: 'any account: it pays the gas' }) }, { name: 'proposal_id', schema: ProposalId() }] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt, with the action\'s events and `ProposalExecuted`',
      },
      errors: writes,
      handler: async ([from, proposalId]) => chain.submitOperations(from, [{ type: 'ExecuteProposal', proposalId }]),
    }),
    defineMethod({
      name: 'svc_cancelProposal',
      summary: 'Cancel a proposal while it is open for votes; proposer only (spec §4.14; unsigned convenience, testnet only).',
      description: 'Spec §4.14: the proposer withdraws a proposal still open for votes. Errors: UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED'
        + ' (PROPOSAL_NOT_FOUND, NOT_PROPOSER, PROPOSAL_NOT_CANCELLABLE).',
      params: [{ name: 'from', schema: AccountParam({ description: 'the proposer' }) }, { name: 'proposal_id', schema: ProposalId() }] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt; proposer only',
      },
      errors: writes,
      handler: async ([from, proposalId]) => chain.submitOperations(from, [{ type: 'CancelProposal', proposalId }]),
    }),
    defineMethod({
      name: 'svc_getProposal',
      summary: 'A proposal: its type and action, tally, status and heights (spec §4.14).',
      description: 'A proposal with its action, tally and status (voting, passed, rejected, executed, cancelled; docs/governance.md "States").'
        + ' Errors: NOT_FOUND for an unknown id; INVALID_PARAMS for id 0 or a non-number.',
      params: [{ name: 'proposal_id', schema: ProposalId() }] as const,
      result: {
        name: 'proposal', schema: ProposalSchema,
        description: '`{proposal_id, proposer, proposal_type, status, title, description, created_height, created_at, end_height, quorum_bps,'
          + ' threshold_bps, total_stake, yes, no, voters, executed_height, …the action\'s fields}`; `-32003` when unknown',
      },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: ([pid]) => {
        const p = lookupProposal(chain.state, pid, BigInt(chain.height));
        if (!p) throw notFound(pid);
        return proposalJson(p);
      },
    }),
    defineMethod({
      name: 'svc_listProposals',
      summary: 'Proposals, newest first, optionally only those with a status (spec §4.14); at most 100.',
      description: 'Proposals newest first (at most 100), all or only those with the given status. Errors: INVALID_PARAMS for an unknown status.',
      params: [{ name: 'status', schema: oneOf(PROPOSAL_STATUSES, `one of ${PROPOSAL_STATUSES.join(', ')}`), required: false }] as const,
      result: {
        name: 'proposals', schema: Type.Array(ProposalSchema),
        description: 'proposals newest first (at most 100); `status`: `voting`, `passed`, `rejected`, `executed`, `cancelled`',
      },
      handler: ([status]) => listProposals(chain.state, BigInt(chain.height), status).map(proposalJson),
    }),
  ];
}

