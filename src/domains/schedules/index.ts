/**
 * The host module of schedules (docs/schedules.md): CreateSchedule and CancelSchedule, and the due runs the
 * core makes of them. Their operations carry no proof the core cannot check and declare no NTV spend at
 * admission, so it adds no chain-level hook; it is registered so that its folder (reader.ts, client.ts) is a
 * domain's, held to the registry's rules. Its methods are the intent engine's (svc_submitIntent plans a
 * CreateSchedule), which stays in src/intents/.
 */

import type { DomainModule } from '../module.js';

export const schedules: DomainModule = { name: 'schedules', proofChecks: [] };
