/** Helpers of the import data info tests: registration, changes, and the stored history (read from D1). */
import { expect } from 'vitest';
import type { CallResult, TenantClient } from './api';
import { openTenantD1 } from './tenant-db';

export const IMPORTS = '/corePatterns/importDataInfos';

export interface ImportResource {
  id: string;
  key: number;
  importDataTemplate: string;
  originalFileName: string | null;
  cloudFileName: string | null;
  importDataState: number;
  importName: string | null;
  detailLog: string | null;
  error: string | null;
  lastProgressUpdateOn: string | null;
  drillDownOperation: string | null;
  reverted: boolean;
  version: number;
  modifiedOn: string;
}

export interface HistoryEntry {
  seq: number;
  kind: string;
  fromState: number | null;
  toState: number;
  requestId: string | null;
  changedOn: string;
}

export async function registerImport(client: TenantClient, body: Record<string, unknown> = {}): Promise<string> {
  const result = await client.call<string>('POST', IMPORTS, { body: { importDataTemplate: 'customers', ...body } });
  expect(result.status, result.text).toBe(201);
  return result.body;
}

export async function readImport(client: TenantClient, id: string): Promise<ImportResource> {
  const result = await client.call<ImportResource>('GET', `${IMPORTS}/${id}`);
  expect(result.status, result.text).toBe(200);
  return result.body;
}

export function changeImport(client: TenantClient, body: Record<string, unknown>, requestId?: string): Promise<CallResult> {
  return client.call('POST', `${IMPORTS}/changeDataImport`, { body, ...(requestId ? { headers: { 'x-request-id': requestId } } : {}) });
}

/** Drives a new import to `state` through allowed transitions. */
export async function registerImportIn(client: TenantClient, state: number, body: Record<string, unknown> = {}): Promise<string> {
  const id = await registerImport(client, body);
  const path: Record<number, number[]> = { 1: [], 2: [2], 3: [2, 3], 4: [4], 5: [5] };
  for (const next of path[state] ?? []) {
    const result = await changeImport(client, { importId: id, importDataState: next });
    expect(result.status, result.text).toBe(200);
  }
  return id;
}

/** The append-only history of one import, straight from D1. */
export async function readHistory(client: TenantClient, importId: string): Promise<HistoryEntry[]> {
  const db = await openTenantD1({ tenantKey: client.tenant, orgKey: client.org });
  const { results } = await db
    .prepare(
      `SELECT seq, kind, from_state AS fromState, to_state AS toState, request_id AS requestId, changed_on AS changedOn
     FROM import_data_info_changes WHERE tenant_key = ? AND org_key = ? AND import_id = ? ORDER BY seq`,
    )
    .bind(client.tenant, client.org, importId)
    .all<HistoryEntry>();
  return results;
}
