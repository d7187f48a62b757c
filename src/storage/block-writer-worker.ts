import { parentPort, workerData } from 'node:worker_threads';
import { Level } from 'level';
import { storedBundles } from '../chain/block.js';
import { blockIndexOps } from '../chain/block-index.js';
import { BlockResultView } from '../core/block-result.js';
import { putBlocks, type PackedBlockWrite } from './block-batch.js';

/**
 * The block writer's thread (block-writer.ts): a second handle on the node's database (classic-level
 * `multithreading`, one LevelDB underneath), which turns each group of executed blocks into one
 * level batch and writes it synced. Groups arrive one at a time and are written in arrival order.
 * It also derives the index records that need no state (`deriveIndexes`), off the main thread.
 */

export interface WriterInit {
  path: string;
}

export type WriterRequest = { type: 'write'; id: number; writes: PackedBlockWrite[] } | { type: 'close' };
export type WriterResponse = { type: 'ready' } | { type: 'written'; id: number } | { type: 'failed'; id: number; error: string } | { type: 'closed' };

const port = parentPort!;
const { path } = workerData as WriterInit;
const db = new Level<Uint8Array, Uint8Array>(path, { keyEncoding: 'view', valueEncoding: 'view', multithreading: true });
await db.open();
const post = (message: WriterResponse) => port.postMessage(message);
let queue: Promise<void> = Promise.resolve();

port.on('message', (request: WriterRequest) => {
  queue = queue.then(async () => {
    if (request.type === 'close') {
      await db.close();
      post({ type: 'closed' });
      return;
    }
    try {
      for (const write of request.writes) if (write.deriveIndexes) deriveIndexes(write);
      const batch = db.batch();
      try {
        putBlocks(batch, request.writes);
      } catch (error) {
        await batch.close();
        throw error;
      }
      await batch.write({ sync: true });
      post({ type: 'written', id: request.id });
    } catch (error) {
      post({ type: 'failed', id: request.id, error: error instanceof Error ? error.message : String(error) });
    }
  });
});
post({ type: 'ready' });

function deriveIndexes(write: PackedBlockWrite): void {
  const ops = (write.indexes ??= []);
  blockIndexOps(write.height, write.bundleHashes, storedBundles(write.block), write.outcome && new BlockResultView(write.outcome), ops);
}
