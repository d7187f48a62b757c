import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { MIX, mergeBatches, percentiles, runBatch, type BatchOptions, type BatchResult } from '../src/consensus/simulation/batch.js';
import type { BrokenRule } from '../src/consensus/simulation/world.js';
import { FlagReader } from './flags.js';

/**
 * `npm run sim -- --validators N --scenarios K --seed S` (issue 40 item 2, docs/consensus.md
 * "Simulator"): seeded scenarios of the consensus protocol over a simulated network in virtual
 * time, spread over worker threads. Worker w of W runs seeds S + w, S + w + W, …, so the set of
 * scenarios, and every result, depends on the flags alone, not on the number of workers.
 */

const USAGE = `npm run sim -- [--validators N] [--scenarios K] [--seed S] [--workers W] [--hostile] [--broken forget-lock] [--json]
  --validators N   4, 7, 16, 100 or any count ≥ 4; default the mix ${MIX.map((m) => `${m.validators}`).join('/')}
  --scenarios K    scenarios to run (default 10000)
  --seed S         the first scenario's seed; scenario i is seed S + i (default 1)
  --workers W      worker threads (default the machine's cores)
  --hostile        every scenario from the hostile family (default one in ten)
  --broken RULE    switch on a deliberately unsafe rule (forget-lock) to see the simulator catch it
  --json           print the report as one JSON line`;

interface Options extends BatchOptions {
  scenarios: number;
  seed: number;
  workers: number;
  json: boolean;
}

function parseArgs(argv: string[]): Options {
  const out: Options = { scenarios: 10_000, seed: 1, workers: availableParallelism(), json: false };
  const flags = new FlagReader(argv, USAGE);
  for (let flag = flags.next(); flag !== undefined; flag = flags.next()) {
    if (flag === '--validators') out.validators = flags.int(4);
    else if (flag === '--scenarios') out.scenarios = flags.int(1);
    else if (flag === '--seed') out.seed = flags.int(0);
    else if (flag === '--workers') out.workers = flags.int(1);
    else if (flag === '--hostile') out.hostile = true;
    else if (flag === '--broken') {
      const rule = flags.value();
      if (rule !== 'forget-lock') flags.fail('takes forget-lock');
      out.broken = rule as BrokenRule;
    } else if (flag === '--json') out.json = true;
    else if (flag === '--help' || flag === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else throw new Error(`unknown flag ${flag}\n${USAGE}`);
  }
  out.workers = Math.min(out.workers, out.scenarios);
  return out;
}

interface WorkerJob {
  first: number;
  count: number;
  stride: number;
  options: BatchOptions;
}

type WorkerMessage = { progress: number; violations: number } | { violation: BatchResult['violations'][number] } | { result: BatchResult };

function runWorkers(options: Options, onProgress: (done: number, violations: number) => void): Promise<BatchResult> {
  const { scenarios, seed, workers } = options;
  const batch: BatchOptions = { validators: options.validators, broken: options.broken, hostile: options.hostile };
  const done = new Array<number>(workers).fill(0);
  const violations = new Array<number>(workers).fill(0);
  return Promise.all(Array.from({ length: workers }, (_, w) => new Promise<BatchResult>((resolve, reject) => {
    const job: WorkerJob = { first: seed + w, count: Math.floor(scenarios / workers) + (w < scenarios % workers ? 1 : 0), stride: workers, options: batch };
    const worker = new Worker(fileURLToPath(import.meta.url), { workerData: job });
    worker.on('message', (m: WorkerMessage) => {
      if ('violation' in m) {
        const v = m.violation;
        process.stderr.write(`violation: ${v.kind} seed ${v.seed} (${v.validators} validators${v.hostile ? ', hostile' : ''}): ${v.detail}\n`);
      } else if ('progress' in m) {
        done[w] = m.progress;
        violations[w] = m.violations;
        onProgress(done.reduce((a, b) => a + b, 0), violations.reduce((a, b) => a + b, 0));
      } else resolve(m.result);
    });
    worker.on('error', reject);
    worker.on('exit', (code) => {
      if (code !== 0) reject(new Error(`worker ${w} exited with ${code}`));
    });
  }))).then(mergeBatches);
}

export interface SimReport {
  scenarios: number;
  seconds: number;
  workers: number;
  violations: BatchResult['violations'];
  byValidators: Array<{
    validators: number; scenarios: number; violations: number; live: number;
    resumeMs: ReturnType<typeof percentiles>; rounds: ReturnType<typeof percentiles>;
  }>;
}

function report(result: BatchResult, seconds: number, workers: number): SimReport {
  return {
    scenarios: result.scenarios, seconds, workers, violations: result.violations,
    byValidators: Object.entries(result.byValidators).map(([n, s]) => ({
      validators: Number(n), scenarios: s.scenarios, violations: s.violations, live: s.resumeMs.length,
      resumeMs: percentiles(s.resumeMs), rounds: percentiles(s.rounds),
    })),
  };
}

function print(r: SimReport, options: Options): void {
  const lines = [
    `${r.scenarios} scenarios in ${r.seconds.toFixed(1)} s on ${r.workers} workers (seeds ${options.seed}…${options.seed + options.scenarios - 1}${options.broken ? `, broken rule ${options.broken}` : ''})`,
    `violations: ${r.violations.length}`,
    'validators  scenarios  violations  live   resume after heal, virtual ms (p50 / p99 / max)   rounds after heal (p50 / p99 / max)',
    ...r.byValidators.map((b) => [
      String(b.validators).padStart(10), String(b.scenarios).padStart(10), String(b.violations).padStart(11), String(b.live).padStart(5),
      `   ${b.resumeMs ? `${b.resumeMs.p50} / ${b.resumeMs.p99} / ${b.resumeMs.max}` : '-'}`.padEnd(51),
      b.rounds ? `${b.rounds.p50} / ${b.rounds.p99} / ${b.rounds.max}` : '-',
    ].join(' ')),
    ...r.violations.slice(0, 20).map((v) => `  ${v.kind} seed ${v.seed} (${v.validators} validators${v.hostile ? ', hostile' : ''}): ${v.detail}\n    replay: npm run sim -- --seed ${v.seed} --scenarios 1 --validators ${v.validators}${v.hostile ? ' --hostile' : ''}${options.broken ? ` --broken ${options.broken}` : ''}`),
    ...(r.violations.length > 20 ? [`  … and ${r.violations.length - 20} more`] : []),
  ];
  console.log(lines.join('\n'));
}

if (!isMainThread) {
  const job = workerData as WorkerJob;
  const result = runBatch(job.first, job.count, job.stride, job.options, (progress, violations) => parentPort!.postMessage({ progress, violations } satisfies WorkerMessage),
    (violation) => parentPort!.postMessage({ violation } satisfies WorkerMessage));
  parentPort!.postMessage({ result } satisfies WorkerMessage);
} else if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  let options: Options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  const started = performance.now();
  let lastLine = 0;
  const result = await runWorkers(options, (done, violations) => {
    const now = performance.now();
    if (now - lastLine < 10_000) return;
    lastLine = now;
    process.stderr.write(`${done} of ${options.scenarios} scenarios, ${violations} violations, ${((now - started) / 1000).toFixed(0)} s\n`);
  });
  const r = report(result, (performance.now() - started) / 1000, options.workers);
  if (options.json) console.log(JSON.stringify(r));
  else print(r, options);
  process.exit(r.violations.length === 0 ? 0 : 1);
}
