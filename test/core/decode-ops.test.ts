// The core's operation decoding (generated from abi/operations.mjs: assembly/decode-ops.ts and
// assembly/decode-var-ops.ts; docs/core-abi.md "Operation records") against the host codec
// (src/abi/operations.ts, generated from the same rows). Every enabled operation, encoded by the host
// from random valid values of its row's field types, decodes in the core; every truncation is
// MALFORMED_BUNDLE; and a changed byte is refused by the core exactly when the host codec refuses it,
// apart from the differences the table states (a choice byte the core checks at execution, the
// first-operation rule of the bridge's attested operations).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CodecError } from '../../src/codec/borsh.js';
import { decodeBundle, encodeBundle, type Bundle } from '../../src/codec/bundle.js';
import type { Operation } from '../../src/abi/operations.js';
import { Status, statusName } from '../../src/core/status.js';
import type { Core } from '../../src/core/core.js';
import { newCore, rng } from './harness.js';
import { root } from '../unit/source-files.js';

type FieldType = string | [string, ...unknown[]];
interface Field { name: string; type: FieldType; checkedAt?: string }
interface Row { name: string; code: number; core?: boolean; nested?: boolean; firstOnly?: boolean; fields: Field[] }
interface Enum { variants: Array<{ name: string; tag: number; fields: Field[] }> }
const table = (await import(join(root, 'abi/operations.mjs'))) as { operations: Row[]; enums: Record<string, Enum>; bounds: Record<string, { value: number }> };
const { operations, enums } = table;
const enabled = operations.filter((o) => o.core !== false);
const nestable = enabled.filter((o) => o.nested !== false);
/** The bounds of nested lists are constants (abi/constants.mjs), not codec bounds. */
const NESTED_MAX: Record<string, number> = { MAX_SCHEDULE_OPS: 16, MAX_PROPOSAL_OPS: 8, MAX_MULTISIG_OPS: 16 };

/** The harness's seeded generator as a raw u32 source. */
const source = (seed: number) => { const r = rng(seed); return () => r.int(2 ** 32); };
const CHARS = ['a', 'Z', '0', '-', ' ', 'é', 'ß', '€', '中', '😀'];

/** A random valid value of a row's field type, as the host's Operation type holds it. */
function randomValue(t: FieldType, next: () => number, depth: number): unknown {
  const bytes = (n: number) => Uint8Array.from({ length: n }, () => next() & 0xff);
  const big = (n: number) => { let v = 0n; for (let i = 0; i < n; i++) v = (v << 8n) | BigInt(next() & 0xff); return v; };
  if (typeof t === 'string') {
    switch (t) {
      case 'u8': return next() & 0xff;
      case 'u16': return next() & 0xffff;
      case 'u32': return next() >>> 0;
      case 'u64': return big(8);
      case 'u128': return big(16);
      case 'bool': return (next() & 1) === 1;
      case 'bytes32': return bytes(32);
      case 'bytes64': return bytes(64);
      case 'entries': return Array.from({ length: next() % 4 }, () => ({ typeId: big(8), amount: big(16) }));
    }
    throw new Error(`no value for ${t}`);
  }
  const str = () => Array.from({ length: next() % 9 }, () => CHARS[next() % CHARS.length]).join('');
  switch (t[0]) {
    case 'string': return str();
    case 'option-string': return next() % 2 ? str() : undefined;
    case 'vec': return bytes(next() % 40);
    case 'accounts': return Array.from({ length: next() % 4 }, () => bytes(32));
    case 'choice': { const values = t[1] as string[]; return values[next() % values.length]; }
    case 'tagged': {
      const v = enums[t[1] as string]!.variants[next() % enums[t[1] as string]!.variants.length]!;
      return { kind: v.name, ...Object.fromEntries(v.fields.map((fl) => [fl.name, randomValue(fl.type, next, depth)])) };
    }
    case 'operations': {
      const max = Math.min(NESTED_MAX[t[1] as string]!, 3);
      return Array.from({ length: 1 + (next() % max) }, () => randomOp(nestable[next() % nestable.length]!, next, depth + 1));
    }
  }
  throw new Error(`no value for ${JSON.stringify(t)}`);
}

function randomOp(row: Row, next: () => number, depth = 0): Operation {
  const op: Record<string, unknown> = { type: row.name };
  for (const fl of row.fields) {
    const v = randomValue(fl.type, next, depth);
    if (v !== undefined) op[fl.name] = v;
  }
  return op as unknown as Operation;
}

const bundleOf = (ops: Operation[], nonce: bigint): Bundle => ({
  userAccount: new Uint8Array(32).fill(7), operations: ops, maxGas: 100_000n, maxPriorityFee: 0n,
  validUntil: 1_800_000_000n, nonce, signature: new Uint8Array(0),
});

/** The core's decodeBundle status of each bundle, through scan_bundles (docs/core-abi.md "Block scan"). */
function coreStatuses(core: Core, bundles: Uint8Array[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < bundles.length; i += 2000) {
    const part = bundles.slice(i, i + 2000);
    const chunks: number[] = [];
    const u32 = (v: number) => chunks.push(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff);
    u32(part.length);
    for (const b of part) {
      u32(b.length);
      for (const x of b) chunks.push(x);
    }
    const scan = core.scanBundles(Uint8Array.from(chunks));
    for (let k = 0; k < part.length; k++) out.push(scan.status(k));
  }
  return out;
}

/** The host codec's answer: undefined when it decodes, else its CodecError code. */
function hostError(bytes: Uint8Array): string | undefined {
  try {
    decodeBundle(bytes);
    return undefined;
  } catch (e) {
    if (e instanceof CodecError) return e.code;
    throw e;
  }
}

/** Rows with a field the core takes as any byte at decoding (`checkedAt: 'execution'`, also in a tagged variant). */
function checkedLater(t: FieldType, seen = new Set<string>()): boolean {
  if (!Array.isArray(t)) return false;
  if (t[0] === 'tagged' && !seen.has(t[1] as string)) {
    seen.add(t[1] as string);
    return enums[t[1] as string]!.variants.some((v) => v.fields.some((fl) => fl.checkedAt === 'execution' || checkedLater(fl.type, seen)));
  }
  return false;
}
const lenient = new Set(enabled.filter((o) => o.fields.some((fl) => checkedLater(fl.type))).map((o) => o.name));

const PER_ROW = 4;
const samples = (() => {
  const next = source(44);
  return enabled.flatMap((row) => Array.from({ length: PER_ROW }, (_, i) => ({ row, bytes: encodeBundle(bundleOf([randomOp(row, next)], BigInt(i))) })));
})();

describe('operation decoding generated from abi/operations.mjs', () => {
  it('decodes every enabled operation from the host codec\'s encoding of random valid values', async () => {
    const { core } = await newCore();
    const statuses = coreStatuses(core, samples.map((s) => s.bytes));
    samples.forEach((s, i) => {
      expect(hostError(s.bytes), s.row.name).toBeUndefined();
      expect(statusName(statuses[i]!), `${s.row.name} sample ${i % PER_ROW}`).toBe('OK');
    });
    // Every variable-field shape reached: strings, vecs, options, lists, choices, tags, nested operations.
    const kinds = new Set(enabled.flatMap((o) => o.fields.map((fl) => (Array.isArray(fl.type) ? fl.type[0] : fl.type))));
    for (const k of ['string', 'vec', 'option-string', 'accounts', 'entries', 'choice', 'tagged', 'operations', 'bool']) expect(kinds.has(k), k).toBe(true);
  });

  it('refuses every truncation as MALFORMED_BUNDLE, as the host codec does', async () => {
    const { core } = await newCore();
    const cuts: Uint8Array[] = [];
    const names: string[] = [];
    for (const s of samples.filter((_, i) => i % PER_ROW < 2)) {
      for (let cut = 32; cut < s.bytes.length; cut++) {
        cuts.push(s.bytes.subarray(0, cut));
        names.push(`${s.row.name} cut at ${cut}`);
      }
    }
    const statuses = coreStatuses(core, cuts);
    cuts.forEach((c, i) => {
      expect(hostError(c), names[i]).toBe('TRUNCATED');
      expect(statusName(statuses[i]!), names[i]).toBe('MALFORMED_BUNDLE');
    });
  });

  it('refuses a changed byte exactly when the host codec does (flipped tags, bools, choices, lengths, UTF-8)', async () => {
    const { core } = await newCore();
    const variants: Uint8Array[] = [];
    const meta: Array<{ row: Row; at: number; to: number }> = [];
    for (const s of samples.filter((_, i) => i % PER_ROW === 0)) {
      // The operation's bytes: from its discriminant (byte 36, after user[32] and the list's u32) to
      // the envelope's max_gas (8 × 4 bytes, the signature's u32 and the two option tags at the end).
      const end = s.bytes.length - (8 * 4 + 4 + 2);
      for (let at = 37; at < end; at++) {
        for (const to of [2, 0xff, s.bytes[at]! ^ 0x80]) {
          if (to === s.bytes[at]) continue;
          const b = s.bytes.slice();
          b[at] = to;
          variants.push(b);
          meta.push({ row: s.row, at, to });
        }
      }
    }
    const statuses = coreStatuses(core, variants);
    const refusedByCode = new Map<string, number>();
    variants.forEach((b, i) => {
      const { row, at, to } = meta[i]!;
      const what = `${row.name}: byte ${at} set to ${to}`;
      const host = hostError(b);
      const st = statuses[i]!;
      if (host === undefined) {
        expect(statusName(st), what).toBe('OK');
        return;
      }
      refusedByCode.set(host, (refusedByCode.get(host) ?? 0) + 1);
      // The core checks this choice byte at execution (the row's checkedAt), so it decodes.
      if (host === 'OUT_OF_RANGE' && st === Status.OK && lenient.has(row.name)) return;
      // A changed discriminant the core reserves: OP_NOT_ENABLED; otherwise malformed.
      expect([Status.MALFORMED_BUNDLE, Status.OP_NOT_ENABLED], `${what}: host ${host}, core ${statusName(st)}`).toContain(st);
    });
    // The refusals covered tags, bools, choices, UTF-8 and lengths, not only truncation.
    for (const code of ['BAD_OPTION_TAG', 'BAD_BOOL', 'OUT_OF_RANGE', 'TRUNCATED']) expect(refusedByCode.get(code) ?? 0, code).toBeGreaterThan(0);
  });

  it('keeps the rows\' nesting rules: nested: false inside a held list, firstOnly after the first operation', async () => {
    const { core } = await newCore();
    const next = source(45);
    const notNested = enabled.filter((o) => o.nested === false);
    const firstOnly = enabled.filter((o) => o.firstOnly);
    expect(firstOnly.map((o) => o.name).sort()).toEqual(['AttestBridgeWithdrawal', 'BridgeDeposit']);
    const transfer = randomOp(operations.find((o) => o.name === 'Transfer')!, next);
    const cases: Array<{ what: string; bytes: Uint8Array; status: number }> = [];
    for (const row of firstOnly) {
      cases.push({ what: `${row.name} first`, bytes: encodeBundle(bundleOf([randomOp(row, next), transfer], 0n)), status: Status.OK });
      cases.push({ what: `${row.name} second`, bytes: encodeBundle(bundleOf([transfer, randomOp(row, next)], 0n)), status: Status.MALFORMED_BUNDLE });
    }
    // A schedule holding a Transfer, its discriminant then changed to each nested: false operation's.
    const schedule = { type: 'CreateSchedule', trigger: { kind: 'Recurring', intervalSeconds: 60n, runs: 1, firstRun: 0n }, operations: [transfer] } as unknown as Operation;
    const held = encodeBundle(bundleOf([schedule], 0n));
    const at = 32 + 4 + 1 + 1 + 20 + 4; // user, list length, CreateSchedule, trigger tag and fields, the held list's length
    expect(held[at]).toBe(0);
    for (const row of notNested) {
      const b = held.slice();
      b[at] = row.code;
      cases.push({ what: `${row.name} inside a schedule`, bytes: b, status: Status.MALFORMED_BUNDLE });
    }
    const statuses = coreStatuses(core, cases.map((c) => c.bytes));
    cases.forEach((c, i) => expect(statusName(statuses[i]!), c.what).toBe(statusName(c.status)));
  });
});
