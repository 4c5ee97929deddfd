/**
 * Problem answers are written in the language Accept-Language asks for (en-US, pt-PT, es-ES; default en-US): the title,
 * the validation summary and every field message come from one catalogue. The README's example is this test's first.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { freshTenant } from '../helpers/tenants';
import type { Problem, TenantClient } from '../helpers/api';

const TEMPLATES = '/operations/emailTemplates';
/** The README's example body: subject missing, culture not a string. */
const README_BODY = { templateKey: 'welcome', emailTemplateType: 'HTML', notificationBody: '<p>Hello</p>', culture: 42 };

let client: TenantClient;

beforeAll(async () => {
  client = await freshTenant('messages');
});

async function post(body: unknown, language?: string) {
  return client.call<Problem>('POST', TEMPLATES, { body, ...(language === undefined ? {} : { headers: { 'accept-language': language } }) });
}

describe('validation messages', () => {
  it('answer the README example in en-US by default', async () => {
    const result = await post(README_BODY);
    expect(result.status).toBe(400);
    expect(result.headers.get('content-language')).toBe('en-US');
    expect(result.body).toMatchObject({
      type: 'https://errors.erp-edge-api.dev/ValidationFailed',
      title: 'The request is not valid',
      status: 400,
      detail: '2 fields are not valid: subject, culture',
      code: 'ValidationFailed',
      errors: [
        { path: 'subject', message: 'subject is required' },
        { path: 'culture', message: 'culture must be a string' },
      ],
      instance: `${client.base}/operations/emailTemplates`,
    });
  });

  it.each([
    [
      'pt-PT',
      'O pedido não é válido',
      '2 campos não são válidos: subject, culture',
      ['subject é obrigatório', 'culture tem de ser um texto'],
    ],
    [
      'es-ES,es;q=0.9',
      'La solicitud no es válida',
      '2 campos no son válidos: subject, culture',
      ['subject es obligatorio', 'culture debe ser un texto'],
    ],
    [
      'pt-BR',
      'O pedido não é válido',
      '2 campos não são válidos: subject, culture',
      ['subject é obrigatório', 'culture tem de ser um texto'],
    ],
    ['fr-FR', 'The request is not valid', '2 fields are not valid: subject, culture', ['subject is required', 'culture must be a string']],
  ])('answer in %s', async (language, title, detail, messages) => {
    const result = await post(README_BODY, language);
    expect(result.body.title).toBe(title);
    expect(result.body.detail).toBe(detail);
    expect(result.body.errors.map((error) => error.message)).toEqual(messages);
  });

  it('say what to send: enum members, lengths, GUIDs, dates, unknown properties', async () => {
    const result = await post({
      templateKey: 'x'.repeat(101),
      subject: 'S',
      emailTemplateType: 'Pdf',
      notificationBody: 'B',
      culture: 'en-US',
      colour: 'blue',
    });
    expect(Object.fromEntries(result.body.errors.map((error) => [error.path, error.message]))).toEqual({
      colour: 'colour is not a property of this request: remove it or correct its name',
      templateKey: 'templateKey must be at most 100 characters',
      emailTemplateType: 'emailTemplateType must be one of HTML (1), Text (2)',
    });
    const spanish = await post({ templateKey: 'k', subject: 'S', emailTemplateType: 9, notificationBody: 'B', culture: 'en-US' }, 'es-ES');
    expect(spanish.body.errors).toEqual([{ path: 'emailTemplateType', message: 'emailTemplateType debe ser uno de HTML (1), Text (2)' }]);
    const date = await client.call<Problem>('PUT', '/referenceData/kpiDefinitions', {
      body: [{ key: 'K', name: 'K', valueType: 'Speed', valueFractionDigits: 'two', aggregation: 'sum' }],
      headers: { 'accept-language': 'pt-PT' },
    });
    expect(Object.fromEntries(date.body.errors.map((error) => [error.path, error.message]))).toEqual({
      '[0].valueType': 'valueType tem de ser um de Number, Percentage, Currency, Duration',
      '[0].valueFractionDigits': 'valueFractionDigits tem de ser um número inteiro',
    });
  });

  it('localize other field messages too: unknown references and missing records keep their keys', async () => {
    const unknown = await post({ templateKey: 'k', subject: 'S', emailTemplateType: 1, notificationBody: 'B', culture: 'xx-XX' }, 'pt-PT');
    expect(unknown.body).toMatchObject({
      code: 'UnknownReference',
      title: 'Um registo referido não existe',
      detail: "Não existe nenhum registo de cultures com a chave 'xx-XX'",
      errors: [{ path: 'culture', message: "Não existe nenhum registo de cultures com a chave 'xx-XX'" }],
    });
  });
});
