import { defineEntityTable } from '../../entities/table';
import { emailTemplateSpec } from './entity';

export const emailTemplates = defineEntityTable(emailTemplateSpec);
