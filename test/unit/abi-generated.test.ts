// The generated ABI files (docs/core-abi.md "How the ABI is generated") are committed so tsc works
// without a build; this fails when one differs from what scripts/gen-abi.mjs would write now from
// the table in abi/, i.e. when someone edited the table without regenerating, or edited a
// generated file by hand. Fix: `node scripts/gen-abi.mjs` (or `npm run build:core`).
//
// It also fails when a hand-written twin of the table comes back (issue 18: "no host file declares
// a discriminant, key prefix or record layout by hand"): outside the generated files, no `OP_*`,
// `EV_*` or `P_*` constant is defined, no prefix object or key byte is a hex literal, and no table
// maps operation, event or prefix names to their numbers. Fix: add a row to abi/ and import the
// generated name.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');

interface Row { name: string; code: number }

describe('generated ABI files', () => {
  it('match the table in abi/', async () => {
    const { generate } = (await import(join(root, 'scripts/gen-abi.mjs'))) as { generate(): Record<string, string> };
    const files = generate();
    expect(Object.keys(files).length).toBeGreaterThanOrEqual(4);
    for (const [path, text] of Object.entries(files)) {
      expect(readFileSync(join(root, path), 'utf8'), `${path} is stale: run node scripts/gen-abi.mjs`).toBe(text);
    }
  });
});

/** Files written by a generator from a single source, and that source for statuses. */
const GENERATED = new Set(['assembly/abi.ts', 'src/abi/constants.ts', 'src/abi/operations.ts', 'src/abi/state.ts', 'src/core/status.ts']);
// assembly/status.ts is the statuses' own source (docs/core-abi.md "Statuses"): OP_NOT_ENABLED there is a status.
const OWN_SOURCE = new Set(['assembly/status.ts']);

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, dir))) {
    const path = `${dir}/${name}`;
    if (statSync(join(root, path)).isDirectory()) out.push(...sources(path));
    else if (/\.ts$/.test(name) && !/\.d\.ts$/.test(name)) out.push(path);
  }
  return out;
}

/** Hand-written twins of the ABI in one file's text, each as "what: the matched text". */
function abiTwins(text: string, table: { operations: Row[]; events: Row[]; prefixes: Row[] }): string[] {
  const found: string[] = [];
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  for (const m of code.matchAll(/\b(?:const|let)\s+((?:OP|EV|P)_[A-Z0-9_]+)\s*[:=]/g)) found.push(`constant definition: ${m[1]}`);
  for (const m of code.matchAll(/\b\w*(?:Prefix|PREFIX)\w*\s*=\s*\{[^}]*?\b0x[0-9a-fA-F]+/g)) found.push(`prefix object with a hex literal: ${m[0].slice(0, 60)}`);
  for (const m of code.matchAll(/\[0\]\s*=\s*0x[0-9a-fA-F]+|Uint8Array\.of\(\s*0x[0-9a-fA-F]+|store<u8>\(\s*KEY\s*,\s*0x[0-9a-fA-F]+/g)) found.push(`key byte written as a hex literal: ${m[0]}`);
  for (const [what, rows] of [['operation', table.operations], ['event', table.events], ['prefix', table.prefixes]] as const) {
    const hits = rows.filter((r) => new RegExp(`\\b${r.name}\\s*:\\s*(?:${r.code}|0x0*${r.code.toString(16)})\\b`, 'i').test(code));
    if (hits.length >= 3) found.push(`${what} table: ${hits.map((r) => `${r.name}: ${r.code}`).join(', ')}`);
  }
  return found;
}

describe('no hand-written twin of the ABI', () => {
  it('assembly/ and src/ define no OP_/EV_/P_ constant, hex prefix or name → number table of their own', async () => {
    const { operations } = (await import(join(root, 'abi/operations.mjs'))) as { operations: Row[] };
    const { events } = (await import(join(root, 'abi/events.mjs'))) as { events: Row[] };
    const { prefixes } = (await import(join(root, 'abi/state.mjs'))) as { prefixes: Row[] };
    const table = { operations, events, prefixes };
    const files = [...sources('assembly'), ...sources('src')].filter((f) => !GENERATED.has(f) && !OWN_SOURCE.has(f));
    expect(files.length).toBeGreaterThan(100);
    const twins = files.flatMap((f) => abiTwins(readFileSync(join(root, f), 'utf8'), table).map((t) => `${relative(root, join(root, f))}: ${t}`));
    expect(twins).toEqual([]);
  });

  it('the scan recognises each kind of twin', async () => {
    const { operations } = (await import(join(root, 'abi/operations.mjs'))) as { operations: Row[] };
    const { events } = (await import(join(root, 'abi/events.mjs'))) as { events: Row[] };
    const { prefixes } = (await import(join(root, 'abi/state.mjs'))) as { prefixes: Row[] };
    const table = { operations, events, prefixes };
    expect(abiTwins('// @inline export const OP_CREATE_SCHEDULE: u32 = 49;\nexport const OP_CREATE_SCHEDULE: u32 = 49;', table)).toEqual(['constant definition: OP_CREATE_SCHEDULE']);
    expect(abiTwins('@inline export const EV_SCHEDULE_RUN: u8 = 16;', table)).toHaveLength(1);
    expect(abiTwins('@inline export const P_SCHEDULE: u8 = 0x33;', table)).toHaveLength(1);
    expect(abiTwins("export const SchedulePrefix = { SCHEDULE: 0x33, SLOT: 0x34 } as const;", table)).toHaveLength(1);
    expect(abiTwins('const key = new Uint8Array(33);\nkey[0] = 0x33;', table)).toHaveLength(1);
    expect(abiTwins('store<u8>(KEY, 0x36);', table)).toHaveLength(1);
    expect(abiTwins('export const OpCode = { Transfer: 0, CreateSchedule: 49, CancelSchedule: 50 } as const;', table)[0]).toMatch(/^operation table/);
    expect(abiTwins('export const EventKind = { ScheduleRun: 16, ScheduleCreated: 17, ScheduleCancelled: 18 } as const;', table)[0]).toMatch(/^event table/);
    // Generated names used as values are not twins.
    expect(abiTwins("export const NamePrefix = { NAME: Prefix.NAME, REVERSE: Prefix.NAME_REVERSE } as const;\nk[0] = Prefix.SCHEDULE;", table)).toEqual([]);
  });
});
