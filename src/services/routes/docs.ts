/** OpenAPI documentation of the routes service's own operations and of what reads add (members, tools). */
import * as v from 'valibot';
import type { OperationDoc } from '../../http/route';
import type { EntityDocOptions } from '../../openapi/entity-schemas';
import { MAX_MEMBERS_PER_REQUEST } from './membership-body';
import { TEMPLATE_PARAMETER_NAMES } from './template-parameters';
import { MAX_TOOLS } from './tools';

type AnySchema = v.GenericSchema<unknown, unknown>;
type Parts = Omit<OperationDoc, 'summary' | 'operationId'>;

/** A member as reads list it: `{id, key, description}` (CONTRACT 7). */
const RouteMember = v.strictObject({ id: v.string(), key: v.string(), description: v.string() }) as AnySchema;
const members = (what: string) => v.pipe(v.array(RouteMember), v.description(`The route's ${what}, by key`)) as AnySchema;

export const routeEntityDoc: EntityDocOptions = {
  createName: 'ApiLocationRoutesResource',
  answerExtras: { locations: members('locations'), equipmentItems: members('equipment items'), tools: members('tools') },
  createExtras: {
    tools: v.optional(
      v.nullable(
        v.union([v.pipe(v.string(), v.description('Comma-separated tool keys')), v.pipe(v.array(v.string()), v.maxLength(MAX_TOOLS))]),
      ),
    ) as AnySchema,
  },
  schemas: { RouteMember },
};

const RouteMaintenanceNotificationTemplateParameter = v.strictObject({
  name: v.picklist(TEMPLATE_PARAMETER_NAMES),
  value: v.nullable(v.string()),
}) as AnySchema;

const ROUTE_KEY_PARAMS = [
  { name: 'companyKey', in: 'path', description: 'Company of the route', schema: { json: { type: 'string' } } },
  { name: 'routeKey', in: 'path', description: 'Key of the route', schema: { json: { type: 'string' } } },
] as const;

export const notificationDoc: Parts = {
  schemas: { RouteMaintenanceNotificationTemplateParameter },
  parameters: [
    ...ROUTE_KEY_PARAMS,
    {
      name: 'cultureKey',
      in: 'query',
      required: true,
      description: 'Culture of the formatted values (en-US, pt-PT, ...)',
      schema: { json: { type: 'string' } },
    },
  ],
  responses: {
    200: {
      description: 'The placeholders of the template and their values',
      schema: v.array(RouteMaintenanceNotificationTemplateParameter) as AnySchema,
    },
    400: { description: 'Not valid: missing or unknown cultureKey, or no such route (RecordNotFound)' },
  },
};

/** `value` holds keys or ids; bare array or `{"value": [...], "customAttributes": {...}}` (CONTRACT 4). */
export function describeMembership(by: 'key' | 'id'): Parts {
  const item = by === 'key' ? v.pipe(v.string(), v.minLength(1), v.maxLength(100)) : v.pipe(v.string(), v.uuid());
  const list = v.pipe(v.array(item), v.maxLength(MAX_MEMBERS_PER_REQUEST)) as AnySchema;
  return {
    parameters: [
      { name: 'routeKey', in: 'path', description: 'Key of the route', schema: { json: { type: 'string' } } },
      {
        name: 'companyKey',
        in: 'query',
        description: 'Company of the route: needed when two companies have a route with this routeKey',
        schema: { json: { type: 'string' } },
      },
    ],
    requestBody: {
      description: `The members' ${by === 'key' ? 'keys' : 'identifiers'}: a bare array, or {"value": [...], "customAttributes": {...}}`,
      schema: v.union([
        list,
        v.strictObject({ value: list, customAttributes: v.optional(v.nullable(v.record(v.string(), v.unknown()))) }),
      ]) as AnySchema,
    },
    responses: {
      200: {
        description: 'Done (empty body); all-or-nothing; adding a member twice or removing a non-member changes nothing',
        headers: ['ETag'],
      },
      400: { description: 'Not valid: unknown keys or ids (UnknownReference), members of another company, an unknown or ambiguous route' },
    },
  };
}
