import { Type } from '@sinclair/typebox';
import { APP_ERRORS, RpcError } from '../errors.js';
import { defineMethod, type MethodDefinition } from '../registry.js';
import { HexBytes, parsed } from '../schemas.js';
import type { MethodDependencies } from './context.js';
import { HashParam } from './params.js';
import { QueuedBundleSchema, ReceiptSchema } from './result-schemas.js';

/** Bytes of a string HexBytes() accepted: `0x` optional, an even number of hex digits. */
export function hexBytesOfChecked(hex: string): Uint8Array {
  const start = hex.charCodeAt(0) === 48 && (hex.charCodeAt(1) === 120) ? 2 : 0;
  const out = new Uint8Array((hex.length - start) >>> 1);
  Buffer.from(out.buffer).write(hex.length === start ? '' : start === 0 ? hex : hex.slice(2), 'hex');
  return out;
}

/** A bundle is at most 64 operations; 256 KiB bounds it with room for ML-DSA-65 keys and signatures. */
const MAX_BUNDLE_BYTES = 256 * 1024;

/** Submitting signed bundles and reading receipts (spec §4.17 svc_submitBundle, §4.11 receipts). */
export function transactionMethods({ chain, readers }: MethodDependencies): MethodDefinition[] {
  return [
    defineMethod({
      name: 'svc_submitBundle',
      summary: 'Submit a Borsh-encoded bundle as hex (0x optional); returns the receipt once the bundle is in a block, '
        + 'or at once {bundle_hash, status: "queued", next_nonce} when its nonce waits behind a gap.',
      description: 'docs/bundle-format.md describes the encoding and signing, docs/mempool.md the bounds. A bundle that can '
        + 'execute next (its nonce follows the account\'s committed nonce and the bundles already waiting) is answered with its '
        + 'receipt once in a committed block, or INCLUSION_TIMEOUT after 30 s while it keeps waiting. A bundle whose nonce is ahead '
        + 'waits for the earlier ones (spec §7.6) and is answered at once as queued; its receipt is read with '
        + 'svc_getTransactionReceipt. A bundle that executes and fails is reverted whole and answered with BUNDLE_FAILED carrying '
        + 'the receipt.'
        + ' Spec §5 (bundle format, signing), §7.6 (nonces). Errors: BUNDLE_INVALID (malformed, bad signature, nonce too low, fee too low,'
        + ' wrong chain), BUNDLE_FAILED with the reverted receipt, MEMPOOL_FULL, MEMPOOL_LIMIT (the account\'s queue is full),'
        + ' INCLUSION_TIMEOUT.',
      // Params parsed once (issue 44 item 4). The schema has already checked the text is `0x`-optional
      // even-length hex (HexBytes), so it is decoded without fromHex's second check; a copy, as
      // fromHex makes, so the bundle owns its ArrayBuffer.
      paramsNote: '— 0x optional, at most 256 KiB',
      params: [{ name: 'borsh_hex', schema: parsed(HexBytes({ maxBytes: MAX_BUNDLE_BYTES }), (hex, param, position) => {
        const bytes = hexBytesOfChecked(hex);
        if (bytes.length === 0) throw RpcError.invalidParam(param, position, 'a non-empty Borsh bundle');
        return bytes;
      }) }] as const,
      result: {
        name: 'receipt', schema: Type.Union([ReceiptSchema, QueuedBundleSchema]),
        description: 'an executable bundle (its nonce is the account\'s next free one): its receipt once in a committed block, or `-32008'
          + ' INCLUSION_TIMEOUT` after 30 s while it keeps waiting. A bundle whose nonce is ahead waits behind the gap (spec §7.6) and is'
          + ' answered at once with `{bundle_hash, from, nonce, status: "queued", next_nonce}` (read its receipt later with'
          + ' `svc_getTransactionReceipt`). Resubmitting an included bundle returns its receipt. Refusals by the mempool\'s bounds'
          + ' ([mempool.md](mempool.md)): `-32016 MEMPOOL_LIMIT` (nonce gap, per-account queue), `-32007 MEMPOOL_FULL`, `-32001`'
          + ' `REPLACEMENT_UNDERPRICED`; a sender whose NTV at the pending state cannot cover `max_gas × (gas_price + max_priority_fee)` plus'
          + ' the bundle\'s NTV amounts: `-32010`, `data.status` `INSUFFICIENT_FUNDS`, geth\'s "insufficient funds for gas * price + value", no'
          + ' fee ([mempool.md](mempool.md#funds))',
      },
      errors: [APP_ERRORS.BUNDLE_INVALID.code, APP_ERRORS.BUNDLE_FAILED.code, APP_ERRORS.MEMPOOL_FULL.code, APP_ERRORS.INCLUSION_TIMEOUT.code,
        APP_ERRORS.MEMPOOL_LIMIT.code],
      // Not async: the chain's promise is the handler's (one hop fewer).
      handler: ([bytes]) => chain.submitBundle(bytes),
    }),
    defineMethod({
      name: 'svc_getTransactionReceipt',
      summary: 'The receipt of a bundle by its hash, or null when no block holds it (spec §4.11). While the transaction ' +
        'lookup index trails the head after a catch-up sync, a bundle it cannot find yet is -32000 (data.reason TX_INDEXING), not null.',
      description: 'Looks a bundle up by its Nxh… (or 0x) hash in committed blocks (spec §4.11); the receipt is the one svc_submitBundle answers'
        + ' with. Errors: SERVER_BUSY (-32000, data.reason TX_INDEXING) while the lookup index catches up after a sync.',
      params: [{ name: 'tx_hash', schema: HashParam() }] as const,
      result: {
        name: 'receipt', schema: Type.Union([ReceiptSchema, Type.Null()]),
        description: 'receipt or `null`; -32000 `TX_INDEXING` while the lookup index trails the head after a sync (docs/storage.md)',
      },
      errors: [APP_ERRORS.SERVER_BUSY.code],
      handler: async ([hash]) => (await chain.receiptByHash(hash)) ?? null,
    }),
  ];
}
