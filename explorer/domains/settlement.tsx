/** Atomence settlement (docs/settlement.md): market makers, open orders and an order's page. */
import type { ExplorerDomain } from './module.js';
import { href, useCall, Show, Amount, Hash, Addr, When, Fields } from '../ui.js';

export type Order = {
  order_id: string; state: string; expired: boolean; creator: string; escrow: string; sell_token: string; sell_amount: string; buy_token: string;
  min_buy_amount: string; expiry: number; created_height: number; market_maker: string | null; bid_amount: string | null; ask_amount: string | null;
  spread_bps: number | null; matched_height: number | null; closed_height: number | null; closed_at: number | null;
};

/** Settlement with market makers (docs/settlement.md): the stats of spec §2.7, the active makers and the latest settlements. */
export function SettlementsPage() {
  const stats = useCall<{ settled_count: number; total_volume: string; avg_spread_bps: number; last_settlement_block: number | null; active_mm_count: number }>('svc_atomenceStats', []);
  const makers = useCall<Array<{ address: string; tier: number; stake: string; max_spread_bps: number; open_matches: number; settled_count: number; avg_spread_bps: number }>>('svc_getMarketMakers', []);
  const settled = useCall<Order[]>('svc_listAtomenceSettlements', [null, null, 50]);
  return (
    <section>
      <h2>Settlement</h2>
      <Show data={stats}>
        {(s) => (
          <div data-testid="settlement-stats">
            <Fields rows={[
              ['Settlements', s.settled_count],
              ['Average spread', `${s.avg_spread_bps} bps`],
              ['Last settlement', s.last_settlement_block === null ? '—' : <a href={href('block', s.last_settlement_block)}>block {s.last_settlement_block}</a>],
              ['Active market makers', s.active_mm_count],
            ]} />
          </div>
        )}
      </Show>
      <h3>Market makers</h3>
      <Show data={makers}>
        {(list) => list.length === 0 ? <p class="muted">None.</p> : (
          <table class="list" data-testid="market-makers">
            <thead><tr><th>Maker</th><th>Tier</th><th>Stake</th><th>Max spread</th><th>Open</th><th>Settled</th><th>Avg spread</th></tr></thead>
            <tbody>
              {list.map((m) => (
                <tr key={m.address}>
                  <td><Addr value={m.address} /></td><td>{m.tier}</td><td><Amount raw={m.stake} token="NTV" /></td><td>{m.max_spread_bps} bps</td>
                  <td>{m.open_matches}</td><td>{m.settled_count}</td><td>{m.avg_spread_bps} bps</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Show>
      <h3>Latest settlements</h3>
      <Show data={settled}>
        {(list) => list.length === 0 ? <p class="muted">None yet.</p> : (
          <table class="list" data-testid="settlements">
            <thead><tr><th>Order</th><th>Delivered</th><th>Paid</th><th>Spread</th><th>Block</th></tr></thead>
            <tbody>
              {[...list].reverse().map((o) => (
                <tr key={o.order_id}>
                  <td><Hash value={o.order_id} to={href('order', o.order_id)} /></td>
                  <td><Amount raw={o.sell_amount} token={o.sell_token} /></td>
                  <td><Amount raw={o.bid_amount ?? '0'} token={o.buy_token} /></td>
                  <td>{o.spread_bps} bps</td>
                  <td>{o.closed_height !== null && <a href={href('block', o.closed_height)}>{o.closed_height}</a>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Show>
    </section>
  );
}

/** One settlement order's lifecycle record (svc_getAtomenceOrder). */
export function OrderPage({ id }: { id: string }) {
  const order = useCall<Order | null>('svc_getAtomenceOrder', [id]);
  return (
    <section>
      <h2>Settlement order</h2>
      <Show data={order}>
        {(o) => o === null ? <p class="error">No order has this id.</p> : (
          <div data-testid="order">
            <Fields rows={[
              ['Order', <span class="mono">{o.order_id}</span>],
              ['State', <span class={o.state === 'settled' ? 'ok' : o.state === 'open' || o.state === 'matched' ? '' : 'muted'}>{o.state}{o.expired && (o.state === 'open' || o.state === 'matched') ? ' (past its expiry)' : ''}</span>],
              ['Creator', <Addr value={o.creator} />],
              ['Sells', <Amount raw={o.sell_amount} token={o.sell_token} />],
              ['For at least', <Amount raw={o.min_buy_amount} token={o.buy_token} />],
              ['Escrow', <Addr value={o.escrow} />],
              ['Expiry', <When ts={o.expiry} />],
              ['Created', <a href={href('block', o.created_height)}>block {o.created_height}</a>],
              ['Market maker', o.market_maker ? <Addr value={o.market_maker} /> : '—'],
              ['Bid / ask', o.bid_amount ? <><Amount raw={o.bid_amount} token={o.buy_token} /> / <Amount raw={o.ask_amount ?? '0'} token={o.buy_token} /> ({o.spread_bps} bps)</> : '—'],
              ['Closed', o.closed_height !== null ? <a href={href('block', o.closed_height)}>block {o.closed_height}</a> : '—'],
            ]} />
          </div>
        )}
      </Show>
    </section>
  );
}

export const settlement: ExplorerDomain = {
  name: 'settlement',
  routes: { settlements: () => <SettlementsPage />, order: (a) => <OrderPage id={a} /> },
  nav: { route: 'settlements', label: 'Settlement' },
};
