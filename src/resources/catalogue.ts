/**
 * The descriptions the trigger generator reads (src/resources/triggers/, `npm run triggers`): every entity a service
 * stores (the registry's entity stores), every reference kind, and the services' own tables that hold reference keys
 * (`keyHolders`). A service, entity, kind or key holder added to the API is read from here, and `npm run lint` fails
 * until `npm run triggers` has written the migration of its triggers.
 */
import { REFERENCE_KINDS } from './reference/kinds';
import { serviceEntitySpecs, serviceKeyHolders } from '../services/registry';
import type { TriggerDescriptions } from './triggers/holders';
import { listRestoredTables } from '../tenant/backup/tables';
import { TENANT_TABLES } from '../tenant-tables';

export const TRIGGER_DESCRIPTIONS: TriggerDescriptions = {
  entities: serviceEntitySpecs,
  kinds: REFERENCE_KINDS,
  holders: serviceKeyHolders,
  history: listRestoredTables(TENANT_TABLES),
};
