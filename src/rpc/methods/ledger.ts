import { Type } from '@sinclair/typebox';
import { encodeAccount, encodeEvm, systemAddress } from '../../codec/address.js';
import { FAUCET_AMOUNT_NTV } from '../../chain/faucet.js';
import { FAUCET_INDEX, NTV_UNIT } from '../../chain/genesis-data.js';
import { APP_ERRORS, RpcError } from '../errors.js';
import { defineMethod, type MethodDefinition } from '../registry.js';
import { BASE58_32, DecimalString, Height, HEX_ADDRESS, parsed, withExpected } from '../schemas.js';
import { parsePool } from '../../core/amm.js';
import { decodeStakingPoolText } from '../../domains/staking-pools/reader.js';
import type { MethodDependencies } from './context.js';
import { AccountParam, accountParam, AmountParam, pastHeight, TokenParam, tokenParam } from './params.js';
import { ReceiptSchema } from './result-schemas.js';
import { keyJson } from './accounts.js';
import { readRecovery, type RecoveryInfo } from '../../chain/recovery.js';

function recoveryJson(r: RecoveryInfo | undefined) {
  if (!r) return null;
  const p = r.pending;
  return {
    guardians: r.guardians.map(encodeAccount), threshold: r.threshold, timelock: Number(r.timelock),
    pending: p ? {
      key_hash: Buffer.from(p.keyHash).toString('hex'), key_type: p.keyType === 0 ? 'Ed25519' : 'ML-DSA-65', public_key: Buffer.from(p.pubkey).toString('hex'),
      initiated_at: Number(p.initiatedAt), initiated_height: Number(p.initiatedHeight), executable_at: Number(p.executableAt), approvals: p.approvals.map(encodeAccount),
    } : null,
  };
}

const tokenRef = () => Type.String({
  minLength: 1, maxLength: 64,
  description: 'Token symbol (any case, e.g. NTV, USDC) or mint address (Nx1… or 0x + 64 hex).',
});

/** Spec §4.1 balances and transfers, plus account lookups and the testnet faucet (spec §1.11). */
/** svc_getBalance's address: any account form, and the addresses of DEX pools (Nx8) and staking pools (Nx6), which hold balances too. */
const BalanceHolder = () => parsed(withExpected(Type.String({
  title: 'BalanceHolder',
  pattern: `^(Nx[015678]${BASE58_32}|${HEX_ADDRESS})$`,
  description: 'An address (`Nx0…` account, `Nx1…` mint, `Nx5…` multi-sig, `Nx7…` DAO, `0x` 20 or 32 bytes), a DEX pool `Nx8…` or a staking pool `Nx6…`.',
}), 'an address (Nx0/Nx1/Nx5/Nx7/Nx8/Nx6… base58 of 32 bytes, or 0x + 40 or 64 hex digits)'),
  // A DEX pool (Nx8) and a staking pool (Nx6) hold balances at their own address (issue 41
  // item 9): their reserves and staked tokens, readable like any account's.
  (address, param, position) => parsePool(address) ?? decodeStakingPoolText(address) ?? accountParam(address, param, position));

export function accountMethods({ chain, readers, faucet, network }: MethodDependencies): MethodDefinition[] {
  /** A token by symbol or mint (params parsed once, issue 44 item 4). */
  const Token = () => TokenParam(readers.tokens, tokenRef());
  return [
    defineMethod({
      name: 'svc_getBalance',
      summary: 'Balance of an address in one token, in raw units (spec §4.1).',
      paramsNote: '— any account form, or a DEX pool `Nx8…` (its reserves) or staking pool `Nx6…` (the tokens staked in it); symbol (any case) or'
        + ' mint; default NTV; `height`: the balance as of the end of that block (default the head; every block on an archive node, the last'
        + ' 128 at least on a pruning one, [storage.md](storage.md) "State history")',
      description: 'Reads the committed balance of `address` in one token (spec §4.1); the token by symbol (any case) or mint, NTV when absent. An'
        + ' account that never held the token has "0". Errors: UNKNOWN_TOKEN when no token has that symbol or mint.',
      params: [
        { name: 'address', schema: BalanceHolder() },
        { name: 'token_symbol', schema: Token(), required: false, description: 'defaults to NTV' },
        {
          name: 'height', schema: Height({ description: 'the balance as of the end of this block (default: the head); every block on an archive node, the last 128 at least on a pruning one (docs/storage.md "State history")' }),
          required: false,
        },
      ] as const,
      result: {
        name: 'balance', schema: DecimalString({ description: 'raw units as a decimal string' }),
        description: 'raw-unit balance, decimal string; `-32003` for a height above the head, `-32013` below the state window (`data.oldest_height`'
          + ' names the oldest height served)',
      },
      errors: [APP_ERRORS.UNKNOWN_TOKEN.code, APP_ERRORS.NOT_FOUND.code, APP_ERRORS.UNAVAILABLE_ON_NODE.code],
      handler: async ([account, symbol, height]) => {
        const token = symbol ?? tokenParam(readers.tokens, 'NTV');
        if (height === undefined || height === null) return chain.balance(account, token.mint).toString();
        return (await chain.balanceAt(account, token.mint, pastHeight(chain, height))).toString();
      },
    }),
    defineMethod({
      name: 'svc_getAccount',
      summary: 'Nonce, pending nonce, registered keys (type, hash, role, when added) and the recovery configuration of an account: what a wallet needs to build a bundle (docs/accounts.md).',
      description: 'Reads an account for a wallet about to build a bundle (spec §5.8): its EVM form, the next executable nonce, the next nonce after'
        + ' its queued bundles, its NTV balance, its registered keys with type, hash, role and the block that added them (none until its'
        + ' first signed send), and its guardian recovery configuration with any pending recovery (docs/accounts.md). Any well-formed'
        + ' address answers; an unknown one has nonce "0" and no keys. No application errors.',
      params: [{ name: 'address', schema: AccountParam() }] as const,
      result: {
        description: '`{address, evm_address, nonce, pending_nonce, balance, keys[{key_hash, key_type, role, role_name, added_height, added_at}],'
          + ' recovery}` ([accounts.md](accounts.md)) — `nonce` is the next nonce that executes, `pending_nonce` the next one free after the'
          + ' mempool; wallets sign with `pending_nonce`',
        name: 'account',
        schema: Type.Object({
          address: Type.String(), evm_address: Type.String(),
          nonce: Type.String({ description: 'next nonce that can execute (spec §5.8)' }),
          pending_nonce: Type.String({ description: 'next nonce free after the bundles waiting in the mempool' }),
          balance: Type.String({ description: 'NTV balance, raw units' }),
          keys: Type.Array(Type.Object({
            key_hash: Type.String({ description: 'SHA256 of the public key, 64 hex' }), key_type: Type.String({ description: 'Ed25519 or ML-DSA-65' }),
            role: Type.Integer({ description: '0 owner, 1 operator (docs/accounts.md "Roles")' }), role_name: Type.String(),
            added_height: Type.Integer({ description: 'the block that registered the key' }), added_at: Type.Integer({ description: 'unix seconds of that block' }),
          })),
          recovery: Type.Union([Type.Null(), Type.Object({
            guardians: Type.Array(Type.String()), threshold: Type.Integer(), timelock: Type.Integer({ description: 'seconds' }),
            pending: Type.Union([Type.Null(), Type.Object({
              key_hash: Type.String(), key_type: Type.String(), public_key: Type.String({ description: 'hex' }), initiated_at: Type.Integer(), initiated_height: Type.Integer(),
              executable_at: Type.Integer({ description: 'unix seconds from which FinalizeRecovery may run' }), approvals: Type.Array(Type.String()),
            })], { description: 'the recovery in progress, if any' }),
          })], { description: 'guardian recovery (docs/accounts.md "Recovery"); null when not configured' }),
        }),
      },
      handler: ([account]) => {
        return {
          address: encodeAccount(account),
          evm_address: encodeEvm(account),
          nonce: chain.stateNonce(account).toString(),
          pending_nonce: chain.pendingNonce(account).toString(),
          balance: chain.balance(account, new Uint8Array(32)).toString(),
          keys: readers.keys.of(account).map(keyJson),
          recovery: recoveryJson(readRecovery(chain.state, account)),
        };
      },
    }),
    defineMethod({
      name: 'svc_transfer',
      summary: 'Unsigned convenience transfer (testnet only, spec §5.5); returns the receipt once in a block.',
      description: 'Sends `amount` raw units of a token from `from` to `to` as an unsigned bundle and answers with its receipt once in a block (spec'
        + ' §4.1, §5.5, §5.6). Errors: UNAVAILABLE_ON_NETWORK on mainnet (sign a Transfer and use svc_submitBundle), UNKNOWN_TOKEN,'
        + ' BUNDLE_FAILED with the reverted receipt (e.g. status INSUFFICIENT_BALANCE), BUNDLE_INVALID when admission refuses the bundle.',
      params: [
        { name: 'from', schema: AccountParam() },
        { name: 'to', schema: AccountParam() },
        { name: 'token', schema: Token() },
        { name: 'amount', schema: AmountParam() },
      ] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt. Unsigned convenience, **testnet only** (`-32004` on mainnet). More NTV than `from` holds (with the fee) is `-32010`'
          + ' `INSUFFICIENT_FUNDS` before any block, no fee ([mempool.md](mempool.md#funds)); a token amount it lacks fails in the block,'
          + ' `-32002` `INSUFFICIENT_BALANCE`, fee paid',
      },
      errors: [APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.UNKNOWN_TOKEN.code, APP_ERRORS.BUNDLE_FAILED.code, APP_ERRORS.BUNDLE_INVALID.code],
      handler: async ([from, to, token, amount]) => chain.submitOperations(from, [{ type: 'Transfer', to, token: token.mint, amount }]),
    }),
    defineMethod({
      name: 'svc_faucet',
      summary: 'Testnet faucet: 100 NTV to an address, at most once per address per hour (spec §1.11, §8).',
      description: 'Pays 100 NTV from the testnet-rewards system account 0x00…07 (spec §1.9, §1.11) and answers with the receipt. Errors:'
        + ' FAUCET_LIMIT within an hour of the address\'s last payout (data.retry_after_seconds), UNAVAILABLE_ON_NETWORK on mainnet.',
      params: [{ name: 'address', schema: AccountParam() }] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt of a 100 NTV transfer from the testnet-rewards account `0x00…07`; at most once per address per hour (`-32006'
          + ' FAUCET_LIMIT` with `retry_after_seconds`); testnet only',
      },
      errors: [APP_ERRORS.FAUCET_LIMIT.code, APP_ERRORS.UNAVAILABLE_ON_NETWORK.code],
      handler: async ([account]) => {
        if (network !== 'testnet') throw RpcError.app('UNAVAILABLE_ON_NETWORK', 'the faucet exists on testnet only');
        const key = encodeAccount(account);
        const now = Math.floor(Date.now() / 1000);
        const { waitSeconds, previous } = await faucet.tryReserve(key, now);
        if (waitSeconds > 0) {
          throw RpcError.app('FAUCET_LIMIT', `the faucet gives 100 NTV per address per hour; try again in ${waitSeconds} s`, {
            retry_after_seconds: waitSeconds,
          });
        }
        try {
          const receipt = await chain.submitOperations(systemAddress(FAUCET_INDEX), [
            { type: 'Transfer', to: account, token: new Uint8Array(32), amount: FAUCET_AMOUNT_NTV * NTV_UNIT },
          ]);
          await faucet.persist(key, now);
          return receipt;
        } catch (error) {
          faucet.release(key, previous);
          throw error;
        }
      },
    }),
  ];
}
