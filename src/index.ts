/** The Worker: `fetch` (router), `scheduled` (cron), `queue` (webhook deliveries), the per-tenant/org Durable Object and the import Workflow. */
import { app } from './app';
import { buildWorkerPlatform, defineTenantCoordinator } from './runtime/cloudflare/platform';
import { consumeDeliveryBatch } from './runtime/cloudflare/deliveries';
import { defineImportWorkflow } from './runtime/cloudflare/import-workflow';
import type { DeliveryMessage } from './runtime/platform';
import { backupJob } from './jobs/backups';
import { runScheduledJobs } from './jobs/scheduler';
import { commandHandlers, deliverSubscription, processImport, scheduledJobs } from './services/registry';
import { TENANT_MODEL } from './tenant-model';

/** The per-tenant/org Durable Object (binding COORDINATOR). */
export class TenantCoordinator extends defineTenantCoordinator(commandHandlers, TENANT_MODEL) {}

/** File imports' processing (binding IMPORT_WORKFLOW): durable steps over chunks of the stored file. */
export class ImportWorkflow extends defineImportWorkflow(processImport, (env, ctx) => buildWorkerPlatform(env, ctx, TENANT_MODEL)) {}

export default {
  fetch(request, env, ctx) {
    return app.fetch(request, buildWorkerPlatform(env, ctx, TENANT_MODEL));
  },
  /** The cron jobs, awaited: the invocation (and `wrangler dev`'s `GET /__scheduled`) ends when they have. */
  async scheduled(_controller, env, ctx) {
    await runScheduledJobs(buildWorkerPlatform(env, ctx, TENANT_MODEL), [...scheduledJobs, backupJob]);
  },
  /** Webhook deliveries (DELIVERY_QUEUE): one message per subscription with events to deliver. */
  async queue(batch, env, ctx) {
    await consumeDeliveryBatch(batch, buildWorkerPlatform(env, ctx, TENANT_MODEL), deliverSubscription);
  },
} satisfies ExportedHandler<Env, DeliveryMessage>;
