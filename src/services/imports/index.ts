/** The import data infos service: hand-written routes; every state change is a coordinator command. */
import type { ImportTemplate } from '../../resources/entities/import-template';
import type { ImportProcessor } from '../../runtime/platform';
import type { ReferenceRules } from '../../resources/reference/routes';
import { importCommands } from './commands';
import { runImportSteps } from './process-steps';
import { buildImportRoutes } from './routes';
import { collectImportTemplates } from './templates';

/**
 * The service; `templates` are the other services' import templates, `referenceRules` what they add to reference data
 * writes (both from the registry).
 */
export function buildImportsService(sources: {
  readonly templates: readonly ImportTemplate[];
  readonly referenceRules: () => ReferenceRules;
}) {
  const templates = collectImportTemplates(sources.templates, sources.referenceRules);
  const processImport: ImportProcessor = (steps, platform, job) => runImportSteps(steps, platform, templates, job);
  return { name: 'imports', routes: buildImportRoutes(templates), commands: importCommands, processImport };
}
