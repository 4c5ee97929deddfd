/** The create body of an API client (valibot): name, scopes and the orgs of the tenant it may get tokens for. */
import * as v from 'valibot';
import { ADDRESS_PATTERN } from '../../http/app';
import { validationError } from '../../errors/api-error';
import { issuesToErrors } from '../../validation/issues';
import { requireValue } from '../../validation/required';
import { isPlainObject } from '../../validation/values';
import type { Scope } from '../../auth/token';

export const CLIENT_SCOPES = ['application', 'admin'] as const satisfies readonly Scope[];
/** `*` in `orgs`: every org of the tenant, present and future. */
export const ALL_ORGS = '*';
export const MAX_CLIENT_ORGS = 100;
export const MAX_CLIENT_NAME = 100;

export const ApiClientInput = v.strictObject(
  {
    name: requireValue(
      'name',
      v.pipe(
        v.string('name must be a string.'),
        v.check((name) => name.trim() !== '', 'name must not be empty.'),
        v.maxLength(MAX_CLIENT_NAME, `name must be at most ${MAX_CLIENT_NAME} characters.`),
      ),
    ),
    scopes: v.optional(
      v.pipe(
        v.array(v.picklist(CLIENT_SCOPES, 'Each scope must be application or admin.'), 'scopes must be an array of scopes.'),
        v.minLength(1, 'scopes must name at least one scope.'),
      ),
    ),
    orgs: v.optional(
      v.pipe(
        v.array(
          v.pipe(
            v.string('Each org must be an org key.'),
            v.check(
              (org) => org === ALL_ORGS || ADDRESS_PATTERN.test(org),
              'Each org must be an org key of the tenant, or * for all of them.',
            ),
          ),
          'orgs must be an array of org keys.',
        ),
        v.minLength(1, 'orgs must name at least one org.'),
        v.maxLength(MAX_CLIENT_ORGS, `orgs may name at most ${MAX_CLIENT_ORGS} orgs.`),
      ),
    ),
  },
  'This property is not part of an API client.',
);

export interface NewApiClient {
  readonly name: string;
  readonly scopes: Scope[];
  /** Org keys of the tenant, or `['*']`. */
  readonly orgs: string[];
}

/** Validates a create body (every bad field named); scopes default to `application`, orgs to the path's org. */
export function parseApiClientInput(body: unknown, pathOrg: string): NewApiClient {
  if (!isPlainObject(body)) throw validationError([{ path: '', message: 'The body must be a JSON object.' }]);
  const result = v.safeParse(ApiClientInput, body, { abortEarly: false });
  if (!result.success) throw validationError(issuesToErrors(result.issues));
  const input = result.output as { name: string; scopes?: Scope[]; orgs?: string[] };
  const orgs = [...new Set(input.orgs ?? [pathOrg])];
  const scopes: Scope[] = [...new Set(input.scopes ?? ['application' as const])];
  return { name: input.name.trim(), scopes, orgs: orgs.includes(ALL_ORGS) ? [ALL_ORGS] : orgs };
}
