/** The email templates service: the description and the generic entity machinery, nothing else. */
import { defineEntityService } from '../../entities/service';
import { emailTemplateStore } from './table';

export const emailTemplatesService = { name: 'emailTemplates', ...defineEntityService(emailTemplateStore) };
