/** The OpenAPI 3.1 document, generated from the routes' docs (the same descriptions that drive routing and validation). */
import type { GenericSchema } from 'valibot';
import type { ApiRoute, OperatorRoute, PublicRoute, RouteDoc } from '../http/route';
import {
  describeError,
  ERROR_RESPONSES,
  HEADERS,
  refToError,
  PARAMETERS,
  PROBLEM_SCHEMA_NAME,
  SECURITY_SCHEME,
  SECURITY_SCHEMES,
} from './components';
import { listDocumentedOperations, listOperatorOperations } from './operations';
import type { DocumentedOperation } from './operations';
import { buildSchemaConverter } from './schema';
import type { JsonObject, SchemaConverter } from './schema';
import { PROBLEM } from './values';

export const API_TITLE = 'ERP Edge API';
const API_VERSION = '0.1.0';

const DESCRIPTION =
  'Multi-tenant ERP business API: email templates, import data infos, maintenance indicators, routes and exchange rates documents. ' +
  'Every business path is under `/api/{tenantKey}/{orgKey}` and needs a bearer token (API clients get one from ' +
  '`POST /connect/token`, OAuth2 client credentials). Errors are `application/problem+json`. ' +
  'Enums are written as numbers; on input the number or the member name (any case) is accepted. ' +
  'The same records are also served as a standard OData v4 service at `/odata/{tenantKey}/{orgKey}/` (same token), ' +
  'described by its own `$metadata` rather than by this document (docs/odata.md).';

function describeParameters(operation: DocumentedOperation, converter: SchemaConverter): JsonObject[] {
  const { doc, path } = operation;
  const documented = doc.parameters ?? [];
  const parameters: JsonObject[] = [];
  if (operation.scope) parameters.push({ $ref: '#/components/parameters/tenantKey' }, { $ref: '#/components/parameters/orgKey' });
  if (operation.scope) parameters.push({ $ref: '#/components/parameters/bookmark' });
  const names = new Set(documented.map((parameter) => parameter.name));
  for (const parameter of documented) {
    if (parameter.in === 'path' && !path.includes(`{${parameter.name}}`)) continue;
    parameters.push({
      name: parameter.name,
      in: parameter.in,
      required: parameter.in === 'path' ? true : (parameter.required ?? false),
      description: parameter.description,
      schema: converter.convert(parameter.schema),
    });
  }
  for (const match of path.matchAll(/\{([^}]+)\}/g)) {
    const name = match[1] ?? '';
    if (name === 'tenantKey' || name === 'orgKey' || names.has(name)) continue;
    parameters.push({ name, in: 'path', required: true, description: name, schema: { type: 'string' } });
  }
  if (doc.errors?.includes(412)) parameters.push({ $ref: '#/components/parameters/ifMatch' });
  if (operation.idempotent) parameters.push({ $ref: '#/components/parameters/idempotencyKey' });
  return parameters;
}

function describeResponses(operation: DocumentedOperation, converter: SchemaConverter): JsonObject {
  const { doc } = operation;
  const responses: JsonObject = {};
  const errors = new Set<number>([
    ...(operation.scope ? [400, 401, 403, 429, 503] : []),
    ...(operation.idempotent ? [409, 422] : []),
    ...(doc.requestBody ? [413, 415] : []),
    ...(doc.errors ?? []),
    500,
  ]);
  for (const [key, response] of Object.entries(doc.responses ?? {})) {
    const status = Number(key);
    errors.delete(status);
    // An error answer is problem+json unless the operation documents a body of its own (the OAuth2 token endpoint's).
    if (status >= 400 && !response.schema) {
      responses[key] = describeError(status, response.description);
      continue;
    }
    const headers = Object.fromEntries((response.headers ?? []).map((name) => [name, { $ref: `#/components/headers/${name}` }]));
    responses[key] = {
      description: response.description,
      ...(response.headers?.length ? { headers } : {}),
      ...(response.schema
        ? {
            content: Object.fromEntries(
              [
                [response.contentType ?? 'application/json', response.schema] as const,
                ...Object.entries(response.moreContentTypes ?? {}),
              ].map(([type, schema]) => [type, { schema: converter.convert(schema) }]),
            ),
          }
        : {}),
    };
  }
  for (const status of [...errors].sort()) responses[String(status)] = refToError(status);
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)));
}

function describeOperation(operation: DocumentedOperation, converter: SchemaConverter): JsonObject {
  const { doc } = operation;
  const body = doc.requestBody;
  return {
    operationId: doc.operationId,
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    tags: [...doc.tags],
    parameters: describeParameters(operation, converter),
    ...(body
      ? {
          requestBody: {
            description: body.description,
            required: body.required ?? true,
            content: Object.fromEntries(
              [body.contentType ?? 'application/json', ...(body.moreContentTypes ?? [])].map((type) => [
                type,
                { schema: converter.convert(body.schema) },
              ]),
            ),
          },
        }
      : {}),
    responses: describeResponses(operation, converter),
    security: operation.scope ? [{ [SECURITY_SCHEME]: [operation.scope] }, ...(doc.security ?? [])] : (doc.security ?? []),
    'x-permissions': { scopes: [...operation.permissions.scopes], orgs: operation.permissions.orgs },
  };
}

function collectNamedSchemas(operations: readonly DocumentedOperation[]): Record<string, GenericSchema<unknown, unknown>> {
  const named: Record<string, GenericSchema<unknown, unknown>> = { [PROBLEM_SCHEMA_NAME]: PROBLEM };
  const add = (doc: Pick<RouteDoc, 'schemas'>) => {
    for (const [name, schema] of Object.entries(doc.schemas ?? {})) {
      if (named[name] && named[name] !== schema) throw new Error(`Two different schemas are named ${name}.`);
      named[name] = schema;
    }
  };
  for (const operation of operations) add(operation.doc);
  return named;
}

/** The whole document (without `servers`, which the serving route adds). */
export function buildOpenApiDocument(
  publicRoutes: readonly PublicRoute[],
  apiRoutes: readonly ApiRoute[],
  operatorRoutes: readonly OperatorRoute[] = [],
): JsonObject {
  const operations = listDocumentedOperations(publicRoutes, apiRoutes);
  const converter = buildSchemaConverter(collectNamedSchemas(operations));
  const paths: Record<string, JsonObject> = {};
  const ids = new Set<string>();
  const tags: string[] = [];
  for (const operation of operations) {
    const id = operation.doc.operationId;
    if (ids.has(id)) throw new Error(`Two operations have the id ${id}.`);
    ids.add(id);
    for (const tag of operation.doc.tags) if (!tags.includes(tag)) tags.push(tag);
    const item = (paths[operation.path] ??= {});
    const method = operation.method.toLowerCase();
    if (item[method]) throw new Error(`${operation.method} ${operation.path} is documented twice.`);
    item[method] = describeOperation(operation, converter);
  }
  return {
    openapi: '3.1.0',
    info: { title: API_TITLE, version: API_VERSION, description: DESCRIPTION },
    tags: tags.map((name) => ({ name })),
    paths,
    // The operator API (/admin: placements and moves, a scope of its own that grants no tenant data), by permission.
    'x-operator-operations': listOperatorOperations(operatorRoutes).map((operation) => ({
      ...operation,
      'x-permissions': { scopes: [...operation['x-permissions'].scopes], orgs: false },
    })),
    components: {
      schemas: converter.buildComponents(),
      responses: ERROR_RESPONSES,
      parameters: PARAMETERS,
      headers: HEADERS,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}
