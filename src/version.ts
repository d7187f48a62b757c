/** The node's version (spec §9.3: returned by svc_version and web3_clientVersion). */
export const NODE_VERSION = '0.1.0';
export const CLIENT_NAME = 'ntv-node';

/** web3_clientVersion form: name/version/platform/runtime, as EVM tooling expects. */
export function clientVersion(): string {
  return `${CLIENT_NAME}/v${NODE_VERSION}/${process.platform}-${process.arch}/node${process.versions.node}`;
}
