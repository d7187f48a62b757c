/**
 * The OpenRPC examples of every svc_* method (issue 26 item 6: "OpenRPC that tools can generate
 * clients from"), one JSON file per methods file of src/rpc/methods/ or domain of src/domains/rpc.ts
 * (recorded from a testnet node: the accounts, the AUR token, pool and collections created by the
 * calls shown; long lists cut to two items), merged here and added to the definitions as they are
 * registered. Behaviour is untouched: only the OpenRPC fields change. The files hold examples only:
 * a method's description is in its definition (issue 44 item 4, src/rpc/method.ts). The eth_*
 * adapter keeps its examples in src/rpc/methods/eth-schemas.ts, next to the schemas they share.
 */
import type { MethodDefinition, MethodDocs, MethodExample } from '../registry.js';
import { domainRpc } from '../../domains/rpc.js';
import ledger from './ledger.json' with { type: 'json' };
import accounts from './accounts.json' with { type: 'json' };
import allowances from './allowances.json' with { type: 'json' };
import audit from './audit.json' with { type: 'json' };
import consensus from './consensus.json' with { type: 'json' };
import explorer from './explorer.json' with { type: 'json' };
import intents from './intents.json' with { type: 'json' };
import network from './network.json' with { type: 'json' };
import node from './node.json' with { type: 'json' };
import subscriptions from './subscriptions.json' with { type: 'json' };
import token from './token.json' with { type: 'json' };
import transaction from './transaction.json' with { type: 'json' };


// JSON data (issue 44 item 4): the typed view is MethodDocs; test/unit/rpc-openrpc.test.ts holds every
// example to its method's param and result schemas.
const FILES = [
  ...([
    ledger, accounts, allowances, audit, consensus, explorer, intents, network, node, subscriptions, token, transaction,
  ] as unknown as MethodDocs[]),
  // The domain modules' own, beside their methods (src/domains/rpc.ts).
  ...domainRpc.map((d) => d.docs),
];

/** Every method name the files give examples for (test/unit/rpc-openrpc.test.ts: all registered). */
export function documentedMethods(): string[] {
  return FILES.flatMap((f) => [...Object.keys(f.EXAMPLES ?? {}), ...Object.keys(f.POSITIONAL_EXAMPLES ?? {})]);
}

/** A positional recording with its params and result named from the definition. */
function named(d: MethodDefinition, recorded: NonNullable<MethodDocs['POSITIONAL_EXAMPLES']>[string]): MethodExample[] {
  return recorded.map((e) => ({
    name: e.name,
    params: e.params.map((value, i) => ({ name: d.params[i]!.name, value })),
    result: { name: d.result.name, value: e.result },
  }));
}

function examplesOf(d: MethodDefinition): MethodExample[] | undefined {
  for (const file of FILES) {
    const examples = file.EXAMPLES?.[d.name];
    if (examples !== undefined) return examples;
    const positional = file.POSITIONAL_EXAMPLES?.[d.name];
    if (positional !== undefined) return named(d, positional);
  }
  return undefined;
}

/** Adds the examples to each definition that has none of its own. */
export function withMethodDocs(definitions: MethodDefinition[]): MethodDefinition[] {
  return definitions.map((d) => {
    const examples = d.examples === undefined ? examplesOf(d) : undefined;
    return examples === undefined ? d : { ...d, examples };
  });
}
