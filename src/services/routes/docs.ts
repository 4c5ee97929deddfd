/** OpenAPI documentation of the routes service's own operations and of what reads add (members, tools). */
import * as v from 'valibot';
import type { OperationDoc } from '../../http/route';
import type { EntityDocOptions } from '../../resources/entities/doc-schemas';
import { buildMembershipBodySchema } from './membership-body';
import type { MembershipBy } from './membership-body';
import { TEMPLATE_PARAMETER_NAMES } from './template-parameters';
import { TOOLS_SCHEMA } from './tools';
import { CREATE_MEMBERS_SCHEMA } from './create-members';

type Parts = Omit<OperationDoc, 'summary' | 'operationId'>;

/** A member as reads list it: `{id, key, description}`. */
const RouteMember = v.strictObject({ id: v.string(), key: v.string(), description: v.string() });
const members = (what: string) => v.pipe(v.array(RouteMember), v.description(`The route's ${what}, by key`));

export const routeEntityDoc: EntityDocOptions = {
  createName: 'ApiLocationRoutesResource',
  answerExtras: { locations: members('locations'), equipmentItems: members('equipment items'), tools: members('tools') },
  createExtras: { tools: TOOLS_SCHEMA, locations: CREATE_MEMBERS_SCHEMA, equipmentItems: CREATE_MEMBERS_SCHEMA },
  schemas: { RouteMember },
};

const RouteMaintenanceNotificationTemplateParameter = v.strictObject({
  name: v.picklist(TEMPLATE_PARAMETER_NAMES),
  value: v.nullable(v.string()),
});

const ROUTE_KEY_PARAMS = [
  { name: 'companyKey', in: 'path', description: 'Company of the route', schema: { json: { type: 'string' } } },
  { name: 'routeKey', in: 'path', description: 'Key of the route', schema: { json: { type: 'string' } } },
] as const;

export const notificationDoc = {
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
      schema: v.array(RouteMaintenanceNotificationTemplateParameter),
    },
    400: { description: 'Not valid: missing or unknown cultureKey, or no such route (RecordNotFound)' },
  },
} satisfies Parts;

/** `value` holds keys or ids; bare array or `{"value": [...], "customAttributes": {...}}`. */
export function describeMembership(by: MembershipBy) {
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
      schema: buildMembershipBodySchema(by),
    },
    responses: {
      200: {
        description: 'Done (empty body); all-or-nothing; adding a member twice or removing a non-member changes nothing',
        headers: ['ETag'],
      },
      400: { description: 'Not valid: unknown keys or ids (UnknownReference), members of another company, an unknown or ambiguous route' },
    },
  } satisfies Parts;
}
