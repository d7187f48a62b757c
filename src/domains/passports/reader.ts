import {
  PASSPORT_STATS_KEY, decodeGameFields, decodeGameProfileFields, decodePassportFields, decodePassportStatsFields, gameKey, gameProfileKey, gamertagKey, passportKey,
  type GameFields, type GameProfileFields, type PassportFields, type PassportStatsFields,
} from '../../abi/state.js';
import type { StateReader } from '../../chain/state-reader.js';

/**
 * Passports and game profiles on the host side (spec §4.17; docs/passports.md): readers of the
 * core's records (0x7A–0x7E) and the same gamertag and game-id rules, so RPC can refuse bad input
 * with a clear message before a bundle is built. The rules are the core's (assembly/domains/passports/ops.ts).
 */

const GAMERTAG = /^[A-Za-z0-9_]{3,24}$/;
const GAME_ID = /^[a-z0-9._-]{3,64}$/;
export const PROFILE_DATA_MAX_BYTES = 1024;
export const GAME_NAME_MAX_BYTES = 64;

export function gamertagProblem(tag: string): string | undefined {
  return GAMERTAG.test(tag) ? undefined : `"${tag}" is not 3–24 characters of A-Z, a-z, 0-9 and '_'`;
}
export function gameIdProblem(id: string): string | undefined {
  return GAME_ID.test(id) ? undefined : `"${id}" is not 3–64 characters of a-z, 0-9, '.', '_' and '-'`;
}

export function readPassport(state: StateReader, owner: Uint8Array): PassportFields | undefined {
  const v = state.get(passportKey(owner));
  return v ? decodePassportFields(v) : undefined;
}

/** The owner of a gamertag (compared case-insensitively), or undefined. */
export function lookupGamertag(state: StateReader, tag: string): Uint8Array | undefined {
  if (gamertagProblem(tag)) return undefined;
  return state.get(gamertagKey(tag.toLowerCase()));
}

export function readGame(state: StateReader, id: string): GameFields | undefined {
  if (gameIdProblem(id)) return undefined;
  const v = state.get(gameKey(id));
  return v ? decodeGameFields(v) : undefined;
}

export function readGameProfile(state: StateReader, owner: Uint8Array, gameId: string): GameProfileFields | undefined {
  if (gameIdProblem(gameId)) return undefined;
  const v = state.get(gameProfileKey(owner, gameId));
  return v ? decodeGameProfileFields(v) : undefined;
}

export function readPassportStats(state: StateReader): PassportStatsFields {
  const v = state.get(PASSPORT_STATS_KEY);
  return v ? decodePassportStatsFields(v) : { passports: 0n, games: 0n, profiles: 0n };
}
