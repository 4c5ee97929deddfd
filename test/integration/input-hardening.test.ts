/**
 * Hostile input that used to break the API (issue 13, findings L1, L4, M3, M4): deep JSON, invalid UTF-8 and lone
 * surrogates are 400s naming the field, wherever strings come in, and nothing stored can break a later read.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Problem, TenantClient } from '../helpers/api';
import { BASE, createDocument, LOOKUP } from '../helpers/exchange-rates';
import { freshTenant } from '../helpers/tenants';

const TEMPLATES = '/operations/emailTemplates';

let client: TenantClient;

beforeEach(async () => {
  client = await freshTenant('hardening');
  await createDocument(client, 1, '2026-01-01', [['EUR', 'USD', '1.1']]);
});

/** `{"a":{"a":...1...}}` with `levels` objects. */
function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < levels; level += 1) value = { a: value };
  return value;
}

function expectProblem(result: { status: number; body: unknown; text: string }, path: string, message: RegExp): void {
  expect(result.status, result.text).toBe(400);
  const problem = result.body as Problem;
  expect(problem.code).toBe('ValidationFailed');
  expect(problem.errors.map((error) => error.path)).toContain(path);
  expect(problem.errors.find((error) => error.path === path)?.message).toMatch(message);
}

describe('JSON depth (L4, M3)', () => {
  it('answers a 10,000-deep valid JSON body with 400 "too deep" naming the field, not "Malformed JSON"', async () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const result = await client.call('POST', TEMPLATES, { rawBody: deep, headers: { 'content-type': 'application/json' } });
    expect(result.status, result.text).toBe(400);
    const problem = result.body as Problem;
    expect(problem.detail).toMatch(/nested too deeply/);
    expect(problem.errors[0]?.path).toBe('[0]'.repeat(32));
    expect(problem.errors[0]?.message).not.toMatch(/Malformed/);
  });

  it('refuses a custom attribute nested 10,000 deep on a document and a rate line; reads and lists keep working', async () => {
    const deep = `{"custom_deep":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`;
    const attribute = await client.call('PUT', `${BASE}/1/custom_deep`, { rawBody: deep, headers: { 'content-type': 'application/json' } });
    expectProblem(attribute, `custom_deep${'.a'.repeat(31)}`, /deeper than 32 levels/);
    const line = `{"fromCurrency":"EUR","toCurrency":"GBP","conversionFactor":0.9,"customAttributes":${deep}}`;
    const insert = await client.call('POST', `${BASE}/1/exchangeRateDocumentRates`, {
      rawBody: line,
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(insert, `customAttributes.custom_deep${'.a'.repeat(30)}`, /deeper than 32 levels/);
    expect((await client.call('GET', `${BASE}/1`)).status).toBe(200);
    expect((await client.call('GET', `${BASE}/odata`)).status).toBe(200);
  });

  it('stores a value nested right up to the limit and reads it back', async () => {
    const over = await client.call('PUT', `${BASE}/1/custom_limit`, { body: { value: nested(32) } });
    expectProblem(over, `value${'.a'.repeat(31)}`, /deeper than 32 levels/);
    const fits = await client.call('PUT', `${BASE}/1/custom_limit`, { body: nested(32) });
    expect(fits.status, fits.text).toBe(200);
    const read = await client.call<Record<string, unknown>>('GET', `${BASE}/1`);
    expect(read.status).toBe(200);
    expect(read.body.custom_limit).toEqual(nested(32));
    expect((await client.call('GET', `${BASE}/odata`)).status).toBe(200);
  });
});

describe('strings that are not well-formed Unicode (L1, M4)', () => {
  it('refuses lone surrogates in bodies, naming the field: "k\\ud800" and "k\\udfff" never become one key', async () => {
    for (const escape of ['\\ud800', '\\udfff', '\\udc00\\ud800']) {
      const result = await client.call('POST', TEMPLATES, {
        rawBody: `{"templateKey":"k${escape}","subject":"s","emailTemplateType":1,"notificationBody":"b","culture":"en-US"}`,
        headers: { 'content-type': 'application/json' },
      });
      expectProblem(result, 'templateKey', /lone UTF-16 surrogate/);
    }
    const key = await client.call('POST', TEMPLATES, {
      rawBody: '{"custom_\\ud800x":1}',
      headers: { 'content-type': 'application/json' },
    });
    expect(key.status).toBe(400);
    expect((key.body as Problem).errors[0]?.message).toMatch(/property name/);
    // A well-formed pair is fine.
    const pair = await client.call('POST', TEMPLATES, {
      rawBody: '{"templateKey":"k\\ud83d\\ude00","subject":"s","emailTemplateType":1,"notificationBody":"b","culture":"en-US"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(pair.status, pair.text).toBe(201);
  });

  it('refuses invalid UTF-8 bytes in bodies, naming the field (no silent U+FFFD)', async () => {
    const encoder = new TextEncoder();
    const bytes = new Uint8Array([...encoder.encode('{"templateKey":"k'), 0xff, ...encoder.encode('","subject":"s"}')]);
    const result = await client.call('POST', TEMPLATES, { rawBody: bytes, headers: { 'content-type': 'application/json' } });
    expectProblem(result, 'templateKey', /not valid UTF-8/);
    const overlong = new Uint8Array([...encoder.encode('["'), 0xc0, 0xaf, ...encoder.encode('"]')]);
    const second = await client.call('POST', '/maintenance/indicators/measurements', {
      rawBody: overlong,
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(second, '[0]', /not valid UTF-8/);
  });

  it('answers a lone surrogate in a lookup currency with 400, not 500 (body and query string)', async () => {
    const body = await client.call('POST', LOOKUP, {
      rawBody: '{"currencyFromKey":"\\ud800","currencyToKey":"EUR"}',
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(body, 'currencyFromKey', /lone UTF-16 surrogate/);
    const query = await client.call('POST', `${LOOKUP}?currencyFromKey=%ED%A0%80&currencyToKey=EUR`);
    expectProblem(query, 'currencyFromKey', /not valid percent-encoded UTF-8/);
    const company = await client.call('POST', `${BASE}/getCurrencyExchangeRatesByCompany`, {
      rawBody: '{"currencyKey":"USD","companyKey":"\\udfff"}',
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(company, 'companyKey', /lone UTF-16 surrogate/);
  });

  it('refuses query strings and path segments that are not UTF-8, naming them', async () => {
    const query = await client.call('GET', '/corePatterns/importDataInfos/getLastImports?templateId=%FFx&top=5');
    expectProblem(query, 'templateId', /not valid percent-encoded UTF-8/);
    const segment = await client.call('GET', `${TEMPLATES}/%C3%28`);
    expectProblem(segment, 'idOrTemplateKey', /idOrTemplateKey is not valid percent-encoding/);
  });
});

describe('a custom attribute given twice in one body', () => {
  it('is a 400 naming both places (top level and customAttributes, in any spelling), and nothing is created', async () => {
    const body = {
      templateKey: 'twice',
      subject: 'Hello',
      emailTemplateType: 1,
      notificationBody: '<p>Hi</p>',
      culture: 'en-US',
      custom_region: 'north',
      customAttributes: { custom_Region: 'south' },
    };
    const result = await client.call<Problem>('POST', TEMPLATES, { body });
    expect(result.status, result.text).toBe(400);
    expect(result.body.code).toBe('ValidationFailed');
    const paths = result.body.errors.map((error) => error.path);
    expect(paths).toEqual(expect.arrayContaining(['custom_region', 'customAttributes.custom_Region']));
    expect(result.body.errors[0]?.message).toMatch(/'custom_region', 'customAttributes.custom_Region' name the same property/);
    expect((await client.call('GET', `${TEMPLATES}/twice`)).status).toBe(404);
    const once = await client.call('POST', TEMPLATES, { body: { ...body, customAttributes: { custom_other: 'x' } } });
    expect(once.status, once.text).toBe(201);
  });
});
