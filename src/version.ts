/** The node's version (spec §9.3: returned by svc_version and web3_clientVersion). */
export const NODE_VERSION = '0.1.0';
export const CLIENT_NAME = 'ntv-node';

/** web3_clientVersion form: name/version/platform/runtime, as EVM tooling expects. */
export function clientVersion(): string {
  return `${CLIENT_NAME}/v${NODE_VERSION}/${process.platform}-${process.arch}/node${process.versions.node}`;
}

/**
 * The upgrade plans this release implements (docs/upgrades.md "Which binary runs which block"): a
 * plan is named after the release it moves the chain to, so a release implements the plan of its
 * own version and every earlier one listed here (a node syncing from genesis with the newest
 * release executes the blocks past every older upgrade). A binary stops before the block at the
 * height of an approved plan it does not implement (exit 42, spec §3).
 */
export const IMPLEMENTED_UPGRADES: readonly string[] = [`v${NODE_VERSION}`];

export function implementsUpgrade(name: string): boolean {
  return IMPLEMENTED_UPGRADES.includes(name);
}
