/** The email templates service: the description and the generic entity machinery, plus render and placeholders. */
import { deriveEntityTemplate } from '../../resources/entities/import-template';
import { defineEntityService } from '../../resources/entities/service';
import { defineApiRoute } from '../../http/route';
import type { ApiRoute } from '../../http/route';
import { placeholdersDoc, renderDoc } from './docs';
import { emailTemplateSpec } from './entity';
import { buildRenderHandlers } from './render';
import type { RenderSources } from './render';
import { emailTemplateStore } from './table';

const BASE = emailTemplateSpec.basePath;
const tags = ['Email templates'];

/** The service; `sources` gives it what other services know (a route's notification parameters), from the registry. */
export function buildEmailTemplatesService(sources: RenderSources) {
  const handlers = buildRenderHandlers(sources);
  const routes: ApiRoute[] = [
    defineApiRoute({
      method: 'POST',
      path: `${BASE}/:templateKey/render`,
      scope: 'application',
      doc: {
        summary: 'Render a template: the subject and body to send, from parameters or a route',
        tags,
        operationId: 'renderEmailTemplate',
        ...renderDoc,
      },
      readOnly: true,
      handle: handlers.render,
    }),
    defineApiRoute({
      method: 'GET',
      path: `${BASE}/:templateKey/placeholders`,
      scope: 'application',
      doc: { summary: 'The placeholder names a template uses', tags, operationId: 'listEmailTemplatePlaceholders', ...placeholdersDoc },
      handle: handlers.placeholders,
    }),
  ];
  return {
    name: 'emailTemplates',
    ...defineEntityService(emailTemplateStore, { routes }),
    importTemplates: [deriveEntityTemplate(emailTemplateSpec, { store: emailTemplateStore })],
  };
}
