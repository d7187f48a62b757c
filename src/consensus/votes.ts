// Votes and finality certificates live in src/chain/votes.ts (a certified block's import checks its
// certificate there); the consensus engine reads them through this name.
export * from '../chain/votes.js';
