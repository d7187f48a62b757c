import { closeSync, constants, fsyncSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { DURABLE_HEAD_FILE } from './block-files.js';
import { join } from 'node:path';
import { lockHolder } from './faults.js';

/**
 * What a start checks of the data directory before the database is opened (issue 46 item 1;
 * docs/storage.md "Parts of the data directory", docs/operations.md "When a start refuses").
 *
 * A data dir holds three parts of one chain: the database (`db/`, LevelDB), the block files
 * (`blocks/`), and `chain.json`, written once the chain's genesis is stored, naming the chain.
 * Before, a missing `db/CURRENT` or `db/` opened as a new, empty database: the node wrote a new
 * genesis, cut the block files back to it (1,726,040 → 633 bytes) and, as a validator, would sign
 * heights it had signed before. Now any part without the others stops the start, and nothing on
 * disk is touched: this runs before LevelDB opens (an open with `createIfMissing` writes a new
 * CURRENT and deletes the old tables as obsolete).
 *
 * `--force-new-chain` is the one way to start a chain where `chain.json` says one was: only when the
 * database and the block files are gone (moved aside, or never there), so it never writes over blocks.
 */

export const CHAIN_FILE = 'chain.json';

/** What chain.json holds. */
export interface ChainMarker {
  network: string;
  chainId: number;
  /** the genesis block's hash, hex */
  genesis: string;
  /** ISO time it was written */
  created: string;
}

/** The start is refused: the message names what is missing and how to recover (exit 1, src/cli/run.ts). */
export class DataDirError extends Error {}

const SEGMENT_NAME = /^blocks-\d{6}\.dat$/;
const HASH = /^[0-9a-f]{64}$/;
/** Files LevelDB writes that hold no records (an open of a missing database leaves these). */
const LEVELDB_SIDE_FILES = new Set(['LOCK', 'LOG', 'LOG.old']);

const RECOVERY = 'To recover: restore the data directory from a backup or a snapshot (`ntv-node run --snapshot-url`, into an empty directory), '
  + 'load a state export (`ntv-node import`), or sync into a new data directory; '
  + '`--force-new-chain` starts a new chain, and only where no database and no block files are left (docs/operations.md "When a start refuses")';

export interface DataDirState {
  /** db/CURRENT exists: LevelDB will open the database that is there */
  database: boolean;
  /** files under db/ besides LevelDB's lock and logs */
  databaseFiles: string[];
  /** block files with their sizes */
  blockFiles: Array<{ name: string; bytes: number }>;
  marker: ChainMarker | undefined;
}

export function readDataDir(dataDir: string): DataDirState {
  const dbDir = join(dataDir, 'db');
  const databaseFiles = list(dbDir).filter((name) => !LEVELDB_SIDE_FILES.has(name));
  const blockFiles = list(join(dataDir, 'blocks')).filter((name) => SEGMENT_NAME.test(name)).sort()
    .map((name) => ({ name, bytes: statSync(join(dataDir, 'blocks', name)).size }));
  return { database: databaseFiles.includes('CURRENT'), databaseFiles, blockFiles, marker: readMarker(dataDir) };
}

/**
 * Before the database opens. Returns normally when the start may go on: a database is there (the
 * checks against its head follow in the block writer, block-files.ts), or nothing of a chain is.
 * `restoring`: a snapshot is about to be restored into the empty database (a recovery itself).
 */
export function checkDataDir(dataDir: string, options: { forceNewChain: boolean; restoring: boolean }): { forgotten?: ChainMarker } {
  // Another node on this directory: said before LevelDB opens (its open renames LOG even when the
  // lock then fails), naming the holder where /proc/locks shows it.
  const holder = lockHolder(join(dataDir, 'db', 'LOCK'));
  if (holder !== undefined) {
    throw new DataDirError(`the data directory ${dataDir} is in use: ${join(dataDir, 'db', 'LOCK')} is locked by ${holder}. Stop that node first, or give this one another --data-dir`);
  }
  const state = readDataDir(dataDir);
  const blockBytes = state.blockFiles.reduce((sum, f) => sum + f.bytes, 0);
  const files = `block files in ${join(dataDir, 'blocks')} (${state.blockFiles.length} file${state.blockFiles.length === 1 ? '' : 's'}, ${blockBytes} bytes)`;
  if (options.forceNewChain && (state.databaseFiles.length > 0 || blockBytes > 0)) {
    throw new DataDirError(`--force-new-chain starts a new chain only in a data directory without a database or block files; ${join(dataDir, 'db')} holds ${state.databaseFiles.length} file(s) and there are ${files}. Move them aside first if this chain is to be abandoned`);
  }
  if (state.database) return {};
  if (state.databaseFiles.length > 0) {
    throw new DataDirError(`${join(dataDir, 'db', 'CURRENT')} is missing but ${join(dataDir, 'db')} holds ${state.databaseFiles.length} database file(s) (${state.databaseFiles.slice(0, 5).join(', ')}${state.databaseFiles.length > 5 ? ', …' : ''})${blockBytes > 0 ? ` and there are ${files}` : ''}: `
      + `the database is damaged, and opening it would start a new chain over this one. Nothing was changed. ${RECOVERY}`);
  }
  if (blockBytes > 0) {
    throw new DataDirError(`the database ${join(dataDir, 'db')} is missing but there are ${files}: starting would begin a new chain over the stored one and cut its block files. Nothing was changed. ${RECOVERY}`);
  }
  if (state.marker && !options.restoring && !options.forceNewChain) {
    throw new DataDirError(`${join(dataDir, CHAIN_FILE)} says this data directory held the ${state.marker.network} chain with genesis ${state.marker.genesis}, but its database and block files are gone: `
        + `a validator starting a new chain here would sign heights it has signed before. Nothing was changed. ${RECOVERY}`);
  }
  // No database and no blocks: a writer's durable-head left from a chain that is gone would refuse
  // the new one (or the restored one) at its first open (block-files.ts).
  rmSync(join(dataDir, 'blocks', DURABLE_HEAD_FILE), { force: true });
  return state.marker && !options.restoring ? { forgotten: state.marker } : {};
}

/**
 * Records the chain this data dir holds, once its genesis is stored (written, synced, renamed into
 * place). A marker naming another genesis than the database's refuses the start: the database was
 * swapped for another chain's.
 */
export function recordChain(dataDir: string, chain: Omit<ChainMarker, 'created'>): void {
  const held = readMarker(dataDir);
  // a restored node may not hold its genesis block: only two real hashes are compared
  if (held && (held.genesis === chain.genesis || !HASH.test(held.genesis) || !HASH.test(chain.genesis))) return;
  if (held) {
    throw new DataDirError(`${join(dataDir, CHAIN_FILE)} says this data directory holds the ${held.network} chain with genesis ${held.genesis}, but its database holds the ${chain.network} chain with genesis ${chain.genesis}: `
      + `the database was replaced by another chain's. Nothing was changed. Move the directory aside and start in a new one (docs/operations.md "When a start refuses")`);
  }
  const path = join(dataDir, CHAIN_FILE);
  const temp = `${path}.tmp`;
  writeFileSync(temp, `${JSON.stringify({ ...chain, created: new Date().toISOString() }, null, 2)}\n`);
  const fd = openSync(temp, constants.O_RDONLY);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
  const dir = openSync(dataDir, constants.O_RDONLY);
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}

/** `--force-new-chain`: the old chain's marker goes aside (renamed, kept for the operator). */
export function setMarkerAside(dataDir: string): string {
  const aside = join(dataDir, `${CHAIN_FILE}.abandoned-${Date.now()}`);
  renameSync(join(dataDir, CHAIN_FILE), aside);
  return aside;
}

function readMarker(dataDir: string): ChainMarker | undefined {
  let text: string;
  try {
    text = readFileSync(join(dataDir, CHAIN_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return JSON.parse(text) as ChainMarker;
  } catch {
    throw new DataDirError(`${join(dataDir, CHAIN_FILE)} is not valid JSON: it names the chain this data directory holds (docs/operations.md "When a start refuses"); restore it or move the directory aside`);
  }
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
