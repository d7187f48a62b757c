import { isStorageFault } from './faults.js';

/**
 * The main thread's database handle with its faults heard (issue 46 item 5; docs/operations.md
 * "Storage faults"): a read or write that LevelDB fails with a corruption or an I/O error calls
 * `onFault` (the node ends with exit 1 and the file named) before the caller sees the error.
 * Without it, a corrupted table read by an RPC call answered that call with an error and the node
 * went on serving from a database it could no longer read. The writer thread's faults come back
 * through its failed write (src/chain/pipeline/4-write.ts).
 *
 * Methods are bound to the real handle (classic-level keeps private state); iterators are wrapped
 * the same way, so a scan that meets a damaged block is heard too.
 */
const ASYNC = new Set(['get', 'getMany', 'put', 'del', 'batch', 'clear', 'compactRange', 'approximateSize']);
const ITERATORS = new Set(['iterator', 'keys', 'values']);
const ITERATOR_ASYNC = new Set(['next', 'nextv', 'all']);

export function guardFaults<T extends object>(db: T, onFault: (error: unknown) => void): T {
  const heard = <R>(result: R): R => {
    if (result instanceof Promise) {
      return result.catch((error: unknown) => {
        if (isStorageFault(error)) onFault(error);
        throw error;
      }) as R;
    }
    return result;
  };
  const wrap = (target: object, names: Set<string>, inner?: (value: object) => object): object => {
    // one wrapper per method, made on first use: the handle's reads are on the hot path (receipts, --elastic-state misses)
    const made = new Map<string, unknown>();
    return new Proxy(target, {
      get(object, prop) {
        if (typeof prop === 'string' && made.has(prop)) return made.get(prop);
        const value: unknown = Reflect.get(object, prop, object);
        if (typeof value !== 'function' || typeof prop !== 'string') return value;
        const bound = (value as (...args: unknown[]) => unknown).bind(object);
        const method = names.has(prop) ? (...args: unknown[]) => heard(bound(...args))
          : inner && ITERATORS.has(prop) ? (...args: unknown[]) => inner(bound(...args) as object)
            : bound;
        made.set(prop, method);
        return method;
      },
    });
  };
  return wrap(db, ASYNC, (iterator) => wrap(iterator, ITERATOR_ASYNC)) as T;
}
