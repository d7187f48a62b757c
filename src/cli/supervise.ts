import { Command, Option } from 'clipanion';
import { createLogger, LOG_FORMATS, type LogFormat } from '../logger.js';
import { DEFAULT_BACKOFF_MS, DEFAULT_MAX_FAILURES, DEFAULT_ROLLBACK_WINDOW_MS, Supervisor } from '../supervisor/supervisor.js';

/**
 * `ntv-node supervise [--] <node flags>` (spec §3 "Node upgrade"; docs/upgrades.md "The
 * supervisor"): runs `ntv-node run <node flags>` and swaps releases at approved upgrades.
 */
export class SuperviseCommand extends Command {
  static override paths = [['supervise']];

  static override usage = Command.Usage({
    description: 'Run the node under the upgrade supervisor: at an approved upgrade (exit 42) it verifies, swaps and restarts the release; it rolls back a release that crashes within 60 s and restarts failed nodes with backoff.',
    details: 'Supervisor options, first: --backoff-ms A,B,… (default 2000,4000,8000,16000,32000; the last repeats), --rollback-window-ms N (60000), --max-failures N (10), --recheck-ms N (30000), --log-format F. Everything after them (after `--`, which is optional) goes to `ntv-node run`. The release of an upgrade named N is <data-dir>/upgrades/N/release.tgz, fetched from the plan\'s binary URL when absent; its SHA-256 must equal the plan\'s checksum (docs/upgrades.md).',
    examples: [
      ['Supervise a validator', 'ntv-node supervise -- -d /var/lib/ntv --validator-key /etc/ntv/key'],
      ['Faster retries (tests)', 'ntv-node supervise --backoff-ms 100,200 --rollback-window-ms 5000 -- -d ./data'],
    ],
  });

  // Everything goes through one proxy: the supervisor's own options (below) come first, then `--`
  // (optional) and the node's flags, which `ntv-node run` parses itself.
  args = Option.Proxy();

  async execute(): Promise<number> {
    const o = parseSuperviseArgs(this.args);
    const logger = createLogger({ verbose: false, format: o.logFormat, sink: process.stderr });
    const supervisor = new Supervisor({ ...o, logger });
    process.once('SIGINT', () => supervisor.stop('SIGINT'));
    process.once('SIGTERM', () => supervisor.stop('SIGTERM'));
    return supervisor.run();
  }
}

const SUPERVISOR_OPTIONS = ['--backoff-ms', '--rollback-window-ms', '--max-failures', '--recheck-ms', '--log-format'];

/**
 * The supervisor's options, then the node's flags: `[--backoff-ms A,B,…] [--rollback-window-ms N]
 * [--max-failures N] [--recheck-ms N] [--log-format F] [--] <node flags>`. Throws naming the option.
 */
export function parseSuperviseArgs(argv: string[]): {
  nodeArgs: string[]; backoffMs: number[]; rollbackWindowMs: number; maxFailures: number; recheckMs: number; logFormat: LogFormat;
} {
  const out = {
    backoffMs: DEFAULT_BACKOFF_MS, rollbackWindowMs: DEFAULT_ROLLBACK_WINDOW_MS, maxFailures: DEFAULT_MAX_FAILURES, recheckMs: 30_000,
    logFormat: 'auto' as LogFormat,
  };
  const int = (flag: string, v: string | undefined, min: number) => {
    const n = Number(v);
    if (v === undefined || !Number.isInteger(n) || n < min) throw new Error(`${flag} must be an integer of at least ${min}`);
    return n;
  };
  let i = 0;
  for (; i < argv.length && SUPERVISOR_OPTIONS.includes(argv[i]!); i += 2) {
    const flag = argv[i]!;
    const value = argv[i + 1];
    if (flag === '--backoff-ms') {
      const list = (value ?? '').split(',').map((x) => Number(x.trim()));
      if (value === undefined || list.some((x) => !Number.isInteger(x) || x < 0)) throw new Error('--backoff-ms must be comma-separated non-negative integers (ms)');
      out.backoffMs = list;
    } else if (flag === '--rollback-window-ms') out.rollbackWindowMs = int(flag, value, 0);
    else if (flag === '--max-failures') out.maxFailures = int(flag, value, 1);
    else if (flag === '--recheck-ms') out.recheckMs = int(flag, value, 10);
    else {
      if (!LOG_FORMATS.includes(value as LogFormat)) throw new Error(`--log-format must be one of ${LOG_FORMATS.join(', ')}`);
      out.logFormat = value as LogFormat;
    }
  }
  const rest = argv.slice(i);
  return { ...out, nodeArgs: rest[0] === '--' ? rest.slice(1) : rest };
}
