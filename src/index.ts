/** The Worker: `fetch` (router), `scheduled` (cron) and the per-tenant/org Durable Object. */
import { app } from './app';
import { buildWorkerPlatform, defineTenantCoordinator } from './platform/cloudflare';
import { runScheduledJobs } from './jobs/scheduler';
import { commandHandlers, scheduledJobs } from './services/registry';
import { TENANT_TABLES } from './tenant-tables';

/** The per-tenant/org Durable Object (binding COORDINATOR). */
export class TenantCoordinator extends defineTenantCoordinator(commandHandlers, TENANT_TABLES) {}

export default {
  fetch(request, env, ctx) {
    return app.fetch(request, buildWorkerPlatform(env, ctx, TENANT_TABLES));
  },
  scheduled(_controller, env, ctx) {
    ctx.waitUntil(runScheduledJobs(buildWorkerPlatform(env, ctx, TENANT_TABLES), scheduledJobs));
  },
} satisfies ExportedHandler<Env>;
