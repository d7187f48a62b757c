// Loads build/core.wasm (docs/core-abi.md) with plain WebAssembly.instantiate: in Node from the
// build/ folder next to this package (from src/ under vitest or dist/src/ after tsc), in a browser
// from bytes or a URL. The core imports kv_get/kv_read (state reads) and abort (a bug).

import type { CoreExports } from './exports.js';

// The project compiles without the DOM lib, so the WebAssembly global is typed here, narrowly.
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
/** A compiled WebAssembly.Module (opaque). */
export type WasmModule = object & { readonly __wasmModule?: never };
interface WasmApi {
  compile(bytes: Uint8Array | ArrayBuffer): Promise<WasmModule>;
  instantiate(module: WasmModule, imports: object): Promise<{ exports: Record<string, unknown> }>;
  Module: abstract new (...args: never[]) => object;
  RuntimeError: abstract new (...args: never[]) => Error;
}
export const Wasm: WasmApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** Host state the core reads on the first touch of a key (docs/core-abi.md `kv_get`). */
export interface StateReader {
  get(key: Uint8Array): Uint8Array | undefined;
}

// The raw exports of build/core.wasm are typed from assembly/index.ts (scripts/gen-abi.mjs →
// src/core/exports.ts); test/unit/core-exports.test.ts fails when the wasm exports differ from them.
export type { CoreExports };

/** `abort` inside the core: a bug. The instance must be discarded (docs/core-abi.md "Host imports"). */
export class CoreAbortError extends Error {
  constructor(
    readonly reason: string,
    readonly file: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`core abort: ${reason || 'unreachable'} at ${file || '?'}:${line}:${column}`);
    this.name = 'CoreAbortError';
  }
}

export type WasmSource = Uint8Array | ArrayBuffer | WasmModule | URL | string;

const isNode = typeof process !== 'undefined' && typeof process.versions?.node === 'string';

/** The wasm bytes of the release (or debug) core, found relative to this module file. */
async function readBuiltCore(debug: boolean): Promise<Uint8Array> {
  const file = debug ? 'core.debug.wasm' : 'core.wasm';
  // src/core/loader.ts → ../../build ; dist/src/core/loader.js → ../../../build
  const candidates = [new URL(`../../build/${file}`, import.meta.url), new URL(`../../../build/${file}`, import.meta.url)];
  if (isNode) {
    const fs = await import('node:fs/promises');
    for (const url of candidates) {
      try {
        return new Uint8Array(await fs.readFile(url));
      } catch {
        // try the next layout
      }
    }
    throw new Error(`build/${file} not found next to ${import.meta.url}; run "npm run build:core"`);
  }
  const res = await fetch(candidates[0]);
  if (!res.ok) throw new Error(`cannot fetch ${candidates[0].href}: ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

/** Compile the core once; instantiate many times (one instance per Core). */
export async function compileCore(source?: WasmSource, opts: { debug?: boolean } = {}): Promise<WasmModule> {
  if (source instanceof Wasm.Module) return source as WasmModule;
  let bytes: Uint8Array | ArrayBuffer;
  if (source === undefined) bytes = await readBuiltCore(opts.debug ?? false);
  else if (source instanceof URL || typeof source === 'string') {
    const url = source instanceof URL ? source : new URL(source, import.meta.url);
    if (isNode && url.protocol === 'file:') {
      const fs = await import('node:fs/promises');
      bytes = new Uint8Array(await fs.readFile(url));
    } else {
      const res = await fetch(url);
      if (!res.ok) throw new Error(`cannot fetch ${url.href}: ${res.status}`);
      bytes = await res.arrayBuffer();
    }
  } else bytes = source as Uint8Array | ArrayBuffer;
  return Wasm.compile(bytes);
}

/** Read an AssemblyScript string (UTF-16, byte length in the header 4 bytes before). */
function readAsString(mem: WasmMemory, ptr: number): string {
  if (!ptr) return '';
  const bytes = new Uint32Array(mem.buffer, ptr - 4, 1)[0]!;
  return String.fromCharCode(...new Uint16Array(mem.buffer, ptr, bytes >>> 1));
}

/** Instantiate the core over a state reader. */
export async function instantiateCore(module: WasmModule, reader: StateReader): Promise<CoreExports> {
  let memory: WasmMemory | undefined;
  let pending: Uint8Array | undefined;
  const env = {
    kv_get(ptr: number, len: number): number {
      const key = new Uint8Array(memory!.buffer, ptr, len).slice();
      const v = reader.get(key);
      pending = v;
      return v === undefined ? -1 : v.length;
    },
    kv_read(dst: number): void {
      if (pending !== undefined && pending.length > 0) new Uint8Array(memory!.buffer).set(pending, dst);
      pending = undefined;
    },
    abort(msg: number, file: number, line: number, column: number): never {
      let reason = '';
      let where = '';
      try {
        reason = readAsString(memory!, msg);
        where = readAsString(memory!, file);
      } catch {
        // memory may be unusable; the error still says where it happened if it can
      }
      throw new CoreAbortError(reason, where, line, column);
    },
  };
  const instance = await Wasm.instantiate(module, { env });
  const exports = instance.exports as unknown as CoreExports;
  memory = exports.memory;
  return exports;
}
