/**
 * The outbox's statements: a change and its event are written in one D1 batch (one transaction), so there is no
 * change without its event and no event without its change. An event is an `INSERT ... SELECT`: from the changed
 * record's row (with the change's own condition, so a write that changes nothing writes no event), or from values.
 */
import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { TenantScope } from '../db/client';
import { sqlBuilder } from '../db/sql';
import type { WriteStatement } from '../db/writes';
import { changeEventRetention, changeEvents } from './table';
import type { ChangeType } from './table';

/** Who changed what when: the same for every event of one write. */
export interface EventOrigin extends TenantScope {
  /** ISO 8601 instant of the change (the audit stamp's). */
  readonly occurredOn: string;
  /** The token subject (or `system` for jobs). */
  readonly actor: string;
}

/** What an event says about its record: values, or SQL expressions over the row the event is selected from. */
export interface EventFields {
  /** The service prefix: `operations/emailTemplates`, `referenceData/companies`, ... */
  readonly resource: string;
  readonly changeType: ChangeType | SQL;
  readonly recordId: string | SQL;
  readonly key: string | SQL;
  /** The record's version after the change; `sequence` for records without versions (reference data): the event's seq. */
  readonly version: number | SQL | 'sequence';
  /** JSON text of what changed, or an expression answering it. */
  readonly changes?: string | SQL | null;
  /** The event's id (a GUID); absent: a random one (made in SQL, per row, when the event is selected from rows). */
  readonly id?: string;
}

/** A random GUID (version 4) computed by SQLite, one per inserted row. */
const SQL_GUID = sql.raw(
  "lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || " +
    "substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))",
);

/** The last sequence number taken by the tenant/org: its newest event, or the last one retention deleted. */
export function lastSequenceOf(scope: TenantScope): SQL {
  return sql`max(
    coalesce((select max(seq) from ${changeEvents} where tenant_key = ${scope.tenantKey} and org_key = ${scope.orgKey}), 0),
    coalesce((select pruned_seq from ${changeEventRetention} where tenant_key = ${scope.tenantKey} and org_key = ${scope.orgKey}), 0)
  )`;
}

function valueOf(value: string | number | SQL | null): SQL {
  return typeof value === 'object' && value !== null ? value : sql`${value}`;
}

/**
 * The event rows of a change: one per row of `from` (a `FROM ... WHERE ...` clause naming the changed records), or
 * one row when `from` is absent. Several rows of one statement take consecutive sequence numbers.
 */
export function buildEventInsert(origin: EventOrigin, fields: EventFields, from?: SQL): WriteStatement {
  const id = fields.id !== undefined ? sql`${fields.id}` : from ? SQL_GUID : sql`${crypto.randomUUID()}`;
  const seq = sql`${lastSequenceOf(origin)} + row_number() over ()`;
  const version = fields.version === 'sequence' ? seq : valueOf(fields.version);
  // Columns in table order (drizzle names them in that order).
  return sqlBuilder.insert(changeEvents).select(sql`select ${origin.tenantKey}, ${origin.orgKey}, ${seq}, ${id}, ${fields.resource},
      ${valueOf(fields.changeType)}, ${valueOf(fields.recordId)}, cast(${valueOf(fields.key)} as text), ${version},
      ${origin.occurredOn}, ${origin.actor}, ${valueOf(fields.changes ?? null)}
    ${from ?? sql``}`);
}
