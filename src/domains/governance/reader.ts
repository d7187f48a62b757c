import { blake3 } from '../../codec/hash.js';
import { BorshReader } from '../../codec/borsh.js';
import { readProposalAction, type ProposalAction } from '../../codec/operations.js';
import {
  PROPOSAL_COUNT_KEY, collectionSafetyKey, contractSafetyKey, decodeCollectionSafetyFields, decodeContractSafetyFields,
  decodeProposalFields, decodeProposalVoteFields, proposalKey, proposalVoteKey, type ProposalFields,
} from '../../abi/state.js';
import type { StateReader } from '../../chain/state-reader.js';
import { proposalStatus, SAFETY_LEVELS, type ProposalStatus } from '../../chain/proposals.js';

/**
 * Protocol proposals in chain state (spec §4.14; docs/governance.md), written only by
 * CreateProposal/VoteProposal/ExecuteProposal/CancelProposal (assembly/domains/governance/ops.ts). The keys
 * (0x58 proposal, 0x59 vote, 0x5A count, 0x5B contract safety, 0x60 collection safety) and record
 * layouts come from the ABI table; this file turns them into the domain's shapes, deriving
 * passed/rejected with the core's rule once the voting period is over.
 */
export { proposalKey, proposalVoteKey, contractSafetyKey, collectionSafetyKey } from '../../abi/state.js';
export { PROPOSAL_STATUSES, proposalPassed, SAFETY_LEVELS, type ProposalStatus, type SafetyLevel } from '../../chain/proposals.js';

/** ProposalAction kind → the snake_case proposal_type of svc_createProposal (docs/governance.md). */
export const PROPOSAL_TYPES = {
  Text: 'text', ParameterChange: 'parameter_change', TreasurySpend: 'treasury_spend', ContractSafety: 'contract_safety',
  CollectionSafety: 'collection_safety', CreateStablecoin: 'create_stablecoin', VerifyIssuer: 'verify_issuer',
  RaiseSupplyCap: 'raise_supply_cap', BridgeAttesters: 'bridge_attesters',
} as const satisfies Record<ProposalAction['kind'], string>;
export type ProposalType = (typeof PROPOSAL_TYPES)[keyof typeof PROPOSAL_TYPES];
/** The ProposalAction tags in order (the record's proposalKind). */
export const PROPOSAL_KINDS = Object.keys(PROPOSAL_TYPES) as Array<ProposalAction['kind']>;

/** A protocol proposal: its id (the key), the generated fields (abi/state.mjs Proposal) but the layout version, with its type, action and status decoded. */
export interface ProposalRecord extends Omit<ProposalFields, 'version' | 'proposalKind' | 'state' | 'action'> {
  id: bigint;
  type: ProposalType;
  action: ProposalAction;
  status: ProposalStatus;
}

/** A stored ProposalAction (its tag and fields) as the codec's type. */
export function decodeProposalAction(bytes: Uint8Array): ProposalAction {
  return readProposalAction(new BorshReader(bytes), 'action');
}

/** The proposal with this id, its status as of `height` (the head); undefined when absent. */
export function lookupProposal(state: StateReader, id: bigint, height: bigint): ProposalRecord | undefined {
  if (id < 1n || id >= 1n << 64n) return undefined;
  const v = state.get(proposalKey(id));
  if (!v) return undefined;
  const { version: _version, proposalKind, state: stored, action, ...fields } = decodeProposalFields(v);
  const kind = PROPOSAL_KINDS[proposalKind];
  if (!kind) throw new RangeError(`proposal ${id}: unknown kind ${proposalKind}`);
  return {
    id, type: PROPOSAL_TYPES[kind], action: decodeProposalAction(action), status: proposalStatus(stored, fields.endHeight, height, fields), ...fields,
  };
}

/** Proposals created so far (ids run 1…count). */
export function proposalCount(state: StateReader): bigint {
  const v = state.get(PROPOSAL_COUNT_KEY);
  return v ? new DataView(v.buffer, v.byteOffset, v.byteLength).getBigUint64(0, true) : 0n;
}

/** Proposals newest first, optionally only those with `status`, at most `limit`. */
export function listProposals(state: StateReader, height: bigint, status?: ProposalStatus, limit = 100): ProposalRecord[] {
  const out: ProposalRecord[] = [];
  for (let id = proposalCount(state); id >= 1n && out.length < limit; id--) {
    const p = lookupProposal(state, id, height);
    if (p && (!status || p.status === status)) out.push(p);
  }
  return out;
}

export function lookupProposalVote(state: StateReader, id: bigint, voter: Uint8Array) {
  const v = state.get(proposalVoteKey(id, voter));
  return v ? decodeProposalVoteFields(v) : undefined;
}

/** The 0x5B key target of a contract: Blake3("contract-safety" ‖ chain ‖ 0x00 ‖ contract), as the core computes it. */
export function contractSafetyTarget(chain: string, contract: string): Uint8Array {
  const enc = new TextEncoder();
  const c = enc.encode(chain), a = enc.encode(contract);
  const pre = new Uint8Array(15 + c.length + 1 + a.length);
  pre.set(enc.encode('contract-safety'), 0);
  pre.set(c, 15);
  pre.set(a, 16 + c.length);
  return blake3(pre);
}

/** A contract's safety level set by governance (the bridge reads it); undefined = unreviewed. */
export function contractSafety(state: StateReader, chain: string, contract: string) {
  const v = state.get(contractSafetyKey(contractSafetyTarget(chain, contract)));
  if (!v) return undefined;
  const r = decodeContractSafetyFields(v);
  return { level: SAFETY_LEVELS[r.level] ?? 'unreviewed', proposalId: r.proposalId, height: r.height, chain: r.chain, contract: r.contract };
}

/** A collection's safety level set by governance; undefined = unreviewed. */
export function collectionSafety(state: StateReader, collection: Uint8Array) {
  const v = state.get(collectionSafetyKey(collection));
  if (!v) return undefined;
  const r = decodeCollectionSafetyFields(v);
  return { level: SAFETY_LEVELS[r.level] ?? 'unreviewed', proposalId: r.proposalId, height: r.height };
}
