/**
 * `entity_counts` (migration 0008): each entity table's row count per tenant/org, kept by an insert and a delete
 * trigger in the same statement as the write. `backfill` counts the rows a table has when its triggers first appear.
 */
import type { EntitySpec } from '../entities/spec';
import { quote, renderAfterTrigger } from './sql';

const COUNTS = '`entity_counts` (`tenant_key`, `org_key`, `entity`, `rows`)';

export function renderCountTriggers(spec: EntitySpec): string[] {
  const entity = `'${spec.table}'`;
  return [
    renderAfterTrigger(`${spec.table}_count_insert`, 'INSERT', spec.table, [
      `INSERT INTO ${COUNTS} VALUES (NEW.\`tenant_key\`, NEW.\`org_key\`, ${entity}, 1)`,
      'ON CONFLICT (`tenant_key`, `org_key`, `entity`) DO UPDATE SET `rows` = `rows` + 1;',
    ]),
    renderAfterTrigger(`${spec.table}_count_delete`, 'DELETE', spec.table, [
      `UPDATE \`entity_counts\` SET \`rows\` = \`rows\` - 1 WHERE \`tenant_key\` = OLD.\`tenant_key\` AND \`org_key\` = OLD.\`org_key\` AND \`entity\` = ${entity};`,
    ]),
  ];
}

/** Counts the rows `spec`'s table already has (run once, with the first creation of its count triggers). */
export function renderCountBackfill(spec: EntitySpec): string {
  return `INSERT INTO ${COUNTS} SELECT \`tenant_key\`, \`org_key\`, '${spec.table}', count(*) FROM ${quote(spec.table)} GROUP BY \`tenant_key\`, \`org_key\`;`;
}
