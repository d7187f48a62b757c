/**
 * Node-local intent records in the node's level store (src/storage/chain-store.ts prefix 'i'):
 * what svc_submitIntent sent (the intent text and summary, under the bundle hash or a schedule id).
 * Programs and schedules are chain state (src/domains/programs/reader.ts, src/domains/schedules/reader.ts); kinds
 * 0x02 (node-held schedules) and 0x03 (programs) held them before and are no longer read or written.
 * None of this is consensus state (docs/intents.md "Storage"): another node does not see it, and a
 * data wipe loses it. Values are JSON, written with sync.
 */

/** The part of ChainStore the intent engine uses (src/intents never imports level, STYLE.md). */
export interface IntentRecordStore {
  getIntentRecord(key: Uint8Array): Promise<Uint8Array | undefined>;
  putIntentRecord(key: Uint8Array, value: Uint8Array): Promise<void>;
  scanIntentRecords(kind: number, onRecord: (key: Uint8Array, value: Uint8Array) => void): Promise<void>;
}

export const RecordKind = {
  /** bundle hash or schedule id (Nxh…) → SubmittedIntent */
  SUBMITTED: 0x01,
  // 0x02 held node-local schedules and 0x03 node-local programs before they moved to chain state
  // (docs/schedules.md, "Programs on chain"); not reused.
} as const;

/** JSON records of one kind, keyed by a string id. */
export class JsonRecords<T> {
  constructor(
    private readonly store: IntentRecordStore,
    private readonly kind: number,
  ) {}

  private key(id: string): Uint8Array {
    const body = Buffer.from(id, 'utf8');
    const key = new Uint8Array(1 + body.length);
    key[0] = this.kind;
    key.set(body, 1);
    return key;
  }

  async get(id: string): Promise<T | undefined> {
    const v = await this.store.getIntentRecord(this.key(id));
    return v ? (JSON.parse(Buffer.from(v).toString('utf8')) as T) : undefined;
  }

  async put(id: string, value: T): Promise<void> {
    await this.store.putIntentRecord(this.key(id), Buffer.from(JSON.stringify(value), 'utf8'));
  }

  async all(): Promise<Array<[string, T]>> {
    const out: Array<[string, T]> = [];
    await this.store.scanIntentRecords(this.kind, (key, value) => {
      out.push([Buffer.from(key.subarray(1)).toString('utf8'), JSON.parse(Buffer.from(value).toString('utf8')) as T]);
    });
    return out;
  }
}

/** An in-memory IntentRecordStore (unit tests, and embedders without a level store). */
export class MemoryRecordStore implements IntentRecordStore {
  private readonly map = new Map<string, Uint8Array>();

  async getIntentRecord(key: Uint8Array): Promise<Uint8Array | undefined> {
    return this.map.get(Buffer.from(key).toString('latin1'));
  }

  async putIntentRecord(key: Uint8Array, value: Uint8Array): Promise<void> {
    this.map.set(Buffer.from(key).toString('latin1'), value);
  }

  async scanIntentRecords(kind: number, onRecord: (key: Uint8Array, value: Uint8Array) => void): Promise<void> {
    for (const k of [...this.map.keys()].sort()) {
      if (k.charCodeAt(0) === kind) onRecord(new Uint8Array(Buffer.from(k, 'latin1')), this.map.get(k)!);
    }
  }
}
