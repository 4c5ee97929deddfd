/** Helpers of the snapshot and restore tests: the restored rows of a tenant/org, moments of its history, jobs to follow. */
import { expect } from 'vitest';
import type { TenantScope } from '../../src/db/client';
import { listRestoredTables } from '../../src/tenant/backup/tables';
import { TENANT_TABLES } from '../../src/tenant-tables';
import { callAdmin } from './operator';

export interface JobBody {
  id: string;
  tenantKey: string;
  orgKey: string;
  kind: 'snapshot' | 'restore';
  state: 'running' | 'done' | 'failed';
  error: string | null;
  rows: number;
  asOf: string | null;
  seq: number | null;
  snapshot: string | null;
  method: 'changes' | 'rebuild' | null;
}

/**
 * Per restored table (and the maintained counts of `entity_counts`): the tenant/org's rows, each value as SQLite's
 * literal (`quote()`: type and value exact), its own tenant/org keys replaced by `@scope`, sorted (a restore may insert
 * rows in another order). Insertion-sequence ids are left out, as a move leaves them out.
 */
export async function readRestoredRows(db: D1Database, scope: TenantScope): Promise<Record<string, string[]>> {
  const rows: Record<string, string[]> = {};
  // A maintained count of 0 says the same as no count row.
  const counts = { name: 'entity_counts', columns: ['tenant_key', 'org_key', 'entity', 'rows'], where: ' AND "rows" <> 0' };
  const tables = [...listRestoredTables(TENANT_TABLES).map((table) => ({ ...table, where: '' })), counts];
  for (const table of tables) {
    const columns = table.columns.map((column) => `quote("${column}") AS "${column}"`).join(', ');
    const { results } = await db
      .prepare(`SELECT ${columns} FROM "${table.name}" WHERE tenant_key = ? AND org_key = ?${table.where}`)
      .bind(scope.tenantKey, scope.orgKey)
      .all<Record<string, unknown>>();
    const quotedTenant = `'${scope.tenantKey}'`;
    const quotedOrg = `'${scope.orgKey}'`;
    rows[table.name] = results
      .map((row) =>
        JSON.stringify({
          ...row,
          tenant_key: row.tenant_key === quotedTenant ? '@scope' : row.tenant_key,
          org_key: row.org_key === quotedOrg ? '@scope' : row.org_key,
        }),
      )
      .sort();
  }
  return rows;
}

/**
 * The moment of the tenant/org's last history entry, once the database clock has passed it: every write after this
 * call is recorded at a later moment (the clock is read again until it moved; no sleep).
 */
export async function passMoment(db: D1Database, scope: TenantScope): Promise<string> {
  const row = await db
    .prepare('SELECT max(recorded_on) AS at FROM tenant_history WHERE tenant_key = ? AND org_key = ?')
    .bind(scope.tenantKey, scope.orgKey)
    .first<{ at: string }>();
  const at = row?.at ?? '';
  for (let attempt = 0; attempt < 10_000; attempt += 1) {
    const now = await db.prepare("SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now') AS now").first<{ now: string }>();
    if ((now?.now ?? '') > at) return at;
  }
  throw new Error('The database clock did not move.');
}

/** Awaits a call and checks its status (the answer's text in the message). */
export async function expectStatus(promise: Promise<{ status: number; text: string }>, status: number): Promise<void> {
  const result = await promise;
  expect(result.status, result.text).toBe(status);
}

/** Follows a job's status resource until it is no longer running; answers its last status. */
export async function followJob(location: string | null): Promise<JobBody> {
  expect(location).not.toBeNull();
  const path = new URL(location ?? '').pathname;
  for (let attempt = 0; attempt < 5_000; attempt += 1) {
    const status = await callAdmin<JobBody>('GET', path);
    expect(status.status, status.text).toBe(200);
    if (status.body.state !== 'running') return status.body;
  }
  throw new Error(`${path} is still running.`);
}

export async function takeSnapshot(scope: TenantScope): Promise<JobBody> {
  const started = await callAdmin<JobBody>('POST', `/admin/placements/${scope.tenantKey}/${scope.orgKey}/snapshots`);
  expect(started.status, started.text).toBe(202);
  const done = await followJob(started.headers.get('location'));
  expect(done.state, done.error ?? '').toBe('done');
  return done;
}

export async function restore(scope: TenantScope, body: Record<string, unknown>): Promise<JobBody> {
  const started = await callAdmin<JobBody>('POST', `/admin/placements/${scope.tenantKey}/${scope.orgKey}/restore`, { body });
  expect(started.status, started.text).toBe(202);
  const done = await followJob(started.headers.get('location'));
  expect(done.state, done.error ?? '').toBe('done');
  return done;
}
