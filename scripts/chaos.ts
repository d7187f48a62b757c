import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RpcClient, type RpcBatchResult, type RpcCall } from '../src/client/index.js';
import { ed25519PublicKey, Signer } from '../src/codec/keys.js';
import { TestNode, freePort, sleep } from '../test/e2e/harness.js';
import { bundleFor, signedHex, systemAddressHex, transferOp } from '../test/e2e/bundles.js';
import { prng } from '../test/e2e/prng.js';
import { FlagReader } from './flags.js';

/**
 * Chaos on real processes (issue 40 item 3, docs/chaos.md): N validator processes over QUIC on
 * 127.0.0.1, signed transfers flowing, perturbed one at a time as CometBFT's e2e runner does —
 * pause (SIGSTOP … SIGCONT), kill -9 and restart on the same data dir, and network partitions that
 * heal. After every perturbation: the network finalizes again within the resume bound, every node
 * holds the same block hash at every height, and at the end every transfer whose receipt was
 * returned is in the chain of every node. The schedule comes from a seeded PRNG (`--seed`).
 *
 * Partitions are kernel routing rules (`ip rule … ipproto udp sport A dport B prohibit`) between the
 * UDP sockets of the two sides, inside a network namespace of the run's own (`unshare --net`), so
 * nothing outside the run sees them. That needs root; without it the run has no partitions and says
 * so (`partitions: "unavailable: …"`).
 */

export interface ChaosOptions {
  validators: number;
  /** seconds of perturbations (the start and the final checks come on top) */
  durationSeconds: number;
  seed: number;
  /** seconds from a heal to every node holding a new final block; default from the timeouts */
  resumeBoundSeconds?: number;
  blockTime?: number;
  failoverTimeout?: number;
  failoverStep?: number;
  /** accounts sending transfers, each one at a time (default 4) */
  senders?: number;
  /** kinds to draw from (default all that work here) */
  kinds?: PerturbationKind[];
  /** progress lines */
  log?: (line: string) => void;
  /** keep the data dirs and logs (default: only when the run fails) */
  keep?: boolean;
  /** the nodes log at debug level (--verbose), for reading a halt */
  verbose?: boolean;
}

export type PerturbationKind = 'pause' | 'kill' | 'partition';

export interface Perturbation {
  index: number;
  kind: PerturbationKind;
  /** validator indexes paused, killed, or on the first side of the partition */
  nodes: number[];
  /** how long the fault holds: paused, down before the restart, or partitioned */
  holdMs: number;
  /** quiet time before it */
  gapMs: number;
}

export interface PerturbationResult extends Perturbation {
  /** every node's height when the fault began and when it healed (-1: not answering) */
  heightsAtStart: number[];
  /** just before the heal, while the fault held (a paused or killed node: -1) */
  heightsInFault: number[];
  heightsAtHeal: number[];
  /** the highest height any node held when the fault healed */
  heightAtHeal: number;
  /** heal → every node holds a block above heightAtHeal; null: it never did */
  resumeMs: number | null;
}

export interface ChaosReport {
  seed: number;
  validators: number;
  durationSeconds: number;
  resumeBoundMs: number;
  timeouts: { blockTime: number; failoverTimeout: number; failoverStep: number };
  partitions: string;
  perturbations: PerturbationResult[];
  survived: number;
  longestResumeMs: number;
  /** heights at which two nodes hold different block hashes */
  forks: number;
  forkHeights: number[];
  heightsCompared: number;
  transfersAcknowledged: number;
  lostReceipts: number;
  /** per node: the block hash its receipt names instead, null (no receipt), the error it kept answering, or the height it stayed behind at */
  lost: Array<{ bundle_hash: string; block_height: number; node: number; found: string | null }>;
  finalHeights: number[];
  /** set when the network did not finalize again within 3 × the bound: it is taken as halted */
  halted: { afterPerturbation: number; height: number; waitedMs: number; nodes: HaltedNode[] } | null;
  /** set when a killed node did not come back (it exited or never answered): the run stops there */
  restartFailed: { afterPerturbation: number; node: number; message: string } | null;
  ok: boolean;
  /** where the nodes' logs are when they were kept */
  logs: string | null;
}

/** What a node said when the network was taken as halted (svc_consensusStatus, svc_validatorHealth). */
export interface HaltedNode { height: number; deciding_height?: number; round?: number; peers?: number; pending?: unknown; error?: string }

interface Receipt { status: string; block_height: number; block_hash: string; bundle_hash: string }
interface Ack { bundle_hash: string; block_height: number; block_hash: string }


/**
 * The default resume bound: five times one full turn of rounds (block time, the failover timeout and
 * a failover step for every other validator), at least 15 s. See docs/chaos.md "The resume bound".
 */
export function defaultResumeBoundMs(validators: number, blockTime: number, failoverTimeout: number, failoverStep: number): number {
  return Math.max(15_000, Math.round(5 * 1000 * (blockTime + failoverTimeout + failoverStep * (validators - 1))));
}

/**
 * The perturbations a seed gives, enough to fill `durationSeconds` if each took its hold and gap
 * only (the run stops drawing when its time is up).
 */
export function schedule(seed: number, validators: number, durationSeconds: number, kinds: PerturbationKind[]): Perturbation[] {
  const random = prng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  const between = (lo: number, hi: number) => Math.round(lo + random() * (hi - lo));
  const out: Perturbation[] = [];
  for (let spent = 0; spent < durationSeconds * 1000; ) {
    const kind = pick(kinds);
    let nodes: number[];
    if (kind === 'partition') {
      // One node cut off (the rest keep > 2/3 and go on), or the set split in two halves where
      // neither side has > 2/3 (the whole network waits for the heal).
      const order = Array.from({ length: validators }, (_, i) => i).sort(() => random() - 0.5);
      nodes = order.slice(0, random() < 0.5 ? 1 : Math.floor(validators / 2)).sort((a, b) => a - b);
    } else nodes = [Math.floor(random() * validators)];
    const holdMs = kind === 'partition' ? between(1000, 6000) : between(500, 3000);
    const gapMs = between(1000, 4000);
    out.push({ index: out.length, kind, nodes, holdMs, gapMs });
    spent += holdMs + gapMs + 2000;
  }
  return out;
}

/** UDP sockets by process, from `ss` in the run's namespace. */
function udpPortsByPid(): Map<number, number[]> {
  const out = new Map<number, number[]>();
  const text = execFileSync('ss', ['-uanpH'], { encoding: 'utf8' });
  for (const line of text.split('\n')) {
    const port = /\S+:(\d+)\s+\S+:\*/.exec(line)?.[1];
    if (!port) continue;
    for (const m of line.matchAll(/pid=(\d+)/g)) {
      const pid = Number(m[1]);
      out.set(pid, [...(out.get(pid) ?? []), Number(port)]);
    }
  }
  return out;
}

/**
 * A partition between two groups of processes: every UDP packet from a socket of one side to a
 * socket of the other is refused by the routing rules (EACCES to the sender, which QUIC treats as
 * loss). Rules are re-read every 250 ms while it holds, so a dial socket opened meanwhile is cut too.
 */
class Partition {
  private rules = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly sides: [() => number[], () => number[]]) {}

  static available(): string {
    if (process.env.NTV_CHAOS_NETNS !== '1') return 'unavailable: not in a network namespace of its own (needs root and unshare)';
    try {
      execFileSync('ip', ['rule', 'show'], { stdio: 'ignore' });
      execFileSync('ss', ['-uanpH'], { stdio: 'ignore' });
      return 'ip rule (udp port pairs) in a private network namespace';
    } catch (error) {
      return `unavailable: ${(error as Error).message}`;
    }
  }

  /** In the run's namespace: the local table's rule moves behind the partitions' (pref 10 < 100). */
  static prepareNamespace(): void {
    execFileSync('ip', ['link', 'set', 'lo', 'up']);
    execFileSync('ip', ['rule', 'add', 'pref', '100', 'lookup', 'local']);
    execFileSync('ip', ['rule', 'del', 'pref', '0', 'lookup', 'local']);
  }

  start(): void {
    this.refresh();
    this.timer = setInterval(() => this.refresh(), 250);
  }

  private refresh(): void {
    const ports = udpPortsByPid();
    const of = (pids: number[]) => pids.flatMap((p) => ports.get(p) ?? []);
    const [a, b] = [of(this.sides[0]()), of(this.sides[1]())];
    for (const x of a) {
      for (const y of b) {
        for (const [s, d] of [[x, y], [y, x]] as const) {
          const rule = `${s}:${d}`;
          if (this.rules.has(rule)) continue;
          execFileSync('ip', ['rule', 'add', 'pref', '10', 'ipproto', 'udp', 'sport', String(s), 'dport', String(d), 'prohibit']);
          this.rules.add(rule);
        }
      }
    }
  }

  heal(): void {
    clearInterval(this.timer);
    for (const rule of this.rules) {
      const [s, d] = rule.split(':');
      execFileSync('ip', ['rule', 'del', 'pref', '10', 'ipproto', 'udp', 'sport', s!, 'dport', d!, 'prohibit']);
    }
    this.rules.clear();
  }
}

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const n = options.validators;
  if (!(n >= 4 && n <= 7)) throw new RangeError('--validators must be 4 to 7');
  const log = options.log ?? (() => undefined);
  const blockTime = options.blockTime ?? 0.5;
  const failoverTimeout = options.failoverTimeout ?? 1;
  const failoverStep = options.failoverStep ?? 0.5;
  const boundMs = options.resumeBoundSeconds !== undefined ? Math.round(options.resumeBoundSeconds * 1000) : defaultResumeBoundMs(n, blockTime, failoverTimeout, failoverStep);
  const partitions = Partition.available();
  const kinds = (options.kinds ?? ['pause', 'kill', 'partition']).filter((k) => k !== 'partition' || !partitions.startsWith('unavailable'));
  const plan = schedule(options.seed, n, options.durationSeconds, kinds);

  const dir = await mkdtemp(join(tmpdir(), 'ntv-chaos-'));
  const nodes: TestNode[] = [];
  const logs: string[][] = Array.from({ length: n }, () => []);
  const p2pPorts: number[] = [];
  const boots: string[] = [];
  const down = new Set<number>();
  const results: PerturbationResult[] = [];
  const acks: Ack[] = [];
  let halted: ChaosReport['halted'] = null;
  let restartFailed: ChaosReport['restartFailed'] = null;
  const dead = new Set<number>();
  let stopSenders = false;
  let partition: Partition | undefined;
  let failed = true;

  // Whatever happens (an exception, SIGINT, SIGTERM), no node outlives the run.
  const killAll = () => {
    for (const node of nodes) {
      if (node?.pid === undefined) continue;
      for (const signal of ['SIGCONT', 'SIGKILL'] as const) {
        try {
          process.kill(node.pid, signal);
        } catch {
          // already gone
        }
      }
    }
  };
  const onSignal = (signal: NodeJS.Signals) => {
    killAll();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  process.once('exit', killAll);

  const seeds = Array.from({ length: n }, () => randomBytes(32));
  const keys = seeds.map((s) => Buffer.from(ed25519PublicKey(s)).toString('hex'));
  await writeFile(join(dir, 'params.json'), JSON.stringify({ slot_length: 1 }));
  const common = [
    '--genesis-validators', keys.join(','), '--chain-params', join(dir, 'params.json'), '--block-time', String(blockTime),
    '--failover-timeout', String(failoverTimeout), '--failover-step', String(failoverStep), '--p2p-host', '127.0.0.1',
    ...(options.verbose ? ['--verbose'] : []),
  ];
  const argsFor = (i: number, bootnodes: string[]) => [...common, '--validator-key', join(dir, `v${i}.key`), '--p2p-port', String(p2pPorts[i]),
    ...(bootnodes.length ? ['--bootnodes', bootnodes.join(',')] : [])];
  const client = (i: number, timeoutMs = 5_000) => new RpcClient(nodes[i]!.url, { timeoutMs });
  const height = async (i: number) => (await client(i).call<{ blockHeight: number }>('svc_getNetworkStats')).blockHeight;
  const heights = () => Promise.all(nodes.map((_, i) => height(i).catch(() => -1)));
  /** every node's height but those of `skip` (paused: they would not answer) */
  const heightsOf = (skip: number[]) => Promise.all(nodes.map((_, i) => (skip.includes(i) ? -1 : height(i).catch(() => -1))));

  try {
    for (let i = 0; i < n; i++) {
      await writeFile(join(dir, `v${i}.key`), seeds[i]!.toString('hex'));
      p2pPorts.push(await freePort());
      nodes.push(await TestNode.start({ dataDir: join(dir, `node${i}`), args: argsFor(i, boots) }));
      const health = await client(i).call<{ addresses: string[] }>('svc_validatorHealth');
      boots.push(health.addresses.find((a) => a.includes('127.0.0.1') && a.includes('/quic-v1/p2p/'))!);
    }
    log(`${n} validators up (${dir}); partitions: ${partitions}; resume bound ${boundMs} ms`);
    await waitFor('height 3 on every node', async () => (await heights()).every((h) => h >= 3), 60_000);

    // Senders: each account sends 1-unit transfers one at a time to a node not being perturbed; an
    // answer that is not a receipt (a paused or killed node, a timeout) sends the same bytes again
    // elsewhere, which is idempotent (a resubmitted included bundle answers with its receipt).
    const sendersCount = options.senders ?? 4;
    const signers = Array.from({ length: sendersCount }, () => Signer.generate());
    const recipient = Signer.generate().address;
    for (const s of signers) await client(0, 60_000).call('svc_transfer', [systemAddressHex(1), s.address, 'NTV', '100000000000']);
    const random = prng(options.seed ^ 0x5eed);
    const sender = async (signer: Signer) => {
      for (let nonce = 0n; !stopSenders; nonce++) {
        const hex = signedHex(signer, bundleFor(signer, nonce, [transferOp(recipient, 1n)], { senderPubkey: signer.publicKey, validUntil: BigInt(Math.floor(Date.now() / 1000) + 3600) }));
        while (!stopSenders) {
          const up = nodes.map((_, i) => i).filter((i) => !down.has(i));
          const i = up[Math.floor(random() * up.length)] ?? 0;
          try {
            const receipt = await client(i, 20_000).call<Receipt>('svc_submitBundle', [hex]);
            if (receipt.block_hash) {
              acks.push({ bundle_hash: receipt.bundle_hash, block_height: receipt.block_height, block_hash: receipt.block_hash });
              break;
            }
          } catch {
            // not acknowledged: try again
          }
          await sleep(200);
        }
      }
    };
    const senders = signers.map(sender);

    const runEnd = Date.now() + options.durationSeconds * 1000;
    for (const p of plan) {
      if (Date.now() + p.gapMs + p.holdMs > runEnd) break;
      await sleep(p.gapMs);
      // a node that ended by itself (or by a signal from outside the run) ends the run with its last lines
      const gone = nodes.findIndex((node) => node.ended !== undefined);
      if (gone >= 0) {
        restartFailed = { afterPerturbation: p.index - 1, node: gone, message: `the node process ${nodes[gone]!.ended} outside the plan:\n${nodes[gone]!.logs.split('\n').filter(Boolean).slice(-12).join('\n')}` };
        dead.add(gone);
        log(`node ${gone}: ${restartFailed.message}`);
        break;
      }
      log(`#${p.index} ${p.kind} ${p.nodes.join(',')} for ${p.holdMs} ms`);
      const heightsAtStart = await heights();
      let heightsInFault: number[] = [];
      for (const i of p.nodes) down.add(i);
      if (p.kind === 'pause') {
        process.kill(nodes[p.nodes[0]!]!.pid!, 'SIGSTOP');
        await sleep(p.holdMs);
        heightsInFault = await heightsOf(p.nodes);
        process.kill(nodes[p.nodes[0]!]!.pid!, 'SIGCONT');
      } else if (p.kind === 'kill') {
        const i = p.nodes[0]!;
        logs[i]!.push(nodes[i]!.logs);
        await nodes[i]!.kill9();
        await sleep(p.holdMs);
        heightsInFault = await heightsOf(p.nodes);
        // the same data dir and ports; every other validator as a bootnode
        try {
          nodes[i] = await TestNode.start({ dataDir: join(dir, `node${i}`), args: argsFor(i, boots.filter((_, j) => j !== i)) });
        } catch (error) {
          // the harness's error carries the node's output: its last lines say why
          restartFailed = { afterPerturbation: p.index, node: i, message: (error as Error).message.split('\n').filter(Boolean).slice(-12).join('\n') };
          dead.add(i);
          log(`#${p.index} node ${i} did not restart: ${restartFailed.message}`);
          break;
        }
      } else {
        const inside = p.nodes;
        const outside = nodes.map((_, i) => i).filter((i) => !inside.includes(i));
        partition = new Partition([() => inside.map((i) => nodes[i]!.pid!), () => outside.map((i) => nodes[i]!.pid!)]);
        partition.start();
        await sleep(p.holdMs);
        heightsInFault = await heightsOf([]);
        partition.heal();
        partition = undefined;
        const left = execFileSync('ip', ['rule', 'show', 'pref', '10'], { encoding: 'utf8' }).trim();
        if (left) throw new Error(`partition rules left after the heal:\n${left}`);
      }
      for (const i of p.nodes) down.delete(i);

      const heightsAtHeal = await heights();
      const top = Math.max(...heightsAtHeal);
      const healed = Date.now();
      let resumeMs: number | null = null;
      while (Date.now() - healed < 3 * boundMs) {
        if ((await heights()).every((h) => h > top)) {
          resumeMs = Date.now() - healed;
          break;
        }
        await sleep(100);
      }
      results.push({ ...p, heightsAtStart, heightsInFault, heightsAtHeal, heightAtHeal: top, resumeMs });
      log(`#${p.index} healed at height ${top}: ${resumeMs === null ? 'NO new block' : `resumed in ${resumeMs} ms`}`);
      if (resumeMs === null) {
        halted = { afterPerturbation: p.index, height: top, waitedMs: Date.now() - healed, nodes: await Promise.all(nodes.map((_, i) => haltedNode(client(i)))) };
        break;
      }
    }
    stopSenders = true;
    await Promise.all(senders);

    // Same block hash at every height every node holds (all of them are running now).
    // The final checks ask every node but one that did not restart.
    const alive = nodes.map((_, i) => i).filter((i) => !dead.has(i));
    // A node may trail the others by a block or two when the senders stop (one just restarted, or
    // fetching blocks its gossip missed): asked before it holds an acknowledged bundle's block, it
    // rightly answers null. The checks wait (up to a minute) for every node to reach the highest
    // acknowledged height; one that never does is reported with the height it stayed at.
    const acked = acks.reduce((top, ack) => Math.max(top, ack.block_height), 0);
    const reached = async (i: number) => (await height(i).catch(() => -1)) >= acked;
    for (const end = Date.now() + 60_000; Date.now() < end; await sleep(200)) {
      if ((await Promise.all(alive.map(reached))).every(Boolean)) break;
    }
    const finalHeights = await heights();
    const common_ = Math.min(...alive.map((i) => finalHeights[i]!));
    const hashes: string[][] = [];
    for (const i of alive) hashes.push(await blockHashes(client(i, 60_000), common_));
    const forkHeights: number[] = [];
    for (let h = 0; h <= common_; h++) if (new Set(hashes.map((x) => x[h])).size !== 1) forkHeights.push(h);

    // Every acknowledged transfer, on every node, in the block its receipt named.
    const lost: ChaosReport['lost'] = [];
    for (const i of alive) {
      // An error is no answer (a restarted node answers TX_INDEXING while its lookup index catches
      // up after the sync): asked again for up to a minute, then counted as lost with the error.
      let open = acks.map((_, k) => k);
      for (const end = Date.now() + 60_000; open.length > 0; await sleep(1000)) {
        const replies = await batched(client(i, 60_000), open.map((k) => ({ method: 'svc_getTransactionReceipt', params: [acks[k]!.bundle_hash] })));
        const again: number[] = [];
        replies.forEach((r, j) => {
          const ack = acks[open[j]!]!;
          if (!r.ok && Date.now() < end) again.push(open[j]!);
          else if (!r.ok) lost.push({ ...ack, node: i, found: `error: ${r.error.message}` });
          else if (finalHeights[i]! < ack.block_height) lost.push({ ...ack, node: i, found: `behind: the node stayed at height ${finalHeights[i]}` });
          else if ((r.result as Receipt | null)?.block_hash !== ack.block_hash) lost.push({ ...ack, node: i, found: (r.result as Receipt | null)?.block_hash ?? null });
        });
        open = again;
      }
    }

    const resumes = results.map((r) => r.resumeMs ?? Infinity);
    const longest = results.length ? Math.max(...resumes) : 0;
    const report: ChaosReport = {
      seed: options.seed, validators: n, durationSeconds: options.durationSeconds, resumeBoundMs: boundMs,
      timeouts: { blockTime, failoverTimeout, failoverStep }, partitions, perturbations: results,
      survived: results.filter((r) => r.resumeMs !== null && r.resumeMs <= boundMs).length,
      longestResumeMs: Number.isFinite(longest) ? longest : -1,
      forks: forkHeights.length, forkHeights: forkHeights.slice(0, 20), heightsCompared: common_ + 1,
      transfersAcknowledged: acks.length, lostReceipts: lost.length, lost: lost.slice(0, 20), finalHeights, halted, restartFailed, ok: false, logs: null,
    };
    report.ok = halted === null && restartFailed === null && report.forks === 0 && report.lostReceipts === 0 && report.survived === results.length && results.length > 0;
    failed = !report.ok;
    if (failed || options.keep) report.logs = dir;
    return report;
  } finally {
    stopSenders = true;
    // the nodes' logs on any failure, a setup step that threw too (read a halt from them)
    if (failed || options.keep) {
      for (let i = 0; i < nodes.length; i++) await writeFile(join(dir, `node${i}.log`), [...logs[i]!, nodes[i]!.logs].join('\n--- restarted ---\n')).catch(() => undefined);
    }
    partition?.heal();
    killAll();
    await Promise.all(nodes.map((node) => node.kill9().catch(() => undefined)));
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('exit', killAll);
    if (!failed && !options.keep) await rm(dir, { recursive: true, force: true });
    else log(`data dirs and logs kept in ${dir}`);
  }
}

async function haltedNode(client: RpcClient): Promise<HaltedNode> {
  try {
    const status = await client.call<{ height: number; deciding_height?: number; round?: number; pending?: unknown }>('svc_consensusStatus');
    const health = await client.call<{ peers: number }>('svc_validatorHealth');
    return { height: status.height, deciding_height: status.deciding_height, round: status.round, peers: health.peers, pending: status.pending };
  } catch (error) {
    return { height: -1, error: String(error) };
  }
}

async function waitFor(what: string, probe: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await probe().catch(() => false))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

/** Calls in batches of 200, results in order. */
async function batched(client: RpcClient, calls: RpcCall[]): Promise<RpcBatchResult[]> {
  const out: RpcBatchResult[] = [];
  for (let i = 0; i < calls.length; i += 200) out.push(...(await client.batch(calls.slice(i, i + 200))));
  return out;
}

async function blockHashes(client: RpcClient, upTo: number): Promise<string[]> {
  const calls = Array.from({ length: upTo + 1 }, (_, h) => ({ method: 'svc_getBlockByHeight', params: [h] }));
  return (await batched(client, calls)).map((b) => (b.ok ? (b.result as { hash?: string } | null)?.hash : undefined) ?? 'missing');
}

const USAGE = `npm run chaos -- [--validators 4..7] [--duration seconds] [--seed S] [--resume-bound seconds]
                    [--block-time s] [--failover-timeout s] [--failover-step s] [--senders n]
                    [--kinds pause,kill,partition] [--keep] [--verbose] [--json]`;

function parseArgs(argv: string[]): ChaosOptions & { json: boolean } {
  const out: ChaosOptions & { json: boolean } = { validators: 4, durationSeconds: 180, seed: Date.now() % 1_000_000, json: false };
  const flags = new FlagReader(argv, USAGE);
  for (let flag = flags.next(); flag !== undefined; flag = flags.next()) {
    if (flag === '--validators') out.validators = flags.num();
    else if (flag === '--duration') out.durationSeconds = flags.num();
    else if (flag === '--seed') out.seed = flags.num();
    else if (flag === '--resume-bound') out.resumeBoundSeconds = flags.num();
    else if (flag === '--block-time') out.blockTime = flags.num();
    else if (flag === '--failover-timeout') out.failoverTimeout = flags.num();
    else if (flag === '--failover-step') out.failoverStep = flags.num();
    else if (flag === '--senders') out.senders = flags.num();
    else if (flag === '--kinds') out.kinds = flags.value().split(',') as PerturbationKind[];
    else if (flag === '--keep') out.keep = true;
    else if (flag === '--verbose') out.verbose = true;
    else if (flag === '--json') out.json = true;
    else if (flag === '--help' || flag === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else throw new Error(`unknown flag ${flag}\n${USAGE}`);
  }
  if (!Number.isInteger(out.validators) || out.validators < 4 || out.validators > 7) throw new Error(`--validators takes 4 to 7\n${USAGE}`);
  if (out.kinds?.some((k) => !['pause', 'kill', 'partition'].includes(k))) throw new Error(`--kinds takes pause, kill and partition\n${USAGE}`);
  return out;
}

function print(report: ChaosReport): void {
  const lines = [
    `seed ${report.seed}, ${report.validators} validators, ${report.durationSeconds} s; partitions: ${report.partitions}`,
    `perturbations survived: ${report.survived} of ${report.perturbations.length} (${['pause', 'kill', 'partition'].map((k) => `${report.perturbations.filter((p) => p.kind === k).length} ${k}`).join(', ')})`,
    `longest time to resume: ${report.longestResumeMs < 0 ? 'never resumed' : `${report.longestResumeMs} ms`} (bound ${report.resumeBoundMs} ms)`,
    `forks: ${report.forks} (over ${report.heightsCompared} heights)${report.forks ? ` at ${report.forkHeights.join(', ')}` : ''}`,
    `lost receipts: ${report.lostReceipts} of ${report.transfersAcknowledged} acknowledged transfers`,
    ...report.perturbations.map((p) => `  #${p.index} ${p.kind} [${p.nodes.join(',')}] ${p.holdMs} ms: heights ${p.heightsAtStart.join(' ')} → ${p.heightsInFault.join(' ')} in the fault → ${p.heightsAtHeal.join(' ')} at the heal, ${p.resumeMs === null ? 'never resumed' : `resumed in ${p.resumeMs} ms`}`),
    ...(report.halted ? [
      `HALTED: no new block above height ${report.halted.height} within ${report.halted.waitedMs} ms after perturbation #${report.halted.afterPerturbation}`,
      ...report.halted.nodes.map((x, i) => `  node ${i}: ${x.error ?? `height ${x.height}, deciding ${x.deciding_height}, round ${x.round}, ${x.peers} peers, pending ${JSON.stringify(x.pending)}`}`),
    ] : []),
    ...(report.restartFailed ? [`RESTART FAILED: node ${report.restartFailed.node} after perturbation #${report.restartFailed.afterPerturbation}:\n${report.restartFailed.message}`] : []),
    `final heights: ${report.finalHeights.join(' ')}`,
    ...(report.logs ? [`logs: ${report.logs}`] : []),
    report.ok ? 'OK' : 'FAILED',
  ];
  console.log(lines.join('\n'));
}

// `npm run chaos` / `node dist/scripts/chaos.js`: as root, the run moves into a network namespace of
// its own first (partitions are routing rules there), then runs and prints its report.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  let options: ReturnType<typeof parseArgs>;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  if (process.env.NTV_CHAOS_NETNS === undefined && process.getuid?.() === 0 && hasUnshare()) {
    const child = spawn('unshare', ['--net', '--', process.execPath, ...process.execArgv, process.argv[1], ...process.argv.slice(2)], {
      stdio: 'inherit', env: { ...process.env, NTV_CHAOS_NETNS: '1' },
    });
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
    child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  } else await main(options);
}

function hasUnshare(): boolean {
  try {
    execFileSync('unshare', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function main(options: ReturnType<typeof parseArgs>): Promise<void> {
  if (process.env.NTV_CHAOS_NETNS === '1') Partition.prepareNamespace();
  const report = await runChaos({ ...options, log: (line) => process.stderr.write(`[chaos ${new Date().toISOString().slice(11, 19)}] ${line}\n`) });
  if (options.json) console.log(JSON.stringify(report));
  else print(report);
  process.exit(report.ok ? 0 : 1);
}
