/** NFT and multi-token collections (docs/collections.md): a collection's page and an address's NFTs. */
import type { ExplorerDomain } from './module.js';
import { useCall, Show, Fields, GenericTable, cell } from '../ui.js';

/** An NFT or multi-token collection (docs/nfts.md): its record, and a multi-token collection's types. */
export function CollectionPage({ address }: { address: string }) {
  const found = useCall<{ type: string; collection?: Record<string, unknown> }>('svc_search', [address]);
  return (
    <section>
      <Show data={found}>
        {(f) => {
          const c = f.collection;
          if (!c) return <p class="muted">No collection at {address}.</p>;
          return (
            <>
              <h2>{String(c.name)} ({String(c.symbol)}) <span class="badge">{c.kind === 'nft' ? 'ERC-721' : 'ERC-1155'}</span></h2>
              <Fields rows={Object.entries(c)
                .filter(([k, v]) => k !== 'name' && k !== 'symbol' && v !== '') // optional URIs left empty
                .map(([k, v]) => [k, k === 'max_supply' && v === null ? 'unlimited' : cell(k, v)])} />
              {c.kind === 'multi' && <><h3>Token types</h3><TokenTypes collection={String(c.address)} /></>}
            </>
          );
        }}
      </Show>
    </section>
  );
}

export function TokenTypes({ collection }: { collection: string }) {
  const types = useCall<Array<Record<string, unknown>>>('svc_listTokenTypes', [collection, 100]);
  return <Show data={types}>{(list) => <GenericTable items={Array.isArray(list) ? list : []} testid="token-types" />}</Show>;
}

/** An address's NFTs (svc_listNftsByOwner). */
function AddressNfts({ address }: { address: string }) {
  const nfts = useCall<Array<Record<string, unknown>>>('svc_listNftsByOwner', [address, null, 25]);
  return <Show data={nfts}>{(list) => <GenericTable items={Array.isArray(list) ? list : []} testid="address-nfts" />}</Show>;
}

export const collections: ExplorerDomain = {
  name: 'collections',
  routes: { collection: (a) => <CollectionPage address={a} /> },
  addressRoutes: { Nx2: 'collection' },
  addressSections: [{ title: 'NFTs', Section: AddressNfts }],
};
