import type { MethodRegistry } from '../registry.js';
import { accountMethods } from './ledger.js';
import { accountsMethods } from './accounts.js';
import { allowanceMethods } from './allowances.js';
import { auditMethods } from './audit.js';
import type { MethodDependencies } from './context.js';
import { ethMethods } from './eth.js';
import { EvmSimulator } from '../../eth/simulate.js';
import { ethFilterMethods } from './eth-filters.js';
import { ethReadMethods } from './eth-reads.js';
import { ethPoolMethods, rpcModulesMethod } from './eth-pool.js';
import { explorerMethods } from './explorer.js';
import { intentMethods } from './intents.js';
import { networkMethods } from './network.js';
import { nodeMethods } from './node.js';
import { subscriptionMethods } from './subscriptions.js';
import { tokenMethods } from './token.js';
import { transactionMethods } from './transaction.js';
import { withMethodDocs } from '../examples/index.js';
import { domainRpc } from '../../domains/rpc.js';
import { consensusMethods } from './consensus.js';

export type { MethodDependencies } from './context.js';

/** Every method of the node, one file per area (DESIGN.md: rpc/methods) or domain module (src/domains/<name>/rpc.ts). */
export function registerMethods(registry: MethodRegistry, base: MethodDependencies): void {
  // One scratch-core simulator for eth_call, eth_estimateGas and eth_sendRawTransaction (src/eth/simulate.ts).
  const deps = { ...base, simulator: new EvmSimulator(base.chain, base.validator.address) };
  for (const group of [
    accountMethods,
    allowanceMethods,
    tokenMethods,
    transactionMethods,
    explorerMethods,
    nodeMethods,
    ethMethods,
    ethReadMethods,
    ethFilterMethods,
    ethPoolMethods,
    subscriptionMethods,
    networkMethods,
    intentMethods,
    consensusMethods,
    auditMethods,
    accountsMethods,
    // Each domain module's methods, from its folder (src/domains/rpc.ts).
    ...domainRpc.map((d) => d.methods),
  ]) {
    // OpenRPC examples of the svc_* methods (issue 26 item 6), JSON data in src/rpc/examples/.
    registry.registerAll(withMethodDocs(group(deps)));
  }
  // Lists the namespaces of everything registered above (src/rpc/methods/eth-pool.ts).
  registry.register(rpcModulesMethod(registry));
}
