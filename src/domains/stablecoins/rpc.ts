import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { encodeAccount, encodeMint } from '../../codec/address.js';
import type { Operation } from '../../abi/operations.js';
import { STD8_PENDING_HANDOVER, STD8_PENDING_MINTER_ADDITION, STD8_PENDING_ROLE_CHANGE } from '../../abi/constants.js';
import type { RegisteredToken } from '../../chain/token-registry.js';
import {
  isBlacklisted, isPaused, ONBOARDING_PROOFS_REQUIRED, PENDING_KINDS, refusal, stableOnboarding, ROLE_NAMES, STABLE_FLAG_MINT_FROZEN, STABLE_FLAG_QUANTUM, stableProfile, stableRecord, VERIFICATION,
  type StableCoinFields,
} from '../../chain/stablecoins.js';
import { APP_ERRORS, RpcError } from '../../rpc/errors.js';
import { defineMethod, type MethodDefinition } from '../../rpc/registry.js';
import { Address, DecimalString, Limit, parseAmount, parsed } from '../../rpc/schemas.js';
import { checkIssuerProof, issuerOnboardingMessage } from './issuer-proof.js';
import { ISSUER_PROOF_METHODS } from './receipts.js';
import type { MethodDependencies } from '../../rpc/methods/context.js';
import { AccountParam, accountParam, accountsParam, AmountOrNull, AmountParam, invalidParamIn, tokenParam } from '../../rpc/methods/params.js';
import { ReceiptSchema } from '../../rpc/methods/result-schemas.js';

const Str = (description: string) => Type.String({ description });
const stableRef = () => Type.String({ minLength: 1, maxLength: 64, description: 'Stablecoin symbol (any case, e.g. USDC) or mint address (Nx1… or 0x + 64 hex).' });
const PendingId = () => AmountParam({ description: 'the pending change or mint id (StablePending.pending_id of the receipt that queued it; svc_getStablecoinInfo lists them)' }, 64);
const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);
const Origin = Type.Object({ chain: Type.String({ minLength: 1, maxLength: 64 }), contract: Type.String({ minLength: 1, maxLength: 64 }) });

const CreateConfig = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 64 }),
  symbol: Type.String({ minLength: 1, maxLength: 16, pattern: '^[A-Za-z0-9]+$' }),
  decimals: Type.Integer({ minimum: 0, maximum: 18 }),
  currency: Type.String({ minLength: 1, maxLength: 16, description: 'ISO 4217 code of the currency the coin tracks (USD, EUR, …)' }),
  issuer: Type.String({ minLength: 1, maxLength: 128 }),
  owner: Address(), master_minter: Address(), pauser: Address(), blacklister: Address(),
  guardians: Type.Optional(Type.Array(Address(), { maxItems: 8 })),
  origin_mappings: Type.Optional(Type.Array(Origin, { maxItems: 8, description: 'the first one names the canonical mint: Blake3("<chain>_<SYMBOL>")' })),
  supply_cap: Type.Optional(DecimalString({ description: 'raw units; absent or "0" = no cap' })),
  quantum_required: Type.Optional(Type.Boolean()),
  mint_threshold: Type.Optional(DecimalString({ description: 'mints above this wait for the cosigners; absent or "0" = none' })),
  required_signers: Type.Optional(Type.Integer({ minimum: 0, maximum: 8 })),
  authorized_cosigners: Type.Optional(Type.Array(Address(), { maxItems: 8 })),
  timelock: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'blocks; absent or 0 = 720' })),
  epoch_length: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'blocks; absent or 0 = 720' })),
}, { additionalProperties: false });

/** The creation config as the CreateStableToken operation (params parsed once: its fields named `config.<field>`). */
function createConfigParam(c: Static<typeof CreateConfig>, param: string, position: number): Extract<Operation, { type: 'CreateStableToken' }> {
  const origins = c.origin_mappings ?? [];
  const o = new Uint8Array(4 + origins.reduce((n, x) => n + 8 + Buffer.byteLength(x.chain) + Buffer.byteLength(x.contract), 0));
  const dv = new DataView(o.buffer);
  dv.setUint32(0, origins.length, true);
  let at = 4;
  for (const x of origins) for (const sv of [x.chain, x.contract]) { const b = Buffer.from(sv, 'utf8'); dv.setUint32(at, b.length, true); o.set(b, at + 4); at += 4 + b.length; }
  const amount = (v: string | undefined, name: string) => (v === undefined ? 0n : parseAmount(v, `${param}.${name}`, position));
  const account = (v: string, name: string) => accountParam(v, `${param}.${name}`, position);
  return {
    type: 'CreateStableToken', name: c.name, symbol: c.symbol, decimals: c.decimals, currency: c.currency, issuer: c.issuer,
    owner: account(c.owner, 'owner'), masterMinter: account(c.master_minter, 'master_minter'),
    pauser: account(c.pauser, 'pauser'), blacklister: account(c.blacklister, 'blacklister'),
    guardians: accountsParam(c.guardians ?? [], `${param}.guardians`, position), originMappings: o, supplyCap: amount(c.supply_cap, 'supply_cap'),
    quantumRequired: c.quantum_required ?? false, mintThreshold: amount(c.mint_threshold, 'mint_threshold'), requiredSigners: c.required_signers ?? 0,
    cosigners: accountsParam(c.authorized_cosigners ?? [], `${param}.authorized_cosigners`, position), timelock: BigInt(c.timelock ?? 0), epochLength: BigInt(c.epoch_length ?? 0),
  };
}

const SecurityConfig = Type.Object({
  timelock: Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'blocks of delay of role changes and minter additions' }),
  mint_threshold: DecimalString({ description: 'mints above this wait for the cosigners; "0" = none' }),
  required_signers: Type.Integer({ minimum: 0, maximum: 8 }),
  authorized_cosigners: Type.Array(Address(), { maxItems: 8 }),
  quantum_required: Type.Boolean(),
}, { additionalProperties: false });
/** The security config with its amount and cosigners parsed (named `config.<field>`). */
const securityConfigParam = (c: Static<typeof SecurityConfig>, param: string, position: number) => ({
  timelock: BigInt(c.timelock), mintThreshold: parseAmount(c.mint_threshold, `${param}.mint_threshold`, position),
  requiredSigners: c.required_signers, cosigners: accountsParam(c.authorized_cosigners, `${param}.authorized_cosigners`, position), quantumRequired: c.quantum_required,
});

const Minter = Type.Object({ minter: Str('Nx0… account'), allowance_remaining: DecimalString(), epoch_limit: DecimalString({ description: '"0" = none' }), minted_in_epoch: DecimalString() });
const Pending = Type.Object({
  id: Str('pending id'), kind: Str('role_change, minter_addition, handover or mint'), effective_height: Type.Integer({ description: 'executable from this height (a mint: the height it was requested)' }),
  proposer: Str('who queued it'), role: Type.Optional(Str('role_change: the role')), new_address: Type.Optional(Str('role_change: the new holder')),
  minter: Type.Optional(Str('minter_addition, mint: the minter')), allowance: Type.Optional(DecimalString()), epoch_limit: Type.Optional(DecimalString()),
  new_roles: Type.Optional(Type.Object({ owner: Type.String(), master_minter: Type.String(), pauser: Type.String(), blacklister: Type.String() })),
  to: Type.Optional(Str('mint: the recipient')), amount: Type.Optional(DecimalString()), approvals: Type.Optional(Type.Array(Type.String(), { description: 'mint: the cosigners that approved' })),
});
const StableInfo = Type.Object({
  mint: Str('Nx1… canonical mint'), symbol: Type.String(), name: Type.String(), decimals: Type.Integer(), currency: Type.String(), issuer: Type.String(),
  badge: Str('"Official Stablecoin" (spec §2.1)'), verification_status: Str('Pending, Verified or Issuer-Held (spec §2.2)'), reputation_points: Type.Integer(),
  total_supply: DecimalString(),
  roles: Type.Object({ owner: Type.String(), master_minter: Type.String(), pauser: Type.String(), blacklister: Type.String() }),
  guardians: Type.Array(Type.String()), paused: Type.Boolean(), mint_frozen: Type.Boolean(),
  timelock: Type.Integer(), epoch_length: Type.Integer(), current_epoch: Type.Integer(),
  mint_threshold: DecimalString({ description: '"0" = none' }), required_signers: Type.Integer(), authorized_cosigners: Type.Array(Type.String()),
  quantum_required: Type.Boolean(), supply_cap: Nullable(DecimalString()), blacklisted_count: Type.Integer(),
  minters: Type.Array(Minter), origin_mappings: Type.Array(Origin), launch_origin: Nullable(Type.String()), pending: Type.Array(Pending),
  created_height: Type.Integer(),
});

// Issuer onboarding (spec §4.16; docs/stablecoins.md "Issuer onboarding").
const OriginChainId = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'the EVM chain id of the origin chain the admin address is on (1 for Ethereum)' });
const EvmAddress = Type.String({ pattern: '^0x[0-9a-fA-F]{40}$', description: 'the origin-chain admin address: 0x + 40 hex digits' });
const EvmSignature = Type.String({ pattern: '^0x[0-9a-fA-F]{130}$', description: 'the personal_sign signature r ‖ s ‖ v: 0x + 130 hex digits' });
const hexToBytes = (h: string) => Uint8Array.from(Buffer.from(h.slice(2), 'hex'));
/** SHA-256 of the evidence as its 32 bytes; all zero is refused. */
const Digest = () => parsed(Type.String({ pattern: '^0x[0-9a-fA-F]{64}$', description: 'SHA-256 of the evidence the foundation checked (0x + 64 hex digits, not all zero)' }), (h, param, position) => {
  const digest = hexToBytes(h);
  if (digest.every((b) => b === 0)) throw RpcError.invalidParam(param, position, 'a non-zero SHA-256 digest', { status: 'INVALID_ISSUER_PROOF' });
  return digest;
});
/** An attestation's detail: 1–128 bytes of UTF-8, as its bytes. */
const Detail = () => parsed(Type.String({ minLength: 1, maxLength: 128, description: 'domain: the domain (e.g. circle.com); documents: a reference (1–128 bytes of UTF-8)' }), (detail, param, position) => {
  if (Buffer.byteLength(detail) > 128) throw RpcError.invalidParam(param, position, 'at most 128 bytes of UTF-8', { status: 'INVALID_ISSUER_PROOF' });
  return new TextEncoder().encode(detail);
});
const OnboardingMessage = Type.Object({
  message: Str('the exact text the admin signs with personal_sign (lines joined by "\\n")'), token: Str('Nx1… mint'),
  origin_chain_id: Type.Integer(), network_chain_id: Type.Integer({ description: "this network's chain id (eth_chainId)" }),
});
const Proof = Type.Object({
  method: Type.Union(ISSUER_PROOF_METHODS.map((m) => Type.Literal(m))), recorded_by: Str('the foundation or governance account'), height: Type.Integer(),
  admin_address: Type.Optional(Str('admin_signature: the origin admin 0x… address the signature recovered to')), origin_chain_id: Type.Optional(Type.Integer()),
  signature: Type.Optional(Str('admin_signature: 0x + 130 hex')), message: Type.Optional(Str('admin_signature: the message that was signed')),
  evidence_digest: Type.Optional(Str('domain, documents: 0x + 64 hex')), detail: Type.Optional(Str('domain: the domain; documents: the reference')),
});
const Onboarding = Type.Object({
  mint: Str('Nx1… mint'), symbol: Type.String(), verification_status: Str('Pending, Verified or Issuer-Held (spec §2.2)'),
  proofs_recorded: Type.Integer(), proofs_required: Type.Integer({ description: 'distinct proofs that make the issuer Verified: 2 of 3' }),
  missing: Type.Array(Type.Union(ISSUER_PROOF_METHODS.map((m) => Type.Literal(m)))), proofs: Type.Array(Proof),
});

/**
 * STD-8 stablecoins (spec §2.1, §3, §4.16; docs/stablecoins.md). The writes are unsigned
 * convenience methods (testnet, spec §5.5) checked against `sender`'s role, first here over
 * committed state (a caller the rule refuses gets -32011 naming the rule, and no bundle or fee
 * exists), then by the core, which decides; on mainnet the same operations arrive signed through
 * svc_submitBundle (src/client/wallet.ts).
 */
export function stablecoinMethods({ chain, readers }: MethodDependencies): MethodDefinition[] {
  const stableToken = (value: string, param: string, position: number): RegisteredToken => {
    const token = tokenParam(readers.tokens, value);
    if (!stableRecord(chain.state, token.mint)) throw RpcError.invalidParam(param, position, 'an STD-8 stablecoin (svc_listStablecoins lists them)', { token: value, status: 'NOT_STABLECOIN' });
    return token;
  };
  /** The reads' lookup: a token that is not an STD-8 stablecoin is NOT_FOUND (-32003). */
  const readStable = (ref: string) => {
    const token = tokenParam(readers.tokens, ref);
    const s = stableRecord(chain.state, token.mint);
    if (!s) throw RpcError.app('NOT_FOUND', `${token.symbol} is not an STD-8 stablecoin`, { token: ref });
    return { token, s };
  };
  /** Refuse what the core would refuse for `sender`'s role or the coin's state, then submit. */
  const submit = (sender: Uint8Array, op: Operation, token?: RegisteredToken) => {
    const no = refusal(chain.state, token, chain.height, sender, op);
    if (no) throw RpcError.app('UNAUTHORIZED', `${op.type} refused: ${no.message} (${no.status})`, { status: no.status, rule: no.message });
    return chain.submitOperations(sender, [op]);
  };
  /** Params parsed once (issue 44 item 4): the registry runs these with the param's name and position. */
  const PositiveAmount = () => parsed(DecimalString({ description: 'raw units' }), (value, param, position) => {
    const n = parseAmount(value, param, position);
    if (n === 0n) throw RpcError.invalidParam(param, position, 'an amount greater than zero', { status: 'ZERO_AMOUNT' });
    return n;
  });
  const StableRead = () => parsed(stableRef(), readStable);
  const writeErrors = [APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.UNKNOWN_TOKEN.code, APP_ERRORS.UNAUTHORIZED.code, APP_ERRORS.BUNDLE_FAILED.code, APP_ERRORS.BUNDLE_INVALID.code];
  const sender = (role: string) => ({ name: 'sender', schema: AccountParam({ description: `the acting account: ${role}` }) });
  const receipt = (description: string) => ({ name: 'receipt', schema: ReceiptSchema, description });
  const tokenP = { name: 'token', schema: parsed(stableRef(), stableToken) };
  const createParams = [{ name: 'config', schema: parsed(CreateConfig, createConfigParam) }, sender('the governance authority 0x00…09')] as const;
  const minterParams = [tokenP, { name: 'action', schema: Type.Union([Type.Literal('add'), Type.Literal('remove'), Type.Literal('configure')]) }, { name: 'minter', schema: AccountParam() },
    { name: 'allowance', schema: AmountOrNull({ description: 'raw units' }) }, { name: 'epoch_limit', schema: AmountOrNull({ description: 'raw units' }) }, sender('the master minter')] as const;
  const adminSignatureParams = [tokenP, { name: 'origin_chain_id', schema: OriginChainId }, { name: 'admin_address', schema: EvmAddress }, { name: 'signature', schema: EvmSignature },
    sender('the foundation 0x00…03 (or governance 0x00…09)')] as const;

  return [
    defineMethod({
      name: 'svc_createStableToken',
      summary: 'Create an STD-8 stablecoin: the canonical token with its deterministic mint, origin mappings, reserved symbol and official badge (governance only).',
      description: 'Governance only: `sender` must be the governance authority 0x00…09 (on mainnet a passed protocol proposal executes the same '
        + 'operation; on testnet naming it as sender stands in for one). The mint is Blake3("<first origin chain>_<SYMBOL>"), or '
        + 'Blake3("std8_<SYMBOL>") without mappings. A symbol already taken fails with SYMBOL_TAKEN. docs/stablecoins.md.',
      params: createParams,
      result: receipt('receipt: creates an STD-8 stablecoin (canonical mint, origin mappings, reserved symbol, official badge); governance `0x00…09`'
        + ' only ([stablecoins.md](stablecoins.md))'), errors: writeErrors,
      handler: async ([op, gov]) => {
        if (readers.tokens.resolve(op.symbol)) {
          throw invalidParamIn(createParams, 'config', 'a symbol no token has yet', { symbol: op.symbol, status: 'SYMBOL_TAKEN' });
        }
        return submit(gov, op);
      },
    }),
    defineMethod({
      name: 'svc_stableMint',
      summary: 'Mint `amount` of a stablecoin to `to` (a configured minter; above mint_threshold it waits for the cosigners).',
      description: 'Refused (-32011, data.status) when the sender is not a minter, either party is blacklisted, the coin is paused or minting '
        + 'is frozen, the quantum requirement is on (mint with an ML-DSA-65-signed bundle instead), or the allowance is short; the epoch '
        + 'limit and supply cap fail in the block (EPOCH_LIMIT_EXCEEDED, SUPPLY_CAP_EXCEEDED). A mint above mint_threshold answers with '
        + 'a StablePending event (kind mint) and executes when required_signers cosigners approve (svc_stableApproveMint).',
      params: [tokenP, { name: 'to', schema: AccountParam() }, { name: 'amount', schema: PositiveAmount() }, sender('a minter')] as const,
      result: receipt('receipt: a minter mints; above `mint_threshold` a pending mint for the cosigners'), errors: writeErrors,
      handler: async ([token, to, amount, from]) => submit(from, { type: 'StableMint', token: token.mint, to, amount }, token),
    }),
    defineMethod({
      name: 'svc_stableBurn',
      summary: 'Burn `amount` of the sender\'s own stablecoin balance (any holder).',
      description: 'The total supply falls by the amount; the receipt carries a Transfer to the zero account. Refused while paused or for a blacklisted holder.',
      params: [tokenP, { name: 'amount', schema: PositiveAmount() }, sender('the holder')] as const,
      result: receipt('receipt: the holder burns its own'), errors: [...writeErrors, APP_ERRORS.INSUFFICIENT_BALANCE.code],
      handler: async ([token, value, holder]) => {
        const op: Operation = { type: 'StableBurn', token: token.mint, amount: value };
        const no = refusal(chain.state, token, chain.height, holder, op);
        if (!no && chain.balance(holder, token.mint) < value) throw RpcError.app('INSUFFICIENT_BALANCE', `the sender holds ${chain.balance(holder, token.mint)} raw units, less than ${value}`, { status: 'INSUFFICIENT_BALANCE' });
        return submit(holder, op, token);
      },
    }),
    defineMethod({
      name: 'svc_stablePause',
      summary: 'Pause (true) or unpause (false) a stablecoin: while paused no mint and no movement of it on any path (pauser role).',
      description: 'Pausing holds on every path that moves the token (transfers, EVM transfers, TransferFrom, DEX swaps and liquidity, schedules, and the domains added later), because the core checks it where balances move. Pausing a paused coin is allowed, as in FiatToken. NOT_PAUSER (-32011) for anyone else. docs/stablecoins.md "Where the rules hold".',
      params: [tokenP, { name: 'pause', schema: Type.Boolean() }, sender('the pauser')] as const,
      result: receipt('receipt: the pauser pauses or unpauses every movement and minting'), errors: writeErrors,
      handler: async ([token, pause, from]) => submit(from, { type: 'StablePause', token: token.mint, pause }, token),
    }),
    defineMethod({
      name: 'svc_stableBlacklist',
      summary: 'Add (true) or remove (false) an address on a stablecoin\'s blacklist: it can then neither send, receive, mint nor burn it (blacklister role).',
      description: 'The blacklist is checked before any state change, for the sender and the recipient of every movement, and for the minter and recipient of a mint. Adding twice or removing an absent address changes nothing. NOT_BLACKLISTER (-32011) for anyone else.',
      params: [tokenP, { name: 'address', schema: AccountParam() }, { name: 'add', schema: Type.Boolean() }, sender('the blacklister')] as const,
      result: receipt('receipt: the blacklister adds or removes an address'), errors: writeErrors,
      handler: async ([token, account, add, from]) => submit(from, { type: 'StableBlacklist', token: token.mint, account, add }, token),
    }),
    defineMethod({
      name: 'svc_stableTransferRole',
      summary: 'Queue the transfer of one role to `new_address`; it applies after the timelock (owner only).',
      description: 'Answers with the receipt, whose StablePending event gives the pending_id and effective_height; from that height anyone '
        + 'applies it with svc_stableExecutePending; the owner or a guardian may cancel it before (svc_stableCancelPending).',
      params: [tokenP, { name: 'role', schema: Type.Union(ROLE_NAMES.map((r) => Type.Literal(r))) }, { name: 'new_address', schema: AccountParam() }, sender('the owner')] as const,
      result: receipt('receipt with the pending change and its effective height (owner; timelocked)'), errors: writeErrors,
      handler: async ([token, role, newAddress, from]) => submit(from, { type: 'StableTransferRole', token: token.mint, role, newAddress }, token),
    }),
    defineMethod({
      name: 'svc_stableConfigureMinter',
      summary: 'Add (timelocked), remove (immediate) or configure (immediate) a minter and its allowance and epoch limit (master minter).',
      description: 'allowance and epoch_limit are needed for add and configure and ignored for remove (pass null); epoch_limit "0" means no '
        + 'per-epoch limit. An addition answers with a StablePending event and applies with svc_stableExecutePending after the timelock; the '
        + 'owner or a guardian may cancel it.',
      params: minterParams,
      result: receipt('receipt: add (timelocked), remove, configure (master minter)'), errors: writeErrors,
      handler: async ([token, action, minter, allowance, limit, from]) => {
        if (action !== 'remove' && (allowance == null || limit == null)) {
          throw invalidParamIn(minterParams, allowance == null ? 'allowance' : 'epoch_limit', `a raw-unit amount for ${action}`);
        }
        return submit(from, { type: 'StableConfigureMinter', token: token.mint, action, minter, allowance: allowance ?? 0n, epochLimit: limit ?? 0n }, token);
      },
    }),
    defineMethod({
      name: 'svc_stableHandover',
      summary: 'Queue the handover of all four roles to the issuer: public, at least 720 blocks, then all move at once (owner only).',
      description: 'Cancelable by the foundation (0x00…03), governance, the owner or any guardian. Executed with svc_stableExecutePending '
        + 'from its effective height; the verification status becomes Issuer-Held (spec §2.2).',
      params: [tokenP, { name: 'new_owner', schema: AccountParam() }, { name: 'new_master_minter', schema: AccountParam() }, { name: 'new_pauser', schema: AccountParam() },
        { name: 'new_blacklister', schema: AccountParam() }, sender('the owner')] as const,
      result: receipt('receipt with the pending handover (owner; ≥ 720 blocks)'), errors: writeErrors,
      handler: async ([token, newOwner, newMasterMinter, newPauser, newBlacklister, from]) =>
        submit(from, { type: 'StableHandover', token: token.mint, newOwner, newMasterMinter, newPauser, newBlacklister }, token),
    }),
    defineMethod({
      name: 'svc_stableCancelPending',
      summary: 'Cancel a pending role change, minter addition, handover or mint before it applies.',
      description: 'Role changes and minter additions: the owner or a guardian; a handover: the foundation, governance, the owner or a guardian; '
        + 'a pending mint: the owner, the master minter or a guardian. docs/stablecoins.md "Pending changes".',
      params: [tokenP, { name: 'pending_id', schema: PendingId() }, sender('see the description')] as const,
      result: receipt('receipt: a pending change or mint cancelled'), errors: writeErrors,
      handler: async ([token, pendingId, from]) => submit(from, { type: 'StableCancelPending', token: token.mint, pendingId }, token),
    }),
    defineMethod({
      name: 'svc_stableExecutePending',
      summary: 'Apply a pending role change, minter addition or handover whose timelock has expired (anyone).',
      description: 'PENDING_NOT_DUE (-32011) before its effective height, PENDING_NOT_FOUND for an id that is not pending (or a pending mint, which executes through its cosigners). A handover moves all four roles at once and makes the issuer Issuer-Held.',
      params: [tokenP, { name: 'pending_id', schema: PendingId() }, sender('any account (it pays the fee)')] as const,
      result: receipt('receipt: a due change applied (anyone)'), errors: writeErrors,
      handler: async ([token, pendingId, from]) => submit(from, { type: 'StableExecutePending', token: token.mint, pendingId }, token),
    }),
    defineMethod({
      name: 'svc_stableFreezeMint',
      summary: 'Freeze minting at once, without a timelock (a guardian); transfers stay allowed. Only the owner unfreezes.',
      description: 'paused and mint_frozen are independent (spec §3): a frozen coin still moves. NOT_STABLE_GUARDIAN (-32011) for anyone but a guardian.',
      params: [tokenP, sender('a guardian')] as const,
      result: receipt('receipt: a guardian freezes minting (only the owner unfreezes it)'), errors: writeErrors,
      handler: async ([token, from]) => submit(from, { type: 'StableFreezeMint', token: token.mint }, token),
    }),
    defineMethod({
      name: 'svc_stableUnfreezeMint',
      summary: 'Lift a guardian\'s mint freeze (owner only).',
      description: 'Only the owner role, never a guardian (spec §3): NOT_STABLE_OWNER (-32011).',
      params: [tokenP, sender('the owner')] as const,
      result: receipt('receipt: the owner unfreezes minting a guardian froze'), errors: writeErrors,
      handler: async ([token, from]) => submit(from, { type: 'StableUnfreezeMint', token: token.mint }, token),
    }),
    defineMethod({
      name: 'svc_stableSetGuardians',
      summary: 'Replace the guardian list (owner only; at most 8 distinct non-zero addresses; immediate).',
      description: 'Guardians freeze minting at once and cancel pending changes and handovers. A list with a zero or repeated address fails with INVALID_STABLE_CONFIG.',
      params: [tokenP, { name: 'guardians', schema: parsed(Type.Array(Address(), { maxItems: 8 }), accountsParam) }, sender('the owner')] as const,
      result: receipt('receipt (owner)'), errors: writeErrors,
      handler: async ([token, guardians, from]) => submit(from, { type: 'StableSetGuardians', token: token.mint, guardians }, token),
    }),
    defineMethod({
      name: 'svc_stableConfigureSecurity',
      summary: 'Set the timelock, mint threshold, required signers, authorized cosigners and quantum requirement (owner only; immediate).',
      description: 'Clears the approvals of pending mints (they counted the old cosigners). required_signers must be at most the cosigners and at least 1 with a threshold.',
      params: [tokenP, { name: 'config', schema: parsed(SecurityConfig, securityConfigParam) }, sender('the owner')] as const,
      result: receipt('receipt: timelock, threshold, signers, cosigners, quantum requirement (owner)'), errors: writeErrors,
      handler: async ([token, config, from]) => submit(from, { type: 'StableConfigureSecurity', token: token.mint, ...config }, token),
    }),
    defineMethod({
      name: 'svc_stableApproveMint',
      summary: 'Approve a pending large mint as an authorized cosigner; the approval that reaches required_signers executes it (its limits checked again).',
      description: 'NOT_COSIGNER or STABLE_ALREADY_APPROVED (-32011) before any bundle; a failure of the re-checked limits fails this approval, which may be sent again once the mint fits.',
      params: [tokenP, { name: 'pending_id', schema: PendingId() }, sender('an authorized cosigner')] as const,
      result: receipt('receipt: a cosigner approves a pending mint'), errors: writeErrors,
      handler: async ([token, pendingId, from]) => submit(from, { type: 'StableApproveMint', token: token.mint, pendingId }, token),
    }),
    defineMethod({
      name: 'svc_stableRaiseSupplyCap',
      summary: 'Raise a stablecoin\'s supply cap ("0" removes it): governance only, never the owner (spec §2.1).',
      description: 'Only the governance authority 0x00…09 (a passed proposal; on testnet as sender). SUPPLY_CAP_NOT_RAISED for a cap not above the current one, or for a coin without a cap.',
      params: [tokenP, { name: 'supply_cap', schema: AmountParam({ description: 'the new cap in raw units, above the current one; "0" = no cap' }) }, sender('the governance authority 0x00…09')] as const,
      result: receipt('receipt (governance only)'), errors: writeErrors,
      handler: async ([token, supplyCap, from]) => submit(from, { type: 'StableRaiseSupplyCap', token: token.mint, supplyCap }, token),
    }),
    defineMethod({
      name: 'svc_stableVerifyIssuer',
      summary: 'Mark a stablecoin\'s issuer Verified (spec §2.2: 12 points): governance only.',
      description: 'Pending becomes Verified; an Issuer-Held coin stays Issuer-Held. NOT_GOVERNANCE (-32011) for any other sender.',
      params: [tokenP, sender('the governance authority 0x00…09')] as const,
      result: receipt('receipt: issuer Verified (governance only)'), errors: writeErrors,
      handler: async ([token, from]) => submit(from, { type: 'StableVerifyIssuer', token: token.mint }, token),
    }),
    defineMethod({
      name: 'svc_stableIssuerOnboardingMessage',
      summary: 'The message an origin-chain admin signs with personal_sign to prove control of a stablecoin (issuer onboarding, spec §4.16).',
      description: 'It names the token\'s mint, the origin chain id and this network\'s chain id, so a signature cannot be reused for another token, '
        + 'origin or network. Sign it with the admin key (viem signMessage, eth_sign/personal_sign in a wallet) and hand the signature to the foundation, '
        + 'which records it with svc_stableSubmitAdminSignature. docs/stablecoins.md "Issuer onboarding".',
      params: [tokenP, { name: 'origin_chain_id', schema: OriginChainId }] as const,
      result: {
        name: 'onboarding_message', schema: OnboardingMessage,
        description: 'the message the origin-chain admin signs with `personal_sign` (issuer onboarding, spec §4.16)',
      },
      errors: [APP_ERRORS.UNKNOWN_TOKEN.code],
      handler: ([token, originChainId]) => {
        return { message: issuerOnboardingMessage(token.mint, BigInt(originChainId), chain.chainId), token: encodeMint(token.mint), origin_chain_id: originChainId, network_chain_id: chain.chainId };
      },
    }),
    defineMethod({
      name: 'svc_stableSubmitAdminSignature',
      summary: 'Record the admin-signature proof of issuer onboarding: the origin-chain admin\'s personal_sign signature, verified by the node (foundation or governance).',
      description: 'The node recovers the secp256k1 signer of svc_stableIssuerOnboardingMessage\'s message and refuses (-32602, data.status INVALID_ISSUER_PROOF) '
        + 'a signature that is malformed or made by another address than admin_address; nothing reaches the chain then. The sender vouches that '
        + 'admin_address is the origin contract\'s admin (the node cannot read the origin chain): the foundation 0x00…03, or governance 0x00…09 '
        + '(NOT_FOUNDATION, -32011, for anyone else). The second of the three proofs makes the issuer Verified (receipt: StableIssuerProof).',
      params: adminSignatureParams,
      result: receipt('receipt: the admin-signature proof, the signature verified by the node (foundation or governance)'), errors: writeErrors,
      handler: async ([token, originChainId, admin, signature, from]) => {
        const subject = new Uint8Array(32);
        subject.set(hexToBytes(admin), 12);
        const op: Operation = { type: 'StableIssuerProof', token: token.mint, method: 'admin_signature', chainId: BigInt(originChainId), subject, detail: new Uint8Array(0), signature: hexToBytes(signature) };
        if (op.type === 'StableIssuerProof') {
          const why = checkIssuerProof(op, chain.chainId);
          if (why) throw invalidParamIn(adminSignatureParams, 'signature', `a personal_sign signature by admin_address over svc_stableIssuerOnboardingMessage's message (${why})`, { status: 'INVALID_ISSUER_PROOF' });
        }
        return submit(from, op, token);
      },
    }),
    defineMethod({
      name: 'svc_stableAttestIssuer',
      summary: 'Record the foundation\'s attestation of an issuer\'s domain challenge or corporate documents (issuer onboarding, spec §4.16).',
      description: '`method` is domain (the issuer served the foundation\'s challenge on `detail`, its domain) or documents (the foundation checked the '
        + 'corporate documents `detail` names); `evidence_digest` is SHA-256 of what was checked, so the record can be matched with it later. Foundation '
        + '0x00…03 or governance 0x00…09 only (NOT_FOUNDATION); each proof once per token (PROOF_ALREADY_RECORDED). The second of the three proofs '
        + 'makes the issuer Verified.',
      params: [tokenP, { name: 'method', schema: Type.Union([Type.Literal('domain'), Type.Literal('documents')]) }, { name: 'evidence_digest', schema: Digest() },
        { name: 'detail', schema: Detail() },
        sender('the foundation 0x00…03 (or governance 0x00…09)')] as const,
      result: receipt('receipt: the domain or documents proof (foundation or governance); two of three proofs make the issuer Verified'), errors: writeErrors,
      handler: async ([token, method, subject, detail, from]) =>
        submit(from, { type: 'StableIssuerProof', token: token.mint, method, chainId: 0n, subject, detail, signature: new Uint8Array(0) }, token),
    }),
    defineMethod({
      name: 'svc_getIssuerOnboarding',
      summary: 'A stablecoin\'s issuer-onboarding record: the proofs recorded (admin signature, domain, documents), what is missing, and the verification status.',
      description: 'Two of the three proofs make a Pending issuer Verified (spec §4.16); a completed handover makes it Issuer-Held. NOT_FOUND (-32003) for a token that is not an STD-8 stablecoin.',
      params: [{ name: 'symbol_or_mint', schema: StableRead() }] as const,
      result: {
        name: 'onboarding', schema: Onboarding,
        description: 'the onboarding proofs recorded, the missing ones, the verification status',
      },
      errors: [APP_ERRORS.UNKNOWN_TOKEN.code, APP_ERRORS.NOT_FOUND.code],
      handler: ([{ token, s }]) => {
        const proofs = stableOnboarding(chain.state, token.mint)?.proofs ?? [];
        const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;
        return {
          mint: encodeMint(token.mint), symbol: token.symbol, verification_status: (VERIFICATION[s.verification] ?? VERIFICATION[0]).status,
          proofs_recorded: proofs.length, proofs_required: ONBOARDING_PROOFS_REQUIRED,
          missing: ISSUER_PROOF_METHODS.filter((_, i) => !proofs.some((p) => p.method === i)),
          proofs: proofs.map((p) => {
            const base = { method: ISSUER_PROOF_METHODS[p.method] ?? 'documents', recorded_by: encodeAccount(p.by), height: Number(p.height) };
            return p.method === 0
              ? { ...base, admin_address: hex(p.subject.subarray(12)), origin_chain_id: Number(p.chainId), signature: hex(p.signature), message: issuerOnboardingMessage(token.mint, p.chainId, chain.chainId) }
              : { ...base, evidence_digest: hex(p.subject), detail: p.detail };
          }),
        };
      },
    }),
    defineMethod({
      name: 'svc_getStablecoinInfo',
      summary: 'A stablecoin\'s roles, config, security settings, origin mappings, minters and pending changes.',
      description: 'NOT_FOUND (-32003) for a token that is not an STD-8 stablecoin; UNKNOWN_TOKEN for no token at all.',
      params: [{ name: 'symbol_or_mint', schema: StableRead() }] as const,
      result: {
        name: 'stablecoin', schema: StableInfo,
        description: 'roles, config, security settings, origin mappings, minters, pending changes, verification status',
      },
      errors: [APP_ERRORS.UNKNOWN_TOKEN.code, APP_ERRORS.NOT_FOUND.code],
      handler: ([{ token, s }]) => info(token, s),
    }),
    defineMethod({
      name: 'svc_listStablecoins',
      summary: 'Every STD-8 stablecoin (genesis ones first, then by creation), with the same fields as svc_getStablecoinInfo.',
      description: 'The 18 genesis stablecoins are listed with verification Pending and governance holding their roles until each issuer\'s handover.',
      params: [{ name: 'limit', schema: Limit({ description: 'at most this many (default 100, at most 1,000)', default: 100 }), required: false }] as const,
      result: {
        name: 'stablecoins', schema: Type.Array(StableInfo),
        description: 'every STD-8 stablecoin, same shape',
      },
      handler: ([limit]) => {
        const out = [];
        for (const token of readers.tokens.list()) {
          if (out.length >= (limit ?? 100)) break;
          const s = stableRecord(chain.state, token.mint);
          if (s) out.push(info(token, s));
        }
        return out;
      },
    }),
    defineMethod({
      name: 'svc_isBlacklisted',
      summary: 'Whether an address is blacklisted for a stablecoin.',
      description: 'Reads the 0x41 blacklist entry; -32602 for a token that is not a stablecoin, UNKNOWN_TOKEN for no token.',
      params: [tokenP, { name: 'address', schema: AccountParam() }] as const,
      result: {
        name: 'blacklisted', schema: Type.Boolean(),
        description: 'boolean',
      },
      errors: [APP_ERRORS.UNKNOWN_TOKEN.code],
      handler: ([token, address]) => isBlacklisted(chain.state, token.mint, address),
    }),
  ];

  function info(token: RegisteredToken, s: StableCoinFields) {
    const p = stableProfile(chain.state, token.mint);
    const v = VERIFICATION[s.verification] ?? VERIFICATION[0];
    const epoch = BigInt(chain.height) / (s.epochLength === 0n ? 1n : s.epochLength);
    return {
      mint: encodeMint(token.mint), symbol: token.symbol, name: token.name, decimals: token.decimals, currency: p?.currency ?? '', issuer: p?.issuer ?? '',
      badge: 'Official Stablecoin', verification_status: v.status, reputation_points: v.points, total_supply: token.totalSupply.toString(),
      roles: { owner: encodeAccount(s.owner), master_minter: encodeAccount(s.masterMinter), pauser: encodeAccount(s.pauser), blacklister: encodeAccount(s.blacklister) },
      guardians: s.guardians.map(encodeAccount), paused: isPaused(token), mint_frozen: (s.flags & STABLE_FLAG_MINT_FROZEN) !== 0,
      timelock: Number(s.timelock), epoch_length: Number(s.epochLength), current_epoch: Number(epoch),
      mint_threshold: s.mintThreshold.toString(), required_signers: s.requiredSigners, authorized_cosigners: s.cosigners.map(encodeAccount),
      quantum_required: (s.flags & STABLE_FLAG_QUANTUM) !== 0, supply_cap: s.supplyCap === 0n ? null : s.supplyCap.toString(), blacklisted_count: Number(s.blacklisted),
      minters: s.minters.map((m) => ({ minter: encodeAccount(m.minter), allowance_remaining: m.allowance.toString(), epoch_limit: m.epochLimit.toString(),
        minted_in_epoch: (m.epoch === epoch ? m.mintedInEpoch : 0n).toString() })),
      origin_mappings: (p?.origins ?? []).map((o) => ({ chain: o.chain, contract: o.contract })),
      launch_origin: p?.launchOrigin ? p.launchOrigin : null,
      pending: s.pending.map((x) => {
        const kind = PENDING_KINDS[x.kind] ?? 'role_change';
        const base = { id: x.id.toString(), kind, effective_height: Number(x.effectiveHeight), proposer: encodeAccount(x.proposer) };
        if (x.kind === STD8_PENDING_ROLE_CHANGE) return { ...base, role: ROLE_NAMES[x.role] ?? 'owner', new_address: encodeAccount(x.a) };
        if (x.kind === STD8_PENDING_MINTER_ADDITION) return { ...base, minter: encodeAccount(x.a), allowance: x.amount.toString(), epoch_limit: x.amount2.toString() };
        if (x.kind === STD8_PENDING_HANDOVER) return { ...base, new_roles: { owner: encodeAccount(x.a), master_minter: encodeAccount(x.b), pauser: encodeAccount(x.c), blacklister: encodeAccount(x.d) } };
        return { ...base, minter: encodeAccount(x.a), to: encodeAccount(x.b), amount: x.amount.toString(), approvals: s.cosigners.filter((_, i) => x.approvals & (1 << i)).map(encodeAccount) };
      }),
      created_height: Number(s.createdHeight),
    };
  }
}

