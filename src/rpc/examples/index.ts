/**
 * The OpenRPC descriptions and examples of every svc_* method (issue 26 item 6: "OpenRPC that tools
 * can generate clients from"), one file per methods file of src/rpc/methods/, merged here and added
 * to the definitions as they are registered. Behaviour is untouched: only the OpenRPC fields change.
 * The eth_* adapter keeps its own (src/rpc/methods/eth-schemas.ts), next to the schemas they share.
 */
import type { MethodDefinition, MethodExample } from '../registry.js';
import * as account from './account.js';
import * as accounts from './accounts.js';
import * as allowances from './allowances.js';
import * as anchors from './anchors.js';
import * as audit from './audit.js';
import * as bridge from './bridge.js';
import * as consensus from './consensus.js';
import * as dao from './dao.js';
import * as dex from './dex.js';
import * as explorer from './explorer.js';
import * as governance from './governance.js';
import * as intents from './intents.js';
import * as multitokens from './multitokens.js';
import * as names from './names.js';
import * as network from './network.js';
import * as nfts from './nfts.js';
import * as node from './node.js';
import * as passports from './passports.js';
import * as presales from './presales.js';
import * as settlement from './settlement.js';
import * as stablecoins from './stablecoins.js';
import * as staking from './staking.js';
import * as stakingPools from './staking-pools.js';
import * as subscriptions from './subscriptions.js';
import * as token from './token.js';
import * as transaction from './transaction.js';
import * as upgrades from './upgrades.js';

/** What one file holds: examples with named params, or recorded positional ones, and descriptions. */
interface MethodDocs {
  EXAMPLES?: Record<string, MethodExample[]>;
  POSITIONAL_EXAMPLES?: Record<string, Array<{ name: string; params: unknown[]; result: unknown }>>;
  DESCRIPTIONS?: Record<string, string>;
}

const FILES: MethodDocs[] = [
  account, accounts, allowances, anchors, audit, bridge, consensus, dao, dex, explorer, governance, intents, multitokens,
  names, network, nfts, node, passports, presales, settlement, stablecoins, staking, stakingPools, subscriptions, token,
  transaction, upgrades,
];

/** Every method name the files describe or give examples for (test/unit/rpc-openrpc.test.ts: all registered). */
export function documentedMethods(): string[] {
  return FILES.flatMap((f) => [...Object.keys(f.EXAMPLES ?? {}), ...Object.keys(f.POSITIONAL_EXAMPLES ?? {}), ...Object.keys(f.DESCRIPTIONS ?? {})]);
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

function descriptionOf(name: string): string | undefined {
  for (const file of FILES) {
    const description = file.DESCRIPTIONS?.[name];
    if (description !== undefined) return description;
  }
  return undefined;
}

/**
 * Adds the description (after the definition's own, which says how the method works) and the
 * examples to each definition that has none of its own.
 */
export function withMethodDocs(definitions: MethodDefinition[]): MethodDefinition[] {
  return definitions.map((d) => {
    const description = descriptionOf(d.name);
    const examples = d.examples === undefined ? examplesOf(d) : undefined;
    if (description === undefined && examples === undefined) return d;
    return {
      ...d,
      ...(description !== undefined ? { description: d.description !== undefined ? `${d.description} ${description}` : description } : {}),
      ...(examples !== undefined ? { examples } : {}),
    };
  });
}
