/** Helpers of the snapshot and restore tests: the restored rows of a tenant/org, moments of its history, jobs to follow. */
import { expect } from 'vitest';
import type { TenantScope } from '../../src/db/client';
import { listIdColumns } from '../../src/tenant/backup/row-ids';
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

const GUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** A GUID as a copy's id mapping (src/tenant/backup/row-ids.ts, bound text) maps it: digit by digit, read from the text. */
function mapGuid(guid: string, mapping: string): string {
  let digit = 0;
  return [...guid].map((char) => (char === '-' ? char : (mapping[digit++ * 16 + '0123456789abcdef'.indexOf(char)] ?? '?'))).join('');
}

/**
 * `readRestoredRows` of a source as a copy into another tenant/org must read: the row ids each table's id columns hold
 * (its own `id`, foreign keys, the import ledger's lists) mapped by the target's mapping, every other value as it is.
 */
export function mapRestoredRows(rows: Record<string, string[]>, mapping: string): Record<string, string[]> {
  const tables = new Map(listRestoredTables(TENANT_TABLES).map((table) => [table.name, listIdColumns(table)]));
  return Object.fromEntries(
    Object.entries(rows).map(([name, texts]) => {
      const ids = tables.get(name) ?? new Map<string, string>();
      const mapped = texts.map((text) => {
        const row = JSON.parse(text) as Record<string, unknown>;
        for (const column of ids.keys())
          if (typeof row[column] === 'string') row[column] = row[column].replace(GUID, (guid) => mapGuid(guid, mapping));
        return JSON.stringify(row);
      });
      return [name, mapped.sort()];
    }),
  );
}

/** The ids of a tenant/org's rows in the tables keyed by a text `id`. */
export async function readRowIds(db: D1Database, scope: TenantScope): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const table of listRestoredTables(TENANT_TABLES).filter((entry) => listIdColumns(entry).get('id') === 'id')) {
    const { results } = await db
      .prepare(`SELECT id FROM "${table.name}" WHERE tenant_key = ? AND org_key = ?`)
      .bind(scope.tenantKey, scope.orgKey)
      .all<{ id: string }>();
    for (const row of results) ids.add(row.id);
  }
  return ids;
}
