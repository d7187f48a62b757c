/** Passports (docs/passports.md): an address's gamertag and games. */
import type { ExplorerDomain } from './module.js';
import { Fields, Show, useCall, When } from '../ui.js';

function AddressPassport({ address }: { address: string }) {
  const passport = useCall<{ gamertag: string; created_at: number; games: number } | null>('svc_getPassport', [address]);
  return (
    <Show data={passport}>
      {(p) => p === null ? <p class="muted">None.</p> : (
        <div data-testid="address-passport">
          <Fields rows={[['Gamertag', <strong>{p.gamertag}</strong>], ['Created', <When ts={p.created_at} />], ['Games', p.games]]} />
        </div>
      )}
    </Show>
  );
}

export const passports: ExplorerDomain = { name: 'passports', addressSections: [{ title: 'Passport', Section: AddressPassport }] };
