/** The documentation of entity-derived routes (routes.ts): parameters, bodies and answers from the EntitySpec. */
import type { ParameterDoc, ResponseDoc, RouteDoc } from '../../http/route';
import { DEFAULT_PAGE_SIZE, MAX_FILTER_LENGTH, MAX_PAGE_SIZE, MAX_SKIP, SORT_ROW_BUDGET } from '../../odata/types';
import { GUID } from '../../openapi/values';
import { AUDIT_FIELDS } from './audit';
import { buildAttributeBody, buildEntitySchemas, CUSTOM_ATTRIBUTE_BODY } from './doc-schemas';
import type { EntityDocOptions } from './doc-schemas';
import { listSortOrders } from './odata-fields';
import { findField } from './spec';
import type { EntitySpec } from './spec';

type DocParts = Omit<RouteDoc, 'summary' | 'tags' | 'operationId'>;

/** How a record path names the record: the shared single segment (id or key), the id, or the key. */
export type RecordPath = 'segment' | 'id' | 'key';

/** The `{customAttributeName}` path parameter of a custom attribute PUT. */
export const CUSTOM_ATTRIBUTE_NAME: ParameterDoc = {
  name: 'customAttributeName',
  in: 'path',
  description: 'custom_<name> of a custom attribute',
  schema: { json: { type: 'string', pattern: '^custom_[A-Za-z][A-Za-z0-9_]{0,63}$' } },
};

/** The body of a custom attribute PUT. */
export const CUSTOM_ATTRIBUTE_REQUEST: NonNullable<RouteDoc['requestBody']> = {
  description: 'ExtensibilityCustomAttributeValueResource ({"value": X}); a bare value is accepted too',
  schema: CUSTOM_ATTRIBUTE_BODY,
};

const TEXT = { type: 'string' };
const integer = (minimum: number, maximum: number) => ({ type: 'integer', minimum, maximum });

/**
 * The OData options of a list, typed as the parser reads them (numbers and booleans are not strings); `$orderby` names
 * the orders the entity's indexes serve and the sort budget of the others.
 */
function listODataParameters(spec: EntitySpec): readonly ParameterDoc[] {
  const orders = listSortOrders(spec)
    .map((order) => order.fields.slice(0, order.required).join(', '))
    .join('; ');
  return (
    [
      [
        '$filter',
        'Filter: eq ne gt ge lt le, and or not, in (...), contains/startswith/endswith/tolower/toupper/length/year/month/day',
        { ...TEXT, maxLength: MAX_FILTER_LENGTH },
      ],
      ['$select', 'Comma-separated properties to answer', TEXT],
      [
        '$orderby',
        `Comma-separated 'property [asc|desc]' keys: any scalar property, any number, each asc or desc; null sorts first ascending, last descending; ties by createdOn, then id (default: by creation). Read from an index (each may end with createdOn, id; all keys one direction): ${orders}. Any other order is sorted: when the $filter selects more than ${SORT_ROW_BUDGET} rows it is 400 asking for a narrower $filter`,
        TEXT,
      ],
      ['$top', `Rows per page (default ${DEFAULT_PAGE_SIZE}, at most ${MAX_PAGE_SIZE})`, integer(0, MAX_PAGE_SIZE)],
      ['$skip', 'Rows to skip (an offset; following nextPageLink is cheaper)', integer(0, MAX_SKIP)],
      ['$skiptoken', 'Opaque position of the next page, as nextPageLink gives it (not with $skip or page)', TEXT],
      ['$count', 'true: answer the total as count', { type: 'boolean' }],
      ['$inlinecount', 'allpages: answer the total as count', { type: 'string', enum: ['allpages', 'none'] }],
      ['$format', 'json (the only format)', { type: 'string', enum: ['json', 'application/json'] }],
      ['page', '1-based page number (with pageSize; not with $top/$skip)', integer(1, MAX_SKIP + 1)],
      ['pageSize', `Rows per page (with page; default ${DEFAULT_PAGE_SIZE}, at most ${MAX_PAGE_SIZE})`, integer(1, MAX_PAGE_SIZE)],
    ] as const
  ).map(([name, description, json]) => ({ name, in: 'query', description, schema: { json } }));
}

function capitalize(name: string): string {
  return `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
}

/** Path parameter name of the shared single-segment read/delete path (`idOrTemplateKey`). */
export function segmentParamName(spec: EntitySpec): string {
  return `idOr${capitalize(spec.key[0] ?? 'Key')}`;
}

function segmentParameter(spec: EntitySpec): ParameterDoc {
  const key = spec.key[0] ?? 'key';
  if (spec.segmentLookup === 'intKeyOrId') {
    return {
      name: segmentParamName(spec),
      in: 'path',
      description: `Two operations share this path: by ${key} (an integer) or by id (a GUID); anything else is 400.`,
      schema: {
        json: {
          anyOf: [
            { type: 'string', pattern: '^-?\\d+$' },
            { type: 'string', format: 'uuid' },
          ],
        },
      },
    };
  }
  return {
    name: segmentParamName(spec),
    in: 'path',
    description: `Two operations share this path: by id or by ${key}. A GUID is looked up as an id first, then as a ${key}; anything else is a ${key}.`,
    schema: { json: { type: 'string' } },
  };
}

function keyParameters(spec: EntitySpec): ParameterDoc[] {
  const names = spec.keyParams ?? spec.key;
  return spec.key.map((field, index) => ({
    name: names[index] ?? field,
    in: 'path',
    description: `${spec.fields[field]?.description ?? field} (key)`,
    schema: { json: spec.fields[field]?.kind === 'int' ? { type: 'integer' } : { type: 'string' } },
  }));
}

const ID_PARAMETER: ParameterDoc = { name: 'id', in: 'path', description: 'Record identifier (GUID)', schema: GUID };

/** Parameters of a record path: `segment` (single-key read/delete), `id`, or the key. */
export function describeRecordPath(spec: EntitySpec, by: RecordPath): ParameterDoc[] {
  if (by === 'segment') return [segmentParameter(spec)];
  return by === 'id' ? [ID_PARAMETER] : keyParameters(spec);
}

/** The doc of a list: OData options, the page. */
export function describeEntityList(spec: EntitySpec, options: EntityDocOptions) {
  const schemas = buildEntitySchemas(spec, options);
  return {
    schemas: schemas.named,
    parameters: listODataParameters(spec),
    responses: { 200: { description: 'A page of records', schema: schemas.page } },
  } satisfies DocParts;
}

/** The doc of a create: the body, the new id. */
export function describeEntityCreate(spec: EntitySpec, options: EntityDocOptions) {
  const schemas = buildEntitySchemas(spec, options);
  return {
    schemas: schemas.named,
    requestBody: {
      description: 'The new record; custom_<name> properties (or a customAttributes object) set custom attributes',
      schema: schemas.create,
    },
    responses: { 201: { description: 'Created: the body is the new record identifier', schema: GUID, headers: ['Location'] } },
  } satisfies DocParts;
}

/** The doc of a read by `by`: the record. */
export function describeEntityRead(spec: EntitySpec, options: EntityDocOptions, by: RecordPath) {
  const schemas = buildEntitySchemas(spec, options);
  return {
    schemas: schemas.named,
    parameters: describeRecordPath(spec, by),
    responses: {
      200: { description: 'The record', schema: schemas.resource, headers: ['ETag'] },
      404: { description: 'The record does not exist' },
    },
  } satisfies DocParts;
}

/** The doc of a delete by `by`. */
export function describeEntityDelete(spec: EntitySpec, options: EntityDocOptions, by: RecordPath) {
  return {
    schemas: buildEntitySchemas(spec, options).named,
    parameters: describeRecordPath(spec, by),
    responses: { 204: { description: 'Deleted' }, 404: { description: 'The record does not exist' } },
    errors: [412],
  } satisfies DocParts;
}

/** The doc of a custom attribute PUT (`{customAttributeName}`). */
export function describeEntityCustomAttribute(spec: EntitySpec, options: EntityDocOptions) {
  return {
    schemas: buildEntitySchemas(spec, options).named,
    parameters: [...describeRecordPath(spec, 'key'), CUSTOM_ATTRIBUTE_NAME],
    requestBody: CUSTOM_ATTRIBUTE_REQUEST,
    responses: {
      200: { description: 'Updated (empty body)', headers: ['ETag'] },
      404: { description: 'The record does not exist, or the entity has no such attribute' },
    },
    errors: [412],
  } satisfies DocParts;
}

function describeAttributeBody(spec: EntitySpec, options: EntityDocOptions, name: string) {
  const field = name === 'isActive' ? AUDIT_FIELDS.isActive : findField(spec, name);
  return {
    schemas: buildEntitySchemas(spec, options).named,
    parameters: describeRecordPath(spec, 'key'),
    requestBody: {
      description: `The new ${name}: the bare JSON value, or {"value": ...}`,
      schema: buildAttributeBody(name, field),
    },
    errors: [412],
  } satisfies DocParts;
}

const UPDATED = { description: 'Updated (empty body)', headers: ['ETag'] } satisfies ResponseDoc;

/** The doc of an updatable field's PUT. */
export function describeEntityAttribute(spec: EntitySpec, options: EntityDocOptions, name: string) {
  return { ...describeAttributeBody(spec, options, name), responses: { 200: UPDATED } } satisfies DocParts;
}

/** The doc of the isActive PUT (it documents 404 for a missing record). */
export function describeEntityIsActive(spec: EntitySpec, options: EntityDocOptions) {
  return {
    ...describeAttributeBody(spec, options, 'isActive'),
    responses: { 200: UPDATED, 404: { description: 'The record does not exist' } },
  } satisfies DocParts;
}
