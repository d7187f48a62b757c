// The client's named helpers (src/client/wallet.ts) and its gas table (src/client/gas.ts): each
// helper must send exactly the operation the codec writes for its arguments, with max_gas equal to
// the gas the core charges for it (spec §8, docs/core-abi.md "Rules"). The core's charge is
// measured on a scratch core (src/intents/gas.ts), not copied, so a change to assembly/gas.ts that
// the client misses fails here.
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_GAS, GAS_BASE, RpcClient, Wallet, bundleGasOf, gasOf, type SubmitResult } from '../../src/client/index.js';
import { encodeAccount, encodeMint, encodePrefixed, systemAddress } from '../../src/codec/address.js';
import { BorshWriter } from '../../src/codec/borsh.js';
import { decodeBundle, OpCode, writeOperation, type Bundle, type Operation } from '../../src/codec/bundle.js';
import { fromHex } from '../../src/codec/hash.js';
import { verifyBundleSignature } from '../../src/codec/keys.js';
import { compileCore } from '../../src/core/loader.js';
import { GasMeter } from '../../src/intents/gas.js';

const USDC = new Uint8Array(32).fill(0xaa);
const DAO_BYTES = new Uint8Array(32).fill(0x77);
const DAO = encodePrefixed('Nx7', DAO_BYTES);
const WLT = new Uint8Array(32).fill(0xbb);
const COLLECTION = new Uint8Array(32).fill(0xcc);
const VALIDATOR = systemAddress(5);
const FRIEND = new Uint8Array(32).fill(0x11);
const CONSENSUS_KEY = new Uint8Array(32).fill(0x22);

/**
 * An RpcClient that answers in-process: the account's nonce, two symbols, and svc_submitBundle,
 * which decodes the hex (as the node does), checks the signature and keeps the bundle.
 */
class StandIn extends RpcClient {
  readonly received: Bundle[] = [];
  private nonce = 0n;

  constructor() {
    super('http://127.0.0.1:1/');
  }

  override async call<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
    if (method === 'svc_getAccount') return { address: params[0], nonce: this.nonce.toString(), pending_nonce: this.nonce.toString(), keys: this.nonce > 0n ? [{}] : [] } as T;
    if (method === 'svc_getTokenInfo') {
      const mint = params[0] === 'USDC' ? USDC : params[0] === 'WLT' ? WLT : undefined;
      if (!mint) throw new Error(`unknown symbol ${String(params[0])}`);
      return { symbol: params[0], mint_address: encodeMint(mint) } as T;
    }
    if (method === 'svc_submitBundle') {
      const bundle = decodeBundle(fromHex(params[0] as string));
      expect(verifyBundleSignature(bundle, bundle.senderPubkey ?? this.pubkey!)).toBe(true);
      this.pubkey ??= bundle.senderPubkey;
      this.received.push(bundle);
      this.nonce += 1n;
      return { status: 'pending', nonce: bundle.nonce.toString() } as T;
    }
    throw new Error(`stand-in: no ${method}`);
  }

  private pubkey: Uint8Array | undefined;
}

function bytesOf(op: Operation): string {
  const w = new BorshWriter();
  writeOperation(w, op);
  return Buffer.from(w.finish()).toString('hex');
}

let meter: GasMeter;
let client: StandIn;
let wallet: Wallet;

beforeAll(async () => {
  meter = await GasMeter.create(await compileCore());
  client = new StandIn();
  wallet = Wallet.generate(client);
});

/**
 * Every helper call with the operation the codec must see and the gas the docs give for it (the
 * bundle's: 5,000 base + the operation's). Written out by hand, not through the helpers' code.
 * `transfer` and `createToken` send the client's default max_gas instead (README "Client library").
 */
function cases(): Array<{ name: string; send: () => Promise<SubmitResult>; op: Operation; gas: bigint; maxGas?: bigint }> {
  const me = wallet.account;
  const collection = encodePrefixed('Nx2', COLLECTION);
  return [
    { name: 'createPool', send: () => wallet.createPool('USDC', 'NTV', 1_000n, '2000', 3_600, {}),
      op: { type: 'CreatePool', tokenA: USDC, tokenB: new Uint8Array(32), amountA: 1_000n, amountB: 2_000n, lpLockDuration: 3_600n }, gas: 85_000n },
    { name: 'addLiquidity', send: () => wallet.addLiquidity(encodeMint(USDC), WLT, 10, 20n, '1'),
      op: { type: 'AddLiquidity', tokenA: USDC, tokenB: WLT, amountA: 10n, amountB: 20n, minLp: 1n }, gas: 55_000n },
    { name: 'removeLiquidity', send: () => wallet.removeLiquidity('WLT', '0x' + 'aa'.repeat(32), 7n, 1n, 2n),
      op: { type: 'RemoveLiquidity', tokenA: WLT, tokenB: USDC, lpAmount: 7n, minAmountA: 1n, minAmountB: 2n }, gas: 55_000n },
    { name: 'swap', send: () => wallet.swap('NTV', 'USDC', '340282366920938463463374607431768211455', 0),
      op: { type: 'Swap', fromToken: new Uint8Array(32), toToken: USDC, amountIn: 2n ** 128n - 1n, minAmountOut: 0n }, gas: 45_000n },
    { name: 'updateTokenMetadata', send: () => wallet.updateTokenMetadata('WLT', { image: 'https://x/i.png', github: '' }),
      op: { type: 'UpdateTokenMetadata', mint: WLT, image: 'https://x/i.png', github: '' }, gas: 35_000n },
    { name: 'lockTokenMetadata', send: () => wallet.lockTokenMetadata(WLT),
      op: { type: 'LockTokenMetadata', mint: WLT }, gas: 25_000n },
    { name: 'registerName', send: () => wallet.registerName('alice.vex'),
      op: { type: 'RegisterName', name: 'alice.vex' }, gas: 45_000n },
    { name: 'createProposal', send: () => wallet.createProposal('Cap', 'why', { kind: 'ParameterChange', key: 'quorum_bps', value: 4000n }),
      op: { type: 'CreateProposal', title: 'Cap', description: 'why', action: { kind: 'ParameterChange', key: 'quorum_bps', value: 4000n } }, gas: 5_000n + 30_000n + 3n * (3n + 3n + 18n) },
    // DAOs (docs/dao.md)
    { name: 'createDao', send: () => wallet.createDao('Grants', USDC, { quorumBps: 2000, thresholdBps: 5000, votingPeriod: 100, executionDelay: '10', proposalThreshold: 1000n }),
      op: { type: 'CreateDao', name: 'Grants', tokenMint: USDC, quorumBps: 2000, thresholdBps: 5000, votingPeriod: 100n, executionDelay: 10n, proposalThreshold: 1000n }, gas: 65_000n },
    { name: 'daoPropose', send: () => wallet.daoPropose(DAO, 'Pay', 'why'),
      op: { type: 'DaoPropose', dao: DAO_BYTES, title: 'Pay', description: 'why', action: { kind: 'Text' } }, gas: 5_000n + 30_000n + 3n * (3n + 3n + 1n) },
    { name: 'daoVote', send: () => wallet.daoVote(DAO, '2', true),
      op: { type: 'DaoVote', dao: DAO_BYTES, proposalId: 2n, approve: true }, gas: 40_000n },
    { name: 'daoExecute', send: () => wallet.daoExecute(DAO_BYTES, 2),
      op: { type: 'DaoExecute', dao: DAO_BYTES, proposalId: 2n }, gas: 85_000n },
    { name: 'daoCancel', send: () => wallet.daoCancel(DAO, 2n),
      op: { type: 'DaoCancel', dao: DAO_BYTES, proposalId: 2n }, gas: 25_000n },
    { name: 'daoUnlock', send: () => wallet.daoUnlock(DAO, 2),
      op: { type: 'DaoUnlock', dao: DAO_BYTES, proposalId: 2n }, gas: 30_000n },
    { name: 'voteProposal', send: () => wallet.voteProposal('7', true),
      op: { type: 'VoteProposal', proposalId: 7n, approve: true }, gas: 30_000n },
    { name: 'executeProposal', send: () => wallet.executeProposal(7),
      op: { type: 'ExecuteProposal', proposalId: 7n }, gas: 85_000n },
    { name: 'cancelProposal', send: () => wallet.cancelProposal(7n),
      op: { type: 'CancelProposal', proposalId: 7n }, gas: 25_000n },
    // settlement, anchoring, passports (docs/settlement.md, docs/anchors.md, docs/passports.md)
    { name: 'registerMarketMaker', send: () => wallet.registerMarketMaker(2), op: { type: 'RegisterMarketMaker', tier: 2 }, gas: 35_000n },
    { name: 'deregisterMarketMaker', send: () => wallet.deregisterMarketMaker(), op: { type: 'DeregisterMarketMaker' }, gas: 35_000n },
    { name: 'createAtomenceOrder', send: () => wallet.createAtomenceOrder('USDC', '1000', 'NTV', 2_000n, 1_900_000_000),
      op: { type: 'CreateAtomenceOrder', sellToken: USDC, sellAmount: 1_000n, buyToken: new Uint8Array(32), minBuyAmount: 2_000n, expiry: 1_900_000_000n }, gas: 45_000n },
    { name: 'matchAtomenceOrder', send: () => wallet.matchAtomenceOrder('0x' + '12'.repeat(32), 2_000n, '2010'),
      op: { type: 'MatchAtomenceOrder', orderId: new Uint8Array(32).fill(0x12), bidAmount: 2_000n, askAmount: 2_010n }, gas: 45_000n },
    { name: 'settleAtomenceOrder', send: () => wallet.settleAtomenceOrder(new Uint8Array(32).fill(0x12)),
      op: { type: 'SettleAtomenceOrder', orderId: new Uint8Array(32).fill(0x12) }, gas: 65_000n },
    { name: 'cancelAtomenceOrder', send: () => wallet.cancelAtomenceOrder('0x' + '12'.repeat(32)),
      op: { type: 'CancelAtomenceOrder', orderId: new Uint8Array(32).fill(0x12) }, gas: 40_000n },
    { name: 'anchor', send: () => wallet.anchor('acme.audits', 'q3.pdf', '0x' + '34'.repeat(32)),
      op: { type: 'Anchor', namespace: 'acme.audits', key: 'q3.pdf', valueHash: new Uint8Array(32).fill(0x34) }, gas: 40_000n },
    { name: 'createPassport', send: () => wallet.createPassport('Neo_1'), op: { type: 'CreatePassport', gamertag: 'Neo_1' }, gas: 40_000n },
    { name: 'registerGame', send: () => wallet.registerGame('chess.v1', 'Chess'), op: { type: 'RegisterGame', gameId: 'chess.v1', name: 'Chess' }, gas: 40_000n },
    { name: 'setGameProfile', send: () => wallet.setGameProfile('chess.v1', FRIEND, 1200, '{"elo":1200}'),
      op: { type: 'SetGameProfile', gameId: 'chess.v1', player: FRIEND, score: 1_200n, data: '{"elo":1200}' }, gas: 40_000n },
    { name: 'scheduleUpgrade', send: () => wallet.scheduleUpgrade('v0.2.0', 1200, 'https://r/x.tgz', 'ab'.repeat(32), 'https://r/notes'),
      op: { type: 'ScheduleUpgrade', name: 'v0.2.0', height: 1200n, binaryUrl: 'https://r/x.tgz', checksum: new Uint8Array(32).fill(0xab), infoUrl: 'https://r/notes' }, gas: 65_000n },
    { name: 'voteUpgrade', send: () => wallet.voteUpgrade('v0.2.0', false),
      op: { type: 'VoteUpgrade', name: 'v0.2.0', approve: false }, gas: 65_000n },
    { name: 'cancelUpgrade', send: () => wallet.cancelUpgrade('v0.2.0'),
      op: { type: 'CancelUpgrade', name: 'v0.2.0' }, gas: 35_000n },
    { name: 'createNftCollection', send: () => wallet.createNftCollection({ name: 'Art', symbol: 'ART', maxSupply: 10, royaltyBps: 250, iconUri: 'ipfs://i' }),
      op: { type: 'CreateNftCollection', name: 'Art', symbol: 'ART', baseUri: '', maxSupply: 10n, royaltyBps: 250, owner: me, description: '', iconUri: 'ipfs://i', bannerUri: '', externalUrl: '' }, gas: 65_000n },
    { name: 'mintNft', send: () => wallet.mintNft(collection, 1, 'ipfs://1', encodeAccount(FRIEND)),
      op: { type: 'MintNft', collection: COLLECTION, tokenId: 1n, metadataUri: 'ipfs://1', recipient: FRIEND }, gas: 35_000n },
    { name: 'transferNft', send: () => wallet.transferNft(COLLECTION, '18446744073709551615', FRIEND),
      op: { type: 'TransferNft', collection: COLLECTION, tokenId: 2n ** 64n - 1n, to: FRIEND }, gas: 30_000n },
    { name: 'burnNft', send: () => wallet.burnNft('0x' + 'cc'.repeat(32), 3n),
      op: { type: 'BurnNft', collection: COLLECTION, tokenId: 3n }, gas: 30_000n },
    { name: 'createMultiTokenCollection', send: () => wallet.createMultiTokenCollection({ name: 'Game', symbol: 'GM', baseUri: 'https://g/', owner: FRIEND, description: 'items' }),
      op: { type: 'CreateMultiTokenCollection', name: 'Game', symbol: 'GM', baseUri: 'https://g/', royaltyBps: 0, owner: FRIEND, description: 'items', iconUri: '', bannerUri: '', externalUrl: '' }, gas: 65_000n },
    { name: 'defineTokenType', send: () => wallet.defineTokenType(collection, 7, 'Gold', '', '1000000', true),
      op: { type: 'DefineTokenType', collection: COLLECTION, typeId: 7n, name: 'Gold', metadataUri: '', maxSupply: 1_000_000n, isFungible: true }, gas: 45_000n },
    { name: 'mintMultiToken', send: () => wallet.mintMultiToken(collection, 7, me, 500),
      op: { type: 'MintMultiToken', collection: COLLECTION, typeId: 7n, recipient: me, amount: 500n }, gas: 35_000n },
    { name: 'batchMintMultiToken', send: () => wallet.batchMintMultiToken(collection, FRIEND, [{ typeId: 7, amount: 1 }, { typeId: '8', amount: 2n }, { typeId: 9n, amount: '3' }]),
      op: { type: 'BatchMintMultiToken', collection: COLLECTION, recipient: FRIEND, entries: [{ typeId: 7n, amount: 1n }, { typeId: 8n, amount: 2n }, { typeId: 9n, amount: 3n }] }, gas: 35_000n },
    { name: 'transferMultiToken', send: () => wallet.transferMultiToken(collection, 7, FRIEND, 5),
      op: { type: 'TransferMultiToken', collection: COLLECTION, typeId: 7n, to: FRIEND, amount: 5n }, gas: 30_000n },
    { name: 'batchTransferMultiToken', send: () => wallet.batchTransferMultiToken(collection, FRIEND, [{ typeId: 7, amount: 1 }]),
      op: { type: 'BatchTransferMultiToken', collection: COLLECTION, to: FRIEND, entries: [{ typeId: 7n, amount: 1n }] }, gas: 25_000n },
    { name: 'burnMultiToken', send: () => wallet.burnMultiToken(collection, 7, 4),
      op: { type: 'BurnMultiToken', collection: COLLECTION, typeId: 7n, amount: 4n }, gas: 30_000n },
    { name: 'stake', send: () => wallet.stake(1_000_000_000_000n, '0x' + '22'.repeat(32)),
      op: { type: 'Stake', amount: 1_000_000_000_000n, validatorPubkey: CONSENSUS_KEY }, gas: 35_000n },
    { name: 'unstake', send: () => wallet.unstake('5'),
      op: { type: 'Unstake', amount: 5n }, gas: 35_000n },
    { name: 'claimUnstake', send: () => wallet.claimUnstake(), op: { type: 'ClaimUnstake' }, gas: 35_000n },
    { name: 'delegate', send: () => wallet.delegate(encodeAccount(VALIDATOR), 10),
      op: { type: 'Delegate', validator: VALIDATOR, amount: 10n }, gas: 35_000n },
    { name: 'undelegate', send: () => wallet.undelegate(VALIDATOR, 4),
      op: { type: 'Undelegate', validator: VALIDATOR, amount: 4n }, gas: 35_000n },
    { name: 'claimRewards', send: () => wallet.claimRewards(), op: { type: 'ClaimRewards' }, gas: 35_000n },
    { name: 'setCommission', send: () => wallet.setCommission(1_500), op: { type: 'SetCommission', rate: 1_500 }, gas: 35_000n },
    { name: 'unjail', send: () => wallet.unjail(), op: { type: 'Unjail' }, gas: 35_000n },
    { name: 'setAutoCompound', send: () => wallet.setAutoCompound(VALIDATOR, true),
      op: { type: 'SetAutoCompound', validator: VALIDATOR, enable: true }, gas: 35_000n },
    { name: 'setPoolConfig', send: () => wallet.setPoolConfig({ poolEnabled: true, poolName: 'Pool', minDelegation: '100', autoCompoundDefault: false }),
      op: { type: 'SetPoolConfig', poolEnabled: true, poolName: 'Pool', minDelegation: 100n, autoCompoundDefault: false }, gas: 35_000n },
    { name: 'setValidatorMetadata', send: () => wallet.setValidatorMetadata({ name: 'V', description: 'd', website: 'https://v', avatarUrl: '' }),
      op: { type: 'SetValidatorMetadata', name: 'V', description: 'd', website: 'https://v', avatarUrl: '' }, gas: 35_000n },
    { name: 'rotateConsensusKey', send: () => wallet.rotateConsensusKey(CONSENSUS_KEY),
      op: { type: 'RotateConsensusKey', newConsensusPubkey: CONSENSUS_KEY }, gas: 35_000n },
    // presales and staking pools (docs/presales.md, docs/staking-pools.md "Gas")
    { name: 'createPresale', send: () => wallet.createPresale({ token: 'WLT', payToken: 'NTV', rate: 2_000_000_000n, softCap: 10n, hardCap: '20', minContribution: 1, maxContribution: 5n, startTime: 100n, endTime: 200n, liquidityBps: 6_000, lpLockDuration: 86_400 }),
      op: { type: 'CreatePresale', token: WLT, payToken: new Uint8Array(32), rate: 2_000_000_000n, softCap: 10n, hardCap: 20n, minContribution: 1n, maxContribution: 5n, startTime: 100n, endTime: 200n, liquidityBps: 6_000, lpLockDuration: 86_400n }, gas: 65_000n },
    { name: 'contributePresale', send: () => wallet.contributePresale(FRIEND, 7n), op: { type: 'ContributePresale', presale: FRIEND, amount: 7n }, gas: 35_000n },
    { name: 'finalizePresale', send: () => wallet.finalizePresale(FRIEND), op: { type: 'FinalizePresale', presale: FRIEND }, gas: 95_000n },
    { name: 'refundPresale', send: () => wallet.refundPresale(FRIEND), op: { type: 'RefundPresale', presale: FRIEND }, gas: 35_000n },
    { name: 'claimPresaleTokens', send: () => wallet.claimPresaleTokens(FRIEND), op: { type: 'ClaimPresaleTokens', presale: FRIEND }, gas: 35_000n },
    { name: 'createStakingPool', send: () => wallet.createStakingPool('WLT', 'USDC', 10n, 60, 0, '100'),
      op: { type: 'CreateStakingPool', tokenMint: WLT, rewardSource: USDC, rewardRate: 10n, lockPeriod: 60n, capacity: 0n, perUserCap: 100n }, gas: 45_000n },
    { name: 'stakeToPool', send: () => wallet.stakeToPool(encodePrefixed('Nx6', COLLECTION), 3n), op: { type: 'StakeToPool', pool: COLLECTION, amount: 3n }, gas: 35_000n },
    { name: 'unstakeFromPool', send: () => wallet.unstakeFromPool(COLLECTION, 2n), op: { type: 'UnstakeFromPool', pool: COLLECTION, amount: 2n }, gas: 35_000n },
    { name: 'claimPoolRewards', send: () => wallet.claimPoolRewards(encodePrefixed('Nx6', COLLECTION)), op: { type: 'ClaimPoolRewards', pool: COLLECTION }, gas: 35_000n },
    { name: 'fundStakingPool', send: () => wallet.fundStakingPool(encodePrefixed('Nx6', COLLECTION), 9n), op: { type: 'FundStakingPool', pool: COLLECTION, amount: 9n }, gas: 35_000n },
    // transfers, allowances, tokens, programs and schedules
    { name: 'transfer', send: () => wallet.transfer(encodeAccount(FRIEND), 'USDC', 5n), op: { type: 'Transfer', to: FRIEND, token: USDC, amount: 5n }, gas: 21_000n, maxGas: DEFAULT_MAX_GAS },
    { name: 'approve', send: () => wallet.approve(FRIEND, 'USDC', '6'), op: { type: 'Approve', token: USDC, spender: FRIEND, amount: 6n }, gas: 21_000n },
    { name: 'transferFrom', send: () => wallet.transferFrom(FRIEND, me, 'USDC', 7), op: { type: 'TransferFrom', token: USDC, from: FRIEND, to: me, amount: 7n }, gas: 26_000n },
    { name: 'createToken', send: () => wallet.createToken({ name: 'Wallet', symbol: 'WLT', decimals: 6, supply: 1000n }),
      op: { type: 'CreateToken', name: 'Wallet', symbol: 'WLT', decimals: 6, supply: 1000n, owner: me }, gas: 50_000n, maxGas: DEFAULT_MAX_GAS },
    { name: 'registerProgram', send: () => wallet.registerProgram({ name: 'p', steps: [] }), op: { type: 'RegisterProgram', name: 'p', program: '{"name":"p","steps":[]}' }, gas: 35_069n },
    { name: 'createSchedule', send: () => wallet.createSchedule({ kind: 'Recurring', intervalSeconds: 60n, runs: 2, firstRun: 0n }, [{ type: 'Transfer', to: FRIEND, token: USDC, amount: 1n }]),
      op: { type: 'CreateSchedule', trigger: { kind: 'Recurring', intervalSeconds: 60n, runs: 2, firstRun: 0n }, operations: [{ type: 'Transfer', to: FRIEND, token: USDC, amount: 1n }] }, gas: 45_255n },
    { name: 'cancelSchedule', send: () => wallet.cancelSchedule(COLLECTION), op: { type: 'CancelSchedule', scheduleId: COLLECTION }, gas: 25_000n },
    // account keys, recovery and multi-sig (docs/accounts.md)
    { name: 'addKey', send: () => wallet.addKey(CONSENSUS_KEY, 'Ed25519', 'operator'), op: { type: 'AddKey', pubkey: CONSENSUS_KEY, keyType: 0, role: 1 }, gas: 25_096n },
    { name: 'removeKey', send: () => wallet.removeKey(Buffer.from(COLLECTION).toString('hex')), op: { type: 'RemoveKey', pubkeyHash: COLLECTION }, gas: 25_000n },
    { name: 'rotateKey', send: () => wallet.rotateKey(COLLECTION, CONSENSUS_KEY, 'Ed25519'), op: { type: 'RotateKey', oldPubkeyHash: COLLECTION, newPubkey: CONSENSUS_KEY, newKeyType: 0 }, gas: 25_096n },
    { name: 'setRecovery', send: () => wallet.setRecovery([FRIEND, encodeAccount(WLT)], 2, 172_800), op: { type: 'SetRecovery', guardians: [FRIEND, WLT], threshold: 2, timelock: 172_800n }, gas: 30_000n },
    { name: 'initiateRecovery', send: () => wallet.initiateRecovery(FRIEND, CONSENSUS_KEY, 'Ed25519'), op: { type: 'InitiateRecovery', account: FRIEND, newPubkey: CONSENSUS_KEY, keyType: 0 }, gas: 30_096n },
    { name: 'approveRecovery', send: () => wallet.approveRecovery(FRIEND, COLLECTION), op: { type: 'ApproveRecovery', account: FRIEND, newKeyHash: COLLECTION }, gas: 30_000n },
    { name: 'cancelRecovery', send: () => wallet.cancelRecovery(), op: { type: 'CancelRecovery' }, gas: 30_000n },
    { name: 'finalizeRecovery', send: () => wallet.finalizeRecovery(FRIEND), op: { type: 'FinalizeRecovery', account: FRIEND }, gas: 30_000n },
    { name: 'createMultiSig', send: () => wallet.createMultiSig([me, FRIEND], 2, 'ops'), op: { type: 'CreateMultiSig', signers: [me, FRIEND], threshold: 2, label: 'ops' }, gas: 45_000n },
    { name: 'proposeMultiSigTx', send: () => wallet.proposeMultiSigTx(encodePrefixed('Nx5', WLT), [{ type: 'Transfer', to: FRIEND, token: USDC, amount: 1n }], 'pay'),
      op: { type: 'ProposeMultiSigTx', multisig: WLT, operations: [{ type: 'Transfer', to: FRIEND, token: USDC, amount: 1n }], description: 'pay' }, gas: 51_255n },
    { name: 'approveMultiSigTx', send: () => wallet.approveMultiSigTx(WLT, '3'), op: { type: 'ApproveMultiSigTx', multisig: WLT, txId: 3n }, gas: 25_000n },
    { name: 'revokeMultiSigApproval', send: () => wallet.revokeMultiSigApproval(WLT, 3n), op: { type: 'RevokeMultiSigApproval', multisig: WLT, txId: 3n }, gas: 25_000n },
    // STD-8 stablecoins (docs/stablecoins.md)
    { name: 'stableMint', send: () => wallet.stableMint('USDC', FRIEND, 8n), op: { type: 'StableMint', token: USDC, to: FRIEND, amount: 8n }, gas: 35_000n },
    { name: 'stableBurn', send: () => wallet.stableBurn('USDC', 8n), op: { type: 'StableBurn', token: USDC, amount: 8n }, gas: 35_000n },
    { name: 'stablePause', send: () => wallet.stablePause('USDC', true), op: { type: 'StablePause', token: USDC, pause: true }, gas: 30_000n },
    { name: 'stableBlacklist', send: () => wallet.stableBlacklist('USDC', FRIEND, false), op: { type: 'StableBlacklist', token: USDC, account: FRIEND, add: false }, gas: 30_000n },
    { name: 'stableTransferRole', send: () => wallet.stableTransferRole('USDC', 'pauser', FRIEND), op: { type: 'StableTransferRole', token: USDC, role: 'pauser', newAddress: FRIEND }, gas: 30_000n },
    { name: 'stableConfigureMinter', send: () => wallet.stableConfigureMinter('USDC', 'add', FRIEND, 100n, 10n),
      op: { type: 'StableConfigureMinter', token: USDC, action: 'add', minter: FRIEND, allowance: 100n, epochLimit: 10n }, gas: 30_000n },
    { name: 'stableHandover', send: () => wallet.stableHandover('USDC', FRIEND, FRIEND, WLT, WLT),
      op: { type: 'StableHandover', token: USDC, newOwner: FRIEND, newMasterMinter: FRIEND, newPauser: WLT, newBlacklister: WLT }, gas: 30_000n },
    { name: 'stablePending', send: () => wallet.stablePending('approve', 'USDC', 4n), op: { type: 'StableApproveMint', token: USDC, pendingId: 4n }, gas: 35_000n },
    { name: 'stableFreezeMint', send: () => wallet.stableFreezeMint('USDC', true), op: { type: 'StableFreezeMint', token: USDC }, gas: 30_000n },
    { name: 'stableSetGuardians', send: () => wallet.stableSetGuardians('USDC', [FRIEND, WLT]), op: { type: 'StableSetGuardians', token: USDC, guardians: Uint8Array.from([...FRIEND, ...WLT]) }, gas: 30_000n },
    { name: 'stableProposeIssuerProofs', send: () => wallet.stableProposeIssuerProofs('Verify', 'proofs', [{ type: 'StableIssuerProof', token: USDC, method: 'domain', chainId: 0n, subject: FRIEND, detail: new TextEncoder().encode('x.example'), signature: new Uint8Array(0) }]),
      op: { type: 'CreateProposal', title: 'Verify', description: 'proofs', action: { kind: 'VerifyIssuer', operations: [{ type: 'StableIssuerProof', token: USDC, method: 'domain', chainId: 0n, subject: FRIEND, detail: new TextEncoder().encode('x.example'), signature: new Uint8Array(0) }] } }, gas: 5_000n + 30_000n + 3n * (6n + 6n + 96n) },
    // the bridge (docs/bridge.md)
    { name: 'bridgeDeposit', send: () => wallet.bridgeDeposit({ chain: 'ethereum', txHash: '0xab', contract: '0xcd', symbol: 'USDC', amount: 9n, decimals: 6, recipient: FRIEND, signatures: new Uint8Array(96).fill(5) }),
      op: { type: 'BridgeDeposit', chain: 'ethereum', txHash: '0xab', contract: '0xcd', symbol: 'USDC', amount: 9n, decimals: 6, recipient: FRIEND, signatures: new Uint8Array(96).fill(5) }, gas: 65_000n },
    { name: 'claimBridgeDeposit', send: () => wallet.claimBridgeDeposit('ethereum', '0xab'), op: { type: 'ClaimBridgeDeposit', chain: 'ethereum', txHash: '0xab' }, gas: 65_000n },
    { name: 'bridgeWithdraw', send: () => wallet.bridgeWithdraw(encodeMint(USDC), 4n, 'base', '0xef'), op: { type: 'BridgeWithdraw', token: USDC, amount: 4n, chain: 'base', destination: '0xef' }, gas: 50_000n },
    { name: 'registerBridgeMapping', send: () => wallet.registerBridgeMapping('base', '0xcd', USDC), op: { type: 'RegisterBridgeMapping', chain: 'base', contract: '0xcd', mint: USDC }, gas: 35_000n },
    { name: 'stableConfigureSecurity', send: () => wallet.stableConfigureSecurity('USDC', { timelock: 10n, mintThreshold: 0n, requiredSigners: 1, cosigners: [FRIEND], quantumRequired: true }),
      op: { type: 'StableConfigureSecurity', token: USDC, timelock: 10n, mintThreshold: 0n, requiredSigners: 1, cosigners: FRIEND, quantumRequired: true }, gas: 30_000n },
  ];
}

/** Wallet members that read, build or sign rather than send one named operation (tested in test/unit/client.test.ts). */
const NOT_OPERATION_HELPERS = new Set([
  'address', 'account', 'publicKey', 'publicKeyHex', 'keyType', 'getAccount', 'getBalance', 'getAllowance', 'resolveMint',
  'buildBundle', 'signBundle', 'submit', 'untilIncluded', 'send', 'sendOperation',
  'stableOnboardingMessage', 'stableIssuerProofOp', // the message to sign and the operation to carry (docs/stablecoins.md "Issuer onboarding")
]);

describe('named helpers', () => {
  it('each sends one signed operation with the codec\'s bytes for its arguments and max_gas = its documented gas, which is the core\'s', async () => {
    const all = cases();
    // Every helper that sends an operation has its case here: a new helper without one fails.
    const helpers = Object.getOwnPropertyNames(Wallet.prototype).filter((n) => n !== 'constructor' && !NOT_OPERATION_HELPERS.has(n));
    expect(all.map((c) => c.name).sort()).toEqual(helpers.sort());
    for (const [i, c] of all.entries()) {
      const result = await c.send();
      const sent = client.received.at(-1)!;
      expect(client.received.length, c.name).toBe(i + 1);
      expect(sent.nonce, c.name).toBe(BigInt(i));
      expect(sent.operations.length, c.name).toBe(1);
      expect(bytesOf(sent.operations[0]!), c.name).toBe(bytesOf(c.op));
      expect(sent.maxGas, c.name).toBe(c.maxGas ?? c.gas);
      expect(bundleGasOf([c.op]), c.name).toBe(c.gas);
      expect(GAS_BASE + meter.opGas(c.op), `${c.name}: the core's gas`).toBe(c.gas);
      // The same SubmitResult as transfer: the local hash of the bytes and the node's answer.
      expect(result.bundleHash, c.name).toMatch(/^Nxh/);
      expect(result.receipt, c.name).toEqual({ status: 'pending', nonce: String(i) });
    }
    // Only the first bundle revealed the key (spec §5.3).
    expect(client.received.filter((b) => b.senderPubkey !== undefined).length).toBe(1);
  });

  it('opts override the computed max_gas and fill the rest as send does', async () => {
    await wallet.registerName('bob', { maxGas: 99_999n, maxPriorityFee: 3n });
    const sent = client.received.at(-1)!;
    expect(sent.maxGas).toBe(99_999n);
    expect(sent.maxPriorityFee).toBe(3n);
  });

  it('bad arguments throw before anything is sent, naming the argument', async () => {
    const before = client.received.length;
    await expect(wallet.swap('NTV', 'USDC', -1, 0)).rejects.toThrow(/amount_in: u128/);
    await expect(wallet.swap('NTV', 'USDC', 1.5, 0)).rejects.toThrow(/amountIn: expected a non-negative integer/);
    await expect(wallet.mintNft('Nx0abc', 1, '', FRIEND)).rejects.toThrow(/collection: expected Nx2/);
    await expect(wallet.stake(1, 'abcd')).rejects.toThrow(/validatorPubkey/);
    await expect(wallet.delegate('nope', 1)).rejects.toThrow(/unknown prefix/);
    await expect(wallet.updateTokenMetadata(WLT, { website: 'x' } as never)).rejects.toThrow(/unknown metadata field website/);
    await expect(wallet.batchMintMultiToken(COLLECTION, FRIEND, [{ typeId: 1, amount: 'x' }])).rejects.toThrow(/entries\[0\]\.amount/);
    await expect(wallet.transferNft(COLLECTION, 2n ** 64n, FRIEND)).rejects.toThrow(/token_id/);
    await expect(wallet.stakeToPool('Nx2abc', 1)).rejects.toThrow(/pool: expected Nx6/);
    expect(client.received.length).toBe(before);
    // A bundle the codec refused did not use its nonce: the next one takes it.
    await wallet.claimRewards();
    expect(client.received.at(-1)!.nonce).toBe(BigInt(before));
  });
});

describe('gasOf', () => {
  it('agrees with the core for every operation', () => {
    const samples: Operation[] = [
      ...cases().map((c) => c.op),
      { type: 'Transfer', to: FRIEND, token: USDC, amount: 1n },
      { type: 'CreateToken', name: 'T', symbol: 'T', decimals: 0, supply: 1n, owner: FRIEND },
      { type: 'ReportDoubleSign', validator: VALIDATOR, height: 1n, headerA: new Uint8Array(10), sigA: new Uint8Array(64), headerB: new Uint8Array(12), sigB: new Uint8Array(64) },
      { type: 'RegisterProgram', name: 'prog', program: '{"name":"prog","é":1}' },
      { type: 'CreateSchedule', trigger: { kind: 'Recurring', intervalSeconds: 60n, runs: 2, firstRun: 0n }, operations: [{ type: 'Transfer', to: FRIEND, token: USDC, amount: 1n }, { type: 'ClaimRewards' }] },
      { type: 'CancelSchedule', scheduleId: new Uint8Array(32).fill(9) },
      { type: 'CreateProposal', title: 'Gov', description: 'é', action: { kind: 'CreateStablecoin', operations: [{ type: 'Transfer', to: FRIEND, token: USDC, amount: 1n }] } },
      { type: 'CreateProposal', title: 'Safe', description: '', action: { kind: 'ContractSafety', chain: 'ethereum', contract: '0xabc', level: 1 } },
      { type: 'DaoPropose', dao: DAO_BYTES, title: 'Pay', description: 'é', action: { kind: 'Operations', operations: [{ type: 'Transfer', to: FRIEND, token: USDC, amount: 1n }] } },
      { type: 'Approve', token: USDC, spender: FRIEND, amount: 5n },
      // docs/bridge.md "Operations"
      { type: 'BridgeDeposit', chain: 'ethereum', txHash: '0x1', contract: '0xa', symbol: 'USDC', amount: 1n, decimals: 6, recipient: FRIEND, signatures: new Uint8Array(96) },
      { type: 'BridgeWithdraw', token: USDC, amount: 1n, chain: 'ethereum', destination: '0xd' },
      { type: 'RegisterBridgeMapping', chain: 'bsc', contract: '0xa', mint: USDC },
      { type: 'SetBridgeAttesters', attesters: new Uint8Array(64), threshold: 1 },
      { type: 'ClaimBridgeDeposit', chain: 'ethereum', txHash: '0x1' },
      { type: 'AttestBridgeWithdrawal', sequence: 1n, chain: 'ethereum', destination: '0xd', token: USDC, amount: 1n, signatures: new Uint8Array(96) },
      { type: 'SetContractSafety', chain: 'ethereum', contract: '0xa', level: 3 },
      { type: 'TransferFrom', token: USDC, from: FRIEND, to: VALIDATOR, amount: 5n },
      { type: 'BatchTransferMultiToken', collection: COLLECTION, to: FRIEND, entries: Array.from({ length: 16 }, (_, i) => ({ typeId: BigInt(i), amount: 1n })) },
      // docs/accounts.md "Gas"
      { type: 'AddKey', pubkey: new Uint8Array(1952).fill(4), keyType: 1, role: 1 },
      { type: 'RemoveKey', pubkeyHash: new Uint8Array(32).fill(4) },
      { type: 'RotateKey', oldPubkeyHash: new Uint8Array(32).fill(4), newPubkey: CONSENSUS_KEY, newKeyType: 0 },
      { type: 'SetRecovery', guardians: [FRIEND, VALIDATOR], threshold: 2, timelock: 172_800n },
      { type: 'InitiateRecovery', account: FRIEND, newPubkey: CONSENSUS_KEY, keyType: 0 },
      { type: 'ApproveRecovery', account: FRIEND, newKeyHash: new Uint8Array(32).fill(4) },
      { type: 'CancelRecovery' },
      { type: 'FinalizeRecovery', account: FRIEND },
      { type: 'CreateMultiSig', signers: [FRIEND, VALIDATOR], threshold: 2, label: 'team' },
      { type: 'ProposeMultiSigTx', multisig: FRIEND, operations: [{ type: 'Transfer', to: FRIEND, token: USDC, amount: 1n }, { type: 'Swap', fromToken: USDC, toToken: new Uint8Array(32), amountIn: 5n, minAmountOut: 0n }], description: 'pay' },
      { type: 'ApproveMultiSigTx', multisig: FRIEND, txId: 0n },
      { type: 'RevokeMultiSigApproval', multisig: FRIEND, txId: 0n },
      // STD-8 stablecoins (docs/stablecoins.md "Gas")
      { type: 'CreateStableToken', name: 'USD X', symbol: 'USDX', decimals: 6, currency: 'USD', issuer: 'X', owner: FRIEND, masterMinter: FRIEND, pauser: FRIEND, blacklister: FRIEND,
        guardians: new Uint8Array(64), originMappings: new Uint8Array(4), supplyCap: 0n, quantumRequired: false, mintThreshold: 0n, requiredSigners: 0, cosigners: new Uint8Array(0), timelock: 0n, epochLength: 0n },
      { type: 'StableMint', token: USDC, to: FRIEND, amount: 1n },
      { type: 'StableBurn', token: USDC, amount: 1n },
      { type: 'StablePause', token: USDC, pause: true },
      { type: 'StableBlacklist', token: USDC, account: FRIEND, add: true },
      { type: 'StableTransferRole', token: USDC, role: 'pauser', newAddress: FRIEND },
      { type: 'StableConfigureMinter', token: USDC, action: 'add', minter: FRIEND, allowance: 5n, epochLimit: 0n },
      { type: 'StableHandover', token: USDC, newOwner: FRIEND, newMasterMinter: FRIEND, newPauser: FRIEND, newBlacklister: FRIEND },
      { type: 'StableCancelPending', token: USDC, pendingId: 1n },
      { type: 'StableExecutePending', token: USDC, pendingId: 1n },
      { type: 'StableFreezeMint', token: USDC },
      { type: 'StableUnfreezeMint', token: USDC },
      { type: 'StableSetGuardians', token: USDC, guardians: new Uint8Array(96) },
      { type: 'StableConfigureSecurity', token: USDC, timelock: 5n, mintThreshold: 0n, requiredSigners: 0, cosigners: new Uint8Array(32), quantumRequired: true },
      { type: 'StableApproveMint', token: USDC, pendingId: 2n },
      { type: 'StableRaiseSupplyCap', token: USDC, supplyCap: 9n },
      { type: 'StableVerifyIssuer', token: USDC },
      { type: 'StableIssuerProof', token: USDC, method: 'domain', chainId: 0n, subject: FRIEND, detail: new TextEncoder().encode('x.example'), signature: new Uint8Array(0) },
    ];
    for (const op of samples) expect(gasOf(op), op.type).toBe(meter.opGas(op));
    // Every operation of the ABI table is priced and checked here (a new one must join the samples).
    expect(new Set(samples.map((op) => op.type))).toEqual(new Set(Object.keys(OpCode)));
    expect(bundleGasOf([samples[0]!, samples[0]!])).toBe(5_000n + 2n * 80_000n);
  });
});
