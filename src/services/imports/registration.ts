/** The registration of an import: its row (the next key of the tenant/org), its first history entry and its event. */
import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import type { TenantScope } from '../../db/client';
import { sqlBuilder } from '../../db/sql';
import type { AuditStamp } from '../../resources/entities/store';
import { bindCompiled, bindRequestQuery, bindRequestStatement } from '../../tenant/compiled';
import { rowsOf } from '../../tenant/unit-of-work';
import type { StagedWrite } from '../../tenant/unit-of-work';
import { PENDING } from './states';
import { describeImportEvent, importsOf } from './store';
import type { ChangeOrigin, NewImport } from './store';
import { importDataInfoChanges, importDataInfos } from './table';
import type { ImportRow } from './table';

/** The insert of a Pending import, its key the tenant/org's next (computed by the INSERT itself). */
function buildImportInsert(scope: TenantScope, input: NewImport, stamp: AuditStamp) {
  const t = importDataInfos;
  const literal = <T>(value: T, name: string) => sql<T>`${value}`.as(name);
  return sqlBuilder.insert(t).select((qb) =>
    qb
      .select({
        id: literal(input.id, 'id'),
        tenantKey: literal(scope.tenantKey, 'tenant_key'),
        orgKey: literal(scope.orgKey, 'org_key'),
        key: sql<number>`COALESCE(MAX(${t.key}), 0) + 1`.as('key'),
        importDataTemplate: literal(input.importDataTemplate, 'import_data_template'),
        originalFileName: literal(input.originalFileName, 'original_file_name'),
        cloudFileName: literal(input.cloudFileName, 'cloud_file_name'),
        importDataState: literal(PENDING, 'import_data_state'),
        importName: literal(input.importName, 'import_name'),
        detailLog: sql<null>`NULL`.as('detail_log'),
        error: sql<null>`NULL`.as('error'),
        lastProgressUpdateOn: sql<null>`NULL`.as('last_progress_update_on'),
        drillDownOperation: sql<null>`NULL`.as('drill_down_operation'),
        reverted: sql<number>`0`.as('reverted'),
        fileFormat: literal(input.file?.format ?? null, 'file_format'),
        importMode: literal(input.file?.mode ?? null, 'import_mode'),
        dryRun: literal(input.file ? Number(input.file.dryRun) : null, 'dry_run'),
        failOnErrors: literal(input.file ? Number(input.file.failOnErrors) : null, 'fail_on_errors'),
        rowsRead: literal(input.file ? 0 : null, 'rows_read'),
        rowsCreated: literal(input.file ? 0 : null, 'rows_created'),
        rowsUpdated: literal(input.file ? 0 : null, 'rows_updated'),
        rowsFailed: literal(input.file ? 0 : null, 'rows_failed'),
        undoState: sql<null>`NULL`.as('undo_state'),
        rowsUndone: sql<null>`NULL`.as('rows_undone'),
        revertMessageType: sql<null>`NULL`.as('revert_message_type'),
        revertMessage: sql<null>`NULL`.as('revert_message'),
        version: sql<number>`1`.as('version'),
        createdOn: literal(stamp.on, 'created_on'),
        createdBy: literal(stamp.by, 'created_by'),
        modifiedOn: literal(stamp.on, 'modified_on'),
        modifiedBy: literal(stamp.by, 'modified_by'),
      })
      .from(t)
      .where(importsOf(scope)),
  );
}

/**
 * A Pending import with the next key of the tenant/org and its first history entry, staged in a unit of work (one
 * transaction with its batch) with its `created` event; its result is the key taken. The key is computed inside the
 * INSERT itself, so two writers can never take the same one; the unique index (tenant_key, org_key, key) would refuse
 * it anyway.
 */
export function stageImportRegistration(input: NewImport, origin: ChangeOrigin): StagedWrite<ImportRow> {
  return {
    plan({ scope, stamp }) {
      const t = importDataInfos;
      const insertRow = buildImportInsert(scope, input, stamp);
      const insertChange = sqlBuilder.insert(importDataInfoChanges).values({
        id: crypto.randomUUID(),
        tenantKey: scope.tenantKey,
        orgKey: scope.orgKey,
        importId: input.id,
        seq: 1,
        kind: 'register',
        fromState: null,
        toState: PENDING,
        commandId: origin.commandId,
        requestId: origin.requestId,
        changedOn: stamp.on,
        changedBy: stamp.by,
      });
      // The stored row, read in the same batch (its key is the database's): no read after the commit.
      const returned = getTableColumns(t);
      const selectKey = bindRequestQuery(
        sqlBuilder
          .select(returned)
          .from(t)
          .where(and(importsOf(scope), eq(t.id, input.id))),
        returned,
      );
      const event = describeImportEvent(
        { changeType: 'created', changes: JSON.stringify({ toState: PENDING }) },
        and(importsOf(scope), eq(t.id, input.id)),
      );
      return {
        table: 'import_data_infos',
        statements: [
          { statement: bindCompiled(bindRequestStatement(insertRow), {}) },
          { statement: bindCompiled(bindRequestStatement(insertChange), {}) },
          { event },
          { statement: selectKey },
        ],
        settle: ([, , , rows]) => {
          const row = rowsOf(selectKey, rows)[0];
          if (row === undefined) throw new Error(`Import ${input.id} was not stored.`);
          return row;
        },
      };
    },
  };
}
