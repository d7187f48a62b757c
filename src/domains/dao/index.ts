/**
 * The host module of DAOs (docs/dao.md): CreateDao, DaoPropose, DaoVote, DaoExecute, DaoCancel, DaoUnlock.
 * Its operations carry no proof the core cannot check and declare no NTV spend, so it adds no
 * chain-level hook; it is registered so that its folder is a domain's, held to the registry's rules.
 */

import type { DomainModule } from '../module.js';
import { encodeDao } from './reader.js';

export const dao: DomainModule = { name: 'dao', proofChecks: [], receiptFormats: { dao: encodeDao } };
