/**
 * The body of `POST /{templateKey}/render`: `{"parameters": [{"name", "value"}]}` or `{"route": {"companyKey",
 * "routeKey"}}`, exactly one of them; property names bind case-insensitively, every bad field is named. The valibot
 * schemas below document the body (OpenAPI) and validate each part.
 */
import * as v from 'valibot';
import { validationError } from '../../errors/api-error';
import type { FieldError } from '../../errors/api-error';
import { issueMessage, message } from '../../messages/catalogue';
import { bindPropertyNames } from '../../validation/property-names';
import { parseStrictBody } from '../../validation/strict-body';
import { isPlainObject } from '../../validation/values';

const MAX_RENDER_PARAMETERS = 1000;
const NAME_MAX = 100;
const KEY_MAX = 100;

const text = (field: string, max: number, description: string) =>
  v.pipe(
    v.string(issueMessage('mustBeString', { field })),
    v.minLength(1, issueMessage('mustNotBeEmpty', { field })),
    v.maxLength(max, issueMessage('tooLong', { field, max })),
    v.description(description),
  );

export const RenderParameter = v.strictObject({
  name: text('name', NAME_MAX, 'Placeholder name (case-insensitive); a name the template does not use is ignored'),
  value: v.pipe(
    v.nullable(v.union([v.string(), v.number()], issueMessage('renderValue', { field: 'value' }))),
    v.description('The value: a string as given, a number formatted for the template culture, null for no value'),
  ),
});

/** A route by key (named EmailTemplateRenderRoute in the document). */
export const RenderRoute = v.strictObject({
  companyKey: text('companyKey', KEY_MAX, 'Company of the route'),
  routeKey: text('routeKey', KEY_MAX, 'Key of the route'),
});

/** For the OpenAPI document: one of the two forms. */
export const RenderRequest = v.union([
  v.strictObject({
    parameters: v.pipe(v.array(RenderParameter), v.maxLength(MAX_RENDER_PARAMETERS), v.description('The values of the placeholders')),
  }),
  // EmailTemplateRenderRoute: its maintenance notification parameters are the values, in the template's culture.
  v.strictObject({ route: RenderRoute }),
]);

export interface RenderValue {
  readonly name: string;
  readonly value: string | number | null;
}

export type RenderInput =
  | { readonly from: 'parameters'; readonly parameters: readonly RenderValue[] }
  | { readonly from: 'route'; readonly companyKey: string; readonly routeKey: string };

function parseParameters(raw: unknown, errors: FieldError[]): RenderValue[] {
  if (!Array.isArray(raw)) {
    errors.push({ path: 'parameters', message: message('renderParameterList', { field: 'parameters' }) });
    return [];
  }
  if (raw.length > MAX_RENDER_PARAMETERS) {
    errors.push({ path: 'parameters', message: message('tooManyItems', { field: 'parameters', max: MAX_RENDER_PARAMETERS }) });
    return [];
  }
  const parameters: RenderValue[] = [];
  const seen = new Set<string>();
  raw.forEach((item: unknown, index) => {
    const prefix = `parameters[${index}]`;
    if (!isPlainObject(item)) {
      errors.push({ path: prefix, message: message('mustBeObject', { field: prefix }) });
      return;
    }
    const bound = bindPropertyNames(item, ['name', 'value'], prefix);
    errors.push(...bound.errors);
    const result = parseStrictBody(RenderParameter, bound.values, prefix);
    if (!result.success) {
      errors.push(...result.errors);
      return;
    }
    const { name, value } = result.output;
    const lower = name.toLowerCase();
    if (seen.has(lower)) {
      errors.push({ path: `${prefix}.name`, message: message('parameterRepeated', { field: `${prefix}.name`, parameter: name }) });
      return;
    }
    seen.add(lower);
    parameters.push({ name, value });
  });
  return parameters;
}

function parseRoute(raw: unknown, errors: FieldError[]): { companyKey: string; routeKey: string } | undefined {
  if (!isPlainObject(raw)) {
    errors.push({ path: 'route', message: message('mustBeObject', { field: 'route' }) });
    return undefined;
  }
  const bound = bindPropertyNames(raw, ['companyKey', 'routeKey'], 'route');
  errors.push(...bound.errors);
  const result = parseStrictBody(RenderRoute, bound.values, 'route');
  if (!result.success) {
    errors.push(...result.errors);
    return undefined;
  }
  return result.output;
}

/** Validates the body: 400 naming every bad field (`parameters[2].value`, `route.routeKey`, ...). */
export function parseRenderBody(body: unknown): RenderInput {
  if (!isPlainObject(body)) throw validationError([{ path: '', message: message('bodyMustBeObject') }]);
  const bound = bindPropertyNames(body, ['parameters', 'route']);
  const errors: FieldError[] = [...bound.errors];
  for (const name of Object.keys(bound.values)) {
    if (name !== 'parameters' && name !== 'route') errors.push({ path: name, message: message('unknownProperty', { field: name }) });
  }
  const hasParameters = bound.values.parameters !== undefined;
  const hasRoute = bound.values.route !== undefined;
  if (hasParameters && hasRoute) {
    errors.push({ path: 'parameters', message: message('renderSource') }, { path: 'route', message: message('renderSource') });
  } else if (!hasParameters && !hasRoute) {
    errors.push({ path: 'parameters', message: message('renderSourceMissing') });
  }
  const parameters = hasParameters ? parseParameters(bound.values.parameters, errors) : [];
  const route = hasRoute ? parseRoute(bound.values.route, errors) : undefined;
  if (errors.length > 0) throw validationError(errors);
  return route ? { from: 'route', ...route } : { from: 'parameters', parameters };
}
