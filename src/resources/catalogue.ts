/**
 * The descriptions the trigger generator reads (src/resources/triggers/, `npm run triggers`): the stored entities,
 * every reference kind and the services' tables that hold reference keys. An entity, kind or key holder added to the
 * API is added here, and `npm run triggers` writes the migration of its triggers.
 */
import { REFERENCE_KINDS } from '../reference/kinds';
import { emailTemplateSpec } from '../services/email-templates/entity';
import { exchangeRatesDocumentSpec } from '../services/exchange-rates/entity';
import { kpiSeriesKeys } from '../services/indicators/tables';
import { routeSpec } from '../services/routes/entity';
import type { TriggerDescriptions } from './triggers/holders';

export const TRIGGER_DESCRIPTIONS: TriggerDescriptions = {
  entities: [emailTemplateSpec, routeSpec, exchangeRatesDocumentSpec],
  kinds: REFERENCE_KINDS,
  holders: [kpiSeriesKeys],
};
