import { blake3 } from '../../codec/hash.js';
import { DAO_PREFIX, decodePrefixed, encodePrefixed } from '../../codec/address.js';
import { BorshReader } from '../../codec/borsh.js';
import { readDaoAction, type DaoAction } from '../../codec/operations.js';
import { DAO_COUNT_KEY, daoKey, daoProposalKey, daoVoteKey, decodeDaoFields, decodeDaoProposalFields, decodeDaoVoteFields, type DaoProposalFields } from '../../abi/state.js';
import { proposalStatus, type ProposalStatus } from '../../chain/proposals.js';
import type { StateReader } from '../../chain/state-reader.js';

/**
 * DAOs in chain state (issue 22 item 5; docs/dao.md), written only by CreateDao,
 * DaoPropose, DaoVote, DaoExecute, DaoCancel and DaoUnlock (assembly/domains/dao/ops.ts). A DAO's address
 * is Blake3("ntv-dao" ‖ id u64 LE), shown as Nx7…; its escrow (where votes lock their tokens) is
 * Blake3("ntv-dao-escrow" ‖ dao). Status is derived with the core's rule, as for protocol proposals.
 */
export { DAO_PREFIX };
export const DAO_PROPOSAL_TYPES = { Text: 'text', Operations: 'operations' } as const satisfies Record<DaoAction['kind'], string>;
export type DaoProposalType = (typeof DAO_PROPOSAL_TYPES)[keyof typeof DAO_PROPOSAL_TYPES];

export const encodeDao = (address: Uint8Array) => encodePrefixed(DAO_PREFIX, address);
/** `Nx7…` → 32 bytes, or undefined when the text is not a well-formed DAO address. */
export const decodeDaoText = (text: string) => decodePrefixed(DAO_PREFIX, text);

const enc = new TextEncoder();
const le64 = (v: bigint) => { const b = new Uint8Array(8); new DataView(b.buffer).setBigUint64(0, v, true); return b; };
export const daoAddress = (id: bigint) => blake3(new Uint8Array([...enc.encode('ntv-dao'), ...le64(id)]));
export const daoEscrow = (dao: Uint8Array) => blake3(new Uint8Array([...enc.encode('ntv-dao-escrow'), ...dao]));

export interface DaoRecord {
  address: Uint8Array; id: bigint; name: string; creator: Uint8Array; tokenMint: Uint8Array; quorumBps: number; thresholdBps: number;
  votingPeriod: bigint; executionDelay: bigint; proposalThreshold: bigint; createdHeight: bigint; proposalCount: bigint;
}

export function lookupDao(state: StateReader, dao: Uint8Array): DaoRecord | undefined {
  const v = state.get(daoKey(dao));
  if (!v) return undefined;
  const r = decodeDaoFields(v);
  return {
    address: dao, id: r.id, name: r.name, creator: r.creator, tokenMint: r.tokenMint, quorumBps: r.quorumBps, thresholdBps: r.thresholdBps,
    votingPeriod: r.votingPeriod, executionDelay: r.executionDelay, proposalThreshold: r.proposalThreshold, createdHeight: r.createdHeight, proposalCount: r.proposalCount,
  };
}

/** DAOs newest first, at most `limit`. */
export function listDaos(state: StateReader, limit: number): DaoRecord[] {
  const v = state.get(DAO_COUNT_KEY);
  const count = v ? new DataView(v.buffer, v.byteOffset, v.byteLength).getBigUint64(0, true) : 0n;
  const out: DaoRecord[] = [];
  for (let id = count; id >= 1n && out.length < limit; id--) {
    const d = lookupDao(state, daoAddress(id));
    if (d) out.push(d);
  }
  return out;
}

/** A stored DaoAction (its tag and fields) as the codec's type. */
function decodeDaoAction(bytes: Uint8Array): DaoAction {
  return readDaoAction(new BorshReader(bytes), 'action');
}

/** A DAO proposal: its DAO and id (the key), the generated fields (abi/state.mjs DaoProposal) but the layout version, with its type, action and status decoded. */
export interface DaoProposalRecord extends Omit<DaoProposalFields, 'version' | 'proposalKind' | 'state' | 'action'> {
  dao: Uint8Array;
  id: bigint;
  type: DaoProposalType;
  action: DaoAction;
  status: ProposalStatus;
}

/** The DAO proposal, its status as of `height` (the head); undefined when absent. */
export function lookupDaoProposal(state: StateReader, dao: Uint8Array, id: bigint, height: bigint): DaoProposalRecord | undefined {
  if (id < 1n || id >= 1n << 64n) return undefined;
  const v = state.get(daoProposalKey(dao, id));
  if (!v) return undefined;
  const { version: _version, proposalKind: _kind, state: stored, action: held, ...fields } = decodeDaoProposalFields(v);
  const action = decodeDaoAction(held);
  // A DAO's quorum base is the token's supply when the proposal was made.
  const status = proposalStatus(stored, fields.endHeight, height, { ...fields, totalStake: fields.supply });
  return { dao, id, type: DAO_PROPOSAL_TYPES[action.kind], action, status, ...fields };
}

export function lookupDaoVote(state: StateReader, dao: Uint8Array, id: bigint, voter: Uint8Array) {
  const v = state.get(daoVoteKey(dao, id, voter));
  return v ? decodeDaoVoteFields(v) : undefined;
}
