/** Email templates: the whole service is this description plus the generic machinery. */
import { defineResource } from '../../model/resource';
import { checkTemplateSyntax } from './placeholders';

export const EmailTemplateType = { name: 'EmailTemplateType', members: { HTML: 1, Text: 2 } } as const;

export const emailTemplateSpec = defineResource({
  storage: 'entity',
  name: 'emailTemplates',
  title: 'Email template',
  resourceName: 'EmailTemplate',
  basePath: '/operations/emailTemplates',
  table: 'email_templates',
  key: ['templateKey'],
  segmentLookup: 'idOrKey',
  customAttributes: true,
  fields: {
    templateKey: {
      kind: 'string',
      column: 'template_key',
      textSearch: true,
      required: true,
      updatable: true,
      maxLength: 100,
      description: 'Key of the email template',
    },
    subject: {
      kind: 'string',
      column: 'subject',
      textSearch: true,
      required: true,
      updatable: true,
      maxLength: 998,
      checkText: checkTemplateSyntax,
      description: 'Subject of the email; placeholders {{name}} (a malformed or unsupported placeholder is refused)',
    },
    emailTemplateType: {
      kind: 'enum',
      column: 'email_template_type',
      required: true,
      updatable: true,
      enum: EmailTemplateType,
      description: 'Whether the body is HTML (1) or Text (2)',
    },
    notificationBody: {
      kind: 'string',
      column: 'notification_body',
      required: true,
      updatable: true,
      maxLength: 512 * 1024,
      checkText: checkTemplateSyntax,
      description: 'Body of the template; placeholders {{name}} (a malformed or unsupported placeholder is refused)',
    },
    culture: {
      kind: 'string',
      column: 'culture',
      required: true,
      updatable: true,
      maxLength: 20,
      reference: 'cultures',
      description: 'Culture (BCP 47 key of a Culture record): language, date format, character set',
    },
    description: { kind: 'string', column: 'description', textSearch: true, updatable: true, maxLength: 1000, description: 'Description' },
  },
  indexes: [
    ['culture'],
    ['emailTemplateType'],
    ['modifiedOn'],
    ['isActive'],
    ['subject'],
    ['description'],
    ['createdBy'],
    ['modifiedBy'],
    ['version'],
  ],
});
