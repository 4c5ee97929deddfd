import { defineEntityStore } from '../../resources/entities/store';
import { defineEntityTable } from '../../resources/entities/table';
import { emailTemplateSpec } from './entity';

export const emailTemplates = defineEntityTable(emailTemplateSpec);

export const emailTemplateStore = defineEntityStore(emailTemplateSpec, emailTemplates);
