/** Public, unauthenticated routes: /health, /openapi.json, /docs and the OAuth2 token endpoint (/connect/token). */
import { definePublicRoute } from './http/route';
import type { PublicRoute } from './http/route';
import * as v from 'valibot';
import { jsonResponse } from './http/responses';
import { buildOpenApiRoutes } from './openapi/routes';
import { apiRoutes, servicePublicRoutes } from './services/registry';
import { operatorRoutes } from './admin/routes';

/** The answer of /health. */
const HEALTH = v.strictObject({ status: v.literal('ok') });

const healthRoute: PublicRoute = definePublicRoute({
  method: 'GET',
  path: '/health',
  doc: {
    summary: 'Liveness check (no token needed)',
    tags: ['Health'],
    operationId: 'readHealth',
    responses: {
      200: {
        description: 'The service is up',
        schema: HEALTH,
      },
    },
  },
  handle: () => jsonResponse(HEALTH, { status: 'ok' }),
});

export const publicRoutes: readonly PublicRoute[] = [
  healthRoute,
  ...servicePublicRoutes,
  ...buildOpenApiRoutes(() => ({ publicRoutes, apiRoutes, operatorRoutes })),
];
