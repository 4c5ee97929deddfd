/** The application: every public and API route behind one router (the Worker, the Deno server and tests share it). */
import { publicRoutes } from './health';
import { buildApp } from './http/app';
import { apiRoutes } from './services/registry';

export const app = buildApp(publicRoutes, apiRoutes);
