/**
 * Which tenant tables the history records, snapshots hold and restores rebuild: every tenant/org table but the history
 * itself and the change feed (its events, retention mark, webhook subscriptions and deliveries describe the changes,
 * the restore included; they are never rolled back, so consumers' cursors stay valid).
 */
import type { TenantTable } from '../placement/tenant-tables';

const NOT_RESTORED = new Set([
  'tenant_history',
  'tenant_history_pruned',
  'tenant_backup_state',
  'change_events',
  'change_event_retention',
  'event_subscriptions',
  'event_deliveries',
]);

/** The restored tables of `tables` (parents first, as given). */
export function listRestoredTables(tables: readonly TenantTable[]): TenantTable[] {
  return tables.filter((table) => !NOT_RESTORED.has(table.name));
}

export { quoteName, renderImageJson, renderKeyJson } from '../placement/row-json';
