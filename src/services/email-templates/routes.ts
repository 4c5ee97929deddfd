import { buildEntityStore } from '../../entities/repository';
import { buildEntityRoutes } from '../../entities/routes';
import type { ApiRoute } from '../../http/route';
import { emailTemplateSpec } from './entity';
import { emailTemplates } from './table';

export const emailTemplateStore = buildEntityStore(emailTemplateSpec, emailTemplates);

export const emailTemplateRoutes: readonly ApiRoute[] = buildEntityRoutes(emailTemplateStore);
