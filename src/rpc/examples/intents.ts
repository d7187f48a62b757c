/**
 * OpenRPC examples and descriptions of the methods in src/rpc/methods/intents.ts
 * (docs/intents.md), recorded from a testnet node (the accounts, the AUR token, pool and
 * collections of src/rpc/examples/recorded-run.ts, created by the calls shown); long lists are cut
 * to two items. test/unit/rpc-openrpc.test.ts holds each to its method's own param and result
 * schemas.
 */
import type { MethodExample } from '../registry.js';
import { BOB, VALIDATOR, AUR_MINT } from './recorded-run.js';

export const EXAMPLES: Record<string, MethodExample[]> = {
  svc_previewIntent: [{
    name: 'swap 10 NTV for AUR',
    params: [{ name: 'intent_string', value: 'swap 10 NTV for AUR' }, { name: 'sender_address', value: BOB }],
    result: {
      name: 'preview',
      value: {
        summary: 'Swap 10 NTV for ≈99.59164175 AUR (at least 99.093683541 AUR) on the NTV/AUR pool',
        route_type: 'direct',
        estimated_fee_vxs: '0.00045',
        price_impact: '0.1%',
        slippage_tolerance: '0.5%',
        balance_sufficient: true,
        warnings: [],
        notes: [],
      },
    },
  }],
  svc_simulateIntent: [{
    name: 'swap 10 NTV for AUR',
    params: [{ name: 'intent_string', value: 'swap 10 NTV for AUR' }, { name: 'sender_address', value: BOB }],
    result: {
      name: 'simulation',
      value: {
        success: true,
        operations: [{ type: 'Swap', from_token: 'NTV', to_token: 'AUR', amount_in: '10000000000', estimated_out: '99591641750', price_impact_bps: 10 }],
        estimated_gas: 45000,
        total_price_impact_bps: 10,
        warnings: [],
        notes: [],
        balance_check: { sufficient: true, required: '10000450000', available: '5098999550000' },
      },
    },
  }],
  svc_submitIntent: [{
    name: 'swap 10 NTV for AUR',
    params: [{ name: 'intent_string', value: 'swap 10 NTV for AUR' }, { name: 'sender_address', value: BOB }],
    result: { name: 'bundle_hash', value: 'Nxh3yQvFnbSMM2tgT6SSYs1q55nK55PicgZGzQUuzchjvte' },
  }],
  svc_getExecutionPlan: [{
    name: 'swap 10 NTV for AUR, ready to sign',
    params: [{ name: 'intent_string', value: 'swap 10 NTV for AUR' }, { name: 'sender_address', value: BOB }],
    result: {
      name: 'plan',
      value: {
        summary: 'Swap 10 NTV for ≈99.59164175 AUR (at least 99.093683541 AUR) on the NTV/AUR pool',
        route_type: 'direct',
        steps: [
          {
            index: 0,
            type: 'Swap',
            from_token: 'NTV',
            to_token: 'AUR',
            amount_in: '10000000000',
            estimated_out: '99591641750',
            min_out: '99093683541',
            price_impact_bps: 10,
            pool: 'Nx8Dx1i4GCfcgm24HvvhTsPDG2vb9ShNKn6yJjjdfLBBbRX',
            operation: {
              type: 'Swap',
              from_token: '0x0000000000000000000000000000000000000000000000000000000000000000',
              to_token: '0x80d43c0cedfd768731802f1598a2d6da249edd0d9465910049ab7c6a8d53f0ed',
              amount_in: '10000000000',
              min_amount_out: '99093683541',
            },
          },
        ],
        estimated_gas: 45000,
        estimated_fee: '450000',
        total_price_impact_bps: 10,
        warnings: [],
        notes: [],
        savings: { baseline: 'each operation sent as its own bundle', naive_bundles: 1, naive_gas: 45000, planned_gas: 45000, gas_saved: 0, fee_saved: '0' },
        bundle: {
          user_account: BOB,
          operations: [
            {
              type: 'Swap',
              from_token: '0x0000000000000000000000000000000000000000000000000000000000000000',
              to_token: '0x80d43c0cedfd768731802f1598a2d6da249edd0d9465910049ab7c6a8d53f0ed',
              amount_in: '10000000000',
              min_amount_out: '99093683541',
            },
          ],
          max_gas: '45000',
          max_priority_fee: '0',
          valid_until: 1795625507,
          nonce: '1',
          signature: '',
          expiry_timestamp: null,
          sender_pubkey: null,
          unsigned_bundle_hex: '0xe8a21963a7476a9f06328047aa0487e54bbfefc385a1d44ce0d4ce85b52bd4ba010000001f000000000000000000000000000000000000000000000000000000000000000080d43c0cedfd768731802f1598a2d6da249edd0d9465910049ab7c6a8d53f0ed00e40b54020000000000000000000000559d7112170000000000000000000000c8af00000000000000000000000000002312076b000000000100000000000000000000000000',
          signing_hash: 'Nxh3yQvFnbSMM2tgT6SSYs1q55nK55PicgZGzQUuzchjvte',
        },
      },
    },
  }],
  svc_getIntentStatus: [{
    name: 'a completed swap',
    params: [{ name: 'bundle_hash', value: 'Nxh3yQvFnbSMM2tgT6SSYs1q55nK55PicgZGzQUuzchjvte' }],
    result: {
      name: 'status',
      value: {
        status: 'completed',
        bundle_hash: 'Nxh3yQvFnbSMM2tgT6SSYs1q55nK55PicgZGzQUuzchjvte',
        gas_used: 45000,
        block_height: 14,
        fee: '450000',
        status_name: 'OK',
        error: null,
        kind: 'intent',
        summary: 'Swap 10 NTV for ≈99.59164175 AUR (at least 99.093683541 AUR) on the NTV/AUR pool',
        sender: BOB,
        intent: 'swap 10 NTV for AUR',
        submitted_at: 1795621907,
        receipt: {
          bundle_hash: 'Nxh3yQvFnbSMM2tgT6SSYs1q55nK55PicgZGzQUuzchjvte',
          block_height: 14,
          block_hash: 'Nxh8bw1o5Gmns8RV4s9idToen6DnU44JV48tQWkSArQPAYq',
          index: 0,
          timestamp: 1795621907,
          from: BOB,
          nonce: '1',
          status: 'success',
          status_code: 0,
          status_name: 'OK',
          gas_used: 45000,
          fee: '450000',
          events: [
            {
              type: 'Fee',
              op_index: null,
              payer: BOB,
              proposer: VALIDATOR,
              to_proposer: '360000',
              treasury: '0x0000000000000000000000000000000000000000000000000000000000000003',
              to_treasury: '90000',
            },
            {
              type: 'Swap',
              op_index: 0,
              pool: 'Nx8Dx1i4GCfcgm24HvvhTsPDG2vb9ShNKn6yJjjdfLBBbRX',
              trader: BOB,
              token_in: 'Nx111111111111111111111111111111111',
              token_out: AUR_MINT,
              amount_in: '10000000000',
              amount_out: '99591641750',
              reserve0: '11010683743487',
              reserve1: '109887277270745',
            },
          ],
        },
      },
    },
  }],
  svc_registerProgram: [{
    name: 'a one-step DCA program',
    params: [
      {
        name: 'program_json',
        value: {
          name: 'weekly-dca',
          description: 'Buy AUR with NTV',
          params: [{ name: 'amount', type: 'amount', default: '5', description: 'NTV to spend' }],
          steps: [{ intent: 'swap ${amount} NTV for AUR', description: 'buy' }],
        },
      },
      { name: 'sender', value: BOB },
    ],
    result: {
      name: 'program',
      value: {
        name: 'weekly-dca',
        description: 'Buy AUR with NTV',
        params: [{ name: 'amount', type: 'amount', default: '5', description: 'NTV to spend' }],
        steps: [{ intent: 'swap ${amount} NTV for AUR', description: 'buy' }],
        owner: BOB,
        version: 1,
        registered_at: 1795621910,
        updated_at: 1795621910,
        registered_height: 15,
        updated_height: 15,
        program_hash: '0xd15c359c0eb52aa10497fee5b44442bde3fb6d3b0a23be910d9056aabd2c2398',
        valid: true,
      },
    },
  }],
  svc_getProgram: [{
    name: 'weekly-dca',
    params: [{ name: 'name', value: 'weekly-dca' }],
    result: {
      name: 'program',
      value: {
        name: 'weekly-dca',
        description: 'Buy AUR with NTV',
        params: [{ name: 'amount', type: 'amount', default: '5', description: 'NTV to spend' }],
        steps: [{ intent: 'swap ${amount} NTV for AUR', description: 'buy' }],
        owner: BOB,
        version: 1,
        registered_at: 1795621910,
        updated_at: 1795621910,
        registered_height: 15,
        updated_height: 15,
        program_hash: '0xd15c359c0eb52aa10497fee5b44442bde3fb6d3b0a23be910d9056aabd2c2398',
        valid: true,
      },
    },
  }],
  svc_listPrograms: [{
    name: 'the oldest program',
    params: [{ name: 'limit', value: 1 }],
    result: {
      name: 'programs',
      value: [
        {
          name: 'weekly-dca',
          description: 'Buy AUR with NTV',
          params: [{ name: 'amount', type: 'amount', default: '5', description: 'NTV to spend' }],
          steps: [{ intent: 'swap ${amount} NTV for AUR', description: 'buy' }],
          owner: BOB,
          version: 1,
          registered_at: 1795621910,
          updated_at: 1795621910,
          registered_height: 15,
          updated_height: 15,
          program_hash: '0xd15c359c0eb52aa10497fee5b44442bde3fb6d3b0a23be910d9056aabd2c2398',
          valid: true,
        },
      ],
    },
  }],
  svc_simulateProgram: [{
    name: 'weekly-dca with amount 2',
    params: [{ name: 'name', value: 'weekly-dca' }, { name: 'params', value: { amount: '2' } }, { name: 'sender', value: BOB }],
    result: {
      name: 'simulation',
      value: {
        success: true,
        operations: [{ type: 'Swap', from_token: 'NTV', to_token: 'AUR', amount_in: '2000000000', estimated_out: '19896635131', price_impact_bps: 2 }],
        estimated_gas: 45000,
        total_price_impact_bps: 2,
        warnings: [],
        notes: [],
        balance_check: { sufficient: true, required: '2000450000', available: '5088998743640' },
        program: 'weekly-dca',
        intents: ['swap 2 NTV for AUR'],
      },
    },
  }],
  svc_executeProgram: [{
    name: 'weekly-dca with amount 2',
    params: [{ name: 'name', value: 'weekly-dca' }, { name: 'params', value: { amount: '2' } }, { name: 'sender', value: BOB }],
    result: { name: 'bundle_hash', value: 'NxhAuEiVKFAjBToTh2gRDTpMcY9HRFayHtrrWYPyKo5czoC' },
  }],
};

/** What each method does, its errors by name and its spec section, for OpenRPC `description`. */
export const DESCRIPTIONS: Record<string, string> = {
  svc_previewIntent:
    'Errors: INTENT_REJECTED (the text does not parse or the plan breaks a limit), NOT_FOUND (no pool for a route), UNKNOWN_TOKEN, UNAVAILABLE_ON_NODE when the node runs without the intent engine.',
  svc_simulateIntent:
    'Plans the intent and executes its bundle on a scratch copy of the core over committed state; nothing is written (spec §2.6). Errors: INTENT_REJECTED, NOT_FOUND (no pool for a route), UNKNOWN_TOKEN, UNAVAILABLE_ON_NODE.',
  svc_submitIntent:
    'Errors: INTENT_REJECTED, NOT_FOUND, UNKNOWN_TOKEN, UNAVAILABLE_ON_NODE, UNAVAILABLE_ON_NETWORK on mainnet, BUNDLE_INVALID, MEMPOOL_FULL.',
  svc_getExecutionPlan:
    'Errors: INTENT_REJECTED, NOT_FOUND (no pool for a route), UNKNOWN_TOKEN, UNAVAILABLE_ON_NODE.',
  svc_getIntentStatus:
    'The status of an intent by its bundle hash (spec §2.6): pending while in the mempool, then completed or failed with gas and height; a schedule id answers with its runs. Errors: NOT_FOUND when neither a bundle nor a schedule has that hash; SERVER_BUSY while indexing.',
  svc_registerProgram:
    'Errors: UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_INVALID (a malformed program, naming the field); BUNDLE_FAILED (the name belongs to another account).',
  svc_getProgram:
    'Reads a registered program from chain state (spec §4.9): its params and steps, owner, version, heights and hash, and whether its templates are valid today. Errors: NOT_FOUND.',
  svc_listPrograms:
    'Lists registered programs, oldest first (spec §4.9); limit 1–1000, default 100. No application errors.',
  svc_simulateProgram:
    'Fills the templates with `params` (defaults for the rest) and simulates all steps as one bundle over committed state, as svc_simulateIntent does (spec §4.9, §2.6). Errors: INTENT_REJECTED (a missing or ill-typed param, a step that does not parse), NOT_FOUND (no such program, no pool), UNKNOWN_TOKEN, UNAVAILABLE_ON_NODE.',
  svc_executeProgram:
    'Fills the templates and sends every step as ONE atomic unsigned bundle (spec §4.9); answers with its hash once in the mempool. Errors: INTENT_REJECTED, NOT_FOUND, UNKNOWN_TOKEN, UNAVAILABLE_ON_NODE, UNAVAILABLE_ON_NETWORK on mainnet, BUNDLE_INVALID.',
};
