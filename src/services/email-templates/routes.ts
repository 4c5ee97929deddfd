import { buildEntityRoutes } from '../../entities/routes';
import { defineEntityStore } from '../../entities/store';
import type { ApiRoute } from '../../http/route';
import { emailTemplateSpec } from './entity';
import { emailTemplates } from './table';

export const emailTemplateStore = defineEntityStore(emailTemplateSpec, emailTemplates);

export const emailTemplateRoutes: readonly ApiRoute[] = buildEntityRoutes(emailTemplateStore);
