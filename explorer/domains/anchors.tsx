/** Anchors (docs/anchors.md): what an address anchored, newest first. */
import type { ExplorerDomain } from './module.js';
import { Hash, href, Show, useCall, When } from '../ui.js';

function AddressAnchors({ address }: { address: string }) {
  const anchors = useCall<Array<{ namespace: string; key: string; value_hash: string; height: number; time: number }>>('svc_getAnchorsByAccount', [address, 25]);
  return (
    <Show data={anchors}>
      {(list) => !Array.isArray(list) || list.length === 0 ? <p class="muted">None.</p> : (
        <table class="list" data-testid="address-anchors">
          <thead><tr><th>Namespace</th><th>Key</th><th>Value hash</th><th>Block</th><th>Time</th></tr></thead>
          <tbody>
            {list.map((a, i) => (
              <tr key={i}>
                <td class="mono">{a.namespace}</td><td class="mono">{a.key}</td><td><Hash value={a.value_hash} /></td>
                <td><a href={href('block', a.height)}>{a.height}</a></td><td><When ts={a.time} /></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Show>
  );
}

export const anchors: ExplorerDomain = { name: 'anchors', addressSections: [{ title: 'Anchors', Section: AddressAnchors }] };
