import { Command, Option } from 'clipanion';
import * as t from 'typanion';
import { runLoadTest } from '../client/loadtest.js';

const positive = t.cascade(t.isNumber(), [t.isAtLeast(0.001)]);
const count = t.cascade(t.isNumber(), [t.isInteger(), t.isAtLeast(1)]);

/**
 * `ntv-node loadtest`: signed transfers from N fresh accounts at a target rate against a running
 * node, reporting the achieved rate and the latency from submit to durable receipt
 * (src/client/loadtest.ts, docs/performance.md "Load test").
 */
export class LoadTestCommand extends Command {
  static override paths = [['loadtest']];

  static override usage = Command.Usage({
    description: 'Offer signed NTV transfers from fresh accounts at a target rate to a testnet node and report the achieved rate and p50/p90/p99 latency from submit to durable receipt (docs/performance.md "Load test").',
    examples: [
      ['1,000 transfers a second for 10 s', 'ntv-node loadtest --rpc http://127.0.0.1:9933'],
      ['5,000 a second from 10,000 accounts for 30 s, as JSON', 'ntv-node loadtest --rpc http://127.0.0.1:9933 --rate 5000 --accounts 10000 --duration 30 --json'],
    ],
  });

  rpc = Option.String('--rpc', { required: true, description: 'JSON-RPC URL of the node (start it with --rpc-rate-limit 0, or the limiter answers part of the load)' });
  rate = Option.String('--rate', '1000', { description: 'Transfers offered a second (default: 1000)', validator: positive });
  accounts = Option.String('--accounts', { description: 'Sending accounts, funded first with svc_transfer from --funder (default: twice the rate, so an account sends every two seconds)', validator: count });
  duration = Option.String('--duration', '10', { description: 'Seconds of sending (default: 10)', validator: positive });
  funder = Option.String('--funder', { description: 'Account the senders are funded from with the unsigned svc_transfer (testnet; default: the system account 0x…01)' });
  json = Option.Boolean('--json', false, { description: 'Print the result as one JSON object (default: a table)' });

  async execute(): Promise<number> {
    const log = (line: string) => this.context.stderr.write(`loadtest: ${line}\n`);
    try {
      const result = await runLoadTest({
        url: this.rpc, rate: this.rate, durationSeconds: this.duration, accounts: this.accounts ?? Math.max(1, Math.ceil(this.rate * 2)),
        ...(this.funder !== undefined ? { funder: this.funder } : {}), log,
      });
      if (this.json) this.context.stdout.write(`${JSON.stringify(result)}\n`);
      else {
        const l = result.latencyMs;
        this.context.stdout.write(
          `offered      ${result.offered}/s for ${this.duration} s (${result.sent} transfers)\n`
          + `achieved     ${result.achievedRate}/s with durable receipts (${result.confirmed} in ${result.seconds} s)\n`
          + `latency ms   p50 ${l.p50}  p90 ${l.p90}  p99 ${l.p99}  max ${l.max} (submit → durable receipt)\n`
          + `queued       ${result.queued} (answered at once behind a nonce gap)\n`
          + `failed       ${result.failed}${result.errors.length > 0 ? `: ${result.errors.join('; ')}` : ''}\n`);
      }
      return result.failed > 0 ? 1 : 0;
    } catch (error) {
      log((error as Error).message);
      return 1;
    }
  }
}
