/**
 * OpenRPC examples and descriptions of the methods in src/rpc/methods/accounts.ts
 * (docs/accounts.md), recorded from a testnet node (the accounts, the AUR token, pool and
 * collections of src/rpc/examples/recorded-run.ts, created by the calls shown); long lists are cut
 * to two items. test/unit/rpc-openrpc.test.ts holds each to its method's own param and result
 * schemas.
 */
import type { MethodExample } from '../registry.js';

const WRITE = 'Errors: UNAVAILABLE_ON_NETWORK on mainnet (sign the operation and use svc_submitBundle; the wallet helper of the same name does), '
  + 'BUNDLE_FAILED with the reverted receipt and data.status naming the rule (docs/accounts.md "Statuses"), BUNDLE_INVALID when admission refuses the bundle.';

export const EXAMPLES: Record<string, MethodExample[]> = {
  svc_addKey: [{
    name: "an operator key",
    params: [{"name":"public_key","value":"fbfb6cb1e3a98eca7af7f651db77c0c86896c90d9e540e97cb6265de9b2fee5e"},{"name":"key_type","value":"Ed25519"},{"name":"role","value":"operator"},{"name":"sender","value":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW"}],
    result: { name: "receipt", value: {"bundle_hash":"Nxh7SsHJEkAZn5pHzWXbChjiSqeuUHEGQriDMPK4cEUZpjX","block_height":5,"block_hash":"Nxh8djMNpi82aSu5FRyENUjDtMUDdqyW9yMXvof13FXEhpp","index":0,"timestamp":1795696212,"from":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW","nonce":"0","status":"success","status_code":0,"status_name":"OK","gas_used":25096,"fee":"250960","events":[{"type":"Fee","op_index":null,"payer":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW","proposer":"Nx06PmSsCnVHa4bv5yKdaTfgdCJMc2MTsXwW23VA7BkgmNU","to_proposer":"200768","treasury":"0x0000000000000000000000000000000000000000000000000000000000000003","to_treasury":"50192"},{"type":"KeyAdded","op_index":0,"account":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW","key_hash":"926f62a2e5baffaa4e302836acb051c003d85a78f24d7cb8fb8fd290796c3474","key_type":"Ed25519","role":"operator"}]} },
  }],
  svc_rotateKey: [{
    name: "rotate the operator key",
    params: [{"name":"old_key_hash","value":"926f62a2e5baffaa4e302836acb051c003d85a78f24d7cb8fb8fd290796c3474"},{"name":"new_public_key","value":"bb6506f3ffbd60cea11eec21a962d70d777e1a39ade362d565b87cfa6953bf30"},{"name":"new_key_type","value":"Ed25519"},{"name":"sender","value":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW"}],
    result: { name: "receipt", value: {"bundle_hash":"Nxh4fFtXHTDE4yAbdueMS2nKXTZHNea7f8EhjLoHkV1857m","block_height":6,"block_hash":"NxhAb8JFLGaUyKoV6qXtthmK3AdtieXKU2Fza789rReDtiD","index":0,"timestamp":1795696213,"from":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW","nonce":"1","status":"success","status_code":0,"status_name":"OK","gas_used":25096,"fee":"250960","events":[{"type":"Fee","op_index":null,"payer":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW","proposer":"Nx06PmSsCnVHa4bv5yKdaTfgdCJMc2MTsXwW23VA7BkgmNU","to_proposer":"200768","treasury":"0x0000000000000000000000000000000000000000000000000000000000000003","to_treasury":"50192"},{"type":"KeyRemoved","op_index":0,"account":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW","key_hash":"926f62a2e5baffaa4e302836acb051c003d85a78f24d7cb8fb8fd290796c3474"},{"type":"KeyAdded","op_index":0,"account":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW","key_hash":"3988965c38176f6759f43616ee0803edfe35b5404160658aa76b2b554cc9fae7","key_type":"Ed25519","role":"operator"}]} },
  }],
  svc_removeKey: [{
    name: "remove it",
    params: [{"name":"key_hash","value":"3988965c38176f6759f43616ee0803edfe35b5404160658aa76b2b554cc9fae7"},{"name":"sender","value":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW"}],
    result: { name: "receipt", value: {"bundle_hash":"Nxh4eKetCjcWWWGSYvpM6omiQEkhfqbxZrjS4XwhpqVhmYc","block_height":7,"block_hash":"Nxh4vh3t4m8Bqg7RBQ7Lng7GF8iWAJTo76rcX9oBELCex6V","index":0,"timestamp":1795696213,"from":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW","nonce":"2","status":"success","status_code":0,"status_name":"OK","gas_used":25000,"fee":"250000","events":[{"type":"Fee","op_index":null,"payer":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW","proposer":"Nx06PmSsCnVHa4bv5yKdaTfgdCJMc2MTsXwW23VA7BkgmNU","to_proposer":"200000","treasury":"0x0000000000000000000000000000000000000000000000000000000000000003","to_treasury":"50000"},{"type":"KeyRemoved","op_index":0,"account":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW","key_hash":"3988965c38176f6759f43616ee0803edfe35b5404160658aa76b2b554cc9fae7"}]} },
  }],
  svc_setRecovery: [{
    name: "2 of 2 guardians, 48 hours",
    params: [{"name":"guardians","value":["Nx05hWbJCorvfuDYyYLwV58azvCufrScch3wLQjrAobcKA1","Nx0FAXrATczuSd1t1oHeVeWS8JbDFiVNid4h5mFXNpJtVEx"]},{"name":"threshold","value":2},{"name":"timelock","value":172800},{"name":"sender","value":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW"}],
    result: { name: "receipt", value: {"bundle_hash":"NxhGMipUKxQLYc32MkQFN2ja8dbrHEXSkaDe4muZpw8yfqJ","block_height":8,"block_hash":"Nxh3RsSUvKqorymN1Kf8ivUxh8AwQHgeTLgefe9GVkUrGCE","index":0,"timestamp":1795696214,"from":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW","nonce":"3","status":"success","status_code":0,"status_name":"OK","gas_used":30000,"fee":"300000","events":[{"type":"Fee","op_index":null,"payer":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW","proposer":"Nx06PmSsCnVHa4bv5yKdaTfgdCJMc2MTsXwW23VA7BkgmNU","to_proposer":"240000","treasury":"0x0000000000000000000000000000000000000000000000000000000000000003","to_treasury":"60000"},{"type":"RecoverySet","op_index":0,"account":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW","threshold":2,"guardians":2,"timelock":172800}]} },
  }],
  svc_cancelRecovery: [{
    name: "the owner cancels",
    params: [{"name":"sender","value":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW"}],
    result: { name: "receipt", value: {"bundle_hash":"NxhCQ23Aq6pvGth5U8u1ejsGvSNZixofDzTDGT5XYQJrJCX","block_height":10,"block_hash":"NxhAhuLQnvy5jVX1dEtP3DGsytCCuGMC4QwovvDFga52PUk","index":0,"timestamp":1795696215,"from":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW","nonce":"4","status":"success","status_code":0,"status_name":"OK","gas_used":30000,"fee":"300000","events":[{"type":"Fee","op_index":null,"payer":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW","proposer":"Nx06PmSsCnVHa4bv5yKdaTfgdCJMc2MTsXwW23VA7BkgmNU","to_proposer":"240000","treasury":"0x0000000000000000000000000000000000000000000000000000000000000003","to_treasury":"60000"},{"type":"RecoveryCancelled","op_index":0,"account":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW"}]} },
  }],
  svc_initiateRecovery: [{
    name: "a guardian starts a recovery",
    params: [{"name":"account","value":"Nx0AmLYvCkEsgP8xh9WF69aYNrDeUTHV4b2HyT373HcxVP"},{"name":"new_public_key","value":"ce3c5bb46eee2d5ce6a5802697a6e9e5eb204d6a71666bb0aa7741565c015075"},{"name":"key_type","value":"Ed25519"},{"name":"sender","value":"Nx05hWbJCorvfuDYyYLwV58azvCufrScch3wLQjrAobcKA1"}],
    result: { name: "receipt", value: {"bundle_hash":"NxhENbfGabZGkegoKeXduGDnSqwfMjih1EDMGWGBaMa5UQv","block_height":12,"block_hash":"Nxh2kA7SnvBPFKZNmxkHXCSfpDTbiJxbVdrrg6m4gJPSWmn","index":0,"timestamp":1795696216,"from":"Nx05hWbJCorvfuDYyYLwV58azvCufrScch3wLQjrAobcKA1","nonce":"1","status":"success","status_code":0,"status_name":"OK","gas_used":30096,"fee":"300960","events":[{"type":"Fee","op_index":null,"payer":"Nx05hWbJCorvfuDYyYLwV58azvCufrScch3wLQjrAobcKA1","proposer":"Nx06PmSsCnVHa4bv5yKdaTfgdCJMc2MTsXwW23VA7BkgmNU","to_proposer":"240768","treasury":"0x0000000000000000000000000000000000000000000000000000000000000003","to_treasury":"60192"},{"type":"RecoveryInitiated","op_index":0,"account":"Nx0AmLYvCkEsgP8xh9WF69aYNrDeUTHV4b2HyT373HcxVP","guardian":"Nx05hWbJCorvfuDYyYLwV58azvCufrScch3wLQjrAobcKA1","key_hash":"37ffaa85b8130b98d89718521b0532e8c732fa0d3206996fd7fe12b82512c197","key_type":"Ed25519","executable_at":1795696226}]} },
  }],
  svc_approveRecovery: [{
    name: "the second guardian approves",
    params: [{"name":"account","value":"Nx0AmLYvCkEsgP8xh9WF69aYNrDeUTHV4b2HyT373HcxVP"},{"name":"new_key_hash","value":"37ffaa85b8130b98d89718521b0532e8c732fa0d3206996fd7fe12b82512c197"},{"name":"sender","value":"Nx0FAXrATczuSd1t1oHeVeWS8JbDFiVNid4h5mFXNpJtVEx"}],
    result: { name: "receipt", value: {"bundle_hash":"Nxh52yBoCA319UDpvL69VPjFzZTDvQ1q1anQbKGrVNzpQM5","block_height":13,"block_hash":"NxhGekyd1up4yKWehhc7ASprZzj2J922vwXDxNpZrwWvGRX","index":0,"timestamp":1795696216,"from":"Nx0FAXrATczuSd1t1oHeVeWS8JbDFiVNid4h5mFXNpJtVEx","nonce":"0","status":"success","status_code":0,"status_name":"OK","gas_used":30000,"fee":"300000","events":[{"type":"Fee","op_index":null,"payer":"Nx0FAXrATczuSd1t1oHeVeWS8JbDFiVNid4h5mFXNpJtVEx","proposer":"Nx06PmSsCnVHa4bv5yKdaTfgdCJMc2MTsXwW23VA7BkgmNU","to_proposer":"240000","treasury":"0x0000000000000000000000000000000000000000000000000000000000000003","to_treasury":"60000"},{"type":"RecoveryApproved","op_index":0,"account":"Nx0AmLYvCkEsgP8xh9WF69aYNrDeUTHV4b2HyT373HcxVP","guardian":"Nx0FAXrATczuSd1t1oHeVeWS8JbDFiVNid4h5mFXNpJtVEx","approvals":2}]} },
  }],
  svc_finalizeRecovery: [{
    name: "after the timelock",
    params: [{"name":"account","value":"Nx0AmLYvCkEsgP8xh9WF69aYNrDeUTHV4b2HyT373HcxVP"},{"name":"sender","value":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW"}],
    result: { name: "receipt", value: {"bundle_hash":"NxhCZ6TSgy9j3HNwHXbgT3X5bkRHFgM9Y8ikTdofKogVT49","block_height":26,"block_hash":"NxhBCDwLDCRgm84gMqpsiP9jPmTZ4BS69p5mkPw4xiTAy46","index":0,"timestamp":1795696229,"from":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW","nonce":"5","status":"success","status_code":0,"status_name":"OK","gas_used":30000,"fee":"300000","events":[{"type":"Fee","op_index":null,"payer":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW","proposer":"Nx06PmSsCnVHa4bv5yKdaTfgdCJMc2MTsXwW23VA7BkgmNU","to_proposer":"240000","treasury":"0x0000000000000000000000000000000000000000000000000000000000000003","to_treasury":"60000"},{"type":"RecoveryFinalized","op_index":0,"account":"Nx0AmLYvCkEsgP8xh9WF69aYNrDeUTHV4b2HyT373HcxVP","key_hash":"37ffaa85b8130b98d89718521b0532e8c732fa0d3206996fd7fe12b82512c197","key_type":"Ed25519"}]} },
  }],
  svc_createMultiSig: [{
    name: "2 of 3",
    params: [{"name":"from","value":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW"},{"name":"signers_array","value":["Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW","Nx05hWbJCorvfuDYyYLwV58azvCufrScch3wLQjrAobcKA1","Nx0FAXrATczuSd1t1oHeVeWS8JbDFiVNid4h5mFXNpJtVEx"]},{"name":"threshold","value":2},{"name":"label","value":"treasury"}],
    result: { name: "receipt", value: {"bundle_hash":"Nxh4fAA9Q6Kv3Z4gwjAd6EGVYwKBt2A1GUZGTVGychBSUZJ","block_height":27,"block_hash":"NxhNX4Ach3GxhVEE49WnVbWGyro2STVk7fiYYiHDRNcytD","index":0,"timestamp":1795696230,"from":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW","nonce":"6","status":"success","status_code":0,"status_name":"OK","gas_used":45000,"fee":"450000","events":[{"type":"Fee","op_index":null,"payer":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW","proposer":"Nx06PmSsCnVHa4bv5yKdaTfgdCJMc2MTsXwW23VA7BkgmNU","to_proposer":"360000","treasury":"0x0000000000000000000000000000000000000000000000000000000000000003","to_treasury":"90000"},{"type":"MultiSigCreated","op_index":0,"multisig":"Nx5H7GvpyDCbFfBcxXenhUWc772BTxsJYM6W6tSGhB6SJea","creator":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW","threshold":2,"signers":3}],"created":{"multisig":"Nx5H7GvpyDCbFfBcxXenhUWc772BTxsJYM6W6tSGhB6SJea"}} },
  }],
  svc_proposeMultiSigTx: [{
    name: "pay 2 NTV",
    params: [{"name":"from","value":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW"},{"name":"multisig_address","value":"Nx5H7GvpyDCbFfBcxXenhUWc772BTxsJYM6W6tSGhB6SJea"},{"name":"operations_json","value":"[{\"type\":\"Transfer\",\"to\":\"Nx0AmLYvCkEsgP8xh9WF69aYNrDeUTHV4b2HyT373HcxVP\",\"token\":\"NTV\",\"amount\":\"2000000000\"}]"},{"name":"description","value":"pay dave"}],
    result: { name: "receipt", value: {"bundle_hash":"Nxh9YfMaTAEvcVUMUigg6uVbUEX5G2GuPL3LSVwRQpFS3dz","block_height":29,"block_hash":"Nxh6JPvMY7Gt7ngDAPxmxq8wHpASFbQbhCeXbJ3ejj7nEcR","index":0,"timestamp":1795696231,"from":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW","nonce":"7","status":"success","status_code":0,"status_name":"OK","gas_used":51255,"fee":"512550","events":[{"type":"Fee","op_index":null,"payer":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW","proposer":"Nx06PmSsCnVHa4bv5yKdaTfgdCJMc2MTsXwW23VA7BkgmNU","to_proposer":"410040","treasury":"0x0000000000000000000000000000000000000000000000000000000000000003","to_treasury":"102510"},{"type":"MultiSigTxUpdated","op_index":0,"multisig":"Nx5H7GvpyDCbFfBcxXenhUWc772BTxsJYM6W6tSGhB6SJea","tx_id":"0","signer":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW","action":"proposed","approvals":1}]} },
  }],
  svc_approveMultiSigTx: [{
    name: "the second approval executes it",
    params: [{"name":"from","value":"Nx05hWbJCorvfuDYyYLwV58azvCufrScch3wLQjrAobcKA1"},{"name":"multisig_address","value":"Nx5H7GvpyDCbFfBcxXenhUWc772BTxsJYM6W6tSGhB6SJea"},{"name":"tx_id","value":"0"}],
    result: { name: "receipt", value: {"bundle_hash":"NxhjBC5fpZUEwLdKk3VYwD9NJMpWSakUpeNsZ5vRh8JqSg","block_height":30,"block_hash":"Nxh44JF6No8A4ByP68fpy8QLieVovZ2bYfqz1kMNrqatWGS","index":0,"timestamp":1795696231,"from":"Nx05hWbJCorvfuDYyYLwV58azvCufrScch3wLQjrAobcKA1","nonce":"2","status":"success","status_code":0,"status_name":"OK","gas_used":25000,"fee":"250000","events":[{"type":"Fee","op_index":null,"payer":"Nx05hWbJCorvfuDYyYLwV58azvCufrScch3wLQjrAobcKA1","proposer":"Nx06PmSsCnVHa4bv5yKdaTfgdCJMc2MTsXwW23VA7BkgmNU","to_proposer":"200000","treasury":"0x0000000000000000000000000000000000000000000000000000000000000003","to_treasury":"50000"},{"type":"MultiSigTxUpdated","op_index":0,"multisig":"Nx5H7GvpyDCbFfBcxXenhUWc772BTxsJYM6W6tSGhB6SJea","tx_id":"0","signer":"Nx05hWbJCorvfuDYyYLwV58azvCufrScch3wLQjrAobcKA1","action":"approved","approvals":2},{"type":"Transfer","op_index":0,"from":"Nx0H7GvpyDCbFfBcxXenhUWc772BTxsJYM6W6tSGhB6SJea","to":"Nx0AmLYvCkEsgP8xh9WF69aYNrDeUTHV4b2HyT373HcxVP","token":"Nx111111111111111111111111111111111","symbol":"NTV","amount":"2000000000"},{"type":"MultiSigTxExecuted","op_index":0,"multisig":"Nx5H7GvpyDCbFfBcxXenhUWc772BTxsJYM6W6tSGhB6SJea","tx_id":"0","status_code":0,"status_name":"OK"}]} },
  }],
  svc_revokeMultiSigApproval: [{
    name: "withdraw an approval",
    params: [{"name":"from","value":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW"},{"name":"multisig_address","value":"Nx5H7GvpyDCbFfBcxXenhUWc772BTxsJYM6W6tSGhB6SJea"},{"name":"tx_id","value":"1"}],
    result: { name: "receipt", value: {"bundle_hash":"Nxh6Cx87cGG83kEcZER8Qe3A1g7fKiFUg1rsapZboVhVnGS","block_height":32,"block_hash":"Nxh69nYW8Xe5kJnEwx3m34zHAQLu9Gw3yt84jQ3WxTFFxXq","index":0,"timestamp":1795696232,"from":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW","nonce":"9","status":"success","status_code":0,"status_name":"OK","gas_used":25000,"fee":"250000","events":[{"type":"Fee","op_index":null,"payer":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW","proposer":"Nx06PmSsCnVHa4bv5yKdaTfgdCJMc2MTsXwW23VA7BkgmNU","to_proposer":"200000","treasury":"0x0000000000000000000000000000000000000000000000000000000000000003","to_treasury":"50000"},{"type":"MultiSigTxUpdated","op_index":0,"multisig":"Nx5H7GvpyDCbFfBcxXenhUWc772BTxsJYM6W6tSGhB6SJea","tx_id":"1","signer":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW","action":"revoked","approvals":0}]} },
  }],
  svc_getMultiSig: [{
    name: "the treasury",
    params: [{"name":"address","value":"Nx5H7GvpyDCbFfBcxXenhUWc772BTxsJYM6W6tSGhB6SJea"}],
    result: { name: "multisig", value: {"address":"Nx5H7GvpyDCbFfBcxXenhUWc772BTxsJYM6W6tSGhB6SJea","label":"treasury","signers":["Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW","Nx05hWbJCorvfuDYyYLwV58azvCufrScch3wLQjrAobcKA1","Nx0FAXrATczuSd1t1oHeVeWS8JbDFiVNid4h5mFXNpJtVEx"],"threshold":2,"creator":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW","created_height":27,"created_at":1795696230,"proposals":2,"balance":"8000000000"} },
  }],
  svc_listMultiSigTxs: [{
    name: "one executed, one pending",
    params: [{"name":"address","value":"Nx5H7GvpyDCbFfBcxXenhUWc772BTxsJYM6W6tSGhB6SJea"}],
    result: { name: "proposals", value: [{"tx_id":"1","state":"pending","proposer":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW","description":"pay carol","operations":[{"type":"Transfer","to":"Nx0FAXrATczuSd1t1oHeVeWS8JbDFiVNid4h5mFXNpJtVEx","token":"Nx111111111111111111111111111111111","amount":"1000000000"}],"approvals":[],"created_height":31,"created_at":1795696232,"expires_at":1796301032,"executed_height":null,"status_code":null,"status_name":null},{"tx_id":"0","state":"executed","proposer":"Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW","description":"pay dave","operations":[{"type":"Transfer","to":"Nx0AmLYvCkEsgP8xh9WF69aYNrDeUTHV4b2HyT373HcxVP","token":"Nx111111111111111111111111111111111","amount":"2000000000"}],"approvals":["Nx0Dhvg43cpWxFeixxntRsYP4DTxXFJ7KntUzgXSiH3J1hW","Nx05hWbJCorvfuDYyYLwV58azvCufrScch3wLQjrAobcKA1"],"created_height":29,"created_at":1795696231,"expires_at":1796301031,"executed_height":30,"status_code":0,"status_name":"OK"}] },
  }],
};

/** What each method does, its errors by name and its spec section, for OpenRPC `description`. */
export const DESCRIPTIONS: Record<string, string> = {
  svc_addKey: WRITE,
  svc_removeKey: `A key is named by its hash as svc_getAccount lists it. ${WRITE}`,
  svc_rotateKey: `The new key takes the old one's role; bundles signed by the old key are refused from the next block. ${WRITE}`,
  svc_setRecovery: WRITE,
  svc_initiateRecovery: `Records the initiating guardian's approval; the timelock runs from this block. ${WRITE}`,
  svc_approveRecovery: `The hash guards against approving another key than the one pending. ${WRITE}`,
  svc_cancelRecovery: `Only during the timelock (RECOVERY_TIMELOCK_ELAPSED after it). ${WRITE}`,
  svc_finalizeRecovery: `RECOVERY_TIMELOCK_ACTIVE before the timelock has elapsed, RECOVERY_THRESHOLD_NOT_MET with too few approvals. ${WRITE}`,
  svc_createMultiSig: WRITE,
  svc_proposeMultiSigTx: `A bad operations_json is -32602 naming the operation and field; an unknown multi-sig NOT_FOUND. ${WRITE}`,
  svc_approveMultiSigTx: `MULTISIG_TX_EXPIRED after 7 days, ALREADY_APPROVED, NOT_MULTISIG_SIGNER, MULTISIG_TX_NOT_PENDING once executed or failed. ${WRITE}`,
  svc_revokeMultiSigApproval: `NOT_APPROVED without an approval to withdraw. ${WRITE}`,
  svc_getMultiSig: 'NOT_FOUND when no multi-sig has this address. docs/accounts.md "Multi-sig".',
  svc_listMultiSigTxs: 'state is pending, executed, failed (its operations reverted; status_name says why) or expired. NOT_FOUND when no multi-sig has this address.',
};
