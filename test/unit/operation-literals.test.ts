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
//   generated into assembly/decode-ops.ts (OPR_CREATE_TOKEN_SYMBOL, …).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { handWritten, root } from './source-files.js';


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

  it('catches what it is meant to catch', () => {
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
