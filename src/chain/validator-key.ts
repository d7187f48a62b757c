import { readFile, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { ed25519PublicKey } from '../codec/keys.js';
import { deriveAccount } from '../codec/address.js';
import type { ValidatorIdentity } from './producer.js';

const KEY_FILE = 'validator.key';

/**
 * The validator's Ed25519 key (spec §4.20 --validator-key: a file with 64 hex chars). Without the
 * flag the key lives in the data dir, generated on first start (mode 0600) and reused after.
 */
export async function loadValidatorKey(path: string | undefined, dataDir: string): Promise<ValidatorIdentity & { path: string; generated: boolean }> {
  const file = path ?? join(dataDir, KEY_FILE);
  let text: string | undefined;
  try {
    text = (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || path !== undefined) {
      throw new Error(`cannot read validator key ${file}: ${(error as Error).message}`);
    }
  }
  let generated = false;
  if (text === undefined) {
    text = randomBytes(32).toString('hex');
    await writeFile(file, `${text}\n`, { mode: 0o600, flag: 'wx' });
    generated = true;
  }
  if (!/^[0-9a-fA-F]{64}$/.test(text)) {
    throw new Error(`validator key ${file} must hold exactly 64 hex characters (an Ed25519 secret key)`);
  }
  const seed = new Uint8Array(Buffer.from(text, 'hex'));
  const publicKey = ed25519PublicKey(seed);
  return { seed, publicKey, address: deriveAccount(publicKey), path: file, generated };
}
