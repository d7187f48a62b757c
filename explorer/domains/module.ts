/**
 * What a domain gives the explorer (issue 44 item 1: a domain's explorer data beside its other
 * parts; docs/explorer.md "Domains"): its pages by route, its link in the header, and its sections of
 * an address's and a token's page. The shell (main.tsx) and the generic pages iterate
 * domains/index.ts and name no domain.
 */
import type { ComponentChildren, FunctionComponent } from 'preact';
import type { Token } from '../ui.js';

export interface ExplorerDomain {
  /** its ABI group, folder and docs page (abi/operations.mjs, src/domains/<name>/, docs/<name>.md) */
  readonly name: string;
  /** `#/<route>/<a>/<b>` → its page */
  readonly routes?: Readonly<Record<string, (a: string, b: string) => ComponentChildren>>;
  /** the address kinds its pages show (`Nx` prefix → one of its routes), linked wherever such an address is written */
  readonly addressRoutes?: Readonly<Record<string, string>>;
  /** a token's "Standard" row, for tokens of its standard (undefined: not its token) */
  readonly tokenStandard?: (token: Token) => ComponentChildren | undefined;
  /** its link in the header, to one of its routes */
  readonly nav?: { readonly route: string; readonly label: string };
  /** sections of an address's page, in this order after the token balances */
  readonly addressSections?: ReadonlyArray<{ readonly title: string; readonly Section: FunctionComponent<{ address: string }> }>;
  /** sections of a token's page, after its record */
  readonly tokenSections?: ReadonlyArray<{ readonly title: string; readonly Section: FunctionComponent<{ token: Token }> }>;
}
