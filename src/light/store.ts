import { ClassicLevel } from 'classic-level';
import { decodeStoredBlock, encodeBlock, type BlockHeader } from '../chain/block.js';
import { BorshReader, BorshWriter } from '../codec/borsh.js';

/**
 * What a `--light` node keeps (docs/operations.md "Light node"): every verified header with its
 * finality certificate, the head, and the last validator-set proof it verified, in a LevelDB of its
 * own at `<data-dir>/light`, so a restart resumes from its head and re-verifies the stored set
 * proof against the stored header. No state, no bundles, no receipts.
 *
 * Keys: `h` ‖ u64 BE height → Borsh { header: Vec<u8> (encodeBlock with no bundles), certificate: Vec<u8> };
 * `meta:head` → u64 BE; `meta:genesis` → the genesis hash the store was started with;
 * `meta:set` → the `/ntv/validators/1` answer last verified (src/chain/validator-set-proof.ts), or
 * the set proof of the last epoch record crossed; `meta:checkpoint` → u64 BE, the `--checkpoint`
 * height the store started from (absent: genesis). Below a checkpoint, and between two epoch
 * boundaries crossed by their records, no headers are held.
 */
const HEAD = new TextEncoder().encode('meta:head');
const GENESIS = new TextEncoder().encode('meta:genesis');
const SET = new TextEncoder().encode('meta:set');
const CHECKPOINT = new TextEncoder().encode('meta:checkpoint');
/** the light store's own key space (a database of its own, not a state or chain-store prefix) */
const HEADER_KEY = 'h'.charCodeAt(0);

function headerKey(height: number): Uint8Array {
  const key = new Uint8Array(9);
  key[0] = HEADER_KEY;
  new DataView(key.buffer).setBigUint64(1, BigInt(height), false);
  return key;
}

function u64(height: number): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(height), false);
  return out;
}

export interface StoredHeader {
  header: BlockHeader;
  certificate: Uint8Array;
}

export class LightStore {
  private readonly db: ClassicLevel<Uint8Array, Uint8Array>;

  constructor(readonly path: string) {
    this.db = new ClassicLevel<Uint8Array, Uint8Array>(path, { keyEncoding: 'view', valueEncoding: 'view' });
  }

  async open(): Promise<void> {
    await this.db.open();
  }

  async close(): Promise<void> {
    await this.db.close();
  }

  async genesisHash(): Promise<Uint8Array | undefined> {
    return (await this.db.get(GENESIS)) ?? undefined;
  }

  async head(): Promise<number | undefined> {
    const b = await this.db.get(HEAD);
    return b ? Number(new DataView(b.buffer, b.byteOffset, 8).getBigUint64(0, false)) : undefined;
  }

  async header(height: number): Promise<StoredHeader | undefined> {
    const b = await this.db.get(headerKey(height));
    if (!b) return undefined;
    const r = new BorshReader(b);
    const block = r.vecBytes('header');
    const certificate = r.vecBytes('certificate');
    return { header: decodeStoredBlock(block).header, certificate };
  }

  /**
   * Headers verified by the caller, ascending (consecutive, or an epoch record's header past a gap:
   * checkpoint sync stores no header between two boundaries), and the new head, in one synced batch.
   * `moveHead` false: an epoch record's header below the head (the head's set is being caught up).
   */
  async putHeaders(headers: StoredHeader[], genesis?: Uint8Array, moveHead = true): Promise<void> {
    if (headers.length === 0) return;
    const batch = this.db.batch();
    for (const { header, certificate } of headers) {
      const block = encodeBlock({ header, bundles: [], bundleHashes: [] });
      batch.put(headerKey(header.height), new BorshWriter(block.length + certificate.length + 8).vecBytes(block, 'header').vecBytes(certificate, 'certificate').finish());
    }
    if (moveHead) batch.put(HEAD, u64(headers[headers.length - 1]!.header.height));
    if (genesis) batch.put(GENESIS, genesis);
    await batch.write({ sync: true });
  }

  /** The checkpoint this store started from (undefined: genesis). */
  async checkpoint(): Promise<number | undefined> {
    const b = await this.db.get(CHECKPOINT);
    return b ? Number(new DataView(b.buffer, b.byteOffset, 8).getBigUint64(0, false)) : undefined;
  }

  async putCheckpoint(height: number): Promise<void> {
    await this.db.put(CHECKPOINT, u64(height), { sync: true });
  }

  async validatorSetProof(): Promise<Uint8Array | undefined> {
    return (await this.db.get(SET)) ?? undefined;
  }

  async putValidatorSetProof(bytes: Uint8Array): Promise<void> {
    await this.db.put(SET, bytes, { sync: true });
  }
}
