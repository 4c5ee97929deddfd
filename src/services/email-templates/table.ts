import { defineEntityStore } from '../../entities/store';
import { defineEntityTable } from '../../entities/table';
import { emailTemplateSpec } from './entity';

export const emailTemplates = defineEntityTable(emailTemplateSpec);

export const emailTemplateStore = defineEntityStore(emailTemplateSpec, emailTemplates);
