import { encodePrefixed } from '../../codec/address.js';
import { blake3 } from '../../codec/hash.js';
import { Prefix } from '../../abi/constants.js';
import { nameKey, nameReverseKey, decodeNameFields } from '../../abi/state.js';
import type { StateReader } from '../../chain/state-reader.js';

/**
 * The name service's state on the host side (spec §4.12, docs/names.md): key builders and record
 * decoding for the core's name records, the same canonical form the core applies, and the resolver
 * the intent planner uses for `send … to alice.vex`.
 *
 *   0x0A label            → NameRecord (layout: abi/state.mjs Name)
 *   0x0B owner[32]        → the owner's primary name: the label bytes
 *
 * The label is the name lower-cased, without its optional ".vex" suffix: 3–64 of [a-z0-9-].
 */

/** The name prefixes of the generated table (abi/state.mjs). */
export const NamePrefix = { NAME: Prefix.NAME, REVERSE: Prefix.NAME_REVERSE } as const;
export const NAME_SUFFIX = '.vex';
export const NAME_MIN_LENGTH = 3;
export const NAME_MAX_LENGTH = 64;
/** The `Nx9` text prefix of a name's identifier (facts.md "Addresses": Nx9 name). */
export const NAME_ID_PREFIX = 'Nx9';

const LABEL = /^[a-z0-9-]{3,64}$/;


export interface NameRecord {
  /** the canonical label, e.g. "alice" */
  label: string;
  owner: Uint8Array;
  registeredHeight: bigint;
  /** unix seconds of the registering block */
  registeredAt: bigint;
}

/**
 * The canonical label of a name exactly as the core computes it (assembly/domains/names/ops.ts
 * canonicalName): an optional ".vex" suffix (any case) dropped, A–Z lower-cased; undefined when the
 * rest is not 3–64 characters of letters, digits and hyphens (facts.md "Names").
 */
export function canonicalName(name: string): string | undefined {
  let label = name;
  if (label.length >= 4 && label.slice(-4).toLowerCase() === NAME_SUFFIX) label = label.slice(0, -4);
  // Only ASCII letters fold: the core lower-cases A–Z and nothing else.
  label = label.replace(/[A-Z]/g, (c) => c.toLowerCase());
  return LABEL.test(label) ? label : undefined;
}

/** Why a name is refused, for error messages; undefined when it is valid. */
export function nameProblem(name: string): string | undefined {
  if (canonicalName(name) !== undefined) return undefined;
  const label = name.toLowerCase().endsWith(NAME_SUFFIX) ? name.slice(0, -4) : name;
  if (label.length < NAME_MIN_LENGTH) return `"${name}" is shorter than ${NAME_MIN_LENGTH} characters (without ${NAME_SUFFIX})`;
  if (label.length > NAME_MAX_LENGTH) return `"${name}" is longer than ${NAME_MAX_LENGTH} characters (without ${NAME_SUFFIX})`;
  const bad = [...label].find((c) => !/[A-Za-z0-9-]/.test(c)) ?? '';
  return `"${name}" contains ${JSON.stringify(bad)}; only letters, digits and hyphens are allowed`;
}

// Keys and the record layout are generated from the ABI table (abi/state.mjs → src/abi/state.ts).
export { nameKey, nameReverseKey };

export function decodeNameRecord(label: string, value: Uint8Array): NameRecord {
  if (value[0] !== 1) throw new Error(`name record of "${label}" has an unknown layout (${value.length} bytes, version ${value[0]})`);
  const r = decodeNameFields(value);
  return { label, owner: r.owner, registeredHeight: r.registeredHeight, registeredAt: r.registeredAt };
}

/** The record of a name (any accepted spelling), or undefined when it is invalid or unregistered. */
export function lookupName(state: StateReader, name: string): NameRecord | undefined {
  const label = canonicalName(name);
  if (label === undefined) return undefined;
  const value = state.get(nameKey(label));
  return value ? decodeNameRecord(label, value) : undefined;
}

/** The owner address of a name (`alice`, `Alice.vex`, …), or undefined. Used by the intent planner. */
export function resolveName(state: StateReader, name: string): Uint8Array | undefined {
  return lookupName(state, name)?.owner;
}

/** The primary name (label) of an account, or undefined when it has registered none. */
export function reverseResolve(state: StateReader, owner: Uint8Array): string | undefined {
  const value = state.get(nameReverseKey(owner));
  return value ? Buffer.from(value).toString('latin1') : undefined;
}

/** A name's identifier: `Nx9` + base58(Blake3("name:" ‖ label)), stable for the life of the name. */
export function nameId(label: string): string {
  return encodePrefixed(NAME_ID_PREFIX, blake3(new TextEncoder().encode(`name:${label}`)));
}
