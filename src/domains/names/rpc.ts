import { Type } from '@sinclair/typebox';
import { encodeAccount, encodeEvm } from '../../codec/address.js';
import {
  canonicalName, lookupName, nameId, nameProblem, NAME_MAX_LENGTH, NAME_SUFFIX, reverseResolve,
} from './reader.js';
import { APP_ERRORS, RpcError } from '../../rpc/errors.js';
import { defineMethod, type MethodDefinition } from '../../rpc/registry.js';
import { parsed } from '../../rpc/schemas.js';
import type { MethodDependencies } from '../../rpc/methods/context.js';
import { AccountParam } from '../../rpc/methods/params.js';
import { ReceiptSchema } from '../../rpc/methods/result-schemas.js';

/**
 * Spec §4.12 names (docs/names.md). Registration is the RegisterName operation (bundle-format
 * disc. 32); svc_registerName is its unsigned convenience form (testnet only). Reads come from
 * committed state through src/domains/names/reader.ts, the same code the intent planner resolves with.
 */

const nameString = () => Type.String({
  minLength: 1,
  // a label of 64 characters plus the optional suffix; the exact rule is checked below with a clear message
  maxLength: NAME_MAX_LENGTH + NAME_SUFFIX.length,
  description: 'a name: 3–64 letters, digits or hyphens, case-insensitive, with or without the ".vex" suffix',
});

const NameInfoSchema = Type.Object({
  name: Type.String({ description: 'the full name, e.g. "alice.vex"' }),
  label: Type.String({ description: 'the canonical label the core stores, e.g. "alice"' }),
  id: Type.String({ description: 'Nx9… identifier of the name (docs/names.md)' }),
  owner: Type.String({ description: 'Nx0… address of the owner, to which the name resolves' }),
  owner_evm: Type.String({ description: 'the owner in EVM form (0x + 20 bytes)' }),
  registered_height: Type.Integer(),
  registered_at: Type.Integer({ description: 'unix seconds of the registering block' }),
  is_primary: Type.Boolean({ description: 'true when this is the owner\'s primary name (svc_reverseResolve answers it)' }),
}, { title: 'NameInfo' });

function labelParam(name: string, param: string, position: number): string {
  const label = canonicalName(name);
  if (label === undefined) {
    throw RpcError.invalidParam(param, position, 'a name of 3–64 letters, digits or hyphens, optionally ending in ".vex"', {
      reason: nameProblem(name),
    });
  }
  return label;
}
/** Params parsed once (issue 44 item 4): a name as its canonical label (lower case, no ".vex"). */
const NameParam = () => parsed(nameString(), labelParam);
/** A name checked as a label but passed on as written (the core canonicalises it). */
const NameToRegister = () => parsed(nameString(), (name, param, position) => {
  labelParam(name, param, position);
  return name;
});

export function nameMethods({ chain, readers }: MethodDependencies): MethodDefinition[] {
  const notFound = (label: string) => RpcError.app('NOT_FOUND', `the name ${label}${NAME_SUFFIX} is not registered`, { name: label + NAME_SUFFIX });
  return [
    defineMethod({
      name: 'svc_registerName',
      summary: 'Register a name for the sender (spec §4.12; first come, first served; unsigned convenience, testnet only).',
      description: 'The name is lower-cased and its optional ".vex" suffix dropped; it must be 3–64 letters, digits or hyphens. '
        + 'A name that is already registered fails with status NAME_TAKEN. The sender\'s first name becomes its primary name.'
        + ' Spec §4.12. Errors: UNAVAILABLE_ON_NETWORK on mainnet; BUNDLE_FAILED (NAME_TAKEN, or a name that breaks the rule).',
      params: [
        { name: 'name', schema: NameToRegister() },
        { name: 'sender', schema: AccountParam({ description: 'the account that will own the name' }) },
      ] as const,
      result: {
        name: 'receipt', schema: ReceiptSchema,
        description: 'receipt. First come, first served: a registered name fails with `-32002`, status `NAME_TAKEN`. The sender\'s first name becomes'
          + ' its primary name. Unsigned convenience, **testnet only**; elsewhere submit a signed `RegisterName` bundle',
      },
      errors: [APP_ERRORS.UNAVAILABLE_ON_NETWORK.code, APP_ERRORS.BUNDLE_FAILED.code],
      handler: async ([name, from]) => {
        // The core decides taken-ness (first come, first served inside the block order).
        return chain.submitOperations(from, [{ type: 'RegisterName', name }]);
      },
    }),
    defineMethod({
      name: 'svc_resolveName',
      summary: 'The address a name resolves to: its owner (spec §4.12).',
      description: 'The Nx0… owner of a name, with or without ".vex", any case (spec §4.12). Errors: NOT_FOUND when the name is not registered.',
      params: [{ name: 'name', schema: NameParam() }] as const,
      result: {
        name: 'address', schema: Type.String({ description: 'Nx0… address of the owner' }),
        description: 'the owner\'s `Nx0…` address; `-32003 NOT_FOUND` when unregistered',
      },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: ([label]) => {
        const record = lookupName(chain.state, label);
        if (!record) throw notFound(label);
        return encodeAccount(record.owner);
      },
    }),
    defineMethod({
      name: 'svc_reverseResolve',
      summary: 'The primary name of an address (its first registered name, with ".vex"), or null (spec §4.12).',
      description: 'The primary name of an address, with its ".vex" suffix, or null when it registered none (spec §4.12). No application errors.',
      params: [{ name: 'address', schema: AccountParam() }] as const,
      result: {
        name: 'name', schema: Type.Union([Type.String(), Type.Null()]),
        description: 'the address\'s primary name (`"alice.vex"`), or `null`',
      },
      handler: ([address]) => {
        const label = reverseResolve(chain.state, address);
        return label === undefined ? null : label + NAME_SUFFIX;
      },
    }),
    defineMethod({
      name: 'svc_getNameInfo',
      summary: 'A name\'s record: owner, registration height and time, whether it is the owner\'s primary name (spec §4.12).',
      description: 'The name\'s record (spec §4.12): label, id (its hash), owner in both forms, registration height and time, and whether it is the'
        + ' owner\'s primary name. Errors: NOT_FOUND when the name is not registered.',
      params: [{ name: 'name', schema: NameParam() }] as const,
      result: {
        name: 'info', schema: NameInfoSchema,
        description: '`{name, label, id (Nx9…), owner, owner_evm, registered_height, registered_at, is_primary}`; `-32003 NOT_FOUND` when unregistered',
      },
      errors: [APP_ERRORS.NOT_FOUND.code],
      handler: ([label]) => {
        const record = lookupName(chain.state, label);
        if (!record) throw notFound(label);
        return {
          name: label + NAME_SUFFIX,
          label,
          id: nameId(label),
          owner: encodeAccount(record.owner),
          owner_evm: encodeEvm(record.owner),
          registered_height: Number(record.registeredHeight),
          registered_at: Number(record.registeredAt),
          is_primary: reverseResolve(chain.state, record.owner) === label,
        };
      },
    }),
  ];
}
