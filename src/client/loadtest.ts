import { parseAddress } from '../codec/address.js';
import { encodeBundle, signingHash, type Bundle } from '../codec/bundle.js';
import { Signer } from '../codec/keys.js';
import type { Operation } from '../codec/operations.js';
import { bundleGasOf } from './gas.js';

/**
 * A load generator against a running node (`ntv-node loadtest`, docs/performance.md "Load test"):
 * signed 1-raw-unit NTV transfers from `accounts` fresh accounts, offered at `rate` a second for
 * `durationSeconds`, each answered by `svc_submitBundle` once its block is durable. It reports the
 * rate achieved and the latency from submit to that durable receipt.
 *
 * Open loop: every tick a JSON-RPC batch of the transfers due is sent without waiting for the ones
 * in flight, so a slow node shows as latency and a lower achieved rate, not as a slower sender
 * (closed-loop senders hide queueing). A batch is answered once all of its bundles are in durable
 * blocks; each bundle's latency is its batch's, an upper bound (the batch's bundles are admitted
 * together and land in the same block or the next). All signing happens before the clock starts.
 * Accounts take turns, one transfer each per round, so an account's next nonce is sent
 * `accounts / rate` seconds after the previous one: with at least two block times between them it
 * is normally in a block already (a bundle ahead of its account's nonce is answered at once as
 * `queued`, counted apart, without a latency).
 */

export interface LoadTestOptions {
  /** JSON-RPC URL of the node */
  url: string;
  /** sending accounts, generated fresh and funded first */
  accounts: number;
  /** transfers offered a second */
  rate: number;
  durationSeconds: number;
  /** ticks a second: each sends the transfers due as one JSON-RPC batch (default 20) */
  ticksPerSecond?: number;
  /**
   * The account the senders are funded from with the unsigned `svc_transfer` (testnet only;
   * default the system account 0x…01 of a testnet genesis).
   */
  funder?: string;
  /** progress lines (funding, signing, sending) */
  log?: (line: string) => void;
}

export interface LoadTestResult {
  offered: number;
  /** transfers a second with a durable receipt, over the time from the first send to the last answer */
  achievedRate: number;
  sent: number;
  /** answered with a receipt of a durable block (status success) */
  confirmed: number;
  /** answered at once as queued behind a nonce gap */
  queued: number;
  /** refused or failed, with the first few messages */
  failed: number;
  errors: string[];
  /** submit → durable receipt, milliseconds */
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  seconds: number;
  /** the one recipient of every transfer (1 raw unit each): its balance counts what landed */
  recipient: string;
}

const NTV = 1_000_000_000n;
const SYSTEM_FUNDER = '0x' + '01'.padStart(64, '0');
const FUNDING_BATCH = 500;
/** transfers a 10 NTV funding pays for with room (the bench's 16 a funded account) */
const SENDS_PER_10_NTV = 16;

export async function runLoadTest(options: LoadTestOptions): Promise<LoadTestResult> {
  const { url, accounts, rate, durationSeconds } = options;
  const log = options.log ?? (() => undefined);
  if (!(accounts >= 1 && rate > 0 && durationSeconds > 0)) throw new RangeError('accounts ≥ 1, rate > 0 and duration > 0 are required');
  const ticksPerSecond = options.ticksPerSecond ?? 20;
  const total = Math.max(1, Math.round(rate * durationSeconds));
  const perAccount = Math.ceil(total / accounts);
  const signers = Array.from({ length: accounts }, () => Signer.generate());

  log(`funding ${accounts} accounts from ${options.funder ?? SYSTEM_FUNDER}`);
  const funding = 10n * NTV * BigInt(Math.ceil(perAccount / SENDS_PER_10_NTV));
  for (let i = 0; i < signers.length; i += FUNDING_BATCH) {
    const replies = await rpcBatch(url, signers.slice(i, i + FUNDING_BATCH).map((s) => ({
      method: 'svc_transfer', params: [options.funder ?? SYSTEM_FUNDER, s.address, 'NTV', String(funding)],
    })));
    const failed = replies.find((r) => r.error);
    if (failed) throw new Error(`funding the senders failed: ${failed.error!.message} (the load test funds its accounts with svc_transfer, a testnet method)`);
  }

  log(`signing ${total} transfers`);
  const recipient = Signer.generate().address;
  const to = parseAddress(recipient);
  const validUntil = BigInt(Math.floor(Date.now() / 1000)) + BigInt(Math.ceil(durationSeconds)) + 3600n;
  const operations: Operation[] = [{ type: 'Transfer', to, token: new Uint8Array(32), amount: 1n }];
  // The transfer's gas from the ABI's figures (src/client/gas.ts), as a wallet sets it.
  const maxGas = bundleGasOf(operations);
  const bundles: string[] = [];
  for (let n = 0; bundles.length < total; n++) {
    for (const s of signers) {
      if (bundles.length === total) break;
      const bundle: Bundle = {
        userAccount: s.account, operations,
        maxGas, maxPriorityFee: 0n, validUntil, nonce: BigInt(n), signature: new Uint8Array(0),
        // Every send reveals the key, as a wallet does until its key is registered (spec §5.3): a
        // bundle admitted before its account's first never lacks it.
        expiryTimestamp: undefined, senderPubkey: s.publicKey,
      };
      bundles.push('0x' + Buffer.from(encodeBundle({ ...bundle, signature: s.sign(signingHash(bundle)) })).toString('hex'));
    }
  }

  log(`sending ${rate}/s for ${durationSeconds} s`);
  const latencies: number[] = [];
  const errors: string[] = [];
  let confirmed = 0;
  let queued = 0;
  let failed = 0;
  let sent = 0;
  let lastAnswer = 0;
  const inFlight: Array<Promise<void>> = [];
  const started = performance.now();
  const tickMs = 1000 / ticksPerSecond;
  for (let tick = 0; sent < total; tick++) {
    const due = Math.min(total, Math.round(((tick + 1) * tickMs * rate) / 1000));
    const batch = bundles.slice(sent, due);
    sent = due;
    if (batch.length > 0) {
      const sentAt = performance.now();
      inFlight.push(rpcBatch(url, batch.map((hex) => ({ method: 'svc_submitBundle', params: [hex] }))).then(
        (replies) => {
          const ms = performance.now() - sentAt;
          lastAnswer = performance.now();
          for (const reply of replies) {
            const result = reply.result as { status?: string } | undefined;
            if (reply.error) {
              failed++;
              if (errors.length < 5) errors.push(`${reply.error.code}: ${reply.error.message}`);
            } else if (result?.status === 'queued') queued++;
            else {
              confirmed++;
              latencies.push(ms);
            }
          }
        },
        (error: unknown) => {
          lastAnswer = performance.now();
          failed += batch.length;
          if (errors.length < 5) errors.push(String(error));
        },
      ));
    }
    const wait = started + (tick + 1) * tickMs - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  await Promise.all(inFlight);
  const seconds = ((lastAnswer || performance.now()) - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => (latencies.length === 0 ? NaN : Math.round(latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!));
  return {
    offered: rate, achievedRate: Math.round(confirmed / seconds), sent, confirmed, queued, failed, errors,
    latencyMs: { p50: pct(50), p90: pct(90), p99: pct(99), max: pct(100) }, seconds: Math.round(seconds * 100) / 100, recipient,
  };
}

interface RpcReply { id: number; result?: unknown; error?: { code: number; message: string } }

async function rpcBatch(url: string, calls: Array<{ method: string; params: unknown[] }>): Promise<RpcReply[]> {
  const body = JSON.stringify(calls.map((c, id) => ({ jsonrpc: '2.0', id, method: c.method, params: c.params })));
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  if (!res.ok) throw new Error(`HTTP ${res.status} from ${url}`);
  const replies = (await res.json()) as RpcReply[] | RpcReply;
  // A whole-batch error (for example a batch over the node's size limit) comes back as one object.
  if (!Array.isArray(replies)) throw new Error(`the node refused the batch: ${replies.error?.message ?? 'no reply array'}`);
  return replies;
}
