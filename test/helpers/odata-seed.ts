/** Seeds email templates straight into D1 with fixed ids and timestamps, so OData answers are exact. */
import { openTenantD1 } from './tenant-db';

/** An OData list answer as the tests read it. */
export interface ODataPage {
  items: Record<string, unknown>[];
  count?: number;
  nextPageLink?: string;
}

export interface SeedTemplate {
  readonly id: string;
  readonly templateKey: string;
  readonly subject: string;
  readonly emailTemplateType: number;
  readonly culture: string;
  readonly description: string | null;
  readonly isActive: boolean;
  readonly createdOn: string;
  readonly modifiedOn: string;
  readonly version: number;
  readonly createdBy: string;
}

const INSERT = `INSERT INTO email_templates (id, tenant_key, org_key, template_key, subject, email_template_type, notification_body,
  culture, description, custom_attributes, is_active, version, created_on, created_by, modified_on, modified_by)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?)`;

/** One statement per row (16 parameters each), all in one batch. */
export async function seedTemplates(tenant: string, org: string, rows: readonly SeedTemplate[]): Promise<void> {
  const db = await openTenantD1({ tenantKey: tenant, orgKey: org });
  const statements = rows.map((row) =>
    db
      .prepare(INSERT)
      .bind(
        row.id,
        tenant,
        org,
        row.templateKey,
        row.subject,
        row.emailTemplateType,
        `<p>${row.subject}</p>`,
        row.culture,
        row.description,
        row.isActive ? 1 : 0,
        row.version,
        row.createdOn,
        row.createdBy,
        row.modifiedOn,
        row.createdBy,
      ),
  );
  await db.batch(statements);
}

/** Removes what `seedTemplates` wrote for the tenant/org (seeded ids are fixed, so each test clears its own rows). */
export async function clearTemplates(tenant: string, org: string): Promise<void> {
  const db = await openTenantD1({ tenantKey: tenant, orgKey: org });
  await db.prepare('DELETE FROM email_templates WHERE tenant_key = ? AND org_key = ?').bind(tenant, org).run();
}

/** A lowercase GUID whose last group is `n` in hex, so the id order is known. */
export function seedId(group: string, n: number): string {
  return `00000000-0000-4000-${group}-${n.toString(16).padStart(12, '0')}`;
}
