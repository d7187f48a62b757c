import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { makeEd25519Precheck } from './ed25519-rule.js';
import { SODIUM_NATIVE_PATH } from './ed25519-native.js';
import { ED25519_PUBLIC_KEY_BYTES, ED25519_SIGNATURE_BYTES, ML_DSA_65_PUBLIC_KEY_BYTES, ML_DSA_65_SIGNATURE_BYTES } from '../abi/constants.js';

/**
 * Signature verification off the main thread (docs/addresses-and-keys.md "Verifier pool").
 *
 * Batches travel as one transferable ArrayBuffer per worker message, not one postMessage per
 * signature. Ed25519 runs in the worker under the strict rule of ed25519-rule.ts — the worker
 * executes the very same precheck function (its source is sent along) — on libsodium first and on
 * node:crypto for what libsodium refuses, as keys.ts `verifyEd25519` does (ed25519-native.ts). ML-DSA-65 runs
 * in the worker too, on @noble/post-quantum loaded by absolute URL.
 *
 * Why an eval worker rather than a `verify-worker.js` file: the worker source is built from
 * functions of this module, so it is the same under vitest (running .ts sources) and from
 * compiled `dist/src/` — no file to copy at build time (tsconfig has allowJs false), no loader.
 * The functions it serialises must stay self-contained (no imports, no outer references).
 */

export interface VerifyItem {
  message: Uint8Array;
  signature: Uint8Array;
  publicKey: Uint8Array;
}

export interface SignatureVerifierPoolOptions {
  /** Worker threads; default available cores − 1, at least 1. */
  size?: number;
  /** Items per worker message; larger batches are split across workers. Default 512. */
  maxBatchItems?: number;
  /**
   * The workers' nice value (0–19; default 0, the process's own). Linux schedules threads, not
   * processes, so a worker that lowers its priority lowers only its own thread.
   */
  nice?: number;
}

interface Job {
  id: number;
  count: number;
  resolve: (results: Uint8Array) => void;
  reject: (error: Error) => void;
}

interface PoolWorker {
  worker: Worker;
  jobs: Map<number, Job>;
  pendingItems: number;
}

interface WorkerRequest {
  id: number;
  count: number;
  buffer: ArrayBuffer;
}

interface WorkerResponse {
  id: number;
  results?: Uint8Array;
  error?: string;
}

export class SignatureVerifierPool {
  readonly size: number;
  private readonly maxBatchItems: number;
  private readonly nice: number;
  private readonly workers: PoolWorker[] = [];
  private nextJobId = 1;
  private closed = false;
  private queued: Array<{ item: VerifyItem; resolve: (ok: boolean) => void; reject: (e: Error) => void }> = [];
  private flushScheduled = false;

  constructor(options: SignatureVerifierPoolOptions = {}) {
    this.size = Math.max(1, Math.floor(options.size ?? availableParallelism() - 1));
    this.maxBatchItems = Math.max(1, options.maxBatchItems ?? 512);
    this.nice = Math.min(19, Math.max(0, Math.floor(options.nice ?? 0)));
  }

  /**
   * One signature. Calls made in the same event-loop turn are coalesced into one batch
   * (flushed on setImmediate), so a burst of submissions costs a few worker messages.
   */
  verify(message: Uint8Array, signature: Uint8Array, publicKey: Uint8Array): Promise<boolean> {
    if (this.closed) return Promise.reject(new Error('SignatureVerifierPool is closed'));
    return new Promise((resolve, reject) => {
      this.queued.push({ item: { message, signature, publicKey }, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Verdicts in input order: Ed25519 (64-byte signature) or ML-DSA-65 (3,309); other lengths are false. */
  async verifyBatch(items: readonly VerifyItem[]): Promise<boolean[]> {
    if (this.closed) throw new Error('SignatureVerifierPool is closed');
    if (items.length === 0) return [];
    const chunks: Promise<Uint8Array>[] = [];
    // Spread a big batch over all workers, but never above maxBatchItems per message.
    const per = Math.min(this.maxBatchItems, Math.max(1, Math.ceil(items.length / this.size)));
    for (let start = 0; start < items.length; start += per) {
      chunks.push(this.dispatch(items.slice(start, start + per)));
    }
    const out: boolean[] = new Array(items.length);
    let i = 0;
    for (const results of await Promise.all(chunks)) {
      for (const r of results) out[i++] = r === 1;
    }
    return out;
  }

  /** Finishes queued and in-flight work, then stops the workers. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    const inFlight = this.workers.flatMap((w) => [...w.jobs.values()].map((job) => new Promise<void>((resolve) => {
      const { resolve: res, reject: rej } = job;
      job.resolve = (r) => { res(r); resolve(); };
      job.reject = (e) => { rej(e); resolve(); };
    })));
    await Promise.all(inFlight);
    await Promise.all(this.workers.map((w) => w.worker.terminate()));
    this.workers.length = 0;
  }

  private flush(): void {
    this.flushScheduled = false;
    const queued = this.queued;
    if (queued.length === 0) return;
    this.queued = [];
    this.verifyBatch(queued.map((q) => q.item)).then(
      (results) => queued.forEach((q, i) => q.resolve(results[i]!)),
      (error: Error) => queued.forEach((q) => q.reject(error)),
    );
  }

  private dispatch(items: readonly VerifyItem[]): Promise<Uint8Array> {
    const target = this.pickWorker();
    const id = this.nextJobId++;
    const buffer = packBatch(items);
    return new Promise<Uint8Array>((resolve, reject) => {
      target.jobs.set(id, { id, count: items.length, resolve, reject });
      target.pendingItems += items.length;
      if (target.jobs.size === 1) target.worker.ref();
      const request: WorkerRequest = { id, count: items.length, buffer };
      target.worker.postMessage(request, [buffer]);
    });
  }

  private pickWorker(): PoolWorker {
    if (this.workers.length < this.size) {
      // Spawn lazily: a pool that is never used starts no threads.
      const idle = this.workers.find((w) => w.jobs.size === 0);
      if (idle) return idle;
      const created = this.spawn();
      this.workers.push(created);
      return created;
    }
    let best = this.workers[0]!;
    for (const w of this.workers) if (w.pendingItems < best.pendingItems) best = w;
    return best;
  }

  private spawn(): PoolWorker {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { mlDsaUrl: ML_DSA_URL, sodiumPath: SODIUM_NATIVE_PATH, sizes: WORKER_SIZES, nice: this.nice } });
    worker.unref(); // referenced only while it has jobs, so an idle pool never holds the process open
    const entry: PoolWorker = { worker, jobs: new Map(), pendingItems: 0 };
    const finish = (job: Job): void => {
      entry.jobs.delete(job.id);
      entry.pendingItems -= job.count;
      if (entry.jobs.size === 0) worker.unref();
    };
    worker.on('message', (response: WorkerResponse) => {
      const job = entry.jobs.get(response.id);
      if (!job) return;
      finish(job);
      if (response.results) job.resolve(response.results);
      else job.reject(new Error(`signature worker failed: ${response.error ?? 'no result'}`));
    });
    const failAll = (error: Error): void => {
      for (const job of [...entry.jobs.values()]) {
        finish(job);
        job.reject(error);
      }
      const index = this.workers.indexOf(entry);
      if (index >= 0) this.workers.splice(index, 1); // a replacement is spawned on next use
    };
    worker.on('error', (error) => failAll(error));
    worker.on('exit', (code) => {
      if (entry.jobs.size > 0) failAll(new Error(`signature worker exited with code ${code}`));
    });
    return entry;
  }
}

/** Layout per item: u32 message length, u32 signature length, u32 key length, then the three byte strings. */
function packBatch(items: readonly VerifyItem[]): ArrayBuffer {
  let total = 0;
  for (const it of items) total += 12 + it.message.length + it.signature.length + it.publicKey.length;
  const buffer = new ArrayBuffer(total);
  const bytes = new Uint8Array(buffer);
  const view = new DataView(buffer);
  let pos = 0;
  for (const it of items) {
    view.setUint32(pos, it.message.length, true);
    view.setUint32(pos + 4, it.signature.length, true);
    view.setUint32(pos + 8, it.publicKey.length, true);
    pos += 12;
    bytes.set(it.message, pos);
    pos += it.message.length;
    bytes.set(it.signature, pos);
    pos += it.signature.length;
    bytes.set(it.publicKey, pos);
    pos += it.publicKey.length;
  }
  return buffer;
}

/** The ABI's key and signature sizes (abi/constants.mjs), handed to each worker. */
const WORKER_SIZES = {
  ed25519Signature: ED25519_SIGNATURE_BYTES, ed25519PublicKey: ED25519_PUBLIC_KEY_BYTES,
  mlDsa65Signature: ML_DSA_65_SIGNATURE_BYTES, mlDsa65PublicKey: ML_DSA_65_PUBLIC_KEY_BYTES,
};

/**
 * Runs inside the worker (serialised with toString; must stay self-contained). CommonJS context of
 * an eval worker: `require` is available, ESM packages come in through dynamic import.
 */
function verifyWorkerMain(
  precheck: (publicKey: Uint8Array, signature: Uint8Array) => boolean,
  dynamicImport: (url: string) => Promise<unknown>,
): void {
  const { parentPort, workerData } = require('node:worker_threads') as typeof import('node:worker_threads');
  // The key and signature sizes come in with the worker's data (the function cannot import them).
  const sizes = workerData.sizes as typeof WORKER_SIZES;
  // Called from this thread, setpriority with pid 0 changes this thread only (Linux).
  if (workerData.nice > 0) {
    try {
      require('node:os').setPriority(workerData.nice);
    } catch {
      // a platform without per-thread priorities keeps the default
    }
  }
  const crypto = require('node:crypto') as typeof import('node:crypto');
  // libsodium when its addon loads here too (ed25519-native.ts): its acceptance is final, its refusal
  // goes on to OpenSSL, so the verdicts are keys.ts verifyEd25519's.
  let sodium: { crypto_sign_verify_detached(s: Uint8Array, m: Uint8Array, k: Uint8Array): boolean } | undefined;
  try {
    if (workerData.sodiumPath) sodium = require(workerData.sodiumPath);
  } catch {
    sodium = undefined;
  }
  const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
  const CACHE_LIMIT = 8192;
  const keys = new Map<string, import('node:crypto').KeyObject | null>();
  type MlDsa = { verify: (sig: Uint8Array, msg: Uint8Array, pk: Uint8Array) => boolean };
  let mlDsa: Promise<MlDsa> | undefined;

  const ed25519 = (msg: Uint8Array, sig: Uint8Array, pk: Uint8Array): boolean => {
    if (!precheck(pk, sig)) return false;
    if (sodium) {
      try {
        if (sodium.crypto_sign_verify_detached(sig, msg, pk)) return true;
      } catch {
        // a throw counts as a refusal: OpenSSL decides below
      }
    }
    const id = Buffer.from(pk.buffer, pk.byteOffset, pk.length).toString('latin1');
    let key = keys.get(id);
    if (key === undefined) {
      try {
        key = crypto.createPublicKey({ key: Buffer.concat([SPKI_PREFIX, pk]), format: 'der', type: 'spki' });
      } catch {
        key = null;
      }
      if (keys.size >= CACHE_LIMIT) keys.clear();
      keys.set(id, key);
    }
    if (key === null) return false;
    try {
      return crypto.verify(null, msg, key, sig);
    } catch {
      return false;
    }
  };

  parentPort!.on('message', async (request: { id: number; count: number; buffer: ArrayBuffer }) => {
    try {
      const bytes = new Uint8Array(request.buffer);
      const view = new DataView(request.buffer);
      const results = new Uint8Array(request.count);
      let pos = 0;
      for (let i = 0; i < request.count; i++) {
        const ml = view.getUint32(pos, true);
        const sl = view.getUint32(pos + 4, true);
        const kl = view.getUint32(pos + 8, true);
        pos += 12;
        const msg = bytes.subarray(pos, (pos += ml));
        const sig = bytes.subarray(pos, (pos += sl));
        const pk = bytes.subarray(pos, (pos += kl));
        if (sl === sizes.ed25519Signature && kl === sizes.ed25519PublicKey) {
          results[i] = ed25519(msg, sig, pk) ? 1 : 0;
        } else if (sl === sizes.mlDsa65Signature && kl === sizes.mlDsa65PublicKey) {
          // Fail loudly rather than answer false for a valid signature.
          if (!workerData.mlDsaUrl) throw new Error('@noble/post-quantum/ml-dsa.js could not be resolved');
          mlDsa ??= dynamicImport(workerData.mlDsaUrl).then((m) => (m as { ml_dsa65: MlDsa }).ml_dsa65);
          const dsa = await mlDsa;
          try {
            results[i] = dsa.verify(sig, msg, pk) ? 1 : 0;
          } catch {
            results[i] = 0;
          }
        } else {
          results[i] = 0;
        }
      }
      parentPort!.postMessage({ id: request.id, results }, [results.buffer]);
    } catch (error) {
      parentPort!.postMessage({ id: request.id, error: String(error) });
    }
  });
}

// `import()` is written inside the string: test runners rewrite `import(` found in module code.
const WORKER_SOURCE = `'use strict';
(${verifyWorkerMain.toString()})((${makeEd25519Precheck.toString()})(), (url) => import(url));
`;

function resolveMlDsaUrl(): string | undefined {
  try {
    return pathToFileURL(createRequire(import.meta.url).resolve('@noble/post-quantum/ml-dsa.js')).href;
  } catch {
    return undefined;
  }
}

const ML_DSA_URL = resolveMlDsaUrl();
