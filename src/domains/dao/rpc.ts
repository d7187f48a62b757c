import { Type, type Static } from '@sinclair/typebox';
import { encodeAccount, encodeMint } from '../../codec/address.js';
import { BorshReader, CodecError } from '../../codec/borsh.js';
import { readNested, type DaoAction, type Operation } from '../../codec/operations.js';
import { MAX_PROPOSAL_OPS, MAX_PROPOSAL_TITLE, MAX_PROPOSAL_DESCRIPTION } from '../../abi/constants.js';
import { PROPOSAL_STATUSES } from '../../chain/proposals.js';
import {
  DAO_PROPOSAL_TYPES, daoEscrow, decodeDaoText, encodeDao, listDaos, lookupDao, lookupDaoProposal, type DaoProposalRecord, type DaoRecord,
} from './reader.js';
import { APP_ERRORS, RpcError } from '../../rpc/errors.js';
import { defineMethod, type MethodDefinition } from '../../rpc/registry.js';
import { DecimalString, HexBytes, parseAmount, parsed } from '../../rpc/schemas.js';
import type { MethodDependencies } from '../../rpc/methods/context.js';
import { AccountParam, invalidParamIn, positionIn, ProposalIdParam, TokenParam } from '../../rpc/methods/params.js';
import { ReceiptSchema } from '../../rpc/methods/result-schemas.js';
import { operationJson } from '../../rpc/methods/format.js';

/**
 * DAOs (issue 22 item 5; docs/dao.md). Each write is one operation (disc. 85–90)
 * that the core checks; these are the unsigned convenience forms (testnet only, -32004 on
 * mainnet, where the same operations arrive signed through svc_submitBundle). Reads come from
 * committed state through src/domains/dao/reader.ts.
 */

const TYPES = Object.values(DAO_PROPOSAL_TYPES);
const Str = (description: string) => Type.String({ description });
const Int = (description: string) => Type.Integer({ description });

const DaoSchema = Type.Object({
  dao_address: Str('Nx7… DAO address: also its treasury account, which passed proposals spend from'),
  dao_id: Str('the DAO\'s sequence number, decimal'),
  name: Str('name'),
  creator: Str('Nx0… account that created it'),
  token_mint: Str('Nx1… voting token'),
  escrow: Str('account that holds the tokens locked by votes until each vote ends'),
  quorum_bps: Int('votes cast must reach this share of the token supply, basis points'),
  threshold_bps: Int('yes must exceed this share of the votes cast, basis points'),
  voting_period: Int('blocks a proposal is open for votes'),
  execution_delay: Int('blocks after the vote before a passed proposal can execute'),
  proposal_threshold: Str('raw token units a proposer must hold'),
  created_height: Int('height of the block that created it'),
  proposal_count: Int('proposals created (ids run 1…count)'),
}, { title: 'Dao', additionalProperties: false });

const DaoProposalSchema = Type.Object({
  dao_address: Str('Nx7… DAO'),
  proposal_id: Str('the proposal id within the DAO, decimal'),
  proposer: Str('Nx0… account that created it'),
  proposal_type: Str(`one of ${TYPES.join(', ')}`),
  status: Str(`one of ${PROPOSAL_STATUSES.join(', ')}`),
  title: Str('title'),
  description: Str('description'),
  created_height: Int('height of the block that created it'),
  end_height: Int('the last height at which votes count'),
  executable_height: Int('first height at which a passed proposal can execute: end_height + execution_delay + 1'),
  quorum_bps: Int('quorum, basis points of supply'),
  threshold_bps: Int('threshold, basis points of the votes cast'),
  supply: Str('the token\'s total supply when it was created (the quorum base), raw units'),
  yes: Str('tokens locked by yes votes, raw units'),
  no: Str('tokens locked by no votes, raw units'),
  voters: Int('accounts that voted'),
  executed_height: Type.Union([Type.Integer(), Type.Null()], { description: 'height at which it was executed; null until then' }),
  operations: Type.Optional(Type.Array(Type.Object({ type: Str('operation name') }, { additionalProperties: true }), { description: 'operations: what the DAO account runs once passed' })),
}, { title: 'DaoProposal', additionalProperties: false });

function daoJson(d: DaoRecord): Static<typeof DaoSchema> {
  return {
    dao_address: encodeDao(d.address), dao_id: d.id.toString(), name: d.name, creator: encodeAccount(d.creator), token_mint: encodeMint(d.tokenMint),
    escrow: encodeAccount(daoEscrow(d.address)), quorum_bps: d.quorumBps, threshold_bps: d.thresholdBps, voting_period: Number(d.votingPeriod),
    execution_delay: Number(d.executionDelay), proposal_threshold: d.proposalThreshold.toString(), created_height: Number(d.createdHeight),
    proposal_count: Number(d.proposalCount),
  };
}

function proposalJson(p: DaoProposalRecord): Static<typeof DaoProposalSchema> {
  return {
    dao_address: encodeDao(p.dao), proposal_id: p.id.toString(), proposer: encodeAccount(p.proposer), proposal_type: p.type, status: p.status,
    title: p.title, description: p.description, created_height: Number(p.createdHeight), end_height: Number(p.endHeight),
    executable_height: Number(p.endHeight + p.executionDelay + 1n), quorum_bps: p.quorumBps, threshold_bps: p.thresholdBps,
    supply: p.supply.toString(), yes: p.yes.toString(), no: p.no.toString(), voters: p.voters,
    executed_height: p.status === 'executed' ? Number(p.executedHeight) : null,
    ...(p.action.kind === 'Operations' ? { operations: p.action.operations.map(operationJson) } : {}),
  };
}

/** A Borsh Vec<Operation> as in a bundle (hex), checked by the codec: 1–8 operations, none a proposal, DAO or schedule operation. */
function operationsParam(hex: string, position: number): Operation[] {
  const bytes = Buffer.from(hex.replace(/^0x/, ''), 'hex');
  try {
    // Read as a proposal's operations are (the codec's bounds and the operations a proposal may not hold).
    const r = new BorshReader(bytes);
    const ops = readNested(r, 'operations', MAX_PROPOSAL_OPS, 'a DAO proposal');
    if (r.remaining !== 0) throw new CodecError('TRAILING_BYTES', 'operations', 'trailing bytes after the operations');
    return ops;
  } catch (error) {
    if (error instanceof CodecError) {
      throw RpcError.invalidParam('operations', position, `hex of a Borsh Vec<Operation> as in a bundle: 1 to ${MAX_PROPOSAL_OPS} operations, none of them a proposal, DAO or schedule operation`, { reason: error.message });
    }
    throw error;
  }
}

const U64 = 18_446_744_073_709_551_615n;
/** The DAO's rules, parsed once (issue 44 item 4): blocks as u64, the proposal threshold as a u128 bigint, named `config`. */
const ConfigParam = () => parsed(Type.Object({
  quorum_bps: Type.Integer({ minimum: 0, maximum: 65535, description: 'votes cast ≥ this share of the token supply (1–10,000)' }),
  threshold_bps: Type.Integer({ minimum: 0, maximum: 65535, description: 'yes > this share of the votes cast (5,000–9,999)' }),
  voting_period: Type.Integer({ minimum: 0, description: 'blocks (1–1,000,000)' }),
  execution_delay: Type.Integer({ minimum: 0, description: 'blocks after the vote before execution (0–1,000,000)' }),
  proposal_threshold: DecimalString({ description: 'raw token units a proposer must hold' }),
}, { additionalProperties: false, description: 'the DAO\'s rules (docs/dao.md)' }), (config, param, position) => {
  const votingPeriod = BigInt(config.voting_period), executionDelay = BigInt(config.execution_delay);
  if (votingPeriod > U64) throw RpcError.invalidParam(param, position, 'voting_period: 1–1,000,000 blocks');
  if (executionDelay > U64) throw RpcError.invalidParam(param, position, 'execution_delay: 0–1,000,000 blocks');
  return {
    quorumBps: config.quorum_bps, thresholdBps: config.threshold_bps, votingPeriod, executionDelay,
    proposalThreshold: parseAmount(config.proposal_threshold, param, position),
  };
});

export function daoMethods({ chain, readers }: MethodDependencies): MethodDefinition[] {
  const writes = [APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.BUNDLE_FAILED.code];
  /** Params parsed once (issue 44 item 4): a DAO address as its 32 bytes, with the text it was given for messages. */
  const DaoAddress = () => parsed(Type.String({ description: 'Nx7… DAO address (or 0x + 64 hex)' }), (text, param, position) => {
    const bytes = decodeDaoText(text) ?? (/^0x[0-9a-fA-F]{64}$/.test(text) ? new Uint8Array(Buffer.from(text.slice(2), 'hex')) : undefined);
    if (!bytes) throw RpcError.invalidParam(param, position, 'a DAO address (Nx7… base58 of 32 bytes, or 0x + 64 hex digits)', { got: text });
    return { bytes, text };
  });
  const ProposalId = () => ProposalIdParam('the proposal id within the DAO');
  const byId = (name: 'svc_daoExecute' | 'svc_daoCancel' | 'svc_daoUnlock', type: 'DaoExecute' | 'DaoCancel' | 'DaoUnlock', summary: string, description: string, result: string) => defineMethod({
    name, summary, description,
    params: [{ name: 'dao_address', schema: DaoAddress() }, { name: 'proposal_id', schema: ProposalId() }, { name: 'sender', schema: AccountParam({ description: 'the sender; it pays the gas' }) }] as const,
    result: { name: 'receipt', schema: ReceiptSchema, description: result },
    errors: writes,
    handler: async ([dao, proposalId, sender]) => chain.submitOperations(sender, [{ type, dao: dao.bytes, proposalId }]),
  });
  const createParams = [
    { name: 'name', schema: Type.String({ maxLength: 256, description: '1–64 bytes of UTF-8' }) },
    { name: 'token_mint', schema: TokenParam(readers.tokens, Type.String({ description: 'the voting token: Nx1… mint or symbol' })) },
    { name: 'config', schema: ConfigParam() },
    { name: 'sender', schema: AccountParam({ description: 'the creator' }) },
  ] as const;
  const proposeParams = [
    { name: 'dao_address', schema: DaoAddress() },
    { name: 'title', schema: Type.String({ maxLength: 4 * MAX_PROPOSAL_TITLE, description: `1–${MAX_PROPOSAL_TITLE} bytes of UTF-8` }) },
    { name: 'description', schema: Type.String({ maxLength: 4 * MAX_PROPOSAL_DESCRIPTION, description: `at most ${MAX_PROPOSAL_DESCRIPTION} bytes of UTF-8` }) },
    {
      name: 'proposal_type',
      schema: parsed(Type.String({ description: `one of ${TYPES.join(', ')}` }), (type, param, position) => {
        if (!(TYPES as string[]).includes(type)) throw RpcError.invalidParam(param, position, `one of ${TYPES.join(', ')}`, { got: type });
        return type;
      }),
    },
    { name: 'sender', schema: AccountParam({ description: 'the proposer' }) },
    { name: 'operations', schema: HexBytes({ maxBytes: 4096, description: 'operations: hex of the Borsh Vec<Operation> the DAO account runs' }), required: false },
  ] as const;
  return [
    defineMethod({
      name: 'svc_createDao',
      summary: 'Create a DAO (Nx7…) whose holders of token_mint vote by locking their tokens (unsigned convenience, testnet only).',
      description: 'config: quorum_bps (1–10,000), threshold_bps (5,000–9,999), voting_period (1–1,000,000 blocks), execution_delay (0–1,000,000 blocks), '
        + 'proposal_threshold (raw token units a proposer must hold). The token may not be NTV. The DAO address is in the receipt\'s DaoCreated event. '
        + 'The core refuses a config out of range (INVALID_DAO_CONFIG) or an unknown token (UNKNOWN_TOKEN).'
        + ' Issue 22 item 5 (docs/dao.md). Errors: INVALID_PARAMS for a malformed param; UNKNOWN_TOKEN; UNAVAILABLE_ON_NETWORK'
        + ' on mainnet; BUNDLE_FAILED (INVALID_DAO_CONFIG, UNKNOWN_TOKEN).',
      params: createParams,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt; `DaoCreated` has the Nx7… `dao_address` (docs/dao.md)',
      },
      errors: [...writes, APP_ERRORS.UNKNOWN_TOKEN.code],
      handler: async ([name, token, config, from]) => chain.submitOperations(from, [{ type: 'CreateDao', name, tokenMint: token.mint, ...config }]),
    }),
    defineMethod({
      name: 'svc_daoPropose',
      summary: 'Create a DAO proposal: text, or operations the DAO account (its treasury) runs once passed (unsigned convenience, testnet only).',
      description: `proposal_type is one of ${TYPES.join(', ')}; operations (appended after sender) is hex of the Borsh Vec<Operation>, as in a bundle, `
        + 'that runs as the DAO account once the proposal passed and its execution delay is over. The sender must hold at least the DAO\'s '
        + 'proposal_threshold of its token (BELOW_PROPOSAL_THRESHOLD); DAO_NOT_FOUND, INVALID_PROPOSAL_TEXT, INVALID_PROPOSAL_OPERATIONS.'
        + ' Errors: INVALID_PARAMS (a malformed DAO address, an unknown proposal_type, operations missing for proposal_type operations or'
        + ' malformed); UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED (DAO_NOT_FOUND, INVALID_PROPOSAL_TEXT, BELOW_PROPOSAL_THRESHOLD,'
        + ' INVALID_PROPOSAL_OPERATIONS).',
      params: proposeParams,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt; `DaoProposal` has the `proposal_id`',
      },
      errors: writes,
      handler: async ([dao, title, description, type, from, operations]) => {
        let action: DaoAction = { kind: 'Text' };
        if (type === 'operations') {
          if (operations == null) throw invalidParamIn(proposeParams, 'operations', 'hex of a Borsh Vec<Operation> (required for proposal_type operations)');
          action = { kind: 'Operations', operations: operationsParam(operations, positionIn(proposeParams, 'operations')) };
        } else if (operations != null) throw invalidParamIn(proposeParams, 'operations', 'nothing: a text proposal carries no operations');
        return chain.submitOperations(from, [{ type: 'DaoPropose', dao: dao.bytes, title, description, action }]);
      },
    }),
    defineMethod({
      name: 'svc_daoVote',
      summary: 'Vote on a DAO proposal: the sender\'s whole balance of the DAO\'s token is locked in the DAO\'s escrow until the vote ends, and is its weight (unsigned convenience, testnet only).',
      description: 'vote is true/"yes" or false/"no". The locked tokens cannot vote again from another account; svc_daoUnlock returns them once voting is over. '
        + 'Fails DAO_NOT_FOUND, PROPOSAL_NOT_FOUND, VOTING_CLOSED after end_height, ALREADY_VOTED, NO_VOTING_POWER without tokens of its own (an allowance does not count).'
        + ' Token-weighted, the tokens locked in the DAO escrow until the vote ends. Errors: UNAVAILABLE_ON_NETWORK on mainnet;'
        + ' BUNDLE_FAILED (DAO_NOT_FOUND, PROPOSAL_NOT_FOUND, VOTING_CLOSED, ALREADY_VOTED, NO_VOTING_POWER).',
      params: [
        { name: 'dao_address', schema: DaoAddress() },
        { name: 'proposal_id', schema: ProposalId() },
        { name: 'vote', schema: Type.Union([Type.Boolean(), Type.Literal('yes'), Type.Literal('no')], { description: 'true or "yes" for, false or "no" against' }) },
        { name: 'sender', schema: AccountParam({ description: 'the voter' }) },
      ] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt; the sender\'s token balance is locked in the DAO escrow',
      },
      errors: writes,
      handler: async ([dao, proposalId, vote, sender]) => chain.submitOperations(sender, [
        { type: 'DaoVote', dao: dao.bytes, proposalId, approve: vote === true || vote === 'yes' },
      ]),
    }),
    byId('svc_daoExecute', 'DaoExecute', 'Execute a passed DAO proposal after its execution delay; anyone may (unsigned convenience, testnet only).',
      'Runs the proposal\'s operations as the DAO account. Fails PROPOSAL_NOT_EXECUTABLE once executed or cancelled, VOTING_NOT_ENDED, PROPOSAL_REJECTED, '
      + 'EXECUTION_DELAY_PENDING before executable_height, or with an operation\'s own status (e.g. INSUFFICIENT_BALANCE; nothing changes and it stays passed).'
      + ' Errors: UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED (DAO_NOT_FOUND, PROPOSAL_NOT_FOUND, PROPOSAL_NOT_EXECUTABLE, VOTING_NOT_ENDED, PROPOSAL_REJECTED,'
      + ' EXECUTION_DELAY_PENDING, or an operation\'s status).',
      'receipt'),
    byId('svc_daoCancel', 'DaoCancel', 'Cancel a DAO proposal while it is open for votes; proposer only (unsigned convenience, testnet only).',
      'Fails NOT_PROPOSER for anyone else, PROPOSAL_NOT_CANCELLABLE once voting is over. Voters can unlock at once after a cancel.'
      + ' Errors: UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED (DAO_NOT_FOUND, PROPOSAL_NOT_FOUND, NOT_PROPOSER, PROPOSAL_NOT_CANCELLABLE).',
      'receipt (proposer only)'),
    byId('svc_daoUnlock', 'DaoUnlock', 'Take back the tokens a DAO vote locked, once the proposal\'s voting is over or it was cancelled (unsigned convenience, testnet only).',
      'Fails NO_LOCKED_VOTE (never voted, or unlocked already) and VOTE_STILL_LOCKED while the proposal is open for votes.'
      + ' Not in the issue\'s list: the escrow design needs a way back for locked tokens (docs/dao.md). Errors: UNAVAILABLE_ON_NETWORK on mainnet;'
      + ' BUNDLE_FAILED (DAO_NOT_FOUND, PROPOSAL_NOT_FOUND, NO_LOCKED_VOTE, VOTE_STILL_LOCKED).',
      'receipt; the locked tokens return once voting is over'),
    defineMethod({
      name: 'svc_getDao',
      summary: 'A DAO: its token, rules, escrow and proposal count.',
      description: 'A DAO by its Nx7… address: token, rules, escrow, proposal count. Errors: NOT_FOUND for an unknown DAO; INVALID_PARAMS for a'
        + ' malformed address.',
      params: [{ name: 'dao_address', schema: DaoAddress() }] as const,
      result: {
        name: 'dao', schema: DaoSchema,
        description: 'the DAO; `-32003` when unknown',
      },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: ([dao]) => {
        const d = lookupDao(chain.state, dao.bytes);
        if (!d) throw RpcError.app('NOT_FOUND', `no DAO ${dao.text}`, { dao_address: dao.text });
        return daoJson(d);
      },
    }),
    defineMethod({
      name: 'svc_listDaos',
      summary: 'DAOs, newest first.',
      description: 'DAOs newest first, at most limit (default and maximum 100). Errors: INVALID_PARAMS for a limit outside 1–100.',
      params: [{ name: 'limit', schema: Type.Integer({ minimum: 1, maximum: 100, description: 'at most this many (1–100, default 100)' }), required: false }] as const,
      result: {
        name: 'daos', schema: Type.Array(DaoSchema),
        description: 'DAOs newest first (1–100, default 100)',
      },
      handler: ([limit]) => listDaos(chain.state, limit ?? 100).map(daoJson),
    }),
    defineMethod({
      name: 'svc_getDaoProposal',
      summary: 'A DAO proposal: its type and operations, tally, status and heights.',
      description: 'A DAO proposal with its operations, tally and status (voting, passed, rejected, executed, cancelled). Errors: NOT_FOUND for an'
        + ' unknown DAO or proposal; INVALID_PARAMS for a malformed address or id 0.',
      params: [{ name: 'dao_address', schema: DaoAddress() }, { name: 'proposal_id', schema: ProposalId() }] as const,
      result: {
        name: 'proposal', schema: DaoProposalSchema,
        description: 'the DAO proposal; `-32003` when unknown',
      },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: ([dao, pid]) => {
        if (!lookupDao(chain.state, dao.bytes)) throw RpcError.app('NOT_FOUND', `no DAO ${dao.text}`, { dao_address: dao.text });
        const p = lookupDaoProposal(chain.state, dao.bytes, pid, BigInt(chain.height));
        if (!p) throw RpcError.app('NOT_FOUND', `DAO ${dao.text} has no proposal ${pid}`, { dao_address: dao.text, proposal_id: pid.toString() });
        return proposalJson(p);
      },
    }),
  ];
}
