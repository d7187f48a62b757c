import { isStorageFault } from './faults.js';

/**
 * The main thread's database handle with its faults heard (issue 46 item 5; docs/operations.md
 * "Storage faults"): a read or write that LevelDB fails with a corruption or an I/O error calls
 * `onFault` (the node ends with exit 1 and the file named) before the caller sees the error.
 * Without it, a corrupted table read by an RPC call answered that call with an error and the node
 * went on serving from a database it could no longer read. The writer thread's faults come back
 * through its failed write (src/chain/pipeline/write.ts).
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
  const wrap = (target: object, names: Set<string>, inner?: (value: object) => object): object => new Proxy(target, {
    get(object, prop) {
      const value: unknown = Reflect.get(object, prop, object);
      if (typeof value !== 'function' || typeof prop !== 'string') return value;
      const bound = (value as (...args: unknown[]) => unknown).bind(object);
      if (names.has(prop)) return (...args: unknown[]) => heard(bound(...args));
      if (inner && ITERATORS.has(prop)) return (...args: unknown[]) => inner(bound(...args) as object);
      return bound;
    },
  });
  return wrap(db, ASYNC, (iterator) => wrap(iterator, ITERATOR_ASYNC)) as T;
}
