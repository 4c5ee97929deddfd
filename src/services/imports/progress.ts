/** What the steps of a file import share: opening its job, and reporting progress through its coordinator. */
import { callWithRetries, isRetryableCoordinatorError } from '../../coordinator/retry';
import type { ImportTemplate } from '../../resources/entities/import-template';
import type { ImportJob, Platform } from '../../runtime/platform';
import { openTenantSession } from '../../tenant/session';
import type { ImportProgress, ProgressOutcome } from './commands';
import type { ImportCounts } from './ledger-entry';
import { findImport } from './store';

export async function sendProgress(platform: Platform, job: ImportJob, progress: ImportProgress): Promise<ProgressOutcome> {
  const coordinator = platform.coordinator(job);
  return callWithRetries(
    () =>
      coordinator.send({
        type: 'imports.progress',
        tenantKey: job.tenantKey,
        orgKey: job.orgKey,
        commandId: crypto.randomUUID(),
        requestId: `import:${job.importId}`,
        by: job.by,
        progress,
      }),
    isRetryableCoordinatorError,
  );
}

export function describeCounts(counts: ImportCounts, dryRun: boolean): string {
  if (dryRun)
    return `Dry run: ${counts.rowsRead} rows read, ${counts.rowsRead - counts.rowsFailed} valid, ${counts.rowsFailed} failed; nothing written.`;
  return `${counts.rowsRead} rows read: ${counts.rowsCreated} created, ${counts.rowsUpdated} updated, ${counts.rowsFailed} failed.`;
}

/** The import's row and template, and a session of its tenant/org stamped now by the uploader. */
export async function openJob(platform: Platform, templates: readonly ImportTemplate[], job: ImportJob) {
  const unit = openTenantSession({ executor: platform.openTenant(job), stamp: { on: platform.now().toISOString(), by: job.by } });
  const row = await findImport(unit, job.importId);
  const template = templates.find((item) => item.name === row?.importDataTemplate);
  return { unit, row, template };
}
