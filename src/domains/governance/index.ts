/**
 * The host module of protocol governance (docs/governance.md): CreateProposal, VoteProposal, ExecuteProposal, CancelProposal.
 * Its operations carry no proof the core cannot check and declare no NTV spend, so it adds no
 * chain-level hook; it is registered so that its folder is a domain's, held to the registry's rules.
 */

import { encodeCollection, encodeHash } from '../../codec/address.js';
import { nameOf, type DomainModule } from '../module.js';
import { PROPOSAL_KINDS, PROPOSAL_TYPES, SAFETY_LEVELS } from './reader.js';

export const governance: DomainModule = {
  name: 'governance',
  proofChecks: [],
  receiptFormats: {
    proposalType: (v) => {
      const k = PROPOSAL_KINDS[v];
      return k ? PROPOSAL_TYPES[k] : String(v);
    },
    // a collection address, or the contract's Blake3 target (docs/governance.md "Safety levels")
    safetyTarget: (v, e) => (e.targetKind === 'collection' ? encodeCollection(v) : encodeHash(v)),
    safetyLevel: (v) => nameOf(SAFETY_LEVELS, v),
  },
};
