/**
 * The domain registry (issue 44, after Cosmos SDK's app wiring of its `x/<module>`s): every domain
 * with host code of its own, in one list. The generic paths iterate it (src/chain/admission/host-proofs.ts)
 * and name no domain; a new domain adds its folder and one line here (docs/adding-a-domain.md).
 * This is the chain layer's list: a domain's RPC methods are listed apart, in src/domains/rpc.ts,
 * which only src/rpc/ imports.
 */

import { anchors } from './anchors/index.js';
import { bridge } from './bridge/index.js';
import { collections } from './collections/index.js';
import { dao } from './dao/index.js';
import { dex } from './dex/index.js';
import { governance } from './governance/index.js';
import type { DomainModule } from './module.js';
import { names } from './names/index.js';
import { passports } from './passports/index.js';
import { presales } from './presales/index.js';
import { settlement } from './settlement/index.js';
import { stablecoins } from './stablecoins/index.js';
import { staking } from './staking/index.js';
import { stakingPools } from './staking-pools/index.js';
import { upgrades } from './upgrades/index.js';

export type { DomainModule, DomainReceiptFormats, NtvSpend, ProofCheck, Verify, VerifyAsync } from './module.js';

export const domains: readonly DomainModule[] = [
  anchors, bridge, collections, dao, dex, governance, names, passports, presales, settlement, stablecoins, staking, stakingPools, upgrades,
];
