/**
 * The host module of token presales (docs/presales.md): CreatePresale … ClaimPresaleTokens. Its operations carry no proof the core
 * cannot check and declare no NTV spend, so it adds no chain-level hook; it is registered so that
 * its folder (reader.ts, rpc.ts, examples.json, client.ts) is a domain's, held to the registry's rules.
 */

import type { DomainModule } from '../module.js';

export const presales: DomainModule = { name: 'presales', proofChecks: [] };
