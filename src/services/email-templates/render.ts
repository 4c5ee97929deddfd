/**
 * `POST /{templateKey}/render` and `GET /{templateKey}/placeholders`: a stored template plus parameters gives the
 * subject and body to send. Placeholders are `{{name}}` (placeholders.ts), rendered by Mustache; HTML templates escape
 * every value, Text templates insert values as given. The parameters are the request's, or a route's maintenance
 * notification parameters in the template's culture (from the routes service, wired in the registry).
 */
import { ApiError, recordNotFound, validationError } from '../../errors/api-error';
import type { FieldError } from '../../errors/api-error';
import { openEntityRepository } from '../../resources/entities/repository';
import { readJsonBody } from '../../http/body';
import { openRequestUnit } from '../../http/context';
import type { ApiContext } from '../../http/context';
import { jsonResponse } from '../../http/responses';
import { placeholdersDoc, renderDoc } from './docs';
import { message } from '../../messages/catalogue';
import { EmailTemplateType } from './entity';

type EmailTemplateTypeValue = (typeof EmailTemplateType.members)[keyof typeof EmailTemplateType.members];
import { parseStoredTemplate } from './parsed-cache';
import { MAX_RENDERED_CHARS, RenderTooLarge, renderTemplate } from './placeholders';
import type { ParsedTemplate } from './placeholders';
import { parseRenderBody } from './render-input';
import type { RenderInput, RenderValue } from './render-input';
import { emailTemplateStore } from './table';

/** A route's parameters for a culture (name, value; null: no value), or undefined when there is no such route. */
type RouteParameterSource = (
  ctx: ApiContext,
  route: { readonly companyKey: string; readonly routeKey: string },
  culture: string,
) => Promise<readonly { readonly name: string; readonly value: string | null }[] | undefined>;

export interface RenderSources {
  readonly routeParameters: RouteParameterSource;
}

/** The template fields that hold placeholders, in rendering order. */
const TEMPLATE_FIELDS = ['subject', 'notificationBody'] as const;
type TemplateField = (typeof TEMPLATE_FIELDS)[number];

interface StoredTemplate {
  readonly emailTemplateType: EmailTemplateTypeValue;
  readonly culture: string;
  readonly parsed: Readonly<Record<TemplateField, ParsedTemplate>>;
}

async function loadTemplate(ctx: ApiContext): Promise<StoredTemplate> {
  const templateKey = ctx.params.templateKey ?? '';
  const templates = openEntityRepository(openRequestUnit(ctx), emailTemplateStore);
  // The row is typed from the email templates' description (its table).
  const row = await templates.find({ by: 'key', values: [templateKey] });
  if (!row) throw recordNotFound(`Email template '${templateKey}'`, true, 'templateKey');
  // A stored template written before its syntax was checked (or by SQL) is refused here, naming each bad field.
  const errors: FieldError[] = [];
  const parsed: Partial<Record<TemplateField, ParsedTemplate>> = {};
  for (const field of TEMPLATE_FIELDS) {
    const result = parseStoredTemplate(row.id, field, row[field]);
    if (result.ok) parsed[field] = result.template;
    else errors.push({ path: field, message: result.problem });
  }
  const { subject, notificationBody } = parsed;
  if (!subject || !notificationBody) throw validationError(errors);
  return {
    // Stored as 1 (HTML) or 2 (Text): the column's enum rule refuses anything else.
    emailTemplateType:
      row.emailTemplateType === EmailTemplateType.members.HTML ? EmailTemplateType.members.HTML : EmailTemplateType.members.Text,
    culture: row.culture,
    parsed: { subject, notificationBody },
  };
}

/** Every name the template uses, once (case-insensitively), as first written: the subject's, then the body's. */
function listNames(template: StoredTemplate): string[] {
  const names = new Map<string, string>();
  for (const field of TEMPLATE_FIELDS) {
    for (const name of template.parsed[field].names) if (!names.has(name.toLowerCase())) names.set(name.toLowerCase(), name);
  }
  return [...names.values()];
}

/** `?strict=true|false|1|0` (default false); a bad value is a field error. */
function parseStrict(ctx: ApiContext): boolean | FieldError {
  const raw = ctx.url.searchParams.get('strict');
  if (raw === null) return false;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  return { path: 'strict', message: message('mustBeBoolean', { field: 'strict' }) };
}

/**
 * The request: its body read first (413 past 1 MiB, whatever the query), then `strict` and the body checked together,
 * a 400 naming every bad field of both.
 */
async function readRenderRequest(ctx: ApiContext): Promise<{ strict: boolean; input: RenderInput }> {
  const body = await readJsonBody(ctx.request);
  const strict = parseStrict(ctx);
  const refused = typeof strict === 'boolean' ? [] : [strict];
  let input: RenderInput;
  try {
    input = parseRenderBody(body);
  } catch (error) {
    if (error instanceof ApiError && refused.length > 0) throw validationError([...refused, ...error.errors]);
    throw error;
  }
  if (typeof strict !== 'boolean') throw validationError(refused);
  return { strict, input };
}

/** The request's values by lower-cased name: strings as given, numbers formatted for the culture, null as no value. */
function collectValues(parameters: readonly RenderValue[], culture: string): Map<string, string> {
  const number = new Intl.NumberFormat(culture);
  const values = new Map<string, string>();
  for (const { name, value } of parameters) {
    if (value === null) continue;
    values.set(name.toLowerCase(), typeof value === 'number' ? number.format(value) : value);
  }
  return values;
}

/** The subject and body, rendered within MAX_RENDERED_CHARS together; past it, 400 naming where the values came from. */
function renderBounded(template: StoredTemplate, values: ReadonlyMap<string, string>, escaping: 'html' | 'none', source: string) {
  const budget = { left: MAX_RENDERED_CHARS };
  try {
    return {
      subject: renderTemplate(template.parsed.subject, values, escaping, budget),
      body: renderTemplate(template.parsed.notificationBody, values, escaping, budget),
    };
  } catch (error) {
    if (!(error instanceof RenderTooLarge)) throw error;
    throw validationError([{ path: source, message: message('renderTooLarge', { field: source, max: MAX_RENDERED_CHARS }) }]);
  }
}

export function buildRenderHandlers(sources: RenderSources) {
  return {
    /** `POST /{templateKey}/render[?strict=true]`. */
    async render(ctx: ApiContext) {
      const { strict, input } = await readRenderRequest(ctx);
      const template = await loadTemplate(ctx);
      let values: Map<string, string>;
      if (input.from === 'route') {
        const { companyKey, routeKey } = input;
        const parameters = await sources.routeParameters(ctx, { companyKey, routeKey }, template.culture);
        if (!parameters) {
          throw recordNotFound(`Route '${routeKey}' of company '${companyKey}'`, true, ['route.companyKey', 'route.routeKey']);
        }
        values = collectValues(parameters, template.culture);
      } else {
        values = collectValues(input.parameters, template.culture);
      }
      const missingParameters = listNames(template).filter((name) => !values.has(name.toLowerCase()));
      if (strict && missingParameters.length > 0) {
        const source = input.from === 'route' ? 'route' : 'parameters';
        throw validationError(
          missingParameters.map((name) => ({ path: `${source}.${name}`, message: message('placeholderMissing', { placeholder: name }) })),
        );
      }
      const escaping = template.emailTemplateType === EmailTemplateType.members.HTML ? 'html' : 'none';
      const { subject, body } = renderBounded(template, values, escaping, input.from);
      return jsonResponse(renderDoc.responses[200].schema, {
        subject,
        body,
        emailTemplateType: template.emailTemplateType,
        culture: template.culture,
        missingParameters,
      });
    },

    /** `GET /{templateKey}/placeholders`. */
    async placeholders(ctx: ApiContext) {
      const template = await loadTemplate(ctx);
      return jsonResponse(placeholdersDoc.responses[200].schema, {
        placeholders: listNames(template),
        subject: [...template.parsed.subject.names],
        notificationBody: [...template.parsed.notificationBody.names],
      });
    },
  };
}
