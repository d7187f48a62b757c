/**
 * The host module of multi-sig accounts (spec §4.14, docs/multisig.md): CreateMultiSig, ProposeMultiSigTx,
 * ApproveMultiSigTx, RevokeMultiSigApproval. Their operations carry no proof the core cannot check and
 * declare no NTV spend, so it adds no chain-level hook; it is registered so that its folder (reader.ts,
 * rpc.ts, examples.json, client.ts) is a domain's, held to the registry's rules.
 */

import type { DomainModule } from '../module.js';

export const multisig: DomainModule = { name: 'multisig', proofChecks: [] };
