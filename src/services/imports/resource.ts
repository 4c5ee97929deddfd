/** Stored import rows -> ImportDataInfoResource (enums as numbers, date-times as ISO 8601 UTC). */
import type { ImportRow } from './table';

export interface ImportDataInfoResource {
  readonly id: string;
  readonly key: number;
  readonly importDataTemplate: string;
  readonly originalFileName: string | null;
  readonly cloudFileName: string | null;
  readonly importDataState: number;
  readonly importName: string | null;
  readonly detailLog: string | null;
  readonly error: string | null;
  readonly lastProgressUpdateOn: string | null;
  readonly drillDownOperation: string | null;
  readonly reverted: boolean;
  readonly createdOn: string;
  readonly createdBy: string;
  readonly modifiedOn: string;
  readonly modifiedBy: string;
  readonly version: number;
}

export function toImportResource(row: ImportRow): ImportDataInfoResource {
  return {
    id: row.id,
    key: row.key,
    importDataTemplate: row.importDataTemplate,
    originalFileName: row.originalFileName,
    cloudFileName: row.cloudFileName,
    importDataState: row.importDataState,
    importName: row.importName,
    detailLog: row.detailLog,
    error: row.error,
    lastProgressUpdateOn: row.lastProgressUpdateOn,
    drillDownOperation: row.drillDownOperation,
    reverted: row.reverted,
    createdOn: row.createdOn,
    createdBy: row.createdBy,
    modifiedOn: row.modifiedOn,
    modifiedBy: row.modifiedBy,
    version: row.version,
  };
}
