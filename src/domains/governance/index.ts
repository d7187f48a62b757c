/**
 * The host module of protocol governance (docs/governance.md): CreateProposal, VoteProposal, ExecuteProposal, CancelProposal.
 * Its operations carry no proof the core cannot check and declare no NTV spend, so it adds no
 * chain-level hook; it is registered so that its folder is a domain's, held to the registry's rules.
 */

import type { DomainModule } from '../module.js';

export const governance: DomainModule = { name: 'governance', proofChecks: [] };
