// The execution-result encoder (docs/storage.md "Execution results"): build/outcome.wasm, compiled
// from assembly/outcome/index.ts, run on the block writer's thread (block-batch.ts putBlock). It
// took the place of a JS encoder that was the largest item of that thread's CPU in a profile of
// block sync; the format, the layouts and the decoder stay in outcome-codec.ts.
//
// The wasm module has no copy of the per-kind field layouts: `loadOutcomeEncoder` writes
// outcome-codec.ts's LAYOUTS and ROW_LAYOUT into its memory once, so the encoder and the decoder
// read one table. It is loaded synchronously (a 2 KB module, no imports), on the first encode or
// when the writer thread starts; the main thread, which only decodes, never loads it.

import { readFileSync } from 'node:fs';
import { EVENT_HEAD, HEAD, ROW } from '../core/block-result.js';
import { LAYOUTS, OUTCOME_CODEC_VERSION, ROW_LAYOUT } from './outcome-codec.js';

/** The raw exports of build/outcome.wasm (assembly/outcome/index.ts). */
export interface OutcomeExports {
  readonly memory: { readonly buffer: ArrayBuffer };
  layouts(): number;
  init(codecVersion: number, head: number, row: number, eventHead: number): number;
  input(len: number): number;
  output_ptr(): number;
  encode(len: number): number;
}

// The project compiles without the DOM lib: the synchronous WebAssembly API, typed narrowly.
interface WasmSync {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}
const Wasm = (globalThis as unknown as { WebAssembly: WasmSync }).WebAssembly;

/** The module's layout table: 256 event kinds then the bundle row, each a field count u8 and 16 field codes. */
const MAX_FIELDS = 16;
const ENTRY = 1 + MAX_FIELDS;
const ROW_SLOT = 256;

/** The module's negative results (assembly/outcome/index.ts E_*). */
const ERRORS: Readonly<Record<number, string>> = {
  [-1]: 'the encoder has no layout table',
  [-2]: 'the input is longer than the encoder prepared for',
  [-3]: 'shorter than its head',
  [-4]: 'its results count runs past the end',
  [-5]: 'an event runs past the end',
  [-6]: 'an event\'s bundle index is below the previous event\'s',
  [-7]: 'bytes after the last event',
  [-8]: 'the value table outgrew its region',
};

/** build/outcome.wasm, found relative to this module file (src/ under vitest, dist/src/ after tsc), as src/core/loader.ts finds core.wasm. */
function readBuiltModule(): Uint8Array {
  // src/storage/outcome-wasm.ts → ../../build ; dist/src/storage/outcome-wasm.js → ../../../build
  for (const url of [new URL('../../build/outcome.wasm', import.meta.url), new URL('../../../build/outcome.wasm', import.meta.url)]) {
    try {
      return readFileSync(url);
    } catch {
      // try the next layout
    }
  }
  throw new Error(`build/outcome.wasm not found next to ${import.meta.url}; run "npm run build:core"`);
}

/** An instance of build/outcome.wasm with the layout table written; one per thread serves (`encodeOutcome`). */
export class OutcomeEncoder {
  readonly wasm: OutcomeExports;

  constructor() {
    this.wasm = new Wasm.Instance(new Wasm.Module(readBuiltModule()), {}).exports as unknown as OutcomeExports;
    const table = new Uint8Array(this.wasm.memory.buffer, this.wasm.layouts(), (ROW_SLOT + 1) * ENTRY);
    const put = (slot: number, layout: readonly number[]) => {
      if (layout.length === 0 || layout.length > MAX_FIELDS) throw new Error(`outcome layout ${slot}: ${layout.length} fields`);
      table[slot * ENTRY] = layout.length;
      table.set(layout, slot * ENTRY + 1);
    };
    for (const [kind, layout] of Object.entries(LAYOUTS)) put(Number(kind), layout);
    put(ROW_SLOT, ROW_LAYOUT);
    const wrong = this.wasm.init(OUTCOME_CODEC_VERSION, HEAD, ROW, EVENT_HEAD);
    if (wrong !== 0) throw new Error(`build/outcome.wasm refused the layout table (${wrong}): rebuild it ("npm run build:core")`);
  }

  /**
   * The stored form of the core's BlockResult bytes (outcome-codec.ts). Throws RangeError when `raw`
   * is truncated or inconsistent (a count or a length running past its end, bytes after the last
   * event, events out of bundle order): the module checks every read and writes nothing out of its
   * regions. The result is a fresh array of its exact size: a LevelDB batch keeps it until written.
   */
  encode(raw: Uint8Array): Uint8Array {
    const wasm = this.wasm;
    const at = wasm.input(raw.length);
    if (at === 0) throw new RangeError(`execution result of ${raw.length} bytes too large to encode`);
    // after input(): it may have grown the memory, which replaces its buffer
    const memory = new Uint8Array(wasm.memory.buffer);
    memory.set(raw, at);
    const n = wasm.encode(raw.length);
    if (n < 0) throw new RangeError(`execution result of ${raw.length} bytes not encoded: ${ERRORS[n] ?? `error ${n}`}`);
    const out = wasm.output_ptr();
    return memory.slice(out, out + n);
  }
}

let shared: OutcomeEncoder | undefined;

/** This thread's encoder, instantiated on the first call. */
export function loadOutcomeEncoder(): OutcomeEncoder {
  return (shared ??= new OutcomeEncoder());
}

/** The stored form of an execution result (OutcomeEncoder.encode), with this thread's encoder. */
export function encodeOutcome(raw: Uint8Array): Uint8Array {
  return (shared ?? loadOutcomeEncoder()).encode(raw);
}
