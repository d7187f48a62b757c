/**
 * The domain registry's RPC layer (issue 44 item 1; docs/architecture.md "Domain modules"): each
 * domain's JSON-RPC methods (`<name>/rpc.ts`) and their recorded examples (`<name>/examples.json`),
 * one line a domain. Only src/rpc/ imports this file; the chain-level hooks are listed apart in
 * src/domains/index.ts, so admission, import and replay never load the RPC layer
 * (test/unit/imports.test.ts "domains/ by layer").
 */

import type { MethodDocs } from '../rpc/examples/index.js';
import type { MethodDependencies } from '../rpc/methods/context.js';
import type { MethodDefinition } from '../rpc/registry.js';
import namesExamples from './names/examples.json' with { type: 'json' };
import { nameMethods } from './names/rpc.js';
import anchorsExamples from './anchors/examples.json' with { type: 'json' };
import { anchorMethods } from './anchors/rpc.js';
import passportsExamples from './passports/examples.json' with { type: 'json' };
import { passportMethods } from './passports/rpc.js';
import presalesExamples from './presales/examples.json' with { type: 'json' };
import { presaleMethods } from './presales/rpc.js';
import settlementExamples from './settlement/examples.json' with { type: 'json' };
import { settlementMethods } from './settlement/rpc.js';
import governanceExamples from './governance/examples.json' with { type: 'json' };
import { governanceMethods } from './governance/rpc.js';
import daoExamples from './dao/examples.json' with { type: 'json' };
import { daoMethods } from './dao/rpc.js';
import upgradesExamples from './upgrades/examples.json' with { type: 'json' };
import { upgradeMethods } from './upgrades/rpc.js';
import collectionsExamples from './collections/examples.json' with { type: 'json' };
import { multiTokenMethods } from './collections/multitoken-rpc.js';
import { nftMethods } from './collections/rpc.js';
import bridgeExamples from './bridge/examples.json' with { type: 'json' };
import { bridgeMethods } from './bridge/rpc.js';
import dexExamples from './dex/examples.json' with { type: 'json' };
import { dexMethods } from './dex/rpc.js';
import stablecoinsExamples from './stablecoins/examples.json' with { type: 'json' };
import { stablecoinMethods } from './stablecoins/rpc.js';
import stakingPoolsExamples from './staking-pools/examples.json' with { type: 'json' };
import { stakingPoolMethods } from './staking-pools/rpc.js';
import stakingExamples from './staking/examples.json' with { type: 'json' };
import { stakingMethods } from './staking/rpc.js';

/** A domain's RPC side: its name (as its chain-level module's and its folder's), its methods and their docs. */
export interface DomainRpc {
  readonly name: string;
  /** its method definitions over the node's dependencies (src/rpc/methods/context.ts) */
  methods(deps: MethodDependencies): MethodDefinition[];
  /** its recorded examples (src/rpc/examples/index.ts "MethodDocs") */
  readonly docs: MethodDocs;
}

export const domainRpc: readonly DomainRpc[] = [
  { name: 'bridge', methods: bridgeMethods, docs: bridgeExamples as unknown as MethodDocs },
  { name: 'dex', methods: dexMethods, docs: dexExamples as unknown as MethodDocs },
  { name: 'stablecoins', methods: stablecoinMethods, docs: stablecoinsExamples as unknown as MethodDocs },
  { name: 'staking', methods: stakingMethods, docs: stakingExamples as unknown as MethodDocs },
  { name: 'staking-pools', methods: stakingPoolMethods, docs: stakingPoolsExamples as unknown as MethodDocs },
  { name: 'names', methods: nameMethods, docs: namesExamples as unknown as MethodDocs },
  { name: 'anchors', methods: anchorMethods, docs: anchorsExamples as unknown as MethodDocs },
  { name: 'passports', methods: passportMethods, docs: passportsExamples as unknown as MethodDocs },
  { name: 'presales', methods: presaleMethods, docs: presalesExamples as unknown as MethodDocs },
  { name: 'settlement', methods: settlementMethods, docs: settlementExamples as unknown as MethodDocs },
  { name: 'governance', methods: governanceMethods, docs: governanceExamples as unknown as MethodDocs },
  { name: 'dao', methods: daoMethods, docs: daoExamples as unknown as MethodDocs },
  { name: 'upgrades', methods: upgradeMethods, docs: upgradesExamples as unknown as MethodDocs },
  // NFTs (rpc.ts) and multi-tokens (multitoken-rpc.ts): one ABI group, one domain.
  { name: 'collections', methods: (deps) => [...nftMethods(deps), ...multiTokenMethods(deps)], docs: collectionsExamples as unknown as MethodDocs },
];
