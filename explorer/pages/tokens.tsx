/** The token list and a token's page: its record, each domain's section (domains/index.ts `tokenSections`), holders and transfers. */
import { formatUnits } from '../format.js';
import { Fragment } from 'preact';
import { explorerDomains } from '../domains/index.js';
import { type Token, href, useCall, Show, Hash, Addr, When, Fields, cell, HistoryStart } from '../ui.js';

/** A token by symbol, mint, or (as MetaMask links /token/<contract>) its ERC-20 address, resolved by svc_search. */
export function TokenPage({ id }: { id: string }) {
  const evm = /^0x[0-9a-fA-F]{40}$/.test(id);
  const found = useCall<{ type: string; token?: Token }>(evm ? 'svc_search' : 'svc_getTokenInfo', [id]);
  return (
    <section>
      <Show data={found}>
        {(f) => {
          const t = evm ? f.token : (f as unknown as Token);
          if (!t) return <p class="error">No token at {id}.</p>;
          return (
            <>
              <h2>{t.name} ({t.symbol}) {t.badge && <span class="badge">{t.badge}</span>}</h2>
              <Fields rows={[
                ['Mint', <span class="mono">{t.mint_address}</span>],
                ['EVM contract', t.evm_address ? <span class="mono" data-testid="token-evm">{t.evm_address}</span> : <span class="muted">none (the native coin)</span>],
                ['Standard', explorerDomains.map((d) => d.tokenStandard?.(t)).find((s) => s !== undefined) ?? t.standard],
                ['Decimals', t.decimals],
                ['Total supply', `${formatUnits(t.total_supply, t.decimals)} ${t.symbol}`],
                ['Owner', <Addr value={t.owner} />],
                ['Creator', <Addr value={t.creator} />],
              ]} />
              {explorerDomains.flatMap((d) => d.tokenSections ?? []).map((s) => (
                <Fragment key={s.title}><h3>{s.title}</h3><s.Section token={t} /></Fragment>
              ))}
              <h3>Holders</h3>
              <TokenHolders token={t} />
              <h3>Transfers</h3>
              <HistoryStart />
              <TokenTransfers token={t} />
            </>
          );
        }}
      </Show>
    </section>
  );
}

export function TokenHolders({ token }: { token: Token }) {
  const holders = useCall<Array<{ address: string; balance: string }>>('svc_getTokenHolders', [token.mint_address, 25]);
  const supply = BigInt(token.total_supply);
  return (
    <Show data={holders}>
      {(list) => list.length === 0 ? <p class="muted">None.</p> : (
        <table class="list" data-testid="token-holders">
          <thead><tr><th>Address</th><th>Balance</th><th>Share</th></tr></thead>
          <tbody>
            {list.map((h) => (
              <tr key={h.address}>
                <td>{cell('address', h.address)}</td>
                <td>{formatUnits(h.balance, token.decimals)} {token.symbol}</td>
                <td>{supply > 0n ? `${(Number((BigInt(h.balance) * 10000n) / supply) / 100).toFixed(2)} %` : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Show>
  );
}

export function TokenTransfers({ token }: { token: Token }) {
  const transfers = useCall<Array<{ bundle_hash: string; timestamp: number; event: string; from: string; to: string; amount: string }>>('svc_getTokenTransfers', [token.mint_address, 25]);
  return (
    <Show data={transfers}>
      {(list) => list.length === 0 ? <p class="muted">None.</p> : (
        <table class="list" data-testid="token-transfers">
          <thead><tr><th>Bundle</th><th>Time</th><th>From</th><th>To</th><th>Amount</th></tr></thead>
          <tbody>
            {list.map((x, i) => (
              <tr key={i}>
                <td><Hash value={x.bundle_hash} to={href('tx', x.bundle_hash)} /> <span class="muted">{x.event === 'Transfer' ? '' : x.event}</span></td>
                <td><When ts={x.timestamp} /></td>
                <td>{cell('from', x.from)}</td>
                <td>{cell('to', x.to)}</td>
                <td>{formatUnits(x.amount, token.decimals)} {token.symbol}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Show>
  );
}

export function TokensPage() {
  const tokens = useCall<Token[]>('svc_listTokens', [1000]);
  return (
    <section>
      <h2>Tokens</h2>
      <Show data={tokens}>
        {(list) => (
          <table class="list">
            <thead><tr><th>Symbol</th><th>Name</th><th>Standard</th><th>Supply</th></tr></thead>
            <tbody>
              {list.map((t) => (
                <tr key={t.mint_address}>
                  <td><a href={href('token', t.mint_address)}>{t.symbol}</a></td>
                  <td>{t.name}</td>
                  <td>{t.standard}</td>
                  <td>{formatUnits(t.total_supply, t.decimals)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Show>
    </section>
  );
}
