/** D1 storage of imports: every statement is scoped by tenant and org. */
import { and, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { scopeCondition } from '../../db/client';
import type { TenantScope } from '../../db/client';
import { sqlBuilder } from '../../db/sql';
import type { TenantReader } from '../../tenant/session';
import type { EventFields } from '../../events/outbox';
import { bindCompiled, bindRequestQuery, bindRequestStatement } from '../../tenant/compiled';
import { rowsOf } from '../../tenant/unit-of-work';
import type { StagedWrite } from '../../tenant/unit-of-work';
import { SUCCEEDED } from './states';
import type { ImportState } from './states';
import { importDataInfoChanges, importDataInfos } from './table';
import type { ImportChangeRow, ImportRow } from './table';

/** Who asked for a change: the coordinator command id (idempotency) and the request id (tracing). */
export interface ChangeOrigin {
  readonly commandId: string;
  readonly requestId: string;
}

export interface NewImport {
  readonly id: string;
  readonly importDataTemplate: string;
  readonly originalFileName: string | null;
  readonly importName: string | null;
  readonly cloudFileName: string | null;
  /** A file import (POST /files): how to process the stored file; its counts start at 0. Absent: a third party's import. */
  readonly file?: ImportFileOptions;
}

/** How a stored file is imported. */
interface ImportFileOptions {
  readonly format: string;
  readonly mode: string;
  readonly dryRun: boolean;
  readonly failOnErrors: boolean;
}

type ChangeKind = 'change' | 'expire' | 'revert' | 'undo';

/** The change feed's resource of imports. */
const IMPORTS_RESOURCE = 'corePatterns/importDataInfos';

/** An import's event, selected from its row (after the write: its new version and key): its fields and rows. */
export function describeImportEvent(
  fields: Pick<EventFields, 'changeType' | 'changes'>,
  where: SQL | undefined,
): { fields: EventFields; from: SQL } {
  const t = importDataInfos;
  return {
    fields: { resource: IMPORTS_RESOURCE, recordId: sql`${t.id}`, key: sql`${t.key}`, version: sql`${t.version}`, ...fields },
    from: sql`from ${t} where ${where}`,
  };
}

/** Columns a change may set besides the state, version and audit fields. */
export type ImportPatch = Partial<Pick<ImportRow, PatchedText | 'lastProgressUpdateOn' | 'reverted' | CountField | UndoField>>;

type PatchedText = 'cloudFileName' | 'detailLog' | 'error' | 'drillDownOperation';
/** A file import's counts (src/services/imports/ledger-entry.ts). */
type CountField = 'rowsRead' | 'rowsCreated' | 'rowsUpdated' | 'rowsFailed';
/** The undo of a file import's writes (revert, cancel, failOnErrors, Fatal) and a revert's outcome. */
type UndoField = 'undoState' | 'rowsUndone' | 'revertMessageType' | 'revertMessage';

export function importsOf(scope: TenantScope): SQL | undefined {
  return scopeCondition(importDataInfos, scope);
}

/** The query of one import of the tenant/org (batchable). */
function selectImport(scope: TenantScope, id: string) {
  return sqlBuilder
    .select()
    .from(importDataInfos)
    .where(and(importsOf(scope), eq(importDataInfos.id, id)))
    .limit(1);
}

export async function findImport(tenant: TenantReader, id: string): Promise<ImportRow | undefined> {
  const [row] = await tenant.read(selectImport(tenant.scope, id));
  return row;
}

/** The query of the tenant/org's imports where every condition holds, newest (highest key) first. */
function selectNewestImports(scope: TenantScope, ...conditions: SQL[]) {
  return sqlBuilder
    .select()
    .from(importDataInfos)
    .where(and(importsOf(scope), ...conditions))
    .orderBy(desc(importDataInfos.key));
}

/** A template's imports, newest (highest key) first. */
export async function listLastImports(tenant: TenantReader, template: string, top: number): Promise<ImportRow[]> {
  return tenant.read(selectNewestImports(tenant.scope, eq(importDataInfos.importDataTemplate, template)).limit(top));
}

/** The latest Succeeded import of a template that is not reverted yet. */
export async function findRevertCandidate(tenant: TenantReader, template: string): Promise<ImportRow | undefined> {
  const t = importDataInfos;
  const conditions = [eq(t.importDataTemplate, template), eq(t.importDataState, SUCCEEDED), eq(t.reverted, false)];
  const [row] = await tenant.read(selectNewestImports(tenant.scope, ...conditions).limit(1));
  return row;
}

/** The history entry of `commandId` (a replayed command finds the entry its first run wrote). */
function changeOfCommand(scope: TenantScope, commandId: string) {
  return and(
    eq(importDataInfoChanges.tenantKey, scope.tenantKey),
    eq(importDataInfoChanges.orgKey, scope.orgKey),
    eq(importDataInfoChanges.commandId, commandId),
  );
}

/** The import and whether `commandId` was already applied, in one D1 round trip (one batch). */
export async function findImportForChange(
  tenant: TenantReader,
  id: string,
  commandId: string,
): Promise<{ row: ImportRow | undefined; replayed: boolean }> {
  const { scope } = tenant;
  const [rows, changes] = await tenant.readBatch([
    selectImport(scope, id),
    sqlBuilder.select({ id: importDataInfoChanges.id }).from(importDataInfoChanges).where(changeOfCommand(scope, commandId)).limit(1),
  ]);
  return { row: rows[0], replayed: changes.length > 0 };
}

/** The history entry a command wrote, if it already ran (a replayed command). */
export async function findChangeByCommand(tenant: TenantReader, commandId: string): Promise<ImportChangeRow | undefined> {
  const rows = await tenant.read(sqlBuilder.select().from(importDataInfoChanges).where(changeOfCommand(tenant.scope, commandId)).limit(1));
  return rows[0];
}

export interface ChangeRequest {
  readonly kind: ChangeKind;
  readonly toState: ImportState;
  readonly patch: ImportPatch;
}

/**
 * One change of an import read at `current.version`, staged in a unit of work (one transaction with its batch): the
 * history entry (seq = version + 1), the row update, both conditional on that version, and its event. Its result is
 * the new row, or undefined when the row moved on meanwhile (then none of its statements wrote anything).
 */
export function stageImportChange(current: ImportRow, change: ChangeRequest, origin: ChangeOrigin): StagedWrite<ImportRow | undefined> {
  return {
    plan({ scope, stamp }) {
      const t = importDataInfos;
      const h = importDataInfoChanges;
      const atVersion = and(importsOf(scope), eq(t.id, current.id), eq(t.version, current.version));
      const insertChange = sqlBuilder.insert(h).select((qb) =>
        qb
          .select({
            id: sql<string>`${crypto.randomUUID()}`.as('id'),
            tenantKey: t.tenantKey,
            orgKey: t.orgKey,
            importId: t.id,
            seq: sql<number>`${t.version} + 1`.as('seq'),
            kind: sql<string>`${change.kind}`.as('kind'),
            fromState: t.importDataState,
            toState: sql<number>`${change.toState}`.as('to_state'),
            commandId: sql<string>`${origin.commandId}`.as('command_id'),
            requestId: sql<string>`${origin.requestId}`.as('request_id'),
            changedOn: sql<string>`${stamp.on}`.as('changed_on'),
            changedBy: sql<string>`${stamp.by}`.as('changed_by'),
          })
          .from(t)
          .where(atVersion),
      );
      const columns = getTableColumns(t);
      const update = bindRequestQuery(
        sqlBuilder
          .update(t)
          .set({
            ...change.patch,
            importDataState: change.toState,
            version: sql`${t.version} + 1`,
            modifiedOn: stamp.on,
            modifiedBy: stamp.by,
          })
          .where(atVersion)
          .returning(columns),
        columns,
      );
      // The event follows the update: selected at the new version, it exists exactly when the update was made.
      const changes = sql`json_object('kind', ${change.kind}, 'fromState', ${current.importDataState}, 'toState', ${change.toState}, 'attributes', json(${JSON.stringify(Object.keys(change.patch))}))`;
      const event = describeImportEvent(
        { changeType: 'updated', changes },
        and(importsOf(scope), eq(t.id, current.id), eq(t.version, current.version + 1), eq(t.modifiedOn, stamp.on), sql`changes() > 0`),
      );
      return {
        table: 'import_data_infos',
        statements: [{ statement: bindCompiled(bindRequestStatement(insertChange), {}) }, { statement: update }, { event }],
        settle: ([, rows]) => rowsOf(update, rows)[0],
      };
    },
  };
}
