import { describe, expect, it } from 'vitest';
import { Type } from '@sinclair/typebox';
import { defineMethod, MethodRegistry } from '../../src/rpc/registry.js';
import { AccountParam, AmountParam } from '../../src/rpc/methods/params.js';
import type { MethodDependencies } from '../../src/rpc/methods/index.js';
import { inertDependencies, nodeRegistry } from '../../scripts/gen-methods-doc.js';
import { RpcError } from '../../src/rpc/errors.js';
import { parsed } from '../../src/rpc/schemas.js';
import type { MethodDefinition } from '../../src/rpc/method.js';
import { accountsMethods } from '../../src/rpc/methods/accounts.js';
import { anchorMethods } from '../../src/domains/anchors/rpc.js';
import { auditMethods } from '../../src/rpc/methods/audit.js';
import { allowanceMethods } from '../../src/rpc/methods/allowances.js';
import { bridgeMethods } from '../../src/domains/bridge/rpc.js';
import { dexMethods } from '../../src/domains/dex/rpc.js';
import { accountMethods } from '../../src/rpc/methods/ledger.js';
import { multiTokenMethods } from '../../src/domains/collections/multitoken-rpc.js';
import { nameMethods } from '../../src/domains/names/rpc.js';
import { collectionMethods } from '../../src/domains/collections/rpc.js';
import { passportMethods } from '../../src/domains/passports/rpc.js';
import { presaleMethods } from '../../src/domains/presales/rpc.js';
import { transactionMethods } from '../../src/rpc/methods/transaction.js';
import { upgradeMethods } from '../../src/domains/upgrades/rpc.js';
import { settlementMethods } from '../../src/domains/settlement/rpc.js';
import { stablecoinMethods } from '../../src/domains/stablecoins/rpc.js';
import { stakingPoolMethods } from '../../src/domains/staking-pools/rpc.js';
import { stakingMethods } from '../../src/domains/staking/rpc.js';
import { subscriptionMethods } from '../../src/rpc/methods/subscriptions.js';
import { tokenMethods } from '../../src/rpc/methods/token.js';
import { governanceMethods } from '../../src/domains/governance/rpc.js';
import { daoMethods } from '../../src/domains/dao/rpc.js';
import { intentMethods } from '../../src/rpc/methods/intents.js';
import { programMethods } from '../../src/domains/programs/rpc.js';
import { explorerMethods } from '../../src/rpc/methods/explorer.js';
import { nodeMethods } from '../../src/rpc/methods/node.js';
import { ethMethods } from '../../src/rpc/methods/eth.js';
import { ethFilterMethods } from '../../src/rpc/methods/eth-filters.js';
import { ethReadMethods } from '../../src/rpc/methods/eth-reads.js';

/**
 * Params parsed once (issue 44 item 4; src/rpc/schemas.ts `parsed`): the registry runs a schema's
 * parser after its check, so the handler gets bytes and bigints, and a -32602 names the param and the
 * position the registry counts (from 1) without the handler numbering anything.
 */

const registry = () => new MethodRegistry({ info: { title: 't', version: '0' } });
const errorOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof RpcError) return { code: error.code, message: error.message, data: error.data as Record<string, unknown> };
    throw error;
  }
  throw new Error('expected a -32602');
};

describe('params parsed by the registry', () => {
  const r = registry();
  r.register(defineMethod({
    name: 'test_parsed',
    summary: 'a method with parsed params',
    params: [
      { name: 'label', schema: Type.String() },
      { name: 'to', schema: AccountParam() },
      { name: 'amount', schema: AmountParam({}, 64) },
      { name: 'doubled', schema: parsed(Type.Integer({ default: 2 }), (v) => v * 2), required: false },
    ] as const,
    result: { name: 'ok', schema: Type.Boolean() },
    handler: ([label, to, amount, doubled]) => {
      // The types say what the registry hands over: bytes, a bigint, the parser's result.
      const checks: [string, Uint8Array, bigint, number | undefined] = [label, to, amount, doubled];
      return checks.length === 4;
    },
  }));
  const method = r.get('test_parsed')!;
  const to = `0x${'ab'.repeat(32)}`;

  it('hands the handler parsed values, by position and by name, and parses a default', () => {
    const values = r.prepareParams(method, ['x', to, '18446744073709551615']);
    expect(values[1]).toEqual(new Uint8Array(32).fill(0xab));
    expect(values[2]).toBe(18_446_744_073_709_551_615n);
    expect(values[3]).toBe(4);
    expect(r.prepareParams(method, { label: 'x', to, amount: '5', doubled: 10 })).toEqual(['x', new Uint8Array(32).fill(0xab), 5n, 20]);
  });

  it('a value its parser refuses is -32602 naming the param and its position as the registry counts', () => {
    const over = errorOf(() => r.prepareParams(method, ['x', to, '18446744073709551616']));
    expect(over).toMatchObject({ code: -32602, data: { param: 'amount', position: 3 } });
    expect(over.message).toBe('invalid params: "amount" (param 3) must be at most 2^64−1');
  });
});

/** Dependencies that only answer property reads; every method of the node over them (scripts/gen-methods-doc.ts). */
const inertDeps = inertDependencies;

describe('the bridge methods, parsed once: each refusal names the position the registry counts (they named positions from 0, or one less)', () => {
  const r = nodeRegistry();
  const prepare = (name: string, params: unknown[]) => errorOf(() => r.prepareParams(r.get(name)!, params));

  it('an unknown chain is named where it stands', () => {
    expect(prepare('svc_getBridgeStatus', ['dogechain', '0x01']).data).toMatchObject({ param: 'chain', position: 1 });
    expect(prepare('svc_bridgeWithdraw', ['NTV', '1', 'dogechain', 'dest', `0x${'01'.repeat(32)}`]).data).toMatchObject({ param: 'chain', position: 3 });
    expect(prepare('svc_getBridgeFees', ['dogechain']).data).toMatchObject({ param: 'chain', position: 1 });
  });

  it('a destination or contract over 128 bytes of UTF-8 is named at its own position', () => {
    const long = 'é'.repeat(100);
    expect(prepare('svc_registerBridgeMapping', ['ethereum', long, 'NTV', `0x${'03'.padStart(64, '0')}`]).data).toMatchObject({ param: 'contract', position: 2, bytes: 200 });
  });

  it('an amount over u128 and a malformed proof are named at theirs', () => {
    const addr = `0x${'01'.repeat(32)}`;
    expect(prepare('svc_bridgeToken', ['ethereum', '0x01', 'USDC', (2n ** 128n).toString(), addr, '00']).data).toMatchObject({ param: 'amount', position: 4 });
    expect(prepare('svc_autobridge', ['zz']).data).toMatchObject({ param: 'proof', position: 1 });
  });
});

/** The method files written with parsed params (docs/rpc.md "Requests and batches"). */
const CONVERTED: Record<string, (deps: MethodDependencies) => MethodDefinition[]> = {
  'bridge.ts': bridgeMethods, 'stablecoins.ts': stablecoinMethods, 'dex.ts': dexMethods, 'staking.ts': stakingMethods, 'accounts.ts': accountsMethods,
  'settlement.ts': settlementMethods, 'multitokens.ts': multiTokenMethods, 'allowances.ts': allowanceMethods, 'staking-pools.ts': stakingPoolMethods,
  'token.ts': tokenMethods, 'ledger.ts': accountMethods, 'collections/rpc.ts': collectionMethods,
  'names.ts': nameMethods, 'transaction.ts': transactionMethods, 'anchors.ts': anchorMethods,
  'subscriptions.ts': subscriptionMethods, 'audit.ts': auditMethods, 'upgrades.ts': upgradeMethods,
  'presales.ts': presaleMethods, 'passports.ts': passportMethods,
  'governance.ts': governanceMethods, 'dao.ts': daoMethods, 'intents.ts': intentMethods, 'programs/rpc.ts': programMethods, 'explorer.ts': explorerMethods, 'node.ts': nodeMethods,
  'eth.ts': (deps) => ethMethods(deps as Parameters<typeof ethMethods>[0]), 'eth-filters.ts': (deps) => ethFilterMethods(deps as Parameters<typeof ethFilterMethods>[0]),
  'eth-reads.ts': (deps) => ethReadMethods(deps as Parameters<typeof ethReadMethods>[0]),
};
/**
 * A parse or a refusal given a position by hand: `accountParam(x, 'sender', 4)`, `RpcError.invalidParam('amount', 2, …)`,
 * `operationsParam(hex, 6)`, or error data `{ param: 'filter', position: 1 }`.
 */
const NUMBERED = /\b(accountParam|parseAmount|hashParam|parseTokenId|collectionParam|invalidParam|operationsParam|levelParam)\((?:[^()]*?,\s*)?(\d+)\s*[,)]|\bposition: \d/;

describe('params parsed once in every converted method file (issue 44 item 4)', () => {
  const r = nodeRegistry();
  const refusal = (name: string, params: unknown[]) => {
    const method = r.get(name);
    if (!method) throw new Error(`${name} is not registered`);
    return errorOf(() => r.prepareParams(method, params));
  };
  const addr = `0x${'01'.repeat(32)}`;
  /** Matches the address pattern but is not base58 of 32 bytes. */
  const badAddr = `Nx0${'1'.repeat(44)}`;
  const overU128 = (2n ** 128n).toString();

  it.each(Object.entries(CONVERTED))('%s: no handler numbers a position', (_file, factory) => {
    const methods = factory(inertDeps());
    expect(methods.length).toBeGreaterThan(0);
    const numbered = methods.filter((m) => NUMBERED.test(m.handler.toString())).map((m) => `${m.name}: ${NUMBERED.exec(m.handler.toString())![0]}`);
    expect(numbered).toEqual([]);
    // Every converted method is registered on the node, so the registry runs its parsers.
    for (const m of methods) expect(r.get(m.name)).toBeDefined();
  });

  it('the scan finds a numbered position where there is one', () => {
    expect(NUMBERED.test("([from]) => accountParam(from, 'sender', 4)")).toBe(true);
    expect(NUMBERED.test("() => { throw RpcError.invalidParam('amount', 2, 'x'); }")).toBe(true);
    expect(NUMBERED.test("([from]) => submit(from, { type: 'ClaimRewards' })")).toBe(false);
    expect(NUMBERED.test("() => { throw RpcError.invalidParams('x', { param: 'filter', position: 1 }); }")).toBe(true);
  });

  it('stablecoins: a config field and the sender are named where they stand', () => {
    const config = { name: 'X', symbol: 'XUSD', decimals: 6, currency: 'USD', issuer: 'x', owner: badAddr, master_minter: addr, pauser: addr, blacklister: addr };
    expect(refusal('svc_createStableToken', [config, addr]).data).toMatchObject({ param: 'config.owner', position: 1 });
    expect(refusal('svc_createStableToken', [{ ...config, owner: addr, supply_cap: overU128 }, addr]).data).toMatchObject({ param: 'config.supply_cap', position: 1 });
    expect(refusal('svc_createStableToken', [{ ...config, owner: addr }, badAddr]).data).toMatchObject({ param: 'sender', position: 2 });
  });

  it('dex: a zero amount and a bad sender at their positions', () => {
    expect(refusal('svc_createPool', ['NTV', 'USDC', '0', '1', 0, addr]).data).toMatchObject({ param: 'amount_a', position: 3 });
    expect(refusal('svc_swap', ['NTV', 'USDC', '1', overU128, addr]).data).toMatchObject({ param: 'min_amount_out', position: 4 });
    expect(refusal('svc_removeLiquidity', ['NTV', 'USDC', '1', '0', '0', badAddr]).data).toMatchObject({ param: 'sender', position: 6 });
  });

  it('staking: accounts, amounts and byte lengths at their positions', () => {
    expect(refusal('svc_stake', [badAddr, '1', '00'.repeat(32)]).data).toMatchObject({ param: 'staker_address', position: 1 });
    expect(refusal('svc_unstake', [addr, '0']).data).toMatchObject({ param: 'amount', position: 2 });
    expect(refusal('svc_setValidatorMetadata', [addr, 'x', 'é'.repeat(300), '', '']).data).toMatchObject({ param: 'description', position: 3, status: 'INVALID_VALIDATOR_METADATA' });
    expect(refusal('svc_setPoolConfig', [true, 'é'.repeat(40), '0', false, addr]).data).toMatchObject({ param: 'pool_name', position: 2 });
  });

  it('accounts: a list entry, a repeated signer and a sender at their positions', () => {
    expect(refusal('svc_setRecovery', [[addr, badAddr], 1, 60, addr]).data).toMatchObject({ param: 'guardians[1]', position: 1 });
    expect(refusal('svc_createMultiSig', [addr, [addr, addr], 1, 'x']).data).toMatchObject({ param: 'signers_array', position: 2 });
    expect(refusal('svc_removeKey', ['ab'.repeat(32), badAddr]).data).toMatchObject({ param: 'sender', position: 2 });
  });

  it('settlement: an amount over u128 and a bad order id at their positions', () => {
    expect(refusal('svc_matchAtomenceOrder', [`0x${'02'.repeat(32)}`, '1', overU128, addr]).data).toMatchObject({ param: 'ask_amount', position: 3 });
    expect(refusal('svc_settleAtomenceOrder', [`0x${'02'.repeat(32)}`, badAddr]).data).toMatchObject({ param: 'sender', position: 2 });
  });

  it('multi-tokens and NFTs: the owner after the collection fields, an id over u64', () => {
    expect(refusal('svc_createMultiTokenCollection', ['Items', 'ITM', '', 0, badAddr]).data).toMatchObject({ param: 'owner', position: 5 });
    expect(refusal('svc_createNftCollection', ['Art', 'ART', '', '18446744073709551616', 0, addr]).data).toMatchObject({ param: 'max_supply', position: 4 });
    expect(refusal('svc_listNftsByOwner', [badAddr]).data).toMatchObject({ param: 'owner', position: 1 });
  });

  it('names, anchors and bundles: a bad name, an empty bundle and a bad hash at their positions', () => {
    expect(refusal('svc_registerName', ['a_b', addr]).data).toMatchObject({ param: 'name', position: 1 });
    expect(refusal('svc_registerName', ['alice', badAddr]).data).toMatchObject({ param: 'sender', position: 2 });
    expect(refusal('svc_submitBundle', ['0x']).data).toMatchObject({ param: 'borsh_hex', position: 1 });
    expect(refusal('svc_anchor', ['docs', 'k', `Nxh${'1'.repeat(44)}`, addr]).data).toMatchObject({ param: 'value_hash', position: 3 });
    expect(refusal('svc_verifyAnchor', ['Docs!', 'k']).data).toMatchObject({ param: 'namespace', position: 1 });
    expect(refusal('svc_getTransactionReceipt', [`Nxh${'1'.repeat(44)}`]).data).toMatchObject({ param: 'tx_hash', position: 1 });
  });

  it('upgrades: a bad name, a past height, a zero checksum and a long URL at their positions', () => {
    const sum = 'ab'.repeat(32);
    // The height is checked against the chain's: a chain at height 10 here.
    const own = registry();
    for (const m of upgradeMethods({ ...inertDeps(), chain: { height: 10 } } as unknown as MethodDependencies)) own.register(m);
    const prepare = (name: string, params: unknown[]) => errorOf(() => own.prepareParams(own.get(name)!, params));
    expect(prepare('svc_scheduleUpgrade', ['bad name', 100, '', sum, '', addr]).data).toMatchObject({ param: 'name', position: 1 });
    expect(prepare('svc_scheduleUpgrade', ['v9', 11, '', sum, '', addr]).data).toMatchObject({ param: 'height', position: 2 });
    expect(prepare('svc_scheduleUpgrade', ['v9', 100, '', '00'.repeat(32), '', addr]).data).toMatchObject({ param: 'checksum', position: 4 });
    expect(prepare('svc_scheduleUpgrade', ['v9', 100, '', sum, 'é'.repeat(400), addr]).data).toMatchObject({ param: 'info_url', position: 5 });
    expect(prepare('svc_cancelUpgrade', ['v9', badAddr]).data).toMatchObject({ param: 'sender', position: 2 });
  });

  it('presales: a zero amount, a bad sender and caps out of order at their positions', () => {
    const create = ['NTV', 'USDC', '1', '10', '100', '1', '5', 100, 200, 5000, 86_400, addr];
    expect(refusal('svc_createPresale', create.map((v, i) => (i === 2 ? '0' : v))).data).toMatchObject({ param: 'rate', position: 3 });
    expect(refusal('svc_createPresale', create.map((v, i) => (i === 11 ? badAddr : v))).data).toMatchObject({ param: 'sender', position: 12 });
    expect(refusal('svc_getPresale', [badAddr]).data).toMatchObject({ param: 'presale_address', position: 1 });
  });

  it('passports: a game id, a score over u64 and data over its bytes at their positions', () => {
    expect(refusal('svc_setGameProfile', ['X', addr, '1', '{}', addr]).data).toMatchObject({ param: 'game_id', position: 1 });
    expect(refusal('svc_setGameProfile', ['chess.v1', addr, '18446744073709551616', '{}', addr]).data).toMatchObject({ param: 'score', position: 3 });
    expect(refusal('svc_setGameProfile', ['chess.v1', addr, '1', 'é'.repeat(600), addr]).data).toMatchObject({ param: 'data', position: 4 });
    expect(refusal('svc_getGameProfile', [addr, 'X']).data).toMatchObject({ param: 'game_id', position: 2 });
  });

  it('consensus: the genesis height is named at position 1 (it was named at 0)', () => {
    expect(refusal('svc_getCurrentLeader', [0]).data).toMatchObject({ param: 'height', position: 1 });
  });

  it('staking pools: a pool address that does not decode', () => {
    expect(refusal('svc_getStakingPool', ['Nx61111']).data).toMatchObject({ param: 'pool_address', position: 1 });
  });

  it('token: the owner, and a metadata field over its bytes', () => {
    expect(refusal('svc_createToken', ['Name', 'SYM', 6, '1', badAddr]).data).toMatchObject({ param: 'owner', position: 5 });
    expect(refusal('svc_createToken', ['Name', 'SYM', 6, overU128, addr]).data).toMatchObject({ param: 'supply', position: 4 });
  });

  it('ledger and allowances: accounts and amounts of a transfer', () => {
    expect(refusal('svc_transfer', [addr, badAddr, 'NTV', '1']).data).toMatchObject({ param: 'to', position: 2 });
    expect(refusal('svc_getBalance', [badAddr]).data).toMatchObject({ param: 'address', position: 1 });
    expect(refusal('svc_getAccount', [badAddr]).data).toMatchObject({ param: 'address', position: 1 });
  });

  it('allowances: NTV, an amount and an account at their positions (over a registry of one token beside NTV)', () => {
    const usdc = { mint: new Uint8Array(32).fill(7), symbol: 'USDC', mintAddress: 'USDC' };
    const ntv = { mint: new Uint8Array(32), symbol: 'NTV', mintAddress: 'NTV' };
    const deps = { ...inertDeps(), readers: { tokens: { resolve: (v: string) => (v === 'NTV' ? ntv : usdc) } } } as unknown as MethodDependencies;
    const own = registry();
    for (const m of allowanceMethods(deps)) own.register(m);
    const prepare = (name: string, params: unknown[]) => errorOf(() => own.prepareParams(own.get(name)!, params));
    expect(prepare('svc_approve', ['NTV', addr, '1', addr]).data).toMatchObject({ param: 'token', position: 1 });
    expect(prepare('svc_transferFrom', ['USDC', addr, addr, overU128, addr]).data).toMatchObject({ param: 'amount', position: 4 });
    expect(prepare('svc_getAllowance', ['USDC', addr, badAddr]).data).toMatchObject({ param: 'spender', position: 3 });
  });

  it('governance: the type, a parameter key, a safety level, operations and a zero proposal id at their positions', () => {
    expect(refusal('svc_createProposal', [addr, 'make_me_rich', 't', 'd']).data).toMatchObject({ param: 'proposal_type', position: 2, got: 'make_me_rich' });
    expect(refusal('svc_createProposal', [addr, 'parameter_change', 't', 'd', 'block_size', '1']).data).toMatchObject({ param: 'parameter_key', position: 5 });
    expect(refusal('svc_createProposal', [addr, 'contract_safety', 't', 'd', null, null, null, null, 'ethereum', '0xabc', 'dangerous']).data).toMatchObject({ param: 'safety_level', position: 11 });
    expect(refusal('svc_createProposal', [addr, 'create_stablecoin', 't', 'd', null, null, null, null, null, null, null, null, '0x00000000']).data).toMatchObject({ param: 'operations', position: 13 });
    expect(refusal('svc_createProposal', [addr, 'text', 't', 'd', null, null, null, null, null, null, null, null, null, ['zz']]).data).toMatchObject({ param: 'bridge_attesters', position: 14, index: 0 });
    expect(refusal('svc_voteProposal', [badAddr, '1', true]).data).toMatchObject({ param: 'from', position: 1 });
    expect(refusal('svc_getProposal', ['0']).data).toMatchObject({ param: 'proposal_id', position: 1 });
    expect(refusal('svc_listProposals', ['won']).data).toMatchObject({ param: 'status', position: 1 });
  });

  it('dao: the DAO address, the proposal id, the type, the config and the sender at their positions', () => {
    const dao = `0x${'07'.repeat(32)}`;
    expect(refusal('svc_getDao', ['Nx7zz']).data).toMatchObject({ param: 'dao_address', position: 1 });
    expect(refusal('svc_getDaoProposal', [dao, '0']).data).toMatchObject({ param: 'proposal_id', position: 2 });
    expect(refusal('svc_daoPropose', [dao, 't', 'd', 'wish', addr]).data).toMatchObject({ param: 'proposal_type', position: 4 });
    expect(refusal('svc_daoCancel', [dao, '1', badAddr]).data).toMatchObject({ param: 'sender', position: 3 });
    const config = { quorum_bps: 1, threshold_bps: 5000, voting_period: 10, execution_delay: 0, proposal_threshold: overU128 };
    expect(refusal('svc_createDao', ['G', 'NTV', config, addr]).data).toMatchObject({ param: 'config', position: 3 });
  });

  it('intents and explorer: senders, hashes and addresses at their positions', () => {
    expect(refusal('svc_previewIntent', ['swap 1 NTV for USDC', badAddr]).data).toMatchObject({ param: 'sender_address', position: 2 });
    expect(refusal('svc_executeProgram', ['p', null, badAddr]).data).toMatchObject({ param: 'sender', position: 3 });
    expect(refusal('svc_getIntentStatus', [`Nxh${'1'.repeat(44)}`]).data).toMatchObject({ param: 'bundle_hash', position: 1 });
    expect(refusal('svc_getAddressHistory', [badAddr, 10]).data).toMatchObject({ param: 'address', position: 1 });
    expect(refusal('svc_getAddressTokens', [badAddr]).data).toMatchObject({ param: 'address', position: 1 });
  });

  it('node and eth: a public key of no key type, a fee history out of order', () => {
    expect(refusal('svc_deriveAddress', ['ab'.repeat(20)]).data).toMatchObject({ param: 'pubkey_hex', position: 1, bytes: 20 });
    expect(refusal('eth_feeHistory', ['0x4', 'latest', [50, 10]]).data).toMatchObject({ param: 'rewardPercentiles', position: 3 });
  });
});
