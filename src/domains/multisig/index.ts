/**
 * The host module of multi-sig accounts (spec §4.14, docs/multisig.md): CreateMultiSig, ProposeMultiSigTx,
 * ApproveMultiSigTx, RevokeMultiSigApproval. Their operations carry no proof the core cannot check and
 * declare no NTV spend; its one hook is how a receipt shows its events (the Nx5 address, a transaction's
 * action). It is registered so that its folder (reader.ts, rpc.ts, examples.json, client.ts) is a
 * domain's, held to the registry's rules.
 */

import { encodeMultiSig } from '../../codec/address.js';
import type { DomainModule } from '../module.js';

/** MultiSigTxUpdated.action names (docs/multisig.md). */
const TX_ACTIONS = ['proposed', 'approved', 'revoked'] as const;

export const multisig: DomainModule = {
  name: 'multisig',
  proofChecks: [],
  receiptFormats: { multisig: encodeMultiSig, multiSigTxAction: (v) => TX_ACTIONS[v] ?? 'proposed' },
};
