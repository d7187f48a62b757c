/**
 * The host module of intent programs (spec §4.9; docs/programs.md): RegisterProgram. Its operation carries
 * no proof the core cannot check and declares no NTV spend, so it adds no chain-level hook; it is registered
 * so that its folder (reader.ts, rpc.ts, examples.json, client.ts) is a domain's, held to the registry's
 * rules. Parsing and planning a program's steps is the intent engine's (src/intents/), which reads
 * src/domains/programs/reader.ts.
 */

import type { DomainModule } from '../module.js';

export const programs: DomainModule = { name: 'programs', proofChecks: [] };
