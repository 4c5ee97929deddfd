/**
 * The application: every public, API and operator route behind one router, and the standard OData v4 service root
 * (the Worker, the Deno server and tests share it).
 */
import { operatorRoutes } from './admin/routes';
import { publicRoutes } from './health';
import { buildApp } from './http/app';
import { serviceRoot } from './odata-service/routes';
import { apiRoutes } from './services/registry';

export const app = buildApp(publicRoutes, apiRoutes, operatorRoutes, serviceRoot);
