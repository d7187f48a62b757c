// The mempool's own work for a block (docs/performance.md "Selection from a pool of queued
// bundles"): admitting signed bundles, selecting a block's worth and the bookkeeping after it
// executed, with 10,000 accounts whose nonces arrive out of order (most wait queued behind a gap
// first), against the same bundles arriving in nonce order, in the same run (STYLE.md: a ratio
// against a baseline measured in the same process).
//
// Importable (bench/index.ts) and runnable alone after tsc: `node dist/bench/mempool.js`.

import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Mempool, type PendingBundle } from '../src/chain/mempool.js';
import type { BenchResult } from './rpc.js';

const NOW = 1_767_225_600n;
const BLOCK = 10_000;

interface Phases { admit: number; select: number; executed: number; blocks: number }

/**
 * This thread's CPU milliseconds where Node reports them (process.threadCpuUsage, Node 22.19+): on
 * a shared machine a wall clock also counts the time the thread waited for a core. Else wall time.
 */
const threadCpuUsage = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage;
const CLOCK = threadCpuUsage ? 'thread CPU time' : 'wall time';
function now(): number {
  if (!threadCpuUsage) return performance.now();
  const usage = threadCpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** Entries as the submission gate builds them; the pool reads only these fields. */
function entries(accounts: number, perAccount: number): PendingBundle[][] {
  const byAccount: PendingBundle[][] = [];
  for (let a = 0; a < accounts; a++) {
    const account = new Uint8Array(32);
    new DataView(account.buffer).setUint32(0, a);
    const accountKey = Buffer.from(account).toString('latin1');
    const own: PendingBundle[] = [];
    for (let n = 0; n < perAccount; n++) {
      const hash = new Uint8Array(32);
      new DataView(hash.buffer).setUint32(0, a);
      new DataView(hash.buffer).setUint32(4, n);
      own.push({
        hash, hashKey: Buffer.from(hash).toString('hex'), bytes: new Uint8Array(0), account, accountKey, nonce: BigInt(n),
        expiresAt: NOW + 3600n, priorityFee: 0n, auth: { kind: 1, keyHash: new Uint8Array(32), pubkey: new Uint8Array(32) }, nodeAssigned: false,
      });
    }
    byAccount.push(own);
  }
  return byAccount;
}

/**
 * Arrival order: round by round, every account sends one bundle a round (as the signed-transfer
 * bench's batches do). In order, round r carries nonce r; out of order, each account's nonces come
 * in a random order of its own, so up to all but one wait queued until the gap before them fills.
 */
function arrivals(byAccount: PendingBundle[][], outOfOrder: boolean, seed: number): PendingBundle[] {
  let s = seed >>> 0;
  const random = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const orders = byAccount.map((own) => {
    const order = own.slice();
    if (outOfOrder) {
      for (let i = order.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [order[i], order[j]] = [order[j]!, order[i]!];
      }
    }
    return order;
  });
  const out: PendingBundle[] = [];
  for (let r = 0; r < byAccount[0]!.length; r++) for (const order of orders) out.push(order[r]!);
  return out;
}

/**
 * The node's cycle: a block's worth of bundles arrives, then a block is selected and executed
 * (every bundle succeeds), until the pool is empty. Times the pool's three parts apart.
 */
function run(sequence: PendingBundle[], accounts: number, perAccount: number): Phases {
  const pool = new Mempool({ maxQueued: accounts * perAccount, maxBundles: accounts * perAccount });
  const phases: Phases = { admit: 0, select: 0, executed: 0, blocks: 0 };
  // The committed nonce of each account, as the node's stateNonce answers it.
  const committed = new Map<string, bigint>();
  let next = 0;
  while (next < sequence.length || pool.size > 0) {
    const t0 = now();
    for (const end = Math.min(sequence.length, next + BLOCK); next < end; next++) {
      const entry = sequence[next]!;
      const admission = pool.add(entry, committed.get(entry.accountKey) ?? 0n, NOW);
      if (!admission.ok) throw new Error(`bench: refused ${admission.refusal.status}`);
    }
    const t1 = now();
    const selected = pool.selectReady(BLOCK);
    const t2 = now();
    for (const entry of selected) pool.executed(entry);
    const t3 = now();
    for (const entry of selected) committed.set(entry.accountKey, entry.nonce + 1n);
    phases.admit += t1 - t0;
    phases.select += t2 - t1;
    phases.executed += t3 - t2;
    phases.blocks++;
  }
  return phases;
}

export async function benchMempool(options: { accounts?: number; perAccount?: number; rounds?: number } = {}): Promise<BenchResult[]> {
  const accounts = options.accounts ?? 10_000;
  const perAccount = options.perAccount ?? 8;
  const rounds = options.rounds ?? 3;
  const byAccount = entries(accounts, perAccount);
  const inOrder = arrivals(byAccount, false, 1);
  const outOfOrder = arrivals(byAccount, true, 1);
  // Warm up both paths, then alternate so that a noisy neighbour weighs on both alike.
  run(inOrder, accounts, perAccount);
  run(outOfOrder, accounts, perAccount);
  const sum = (a: Phases, b: Phases): Phases => ({ admit: a.admit + b.admit, select: a.select + b.select, executed: a.executed + b.executed, blocks: a.blocks + b.blocks });
  let ordered: Phases = { admit: 0, select: 0, executed: 0, blocks: 0 };
  let gapped: Phases = { ...ordered };
  for (let i = 0; i < rounds; i++) {
    ordered = sum(ordered, run(inOrder, accounts, perAccount));
    gapped = sum(gapped, run(outOfOrder, accounts, perAccount));
  }
  const total = accounts * perAccount * rounds;
  const perBlock = (p: Phases) => ((p.select + p.executed) * BLOCK) / total;
  const per10k = (ms: number) => (ms * BLOCK) / total;
  const how = `${accounts} accounts × ${perAccount} bundles, arriving ${BLOCK} between blocks of ${BLOCK}; ${rounds} runs of each order, alternated; ${CLOCK}`;
  return [
    {
      name: 'mempool.block_bookkeeping_out_of_order_vs_in_order', value: round3(perBlock(gapped) / perBlock(ordered)), unit: 'ratio',
      note: `selection + the per-bundle bookkeeping after execution, per 10,000 bundles: ${round3(perBlock(gapped))} ms with each account's nonces arriving in a random order (most queued behind a gap first) against ${round3(perBlock(ordered))} ms in nonce order; ${how}`,
    },
    {
      name: 'mempool.admission_out_of_order_vs_in_order', value: round3(gapped.admit / ordered.admit), unit: 'ratio',
      note: `admission of 10,000 bundles: ${round3(per10k(gapped.admit))} ms out of order (queued, then promoted when the gap fills) against ${round3(per10k(ordered.admit))} ms in order`,
    },
    {
      name: 'mempool.selection_out_of_order_vs_in_order', value: round3(gapped.select / ordered.select), unit: 'ratio',
      note: `selectReady alone, per 10,000 selected: ${round3(per10k(gapped.select))} ms against ${round3(per10k(ordered.select))} ms`,
    },
  ];
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await benchMempool()) console.log(`${r.name}: ${r.value} ${r.unit} (${r.note})`);
}
