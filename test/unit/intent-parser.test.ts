// The intent parser (spec §4.8 grammar, §2.6 goal types; docs/intents.md "Parsing"), table-driven:
// every pattern of the grammar in all seven languages, exact raw amounts with the registry's
// decimals, constraints, recipients and the detected language; JSON goals; and strings that must
// fail with the part not understood. A fixed token table through a fake resolver
// (intent-parser.fixtures.ts): NTV 9, USDC 6, USDT 6, ETH 18, BTC 8, SOL 9, DAI 18, MOON 4.
import { describe, expect, it } from 'vitest';
import { IntentParseError, parseIntent } from '../../src/intents/parser.js';
import type { Constraints, Goal, ParsedIntent, TokenAmount } from '../../src/intents/goals.js';
import { ADDR, BY_SYMBOL, FakeRegistry, MOON_MINT } from './intent-parser.fixtures.js';

const ctx = { tokens: new FakeRegistry() };
const parse = (text: string) => parseIntent(text, ctx);
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

const amt = (a: TokenAmount) => `${a.raw} ${a.token.symbol}`;
/** A goal as one line: type, raw amounts, symbols, recipient — everything the planner reads. */
function summary(g: Goal): string {
  switch (g.type) {
    case 'Swap': return `Swap ${amt(g.amountIn)} -> ${g.tokenOut.symbol}`;
    case 'Acquire': return `Acquire ${amt(g.amountOut)} with ${g.tokenIn.symbol}${g.maxCost ? ` max ${amt(g.maxCost)}` : ''}`;
    case 'Composite': return `Composite[${g.steps.map(summary).join('; ')}]`;
    case 'Stake': return `Stake ${amt(g.amount)}${g.validator ? ` validator ${g.validator.kind === 'bytes' ? hex(g.validator.bytes) : g.validator.name}` : ''}`;
    case 'ProvideLiquidity': return `Liquidity ${amt(g.a)} + ${amt(g.b)}`;
    case 'Transfer': return `Transfer ${amt(g.amount)} to ${g.to.kind === 'name' ? `name ${g.to.name}` : `address ${hex(g.to.address)}`}`;
    case 'Bridge': return `Bridge ${amt(g.amount)} from ${g.chain}`;
    case 'Liquidate': return `Liquidate to ${amt(g.target)} keeping [${g.keeping.map((t) => t.symbol).join(',')}] excluding [${g.excluding.map((t) => t.symbol).join(',')}]`;
    case 'Rebalance': return `Rebalance ${g.targets.map((t) => `${t.token.symbol}:${t.bps}`).join(',')}`;
    case 'Allocate': return `Allocate ${amt(g.amount)} stake ${g.stakeBps} liquidity ${g.liquidityBps}`;
    case 'Recurring': return `Every ${g.intervalSeconds}s x${g.runs} [${summary(g.goal)}]`;
    case 'Conditional': {
      const c = g.condition;
      return `If ${c.base.symbol}/${c.quote.symbol} ${c.direction} ${c.price.num}/${c.price.den} [${summary(g.goal)}]`;
    }
    case 'MintSynthetic': return `Synthetic ${g.amount.raw} ${g.synthetic} (${g.amount.decimals}) with ${g.payWith.symbol}`;
    case 'OpenPosition': return `${g.side} ${g.leverage}x ${g.asset} collateral ${amt(g.collateral)}`;
    case 'Custom': return `Register ${g.name}`;
  }
}
function constraintSummary(c: Constraints): string {
  const parts: string[] = [];
  if (c.slippageBps !== undefined) parts.push(`slip=${c.slippageBps}`);
  if (c.deadlineSeconds !== undefined) parts.push(`deadline=${c.deadlineSeconds}`);
  if (c.maxFee !== undefined) parts.push(`fee=${c.maxFee}`);
  if (c.gasLimit !== undefined) parts.push(`gas=${c.gasLimit}`);
  return parts.join(' ');
}

const E18 = '000000000000000000';
const V = ADDR.validatorHex;
const ACC = '11'.repeat(32);
const EVM = '00'.repeat(12) + '12'.repeat(20);
const H32 = '34'.repeat(32);

type Row = [text: string, language: ParsedIntent['language'], goal: string, constraints?: string];

const ENGLISH: Row[] = [
  // Swap
  ['swap 1.5 USDC for NTV', 'en', 'Swap 1500000 USDC -> NTV'],
  ['Swap 100 usdc to ntv', 'en', 'Swap 100000000 USDC -> NTV'],
  ['convert 0.25 ETH into USDC', 'en', 'Swap 250000000000000000 ETH -> USDC'],
  ['trade 1,000.25 USDT for DAI', 'en', 'Swap 1000250000 USDT -> DAI'],
  ['sell .5 BTC for USDC', 'en', 'Swap 50000000 BTC -> USDC'],
  ['dump 42 MOON for NTV', 'en', 'Swap 420000 MOON -> NTV'],
  ['exchange 3 SOL to USDC', 'en', 'Swap 3000000000 SOL -> USDC'],
  ['SWAP 2 Eth FOR Usdc', 'en', `Swap 2${E18} ETH -> USDC`],
  ['swap 1 ETH for USDC.', 'en', `Swap 1${E18} ETH -> USDC`],
  ['swap 0.000000000000000001 ETH for USDC', 'en', 'Swap 1 ETH -> USDC'],
  ['swap 340282366920938463463.374607431768211455 ETH for USDC', 'en', 'Swap 340282366920938463463374607431768211455 ETH -> USDC'],
  ['swap 0.0001 MOON for NTV', 'en', 'Swap 1 MOON -> NTV'],
  ['swap 1.50000000 USDC for NTV', 'en', 'Swap 1500000 USDC -> NTV'],
  ['swap 12,345,678 USDT for USDC', 'en', 'Swap 12345678000000 USDT -> USDC'],
  [`swap 10 ${MOON_MINT} for NTV`, 'en', 'Swap 100000 MOON -> NTV'],
  // constraints, anywhere and combined
  ['swap 1 ETH for USDC with 0.5% slippage', 'en', `Swap 1${E18} ETH -> USDC`, 'slip=50'],
  ['with 1% slippage swap 10 USDC for ETH', 'en', 'Swap 10000000 USDC -> ETH', 'slip=100'],
  ['swap 10 USDC for ETH within 5 minutes', 'en', 'Swap 10000000 USDC -> ETH', 'deadline=300'],
  ['swap 10 USDC for ETH deadline 90 seconds', 'en', 'Swap 10000000 USDC -> ETH', 'deadline=90'],
  ['swap 10 USDC for ETH with 0.3% slippage and max fee 0.01', 'en', 'Swap 10000000 USDC -> ETH', 'slip=30 fee=10000000'],
  ['swap 10 USDC for ETH, gas limit 200000, fee cap 0.5 NTV, within 2 minutes', 'en', 'Swap 10000000 USDC -> ETH', 'deadline=120 fee=500000000 gas=200000'],
  ['swap 2 ETH for USDC slippage 0.05%', 'en', `Swap 2${E18} ETH -> USDC`, 'slip=5'],
  ['max fee 0.001 NTV swap 5 SOL for USDC within 1 hour with 2% slippage', 'en', 'Swap 5000000000 SOL -> USDC', 'slip=200 deadline=3600 fee=1000000'],
  ['swap 5 SOL for USDC with 12.5 percent slippage', 'en', 'Swap 5000000000 SOL -> USDC', 'slip=1250'],
  ['swap 5 SOL for USDC within 30s and max fee 0', 'en', 'Swap 5000000000 SOL -> USDC', 'deadline=30 fee=0'],
  ['swap 1 BTC for USDT with gas limit 50,000', 'en', 'Swap 100000000 BTC -> USDT', 'gas=50000'],
  // Composite
  ['swap 1 ETH and 1000 USDC for NTV', 'en', `Composite[Swap 1${E18} ETH -> NTV; Swap 1000000000 USDC -> NTV]`],
  ['swap 0.5 BTC, 2 SOL for USDT', 'en', 'Composite[Swap 50000000 BTC -> USDT; Swap 2000000000 SOL -> USDT]'],
  ['convert 100 DAI and 100 USDT into USDC with 0.1% slippage', 'en', `Composite[Swap 100${E18} DAI -> USDC; Swap 100000000 USDT -> USDC]`, 'slip=10'],
  // Acquire
  ['buy 1 ETH with USDC', 'en', `Acquire 1${E18} ETH with USDC`],
  ['get 100 NTV with USDT', 'en', 'Acquire 100000000000 NTV with USDT'],
  ['purchase 2.5 SOL using USDC', 'en', 'Acquire 2500000000 SOL with USDC'],
  ['get me 1 ETH with max 2000 USDC', 'en', `Acquire 1${E18} ETH with USDC max 2000000000 USDC`],
  ['I need 500 USDC spending at most 0.3 ETH', 'en', 'Acquire 500000000 USDC with ETH max 300000000000000000 ETH'],
  ['buy 1 BTC for 70,000 USDC', 'en', 'Acquire 100000000 BTC with USDC max 70000000000 USDC'],
  ['buy 10 NTV with USDC max 11 USDC', 'en', 'Acquire 10000000000 NTV with USDC max 11000000 USDC'],
  ['i need 5 SOL with USDC, at most 1,000 USDC', 'en', 'Acquire 5000000000 SOL with USDC max 1000000000 USDC'],
  ['Get me 20 MOON for USDT', 'en', 'Acquire 200000 MOON with USDT'],
  ['buy 1 ETH paying at most 2500.5 DAI', 'en', `Acquire 1${E18} ETH with DAI max 2500500000000000000000 DAI`],
  ['I want to buy 3 SOL with USDC', 'en', 'Acquire 3000000000 SOL with USDC'],
  // MintSynthetic (STD-71)
  ['buy 2 sTSLA with USDC', 'en', `Synthetic 2${E18} sTSLA (18) with USDC`],
  ['buy 0.1 sBTC with USDT', 'en', 'Synthetic 100000000000000000 sBTC (18) with USDT'],
  ['purchase 3 sGOLD with DAI', 'en', `Synthetic 3${E18} sGOLD (18) with DAI`],
  ['get 1.25 sETH using NTV', 'en', 'Synthetic 1250000000000000000 sETH (18) with NTV'],
  // Stake
  ['stake 1000 NTV', 'en', 'Stake 1000000000000 NTV'],
  [`deposit 5000 NTV with validator ${V}`, 'en', `Stake 5000000000000 NTV validator ${V}`],
  [`stake 1,000 NTV to validator 0x${V}`, 'en', `Stake 1000000000000 NTV validator ${V}`],
  [`stake 2000 NTV on ${ADDR.account}`, 'en', `Stake 2000000000000 NTV validator ${ACC}`],
  [`Stake 1500.5 ntv with validator ${V} within 10 minutes`, 'en', `Stake 1500500000000 NTV validator ${V}`, 'deadline=600'],
  ['stake 1000 NTV with alice.vex', 'en', 'Stake 1000000000000 NTV validator alice.vex'],
  ['stake 1000 NTV with validator Alice', 'en', 'Stake 1000000000000 NTV validator alice.vex'],
  // ProvideLiquidity
  ['add liquidity 100 USDC and 0.05 ETH', 'en', 'Liquidity 100000000 USDC + 50000000000000000 ETH'],
  ['provide liquidity with 1000 NTV and 500 USDC', 'en', 'Liquidity 1000000000000 NTV + 500000000 USDC'],
  ['add 10 SOL and 1,500 USDC liquidity', 'en', 'Liquidity 10000000000 SOL + 1500000000 USDC'],
  ['add liquidity 1 BTC, 60000 USDT', 'en', 'Liquidity 100000000 BTC + 60000000000 USDT'],
  ['add 5 MOON and 1 NTV as liquidity with 1% slippage', 'en', 'Liquidity 50000 MOON + 1000000000 NTV', 'slip=100'],
  // Transfer
  ['send 5 NTV to alice.vex', 'en', 'Transfer 5000000000 NTV to name alice.vex'],
  ['pay 20 USDC to Bob', 'en', 'Transfer 20000000 USDC to name bob.vex'],
  [`send 1 ETH to ${ADDR.evm}`, 'en', `Transfer 1${E18} ETH to address ${EVM}`],
  [`transfer 100 MOON to ${ADDR.account}`, 'en', `Transfer 1000000 MOON to address ${ACC}`],
  [`send 0.5 SOL to ${ADDR.hex32}`, 'en', `Transfer 500000000 SOL to address ${H32}`],
  ['pay 3 DAI to Carol-Shop.VEX with max fee 0.002', 'en', `Transfer 3${E18} DAI to name carol-shop.vex`, 'fee=2000000'],
  // Bridge (and Composite bridge-then-swap)
  ['bridge 100 USDC from ethereum', 'en', 'Bridge 100000000 USDC from ethereum'],
  ['bridge 2 SOL from Solana', 'en', 'Bridge 2000000000 SOL from solana'],
  ['bridge 1 ETH from base and swap to NTV', 'en', `Composite[Bridge 1${E18} ETH from base; Swap 1${E18} ETH -> NTV]`],
  ['bridge 0.1 BTC from bitcoin and then convert it into USDC', 'en', 'Composite[Bridge 10000000 BTC from bitcoin; Swap 10000000 BTC -> USDC]'],
  ['bridge 50 USDT from arb', 'en', 'Bridge 50000000 USDT from arbitrum'],
  ['bridge 100 USDC from ethereum and swap to NTV', 'en', `Composite[Bridge 100000000 USDC from ethereum; Swap 100000000 USDC -> NTV]`],
  ['bridge 1 ETH from ton', 'en', `Bridge 1${E18} ETH from ton`],
  // Liquidate
  ['liquidate to 1000 USDC', 'en', 'Liquidate to 1000000000 USDC keeping [] excluding []'],
  ['liquidate to 500 USDT keeping ETH', 'en', 'Liquidate to 500000000 USDT keeping [ETH] excluding []'],
  ['liquidate everything to 2,000 USDC keeping ETH, BTC and SOL', 'en', 'Liquidate to 2000000000 USDC keeping [ETH,BTC,SOL] excluding []'],
  ['liquidate to 100 NTV excluding DAI and MOON', 'en', 'Liquidate to 100000000000 NTV keeping [] excluding [DAI,MOON]'],
  ['liquidate to 50 USDC keeping ETH excluding BTC', 'en', 'Liquidate to 50000000 USDC keeping [ETH] excluding [BTC]'],
  ['liquidate my portfolio into 10 DAI except NTV with 2% slippage', 'en', `Liquidate to 10${E18} DAI keeping [] excluding [NTV]`, 'slip=200'],
  // Rebalance
  ['rebalance to 60% NTV, 40% USDC', 'en', 'Rebalance NTV:6000,USDC:4000'],
  ['rebalance to 50% ETH, 30% BTC and 20% USDC', 'en', 'Rebalance ETH:5000,BTC:3000,USDC:2000'],
  ['rebalance portfolio to 33.33% NTV, 33.33% ETH, 33.34% USDC', 'en', 'Rebalance NTV:3333,ETH:3333,USDC:3334'],
  ['rebalance to 100% USDC', 'en', 'Rebalance USDC:10000'],
  ['Rebalance my portfolio to 0.5% MOON, 99.5% NTV within 1 hour', 'en', 'Rebalance MOON:50,NTV:9950', 'deadline=3600'],
  // Allocate
  ['put 1000 USDC split 60 stake 40 liquidity', 'en', 'Allocate 1000000000 USDC stake 6000 liquidity 4000'],
  ['put 5000 NTV split 70% stake 30% liquidity', 'en', 'Allocate 5000000000000 NTV stake 7000 liquidity 3000'],
  ['allocate 100 NTV split 25% staking and 75% liquidity', 'en', 'Allocate 100000000000 NTV stake 2500 liquidity 7500'],
  ['put 1000 NTV split 40 liquidity 60 stake', 'en', 'Allocate 1000000000000 NTV stake 6000 liquidity 4000'],
  ['put 10.5 ETH into split 50.5% to stake, 49.5% to liquidity', 'en', 'Allocate 10500000000000000000 ETH stake 5050 liquidity 4950'],
  // Recurring
  ['swap 100 USDC for ETH every day for 7 days', 'en', 'Every 86400s x7 [Swap 100000000 USDC -> ETH]'],
  ['buy 10 NTV with USDC every week for 4 weeks', 'en', 'Every 604800s x4 [Acquire 10000000000 NTV with USDC]'],
  ['swap 5 USDC for SOL every hour for 2 days', 'en', 'Every 3600s x48 [Swap 5000000 USDC -> SOL]'],
  ['every day for 2 weeks buy 1 SOL with USDC', 'en', 'Every 86400s x14 [Acquire 1000000000 SOL with USDC]'],
  ['swap 50 USDT for BTC every 2 days for 10 days', 'en', 'Every 172800s x5 [Swap 50000000 USDT -> BTC]'],
  ['buy 1 NTV with USDC daily for 30 days', 'en', 'Every 86400s x30 [Acquire 1000000000 NTV with USDC]'],
  ['swap 1 ETH for USDC with 1% slippage every day for 3 days', 'en', `Every 86400s x3 [Swap 1${E18} ETH -> USDC]`, 'slip=100'],
  ['buy 1 sTSLA with USDC every week for 2 weeks', 'en', `Every 604800s x2 [Synthetic 1${E18} sTSLA (18) with USDC]`],
  // Conditional
  ['swap 100 USDC for ETH if price below 2000', 'en', 'If ETH/USDC below 2000/1 [Swap 100000000 USDC -> ETH]'],
  ['sell 1 ETH for USDC if price above 3,500', 'en', `If ETH/USDC above 3500/1 [Swap 1${E18} ETH -> USDC]`],
  ['swap 1 ETH for USDC if ETH price above 3000.5', 'en', `If ETH/USDC above 6001/2 [Swap 1${E18} ETH -> USDC]`],
  ['buy 1 ETH with USDC if price below 1999.99 USDC', 'en', `If ETH/USDC below 199999/100 [Acquire 1${E18} ETH with USDC]`],
  ['buy 1 BTC with USDC if price drops below 60000 within 10 minutes', 'en', 'If BTC/USDC below 60000/1 [Acquire 100000000 BTC with USDC]', 'deadline=600'],
  ['limit buy 2 ETH at 1800 USDC', 'en', `If ETH/USDC below 1800/1 [Acquire 2${E18} ETH with USDC]`],
  ['limit sell 0.5 BTC at 70000 USDT', 'en', 'If BTC/USDT above 70000/1 [Swap 50000000 BTC -> USDT]'],
  ['swap 1 ETH for USDC if price above 3000', 'en', `If ETH/USDC above 3000/1 [Swap 1${E18} ETH -> USDC]`],
  ['swap 1 ETH for SOL if price above 20', 'en', `If SOL/ETH above 20/1 [Swap 1${E18} ETH -> SOL]`],
  ['sell 1 ETH for SOL if price above 20', 'en', `If ETH/SOL above 20/1 [Swap 1${E18} ETH -> SOL]`],
  ['swap 1 ETH for SOL if price above 20 SOL', 'en', `If ETH/SOL above 20/1 [Swap 1${E18} ETH -> SOL]`],
  ['swap 100 USDC for ETH if price below 2000 every day for 5 days', 'en', 'Every 86400s x5 [If ETH/USDC below 2000/1 [Swap 100000000 USDC -> ETH]]'],
  // OpenPosition
  ['open 5x long BTC perp with 100 USDC', 'en', 'long 5x BTC collateral 100000000 USDC'],
  ['short ETH 3x with 50 USDC', 'en', 'short 3x ETH collateral 50000000 USDC'],
  ['open a 10x short SOL perp with 1,000 USDT', 'en', 'short 10x SOL collateral 1000000000 USDT'],
  ['long TSLA 2x perp with 200 USDC', 'en', 'long 2x TSLA collateral 200000000 USDC'],
  ['open long eth with 1 ETH', 'en', `long 1x ETH collateral 1${E18} ETH`],
  ['open 20 x long sBTC perp with 10 NTV', 'en', 'long 20x sBTC collateral 10000000000 NTV'],
  // Custom: name registration
  ['register alice', 'en', 'Register alice.vex'],
  ['register Bob.vex', 'en', 'Register bob.vex'],
  ['register name my-shop-42', 'en', 'Register my-shop-42.vex'],
  ['Register the name DAO-Treasury', 'en', 'Register dao-treasury.vex'],
];

const SPANISH: Row[] = [
  ['intercambiar 10 USDC por NTV', 'es', 'Swap 10000000 USDC -> NTV'],
  ['cambiar 2 ETH a USDC', 'es', `Swap 2${E18} ETH -> USDC`],
  ['vender 1 BTC por USDT', 'es', 'Swap 100000000 BTC -> USDT'],
  ['comprar 1 ETH con USDC', 'es', `Acquire 1${E18} ETH with USDC`],
  ['enviar 5 NTV a alice.vex', 'es', 'Transfer 5000000000 NTV to name alice.vex'],
  ['apostar 1000 NTV', 'es', 'Stake 1000000000000 NTV'],
  ['comprar 100 NTV con USDC cada día durante 7 días', 'es', 'Every 86400s x7 [Acquire 100000000000 NTV with USDC]'],
  ['intercambiar 100 USDC por ETH con 1% de deslizamiento', 'es', 'Swap 100000000 USDC -> ETH', 'slip=100'],
  ['Intercambiar 50 USDT por SOL si precio bajo 150', 'es', 'If SOL/USDT below 150/1 [Swap 50000000 USDT -> SOL]'],
  ['compra 2 SOL con USDC', 'es', 'Acquire 2000000000 SOL with USDC'],
  ['vende 0.5 ETH por DAI', 'es', 'Swap 500000000000000000 ETH -> DAI'],
  [`envia 10 USDC a ${ADDR.evm}`, 'es', `Transfer 10000000 USDC to address ${EVM}`],
  ['cambiar 10 USDC por ETH cada semana durante 4 semanas', 'es', 'Every 604800s x4 [Swap 10000000 USDC -> ETH]'],
  ['comprar 1 sTSLA con USDC', 'es', `Synthetic 1${E18} sTSLA (18) with USDC`],
  [`apostar 2,000 NTV con validador ${V}`, 'es', `Stake 2000000000000 NTV validator ${V}`],
  ['apostar 1000 NTV con validador alice.vex', 'es', 'Stake 1000000000000 NTV validator alice.vex'],
  ['intercambiar 1 ETH y 100 USDC por NTV', 'es', `Composite[Swap 1${E18} ETH -> NTV; Swap 100000000 USDC -> NTV]`],
  ['ENVIAR 1,5 USDC a bob'.replace('1,5', '1.5'), 'es', 'Transfer 1500000 USDC to name bob.vex'],
  // every other form of the Spanish verb table (src/intents/languages.ts); compre and depositar are
  // Portuguese too, and the Spanish connectors (con, validador) decide
  ['compre 2 SOL con USDC', 'es', 'Acquire 2000000000 SOL with USDC'],
  ['intercambia 5 USDT por DAI', 'es', 'Swap 5000000 USDT -> DAI'],
  ['cambia 3 SOL por USDC', 'es', 'Swap 3000000000 SOL -> USDC'],
  ['apuesta 1000 NTV', 'es', 'Stake 1000000000000 NTV'],
  [`depositar 1500 NTV con validador ${V}`, 'es', `Stake 1500000000000 NTV validator ${V}`],
  ['puentear 100 USDC desde ethereum', 'es', 'Bridge 100000000 USDC from ethereum'],
  ['puentea 100 USDC de ethereum y cambia a NTV', 'es', `Composite[Bridge 100000000 USDC from ethereum; Swap 100000000 USDC -> NTV]`],
];

const PORTUGUESE: Row[] = [
  ['trocar 10 USDC por NTV', 'pt', 'Swap 10000000 USDC -> NTV'],
  ['comprar 1 ETH com USDC', 'pt', `Acquire 1${E18} ETH with USDC`],
  ['venda 1 BTC por USDT', 'pt', 'Swap 100000000 BTC -> USDT'],
  ['envie 5 NTV para alice.vex', 'pt', 'Transfer 5000000000 NTV to name alice.vex'],
  ['troque 2 SOL para USDC com 0.5% de derrapagem', 'pt', 'Swap 2000000000 SOL -> USDC', 'slip=50'],
  ['comprar 10 NTV com USDC cada dia por 5 dias', 'pt', 'Every 86400s x5 [Acquire 10000000000 NTV with USDC]'],
  ['trocar 1 ETH por USDC se preço acima 3000', 'pt', `If ETH/USDC above 3000/1 [Swap 1${E18} ETH -> USDC]`],
  ['compre 100 MOON com NTV', 'pt', 'Acquire 1000000 MOON with NTV'],
  ['deposite 1000 NTV', 'pt', 'Stake 1000000000000 NTV'],
  ['comprar 0.5 sBTC com USDT', 'pt', 'Synthetic 500000000000000000 sBTC (18) with USDT'],
  ['trocar 100 USDT por DAI within 5 minutes', 'pt', `Swap 100000000 USDT -> DAI`, 'deadline=300'],
  ['Trocar 5 SOL e 10 USDC por NTV', 'pt', 'Composite[Swap 5000000000 SOL -> NTV; Swap 10000000 USDC -> NTV]'],
  [`envie 2 ETH para ${ADDR.account}`, 'pt', `Transfer 2${E18} ETH to address ${ACC}`],
  ['venda 3 SOL por USDC cada semana por 2 semanas', 'pt', 'Every 604800s x2 [Swap 3000000000 SOL -> USDC]'],
  ['comprar 1 BTC com USDC se preço abaixo 60000', 'pt', 'If BTC/USDC below 60000/1 [Acquire 100000000 BTC with USDC]'],
  // every other Portuguese form; all but troca are Spanish (compra also Italian) too, so each row
  // carries a Portuguese connector (com, se, preço, acima, derrapagem) that decides the language
  ['compra 1 ETH com USDC', 'pt', `Acquire 1${E18} ETH with USDC`],
  ['vender 2 SOL para USDC com 1% de derrapagem', 'pt', 'Swap 2000000000 SOL -> USDC', 'slip=100'],
  ['vende 1 BTC por USDT se preço acima 70000', 'pt', 'If BTC/USDT above 70000/1 [Swap 100000000 BTC -> USDT]'],
  ['troca 10 USDC por NTV', 'pt', 'Swap 10000000 USDC -> NTV'],
  ['enviar 5 NTV para alice.vex com max fee 0.002', 'pt', 'Transfer 5000000000 NTV to name alice.vex', 'fee=2000000'],
  ['envia 2 SOL para bob com max fee 0.001', 'pt', 'Transfer 2000000000 SOL to name bob.vex', 'fee=1000000'],
  [`depositar 1000 NTV com validador ${V}`, 'pt', `Stake 1000000000000 NTV validator ${V}`],
  ['transpor 100 USDC de ethereum', 'pt', 'Bridge 100000000 USDC from ethereum'],
  ['transponha 100 USDC de ethereum e troque para NTV', 'pt', `Composite[Bridge 100000000 USDC from ethereum; Swap 100000000 USDC -> NTV]`],
];

const FRENCH: Row[] = [
  ['échanger 10 USDC contre NTV', 'fr', 'Swap 10000000 USDC -> NTV'],
  ['echanger 10 USDC pour ETH', 'fr', 'Swap 10000000 USDC -> ETH'],
  ['acheter 1 ETH avec USDC', 'fr', `Acquire 1${E18} ETH with USDC`],
  ['vendre 1 BTC pour USDT', 'fr', 'Swap 100000000 BTC -> USDT'],
  ['envoyer 5 NTV à alice.vex', 'fr', 'Transfer 5000000000 NTV to name alice.vex'],
  ['Achète 2 SOL avec USDC', 'fr', 'Acquire 2000000000 SOL with USDC'],
  ['acheter 10 NTV avec USDC chaque jour pendant 7 jours', 'fr', 'Every 86400s x7 [Acquire 10000000000 NTV with USDC]'],
  ['échanger 100 USDC pour ETH avec 1% de glissement', 'fr', 'Swap 100000000 USDC -> ETH', 'slip=100'],
  ['échanger 50 USDT en SOL si prix sous 150', 'fr', 'If SOL/USDT below 150/1 [Swap 50000000 USDT -> SOL]'],
  ['staker 1000 NTV', 'fr', 'Stake 1000000000000 NTV'],
  ['acheter 1 sGOLD avec DAI', 'fr', `Synthetic 1${E18} sGOLD (18) with DAI`],
  [`envoyez 1 ETH à ${ADDR.evm}`, 'fr', `Transfer 1${E18} ETH to address ${EVM}`],
  ['ÉCHANGER 1 ETH et 5 SOL contre USDC', 'fr', `Composite[Swap 1${E18} ETH -> USDC; Swap 5000000000 SOL -> USDC]`],
  ['vendez 2 ETH pour USDC chaque semaine pendant 3 semaines', 'fr', `Every 604800s x3 [Swap 2${E18} ETH -> USDC]`],
  [`staker 5000 NTV avec validateur ${V}`, 'fr', `Stake 5000000000000 NTV validator ${V}`],
  // every other French form
  ['achetez 1 BTC avec USDC', 'fr', 'Acquire 100000000 BTC with USDC'],
  ['vends 2 SOL pour USDC', 'fr', 'Swap 2000000000 SOL -> USDC'],
  ['échange 10 USDT contre DAI', 'fr', 'Swap 10000000 USDT -> DAI'],
  ['échangez 1 ETH pour USDC avec 0.5% de glissement', 'fr', `Swap 1${E18} ETH -> USDC`, 'slip=50'],
  ['envoie 5 NTV à alice.vex', 'fr', 'Transfer 5000000000 NTV to name alice.vex'],
  ['déposer 1000 NTV', 'fr', 'Stake 1000000000000 NTV'],
  [`déposez 2000 NTV avec validateur ${V}`, 'fr', `Stake 2000000000000 NTV validator ${V}`],
  ['ponter 100 USDC depuis ethereum', 'fr', 'Bridge 100000000 USDC from ethereum'],
  ['pontez 100 USDC depuis ethereum et échangez en NTV', 'fr', `Composite[Bridge 100000000 USDC from ethereum; Swap 100000000 USDC -> NTV]`],
];

const GERMAN: Row[] = [
  ['tauschen 10 USDC gegen NTV', 'de', 'Swap 10000000 USDC -> NTV'],
  ['tausche 1 ETH in USDC', 'de', `Swap 1${E18} ETH -> USDC`],
  ['kaufen 1 ETH mit USDC', 'de', `Acquire 1${E18} ETH with USDC`],
  ['1 ETH mit USDC kaufen', 'de', `Acquire 1${E18} ETH with USDC`],
  ['verkaufe 1 BTC für USDT', 'de', 'Swap 100000000 BTC -> USDT'],
  ['verkaufe 1 BTC fuer USDT', 'de', 'Swap 100000000 BTC -> USDT'],
  ['sende 5 NTV an alice.vex', 'de', 'Transfer 5000000000 NTV to name alice.vex'],
  ['kaufe 10 NTV mit USDC jeden Tag für 7 Tage', 'de', 'Every 86400s x7 [Acquire 10000000000 NTV with USDC]'],
  ['tausche 100 USDC gegen ETH mit 1% Slippage', 'de', 'Swap 100000000 USDC -> ETH', 'slip=100'],
  ['tausche 1 ETH gegen USDC wenn Preis über 3000', 'de', `If ETH/USDC above 3000/1 [Swap 1${E18} ETH -> USDC]`],
  ['staken 1000 NTV', 'de', 'Stake 1000000000000 NTV'],
  ['kaufe 2 sTSLA mit USDC', 'de', `Synthetic 2${E18} sTSLA (18) with USDC`],
  ['schicke 3 SOL an bob.vex', 'de', 'Transfer 3000000000 SOL to name bob.vex'],
  ['100 USDC gegen ETH tauschen', 'de', 'Swap 100000000 USDC -> ETH'],
  ['Verkaufe 0.5 ETH für DAI jede Woche für 4 Wochen', 'de', 'Every 604800s x4 [Swap 500000000000000000 ETH -> DAI]'],
  ['tausche 1 ETH und 2 SOL in NTV', 'de', `Composite[Swap 1${E18} ETH -> NTV; Swap 2000000000 SOL -> NTV]`],
  // the spec §4.8 infinitives verkaufen and senden (first and last in the sentence), and every
  // other German form
  ['verkaufen 1 ETH für USDC', 'de', `Swap 1${E18} ETH -> USDC`],
  ['2 SOL gegen USDC verkaufen', 'de', 'Swap 2000000000 SOL -> USDC'],
  ['senden 5 NTV an alice.vex', 'de', 'Transfer 5000000000 NTV to name alice.vex'],
  [`1 ETH an ${ADDR.evm} senden`, 'de', `Transfer 1${E18} ETH to address ${EVM}`],
  ['kauf 1 BTC mit USDT', 'de', 'Acquire 100000000 BTC with USDT'],
  ['verkauf 0.5 BTC gegen USDT', 'de', 'Swap 50000000 BTC -> USDT'],
  ['tausch 10 USDC in NTV', 'de', 'Swap 10000000 USDC -> NTV'],
  ['schicken 3 SOL an bob', 'de', 'Transfer 3000000000 SOL to name bob.vex'],
  ['einzahlen 1000 NTV', 'de', 'Stake 1000000000000 NTV'],
  ['brücken 100 USDC von ethereum', 'de', 'Bridge 100000000 USDC from ethereum'],
  ['100 USDC von ethereum bruecken', 'de', 'Bridge 100000000 USDC from ethereum'],
  ['bridgen 100 USDC von ethereum und tauschen in NTV', 'de', `Composite[Bridge 100000000 USDC from ethereum; Swap 100000000 USDC -> NTV]`],
];

const ITALIAN: Row[] = [
  ['scambiare 10 USDC per NTV', 'it', 'Swap 10000000 USDC -> NTV'],
  ['comprare 1 ETH con USDC', 'it', `Acquire 1${E18} ETH with USDC`],
  ['vendere 1 BTC per USDT', 'it', 'Swap 100000000 BTC -> USDT'],
  ['inviare 5 NTV a alice.vex', 'it', 'Transfer 5000000000 NTV to name alice.vex'],
  ['scambia 10 USDT per DAI', 'it', `Swap 10000000 USDT -> DAI`],
  ['comprare 10 NTV con USDC ogni giorno per 7 giorni', 'it', 'Every 86400s x7 [Acquire 10000000000 NTV with USDC]'],
  ['scambiare 100 USDC per ETH con 1% di slittamento', 'it', 'Swap 100000000 USDC -> ETH', 'slip=100'],
  ['scambiare 1 ETH per USDC se prezzo sopra 3000', 'it', `If ETH/USDC above 3000/1 [Swap 1${E18} ETH -> USDC]`],
  ['depositare 1000 NTV', 'it', 'Stake 1000000000000 NTV'],
  ['comprare 1 sBTC con USDT', 'it', `Synthetic 1${E18} sBTC (18) with USDT`],
  ['vendi 0.5 ETH per DAI', 'it', 'Swap 500000000000000000 ETH -> DAI'],
  [`invia 1 ETH a ${ADDR.hex32}`, 'it', `Transfer 1${E18} ETH to address ${H32}`],
  ['scambiare 1 ETH e 3 SOL per USDC', 'it', `Composite[Swap 1${E18} ETH -> USDC; Swap 3000000000 SOL -> USDC]`],
  ['comprare 2 SOL con USDC se prezzo sotto 100', 'it', 'If SOL/USDC below 100/1 [Acquire 2000000000 SOL with USDC]'],
  ['vendere 1 ETH per USDC ogni settimana per 2 settimane', 'it', `Every 604800s x2 [Swap 1${E18} ETH -> USDC]`],
  // every other Italian form; compra is Spanish and Portuguese too, the Italian connectors decide
  ['compra 2 SOL con USDC se prezzo sotto 100', 'it', 'If SOL/USDC below 100/1 [Acquire 2000000000 SOL with USDC]'],
  ['compri 1 BTC con USDT', 'it', 'Acquire 100000000 BTC with USDT'],
  ['deposita 1000 NTV', 'it', 'Stake 1000000000000 NTV'],
  ['pontare 100 USDC da ethereum', 'it', 'Bridge 100000000 USDC from ethereum'],
  ['ponta 100 USDC da ethereum e scambia in NTV', 'it', `Composite[Bridge 100000000 USDC from ethereum; Swap 100000000 USDC -> NTV]`],
];

const JAPANESE: Row[] = [
  ['koukan 10 USDC ni NTV', 'ja', 'Swap 10000000 USDC -> NTV'],
  ['10 USDC o NTV ni koukan', 'ja', 'Swap 10000000 USDC -> NTV'],
  ['1 ETH o USDC de kau', 'ja', `Acquire 1${E18} ETH with USDC`],
  ['kau 1 ETH de USDC', 'ja', `Acquire 1${E18} ETH with USDC`],
  ['5 NTV o alice.vex ni okuru', 'ja', 'Transfer 5000000000 NTV to name alice.vex'],
  ['okuru 5 NTV ni bob', 'ja', 'Transfer 5000000000 NTV to name bob.vex'],
  ['1 BTC o USDT ni uru', 'ja', 'Swap 100000000 BTC -> USDT'],
  ['suteeku 1000 NTV', 'ja', 'Stake 1000000000000 NTV'],
  ['mainichi 100 USDC o ETH ni koukan 7 nichi kan', 'ja', 'Every 86400s x7 [Swap 100000000 USDC -> ETH]'],
  ['2 sTSLA o USDC de kau', 'ja', `Synthetic 2${E18} sTSLA (18) with USDC`],
  ['kaimasu 1 SOL de USDC', 'ja', 'Acquire 1000000000 SOL with USDC'],
  ['10 USDC o SOL ni koukan with 1% slippage', 'ja', 'Swap 10000000 USDC -> SOL', 'slip=100'],
  ['maishuu 10 NTV o USDC de kau 4 shuukan', 'ja', 'Every 604800s x4 [Acquire 10000000000 NTV with USDC]'],
  [`1 ETH o ${ADDR.evm} ni okurimasu`, 'ja', `Transfer 1${E18} ETH to address ${EVM}`],
  // every other Japanese form, verb last and verb first
  ['1 ETH o USDC ni urimasu', 'ja', `Swap 1${E18} ETH -> USDC`],
  ['10 USDC o NTV ni koukansuru', 'ja', 'Swap 10000000 USDC -> NTV'],
  ['koukanshite 2 SOL ni USDC', 'ja', 'Swap 2000000000 SOL -> USDC'],
  ['1000 NTV o azukeru', 'ja', 'Stake 1000000000000 NTV'],
  ['ethereum kara 100 USDC o burijji', 'ja', 'Bridge 100000000 USDC from ethereum'],
  ['burijjisuru 100 USDC kara ethereum', 'ja', 'Bridge 100000000 USDC from ethereum'],
  ['burijji 100 USDC kara ethereum soshite koukan ni NTV', 'ja', `Composite[Bridge 100000000 USDC from ethereum; Swap 100000000 USDC -> NTV]`],
];

const ALL: Row[] = [...ENGLISH, ...SPANISH, ...PORTUGUESE, ...FRENCH, ...GERMAN, ...ITALIAN, ...JAPANESE];

describe('parseIntent: natural language, every pattern, seven languages', () => {
  it('has at least 150 rows covering every goal type and every language', () => {
    expect(ALL.length).toBeGreaterThanOrEqual(150);
    const types = new Set(ALL.map(([text]) => parse(text).goal.type));
    expect([...types].sort()).toEqual(['Acquire', 'Allocate', 'Bridge', 'Composite', 'Conditional', 'Custom', 'Liquidate', 'MintSynthetic',
      'OpenPosition', 'ProvideLiquidity', 'Rebalance', 'Recurring', 'Stake', 'Swap', 'Transfer']);
    expect(new Set(ALL.map((r) => r[1])).size).toBe(7);
  });

  it.each(ALL)('%s', (text, language, goal, constraints = '') => {
    const parsed = parse(text);
    expect(summary(parsed.goal)).toBe(goal);
    expect(constraintSummary(parsed.constraints)).toBe(constraints);
    expect(parsed.language).toBe(language);
    expect(parsed.source).toBe('nl');
  });
});

describe('parseIntent: exact values and shapes', () => {
  it('keeps the amount as written, the mint and the decimals from the registry', () => {
    const p = parse('swap 1,000.25 USDT for dai');
    expect(p.goal).toEqual({
      type: 'Swap',
      amountIn: { token: { symbol: 'USDT', mint: BY_SYMBOL.get('USDT')!.mint, decimals: 6 }, raw: 1_000_250_000n, text: '1,000.25' },
      tokenOut: { symbol: 'DAI', mint: BY_SYMBOL.get('DAI')!.mint, decimals: 18 },
    });
    expect(p.normalized).toBe('swap 1,000.25 USDT for dai');
  });

  it('reports the English form the grammar matched, constraints taken out', () => {
    expect(parse('intercambiar 100 USDC por ETH con 1% de deslizamiento').normalized).toBe('swap 100 USDC for ETH');
    expect(parse('1 ETH mit USDC kaufen').normalized).toBe('buy 1 ETH with USDC');
    expect(parse('10 USDC o NTV ni koukan').normalized).toBe('swap 10 USDC to NTV');
    expect(parse('I need 500 USDC spending at most 0.3 ETH').normalized).toBe('get 500 USDC at most 0.3 ETH');
  });

  it('gives recipient names as lower-case labels with .vex, addresses as their 32 bytes and text', () => {
    const named = parse('send 1 NTV to Alice').goal;
    expect(named).toMatchObject({ type: 'Transfer', to: { kind: 'name', name: 'alice.vex' } });
    const evm = parse(`send 1 NTV to ${ADDR.evm}`).goal;
    expect(evm.type === 'Transfer' && evm.to.kind === 'address' && evm.to.text).toBe(ADDR.evm);
  });

  it('MintSynthetic carries its 18 decimals; a registered symbol is never a synthetic', () => {
    const g = parse('buy 0.5 sTSLA with USDC').goal;
    expect(g).toEqual({ type: 'MintSynthetic', synthetic: 'sTSLA', amount: { raw: 5n * 10n ** 17n, text: '0.5', decimals: 18 }, payWith: expect.objectContaining({ symbol: 'USDC' }) });
    expect(() => parse('buy 1 SBTC with USDC')).toThrow(/unknown token "SBTC"/);
  });

  it('resolves tokens at parse time, so a token created later parses at once with its decimals', () => {
    const tokens = new FakeRegistry();
    const live = { tokens: { resolve: (s: string) => (s.toUpperCase() === 'NEWT' ? { symbol: 'NEWT', mint: new Uint8Array(32).fill(9), decimals: 2 } : tokens.resolve(s)) } };
    expect(() => parseIntent('swap 1.23 NEWT for NTV', ctx)).toThrow(/unknown token "NEWT"/);
    const g = parseIntent('swap 1.23 NEWT for NTV', live).goal;
    expect(g.type === 'Swap' && g.amountIn.raw).toBe(123n);
    expect(() => parseIntent('swap 1.234 NEWT for NTV', live)).toThrow(/3 decimal places but the token has 2/);
  });

  it('folds accents and umlauts and matches whole words only (cambiar is not found inside intercambiar)', () => {
    expect(parse('ÉCHANGER 1 ETH POUR USDC').language).toBe('fr');
    expect(parse('intercambiar 1 ETH por USDC').normalized).toBe('swap 1 ETH for USDC');
    expect(parse('verkaufe 1 BTC für USDT').normalized).toBe('sell 1 BTC for USDT');
  });
});

describe('parseIntent: JSON goals', () => {
  const json = (o: unknown) => parse(JSON.stringify(o));
  const rows: Array<[object, string, string?]> = [
    [{ goal: 'Swap', amount_in: '1.5', token_in: 'USDC', token_out: 'NTV', constraints: { slippage_percent: '0.5' } }, 'Swap 1500000 USDC -> NTV', 'slip=50'],
    [{ goal: 'Acquire', amount_out: '1', token_out: 'ETH', token_in: 'USDC', max_cost: '2000' }, `Acquire 1${E18} ETH with USDC max 2000000000 USDC`],
    [{ goal: 'Composite', steps: [{ goal: 'Swap', amount_in: '1', token_in: 'ETH', token_out: 'NTV' }, { goal: 'Swap', amount_in: '10', token_in: 'USDC', token_out: 'NTV' }] },
      `Composite[Swap 1${E18} ETH -> NTV; Swap 10000000 USDC -> NTV]`],
    [{ goal: 'Stake', amount: '1000', token: 'NTV', validator: V }, `Stake 1000000000000 NTV validator ${V}`],
    [{ goal: 'ProvideLiquidity', amount_a: '100', token_a: 'USDC', amount_b: '0.05', token_b: 'ETH' }, 'Liquidity 100000000 USDC + 50000000000000000 ETH'],
    [{ goal: 'Transfer', amount: '5', token: 'NTV', to: 'Alice.vex', constraints: { deadline_seconds: 60, max_fee: '0.01', gas_limit: 100000 } },
      'Transfer 5000000000 NTV to name alice.vex', 'deadline=60 fee=10000000 gas=100000'],
    [{ goal: 'Bridge', amount: '100', token: 'USDC', chain: 'Ethereum' }, 'Bridge 100000000 USDC from ethereum'],
    [{ goal: 'Liquidate', amount: '100', token: 'USDC', keeping: ['ETH'], excluding: ['BTC', 'SOL'] }, 'Liquidate to 100000000 USDC keeping [ETH] excluding [BTC,SOL]'],
    [{ goal: 'Rebalance', targets: [{ token: 'NTV', percent: '60' }, { token: 'USDC', percent: 40 }] }, 'Rebalance NTV:6000,USDC:4000'],
    [{ goal: 'Allocate', amount: '1000', token: 'USDC', stake_percent: '60', liquidity_percent: '40' }, 'Allocate 1000000000 USDC stake 6000 liquidity 4000'],
    [{ goal: 'Recurring', every: 'day', runs: 7, then: { goal: 'Swap', amount_in: '100', token_in: 'USDC', token_out: 'ETH' } }, 'Every 86400s x7 [Swap 100000000 USDC -> ETH]'],
    [{ goal: 'Conditional', direction: 'below', price: '2000', then: { goal: 'Acquire', amount_out: '1', token_out: 'ETH', token_in: 'USDC' } },
      `If ETH/USDC below 2000/1 [Acquire 1${E18} ETH with USDC]`],
    [{ goal: 'MintSynthetic', synthetic: 'sTSLA', amount: '2', pay_with: 'USDC' }, `Synthetic 2${E18} sTSLA (18) with USDC`],
    [{ goal: 'OpenPosition', side: 'short', leverage: 3, asset: 'eth', amount: '50', token: 'USDC' }, 'short 3x ETH collateral 50000000 USDC'],
    [{ goal: 'Custom', action: 'register_name', name: 'Alice' }, 'Register alice.vex'],
  ];
  it.each(rows)('%j', (o, goal, constraints = '') => {
    const p = json(o);
    expect(summary(p.goal)).toBe(goal);
    expect(constraintSummary(p.constraints)).toBe(constraints);
    expect(p.source).toBe('json');
    expect(p.language).toBe('en');
  });
});

describe('parseIntent: refusals name the part not understood', () => {
  const FAILS: Array<[text: string, part: string, reason: RegExp]> = [
    ['swap 1 XYZ for NTV', 'XYZ', /unknown token "XYZ"/],
    ['swap 1.1234567 USDC for NTV', '1.1234567', /7 decimal places but the token has 6/],
    ['swap 0.00001 MOON for NTV', '0.00001', /5 decimal places but the token has 4/],
    ['swap 340282366920938463463.374607431768211456 ETH for USDC', '340282366920938463463.374607431768211456', /exceeds the u128/],
    ['swap 1,5 USDC for NTV', '1,5', /decimal comma/],
    ['swap 1,00 USDC for NTV', '1,00', /decimal comma/],
    ['swap 0 USDC for NTV', '0', /greater than zero/],
    ['swap 1 USDC for usdc', 'usdc', /must differ/],
    ['swap 1 USDC', 'USDC', /expected for\/to .* ends after "USDC"/],
    ['swap USDC for NTV', 'USDC', /expected an amount/],
    ['swap NTV 10 for USDC', 'NTV', /amount before the token/],
    ['fly 1 USDC to the moon', 'fly 1 USDC to the moon', /no intent pattern starts with "fly"/],
    ['rebalance to 60% NTV, 30% USDC', '60% NTV, 30% USDC', /sum to 90%, not 100%/],
    ['rebalance to 60.005% NTV, 39.995% USDC', '60.005', /finer than one basis point/],
    ['rebalance to 50% NTV, 50% ntv', 'ntv', /appears twice/],
    ['swap 1 ETH for USDC with 0.001% slippage', '0.001', /finer than one basis point/],
    ['swap 1 ETH for USDC with 101% slippage', '101', /above 100%/],
    ['put 100 USDC split 50 stake 40 liquidity', 'split 50 stake 40 liquidity', /split sums to 90%/],
    ['send 5 NTV to a', 'a', /shorter than 3/],
    [`send 5 NTV to ${MOON_MINT}`, MOON_MINT, /token mint/],
    ['send 5 NTV to 0x1234', '0x1234', /0x form must have 40/],
    ['send 5 NTV to bad_name', 'bad_name', /not an address or a name/],
    ['bridge 1 ETH from mars', 'mars', /unknown chain "mars"/],
    ['swap 1 ETH for USDC every week for 10 days', 'every week for 10 days', /not a whole number of intervals/],
    ['swap 1 ETH for USDC every fortnight for 10 days', 'fortnight', /expected hour, day or week/],
    [`stake 1000 NTV with validator ${ADDR.evm}`, ADDR.evm, /20-byte EVM address/],
    ['stake 1000 NTV with validator Nx1abc', 'Nx1abc', /decodes to 3 bytes/],
    ['stake 1000 NTV with validator b_b', 'b_b', /not a validator address, consensus key or name/],
    ['open 500x long BTC perp with 100 USDC', '500x', /between 1 and 100/],
    ['open 5x sideways BTC with 100 USDC', 'sideways', /"long" or "short"/],
    ['register ab', 'ab', /shorter than 3/],
    ['register bad_name', 'bad_name', /"_"/],
    ['buy 1 ETH', 'buy 1 ETH', /say what to pay with/],
    ['get me 1 ETH with max 2000 USDC and max 3000 USDC', 'max 3000 USDC', /given twice/],
    ['swap 1 ETH for USDC with 1% slippage with 2% slippage', 'with 2% slippage', /slippage is given twice/],
    ['liquidate to 100 USDC keeping', 'keeping', /needs at least one token/],
    ['swap 1 sTSLA for USDC', 'sTSLA', /synthetic/],
    ['buy 1 ETH with USDC max 2000 USDT', 'buy 1 ETH with USDC max 2000 USDT', /maximum cost is in USDT but the intent pays with USDC/],
    ['with 1% slippage', 'with 1% slippage', /no goal/],
    ['add liquidity 100 USDC', 'USDC', /expected "and" .* ends after "USDC"/],
    ['swap 1 ETH for USDC max fee 1 USDC', 'USDC', /fees are paid in NTV/],
    ['swap 1 ETH for USDC gas limit 100', '100', /between 5000/],
    ['swap 1 ETH for USDC within 5', 'within 5', /needs a unit/],
    ['limit buy 1 ETH at 2000', '2000', /expected a token symbol, but the intent ends/],
    ['swap 1 ETH for USDC if price sideways 3000', 'sideways', /unknown token "sideways"/],
    ['swap 1 ETH for USDC if BTC price above 3000', 'BTC', /not one of the intent's tokens/],
    ['swap 1 ETH for USDC please', 'please', /unexpected text after a complete intent/],
    ['stake 10 NTV every day for 3 days', 'stake 10 NTV every day for 3 days', /only a swap or a buy can recur/],
    ['swap 1 ETH for USDC every day for 20000 days', 'every day for 20000 days', /at most 10000/],
    ['', '', /empty/],
    ['{"goal":"Swap","amount_in":"1","token_in":"USDC"}', 'token_out', /is missing/],
    ['{"goal":"Swap","amount_in":1.5,"token_in":"USDC","token_out":"NTV"}', 'amount_in', /not a JSON number/],
    ['{"goal":"Teleport"}', 'goal', /must be one of Swap/],
    ['{"goal":"Swap","amount_in":"1","token_in":"USDC","token_out":"NTV","slipage":1}', 'slipage', /not a field of a Swap goal/],
    ['{"goal":"Composite","steps":[{"goal":"Swap","amount_in":"1","token_in":"ETH","token_out":"NTV"},{"goal":"Swap","amount_in":"1","token_in":"FOO","token_out":"NTV"}]}',
      'steps[1].token_in', /unknown token "FOO"/],
    ['{not json', '{not json', /not valid JSON/],
    ['{"goal":"Swap","amount_in":"1","token_in":"USDC","token_out":"NTV","constraints":{"slippage_percent":"0.001"}}', 'constraints.slippage_percent', /finer than one basis point/],
    ['{"goal":"Rebalance","targets":[{"token":"NTV","percent":"60"},{"token":"USDC","percent":"30"}]}', 'targets', /sum to 90/],
    ['{"goal":"Swap","amount_in":"1.0000001","token_in":"USDC","token_out":"NTV"}', 'amount_in', /7 decimal places/],
  ];

  it.each(FAILS)('%s', (text, part, reason) => {
    let error: unknown;
    try {
      parse(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(IntentParseError);
    const e = error as IntentParseError;
    expect(e.part).toBe(part);
    expect(e.reason).toMatch(reason);
    if (e.position !== undefined) expect(text.slice(e.position, e.position + part.length)).toBe(part);
  });

  it('never answers an unknown sentence with a Custom goal', () => {
    for (const text of ['hello there', 'please do something', '42', 'register', 'swap', 'buy buy buy']) {
      expect(() => parse(text), text).toThrow(IntentParseError);
    }
  });
});
