import { Command } from 'clipanion';
import { CHAIN_IDS } from '../chain/genesis-data.js';
import { clientVersion, NODE_VERSION } from '../version.js';

/** `ntv-node version`: the node version (spec §9.3, as svc_version answers), and what it runs on. */
export class VersionCommand extends Command {
  static override paths = [['version']];

  static override usage = Command.Usage({
    description: 'Print the node version, the client string EVM tools see (web3_clientVersion) and the chain IDs.',
    examples: [['The version', 'ntv-node version']],
  });

  async execute(): Promise<number> {
    this.context.stdout.write(`ntv-node ${NODE_VERSION}\n`
      + `client   ${clientVersion()}\n`
      + `chains   testnet ${CHAIN_IDS.testnet}, mainnet ${CHAIN_IDS.mainnet}\n`);
    return 0;
  }
}
