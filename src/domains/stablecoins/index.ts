/** The STD-8 stablecoins' host module (docs/stablecoins.md): the issuer proof admission checks, and how receipts show its events. */

import type { DomainModule } from '../module.js';
import { issuerProof } from './issuer-proof.js';
import { stablecoinReceiptFormats } from './receipts.js';

export const stablecoins: DomainModule = { name: 'stablecoins', proofChecks: [issuerProof], receiptFormats: stablecoinReceiptFormats };
