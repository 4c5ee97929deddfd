/** The create body of an API client (valibot): name, scopes and the orgs of the tenant it may get tokens for. */
import * as v from 'valibot';
import { ADDRESS_PATTERN } from '../../http/address';
import { validationError } from '../../errors/api-error';
import { issueMessage, message } from '../../messages/catalogue';
import { parseStrictBody } from '../../validation/strict-body';
import { bindPropertyNames } from '../../validation/property-names';
import { requireValue } from '../../validation/required';
import { isPlainObject } from '../../validation/values';
import type { Scope } from '../../auth/token';

export const CLIENT_SCOPES = ['application', 'admin'] as const satisfies readonly Scope[];

type ClientScope = (typeof CLIENT_SCOPES)[number];
/** `*` in `orgs`: every org of the tenant, present and future. */
const ALL_ORGS = '*';
const MAX_CLIENT_ORGS = 100;
const MAX_CLIENT_NAME = 100;

/**
 * A name without the white space around it (Unicode White_Space). Not String.trim: that also drops U+FEFF (a byte
 * order mark, not white space), which the answer would then not show though it was sent; it is kept as sent.
 */
function trimSpaces(name: string): string {
  return name.replace(/^\p{White_Space}+|\p{White_Space}+$/gu, '');
}

const scopeChoice = issueMessage('mustBeOneOf', { field: 'scopes', choices: CLIENT_SCOPES.join(', ') });
const orgKey = issueMessage('addressPattern', { field: 'orgs' });

export const ApiClientInput = v.strictObject({
  name: requireValue(
    'name',
    v.pipe(
      v.string(issueMessage('mustBeString', { field: 'name' })),
      v.check((name) => trimSpaces(name) !== '', issueMessage('mustNotBeEmpty', { field: 'name' })),
      v.maxLength(MAX_CLIENT_NAME, issueMessage('tooLong', { field: 'name', max: MAX_CLIENT_NAME })),
    ),
  ),
  scopes: v.optional(
    v.pipe(
      v.array(v.picklist(CLIENT_SCOPES, scopeChoice), scopeChoice),
      v.minLength(1, issueMessage('mustNotBeEmptyList', { field: 'scopes' })),
    ),
  ),
  orgs: v.optional(
    v.pipe(
      v.array(
        v.pipe(
          v.string(orgKey),
          v.check((org) => org === ALL_ORGS || ADDRESS_PATTERN.test(org), orgKey),
        ),
        issueMessage('mustBeStringList', { field: 'orgs' }),
      ),
      v.minLength(1, issueMessage('mustNotBeEmptyList', { field: 'orgs' })),
      v.maxLength(MAX_CLIENT_ORGS, issueMessage('tooManyItems', { field: 'orgs', max: MAX_CLIENT_ORGS })),
    ),
  ),
});

export interface NewApiClient {
  readonly name: string;
  readonly scopes: ClientScope[];
  /** Org keys of the tenant, or `['*']`. */
  readonly orgs: string[];
}

/** Validates a create body (every bad field named); scopes default to `application`, orgs to the path's org. */
export function parseApiClientInput(body: unknown, pathOrg: string): NewApiClient {
  if (!isPlainObject(body)) throw validationError([{ path: '', message: message('bodyMustBeObject') }]);
  const bound = bindPropertyNames(body, Object.keys(ApiClientInput.entries));
  const result = parseStrictBody(ApiClientInput, bound.values);
  if (!result.success || bound.errors.length > 0) {
    throw validationError([...bound.errors, ...(result.success ? [] : result.errors)]);
  }
  const input = result.output as { name: string; scopes?: ClientScope[]; orgs?: string[] };
  const orgs = [...new Set(input.orgs ?? [pathOrg])];
  const scopes: ClientScope[] = [...new Set(input.scopes ?? ['application' as const])];
  return { name: trimSpaces(input.name), scopes, orgs: orgs.includes(ALL_ORGS) ? [ALL_ORGS] : orgs };
}
