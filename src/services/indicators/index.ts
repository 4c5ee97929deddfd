/** The maintenance indicators service: measurements in, KPIs recalculated by a command and by the cron. */
import { indicatorCommands } from './commands';
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
};
