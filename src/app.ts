/**
 * The application: every public, API and operator route behind one router (the Worker, the Deno server and tests
 * share it).
 */
import { operatorRoutes } from './admin/routes';
import { publicRoutes } from './health';
import { buildApp } from './http/app';
import { apiRoutes } from './services/registry';

export const app = buildApp(publicRoutes, apiRoutes, operatorRoutes);
