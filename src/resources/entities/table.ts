/** An entity's D1 table (drizzle), derived from its description by the model (src/model/table.ts). */
import { defineEntityTable } from '../../model/table';
import type { EntitySpec } from './spec';

export { defineEntityTable };

export type EntityTable<S extends EntitySpec = EntitySpec> = ReturnType<typeof defineEntityTable<S>>;

/** A stored row of the entity, typed from its description. */
export type EntityRow<S extends EntitySpec = EntitySpec> = EntityTable<S>['$inferSelect'];
