/**
 * Typed repositories of entity records, bound to a tenant session (src/tenant/session.ts): rows typed from the
 * description's table, read by id or key (the compiled point read: one round trip), and writes staged in one of the
 * session's batches (create, update of attributes, delete), committed with the batch's other writes.
 */
import type { TenantSession } from '../../tenant/session';
import type { WriteBatch, WriteHandle } from '../../tenant/unit-of-work';
import { findThroughGroup } from './group-reads';
import { stageCreate } from './record-writes';
import { stageDelete, stageUpdate } from './record-updates';
import type { CreateRecord } from './record-writes';
import type { RecordTarget } from './record-updates';
import type { EntitySpec } from './spec';
import { findRecord } from './store';
import type { EntityRecord, EntityStore, RecordLookup } from './store';
import type { EntityRow } from './table';

/**
 * A stored record, typed from the description's table; the common columns as every entity has them (for the generic
 * description, whose fields are any, the table's row type alone would widen them).
 */
type RecordOf<S extends EntitySpec> = EntityRow<S> & Pick<EntityRecord, 'id' | 'customAttributes' | 'isActive' | 'version'>;

export interface EntityRepository<S extends EntitySpec> {
  readonly store: EntityStore<S>;
  /**
   * The record the lookup names, or undefined (not there, or not this tenant/org's). In an atomic group, as the
   * group's earlier writes leave it (src/resources/entities/group-reads.ts).
   */
  find(lookup: RecordLookup): Promise<RecordOf<S> | undefined>;
  stageCreate(batch: WriteBatch, create: CreateRecord): WriteHandle<void>;
  /** The new version, or undefined when nothing was updated (missing, other version, nothing to change). */
  stageUpdate(batch: WriteBatch, target: RecordTarget, set: Readonly<Record<string, unknown>>): WriteHandle<number | undefined>;
  /** Whether the record was deleted. */
  stageDelete(batch: WriteBatch, target: RecordTarget): WriteHandle<boolean>;
}

export function openEntityRepository<S extends EntitySpec>(tenant: TenantSession, store: EntityStore<S>): EntityRepository<S> {
  return {
    store,
    async find(lookup) {
      const row = tenant.group
        ? await findThroughGroup(tenant, store, tenant.group.overlay, lookup)
        : await findRecord(tenant, store, lookup);
      // The point read selects every column of the description's table by field name, each through its column's
      // decoder: the row drizzle's select of that table answers.
      return row as RecordOf<S> | undefined;
    },
    stageCreate: (batch, create) => batch.stage(stageCreate(store, create)),
    stageUpdate: (batch, target, set) => batch.stage(stageUpdate(store, target, set)),
    stageDelete: (batch, target) => batch.stage(stageDelete(store, target)),
  };
}
