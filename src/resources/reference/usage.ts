/** Who uses a reference record: a delete is refused (400 ReferenceInUse) while something still does. */
import { and, eq, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Database, TenantScope } from '../../db/client';
import { runReads } from '../../db/reads';
import { ApiError } from '../../errors/api-error';
import { listReferenceFields } from '../../model/fields';
import type { ReferenceKindSpec } from './spec';
import { tenantReferenceStores } from './tables';
import { message } from '../../messages/catalogue';
import type { GroupOverlay } from '../../tenant/atomic-group';

/** A column that holds keys of a reference kind. `list` columns hold a JSON array of keys. */
export interface ReferenceUser {
  readonly kind: string;
  readonly name: string;
  readonly table: SQLiteTable;
  readonly column: SQLiteColumn;
  readonly tenantKey: SQLiteColumn;
  readonly orgKey: SQLiteColumn;
  readonly list?: boolean;
  /** Names the using record in the error (e.g. its natural key); evaluated on `table`. */
  readonly label?: SQL;
  /**
   * In an atomic group of `$batch`: the labels of the uses the group's writes leave, from the stored ones (`id`
   * evaluated on `table` -> label) and the group's overlay. Without it, a group is checked on the stored uses (the
   * database's rule refuses the group's batch for a use the group itself wrote).
   */
  readonly group?: {
    readonly id: SQLiteColumn;
    uses(overlay: GroupOverlay, key: string, stored: ReadonlyMap<string, string>): string[];
  };
}

/** How many stored uses a group's check reads per user (to tell which ones the group removed). */
const GROUP_USES_READ = 100;

function labelOf(value: unknown): string {
  return value === null || value === undefined || value === '' ? '' : ` (${String(value)})`;
}

export async function checkReferenceUnused(
  db: Database,
  scope: TenantScope,
  spec: ReferenceKindSpec,
  key: string,
  users: readonly ReferenceUser[],
  overlay?: GroupOverlay,
): Promise<void> {
  const relevant = users.filter((user) => user.kind === spec.name);
  if (relevant.length === 0) return;
  const queries = relevant.map((user) => {
    const match = user.list ? sql`EXISTS (SELECT 1 FROM json_each(${user.column}) WHERE json_each.value = ${key})` : eq(user.column, key);
    const grouped = overlay !== undefined && user.group !== undefined;
    return db
      .select({ label: user.label ?? sql`''`, id: grouped && user.group ? sql<string>`${user.group.id}` : sql<string>`''` })
      .from(user.table)
      .where(and(eq(user.tenantKey, scope.tenantKey), eq(user.orgKey, scope.orgKey), match))
      .limit(grouped ? GROUP_USES_READ : 1);
  });
  const results = await runReads(db, queries);
  const usedBy = relevant.flatMap((user, index) => {
    const rows = results[index] ?? [];
    if (overlay && user.group) {
      const stored = new Map(rows.map((row) => [String(row.id), String(row.label ?? '')]));
      const [label] = user.group.uses(overlay, key, stored);
      return label === undefined ? [] : [`${user.name}${labelOf(label)}`];
    }
    const row = rows[0];
    return row ? [`${user.name}${labelOf(row.label)}`] : [];
  });
  if (usedBy.length > 0) {
    throw new ApiError('ReferenceInUse', `${spec.name} '${key}' is still used by ${usedBy.join(', ')}.`, {
      errors: usedBy.map((user) => ({ path: 'key', message: message('referenceInUse', { user }) })),
    });
  }
}

/** The kinds' own columns that hold keys of another kind (`locations.company`, `workerConfigurations.codes`, ...). */
export function listKindReferenceUsers(): ReferenceUser[] {
  return [...tenantReferenceStores.values()].flatMap(({ spec, table, common, columns }) =>
    listReferenceFields(spec.fields).flatMap(({ name, kind, list }): ReferenceUser[] => {
      const column = columns[name];
      if (!column) return [];
      return [
        {
          kind,
          name: `${spec.name}.${name}`,
          table,
          column,
          tenantKey: common.tenantKey,
          orgKey: common.orgKey,
          label: sql`${common.key}`,
          ...(list ? { list: true } : {}),
        },
      ];
    }),
  );
}
