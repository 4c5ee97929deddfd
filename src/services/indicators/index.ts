/** The maintenance indicators service: measurements in, KPIs recalculated by a command and by the cron. */
import { collectFieldErrors } from '../../resources/entities/import-template';
import type { ImportTemplate } from '../../resources/entities/import-template';
import { indicatorCommands } from './commands';
import { measurementsImportWriter } from './import-writer';
import { MeasurementSchema, parseMeasurements } from './measurement-input';
import { indicatorRecalculationJob } from './job';
import { indicatorRoutes } from './routes';
import { kpiSeriesKeys } from './tables';
import { indicatorReferenceUsers } from './usage';

export const indicatorsService = {
  name: 'indicators',
  routes: indicatorRoutes,
  commands: indicatorCommands,
  jobs: [indicatorRecalculationJob],
  referenceUsers: indicatorReferenceUsers,
  keyHolders: [kpiSeriesKeys],
  importTemplates: [
    {
      name: 'kpiMeasurements',
      columns: Object.keys(MeasurementSchema.entries).map((name) => ({ name, required: true })),
      customAttributes: false,
      // As POST /measurements checks each item (`[0].value` -> `value`).
      check: (body) =>
        collectFieldErrors(() => parseMeasurements([body])).map((error) => ({ ...error, path: error.path.replace(/^\[0\]\.?/, '') })),
      // Written as POST /measurements writes them (src/services/indicators/import-writer.ts).
      writer: measurementsImportWriter,
    },
  ] satisfies ImportTemplate[],
};
