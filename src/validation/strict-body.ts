/**
 * Parsing a body (or one record of it) with a strict object schema, every bad field named: valibot's strict objects stop
 * at the first property they do not declare, so a body with two unknown properties would be answered with one. Here
 * every undeclared property of the input is named, once each, beside the declared fields' own errors.
 */
import * as v from 'valibot';
import type { FieldError } from '../errors/api-error';
import { message } from '../messages/catalogue';
import { issuesToErrors } from './issues';
import { isPlainObject } from './values';

type StrictSchema = v.StrictObjectSchema<v.ObjectEntries, v.ErrorMessage<v.StrictObjectIssue> | undefined>;

type StrictParse<TSchema extends StrictSchema> =
  { readonly success: true; readonly output: v.InferOutput<TSchema> } | { readonly success: false; readonly errors: FieldError[] };

/** An issue of the object itself about a property it does not declare (valibot names only the first). */
function isUnknownPropertyIssue(issue: v.BaseIssue<unknown>): boolean {
  return issue.kind === 'schema' && issue.type === 'strict_object' && issue.expected === 'never' && issue.path?.length === 1;
}

/** The input's properties the schema does not declare, each named as unknown (`prefix` as in issuesToErrors). */
function findUnknownProperties(entries: v.ObjectEntries, input: unknown, prefix = ''): FieldError[] {
  if (!isPlainObject(input)) return [];
  return Object.keys(input)
    .filter((key) => !Object.hasOwn(entries, key))
    .map((key) => ({ path: prefix === '' ? key : `${prefix}.${key}`, message: message('unknownProperty', { field: key }) }));
}

/** `v.safeParse` (every issue collected) of a strict object: the output, or every bad field's error. */
export function parseStrictBody<TSchema extends StrictSchema>(
  schema: TSchema,
  input: unknown,
  prefix = '',
  config: v.Config<v.InferIssue<TSchema>> = {},
): StrictParse<TSchema> {
  const result = v.safeParse(schema, input, { abortEarly: false, ...config });
  if (result.success) return { success: true, output: result.output };
  const fieldErrors = issuesToErrors(
    result.issues.filter((issue) => !isUnknownPropertyIssue(issue)),
    prefix,
  );
  return { success: false, errors: [...fieldErrors, ...findUnknownProperties(schema.entries, input, prefix)] };
}
