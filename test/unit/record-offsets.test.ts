// Issue 44 item 2: every record's layout is generated from abi/state.mjs into assembly/abi.ts
// (R_<RECORD>_<FIELD>, _BYTES, _DATA, _<FIELD>_AFTER_<VARIABLE FIELD>; docs/core-abi.md "How the
// ABI is generated"), so no hand-written core file places a record's field by a number of its own.
// This fails when one does, naming the file and the text (fix: use the generated offset), and checks
// that the generated offsets agree with the host's generated decoders (src/abi/state.ts) for every
// record, on bytes built from the table.
//
// What the scan counts as a record pointer, per function: a variable assigned a state value's
// pointer (valPtr, beginWrite, or a wrapper that returns one: vw, sw, listItem, stValidator) and
// not moved afterwards (a pointer that walks, `p += 4 + len`, is past a variable field, where
// the numbers are lengths), the direct call, and a module buffer a record is built in and written
// with setValue. A hit is a literal offset from such a pointer (`load<u64>(p, 40)`,
// `store<u8>(w + 1, v)`, `memory.copy(REC + 33, …)`), except the second half of a u64 pair: a
// u128's high half (`load<u64>(p + R_POOL_RESERVE0, 8)`) or a u256's quarters after a named field.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as hostState from '../../src/abi/state.js';
import { GENERATED, handWritten, root } from './source-files.js';

/** Comments removed, so prose is not scanned. */
const codeOf = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');

/** Each load<T>(…)/store<T>(…) call: its pointer, its immediate offset (the last argument past value) and text. */
function calls(code: string): { type: string; ptr: string; imm: string | undefined; text: string; at: number }[] {
  const out: { type: string; ptr: string; imm: string | undefined; text: string; at: number }[] = [];
  const re = /\b(load|store)<(\w+)>\(/g;
  for (let m = re.exec(code); m; m = re.exec(code)) {
    let i = re.lastIndex, depth = 1, cur = '';
    const args: string[] = [];
    for (; i < code.length && depth; i++) {
      const c = code[i];
      if (c === '(' || c === '[') depth++;
      else if (c === ')' || c === ']') depth--;
      if (depth === 1 && c === ',') { args.push(cur.trim()); cur = ''; } else if (depth) cur += c;
    }
    args.push(cur.trim());
    out.push({ type: m[2], ptr: args[0], imm: m[1] === 'load' ? args[1] : args[2], text: code.slice(m.index, i), at: m.index });
  }
  return out;
}

/** Calls that give a state value's pointer. */
const SOURCES = ['valPtr', 'beginWrite', 'vw', 'sw', 'listItem', 'stValidator'];
const SOURCE_CALL = `(?:${SOURCES.join('|')})\\([^()]*(?:\\([^()]*\\))?[^()]*\\)`;

/** The file's functions (top-level declarations), and the module-level buffers written with setValue. */
function chunks(code: string): string[] {
  return code.split(/\n(?=(?:@inline\s+)?(?:export\s+)?function\s)/);
}
function moduleBuffers(code: string): Set<string> {
  const out = new Set<string>();
  for (const m of code.matchAll(/\bsetValue\(\s*[^,]+,\s*(?:bufPtr\()?(\w+)/g)) {
    if (new RegExp(`^const\\s+${m[1]}\\s*=\\s*(?:memory\\.data|bufNew)\\(`, 'm').test(code)) out.add(m[1]);
  }
  return out;
}

/** The hits in one hand-written core file, each as the matched text. */
function scanRecords(text: string): string[] {
  const code = codeOf(text);
  const buffers = moduleBuffers(code);
  const found: string[] = [];
  for (const fn of chunks(code)) {
    const ids = new Set(buffers);
    for (const m of fn.matchAll(new RegExp(`\\b(?:let|const)\\s+(\\w+)\\s*(?::\\s*\\w+\\s*)?=\\s*(?:<usize>)?${SOURCE_CALL}\\s*[;,]`, 'g'))) ids.add(m[1]);
    const rest = fn.replace(/\b(?:let|const)\s+\w+[^;]*;/g, '');
    for (const id of [...ids]) if (!buffers.has(id) && new RegExp(`\\b${id}\\s*(?:\\+=|-=|=(?!=))`).test(rest)) ids.delete(id);
    const isRecord = (ptr: string) => new RegExp(`^${SOURCE_CALL}`).test(ptr) || ids.has(/^\w+/.exec(ptr)?.[0] ?? '')
      || buffers.has(/^bufPtr\(\s*(\w+)\s*\)/.exec(ptr)?.[1] ?? '');
    const loadStore = new Set<number>();
    for (const c of calls(fn)) {
      loadStore.add(c.at);
      if (!isRecord(c.ptr)) continue;
      const named = /\bR_\w+/.test(c.ptr);
      const half = (n: string) => c.type === 'u64' && (n === '8' || (named && (n === '16' || n === '24')));
      if (c.imm !== undefined && /^\d+$/.test(c.imm) && +c.imm !== 0 && !half(c.imm)) found.push(c.text);
      else for (const m of c.ptr.matchAll(/\+\s*(\d+)\b(?!\s*[*<])/g)) if (!half(m[1])) { found.push(c.text); break; }
    }
    // any other use of a record pointer plus a literal: memory.copy(REC + 1, …), bytesEq(vp + 34, …)
    for (const m of fn.matchAll(new RegExp(`(?<![\\w.])(${SOURCE_CALL}|bufPtr\\(\\s*\\w+\\s*\\)|\\w+)\\s*\\+\\s*(\\d+)\\b(?!\\s*[*<])`, 'g'))) {
      if (+m[2] === 0 || !(isRecord(m[1]) || ids.has(m[1]))) continue;
      if (/\b(?:load|store)<\w+>\(\s*$/.test(fn.slice(Math.max(0, m.index - 40), m.index))) continue; // counted above
      found.push(m[0]);
    }
  }
  return found;
}

/**
 * Hits that remain, per file, each with why. A stale one fails too (it would hide a real hit).
 */
const REMAINING: Readonly<Record<string, readonly string[]>> = {};

describe('record layouts: generated for the core, used by hand-written code', () => {
  it('hand-written assembly/ places no record field by a number of its own', () => {
    expect(GENERATED.has('assembly/abi.ts')).toBe(true);
    const files = handWritten().filter((f) => f.startsWith('assembly/'));
    expect(files.length).toBeGreaterThan(40);
    const found: string[] = [];
    for (const f of files) for (const h of scanRecords(readFileSync(join(root, f), 'utf8'))) found.push(`${f}: ${h}`);
    const allowed = (hit: string) => Object.entries(REMAINING).some(([f, texts]) => texts.some((t) => hit === `${f}: ${t}`));
    expect(found.filter((h) => !allowed(h)), 'use the generated R_* offset of assembly/abi.ts').toEqual([]);
    for (const [f, texts] of Object.entries(REMAINING)) for (const t of texts) expect(found, `stale allowance ${f}: ${t}`).toContain(`${f}: ${t}`);
  });

  it('the scan recognises what the core wrote by hand before every record had offsets', () => {
    // a record read and written at literal offsets (the staking core's loadParams, the bridge's execClaim)
    expect(scanRecords('function f(): void {\n  let p = valPtr(e);\n  pEpochLength = load<u64>(p, 1);\n  pJailPtr = p + 63;\n}')).toEqual(['load<u64>(p, 1)', 'p + 63']);
    expect(scanRecords('function f(): void {\n  let wp = beginWrite(de, n);\n  store<u8>(wp, 1, 1);\n  store<u64>(wp + 92, ctxHeight);\n}')).toHaveLength(2);
    expect(scanRecords('function f(): void {\n  if (load<u8>(valPtr(k), 1) == ROLE_OWNER) count++;\n  memory.copy(MINT, valPtr(m) + 1, 32);\n}')).toHaveLength(2);
    // a record built in a module buffer and stored (the names domain's RegisterName)
    expect(scanRecords('const REC = memory.data(49);\nfunction f(): void {\n  store<u64>(REC + 33, ctxHeight);\n  setValue(e, REC, 49);\n}')).toEqual(['store<u64>(REC + 33, ctxHeight)']);
    // a record built in a module buffer through bufPtr (assembly/ops/accounts.ts before: the key count at 8)
    expect(scanRecords('const rec = bufNew(64);\nfunction f(): void {\n  store<u16>(bufPtr(rec) + 8, <u16>n);\n  setValue(e, bufPtr(rec), bufLen(rec));\n}')).toEqual(['store<u16>(bufPtr(rec) + 8, <u16>n)']);
    // named offsets, a u128's high half, a walking pointer and other pointers are not hits
    expect(scanRecords('function f(): void {\n  let p = valPtr(e);\n  U.add128(load<u64>(p + R_VALIDATOR_SELF_STAKE), load<u64>(p + R_VALIDATOR_SELF_STAKE, 8), lo, hi);\n}')).toEqual([]);
    expect(scanRecords('function f(): void {\n  let p = valPtr(e) + R_STABLE_PROFILE_CURRENCY;\n  p += 4 + load<u32>(p);\n  let c = p + 4;\n}')).toEqual([]);
    expect(scanRecords('function f(f: usize): void {\n  let lo = load<u64>(f, 32);\n  store<u64>(KEY + 33, bswap<u64>(id));\n}')).toEqual([]);
  });

  it('the generated offsets agree with the host decoders, for every record', async () => {
    const abi = readFileSync(join(root, 'assembly/abi.ts'), 'utf8');
    const generated = new Map([...abi.matchAll(/export const (R_\w+): \w+ = (\d+);/g)].map((m) => [m[1], Number(m[2])]));
    const snake = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
    const FIXED: Record<string, number> = { u8: 1, flag: 1, u16: 2, u32: 4, u64: 8, u128: 16, u256: 32, bytes32: 32 };
    type Field = { name: string; type: string | [string, string] };
    type Rec = { core?: string; fields: Field[] };
    const table = ((await import(join(root, 'abi/state.mjs'))) as { records: Record<string, Rec> }).records;

    /** A record's bytes from the table, each fixed field a distinct run; where each field starts and ends. */
    function build(name: string, seed: { n: number }): { bytes: number[]; at: Map<string, [number, number]> } {
      const bytes: number[] = [];
      const at = new Map<string, [number, number]>();
      const u32 = (v: number) => bytes.push(v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, v >>> 24);
      for (const fl of table[name].fields) {
        const start = bytes.length;
        const t = fl.type;
        if (typeof t === 'string' && t in FIXED) {
          if (t === 'flag') bytes.push(1);
          else for (let i = 0; i < FIXED[t]; i++) bytes.push((seed.n++ * 7 + 1) & 0xff);
        } else if (t === 'string' || t === 'bytes') { u32(2); bytes.push(0x61 + (seed.n++ % 26), 0x62); }
        else if (t === 'vec32' || t === 'vecu64') { u32(2); for (let i = 0; i < (t === 'vec32' ? 64 : 16); i++) bytes.push((seed.n++ * 5) & 0xff); }
        else if (t === 'rest32') for (let i = 0; i < 64; i++) bytes.push((seed.n++ * 3) & 0xff);
        else if (Array.isArray(t)) {
          if (t[0] === 'list') u32(1); else bytes.push(1);
          bytes.push(...build(t[1], seed).bytes);
        } else throw new Error(`record ${name}: no sample for ${JSON.stringify(t)}`);
        at.set(fl.name, [start, bytes.length]);
      }
      return { bytes, at };
    }
    const le = (v: unknown, n: number): number[] => {
      if (v instanceof Uint8Array) return [...v];
      if (typeof v === 'boolean') return [v ? 1 : 0];
      let x = BigInt(v as number | bigint);
      const out: number[] = [];
      for (let i = 0; i < n; i++) { out.push(Number(x & 0xffn)); x >>= 8n; }
      return out;
    };

    let checked = 0;
    for (const [name, rec] of Object.entries(table)) {
      const prefix = rec.core ?? `R_${snake(name)}`;
      const { bytes, at } = build(name, { n: 1 });
      const decode = (hostState as unknown as Record<string, (v: Uint8Array) => Record<string, unknown>>)[`decode${name}Fields`];
      expect(decode, `src/abi/state.ts decode${name}Fields`).toBeTypeOf('function');
      const decoded = decode(Uint8Array.from(bytes));
      let variable: Field | undefined;
      for (const fl of rec.fields) {
        const t = fl.type;
        const [start, end] = at.get(fl.name)!;
        const fixed = typeof t === 'string' && t in FIXED;
        if (!variable) {
          // up to the first variable field: an absolute offset for each field
          const off = generated.get(`${prefix}_${snake(fl.name)}`);
          expect(off, `${prefix}_${snake(fl.name)} (${name}.${fl.name})`).toBe(start);
          if (fixed) {
            expect(bytes.slice(off!, off! + FIXED[t as string]), `${name}.${fl.name} at ${off}`).toEqual(le(decoded[fl.name], FIXED[t as string]));
            checked++;
            continue;
          }
          variable = fl;
          const data = generated.get(`${prefix}_${snake(fl.name)}_DATA`);
          const items = t === 'string' ? [...new TextEncoder().encode(decoded[fl.name] as string)]
            : t === 'bytes' ? [...(decoded[fl.name] as Uint8Array)]
              : t === 'vec32' || t === 'rest32' ? (decoded[fl.name] as Uint8Array[]).flatMap((x) => [...x])
                : t === 'vecu64' ? (decoded[fl.name] as bigint[]).flatMap((x) => le(x, 8)) : undefined;
          if (items) expect(bytes.slice(data!, data! + items.length), `${prefix}_${snake(fl.name)}_DATA`).toEqual(items);
          else expect(data, `${prefix}_${snake(fl.name)}_DATA`).toBe(start + (t[0] === 'tail' ? 1 : 4));
          checked++;
          continue;
        }
        // after a variable field: offsets from its end, for the fixed fields and the variable field closing their run
        const prev = rec.fields[rec.fields.indexOf(fl) - 1];
        const after = rec.fields.slice(0, rec.fields.indexOf(fl)).reverse().find((f) => !(typeof f.type === 'string' && f.type in FIXED))!;
        const rel = generated.get(`${prefix}_${snake(fl.name)}_AFTER_${snake(after.name)}`);
        if (fixed || prev !== after) {
          expect(rel, `${prefix}_${snake(fl.name)}_AFTER_${snake(after.name)}`).toBe(start - at.get(after.name)![1]);
          if (fixed) expect(bytes.slice(start, end)).toEqual(le(decoded[fl.name], FIXED[t as string]));
          checked++;
        } else expect(rel).toBeUndefined();
      }
      if (!variable) expect(generated.get(`${prefix}_BYTES`), `${prefix}_BYTES`).toBe(bytes.length);
      // the host's own offsets of a record it reads in place (AccountOffsets, PoolOffsets) are the core's
      const hostOffsets = (hostState as unknown as Record<string, Record<string, number> | undefined>)[`${name}Offsets`];
      for (const [field, off] of Object.entries(hostOffsets ?? {})) expect(off, `${name}Offsets.${field}`).toBe(generated.get(`${prefix}_${snake(field)}`));
    }
    expect(Object.keys(hostState).filter((k) => k.endsWith('Offsets')).sort()).toEqual(['AccountOffsets', 'PoolOffsets']);
    expect(checked).toBeGreaterThan(400);
  });
});
