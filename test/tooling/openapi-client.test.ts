/**
 * Node-side checks of the OpenAPI document served by the Deno server of this test file (vitest.deno.config.ts):
 * it validates as OpenAPI 3.1 (@seriousme/openapi-schema-validator), and openapi-typescript generates client types
 * from it that type-check a small typed use. A broken document fails CI here.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDenoServer } from '../deno/server.js';

const USE = `
import type { components, paths } from './erp-api';

type Templates = paths['/api/{tenantKey}/{orgKey}/operations/emailTemplates'];
type CreateBody = NonNullable<Templates['post']['requestBody']>['content']['application/json'];
type Read = paths['/api/{tenantKey}/{orgKey}/operations/emailTemplates/{idOrTemplateKey}']['get'];
type Template = Read['responses'][200]['content']['application/json'];
type Problem = Read['responses'][404]['content']['application/problem+json'];
type Rate = paths['/api/{tenantKey}/{orgKey}/businessCore/exchangeRatesDocuments/getCurrencyExchangeRates']['post']['responses'][200]['content']['application/json'];

export const body: CreateBody = { templateKey: 'welcome', subject: 'Hi', emailTemplateType: 'HTML', notificationBody: '<p>Hi</p>', culture: 'en-US' };
export const text: components['schemas']['EmailTemplateType'] = 2;
// @ts-expect-error 3 is not an EmailTemplateType
export const wrong: components['schemas']['EmailTemplateType'] = 3;
export const code: Problem['code'] = 'RecordNotFound';

type ListQuery = NonNullable<paths['/api/{tenantKey}/{orgKey}/operations/emailTemplates/odata']['get']['parameters']['query']>;
export const query: ListQuery = { $filter: "culture eq 'en-US'", $top: 5, $skip: 10, $count: true, $inlinecount: 'allpages' };
export const paged: ListQuery = { page: 2, pageSize: 25 };
// @ts-expect-error $top is a number, not a string
export const textTop: ListQuery = { $top: '5' };
// @ts-expect-error $count is a boolean
export const textCount: ListQuery = { $count: 'true' };

export function describeTemplate(template: Template): string {
  return template.templateKey + ' v' + String(template.version) + (template.emailTemplateType === 1 ? ' (HTML)' : ' (Text)') + (template.description ?? '');
}

export function describeRate(rate: Rate): string {
  return String(rate.currencyFromKey) + '->' + String(rate.currencyToKey) + ': ' + String(rate.exchangeRate);
}

export async function readTemplate(base: string, token: string, key: string): Promise<Template> {
  const response = await fetch(base + '/operations/emailTemplates/' + encodeURIComponent(key), { headers: { authorization: 'Bearer ' + token } });
  if (response.status === 404) throw new Error(((await response.json()) as Problem).detail);
  return (await response.json()) as Template;
}
`;

let document: Record<string, unknown>;
let directory: string;

beforeAll(async () => {
  const response = await fetch(`${readDenoServer().baseUrl}/openapi.json`);
  expect(response.status).toBe(200);
  document = (await response.json()) as Record<string, unknown>;
  directory = mkdtempSync(join(tmpdir(), 'erp-openapi-client-'));
});

afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

describe('the OpenAPI document', () => {
  it('validates as OpenAPI 3.1', async () => {
    const result = await new Validator().validate(document);
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 1)?.slice(0, 2000)).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('generates a typed client (openapi-typescript) that type-checks a typed use', async () => {
    const types = astToString(await openapiTS(document as unknown as Parameters<typeof openapiTS>[0]));
    writeFileSync(join(directory, 'erp-api.ts'), types);
    writeFileSync(join(directory, 'use.ts'), USE);
    const program = ts.createProgram([join(directory, 'use.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
      skipLibCheck: true,
    });
    const problems = ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    expect(problems).toEqual([]);
  }, 60_000);
});
