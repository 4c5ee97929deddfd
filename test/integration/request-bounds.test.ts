/**
 * Issue 41, requests of a few kilobytes that amplified: a render answering 416 MB, a `$batch` of them answering 312 MB
 * (every inner answer read whole), a batch answer with a new secret that could be cached; and the fuzz findings
 * (render errors, a leading U+FEFF, unknown properties named `constructor`), in both runtimes.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_BATCH_ANSWER_BYTES, MAX_INNER_ANSWER_BYTES } from '../../src/services/batch/answer-budget';
import { MAX_RENDERED_CHARS } from '../../src/services/email-templates/placeholders';
import { call } from '../helpers/api';
import type { Problem, TenantClient } from '../helpers/api';
import { IMPORTS } from '../helpers/imports';
import { freshTenant } from '../helpers/tenants';

const TEMPLATES = '/operations/emailTemplates';

let client: TenantClient;

beforeEach(async () => {
  client = await freshTenant('bounds');
});

async function createTemplate(templateKey: string, notificationBody: string, emailTemplateType = 'HTML'): Promise<void> {
  const created = await client.call('POST', TEMPLATES, {
    body: { templateKey, subject: 'S', emailTemplateType, notificationBody, culture: 'en-US' },
  });
  expect(created.status, created.text.slice(0, 300)).toBe(201);
}

const renderBody = (values: Record<string, string>) => ({
  parameters: Object.entries(values).map(([name, value]) => ({ name, value })),
});

interface BatchAnswer {
  responses: { id: string; status: number; headers: Record<string, string>; body?: { code?: string; detail?: string; body?: string } }[];
}

describe('rendering', () => {
  it('stops a render past MAX_RENDERED_CHARS before building it: 400 naming parameters (was 416 MB)', async () => {
    await createTemplate('amplifier', '{{a}}'.repeat(104_000));
    const started = performance.now();
    const result = await client.call<Problem>('POST', `${TEMPLATES}/amplifier/render`, { body: renderBody({ a: 'x'.repeat(4000) }) });
    expect(result.status, result.text.slice(0, 300)).toBe(400);
    expect(result.body.errors.map((error) => error.path)).toEqual(['parameters']);
    expect(result.body.errors[0]?.message).toContain(`more than ${MAX_RENDERED_CHARS} characters`);
    expect(performance.now() - started).toBeLessThan(5000);
    // Within the bound it renders: 250 copies of 4,000 characters.
    await createTemplate('within', '{{a}}'.repeat(250));
    const within = await client.call<{ body: string }>('POST', `${TEMPLATES}/within/render`, { body: renderBody({ a: 'x'.repeat(4000) }) });
    expect(within.status).toBe(200);
    expect(within.body.body).toHaveLength(1_000_000);
  });

  it('answers 413 for a body over 1 MiB whatever the query, and names a bad strict and bad parameters together', async () => {
    await createTemplate('plain', 'Hi {{a}}');
    const big = JSON.stringify(renderBody({ a: 'x'.repeat(1_100_000) }));
    const tooLarge = await client.call('POST', `${TEMPLATES}/plain/render?strict=maybe`, {
      rawBody: big,
      headers: { 'content-type': 'application/json' },
    });
    expect(tooLarge.status).toBe(413);
    const both = await client.call<Problem>('POST', `${TEMPLATES}/plain/render?strict=maybe`, { body: { parameters: 5 } });
    expect(both.status).toBe(400);
    expect(both.body.errors.map((error) => error.path).sort()).toEqual(['parameters', 'strict']);
  });

  it('escapes a placeholder by where it stands in HTML: a URL attribute takes safe URLs only, a tag no new attribute', async () => {
    await createTemplate(
      'links',
      '<a href="{{url}}">{{text}}</a><img src=\' {{img}}\'><a title="{{title}}" href={{bare}}>x</a><a href="https://x.test/?q={{q}}">q</a>',
    );
    const values = {
      url: 'javascript:alert(1)',
      text: '<b>"hi"</b>',
      img: 'JaVa\tScRiPt:alert(2)',
      title: 'javascript:kept as text',
      bare: 'https://ok.test/ onmouseover=alert(3)',
      q: 'javascript:fine-inside',
    };
    const result = await client.call<{ body: string }>('POST', `${TEMPLATES}/links/render`, { body: renderBody(values) });
    expect(result.status).toBe(200);
    expect(result.body.body).toBe(
      '<a href="about:invalid">&lt;b&gt;&quot;hi&quot;&lt;/b&gt;</a><img src=\' about:invalid\'>' +
        '<a title="javascript:kept as text" href=https://ok.test/&#x20;onmouseover&#x3d;alert&#x28;3&#x29;>x</a>' +
        '<a href="https://x.test/?q=javascript:fine-inside">q</a>',
    );
    const safe = await client.call<{ body: string }>('POST', `${TEMPLATES}/links/render`, {
      body: renderBody({ url: 'https://a.test/?x=1&y=2', img: '/logo.png', bare: 'mailto:a@b.test' }),
    });
    expect(safe.body.body).toContain('<a href="https://a.test/?x=1&amp;y=2">');
    expect(safe.body.body).toContain("<img src=' /logo.png'>");
    expect(safe.body.body).toContain('href=mailto:a&#x40;b.test>');
  });
});

describe('$batch answers', () => {
  function batch(requests: unknown[]) {
    return client.call<BatchAnswer>('POST', '/$batch', { body: { requests } });
  }

  it('the 3.6 KB batch of amplifying renders answers small 400s (was 312 MB)', async () => {
    await createTemplate('amplifier', '{{a}}'.repeat(104_000));
    const requests = Array.from({ length: 100 }, (_, index) => ({
      id: `r${index}`,
      method: 'POST',
      url: `operations/emailTemplates/amplifier/render`,
      body: renderBody({ a: 'x'.repeat(4000) }),
    }));
    const started = performance.now();
    const result = await batch(requests);
    expect(result.status).toBe(200);
    expect(new Set(result.body.responses.map((response) => response.status))).toEqual(new Set([400]));
    expect(result.text.length).toBeLessThan(MAX_BATCH_ANSWER_BYTES + 100 * 2048);
    expect(performance.now() - started).toBeLessThan(30_000);
  });

  it('holds at most MAX_BATCH_ANSWER_BYTES of inner bodies: later answers are their own 507 AnswerTooLarge', async () => {
    await createTemplate('mega', '{{a}}'.repeat(250));
    const requests = Array.from({ length: 12 }, (_, index) => ({
      id: `r${index}`,
      method: 'POST',
      url: 'operations/emailTemplates/mega/render',
      body: renderBody({ a: 'x'.repeat(4000) }),
    }));
    const result = await batch(requests);
    expect(result.status).toBe(200);
    const statuses = result.body.responses.map((response) => response.status);
    const fitting = Math.floor(MAX_BATCH_ANSWER_BYTES / 1_000_200);
    expect(statuses).toEqual([...Array.from({ length: fitting }, () => 200), ...Array.from({ length: 12 - fitting }, () => 507)]);
    const refused = result.body.responses[fitting];
    expect(refused?.body?.code).toBe('AnswerTooLarge');
    expect(refused?.body?.detail).toContain(`Request r${fitting} ran and answered 200`);
    expect(result.text.length).toBeLessThan(MAX_BATCH_ANSWER_BYTES + 12 * 2048);
  });

  it('refuses one inner answer over MAX_INNER_ANSWER_BYTES (its own 507), the others stay', async () => {
    await createTemplate('wide', '{{a}}'.repeat(250));
    const result = await batch([
      { id: 'small', method: 'GET', url: 'operations/emailTemplates/wide' },
      { id: 'huge', method: 'POST', url: 'operations/emailTemplates/wide/render', body: renderBody({ a: '中'.repeat(4000) }) },
      { id: 'after', method: 'GET', url: 'operations/emailTemplates/wide' },
    ]);
    expect(result.body.responses.map((response) => response.status)).toEqual([200, 507, 200]);
    expect(result.body.responses[1]?.body?.detail).toContain(`more than ${MAX_INNER_ANSWER_BYTES} bytes`);
  });

  it('answers Cache-Control: no-store when an inner answer holds a new secret', async () => {
    const withSecret = await batch([{ id: 'client', method: 'POST', url: 'identity/apiClients', body: { name: 'Batch client' } }]);
    expect(withSecret.body.responses[0]?.status).toBe(201);
    expect(withSecret.headers.get('cache-control')).toBe('no-store');
    const without = await batch([{ id: 'list', method: 'GET', url: 'operations/emailTemplates/odata?$top=1' }]);
    expect(without.headers.get('cache-control')).toBeNull();
  });
});

describe('fuzz findings', () => {
  it('stores a leading U+FEFF of an API client name as sent (the answer shows what is stored)', async () => {
    const created = await client.call<{ clientId: string; name: string }>('POST', '/identity/apiClients', {
      body: { name: '\uFEFFBom  ' },
    });
    expect(created.status).toBe(201);
    expect(created.body.name).toBe('\uFEFFBom');
    const read = await client.call<{ name: string }>('GET', `/identity/apiClients/${created.body.clientId}`);
    expect(read.body.name).toBe('\uFEFFBom');
  });

  it('refuses unknown properties named like Object.prototype members, as any other unknown property', async () => {
    const paths = async (path: string, body: unknown) => {
      const result = await client.call<Problem>('POST', path, { body });
      expect(result.status, result.text).toBe(400);
      return result.body.errors.map((error) => error.path).sort();
    };
    const lookup = '/businessCore/exchangeRatesDocuments';
    expect(
      await paths(`${lookup}/getCurrencyExchangeRatesByCompany`, { currencyKey: 'USD', companyKey: 'C', constructor: 1, zzz: 2 }),
    ).toEqual(['constructor', 'zzz']);
    expect(await paths(`${lookup}/getCurrencyExchangeRates`, { currencyFromKey: 'USD', currencyToKey: 'EUR', toString: 1 })).toEqual([
      'toString',
    ]);
    expect(await paths(`${IMPORTS}/revertImportFile`, { constructor: 1 })).toEqual(['constructor']);
    expect(
      await paths(TEMPLATES, {
        templateKey: 'k',
        subject: 'S',
        emailTemplateType: 'HTML',
        notificationBody: 'B',
        culture: 'en-US',
        constructor: 1,
      }),
    ).toEqual(['constructor']);
  });

  it('the failures CSV quotes a cell with `;` and escapes a formula after it', async () => {
    const csv = 'templateKey;subject;emailTemplateType;notificationBody;culture\n"x,=cmd";"a;=HYPERLINK(1)";Nope;b;en-US\n';
    const started = await client.call<{ id: string }>('POST', `${IMPORTS}/files?importDataTemplate=emailTemplates`, {
      rawBody: csv,
      headers: { 'content-type': 'text/csv' },
    });
    expect(started.status).toBe(202);
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const read = await client.call<{ importDataState: number }>('GET', `${IMPORTS}/${started.body.id}`);
      if (read.body.importDataState >= 3) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const failures = await call('GET', `${client.base}${IMPORTS}/${started.body.id}/failures`, { token: client.token });
    expect(failures.status).toBe(200);
    expect(failures.text).toContain(`"a;'=HYPERLINK(1)"`);
    expect(failures.text.split(';').every((cell) => !/^[=+\-@]/.test(cell))).toBe(true);
  });
});
