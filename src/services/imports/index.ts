/** The import data infos service: hand-written routes; every state change is a coordinator command. */
import { importCommands } from './commands';
import { importRoutes } from './routes';

export const importsService = { name: 'imports', routes: importRoutes, commands: importCommands };
