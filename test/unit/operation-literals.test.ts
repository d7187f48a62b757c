// Issue 44 item 2: operations and the kinds and roles of the ABI are named once, in abi/
// (docs/core-abi.md "How the ABI is generated"). This fails when hand-written code in src/ or
// assembly/ (outside the generated files):
// - builds a made-up operation around bytes to reuse a generated reader (`op[41] = 1` in front of a
//   DAO action): read the part with the generated reader of that part instead (readNested,
//   readDaoAction, readProposalAction in src/abi/operations.ts); or keeps its own number for where
//   an operation sits in a bundle (`FIRST_OP_AT = 36`: BUNDLE_FIRST_OP_AT is the table's);
// - compares a kind or role field with a number, gives a number to a kind or role by a constant of
//   its own (`KIND_STD8 = 2`), or lists role names by number (`['owner', 'operator']`): add the
//   number to abi/ and import the generated name (KEY_ROLE_NAMES, STABLE_TRANSFER_ROLE_ROLE_VALUES);
// - reads or writes a decoded operation record at a literal offset (`load<u32>(op, 8)`) in the core:
//   each slot is named by the operation's row (`record`, else OPR_FIELDS/OPR_FIELDS_LEN) and
//   generated into assembly/decode-ops.ts (OPR_CREATE_TOKEN_SYMBOL, …);
// - reads an operation's fields at a literal offset in the core (`load<u64>(fields, 64)`,
//   `f + 32`): each field's offset is generated from its row into assembly/abi.ts
//   (OPF_<OPERATION>_<FIELD>, _DATA, _AFTER_<VARIABLE FIELD>; docs/core-abi.md "Operation payloads").
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { handWritten, root } from './source-files.js';

type Field = { name: string; type: string | [string, ...unknown[]] };
type Row = { name: string; core?: boolean; record?: (string | [string, string] | null)[]; fields: Field[] };
const { operations } = (await import(join(root, 'abi/operations.mjs'))) as { operations: Row[] };


/** Each line of `file` matching `re`, as "file:line: text". */
function hits(file: string, re: RegExp): string[] {
  const out: string[] = [];
  readFileSync(join(root, file), 'utf8').split('\n').forEach((line, i) => {
    if (re.test(line)) out.push(`${file}:${i + 1}: ${line.trim()}`);
  });
  return out;
}

/** Indexing a byte array named op/ops/operation at a literal position: a made-up operation envelope. */
const OP_ENVELOPE = /\b(?:op|ops|operation|envelope)\[\d+\]/;
/** A constant of its own for where an operation sits in a bundle (BUNDLE_FIRST_OP_AT is the table's). */
const OP_OFFSET_CONSTANT = /\b(?:const|let)\s+[A-Z0-9_]*(?:OP|OPERATION)S?_(?:AT|OFFSET|START)\s*(?::\s*\w+\s*)?=\s*\d+/;
/** A kind or role field compared with a number (either order), or set to one in an object literal. */
const KIND_ROLE_COMPARED = /\b(?:kind|role|[a-z][A-Za-z]*(?:Kind|Role))\b\s*(?:===|!==|==|!=|<=|>=|<|>)\s*\d+\b|\b\d+\s*(?:===|!==|==|!=)\s*[\w.]*\b(?:kind|role)\b|\b(?:kind|role)\s*:\s*\d+\b/;
/** A hand-written list of role names indexed by role number (KEY_ROLE_NAMES and the choice fields' *_VALUES are the table's). */
const ROLE_NAME_LIST = /\[\s*'owner',\s*'(?:operator|master_minter)'/;
/** A constant naming a kind or role with a number of its own (not a byte offset: those are usize). */
const KIND_ROLE_CONSTANT = /\b(?:const|let)\s+([A-Z0-9_]*(?:KIND|ROLE)[A-Z0-9_]*)\s*(?::\s*(u8|u16|u32|i32|number)\s*)?=\s*\d+/;
/**
 * Kind/role-named constants that are not the ABI's kinds or roles, each with why. Statuses are their
 * own source (assembly/status.ts, docs/core-abi.md "Statuses"); A_ROLE is a StableAdmin event's
 * action number, which belongs with the event kinds' table (the events' own conversion, issue 44).
 */
const KIND_ROLE_ALLOWED: Readonly<Record<string, readonly string[]>> = {
  'assembly/status.ts': ['KEY_ROLE_NOT_ALLOWED', 'WRONG_COLLECTION_KIND', 'INVALID_KEY_ROLE', 'ZERO_ADDRESS_ROLE'],
  'assembly/domains/stablecoins/ops.ts': ['A_ROLE'],
};

/** A load or store at a literal offset of a decoded 32-byte operation record (op, rec, rop). */
const OP_RECORD_SLOT = /\bload<[a-z0-9]+>\(\s*(?:op|rec|rop)\s*,\s*\d+\s*\)|\bstore<[a-z0-9]+>\(\s*(?:op|rec|rop)\s*,.*,\s*\d+\s*\);/g;
/**
 * Literal offsets these names take that are not into an operation record, per file, each with why
 * (none: token.ts's TokenRecord `rec` is read at its generated R_TOKEN_* offsets now,
 * test/unit/record-offsets.test.ts). Every operation record's slots are named by the table (OPR_*
 * in assembly/decode-ops.ts).
 */
const OP_RECORD_SLOTS: Readonly<Record<string, number>> = {};

const snake = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
const FIXED = new Set(['u8', 'bool', 'u16', 'u32', 'u64', 'u128', 'bytes32', 'bytes64']);
/**
 * The op record slots that hold a pointer into an operation's fixed fields, from the table:
 * OPR_FIELDS (the usual layout), and each row's slot whose source is a fixed field (CreateDao's
 * `fields` at its token_mint) or a tagged field's `Body` (CreateSchedule's `trigger`), with
 * whether that field is a u128 (whose high half at +8 is the value's, not a layout).
 */
const PAYLOAD_SLOTS: ReadonlyMap<string, { u128: boolean }> = new Map([['OPR_FIELDS', { u128: false }], ...operations.flatMap((o) =>
  (o.record ?? []).flatMap((e): [string, { u128: boolean }][] => {
    if (e === null) return [];
    const [slot, source] = Array.isArray(e) ? e : [e, e];
    const fl = o.fields.find((f) => f.name === source);
    const body = source.endsWith('Body') && o.fields.some((f) => f.name === source.slice(0, -4) && Array.isArray(f.type) && f.type[0] === 'tagged');
    if (!body && (fl === undefined || typeof fl.type !== 'string' || !FIXED.has(fl.type))) return [];
    return [[`OPR_${snake(o.name)}_${snake(slot)}`, { u128: fl?.type === 'u128' }]];
  }))]);

/**
 * The pointers into an operation's fields in one function of a hand-written core file: a handler's
 * `fields` parameter, an `f` parameter in assembly/ops/ and assembly/domains/ (the handlers'
 * name for the fields or a tagged variant's body), and a variable given a PAYLOAD_SLOTS slot.
 */
function payloadPointers(chunk: string, path: string): Map<string, { u128: boolean }> {
  const out = new Map<string, { u128: boolean }>();
  const sig = /^(?:@inline\s+)?(?:export\s+)?function\s+\w+\(([^)]*)\)/.exec(chunk);
  for (const param of sig?.[1].split(',') ?? []) {
    const name = /^\s*(\w+)\s*:\s*usize/.exec(param)?.[1];
    if (name === 'fields' || (name === 'f' && /^assembly\/(?:ops|domains)\//.test(path))) out.set(name, { u128: false });
  }
  for (const m of chunk.matchAll(/\b(\w+)\s*=\s*<usize>load<u32>\(\s*\w+\s*,\s*(OPR_\w+)\s*\)/g)) {
    const slot = PAYLOAD_SLOTS.get(m[2]);
    if (slot) out.set(m[1], slot);
  }
  return out;
}

/** A literal offset from a payload pointer: `p + 32`, `load<T>(p, 32)`, `ld(p, 32)`, `store<T>(p, v, 32)` (not a u128's high half +8). */
function payloadLiterals(code: string, path: string): string[] {
  const found: string[] = [];
  for (const chunk of code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '').split(/\n(?=(?:@inline\s+)?(?:export\s+)?function\s)/)) {
    for (const [p, { u128 }] of payloadPointers(chunk, path)) {
      const res = [
        new RegExp(`(?<![\\w.])${p}\\s*\\+\\s*(\\d+)\\b(?!\\s*[*<])`, 'g'),
        new RegExp(`\\bload<(\\w+)>\\(\\s*${p}\\s*,\\s*(\\d+)\\s*\\)`, 'g'),
        new RegExp(`\\b(ld)\\(\\s*${p}\\s*,\\s*(\\d+)\\s*\\)`, 'g'), // ld(p, o): a u64 load (dex, presales, staking pools)
        new RegExp(`\\bstore<(\\w+)>\\(\\s*${p}\\s*,[^;]*?,\\s*(\\d+)\\s*\\)\\s*;`, 'g'),
      ];
      for (const re of res) {
        for (const m of chunk.matchAll(re)) {
          const n = Number(m[m.length - 1]);
          const type = m.length > 2 ? m[1] : undefined;
          if (n === 0 || (u128 && n === 8 && (type === 'u64' || type === 'ld'))) continue;
          found.push(m[0]);
        }
      }
    }
  }
  return found;
}
/**
 * Literal offsets into an operation's fields left in hand-written handlers, per file, each with why.
 * Each is past a variable field, where the handler walks the payload by lengths it reads.
 */
const PAYLOAD_LITERALS: Readonly<Record<string, readonly string[]>> = {
  // ScheduleUpgrade's info_url lies after checksum[32], after the variable binary_url: the handler
  // reaches it from the checksum's own slot (OPR_SCHEDULE_UPGRADE_CHECKSUM) by that field's size.
  'assembly/domains/upgrades/ops.ts': ['checksum + 32', 'checksum + 36'],
  // ContractSafety { chain, contract, level }: the contract's u32 length and the level lie past the
  // chain's bytes; the check walks by the two lengths it reads (setContractSafety names them).
  'assembly/ops/safety.ts': ['f + 8'],
};

describe('operation, kind and role literals in hand-written code', () => {
  it('build no made-up operation around bytes to reuse a generated reader', () => {
    const found = handWritten().flatMap((f) => hits(f, OP_ENVELOPE));
    expect(found, 'read the part with its generated reader (readNested, readDaoAction, readProposalAction)').toEqual([]);
    const offsets = handWritten().flatMap((f) => hits(f, OP_OFFSET_CONSTANT));
    expect(offsets, 'name where an operation sits in abi/constants.mjs (BUNDLE_FIRST_OP_AT)').toEqual([]);
  });

  it('compare no kind or role with a number and define none of their own', () => {
    const found = handWritten().flatMap((f) => hits(f, KIND_ROLE_COMPARED));
    const constants = handWritten().flatMap((f) => hits(f, KIND_ROLE_CONSTANT).filter((h) => {
      const name = KIND_ROLE_CONSTANT.exec(h.slice(h.indexOf(': ') + 2))?.[1];
      return !(KIND_ROLE_ALLOWED[f] ?? []).includes(name!);
    }));
    const lists = handWritten().flatMap((f) => hits(f, ROLE_NAME_LIST));
    expect([...found, ...constants, ...lists], 'name the number in abi/ and import the generated constant (KEY_ROLE_NAMES, …_VALUES)').toEqual([]);
  });

  it('add no literal offset into a decoded operation record', () => {
    const counts: Record<string, number> = {};
    for (const f of handWritten().filter((f) => f.startsWith('assembly/'))) {
      const n = [...readFileSync(join(root, f), 'utf8').matchAll(OP_RECORD_SLOT)].length;
      if (n > 0) counts[f] = n;
    }
    expect(counts, "name the slot in the operation's row (`record`) and use its generated OPR_ name").toEqual(OP_RECORD_SLOTS);
  });

  it("read no operation's fields at a literal offset in the core", () => {
    expect(PAYLOAD_SLOTS.has('OPR_CREATE_DAO_FIELDS') && PAYLOAD_SLOTS.has('OPR_CREATE_SCHEDULE_TRIGGER') && PAYLOAD_SLOTS.get('OPR_CREATE_TOKEN_SUPPLY')?.u128).toBe(true);
    const found: Record<string, string[]> = {};
    for (const f of handWritten().filter((f) => f.startsWith('assembly/'))) {
      const hits = payloadLiterals(readFileSync(join(root, f), 'utf8'), f);
      if (hits.length > 0) found[f] = hits;
    }
    expect(found, "use the field's generated offset (OPF_<OPERATION>_<FIELD> in assembly/abi.ts), or say here why not").toEqual(PAYLOAD_LITERALS);
  });

  it('catches what it is meant to catch', () => {
    // payload literals: a handler's fields, an f parameter, a slot pointer; not a u128's high half
    expect(payloadLiterals('export function execApprove(user: usize, fields: usize): u32 {\n  balStore(e, load<u64>(fields, 64), load<u64>(fields, 72));\n  let spender = fields + 32;\n}', 'assembly/ops/allowances.ts')).toEqual(['fields + 32', 'load<u64>(fields, 64)', 'load<u64>(fields, 72)']);
    expect(payloadLiterals('function x(user: usize, f: usize): u32 {\n  store<u64>(f, v, 80);\n  return f + 36;\n}', 'assembly/domains/dex/ops.ts')).toEqual(['f + 36', 'store<u64>(f, v, 80);']);
    expect(payloadLiterals('function x(op: usize): void {\n  let t = <usize>load<u32>(op, OPR_CREATE_SCHEDULE_TRIGGER);\n  let runs = load<u32>(t, 8);\n}', 'assembly/domains/schedules/ops.ts')).toEqual(['load<u32>(t, 8)']);
    expect(payloadLiterals('function x(op: usize): void {\n  let s = <usize>load<u32>(op, OPR_CREATE_TOKEN_SUPPLY);\n  let hi = load<u64>(s, 8);\n}', 'assembly/ops/token.ts')).toEqual([]);
    expect(payloadLiterals('function x(fields: usize): void {\n  let a = load<u64>(fields, OPF_APPROVE_AMOUNT + 8);\n  let p = fields + OPF_APPROVE_SPENDER;\n  let q = fields + 4 * n;\n}', 'assembly/ops/allowances.ts')).toEqual([]);
    expect(payloadLiterals('export function execSwap(user: usize, f: usize): u32 {\n  let inL = ld(f, 64), inH = ld(f, OPF_SWAP_AMOUNT_IN + 8);\n}', 'assembly/domains/dex/ops.ts')).toEqual(['ld(f, 64)']);
    expect(payloadLiterals('function x(p: usize, f: usize): void {\n  let a = load<u64>(f, 8);\n}', 'assembly/sha256.ts')).toEqual([]);

    expect(OP_ENVELOPE.test('op[41] = 1;')).toBe(true);
    expect(OP_OFFSET_CONSTANT.test('const FIRST_OP_AT = 36;')).toBe(true);
    expect(KIND_ROLE_COMPARED.test('if (p.kind === 2) ok = true;')).toBe(true);
    expect(KIND_ROLE_COMPARED.test('auth: { kind: 0, keyHash }')).toBe(true);
    expect(KIND_ROLE_COMPARED.test('if (p.kind === STD8_PENDING_MINT) ok = true;')).toBe(false);
    expect(KIND_ROLE_CONSTANT.test('const KIND_STD8 = 2;')).toBe(true);
    expect(ROLE_NAME_LIST.test("const ROLES = ['owner', 'operator'];")).toBe(true);
    expect(KIND_ROLE_CONSTANT.test('@inline const PD_KIND: usize = 8;')).toBe(false);
    expect('let f = <usize>load<u32>(op, 4);'.match(OP_RECORD_SLOT)).toHaveLength(1);
    expect('      store<u32>(rec, <u32>(rp - start), 8);'.match(OP_RECORD_SLOT)).toHaveLength(1);
    expect('memory.copy(HASH, <usize>load<u32>(op, OPR_FIELDS), 32);'.match(OP_RECORD_SLOT)).toBeNull();
  });
});
