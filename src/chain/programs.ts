import type { StateReader } from './names.js';

/**
 * Intent programs in chain state (spec §4.9; docs/intents.md "Programs on chain"; docs/core-abi.md
 * "State layout"), written only by the RegisterProgram operation (assembly/ops/programs.ts):
 *
 *   0x30 name               → ProgramRecord (below)
 *   0x31                    → program count u64
 *   0x32 index u64 (BE)     → the name registered at that position (registration order)
 *
 * ProgramRecord { version u8 = 1, owner[32], revision u32, index u64, registered_height u64,
 *                 registered_at u64, updated_height u64, updated_at u64, program_hash[32],
 *                 program: String (the JSON text) }
 */

export const ProgramPrefix = { PROGRAM: 0x30, COUNT: 0x31, INDEX: 0x32 } as const;
/** The core's name rule (assembly/ops/programs.ts validProgramName). */
export const PROGRAM_NAME = /^[a-z0-9][a-z0-9_-]{2,63}$/;
/** The core's size bound of a program's JSON text, in UTF-8 bytes. */
export const PROGRAM_MAX_BYTES = 16_384;

export interface ProgramRecord {
  name: string;
  owner: Uint8Array;
  revision: number;
  index: bigint;
  registeredHeight: bigint;
  registeredAt: bigint;
  updatedHeight: bigint;
  updatedAt: bigint;
  hash: Uint8Array;
  /** the program JSON as stored */
  json: string;
}

export function programKey(name: string): Uint8Array {
  const bytes = Buffer.from(name, 'latin1');
  const key = new Uint8Array(1 + bytes.length);
  key[0] = ProgramPrefix.PROGRAM;
  key.set(bytes, 1);
  return key;
}

export function programCountKey(): Uint8Array {
  return Uint8Array.of(ProgramPrefix.COUNT);
}

export function programIndexKey(index: bigint): Uint8Array {
  const key = new Uint8Array(9);
  key[0] = ProgramPrefix.INDEX;
  new DataView(key.buffer).setBigUint64(1, index, false);
  return key;
}

export function decodeProgramRecord(name: string, value: Uint8Array): ProgramRecord {
  const view = new DataView(value.buffer, value.byteOffset, value.byteLength);
  if (value.length < 113 || value[0] !== 1 || view.getUint32(109, true) !== value.length - 113) {
    throw new Error(`program record of "${name}" has an unknown layout (${value.length} bytes, version ${value[0]})`);
  }
  return {
    name,
    owner: value.slice(1, 33),
    revision: view.getUint32(33, true),
    index: view.getBigUint64(37, true),
    registeredHeight: view.getBigUint64(45, true),
    registeredAt: view.getBigUint64(53, true),
    updatedHeight: view.getBigUint64(61, true),
    updatedAt: view.getBigUint64(69, true),
    hash: value.slice(77, 109),
    json: Buffer.from(value.subarray(113)).toString('utf8'),
  };
}

/** The record of a program, or undefined when the name is not registered (or not a valid name). */
export function lookupProgram(state: StateReader, name: string): ProgramRecord | undefined {
  if (!PROGRAM_NAME.test(name)) return undefined;
  const value = state.get(programKey(name));
  return value ? decodeProgramRecord(name, value) : undefined;
}

/** How many program names have been registered. */
export function programCount(state: StateReader): bigint {
  const value = state.get(programCountKey());
  return value && value.length === 8 ? new DataView(value.buffer, value.byteOffset, 8).getBigUint64(0, true) : 0n;
}

/** Programs in registration order from `start`, at most `limit`: one point lookup per index and per record. */
export function listPrograms(state: StateReader, limit: number, start = 0n): ProgramRecord[] {
  const out: ProgramRecord[] = [];
  const count = programCount(state);
  for (let i = start; i < count && out.length < limit; i++) {
    const name = state.get(programIndexKey(i));
    if (!name) continue;
    const record = lookupProgram(state, Buffer.from(name).toString('latin1'));
    if (record) out.push(record);
  }
  return out;
}
