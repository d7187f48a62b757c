import { Command, Option } from 'clipanion';
import cliProgress from 'cli-progress';
import * as t from 'typanion';
import { startNode, type NodeOptions } from '../node.js';
import { CHAIN_IDS } from '../chain/genesis-data.js';

const isPort = t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(0, 65535)]);
const isNonNegativeInteger = t.cascade(t.isNumber(), [t.isInteger(), t.isAtLeast(0)]);
const isPositiveNumber = t.cascade(t.isNumber(), [t.isAtLeast(0.5)]);

/**
 * `ntv-node run`: a single-validator node (spec §4.20). Flags of §4.20 that belong to features
 * not built yet (p2p, snapshots, pruning, metrics, governance) arrive with those features.
 */
export class RunCommand extends Command {
  static override paths = [['run'], Command.Default];

  static override usage = Command.Usage({
    description: 'Run a node: JSON-RPC on 127.0.0.1:9933, state in ./data, producing blocks as the validator.',
    examples: [
      ['A testnet node with defaults', 'ntv-node run'],
      ['Another data dir and port, verbose', 'ntv-node run -d /var/lib/ntv --rpc-port 19933 -v'],
      ['Free transactions and fast idle blocks', 'ntv-node run --gas-price 0 --block-time 2'],
    ],
  });

  dataDir = Option.String('-d,--data-dir', './data', { description: 'Data directory (default: ./data)' });
  network = Option.String('--network', 'testnet', {
    description: `Network: testnet (chain ${CHAIN_IDS.testnet}) or mainnet (chain ${CHAIN_IDS.mainnet}) (default: testnet)`,
    validator: t.isEnum(['testnet', 'mainnet'] as const),
  });
  rpcPort = Option.String('--rpc-port', '9933', { description: 'JSON-RPC port, HTTP and WebSocket (default: 9933)', validator: isPort });
  rpcHost = Option.String('--rpc-host', '127.0.0.1', {
    description: 'Address the RPC binds to; keep it local or trusted (spec §5.11) (default: 127.0.0.1)',
  });
  gasPrice = Option.String('--gas-price', '10', {
    description: 'nanoNTV per gas unit; 0 gives free transactions (default: 10)', validator: isNonNegativeInteger,
  });
  blockTime = Option.String('--block-time', '12', {
    description: 'Idle block interval in seconds; under load blocks follow every 0.5 s (default: 12)', validator: isPositiveNumber,
  });
  maxTxsPerBlock = Option.String('--max-txs-per-block', '10000', {
    description: 'Bundles per block at most (default: 10000)', validator: t.cascade(t.isNumber(), [t.isInteger(), t.isAtLeast(1)]),
  });
  rpcRateLimit = Option.String('--rpc-rate-limit', '100', {
    description: 'Per-IP JSON-RPC calls per second, 0 = unlimited (default: 100)', validator: isNonNegativeInteger,
  });
  validatorKey = Option.String('--validator-key', {
    description: 'File with the 64-hex-char Ed25519 secret key; generated into the data dir when absent (default: none)',
  });
  verbose = Option.Boolean('-v,--verbose', false, { description: 'Verbose logging (default: off)' });
  backfillIndexes = Option.Boolean('--backfill-indexes', false, {
    description: 'Rebuild the explorer indexes from stored blocks and receipts at start-up, before the RPC opens (default: off)',
  });

  async execute(): Promise<number> {
    const options: NodeOptions = {
      dataDir: this.dataDir,
      network: this.network,
      rpcHost: this.rpcHost,
      rpcPort: this.rpcPort,
      gasPrice: BigInt(this.gasPrice),
      blockTimeMs: Math.round(this.blockTime * 1000),
      maxTxsPerBlock: this.maxTxsPerBlock,
      rpcRateLimit: this.rpcRateLimit,
      validatorKeyPath: this.validatorKey,
      verbose: this.verbose,
      backfillIndexes: this.backfillIndexes,
    };
    // spec §4.20 --backfill-indexes: a progress bar on stderr (drawn only when stderr is a terminal).
    let bar: cliProgress.SingleBar | undefined;
    if (this.backfillIndexes) {
      let finished = false;
      options.onBackfillProgress = (done, total) => {
        if (finished) return;
        if (!bar) {
          bar = new cliProgress.SingleBar({
            format: 'backfilling explorer indexes [{bar}] {percentage}% | block {value}/{total} | {eta_formatted} left', stream: process.stderr,
          }, cliProgress.Presets.shades_classic);
          bar.start(total, done);
        }
        bar.update(done);
        if (done >= total) {
          bar.stop();
          finished = true;
        }
      };
    }
    const node = await startNode(options);
    await new Promise<void>((resolve) => {
      const shutdown = (signal: string) => {
        node.logger.info('shutting down', { signal });
        void node.stop().then(resolve);
      };
      process.once('SIGINT', () => shutdown('SIGINT'));
      process.once('SIGTERM', () => shutdown('SIGTERM'));
    });
    return 0;
  }
}
