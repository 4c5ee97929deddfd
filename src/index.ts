/** The Worker: `fetch` (router), `scheduled` (cron) and the per-tenant/org Durable Object. */
import { buildApp } from './http/app';
import { publicRoutes } from './health';
import { buildWorkerPlatform, defineTenantCoordinator } from './platform/cloudflare';
import { runScheduledJobs } from './scheduler';
import { scheduledJobs } from './services/jobs';
import { apiRoutes, commandHandlers } from './services/registry';
import { operatorRoutes } from './admin/routes';

/** The per-tenant/org Durable Object (binding COORDINATOR). */
export class TenantCoordinator extends defineTenantCoordinator(commandHandlers) {}

export const app = buildApp(publicRoutes, apiRoutes, operatorRoutes);

export default {
  fetch(request, env, ctx) {
    return app.fetch(request, buildWorkerPlatform(env, ctx));
  },
  scheduled(_controller, env, ctx) {
    ctx.waitUntil(runScheduledJobs(buildWorkerPlatform(env, ctx), scheduledJobs));
  },
} satisfies ExportedHandler<Env>;
