/**
 * node:fs, node:fs/promises, node:os, node:module, node:url, node:worker_threads in the browser
 * build: the modules it bundles import them for paths it never takes there (a chain parameters
 * file, a worker pool, loading core.wasm from disk). Any call says so instead of failing obscurely.
 */
function unavailable(name: string): () => never {
  return () => {
    throw new Error(`${name} is not available in the browser build`);
  };
}

export const readFileSync = unavailable('fs.readFileSync');
export const readFile = unavailable('fs.readFile');
export const availableParallelism = () => 1;
export const createRequire = unavailable('module.createRequire');
export const pathToFileURL = unavailable('url.pathToFileURL');
export const fileURLToPath = unavailable('url.fileURLToPath');
export class Worker {
  constructor() {
    throw new Error('worker_threads are not available in the browser build');
  }
}
export default {};
