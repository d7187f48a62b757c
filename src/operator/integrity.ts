/**
 * The integrity sweep as the node runs it (spec §4.20 `--verify-on-start`,
 * `--rocksdb-verify-interval-secs`; docs/operations.md "Integrity"): the storage sweep
 * (src/storage/integrity.ts), then the recomputed state root against the head block's.
 */
import { decodeStoredBlock } from '../chain/block.js';
import { encodeHash } from '../codec/address.js';
import type { Logger } from '../logger.js';
import type { ChainStore } from '../storage/chain-store.js';
import { verifyStore, type IntegrityReport } from '../storage/integrity.js';

export type SweepReport = IntegrityReport;

export async function integritySweep(store: ChainStore, maxAnomalies = 10): Promise<SweepReport> {
  const report = await verifyStore(store, { maxAnomalies });
  if (report.headBlock) {
    let headerRoot: Uint8Array | undefined;
    try {
      headerRoot = decodeStoredBlock(report.headBlock).header.stateRoot;
    } catch (error) {
      report.anomalyCount++;
      report.anomalies.push({ key: 'head block', reason: `the head block ${report.head} does not decode: ${(error as Error).message}` });
    }
    if (headerRoot && Buffer.compare(headerRoot, report.stateRoot) !== 0) {
      report.anomalyCount++;
      report.anomalies.push({
        key: 'state root',
        reason: `the state records hash to ${encodeHash(report.stateRoot)}, the head block ${report.head} names ${encodeHash(headerRoot)}`,
      });
    }
    report.anomalies.splice(maxAnomalies);
  }
  return report;
}

/** The lines an operator reads: a count, then up to the first ten keys with the reason each. */
export function describeAnomalies(report: SweepReport): string {
  const lines = report.anomalies.map((a) => `  ${a.key}: ${a.reason}`);
  const more = report.anomalyCount > report.anomalies.length ? `\n  … and ${report.anomalyCount - report.anomalies.length} more` : '';
  return `${report.anomalyCount} malformed record${report.anomalyCount === 1 ? '' : 's'} among ${report.records} (first ${report.anomalies.length}):\n${lines.join('\n')}${more}`;
}

/**
 * `--rocksdb-verify-interval-secs N`: the same sweep every N seconds in the background, one at a
 * time, on a consistent snapshot while blocks are written; anomalies are logged at error level.
 */
export function startBackgroundSweep(store: ChainStore, intervalSeconds: number, logger: Logger): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  let stopped = false;
  const run = () => {
    if (running || stopped) return;
    running = integritySweep(store).then(
      (report) => {
        if (report.anomalyCount > 0) logger.error('integrity sweep found malformed records', { detail: describeAnomalies(report), count: report.anomalyCount, anomalies: report.anomalies });
        else logger.info('integrity sweep', { records: report.records, stateRecords: report.stateRecords, height: report.head, ms: report.ms });
      },
      (error: unknown) => {
        if (!stopped) logger.error('integrity sweep failed', { error: (error as Error).message });
      },
    ).finally(() => {
      running = undefined;
    });
  };
  const timer = setInterval(run, intervalSeconds * 1000);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
