/**
 * OpenRPC examples and descriptions of the methods in src/rpc/methods/allowances.ts
 * (docs/allowances.md), recorded from a testnet node (the accounts, the AUR token, pool and
 * collections of src/rpc/examples/recorded-run.ts, created by the calls shown); long lists are cut
 * to two items. test/unit/rpc-openrpc.test.ts holds each to its method's own param and result
 * schemas.
 */
import type { MethodExample } from '../registry.js';
import { ALICE, BOB } from './recorded-run.js';

export const EXAMPLES: Record<string, MethodExample[]> = {
  // Recorded on a testnet node (docs/allowances.md): ALICE approves BOB for 2 USDC, BOB moves 1.5 of it.
  svc_approve: [{
    name: 'approve 2 USDC',
    params: [{ name: 'token', value: 'USDC' }, { name: 'spender', value: BOB }, { name: 'amount', value: '2000000' }, { name: 'sender', value: ALICE }],
    result: { name: 'receipt', value: {
      "bundle_hash": "Nxh48Kheys1DQBC1cXVRxy6Knw16339ujdHFBnuFGAm8hVB",
      "block_height": 14,
      "block_hash": "NxhBBRHQWKr17EE3Wz8gcVTSwpxmeGZ1qrYKLW5S8uWsWgf",
      "index": 0,
      "timestamp": 1795622928,
      "from": ALICE,
      "nonce": "0",
      "status": "success",
      "status_code": 0,
      "status_name": "OK",
      "gas_used": 21000,
      "fee": "210000",
      "events": [
        {
          "type": "Fee",
          "op_index": null,
          "payer": ALICE,
          "proposer": "Nx04cwBf1iphB2o1yzVoVQLy2HeLHXi2Z9CxTtGzhAPmoD5",
          "to_proposer": "168000",
          "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
          "to_treasury": "42000"
        },
        {
          "type": "Approval",
          "op_index": 0,
          "owner": ALICE,
          "spender": BOB,
          "token": "Nx16tz1b1pUjr5F5msnsErZ2G1VUVgF9M9F16E2Vmu3CAbb",
          "symbol": "USDC",
          "amount": "2000000"
        }
      ]
    } },
  }],
  svc_transferFrom: [{
    name: 'spend 1.5 USDC of the allowance',
    params: [{ name: 'token', value: 'USDC' }, { name: 'from', value: ALICE }, { name: 'to', value: BOB }, { name: 'amount', value: '1500000' }, { name: 'sender', value: BOB }],
    result: { name: 'receipt', value: {
      "bundle_hash": "Nxh7HuDPbu4UZxo3MH36ewQQAktk9ZjxjS6aUW8dkpzU7Ag",
      "block_height": 15,
      "block_hash": "Nxh5xmiED2auReTkR6pVXdAzHNPijfQi4dSv4cuKjJGaRuZ",
      "index": 0,
      "timestamp": 1795622929,
      "from": BOB,
      "nonce": "0",
      "status": "success",
      "status_code": 0,
      "status_name": "OK",
      "gas_used": 26000,
      "fee": "260000",
      "events": [
        {
          "type": "Fee",
          "op_index": null,
          "payer": BOB,
          "proposer": "Nx04cwBf1iphB2o1yzVoVQLy2HeLHXi2Z9CxTtGzhAPmoD5",
          "to_proposer": "208000",
          "treasury": "0x0000000000000000000000000000000000000000000000000000000000000003",
          "to_treasury": "52000"
        },
        {
          "type": "Transfer",
          "op_index": 0,
          "from": ALICE,
          "to": BOB,
          "token": "Nx16tz1b1pUjr5F5msnsErZ2G1VUVgF9M9F16E2Vmu3CAbb",
          "symbol": "USDC",
          "amount": "1500000"
        }
      ]
    } },
  }],
  svc_getAllowance: [{
    name: 'what is left',
    params: [{ name: 'token', value: 'USDC' }, { name: 'owner', value: ALICE }, { name: 'spender', value: BOB }],
    result: { name: 'allowance', value: {
      "token": "Nx16tz1b1pUjr5F5msnsErZ2G1VUVgF9M9F16E2Vmu3CAbb",
      "symbol": "USDC",
      "owner": ALICE,
      "spender": BOB,
      "allowance": "500000",
      "infinite": false
    } },
  }],
};
