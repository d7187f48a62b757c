/**
 * The explorer's domain registry (issue 44 item 1; docs/explorer.md "Domains"), as src/domains/index.ts
 * is the node's: the shell's routes and header links and the address and token pages' sections
 * come from this list, in its order, so adding a domain's pages touches its own file and one line here.
 */
import { anchors } from './anchors.js';
import { bridge } from './bridge.js';
import { collections } from './collections.js';
import { dex } from './dex.js';
import type { ExplorerDomain } from './module.js';
import { multisig } from './multisig.js';
import { passports } from './passports.js';
import { presales } from './presales.js';
import { settlement } from './settlement.js';
import { stablecoins } from './stablecoins.js';
import { stakingPools } from './staking-pools.js';

export type { ExplorerDomain } from './module.js';

export const explorerDomains: readonly ExplorerDomain[] = [collections, passports, anchors, bridge, dex, presales, stakingPools, stablecoins, settlement, multisig];
