import { Type } from '@sinclair/typebox';
import { encodeAccount } from '../../codec/address.js';
import {
  GAME_NAME_MAX_BYTES, gameIdProblem, gamertagProblem, lookupGamertag, PROFILE_DATA_MAX_BYTES, readGame, readGameProfile, readPassport, readPassportStats,
} from './reader.js';
import { APP_ERRORS, RpcError } from '../../rpc/errors.js';
import { defineMethod, type MethodDefinition } from '../../rpc/registry.js';
import { parsed } from '../../rpc/schemas.js';
import type { MethodDependencies } from '../../rpc/methods/context.js';
import { AccountParam, AmountParam } from '../../rpc/methods/params.js';
import { ReceiptSchema } from '../../rpc/methods/result-schemas.js';

/**
 * Passports and game profiles (spec §4.17; docs/passports.md). The writes are unsigned convenience
 * forms (testnet only) of CreatePassport, RegisterGame and SetGameProfile; reads answer from
 * committed state (src/domains/passports/reader.ts), null when there is nothing.
 */

const gamertagString = () => Type.String({ minLength: 1, maxLength: 64, description: "gamertag: 3–24 of A-Z, a-z, 0-9 and '_', unique case-insensitively" });
const gameIdString = () => Type.String({ minLength: 1, maxLength: 64, description: "game id: 3–64 of a-z, 0-9, '.', '_' and '-'" });
const Int = (description: string) => Type.Integer({ description });

const PassportSchema = Type.Object({
  owner: Type.String({ description: 'Nx0… the account; a passport never moves to another' }),
  gamertag: Type.String({ description: 'as its owner wrote it' }),
  created_height: Int('block of creation'),
  created_at: Int('unix seconds of creation'),
  games: Int('games with a profile for this passport'),
}, { title: 'Passport', additionalProperties: false });

const ProfileSchema = Type.Object({
  passport_owner: Type.String(),
  gamertag: Type.String(),
  game_id: Type.String(),
  game_name: Type.String(),
  publisher: Type.String({ description: 'Nx0… the game\'s publisher, which writes its profiles' }),
  score: Type.String({ description: 'u64, decimal' }),
  data: Type.String({ description: 'the profile data the publisher wrote (at most 1,024 bytes)' }),
  revision: Int('1 at the first write, +1 each rewrite'),
  created_height: Int('block of the first write'),
  updated_height: Int('block of the latest write'),
  updated_at: Int('unix seconds of the latest write'),
}, { title: 'GameProfile', additionalProperties: false });

function checked(value: string, param: string, position: number, problem: (v: string) => string | undefined, expected: string): string {
  const reason = problem(value);
  if (reason) throw RpcError.invalidParam(param, position, expected, { reason });
  return value;
}
/** Params parsed once (issue 44 item 4): each checked by the registry at its own position. */
const GameIdParam = () => parsed(gameIdString(), (v, param, position) => checked(v, param, position, gameIdProblem, "3–64 characters of a-z, 0-9, '.', '_' and '-'"));
const GamertagParam = () => parsed(gamertagString(), (v, param, position) => checked(v, param, position, gamertagProblem, "3–24 characters of A-Z, a-z, 0-9 and '_'"));
/** Text of at most `max` bytes of UTF-8 (the schema counts characters). */
const Utf8 = (max: number, expected: string, options: { minLength?: number; description: string }) => parsed(Type.String({ ...options, maxLength: max }), (value, param, position) => {
  if (Buffer.byteLength(value) > max) throw RpcError.invalidParam(param, position, expected);
  return value;
});

export function passportMethods({ chain }: MethodDependencies): MethodDefinition[] {
  const writeErrors = [APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.BUNDLE_FAILED.code, APP_ERRORS.BUNDLE_INVALID.code];
  const passportJson = (owner: Uint8Array) => {
    const p = readPassport(chain.state, owner);
    return p ? { owner: encodeAccount(owner), gamertag: p.gamertag, created_height: Number(p.createdHeight), created_at: Number(p.createdAt), games: p.games } : null;
  };
  return [
    defineMethod({
      name: 'svc_createPassport',
      summary: "Create the sender's passport with a unique gamertag: one per account, never transferable (spec §4.17; unsigned convenience, testnet only).",
      description: 'BUNDLE_FAILED with PASSPORT_EXISTS or GAMERTAG_TAKEN (compared case-insensitively). docs/passports.md.',
      params: [{ name: 'gamertag', schema: GamertagParam() }, { name: 'sender', schema: AccountParam({ description: 'the account' }) }] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt; testnet only',
      },
      errors: writeErrors,
      handler: ([gamertag, sender]) => chain.submitOperations(sender, [{ type: 'CreatePassport', gamertag }]),
    }),
    defineMethod({
      name: 'svc_registerGame',
      summary: 'Register a game id; the sender becomes its publisher, the only account that writes its profiles (spec §4.17; unsigned convenience, testnet only).',
      description: 'BUNDLE_FAILED with GAME_EXISTS. docs/passports.md.',
      params: [
        { name: 'game_id', schema: GameIdParam() },
        { name: 'name', schema: Utf8(GAME_NAME_MAX_BYTES, `1–${GAME_NAME_MAX_BYTES} bytes of UTF-8`, { minLength: 1, description: 'display name, 1–64 bytes of UTF-8' }) },
        { name: 'sender', schema: AccountParam({ description: 'the publisher' }) },
      ] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt; testnet only',
      },
      errors: writeErrors,
      handler: ([gameId, name, sender]) => chain.submitOperations(sender, [{ type: 'RegisterGame', gameId, name }]),
    }),
    defineMethod({
      name: 'svc_setGameProfile',
      summary: "Write a passport holder's profile for a game: score and data, as the game's publisher (spec §4.17; unsigned convenience, testnet only).",
      description: 'BUNDLE_FAILED with GAME_NOT_FOUND, NOT_GAME_PUBLISHER or NO_PASSPORT. docs/passports.md.',
      params: [
        { name: 'game_id', schema: GameIdParam() },
        { name: 'player', schema: AccountParam({ description: 'the passport owner' }) },
        { name: 'score', schema: AmountParam({ description: 'u64, decimal' }, 64) },
        { name: 'data', schema: Utf8(PROFILE_DATA_MAX_BYTES, `at most ${PROFILE_DATA_MAX_BYTES} bytes of UTF-8`, { description: 'profile data, at most 1,024 bytes of UTF-8 (for example JSON stats)' }) },
        { name: 'sender', schema: AccountParam({ description: "the game's publisher" }) },
      ] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt; testnet only',
      },
      errors: writeErrors,
      handler: ([gameId, player, score, data, sender]) => chain.submitOperations(sender, [{ type: 'SetGameProfile', gameId, player, score, data }]),
    }),
    defineMethod({
      name: 'svc_getPassport',
      summary: "An account's passport, or null (spec §4.17).",
      description: 'The gamertag as written, creation block and time, and how many games wrote a profile for it. No application errors.',
      params: [{ name: 'owner', schema: AccountParam() }] as const,
      result: {
        name: 'passport', schema: Type.Union([PassportSchema, Type.Null()]),
        description: '`{owner, gamertag, created_height, created_at, games}` or `null`',
      },
      handler: ([owner]) => passportJson(owner),
    }),
    defineMethod({
      name: 'svc_lookupPassport',
      summary: 'The passport with a gamertag (any case), or null (spec §4.17).',
      description: 'Gamertags are unique case-insensitively, so any spelling finds the one passport. No application errors.',
      params: [{ name: 'gamertag', schema: GamertagParam() }] as const,
      result: {
        name: 'passport', schema: Type.Union([PassportSchema, Type.Null()]),
        description: 'the same, any case, or `null`',
      },
      handler: ([gamertag]) => {
        const owner = lookupGamertag(chain.state, gamertag);
        return owner ? passportJson(owner) : null;
      },
    }),
    defineMethod({
      name: 'svc_getPassportStats',
      summary: 'How many passports, games and game profiles exist (spec §4.17).',
      description: 'Counters the core keeps as passports, games and first profiles are written (docs/passports.md). No application errors.',
      params: [] as const,
      result: {
        name: 'stats', schema: Type.Object({ total_passports: Int('passports'), total_games: Int('registered games'), total_profiles: Int('game profiles') }, { additionalProperties: false }),
        description: '`{total_passports, total_games, total_profiles}`',
      },
      handler: () => {
        const s = readPassportStats(chain.state);
        return { total_passports: Number(s.passports), total_games: Number(s.games), total_profiles: Number(s.profiles) };
      },
    }),
    defineMethod({
      name: 'svc_getGameProfile',
      summary: "A passport holder's profile for a game, or null (spec §4.17).",
      description: 'With the game name and publisher, the score and data the publisher last wrote, and its revision. No application errors.',
      params: [{ name: 'passport_owner', schema: AccountParam() }, { name: 'game_id', schema: GameIdParam() }] as const,
      result: {
        name: 'profile', schema: Type.Union([ProfileSchema, Type.Null()]),
        description: 'the profile or `null`',
      },
      handler: ([owner, gameId]) => {
        const f = readGameProfile(chain.state, owner, gameId);
        const g = readGame(chain.state, gameId);
        const p = readPassport(chain.state, owner);
        if (!f || !g || !p) return null;
        return {
          passport_owner: encodeAccount(owner), gamertag: p.gamertag, game_id: gameId, game_name: g.name, publisher: encodeAccount(g.publisher),
          score: f.score.toString(), data: f.data, revision: f.revision, created_height: Number(f.createdHeight), updated_height: Number(f.updatedHeight), updated_at: Number(f.updatedAt),
        };
      },
    }),
  ];
}
