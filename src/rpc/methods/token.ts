import { Type } from '@sinclair/typebox';
import { APP_ERRORS } from '../errors.js';
import { defineMethod, type MethodDefinition } from '../registry.js';
import { Limit, } from '../schemas.js';
import type { MethodDependencies } from './context.js';
import { formatToken, tokenBadge } from './format.js';
import { AccountParam, AmountParam, TokenParam } from './params.js';
import { ReceiptSchema, TokenSchema } from './result-schemas.js';
import type { ChainApi } from '../../chain/interface.js';
import type { RegisteredToken } from '../../chain/token-registry.js';
import { RESERVED_SYMBOLS, STABLECOINS } from '../../chain/genesis-data.js';
import { decodeTokenMetadata, emptyMetadata, tokenMetadataKey } from '../../core/amm.js';
import { TokenKind } from '../../core/records.js';

/** The full token record: formatToken plus the spec §2.3 metadata fields (null when unset). */
function fullToken(chain: ChainApi, t: RegisteredToken) {
  const v = chain.state.get(tokenMetadataKey(t.mint));
  return { ...formatToken(t, chain.state), ...(v ? decodeTokenMetadata(v) : emptyMetadata()) };
}

const STABLE_BY_SYMBOL = new Map(STABLECOINS.map((s) => [s.symbol.toUpperCase(), s]));
const RESERVED = new Set(RESERVED_SYMBOLS.map((s) => s.toUpperCase()));

/**
 * Spec §2.2 Verification Status factor (max 15). Statuses the node cannot reach yet (Issuer-Held
 * after a handover, governance-Verified) wait for §4.16; the genesis STD-8 coins are Pending.
 * Impersonation: a symbol equal to a reserved or STD-8 symbol on a token that is not that STD-8
 * coin, unless its origin contract is one of the coin's mappings → 0 points, a warning, no badge.
 */
export function verificationStatus(
  t: RegisteredToken, bridge?: { impersonation: boolean; safetyLevel: number },
): { status: string; points: number; warnings: string[] } {
  // A token the bridge created from an unmapped contract under a reserved STD-8 symbol (its own
  // symbol is marked `.unverified`, docs/bridge.md "Impersonation"): the core flagged it.
  if (bridge?.impersonation) {
    return {
      status: 'Impersonation', points: 0,
      warnings: [`${t.symbol} was bridged from ${t.originChain} contract ${t.originContract} under a reserved STD-8 symbol; the contract does not match the official mappings`],
    };
  }
  const upper = t.symbol.toUpperCase();
  const stable = STABLE_BY_SYMBOL.get(upper);
  if (t.kind !== TokenKind.STD8_STABLECOIN && (stable || RESERVED.has(upper))) {
    const mapped = stable?.origins.some((o) => o.chain === t.originChain && o.contract.toLowerCase() === t.originContract.toLowerCase()) ?? false;
    if (!mapped) {
      return {
        status: 'Impersonation', points: 0,
        warnings: [`symbol ${t.symbol} is ${stable ? 'an official STD-8 stablecoin' : 'reserved for STD-8 issuance'}; this token's origin contract does not match the official mappings`],
      };
    }
  }
  switch (t.kind) {
    case TokenKind.NATIVE: return { status: 'Issuer-Held (protocol native)', points: 15, warnings: [] };
    case TokenKind.STD8_STABLECOIN: return { status: 'Pending (pre-mapped, awaiting handover)', points: 10, warnings: [] };
    case TokenKind.STD7: return { status: 'Native STD-7 token', points: 8, warnings: [] };
    default: {
      const launchpad = tokenBadge(t) === 'Memecoin';
      // A caution level on the origin contract (docs/bridge.md "Contract safety") is a warning.
      const caution = bridge?.safetyLevel === 2 ? [`the origin contract ${t.originContract} on ${t.originChain} has the safety level caution`] : [];
      if (launchpad) return { status: 'Launchpad origin', points: 3, warnings: caution };
      return caution.length > 0 ? { status: 'Bridged, with warnings', points: 5, warnings: caution } : { status: 'Bridged, no warnings', points: 5, warnings: [] };
    }
  }
}

/** Spec §4.1 token methods, with metadata (§2.3) and the reputation factor (§2.2). */
export function tokenMethods({ chain, readers }: MethodDependencies): MethodDefinition[] {
  /** A token by symbol or mint (params parsed once, issue 44 item 4). */
  const Token = (description: string) => TokenParam(readers.tokens, Type.String({ minLength: 1, maxLength: 64, description }));
  return [
    defineMethod({
      name: 'svc_createToken',
      summary: 'Create an STD-7 token (unsigned convenience, testnet only; the owner is the sender and receives the supply).',
      description: 'The mint is derived from creator, symbol, block time and nonce (docs/core-abi.md); the receipt carries it in created.mint. '
        + 'Symbols are unique case-insensitively and the STD-8 reserved symbols are refused (spec §2.1).'
        + ' Errors: UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED with the reverted receipt (e.g. a symbol already taken or reserved).',
      params: [
        { name: 'name', schema: Type.String({ minLength: 1, maxLength: 64, description: 'token name, 1 to 64 bytes' }) },
        { name: 'symbol', schema: Type.String({ pattern: '^[A-Za-z0-9]{1,16}$', description: '1 to 16 letters or digits' }) },
        { name: 'decimals', schema: Type.Integer({ minimum: 0, maximum: 18, description: '0 to 18' }) },
        { name: 'supply', schema: AmountParam({ description: 'initial supply in raw units, > 0' }) },
        { name: 'owner', schema: AccountParam() },
      ] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt with `created.mint`. Unsigned convenience, testnet only: the owner is the sender and receives the supply. Symbols are'
          + ' unique case-insensitively (`SYMBOL_TAKEN`); the 18 reserved STD-8 symbols are refused (`SYMBOL_RESERVED`). On mainnet submit a'
          + ' signed `CreateToken` bundle',
      },
      errors: [APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.BUNDLE_FAILED.code],
      handler: async ([name, symbol, decimals, supply, owner]) => chain.submitOperations(owner, [{ type: 'CreateToken', name, symbol, decimals, supply, owner }]),
    }),
    defineMethod({
      name: 'svc_getTokenInfo',
      summary: 'A token record by symbol or mint (spec §4.1, facts.md "Token record").',
      description: 'Reads the token record (spec §4.1; facts.md "Token record"): supply, creator and owner, standard, features, badge, origin and the'
        + ' ERC-20 address (docs/eth.md "Token addresses"). Errors: UNKNOWN_TOKEN when no token has that symbol or mint.',
      params: [{ name: 'symbol_or_mint', schema: Token('symbol or Nx1… mint') }] as const,
      result: {
        name: 'token', schema: TokenSchema,
        description: 'token record (below); `-32009 UNKNOWN_TOKEN`',
      },
      errors: [APP_ERRORS.UNKNOWN_TOKEN.code],
      handler: ([token]) => fullToken(chain, token),
    }),
    defineMethod({
      name: 'svc_listTokens',
      summary: 'Tokens with their mint addresses and decimals, genesis tokens first (spec §4.1).',
      paramsNote: '(1–1000, default 100)',
      description: 'Lists token records (spec §4.1): NTV and the genesis stablecoins first, then created tokens in creation order; limit 1–1000,'
        + ' default 100. No application errors.',
      params: [{ name: 'limit', schema: Limit({ default: 100 }), required: false }] as const,
      result: {
        name: 'tokens', schema: Type.Array(TokenSchema),
        description: 'token records, genesis tokens first',
      },
      handler: ([limit]) => readers.tokens.list().slice(0, limit ?? 100).map((t) => fullToken(chain, t)),
    }),
    defineMethod({
      name: 'svc_getTokenReputation',
      summary: 'A token\'s reputation: the Verification Status factor of spec §2.2 (max 15), with the impersonation rule.',
      description: 'Scores the Verification Status factor of spec §2.2 (at most 15 points) and warns when a token imitates a genesis symbol or name'
        + ' (the impersonation rule). Errors: UNKNOWN_TOKEN.',
      params: [{ name: 'mint', schema: Token('Nx1… mint (or symbol)') }] as const,
      result: {
        description: '`{mint, symbol, score, max_score: 15, factors[{name: "verification_status", status, points, max_points}], warnings[], badge}` —'
          + ' the Verification Status factor of spec §2.2 (docs/dex.md "Token reputation")',
        name: 'reputation',
        schema: Type.Object({
          mint: Type.String(), symbol: Type.String(), score: Type.Integer(), max_score: Type.Integer(),
          factors: Type.Array(Type.Object({ name: Type.String(), status: Type.String(), points: Type.Integer(), max_points: Type.Integer() })),
          warnings: Type.Array(Type.String()), badge: Type.Union([Type.String(), Type.Null()]),
        }),
      },
      errors: [APP_ERRORS.UNKNOWN_TOKEN.code],
      handler: ([t]) => {
        const bridged = readers.bridge.bridged(t.mint);
        const safety = t.originChain && t.originContract ? readers.bridge.contractSafety(t.originChain, t.originContract)?.level ?? 0 : 0;
        const v = verificationStatus(t, { impersonation: bridged?.impersonation ?? false, safetyLevel: safety });
        return {
          mint: t.mintAddress,
          symbol: t.symbol,
          score: v.points,
          max_score: 15,
          factors: [{ name: 'verification_status', status: v.status, points: v.points, max_points: 15 }],
          warnings: v.warnings,
          badge: v.points === 0 ? null : tokenBadge(t),
        };
      },
    }),
  ];
}

