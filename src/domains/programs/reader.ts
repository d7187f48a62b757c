import type { StateReader } from '../../chain/state-reader.js';
import { Prefix } from '../../abi/constants.js';
import { programKey, programIndexKey, PROGRAM_COUNT_KEY, decodeProgramFields, type ProgramFields } from '../../abi/state.js';

/**
 * Intent programs in chain state (spec §4.9; docs/intents.md "Programs on chain"; docs/core-abi.md
 * "State layout"), written only by the RegisterProgram operation (assembly/domains/programs/ops.ts):
 *
 *   0x30 name               → ProgramRecord (below)
 *   0x31                    → program count u64
 *   0x32 index u64 (BE)     → the name registered at that position (registration order)
 *
 * ProgramRecord's layout is abi/state.mjs Program (docs/core-abi.md "State layout").
 */

/** The program prefixes of the generated table (abi/state.mjs). */
export const ProgramPrefix = { PROGRAM: Prefix.PROGRAM, COUNT: Prefix.PROGRAM_COUNT, INDEX: Prefix.PROGRAM_INDEX } as const;
/** The core's name rule (assembly/domains/programs/ops.ts validProgramName). */
export const PROGRAM_NAME = /^[a-z0-9][a-z0-9_-]{2,63}$/;
/** The core's size bound of a program's JSON text, in UTF-8 bytes. */
export const PROGRAM_MAX_BYTES = 16_384;

/** A program's record: its name (the key) and its generated fields but the layout version. */
export interface ProgramRecord extends Omit<ProgramFields, 'version'> {
  name: string;
}

// Keys and the record layout are generated from the ABI table (abi/state.mjs → src/abi/state.ts).
export { programKey, programIndexKey };

export function programCountKey(): Uint8Array {
  return PROGRAM_COUNT_KEY.slice();
}

export function decodeProgramRecord(name: string, value: Uint8Array): ProgramRecord {
  if (value[0] !== 1) throw new Error(`program record of "${name}" has an unknown layout (${value.length} bytes, version ${value[0]})`);
  const { version: _version, ...fields } = decodeProgramFields(value);
  return { name, ...fields };
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
