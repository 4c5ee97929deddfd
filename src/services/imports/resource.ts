/** Stored import rows -> ImportDataInfoResource (enums as numbers, date-times as ISO 8601 UTC). */
import { FILE_FORMATS } from './files/format';
import type { FileFormat } from './files/format';
import type { ImportRow } from './table';

const MODES = ['create', 'upsert'] as const;

function readFormat(value: string | null): FileFormat | null {
  return FILE_FORMATS.find((format) => format === value) ?? null;
}

function readMode(value: string | null): (typeof MODES)[number] | null {
  return MODES.find((mode) => mode === value) ?? null;
}

interface ImportDataInfoResource {
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
  /** File imports only (null for imports a third party performs): csv | ndjson | json | xlsx. */
  readonly fileFormat: FileFormat | null;
  readonly mode: (typeof MODES)[number] | null;
  readonly dryRun: boolean | null;
  readonly failOnErrors: boolean | null;
  readonly rowsRead: number | null;
  readonly rowsCreated: number | null;
  readonly rowsUpdated: number | null;
  readonly rowsFailed: number | null;
  /** The undo of what the file import wrote (1 Undoing, 2 Undone), and the records it deleted or restored so far. */
  readonly undoState: number | null;
  readonly rowsUndone: number | null;
  /** A revert's outcome once its undo is done (the RevertImport the request used to answer). */
  readonly revertResult: { readonly revertedTypeMessage: number; readonly message: string } | null;
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
    fileFormat: readFormat(row.fileFormat),
    mode: readMode(row.importMode),
    dryRun: row.dryRun,
    failOnErrors: row.failOnErrors,
    rowsRead: row.rowsRead,
    rowsCreated: row.rowsCreated,
    rowsUpdated: row.rowsUpdated,
    rowsFailed: row.rowsFailed,
    undoState: row.undoState,
    rowsUndone: row.rowsUndone,
    revertResult:
      row.revertMessageType !== null && row.revertMessage !== null
        ? { revertedTypeMessage: row.revertMessageType, message: row.revertMessage }
        : null,
    createdOn: row.createdOn,
    createdBy: row.createdBy,
    modifiedOn: row.modifiedOn,
    modifiedBy: row.modifiedBy,
    version: row.version,
  };
}
