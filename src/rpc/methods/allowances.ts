import { Type } from '@sinclair/typebox';
import { encodeAccount, encodeMint } from '../../codec/address.js';
import { allowanceOf, INFINITE_ALLOWANCE } from '../../chain/allowances.js';
import { isNativeMintBytes } from '../../chain/evm/units.js';
import type { RegisteredToken } from '../../chain/token-registry.js';
import { APP_ERRORS, RpcError } from '../errors.js';
import { defineMethod, type MethodDefinition } from '../registry.js';
import { DecimalString, parsed } from '../schemas.js';
import type { MethodDependencies } from './context.js';
import { AccountParam, AmountParam, tokenParam } from './params.js';
import { ReceiptSchema } from './result-schemas.js';

const tokenRef = () => Type.String({
  minLength: 1, maxLength: 64,
  description: 'Token symbol (any case, e.g. USDC) or mint address (Nx1… or 0x + 64 hex); not NTV.',
});

/**
 * ERC-20 allowances on native tokens (docs/allowances.md; the rules are the core's Approve and
 * TransferFrom, assembly/ops/allowances.ts). The spec names no method for them (node-interface.md
 * §4.1 has transfers only): these follow svc_transfer's shape, with the acting account last as
 * `sender`. The writes are unsigned convenience methods (testnet only, spec §5.5); on mainnet the
 * same operations go in a signed bundle through svc_submitBundle, or as an EVM approve/transferFrom.
 */
export function allowanceMethods({ chain, readers }: MethodDependencies): MethodDefinition[] {
  /** The token of a param; NTV is refused here, before any bundle, as the core would refuse it. */
  const approvable = (value: string, param: string, position: number): RegisteredToken => {
    const token = tokenParam(readers.tokens, value);
    if (isNativeMintBytes(token.mint)) {
      throw RpcError.invalidParam(param, position, 'a token other than NTV: NTV pays every fee and has no allowances (docs/allowances.md)', { token: value });
    }
    return token;
  };
  /** Params parsed once (issue 44 item 4): the registry runs it with the param's position. */
  const Approvable = () => parsed(tokenRef(), approvable);
  const writeErrors = [APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.UNKNOWN_TOKEN.code, APP_ERRORS.BUNDLE_FAILED.code, APP_ERRORS.BUNDLE_INVALID.code];
  return [
    defineMethod({
      name: 'svc_approve',
      summary: 'Set how much of a token `spender` may move from `sender` with svc_transferFrom (ERC-20 approve; unsigned convenience, testnet only).',
      description: 'Overwrites the allowance as ERC-20 approve does: 0 revokes it, 340282366920938463463374607431768211455 (2^128−1) is infinite and '
        + 'is never decremented. The receipt carries an Approval event. NTV is refused (-32602). docs/allowances.md.',
      params: [
        { name: 'token', schema: Approvable() },
        { name: 'spender', schema: AccountParam() },
        { name: 'amount', schema: AmountParam({ description: 'the new allowance in raw units; 0 revokes, 2^128−1 is infinite' }) },
        { name: 'sender', schema: AccountParam({ description: 'the owner of the tokens (the acting account)' }) },
      ] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt with an `Approval` event: `sender` lets `spender` move up to `amount` of its `token` (ERC-20 approve; overwrites, `0`'
          + ' revokes, 2^128−1 is infinite). NTV is `-32602`. Unsigned convenience, testnet only; on mainnet a signed `Approve` bundle'
          + ' ([allowances.md](allowances.md))',
      },
      errors: writeErrors,
      handler: async ([token, spender, amount, owner]) => chain.submitOperations(owner, [{ type: 'Approve', token: token.mint, spender, amount }]),
    }),
    defineMethod({
      name: 'svc_transferFrom',
      summary: 'Move `amount` of `from`\'s token to `to`, spending the allowance `from` gave `sender` (ERC-20 transferFrom; unsigned convenience, testnet only).',
      description: 'A failed bundle is -32002 with data.status INSUFFICIENT_ALLOWANCE (checked first) or INSUFFICIENT_BALANCE of `from`; '
        + 'the receipt of a success carries an ordinary Transfer event from `from` to `to`. docs/allowances.md.',
      params: [
        { name: 'token', schema: Approvable() },
        { name: 'from', schema: AccountParam({ description: 'the owner whose balance moves' }) },
        { name: 'to', schema: AccountParam() },
        { name: 'amount', schema: AmountParam({ description: 'raw units, > 0' }) },
        { name: 'sender', schema: AccountParam({ description: 'the spender (the acting account)' }) },
      ] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt with a `Transfer` event from `from`: the spender `sender` moves `from`\'s tokens within its allowance (ERC-20'
          + ' transferFrom); `-32002` with `data.status` `INSUFFICIENT_ALLOWANCE` (checked first) or `INSUFFICIENT_BALANCE`. Testnet only; on'
          + ' mainnet a signed `TransferFrom` bundle',
      },
      errors: writeErrors,
      handler: async ([token, from, to, amount, spender]) => chain.submitOperations(spender, [{ type: 'TransferFrom', token: token.mint, from, to, amount }]),
    }),
    defineMethod({
      name: 'svc_getAllowance',
      summary: 'How much of `owner`\'s token `spender` may still move (ERC-20 allowance), in raw units.',
      description: 'Reads the allowance record (docs/allowances.md; ERC-20 `allowance(owner, spender)`). An account never approved reads "0"; '
        + 'the infinite allowance (2^128−1, which TransferFrom never decrements) has `infinite` true. Errors: UNKNOWN_TOKEN.',
      params: [
        { name: 'token', schema: Approvable() },
        { name: 'owner', schema: AccountParam() },
        { name: 'spender', schema: AccountParam() },
      ] as const,
      result: {
        description: '`{token, symbol, owner, spender, allowance, infinite}`: what `spender` may still move of `owner`\'s `token`, raw units (`"0"` when'
          + ' none); `infinite` for 2^128−1',
        name: 'allowance',
        schema: Type.Object({
          token: Type.String({ description: 'Nx1… mint' }),
          symbol: Type.String(),
          owner: Type.String(),
          spender: Type.String(),
          allowance: DecimalString({ description: 'raw units; "0" when none' }),
          infinite: Type.Boolean({ description: 'true for 2^128−1, which TransferFrom never decrements' }),
        }),
      },
      errors: [APP_ERRORS.UNKNOWN_TOKEN.code],
      handler: ([t, ownerAccount, spenderAccount]) => {
        const allowance = allowanceOf(chain.state, ownerAccount, t.mint, spenderAccount);
        return {
          token: encodeMint(t.mint), symbol: t.symbol, owner: encodeAccount(ownerAccount), spender: encodeAccount(spenderAccount),
          allowance: allowance.toString(), infinite: allowance === INFINITE_ALLOWANCE,
        };
      },
    }),
  ];
}
