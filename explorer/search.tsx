/** The search box: svc_search (spec §4.11) when the node has it, else by the query's shape. */
import { useState } from 'preact/hooks';
import { availableMethods, call } from './rpc.js';
import { classify } from './format.js';
import { type Receipt, type Token, go } from './ui.js';

export type SearchResult =
  | { type: 'block'; height: number }
  | { type: 'transaction'; bundle_hash: string }
  | { type: 'address'; address: string }
  | { type: 'token'; mint_address: string }
  | { type: 'collection'; address: string }
  | { type: 'not_found'; query: string };

/** Routes a query: through svc_search (spec §4.11) when the node has it, else by the query's shape. */
export async function search(query: string): Promise<string | undefined> {
  const q = query.trim();
  if (q === '') return undefined;
  const methods = await availableMethods();
  if (methods.has('svc_search')) {
    const found = await call<SearchResult>('svc_search', [q]).catch(() => undefined);
    switch (found?.type) {
      case 'block': return go('block', found.height);
      // An EVM hash stays in the URL (it is the one the user has), a bundle hash likewise.
      case 'transaction': return go('tx', q);
      case 'address': return go('address', found.address);
      case 'token': return go('token', found.mint_address);
      case 'collection': return go('collection', found.address);
      case 'not_found': return `Nothing found for “${q}”.`;
    }
  }
  switch (classify(q)) {
    case 'height': return go('block', Number(q));
    case 'address': return go('address', q);
    case 'mint': return go('token', q);
    case 'hash':
      if (await call<Receipt | null>('svc_getTransactionReceipt', [q]).catch(() => null)) return go('tx', q);
      // A 0x + 64 hex string is also the 32-byte form of an address.
      if (q.startsWith('0x')) return go('address', q);
      break;
    case 'symbol': {
      const token = await call<Token>('svc_getTokenInfo', [q]).catch(() => undefined);
      if (token) return go('token', token.mint_address);
      break;
    }
  }
  return `Nothing found for “${q}”.`;
}

export function SearchBox() {
  const [query, setQuery] = useState('');
  const [message, setMessage] = useState<string>();
  return (
    <form
      class="search"
      onSubmit={async (e) => {
        e.preventDefault();
        setMessage(await search(query));
      }}
    >
      <input
        name="q"
        aria-label="Search"
        placeholder="Height, bundle or EVM tx hash, Nx0…/0x address, token symbol, Nx1… mint or 0x contract"
        value={query}
        onInput={(e) => setQuery((e.target as HTMLInputElement).value)}
      />
      <button type="submit">Search</button>
      {message && <span class="error">{message}</span>}
    </form>
  );
}
