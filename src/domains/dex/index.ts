/** The DEX's host module (docs/dex.md): the NTV a swap spends, and how receipts show pools and their tokens. */

import { NTV_MINT } from '../../abi/constants.js';
import type { SwapOp } from '../../abi/operations.js';
import type { DomainModule, NtvSpend } from '../module.js';
import { dexBlockReceiptFormats, dexReceiptFormats } from './receipts.js';

const isNtv = (mint: Uint8Array) => Buffer.compare(mint, NTV_MINT) === 0;

/** A swap to NTV pays NTV in; from NTV it spends amount_in; between two other tokens it touches no NTV. */
const swap: NtvSpend<SwapOp> = {
  operation: 'Swap',
  ntvSpent: (op) => (isNtv(op.toToken) ? undefined : isNtv(op.fromToken) ? op.amountIn : 0n),
};

export const dex: DomainModule = {
  name: 'dex', proofChecks: [], ntvSpends: [swap], receiptFormats: dexReceiptFormats, blockReceiptFormats: dexBlockReceiptFormats,
};
