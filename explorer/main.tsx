/**
 * The block explorer page the node serves on GET / (issue 6, spec §4.11). Hash routes keep every
 * page on `/`, so the node serves one HTML file: #/ (latest blocks and transactions, live over the
 * §6 subscriptions), #/block/:height, #/tx/:hash, #/address/:address, #/token/:symbolOrMint,
 * #/tokens, #/pools, #/pool/:a/:b, #/presales, #/presale/:address, #/staking-pools,
 * #/staking-pool/:address, #/settlements, #/order/:id. Methods not listed by rpc.discover show a
 * "not available on this node" note instead of failing.
 *
 * Path routes (`/tx/<hash>`, `/address/<addr>`, `/block/<n>`, `/token/<addr>`: the links EVM
 * wallets build from a block-explorer URL) get this same page from the node; it turns the path
 * into the hash route at load (docs/explorer.md "Routes"). Every amount is shown with its token's
 * decimals and symbol (`Amount`), addresses and tokens with their EVM form beside the native one.
 *
 * This file is the shell: the header, the search box and the route table. The chain's, an
 * address's and a token's pages are in pages/; each domain's pages, header link and sections are in
 * domains/<name>.tsx, listed in domains/index.ts (docs/explorer.md "Domains").
 */

import { type ComponentChildren, Fragment, render } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { explorerDomains } from './domains/index.js';
import { AddressPage } from './pages/address.js';
import { BlockPage, Home, TxPage } from './pages/chain.js';
import { TokenPage, TokensPage } from './pages/tokens.js';
import { SearchBox } from './search.js';
import { addressRoutes, adoptPathRoute, liveFeed, useCall, useRoute } from './ui.js';
import './style.css';

/** The chain's own routes; each domain adds its own (domains/<name>.tsx `routes`). */
const ROUTES: Record<string, (a: string, b: string) => ComponentChildren> = {
  block: (a) => <BlockPage height={Number(a)} />,
  tx: (a) => <TxPage hash={a} />,
  address: (a) => <AddressPage address={a} />,
  token: (a) => <TokenPage id={a} />,
  tokens: () => <TokensPage />,
};
for (const d of explorerDomains) {
  for (const [prefix, route] of Object.entries(d.addressRoutes ?? {})) addressRoutes.set(prefix, route);
  for (const [route, page] of Object.entries(d.routes ?? {})) {
    if (route in ROUTES) throw new Error(`explorer route #/${route} is defined twice (${d.name})`);
    ROUTES[route] = page;
  }
}

function StatusLine() {
  const stats = useCall<{ blockHeight: number; network: string; chainId: number }>('svc_getNetworkStats', []);
  const [connected, setConnected] = useState(false);
  useEffect(() => {
    liveFeed().onStatus = setConnected;
  }, []);
  return (
    <span class="status">
      {stats.state === 'ok' && `${stats.value.network} · chain ${stats.value.chainId}`}
      <span class={connected ? 'dot on' : 'dot'} title={connected ? 'live' : 'reconnecting'} />
    </span>
  );
}

function App() {
  const route = useRoute();
  const page = useMemo(() => {
    const [name, a, b] = route;
    const show = name === undefined ? undefined : ROUTES[name];
    return show ? show(a!, b!) : <Home />;
  }, [route.join('/')]);
  return (
    <>
      <header>
        <a href="#/" class="brand">ntv explorer</a>
        <nav>
          <a href="#/">Blocks</a> <a href="#/tokens">Tokens</a>
          {explorerDomains.filter((d) => d.nav).map((d) => <Fragment key={d.name}> <a href={`#/${d.nav!.route}`}>{d.nav!.label}</a></Fragment>)}
        </nav>
        <StatusLine />
      </header>
      <SearchBox />
      <main>{page}</main>
    </>
  );
}

adoptPathRoute();
render(<App />, document.getElementById('app')!);
