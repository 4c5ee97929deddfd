/**
 * Compile-time tests of typed answers (src/http/answer.ts), checked by `npm run typecheck`: a handler that answers a
 * property its route's documented schema does not have, a mistyped property, or an undocumented status, does not
 * compile. Each `@ts-expect-error` fails the typecheck if the line below it compiles.
 */
import * as v from 'valibot';
import type { ApiContext } from '../../src/http/context';
import { createdResponse, emptyResponse, jsonResponse } from '../../src/http/responses';
import { defineApiRoute } from '../../src/http/route';
import type { ApiRoute } from '../../src/http/route';

const Line = v.strictObject({ key: v.string(), rate: v.nullable(v.number()) });
const Thing = v.strictObject({
  id: v.string(),
  note: v.optional(v.string()),
  owner: v.nullable(v.strictObject({ name: v.string() })),
  lines: v.array(Line),
});
const Other = v.strictObject({ id: v.string(), extra: v.number() });
const thing = { id: 'a', owner: null, lines: [] };

const responses = { 200: { description: 'The thing', schema: Thing }, 204: { description: 'Nothing' }, 404: { description: 'Missing' } };
const route = (handle: (ctx: ApiContext) => Promise<unknown>) => ({
  method: 'GET' as const,
  path: '/x',
  scope: 'application' as const,
  handle,
});
const doc = { summary: 'x', operationId: 'x', tags: [], responses };

export const typedAnswerRoutes: ApiRoute[] = [
  // The documented answer, with or without its optional property, and the documented empty answer.
  defineApiRoute({ ...route(async () => null), doc, handle: async () => jsonResponse(Thing, { ...thing, note: 'n' }) }),
  defineApiRoute({ ...route(async () => null), doc, handle: async () => jsonResponse(Thing, thing) }),
  defineApiRoute({ ...route(async () => null), doc, handle: async () => emptyResponse(204) }),
  defineApiRoute({
    ...route(async () => null),
    doc,
    // @ts-expect-error a property the schema does not have (a fresh object literal)
    handle: async () => jsonResponse(Thing, { ...thing, extra: 1 }),
  }),
  defineApiRoute({
    ...route(async () => null),
    doc,
    handle: async () => {
      const body = { ...thing, extra: 1 };
      // @ts-expect-error a property the schema does not have (a variable, no excess-property check of TypeScript's)
      return jsonResponse(Thing, body);
    },
  }),
  defineApiRoute({
    ...route(async () => null),
    doc,
    handle: async () => {
      const body = { ...thing, owner: { name: 'n', since: 2020 } };
      // @ts-expect-error an extra property of a nested (nullable) object
      return jsonResponse(Thing, body);
    },
  }),
  defineApiRoute({
    ...route(async () => null),
    doc,
    handle: async () => {
      const body = { ...thing, lines: [{ key: 'k', rate: 1, comment: 'c' }] };
      // @ts-expect-error an extra property of an array item
      return jsonResponse(Thing, body);
    },
  }),
  defineApiRoute({
    ...route(async () => null),
    doc,
    // @ts-expect-error a mistyped property
    handle: async () => jsonResponse(Thing, { ...thing, id: 1 }),
  }),
  defineApiRoute({
    ...route(async () => null),
    doc,
    // @ts-expect-error a missing required property
    handle: async () => jsonResponse(Thing, { id: 'a', owner: null }),
  }),
  defineApiRoute({
    ...route(async () => null),
    doc,
    // @ts-expect-error another schema than the documented one (even a valid body of it)
    handle: async () => jsonResponse(Other, { id: 'a', extra: 1 }),
  }),
  defineApiRoute({
    ...route(async () => null),
    doc,
    // @ts-expect-error a status the route does not document
    handle: async () => createdResponse('a', '/x/a'),
  }),
  defineApiRoute({
    ...route(async () => null),
    doc,
    // @ts-expect-error the documented body under another status
    handle: async () => jsonResponse(Thing, thing, { status: 201 }),
  }),
  defineApiRoute({
    ...route(async () => null),
    doc,
    // @ts-expect-error an error status is thrown (ApiError), never answered
    handle: async () => jsonResponse(Thing, thing, { status: 404 }),
  }),
  // @ts-expect-error a route not made by defineApiRoute (its answers would be unchecked)
  { ...route(async () => null), doc, handle: async () => jsonResponse(Thing, thing) },
];
