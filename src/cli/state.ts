import { Command, Option } from 'clipanion';
import cliProgress from 'cli-progress';
import { CHAIN_IDS } from '../chain/genesis-data.js';
import { dryRunImport, ExportFormatError, exportDataDir, importIntoDataDir, type ImportResult } from '../operator/state-transfer.js';
import { stat } from 'node:fs/promises';

/**
 * `ntv-node export` / `ntv-node import` (spec §4.20, issue 24 item 6; docs/operations.md "Export
 * and import"), and the report `run --dry-run-import` shares with `import`.
 */

const MB = 1024 * 1024;

/** A progress bar on stderr over the compressed bytes read (drawn only when stderr is a terminal). */
export async function importProgress(file: string, label: string): Promise<{ update(records: number, bytes: number): void; stop(): void }> {
  const total = (await stat(file).catch(() => undefined))?.size ?? 0;
  const bar = new cliProgress.SingleBar({
    format: `${label} [{bar}] {percentage}% | {records} records | {eta_formatted} left`, stream: process.stderr,
  }, cliProgress.Presets.shades_classic);
  bar.start(total, 0, { records: 0 });
  return {
    update: (records, bytes) => bar.update(Math.min(bytes, total), { records }),
    stop: () => bar.stop(),
  };
}

/** What an import or dry run prints: one JSON object on stdout. */
export function importReport(result: ImportResult, extra: Record<string, unknown> = {}): string {
  return `${JSON.stringify({
    ...extra, height: result.manifest.height, stateRoot: result.manifest.stateRoot, blockHash: result.manifest.blockHash,
    chainId: result.manifest.chainId, records: result.records, ms: result.ms,
  }, null, 2)}\n`;
}

export class ExportCommand extends Command {
  static override paths = [['export']];

  static override usage = Command.Usage({
    description: 'Write the state of a stopped node\'s data directory at its head, with the head block, to one verified file (docs/operations.md "Export and import").',
    examples: [['Export ./data', 'ntv-node export -d ./data --out state.ntvx']],
  });

  dataDir = Option.String('-d,--data-dir', './data', { description: 'Data directory of a stopped node (default: ./data)' });
  out = Option.String('-o,--out', { required: true, description: 'File to write (zstd; written as <file>.partial and renamed when complete)' });

  async execute(): Promise<number> {
    const bar = new cliProgress.SingleBar({ format: 'exporting state: {value} records | {mb} MB', stream: process.stderr }, cliProgress.Presets.shades_classic);
    bar.start(0, 0, { mb: '0.0' });
    try {
      const result = await exportDataDir(this.dataDir, this.out, (records, bytes) => bar.update(records, { mb: (bytes / MB).toFixed(1) }));
      bar.stop();
      this.context.stdout.write(`${JSON.stringify({
        file: this.out, height: result.manifest.height, stateRoot: result.manifest.stateRoot, blockHash: result.manifest.blockHash,
        chainId: result.manifest.chainId, records: result.records, bytes: result.fileBytes,
      }, null, 2)}\n`);
      return 0;
    } catch (error) {
      bar.stop();
      this.context.stderr.write(`export failed: ${(error as Error).message}\n`);
      return 1;
    }
  }
}

export class ImportCommand extends Command {
  static override paths = [['import']];

  static override usage = Command.Usage({
    description: 'Read a state export into a new data directory, verifying it whole (checksum, record order, the state root against the tree records and the head block) before the head is written; a node started on the directory resumes at the export\'s height.',
    examples: [['Import into ./data2', 'ntv-node import state.ntvx -d ./data2']],
  });

  file = Option.String({ required: true, name: 'file' });
  dataDir = Option.String('-d,--data-dir', './data', { description: 'Data directory to create the database in; it must hold none (default: ./data)' });
  network = Option.String('--network', {
    description: `Refuse an export of another chain: testnet (chain ${CHAIN_IDS.testnet}) or mainnet (chain ${CHAIN_IDS.mainnet}) (default: any)`,
  });

  async execute(): Promise<number> {
    if (this.network !== undefined && this.network !== 'testnet' && this.network !== 'mainnet') {
      this.context.stderr.write(`--network: expected testnet or mainnet, got ${this.network}\n`);
      return 1;
    }
    const progress = await importProgress(this.file, 'importing state');
    try {
      const result = await importIntoDataDir(this.file, this.dataDir, {
        ...(this.network ? { chainId: CHAIN_IDS[this.network] } : {}), onProgress: progress.update,
      });
      progress.stop();
      this.context.stdout.write(importReport(result, { dataDir: this.dataDir }));
      return 0;
    } catch (error) {
      progress.stop();
      this.context.stderr.write(`import failed, nothing was written to ${this.dataDir}: ${(error as Error).message}\n`);
      return error instanceof ExportFormatError ? 65 : 1;
    }
  }
}

/** `run --dry-run-import <file>`: the import into a temporary directory, a report, and the exit status. */
export async function runDryImport(file: string, stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream): Promise<number> {
  const progress = await importProgress(file, 'test-importing state');
  try {
    const result = await dryRunImport(file, progress.update);
    progress.stop();
    stdout.write(importReport(result, { dryRun: true, file, verdict: 'the export imports cleanly' }));
    return 0;
  } catch (error) {
    progress.stop();
    stderr.write(`--dry-run-import: ${file} does not import: ${(error as Error).message}\n(the data directory was not opened)\n`);
    return error instanceof ExportFormatError ? 65 : 1;
  }
}
