import type { BlockResultView } from '../core/block-result.js';
import { BUNDLE_LEVEL_OP, decodeEventAt } from '../core/events.js';
import { createdOf, receiptEventJson, receiptEventJsonAt, type ReceiptCreated, type ReceiptEventJson, type ReceiptFormats, type ReceiptFormatsAt } from '../abi/events.js';
import { statusOf } from './status.js';
import { METADATA_FIELD_NAMES } from '../core/amm.js';
import { encodeAccount, encodeAccountAt, encodeHash, encodeMint, encodeMintAt } from '../codec/address.js';
import { KEY_ROLE_NAMES } from '../abi/constants.js';
import { domains, type DomainReceiptFormats, type ReceiptBlock } from '../domains/index.js';
import { nameOf } from '../domains/module.js';
import type { Block, BlockHeader } from './block.js';
import type { TokenRegistry } from './token-registry.js';

/**
 * A bundle's receipt as `svc_getTransactionReceipt` returns it (docs/methods.md "Receipt"), built on read.
 * Hashes and addresses in native formats (spec §6.3), amounts as raw-unit decimal strings.
 */
export interface Receipt {
  bundle_hash: string;
  block_height: number;
  block_hash: string;
  index: number;
  timestamp: number;
  from: string;
  nonce: string;
  status: 'success' | 'failed';
  status_code: number;
  status_name: string;
  /** why it failed, when it did */
  error?: string;
  gas_used: number;
  fee: string;
  events: ReceiptEvent[];
  /** identifiers the bundle created, e.g. the mint of a new token */
  created?: ReceiptCreated;
}
/** `op_index` is null for bundle-level events (the fee); one shape per event kind (abi/events.mjs). */
export type ReceiptEvent = ReceiptEventJson;

/**
 * The receipt of the bundle at `index` of a block, from the block's stored execution result
 * (docs/storage.md "Receipts"): receipts are not stored as such, so a block of 1,000 transfers
 * writes its ~290 KB result once instead of ~0.8 MB of receipt JSON, and a receipt always shows
 * the token symbols known when it is read.
 */
export function receiptAt(header: BlockHeader, bundle: Uint8Array, hash: Uint8Array, index: number, result: BlockResultView, tokens: TokenRegistry,
  block: { hash: string; fx: Formats } = { hash: encodeHash(header.hash), fx: formats(result, tokens) }): Receipt {
  const info = statusOf(result.status(index));
  const receipt: Receipt = {
    bundle_hash: encodeHash(hash),
    block_height: header.height,
    block_hash: block.hash,
    index,
    timestamp: header.timestamp,
    // docs/bundle-format.md: user_account is the bundle's first field
    from: encodeAccount(bundle.subarray(0, 32)),
    nonce: result.nonce(index).toString(),
    status: info.class === 'ok' ? 'success' : 'failed',
    status_code: info.code,
    status_name: info.name,
    ...(info.class === 'ok' ? {} : { error: info.message }),
    gas_used: result.gasUsedOf(index),
    fee: result.fee(index).toString(),
    events: [],
  };
  result.forEachEventOf(index, (op, kind, at, len) => {
    const opIndex = op === BUNDLE_LEVEL_OP ? null : op;
    // Transfer and Fee, in nearly every receipt, straight from the result's bytes (docs/performance.md "2026-11-27, fifth round")
    const event = receiptEventJsonAt(result.bytes, result.dv, at, len, kind, opIndex, block.fx)
      ?? receiptEventJson(decodeEventAt(result.bytes, result.dv, at, len, index, op, kind), opIndex, block.fx);
    if (!event) return;
    receipt.events.push(event);
    const created = createdOf(event);
    if (created) receipt.created = { ...receipt.created, ...created };
  });
  return receipt;
}
/** Every receipt of a block, in block order. */
export function blockReceipts(block: Block, result: BlockResultView, tokens: TokenRegistry): Receipt[] {
  // the block's hash in base58 and its formats once, not once a receipt (10,000 of them in a full block)
  const shared = { hash: encodeHash(block.header.hash), fx: formats(result, tokens) };
  return block.bundles.map((bytes, i) => receiptAt(block.header, bytes, block.bundleHashes[i]!, i, result, tokens, shared));
}

const KEY_TYPES = ['Ed25519', 'ML-DSA-65'];
const ROLES: readonly string[] = KEY_ROLE_NAMES;

type Formats = ReceiptFormats & ReceiptFormatsAt;

/** Every module's receipt formats (src/domains/<name>/index.ts `receiptFormats`), in one object; the registry test holds each to one module. */
const moduleReceiptFormats = (): DomainReceiptFormats => Object.assign({}, ...domains.map((d) => d.receiptFormats ?? {}));
/** The modules' formats that are made once a block (`blockReceiptFormats`: they read the block's events or the token registry). */
const BLOCK_FORMATS = domains.flatMap((d) => (d.blockReceiptFormats ? [d.blockReceiptFormats] : []));

/**
 * What a receipt shows of each named format of abi/events.mjs (docs/methods.md "Receipt"): the
 * native address encodings (spec §6.3) and the names of enum values, here those of no domain
 * module's; a domain's own come from its module. Together they give every format:
 * test/unit/receipt-json.test.ts renders an event of every kind.
 */
const GENERIC_FORMATS = {
  account: encodeAccount,
  accountAt: encodeAccountAt,
  mint: encodeMint,
  mintAt: encodeMintAt,
  hash: encodeHash,
  keyTypeOfRegistration: (v) => (v === 0 ? 'Ed25519' : 'ML-DSA-65'),
  keyType: (v) => nameOf(KEY_TYPES, v),
  keyRole: (v) => nameOf(ROLES, v),
  metadataFields: (v) => METADATA_FIELD_NAMES.filter((_, i) => (v >> i) & 1),
  statusName: (v) => statusOf(v).name,
} satisfies Partial<Formats>;
const STATIC_FORMATS: Partial<Formats> = { ...moduleReceiptFormats(), ...GENERIC_FORMATS };

/**
 * The formats of one block's receipts: the static ones, the token's symbol from the registry, and
 * the modules' formats of this block (those that read the registry, or the block's own events for
 * an object the same block created, which committed state does not hold yet).
 */
function formats(result: BlockResultView, tokens: TokenRegistry): Formats {
  const fx: Partial<Formats> = {
    ...STATIC_FORMATS,
    symbol: (v) => tokens.byMintBytes(v)?.symbol,
    symbolAt: (b, o) => tokens.byMintAt(b, o)?.symbol,
  };
  if (BLOCK_FORMATS.length > 0) {
    const block: ReceiptBlock = { result, tokens };
    for (const f of BLOCK_FORMATS) Object.assign(fx, f(block));
  }
  return fx as Formats;
}
