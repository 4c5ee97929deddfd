/** OpenAPI documentation of the email templates service's own operations: render and placeholders. */
import * as v from 'valibot';
import type { OperationDoc, ParameterDoc } from '../../http/route';
import { RenderParameter, RenderRequest, RenderRoute } from './render-input';

type Parts = Omit<OperationDoc, 'summary' | 'operationId'>;

const TEMPLATE_KEY: ParameterDoc = {
  name: 'templateKey',
  in: 'path',
  description: 'Key of the email template',
  schema: { json: { type: 'string' } },
};

const names = (description: string) => v.pipe(v.array(v.string()), v.description(description));

const EmailTemplateRendering = v.strictObject({
  subject: v.pipe(v.string(), v.description('The subject with every placeholder replaced')),
  body: v.pipe(v.string(), v.description('The notificationBody with every placeholder replaced')),
  emailTemplateType: v.pipe(v.picklist([1, 2]), v.description('1 HTML (values were HTML-escaped) or 2 Text (values as given)')),
  culture: v.pipe(v.string(), v.description('Culture of the template (numbers and dates of route parameters are formatted for it)')),
  missingParameters: names('Placeholders without a value (rendered empty), as first written in the template'),
});

const EmailTemplatePlaceholders = v.strictObject({
  placeholders: names('Every placeholder name the template uses, once (names are case-insensitive), subject first'),
  subject: names('The placeholder names of the subject'),
  notificationBody: names('The placeholder names of the body'),
});

const SYNTAX =
  'Placeholders are {{name}} (letters, digits and _, case-insensitive; spaces inside the braces allowed); sections, partials, comments, unescaped {{{ }}} and delimiter changes are not supported.';

export const renderDoc = {
  description: `${SYNTAX} HTML templates (emailTemplateType 1) HTML-escape every value, in the subject too; Text templates (2) insert values as given. A value is never parsed as a template. A placeholder without a value renders empty and is listed in missingParameters (with strict=true: 400 naming each). Parameters the template does not use are ignored.`,
  schemas: { EmailTemplateRenderParameter: RenderParameter, EmailTemplateRenderRoute: RenderRoute, EmailTemplateRendering },
  parameters: [
    TEMPLATE_KEY,
    {
      name: 'strict',
      in: 'query',
      description: 'true (or 1): a placeholder without a value is a 400 naming it, instead of rendering empty',
      schema: { json: { type: 'boolean' } },
    },
  ],
  requestBody: {
    description: `The values: {"parameters": [{"name", "value"}]}, or {"route": {"companyKey", "routeKey"}} for the route's maintenance notification parameters in the template's culture`,
    schema: RenderRequest,
  },
  responses: {
    200: { description: 'The rendered subject and body', schema: EmailTemplateRendering },
    400: {
      description:
        'Not valid: the body, strict, a stored subject or notificationBody with malformed or unsupported placeholders (naming the field), or with strict=true a placeholder without a value',
    },
    404: { description: 'No such template, or no such route (RecordNotFound naming route.companyKey and route.routeKey)' },
  },
} satisfies Parts;

export const placeholdersDoc = {
  description: SYNTAX,
  schemas: { EmailTemplatePlaceholders },
  parameters: [TEMPLATE_KEY],
  responses: {
    200: { description: 'The placeholder names the template uses', schema: EmailTemplatePlaceholders },
    400: { description: 'A stored subject or notificationBody with malformed or unsupported placeholders (naming the field)' },
    404: { description: 'No such template' },
  },
} satisfies Parts;
