import { Type } from '@sinclair/typebox';
import { encodeAccount, encodeMint } from '../../codec/address.js';
import { attestationProblem, decodeDepositProof, depositDigest, type DepositProof } from './proofs.js';
import { fromHex } from '../../codec/hash.js';
import { BRIDGE_CHAINS, BRIDGE_MAX_TEXT, isBridgeChain } from './reader.js';
import { SAFETY_LEVELS } from '../../chain/proposals.js';
import { stableProfile } from '../../chain/stablecoins.js';
import { CHAIN_IDS } from '../../chain/genesis-data.js';
import type { BridgeDepositRecordFields, BridgeWithdrawalRecordFields, ContractSafetyFields } from '../../abi/state.js';
import { statusOf } from '../../chain/status.js';
import { TokenKind } from '../../core/records.js';
import { APP_ERRORS, RpcError } from '../../rpc/errors.js';
import { defineMethod, type MethodDefinition } from '../../rpc/registry.js';
import { Limit, parsed } from '../../rpc/schemas.js';
import type { MethodDependencies } from '../../rpc/methods/context.js';
import { AccountParam, AmountParam, hashParam, invalidParamIn, positionIn, TokenParam } from '../../rpc/methods/params.js';
import { ReceiptSchema } from '../../rpc/methods/result-schemas.js';

/**
 * The bridge (spec §4.6; docs/bridge.md): the writes are unsigned convenience forms (testnet only)
 * of BridgeDeposit, BridgeWithdraw and RegisterBridgeMapping; the reads answer from committed state
 * (src/domains/bridge/reader.ts). Attester signatures are checked here first for a clear error, and again
 * wherever the node verifies bundles (src/domains/bridge/attestations.ts).
 */

const Str = (description: string) => Type.String({ description });
const NullStr = (description: string) => Type.Union([Type.String(), Type.Null()], { description });
const CHAIN_DESCRIPTION = `origin chain: ${BRIDGE_CHAINS.map((c) => c.chain).join(', ')} (docs/bridge.md "Chains")`;
const chainString = () => Type.String({ minLength: 1, maxLength: 64, description: CHAIN_DESCRIPTION });
/** A chain the bridge serves (params parsed once: the registry runs the check with the param's position). */
const ChainParam = parsed(chainString(), chainParam);
/** The same, or null for every chain. */
const ChainOrNull = parsed(Type.Union([chainString(), Type.Null()], { description: `${CHAIN_DESCRIPTION}; null: every chain` }),
  (value, param, position) => (value === null ? null : chainParam(value, param, position)));
/** 1–BRIDGE_MAX_TEXT bytes of UTF-8 (a contract or destination address on another chain). */
const TextParam = (description: string) => parsed(Type.String({ minLength: 1, maxLength: 128, description }), textParam);

const DepositSchema = Type.Object({
  chain: Str('origin chain'), tx_hash: Str('the transfer on the origin chain'), contract: Str('the token contract there'),
  status: Type.Union([Type.Literal('pending'), Type.Literal('completed')], { description: 'completed: credited; pending: held as a pending receive' }),
  reason: NullStr('pending: the status holding it (TOKEN_PAUSED, MINT_FROZEN, SUPPLY_CAP_EXCEEDED)'),
  mint: Str('Nx1… the token credited'), recipient: Str('Nx0…'), amount: Str('raw units'),
  height: Type.Integer({ description: 'block that recorded the attested deposit' }), credited_height: Type.Union([Type.Integer(), Type.Null()]),
}, { title: 'BridgeDeposit', additionalProperties: false });
const WithdrawalSchema = Type.Object({
  sequence: Str('withdrawal sequence number (decimal)'), chain: Str('destination chain'), destination: Str('address on that chain'),
  status: Type.Union([Type.Literal('pending'), Type.Literal('attested')], { description: 'pending until the attesters sign it for the destination chain' }),
  sender: Str('Nx0…'), mint: Str('Nx1… the token burned'), amount: Str('raw units burned'), fee: Str('raw NTV paid to the treasury'),
  height: Type.Integer(), attested_height: Type.Union([Type.Integer(), Type.Null()]),
}, { title: 'BridgeWithdrawal', additionalProperties: false });
const SafetySchema = Type.Object({
  chain: Str('chain'), contract_address: Str('contract'),
  level: Type.Union(SAFETY_LEVELS.map((l) => Type.Literal(l)), { description: 'unreviewed, verified, caution (a warning), blocked (deposits refused)' }),
  level_code: Type.Integer({ minimum: 0, maximum: 3 }),
  reason: Str('why: the governance proposal that set it, or none'),
  proposal_id: NullStr('the proposal that set it (decimal); null when unreviewed or set directly by the governance authority'),
  height: Type.Union([Type.Integer(), Type.Null()]),
}, { title: 'ContractSafety', additionalProperties: false });

const depositJson = (d: BridgeDepositRecordFields) => ({
  chain: d.chain, tx_hash: d.txHash, contract: d.contract, status: d.state === 1 ? 'completed' as const : 'pending' as const,
  reason: d.state === 1 ? null : statusOf(d.reason).name, mint: encodeMint(d.mint), recipient: encodeAccount(d.recipient), amount: d.amount.toString(),
  height: Number(d.height), credited_height: d.state === 1 ? Number(d.creditedHeight) : null,
});
const withdrawalJson = (w: BridgeWithdrawalRecordFields & { sequence: bigint }) => ({
  sequence: w.sequence.toString(), chain: w.chain, destination: w.destination, status: w.state === 1 ? 'attested' as const : 'pending' as const,
  sender: encodeAccount(w.sender), mint: encodeMint(w.mint), amount: w.amount.toString(), fee: w.fee.toString(),
  height: Number(w.height), attested_height: w.state === 1 ? Number(w.attestedHeight) : null,
});
const safetyJson = (chain: string, contract: string, s: ContractSafetyFields | undefined) => ({
  chain, contract_address: contract, level: SAFETY_LEVELS[s?.level ?? 0] ?? 'unreviewed', level_code: s?.level ?? 0,
  reason: !s ? 'no record: not reviewed' : s.proposalId === 0n ? 'set by the governance authority 0x00…09' : `set by governance proposal ${s.proposalId}`,
  proposal_id: s && s.proposalId !== 0n ? s.proposalId.toString() : null, height: s ? Number(s.height) : null,
});

function chainParam(chain: string, name: string, position: number): string {
  if (!isBridgeChain(chain)) throw RpcError.invalidParam(name, position, `one of ${BRIDGE_CHAINS.map((c) => c.chain).join(', ')}`, { chain });
  return chain;
}
function textParam(value: string, name: string, position: number): string {
  const n = new TextEncoder().encode(value).length;
  if (n < 1 || n > BRIDGE_MAX_TEXT) throw RpcError.invalidParam(name, position, `1–${BRIDGE_MAX_TEXT} bytes`, { bytes: n });
  return value;
}

export function bridgeMethods({ chain, readers, network }: MethodDependencies): MethodDefinition[] {
  const chainId = CHAIN_IDS[network];
  /** A proof from hex, its chain known and every attester signature verifying. */
  const proofParam = (hex: string, name: string, position: number): DepositProof => {
    let proof: DepositProof;
    try {
      proof = decodeDepositProof(fromHex(hex.startsWith('0x') ? hex.slice(2) : hex, undefined, name));
    } catch (error) {
      throw RpcError.invalidParam(name, position, 'hex of a Borsh deposit proof (docs/bridge.md "Proofs")', { reason: (error as Error).message });
    }
    if (!isBridgeChain(proof.chain)) throw RpcError.invalidParam(name, position, 'a proof from a chain the bridge serves', { chain: proof.chain });
    if (proof.signatures.length === 0) throw RpcError.invalidParam(name, position, 'a proof with attester signatures', { reason: 'the proof carries no signature' });
    const bad = attestationProblem(proof.signatures, depositDigest(chainId, proof));
    if (bad) throw RpcError.invalidParam(name, position, 'attester signatures over this network\'s deposit digest', { reason: bad });
    return proof;
  };
  const ProofParam = () => parsed(Type.String({ minLength: 2, maxLength: 20_000, description: 'hex of the Borsh deposit proof (chain, tx hash, contract, symbol, amount, decimals, recipient, attester signatures; docs/bridge.md "Proofs"), as `ntv-node bridge attest` prints it' }), proofParam);
  const bridgeTokenParams = [
    { name: 'chain', schema: ChainParam },
    { name: 'tx_hash', schema: Type.String({ minLength: 1, maxLength: 128, description: 'the transfer on the origin chain' }) },
    { name: 'symbol', schema: Type.String({ minLength: 1, maxLength: 16, description: 'the token symbol on the origin chain' }) },
    { name: 'amount', schema: AmountParam({ description: 'raw units' }) },
    { name: 'recipient', schema: AccountParam({ description: 'the account credited' }) },
    { name: 'proof', schema: ProofParam() },
  ] as const;
  const statusParams = [
    { name: 'chain', schema: ChainParam },
    { name: 'tx_hash', schema: Type.String({ minLength: 1, maxLength: 128, description: 'origin tx hash; or a bundle hash (Nxh…); or withdrawal:<sequence>' }) },
  ] as const;
  const deposit = (proof: DepositProof) => chain.submitOperations(proof.recipient, [{ type: 'BridgeDeposit', ...proof }]);
  const PendingSchema = Type.Array(DepositSchema);

  return [
    defineMethod({
      name: 'svc_bridgeToken',
      summary: 'Credit an attested deposit from an external chain (spec §4.6; unsigned convenience, testnet only).',
      description: 'The proof must be for exactly this chain, tx hash, symbol, amount and recipient, signed by at least the threshold of the '
        + 'bridge\'s attesters. The recipient\'s bundle carries it. An STD-8 origin contract credits the canonical STD-8 mint (the fast path); '
        + 'any other token is created at Blake3("<chain>_<SYMBOL>") on its first deposit. BUNDLE_FAILED with the core\'s status '
        + '(BRIDGE_ALREADY_PROCESSED for a replay, BRIDGE_CONTRACT_BLOCKED, BRIDGE_BELOW_THRESHOLD, …). docs/bridge.md.',
      params: bridgeTokenParams,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt; testnet only (a signed `BridgeDeposit` bundle elsewhere); each param must match the proof',
      },
      errors: [APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.BUNDLE_FAILED.code, APP_ERRORS.BUNDLE_INVALID.code],
      handler: ([c, txHash, symbol, value, to, proof]) => {
        const mismatch = proof.chain !== c ? 'chain' as const : proof.txHash !== txHash ? 'tx_hash' as const : proof.symbol !== symbol ? 'symbol' as const
          : proof.amount !== value ? 'amount' as const : Buffer.compare(proof.recipient, to) !== 0 ? 'recipient' as const : undefined;
        if (mismatch) throw invalidParamIn(bridgeTokenParams, mismatch, 'the value the proof attests', { proof: { chain: proof.chain, tx_hash: proof.txHash, symbol: proof.symbol, amount: proof.amount.toString(), recipient: encodeAccount(proof.recipient) } });
        return deposit(proof);
      },
    }),
    defineMethod({
      name: 'svc_autobridge',
      summary: 'Universal receive: take any attested deposit proof, detect chain, token and mapping, and credit it (testnet convenience).',
      description: 'Reads chain, tx hash, contract, symbol, amount and recipient from the proof and reports which path it takes: `std8` (an '
        + 'STD-8 origin mapping or a registered mapping: the canonical mint), `bridged` (an existing bridged token), `new_token` '
        + '(created at Blake3("<chain>_<SYMBOL>")) or `impersonation` (a reserved STD-8 symbol from an unmapped contract). A deposit '
        + 'the coin cannot take now (paused, mint frozen, at its cap) is held as a pending receive; the same proof again completes it '
        + 'once the hold clears (ClaimBridgeDeposit). docs/bridge.md.',
      params: [{ name: 'proof', schema: ProofParam() }] as const,
      result: { description: '`{path, deposit, receipt}`: detects chain, token and mapping; completes a pending receive', name: 'receive', schema: Type.Object({
        path: Type.Union([Type.Literal('std8'), Type.Literal('bridged'), Type.Literal('new_token'), Type.Literal('impersonation')]),
        deposit: DepositSchema, receipt: ReceiptSchema,
      }, { additionalProperties: false }) },
      errors: [APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.BUNDLE_FAILED.code, APP_ERRORS.BUNDLE_INVALID.code],
      handler: async ([proof]) => {
        // A deposit held as a pending receive completes with the same proof once its hold clears.
        const held = readers.bridge.deposit(proof.chain, proof.txHash);
        const receipt = held?.state === 0
          ? await chain.submitOperations(proof.recipient, [{ type: 'ClaimBridgeDeposit', chain: proof.chain, txHash: proof.txHash }])
          : await deposit(proof);
        const record = readers.bridge.deposit(proof.chain, proof.txHash)!;
        const token = readers.tokens.byMintBytes(record.mint);
        const bridged = readers.bridge.bridged(record.mint);
        const path = token?.kind === TokenKind.STD8_STABLECOIN ? 'std8' as const : bridged?.impersonation ? 'impersonation' as const
          : receipt.events.some((e) => e.type === 'TokenCreated') ? 'new_token' as const : 'bridged' as const;
        return { path, deposit: depositJson(record), receipt };
      },
    }),
    defineMethod({
      name: 'svc_getPendingReceives',
      summary: 'Attested deposits held as pending receives (spec §4.6), oldest first; for one recipient when given.',
      description: 'A deposit is held when its STD-8 coin is paused, its minting frozen or at its supply cap; svc_autobridge or '
        + 'ClaimBridgeDeposit completes it once that clears. No application errors.',
      params: [{ name: 'address', schema: AccountParam(), required: false }] as const,
      result: {
        name: 'pending', schema: PendingSchema,
        description: 'deposits held by a paused, mint-frozen or capped STD-8 coin',
      },
      handler: ([address]) => readers.bridge.pending(address).map(depositJson),
    }),
    defineMethod({
      name: 'svc_bridgeWithdraw',
      summary: 'Burn a bridged (or STD-8) amount for release on an external chain, paying the chain\'s fee to the treasury (testnet convenience).',
      description: 'Emits a withdrawal record with a sequence number that the attesters sign for the destination chain '
        + '(svc_getBridgeStatus: pending → attested). BUNDLE_FAILED with BRIDGE_NOT_BRIDGED_TOKEN, INSUFFICIENT_BALANCE, … docs/bridge.md.',
      params: [
        { name: 'token_mint', schema: TokenParam(readers.tokens, Type.String({ description: 'Nx1… (or 0x + 64 hex) mint, or a symbol' })) },
        { name: 'amount', schema: AmountParam({ description: 'raw units' }) },
        { name: 'chain', schema: ChainParam },
        { name: 'destination', schema: TextParam('the address on the destination chain') },
        { name: 'sender', schema: AccountParam() },
      ] as const,
      result: {
        name: 'withdrawal', schema: Type.Object({ sequence: Str('the withdrawal sequence number'), receipt: ReceiptSchema }, { additionalProperties: false }),
        description: '`{sequence, receipt}`; testnet only',
      },
      errors: [APP_ERRORS.UNKNOWN_TOKEN.code, APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.BUNDLE_FAILED.code, APP_ERRORS.BUNDLE_INVALID.code],
      handler: async ([token, value, c, destination, sender]) => {
        const receipt = await chain.submitOperations(sender, [{ type: 'BridgeWithdraw', token: token.mint, amount: value, chain: c, destination }]);
        const ev = receipt.events.find((e) => e.type === 'BridgeWithdrawn') as { sequence: string } | undefined;
        return { sequence: ev!.sequence, receipt };
      },
    }),
    defineMethod({
      name: 'svc_getBridgeStatus',
      summary: 'The status of a deposit (by origin chain and tx hash) or a withdrawal (by its bundle hash or `withdrawal:<sequence>`).',
      description: 'Deposits: `pending` (held, with the reason) or `completed`; a deposit bundle the core refused: `refused` with the status. '
        + 'Withdrawals: `pending` until attested, then `attested`. NOT_FOUND when nothing is known of it. docs/bridge.md.',
      params: statusParams,
      result: { description: '`{kind, status (pending, attested, completed, refused), reason, deposit, withdrawal}`', name: 'status', schema: Type.Object({
        kind: Type.Union([Type.Literal('deposit'), Type.Literal('withdrawal')]),
        status: Type.Union([Type.Literal('pending'), Type.Literal('attested'), Type.Literal('completed'), Type.Literal('refused')]),
        reason: NullStr('why it is pending or refused'),
        deposit: Type.Union([DepositSchema, Type.Null()]), withdrawal: Type.Union([WithdrawalSchema, Type.Null()]),
      }, { additionalProperties: false }) },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: async ([c, txHash]) => {
        const d = readers.bridge.deposit(c, txHash);
        if (d) return { kind: 'deposit' as const, status: d.state === 1 ? 'completed' as const : 'pending' as const, reason: d.state === 1 ? null : statusOf(d.reason).name, deposit: depositJson(d), withdrawal: null };
        const seqMatch = /^withdrawal:(\d{1,20})$/.exec(txHash);
        let w = seqMatch ? readers.bridge.withdrawal(BigInt(seqMatch[1]!)) : undefined;
        if (!w && !seqMatch && (txHash.startsWith('Nxh') || /^(0x)?[0-9a-fA-F]{64}$/.test(txHash))) {
          const receipt = await chain.receipt(hashParam(txHash, 'tx_hash', positionIn(statusParams, 'tx_hash')));
          if (receipt) {
            const ev = receipt.events.find((e) => e.type === 'BridgeWithdrawn') as { sequence: string } | undefined;
            if (ev) w = readers.bridge.withdrawal(BigInt(ev.sequence));
            else if (receipt.status === 'failed') {
              return { kind: 'deposit' as const, status: 'refused' as const, reason: `${receipt.status_name}: ${receipt.error ?? ''}`.trim(), deposit: null, withdrawal: null };
            }
          }
        }
        if (w && w.chain === c) return { kind: 'withdrawal' as const, status: w.state === 1 ? 'attested' as const : 'pending' as const, reason: w.state === 1 ? null : 'awaiting the attesters\' signatures', deposit: null, withdrawal: withdrawalJson(w) };
        throw RpcError.app('NOT_FOUND', `no bridge deposit or withdrawal for ${c} ${txHash}`, { chain: c, tx_hash: txHash });
      },
    }),
    defineMethod({
      name: 'svc_getBridgeHistory',
      summary: 'An account\'s bridge deposits (as recipient) and withdrawals (as sender), newest first.',
      description: 'limit 1–1000. No application errors.',
      params: [{ name: 'address', schema: AccountParam() }, { name: 'limit', schema: Limit({ default: 100 }) }] as const,
      result: { description: 'deposits and withdrawals, newest first', name: 'history', schema: Type.Array(Type.Object({
        kind: Type.Union([Type.Literal('deposit'), Type.Literal('withdrawal')]),
        deposit: Type.Union([DepositSchema, Type.Null()]), withdrawal: Type.Union([WithdrawalSchema, Type.Null()]),
      }, { additionalProperties: false })) },
      handler: ([address, limit]) => readers.bridge.history(address, limit ?? 100).map((h) => h.kind === 'deposit'
        ? { kind: 'deposit' as const, deposit: depositJson(h.record), withdrawal: null }
        : { kind: 'withdrawal' as const, deposit: null, withdrawal: withdrawalJson(h.record) }),
    }),
    defineMethod({
      name: 'svc_getBridgeFees',
      summary: 'The withdrawal fee of a chain, or of every chain (null).',
      description: 'Fees are raw NTV paid to the foundation treasury by svc_bridgeWithdraw (docs/bridge.md "Chains").',
      params: [{ name: 'chain', schema: ChainOrNull, required: false }] as const,
      result: {
        name: 'fees', schema: Type.Array(Type.Object({ chain: Str('chain'), fee: Str('raw NTV'), fee_token: Str('NTV') }, { additionalProperties: false })),
        description: '`[{chain, fee, fee_token}]`; null: all chains',
      },
      handler: ([c]) => BRIDGE_CHAINS.filter((x) => c === undefined || c === null || x.chain === c).map((x) => ({ chain: x.chain, fee: x.fee.toString(), fee_token: 'NTV' })),
    }),
    defineMethod({
      name: 'svc_registerBridgeMapping',
      summary: 'Map an origin contract to an STD-8 or bridge-canonical mint (foundation-gated, spec §5.7; testnet convenience).',
      description: 'Only the foundation 0x00…03 (or the governance authority 0x00…09) may; deposits from the contract then credit the mint. '
        + 'BUNDLE_FAILED with BRIDGE_NOT_FOUNDATION, BRIDGE_MAPPING_EXISTS, BRIDGE_INVALID_MAPPING. docs/bridge.md.',
      params: [
        { name: 'chain', schema: ChainParam },
        { name: 'contract', schema: TextParam('the contract on that chain') },
        { name: 'mint', schema: TokenParam(readers.tokens, Type.String({ description: 'Nx1… mint (or a symbol) of an STD-8 or bridge-canonical token' })) },
        { name: 'sender', schema: AccountParam({ description: 'the foundation 0x00…03 or governance 0x00…09' }) },
      ] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt; foundation-gated; testnet only',
      },
      errors: [APP_ERRORS.UNKNOWN_TOKEN.code, APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.BUNDLE_FAILED.code, APP_ERRORS.BUNDLE_INVALID.code],
      handler: ([c, contract, token, sender]) => chain.submitOperations(sender, [{ type: 'RegisterBridgeMapping', chain: c, contract, mint: token.mint }]),
    }),
    defineMethod({
      name: 'svc_getBridgeMappings',
      summary: 'Origin contracts the bridge credits to a known mint: STD-8 origin mappings (the fast path) and registered mappings.',
      description: 'For one chain when given (null or absent: all). No application errors.',
      params: [{ name: 'chain', schema: ChainOrNull, required: false }] as const,
      result: { description: 'STD-8 origin and registered mappings', name: 'mappings', schema: Type.Array(Type.Object({
        chain: Str('chain'), contract: Str('origin contract'), mint: Str('Nx1…'), symbol: Str('the token'),
        source: Type.Union([Type.Literal('std8_origin'), Type.Literal('registered')]),
      }, { additionalProperties: false })) },
      handler: ([c]) => {
        const want = (x: string) => c === undefined || c === null || x === c;
        const out = [];
        for (const t of readers.tokens.list()) {
          if (t.kind !== TokenKind.STD8_STABLECOIN) continue;
          for (const o of stableProfile(chain.state, t.mint)?.origins ?? []) {
            if (want(o.chain)) out.push({ chain: o.chain, contract: o.contract, mint: t.mintAddress, symbol: t.symbol, source: 'std8_origin' as const });
          }
        }
        for (const m of readers.bridge.registeredMappings()) {
          if (want(m.chain)) out.push({ chain: m.chain, contract: m.contract, mint: encodeMint(m.mint), symbol: readers.tokens.byMintBytes(m.mint)?.symbol ?? '', source: 'registered' as const });
        }
        return out;
      },
    }),
    defineMethod({
      name: 'svc_getContractSafety',
      summary: 'The safety record of an external contract: unreviewed, verified, caution (a warning) or blocked (deposits refused).',
      description: 'Set by governance: a contract_safety proposal, or (testnet) the governance authority 0x00…09 directly. No record is '
        + '`unreviewed`. No application errors. docs/bridge.md "Contract safety".',
      params: [{ name: 'chain', schema: ChainParam }, { name: 'contract_address', schema: Type.String({ minLength: 1, maxLength: 128 }) }] as const,
      result: {
        name: 'safety', schema: SafetySchema,
        description: '`{level, level_code, reason, proposal_id, height}`',
      },
      handler: ([c, contract]) => safetyJson(c, contract, readers.bridge.contractSafety(c, contract)),
    }),
    defineMethod({
      name: 'svc_listContractSafety',
      summary: 'Contract safety records, newest first; for one chain when given.',
      description: 'limit 1–1000. No application errors.',
      params: [{ name: 'chain', schema: ChainOrNull }, { name: 'limit', schema: Limit({ default: 100 }) }] as const,
      result: {
        name: 'records', schema: Type.Array(SafetySchema),
        description: 'safety records, newest first',
      },
      handler: ([c, limit]) => readers.bridge.listSafety(c ?? undefined, limit ?? 100).map((s) => safetyJson(s.chain, s.contract, s)),
    }),
  ];
}

