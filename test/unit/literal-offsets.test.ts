// Issue 44 item 2: the boundary between the core and the host is generated from abi/ (docs/core-abi.md
// "How the ABI is generated"), so no hand-written file places a field of a record, event or
// operation by a number of its own. This scans hand-written assembly/ and src/ files (every file
// scripts/gen-abi.mjs does not write) and fails on such a literal, naming the file and the text.
// Fix: add the field to the table in abi/ and use the generated writer, decoder or offset.
//
// Each kind of layout is one Scan: which files it reads and what it finds there. Events are
// scanned today; records and operations add their own Scan to SCANS (and a case to the last test
// showing what it catches) as their code is generated.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATED, handWritten, root } from './source-files.js';

interface Scan {
  /** what a hit is a literal of */
  layout: 'event' | 'record' | 'operation';
  /** whether the scan reads this hand-written file (path from the repository root, its text without comments) */
  reads(path: string, code: string): boolean;
  /** the hits in one file's code, each as "what: the matched text" */
  find(code: string, path: string): string[];
}

/** Comments and string literals removed, so prose and messages are not scanned. */
function codeOf(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '')
    .replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''");
}

function hits(code: string, re: RegExp, what: string): string[] {
  return [...code.matchAll(re)].map((m) => `${what}: ${m[0].trim()}`);
}

/** A 32-byte value's view (`b.subarray(o, o + 32)`): its width, not where it lies. */
const withoutViews = (code: string) => code.replace(/subarray\(\s*(\w+)\s*,\s*\1\s*\+\s*32\s*\)/g, 'subarray()');

/** A host file that reads events' data: it names their kinds, decodes them or walks a result's events. */
const handlesEvents = (code: string) => /\bEventKind\b|\bdecodeEventAt\b|\bforEachEvent(?:Of)?\b|\bEVENT_FIELD_SIZES\b|\bTOKEN_FIELDS\b/.test(code);

const SCANS: Scan[] = [
  {
    // The core writes an event only through its generated writer (assembly/events-gen.ts emit<Name>):
    // beginEvent gives the pointer a hand-written write would place fields at.
    layout: 'event',
    reads: (path) => path.startsWith('assembly/') && path !== 'assembly/events.ts',
    find: (code) => [
      ...hits(code, /\bbeginEvent\s*\(/g, 'event written by hand (use its emit<Name> of assembly/events-gen.ts)'),
      ...hits(code, /\bEV_[A-Z0-9_]+_(?:HEAD_)?BYTES\b/g, "an event's length used by hand"),
    ],
  },
  {
    // The host decodes events with the generated decoder (src/abi/events.ts): no literal length
    // of an event's data, no literal offset into it, no per-kind table of numbers.
    layout: 'event',
    reads: (path, code) => path.startsWith('src/') && handlesEvents(code),
    find: (code) => [
      ...hits(code, /\blen\s*(?:===|!==|==|!=|>=|<=|>|<)\s*\d+/g, "an event's length as a literal"),
      ...hits(withoutViews(code), /(?<![\w.])(?:o|at|w)\s*\+\s*\d+\b/g, 'a literal offset into an event'),
      ...hits(code, /\[EventKind\.\w+\]\s*:\s*\[\s*\d/g, 'a per-kind table of numbers'),
    ],
  },
];

/**
 * Hits that are not the core's layout, each with why: a file → the hit texts allowed there. A
 * stale one fails too (it would hide a real hit).
 */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  // the explorer's token-transfer record (docs/explorer.md "Token transfers"): bundle index u32, event index u16
  'src/storage/block-index.ts': ['event a literal offset into an event: o + 4'],
  // a BundleResult row's fee u128 (docs/core-abi.md "Block I/O"), its high half: a result row, not an event
  'src/core/block-result.ts': ['event a literal offset into an event: o + 8'],
};

/** Every hit of the scans in the hand-written files of assembly/ and src/. */
function scan(files: string[], scans: Scan[]): string[] {
  const found: string[] = [];
  for (const path of files) {
    const code = codeOf(readFileSync(join(root, path), 'utf8'));
    for (const s of scans) if (s.reads(path, code)) found.push(...s.find(code, path).map((h) => `${path}: ${s.layout} ${h}`));
  }
  return found;
}

describe('no literal layout in hand-written code', () => {
  it('assembly/ and src/ place no event field by a number of their own', async () => {
    expect(GENERATED.has('assembly/events-gen.ts') && GENERATED.has('src/abi/events.ts')).toBe(true);
    const files = handWritten();
    expect(files.length).toBeGreaterThan(100);
    const found = scan(files, SCANS);
    const allowed = (hit: string) => Object.entries(ALLOWED).some(([f, texts]) => texts.some((t) => hit === `${f}: ${t}`));
    expect(found.filter((h) => !allowed(h))).toEqual([]);
    for (const [f, texts] of Object.entries(ALLOWED)) for (const t of texts) expect(found, `stale allowance ${f}: ${t}`).toContain(`${f}: ${t}`);
  });

  it('the scans recognise what main wrote by hand before events were generated', () => {
    const find = (path: string, text: string) => {
      const code = codeOf(text);
      return SCANS.filter((s) => s.reads(path, code)).flatMap((s) => s.find(code, path));
    };
    // the core: a write through beginEvent, a data length from the table used by hand
    expect(find('assembly/domains/bridge/ops.ts', 'let d = beginEvent(bundleIndex, <u16>opIndex, EV_BRIDGE_DEPOSITED, 113);\nmemory.copy(d + 96, AMOUNT, 16);')).toHaveLength(1);
    expect(find('assembly/domains/staking/ops.ts', 'let d = event(EV_STAKED, EV_STAKED_BYTES);')).toHaveLength(1);
    expect(find('assembly/domains/stablecoins/ops.ts', 'store<u64>(REC + R_STABLE_SUPPLY, lo);')).toEqual([]);
    // the host: lengths and offsets in a decoder, a per-kind offset table
    const decoder = "import { EventKind } from '../abi/constants.js';\ncase EventKind.BridgeDeposited:\n  if (len === 113) return { depositId: b.subarray(o, o + 32), recipient: b.subarray(o + 32, o + 64), amount: u128(dv, o + 96) };";
    expect(find('src/core/events.ts', decoder)).toEqual([
      "an event's length as a literal: len === 113", 'a literal offset into an event: o + 32', 'a literal offset into an event: o + 64', 'a literal offset into an event: o + 96']);
    expect(find('src/core/events.ts', "EventKind.ProgramRegistered;\nif (len >= 71 && len <= 132) name = latin1(b, o + 68, o + len);")).toHaveLength(3);
    expect(find('src/storage/block-index.ts', 'const F = { [EventKind.Transfer]: [64], [EventKind.PoolCreated]: [32, 64] };')).toHaveLength(2);
    expect(find('src/chain/receipts.ts', 'EventKind.Fee;\nencodeAccountAt(bytes, at + 80), u128DecimalAt(dv, at + 112)')).toHaveLength(2);
    // generated names and files that do not handle events are not hits
    expect(find('src/chain/receipts.ts', 'EventKind.Fee;\nif (len === EV_FEE_BYTES) return receiptEventJsonAt(b, dv, at, len, kind, null, fx);')).toEqual([]);
    expect(find('src/chain/votes.ts', 'out.set(v.signature, o + 32);')).toEqual([]);
    expect(find('src/core/events.ts', '// an event of len === 113 bytes at o + 96')).toEqual([]);
  });
});
