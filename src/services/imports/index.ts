/** The import data infos service (SPEC 2.2, 4.2): hand-written routes; every state change is a coordinator command. */
import { importCommands } from './commands';
import { importRoutes } from './routes';

export const importsService = { name: 'imports', routes: importRoutes, commands: importCommands };
