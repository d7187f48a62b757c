import { anchorId, namespaceId } from '../../codec/domain-ids.js';
import { anchorIndexKey, anchorKey, anchorNamespaceKey, decodeAnchorFields, decodeAnchorNamespaceFields, type AnchorFields, type AnchorNamespaceFields } from '../../abi/state.js';
import type { StateReader, WatchableState } from '../../chain/state-reader.js';
import { Prefix } from '../../abi/constants.js';

export { anchorId, namespaceId };

/**
 * Anchoring on the host side (spec §4.7; docs/anchors.md): the ids the core derives and readers
 * of its records (0x77–0x79). The rules — the first writer owns a namespace, keys are write-once —
 * are the core's (assembly/domains/anchors/ops.ts); the checks here only give RPC callers a clear error
 * before a bundle is built.
 */

export const NAMESPACE_MAX_BYTES = 64;
export const ANCHOR_KEY_MAX_BYTES = 256;
const NAMESPACE = /^[a-z0-9._-]{1,64}$/;
const enc = new TextEncoder();

/** Why a namespace is refused (INVALID_NAMESPACE), or undefined. */
export function namespaceProblem(ns: string): string | undefined {
  return NAMESPACE.test(ns) ? undefined : `"${ns}" is not 1–64 characters of a-z, 0-9, '.', '_' and '-'`;
}
/** Why a key is refused (INVALID_ANCHOR_KEY), or undefined. */
export function anchorKeyProblem(key: string): string | undefined {
  const n = enc.encode(key).length;
  return n >= 1 && n <= ANCHOR_KEY_MAX_BYTES ? undefined : `the key is ${n} bytes of UTF-8; it must be 1–${ANCHOR_KEY_MAX_BYTES}`;
}

export function readNamespace(state: StateReader, ns: string): AnchorNamespaceFields | undefined {
  const v = state.get(anchorNamespaceKey(namespaceId(ns)));
  return v ? decodeAnchorNamespaceFields(v) : undefined;
}

export function readAnchor(state: StateReader, ns: string, key: string): AnchorFields | undefined {
  const v = state.get(anchorKey(anchorId(ns, key)));
  return v ? decodeAnchorFields(v) : undefined;
}

/** The latest `limit` anchors of a namespace, newest first (its 0x79 index). */
export function listAnchors(state: StateReader, ns: string, limit: number): AnchorFields[] {
  const info = readNamespace(state, ns);
  if (!info) return [];
  const nsId = namespaceId(ns);
  const out: AnchorFields[] = [];
  for (let i = info.count; i > 0n && out.length < limit; i--) {
    const id = state.get(anchorIndexKey(nsId, i - 1n));
    const v = id && state.get(anchorKey(id));
    if (v) out.push(decodeAnchorFields(v));
  }
  return out;
}

/**
 * Anchors by the account that made them (for the explorer's address page and
 * svc_getAnchorsByAccount): an index the host keeps from the 0x78 records as state loads and as
 * each block lands. Anchors are write-once, so an account's list only grows.
 */
export class AnchorReader {
  /** anchorer hex → its anchors */
  private readonly byAccount = new Map<string, AnchorFields[]>();

  constructor(state: WatchableState) {
    state.watch(Prefix.ANCHOR, (_key, value) => {
      if (value === null) return; // never deleted
      const a = decodeAnchorFields(value);
      const k = Buffer.from(a.anchorer).toString('hex');
      let list = this.byAccount.get(k);
      if (!list) this.byAccount.set(k, (list = []));
      list.push(a);
    });
  }

  /** The account's latest `limit` anchors, newest first (by height, then position in their namespace). */
  byAnchorer(account: Uint8Array, limit: number): AnchorFields[] {
    const list = this.byAccount.get(Buffer.from(account).toString('hex')) ?? [];
    return [...list].sort((a, b) => (b.height === a.height ? Number(b.index - a.index) : b.height > a.height ? 1 : -1)).slice(0, limit);
  }
}
