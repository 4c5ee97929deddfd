/** What an entity-derived service contributes to the application, from its description and its own rules. */
import { sql } from 'drizzle-orm';
import type { ApiRoute } from '../../http/route';
import { listReferenceFields } from '../../model/fields';
import type { ReferenceUser } from '../reference/usage';
import { declareRecordWrites } from './record-writes';
import { buildEntityRoutes } from './routes';
import type { EntityRouteOptions } from './routes';
import type { EntityStore } from './store';

/** The columns of an entity's fields that hold reference keys (records in use cannot be deleted), labelled by key. */
export function deriveReferenceUsers(store: EntityStore): ReferenceUser[] {
  const { spec, table, columns, common } = store;
  const label = sql.join(
    spec.key.flatMap((name) => columns[name] ?? []),
    sql.raw(" || '/' || "),
  );
  return listReferenceFields(spec.fields).flatMap(({ name, kind }): ReferenceUser[] => {
    const column = columns[name];
    if (!column) return [];
    return [{ kind, name: `${spec.name}.${name}`, table, column, tenantKey: common.tenantKey, orgKey: common.orgKey, label }];
  });
}

interface EntityServiceOptions extends EntityRouteOptions {
  /** The service's own routes, matched before the derived ones (literal segments first). */
  readonly routes?: readonly ApiRoute[];
}

/**
 * Routes (the service's own, then every derived one) and the store (the registry derives its reference users); declares
 * the store's compiled writes (the test that compiles every kept statement reads them).
 */
export function defineEntityService(store: EntityStore, options: EntityServiceOptions = {}) {
  declareRecordWrites(store);
  return { routes: [...(options.routes ?? []), ...buildEntityRoutes(store, options)], stores: [store] };
}
