/**
 * The outbox events of entity writes (created, updated, deleted), described from the entity's description; the unit
 * of work's commit path builds them (src/tenant/unit-of-work.ts).
 */
import { is, SQL, sql } from 'drizzle-orm';
import { requireColumn } from '../../db/client';
import { textPlaceholder } from '../../tenant/compiled';
import type { EventFields } from '../../events/outbox';
import type { ChangeType } from '../../events/table';
import type { EntitySpec } from './spec';
import type { EntityStore } from './store';

/** The change feed's resource of an entity: its path under `/api/{tenantKey}/{orgKey}`, without the leading slash. */
export function resourceOf(spec: EntitySpec): string {
  return spec.basePath.replace(/^\//, '');
}

/** The record's natural key as one text (fields joined by `/`, as in paths): from values, or from its row. */
export function keyExpression(store: EntityStore, values: Readonly<Record<string, unknown>> = {}): SQL {
  // A bound integer may arrive as a REAL (D1 binds JavaScript numbers so): `10`, never `10.0`, as the column stores it.
  const bound = (name: string, value: unknown) =>
    store.spec.fields[name]?.kind === 'int' ? sql`cast(cast(${value} as integer) as text)` : sql`cast(${value} as text)`;
  const parts = store.spec.key.map((name) =>
    name in values ? bound(name, values[name]) : sql`cast(${requireColumn(store.columns, store.spec.table, name)} as text)`,
  );
  return sql.join(parts, sql` || '/' || `);
}

/** The record a `created` event is of: its id and field values (values, or placeholders when compiled). */
interface CreatedRecord {
  readonly id: string;
  readonly values: Readonly<Record<string, unknown>>;
  /** The event's own id; absent: a random one. */
  readonly eventId?: string;
  /** A compiled create's placeholders for what every `created` event of the entity says (its resource, type, version). */
  readonly constants?: Pick<EventFields, 'resource' | 'changeType' | 'version' | 'changes'>;
}

/** An event's resource and change type as placeholders, in a compiled statement (filled with `eventConstants`). */
export const EVENT_PLACEHOLDERS = { resource: textPlaceholder('event:resource'), changeType: sql`${sql.placeholder('event:changeType')}` };

/** The values of `EVENT_PLACEHOLDERS` for an event of the entity. */
export function eventConstants(store: EntityStore, changeType: ChangeType): Record<string, unknown> {
  return { 'event:resource': resourceOf(store.spec), 'event:changeType': changeType };
}

/** What every `created` event of the entity says, as placeholders (filled with `createdEventConstants`). */
export const CREATED_EVENT_PLACEHOLDERS = {
  ...EVENT_PLACEHOLDERS,
  version: sql`${sql.placeholder('event:version')}`,
  changes: sql`${sql.placeholder('event:changes')}`,
};

/** The values of `CREATED_EVENT_PLACEHOLDERS` for the entity. */
export function createdEventConstants(store: EntityStore): Record<string, unknown> {
  return { ...eventConstants(store, 'created'), 'event:version': 1, 'event:changes': null };
}

/** What the `created` event of a record says (version 1). */
export function createdEventFields(store: EntityStore, record: CreatedRecord): EventFields {
  return {
    resource: resourceOf(store.spec),
    changeType: 'created',
    recordId: record.id,
    key: keyExpression(store, record.values),
    version: 1,
    ...record.constants,
    ...(record.eventId === undefined ? {} : { id: record.eventId }),
  };
}

/** What an update changed: the event's `changes`, and the values it sets (a new key is the event's key). */
interface UpdateDescription {
  /** What changed, as a value (JSON text is written) or as SQL answering the JSON text at the time the event is written. */
  readonly changes: Readonly<Record<string, unknown>> | SQL;
  readonly set?: Readonly<Record<string, unknown>>;
  /** The event follows the update in the batch (its condition then says whether it ran): the row has the new version. */
  readonly afterUpdate?: boolean;
  /** A compiled statement's placeholders for the resource and change type (`EVENT_PLACEHOLDERS`). */
  readonly constants?: typeof EVENT_PLACEHOLDERS;
}

/** An event of a change: its fields, over the rows of `from` (the changed record while the change's condition holds). */
interface RowEvent {
  readonly fields: EventFields;
  readonly from: SQL;
}

/** An event selected from the record's row while `condition` holds (the change's own condition). */
function rowEventOf(
  store: EntityStore,
  condition: SQL | undefined,
  fields: { changeType: 'updated' | 'deleted' | SQL; key: SQL; version: SQL; changes?: string | SQL; resource?: string },
): RowEvent {
  return {
    fields: { resource: resourceOf(store.spec), recordId: sql`${store.common.id}`, ...fields },
    from: sql`from ${store.table} where ${condition}`,
  };
}

/**
 * The `updated` event of an update, as fields over the record's row: put before an update that bumps the version, with
 * the update's own condition, it is written exactly when the update changes the row.
 */
export function updatedEventOf(store: EntityStore, condition: SQL | undefined, update: UpdateDescription): RowEvent {
  const set = update.set ?? {};
  const keyValues = Object.fromEntries(store.spec.key.filter((name) => name in set).map((name) => [name, set[name]]));
  return rowEventOf(store, condition, {
    changeType: 'updated',
    key: keyExpression(store, keyValues),
    version: update.afterUpdate ? sql`${store.common.version}` : sql`${store.common.version} + 1`,
    changes: is(update.changes, SQL) ? update.changes : JSON.stringify(update.changes),
    ...update.constants,
  });
}

/** The `deleted` tombstone of a delete, put before it in the batch with the delete's condition (version: last + 1). */
export function deletedEventOf(store: EntityStore, condition: SQL | undefined): RowEvent {
  return rowEventOf(store, condition, { changeType: 'deleted', key: keyExpression(store), version: sql`${store.common.version} + 1` });
}
