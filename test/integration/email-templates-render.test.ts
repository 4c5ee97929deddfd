/** Rendering email templates (`POST /{templateKey}/render`) and listing their placeholders (`GET /{templateKey}/placeholders`). */
import { beforeEach, describe, expect, it } from 'vitest';
import { applySeedModule } from '../../scripts/seed/apply.mjs';
import type { SeedModule } from '../../scripts/seed/apply.mjs';
import * as templateSeed from '../../scripts/seed/email-templates.mjs';
import * as routeSeed from '../../scripts/seed/routes.mjs';
import type { Problem, TenantClient } from '../helpers/api';
import { createRoute, ROUTES, seedRouteReferenceData } from '../helpers/routes';
import { openClientD1 } from '../helpers/tenant-db';
import { freshTenant } from '../helpers/tenants';

const BASE = '/operations/emailTemplates';

interface Rendering {
  subject: string;
  body: string;
  emailTemplateType: number;
  culture: string;
  missingParameters: string[];
}

let client: TenantClient;

beforeEach(async () => {
  client = await freshTenant('render');
});

async function createTemplate(body: Record<string, unknown>, as: TenantClient = client): Promise<void> {
  const result = await as.call('POST', BASE, {
    body: { subject: 'Subject', emailTemplateType: 'HTML', notificationBody: 'Body', culture: 'en-US', ...body },
  });
  expect(result.status, result.text).toBe(201);
}

function render(templateKey: string, body: unknown, query = '', as: TenantClient = client) {
  return as.call<Rendering & Problem>('POST', `${BASE}/${templateKey}/render${query}`, { body });
}

const parameters = (values: Record<string, unknown>) => ({
  parameters: Object.entries(values).map(([name, value]) => ({ name, value })),
});

const paths = (problem: Problem) => problem.errors.map((error) => error.path).sort();

describe('render with parameters', () => {
  it('answers subject, body, type, culture and the placeholders without a value', async () => {
    await createTemplate({
      templateKey: 'hello',
      subject: 'Hello {{Name}} ({{missingOne}})',
      notificationBody: '<p>Hi {{ name }}, your code is {{CODE}}.{{missingTwo}}{{MissingOne}}</p>',
    });
    const result = await render('hello', parameters({ name: 'Ana', code: 'X1', unused: 'ignored' }));
    expect(result.status, result.text).toBe(200);
    expect(result.body).toEqual({
      subject: 'Hello Ana ()',
      body: '<p>Hi Ana, your code is X1.</p>',
      emailTemplateType: 1,
      culture: 'en-US',
      missingParameters: ['missingOne', 'missingTwo'],
    });
    // null is no value: listed as missing and rendered empty.
    const withNull = await render('hello', parameters({ NAME: null, code: '' }));
    expect(withNull.body).toMatchObject({ subject: 'Hello  ()', body: '<p>Hi , your code is .</p>' });
    expect(withNull.body.missingParameters).toEqual(['Name', 'missingOne', 'missingTwo']);
    // Literal segments match in any case, as every path's do; the key stays exact.
    const spelled = await client.call<Rendering>('POST', '/Operations/EmailTemplates/hello/RENDER', { body: parameters({ name: 'Bo' }) });
    expect([spelled.status, spelled.body.subject]).toEqual([200, 'Hello Bo ()']);
    expect((await client.call('GET', '/operations/emailtemplates/hello/Placeholders')).status).toBe(200);
    expect((await client.call('GET', '/operations/emailTemplates/HELLO/placeholders')).status).toBe(404);
  });

  it('HTML-escapes every value of an HTML template, subject included; a Text template takes values as given', async () => {
    const subject = 'About {{who}}';
    const notificationBody = '<p>{{who}} said: {{what}}</p>';
    await createTemplate({ templateKey: 'html', subject, notificationBody });
    await createTemplate({ templateKey: 'text', subject, notificationBody, emailTemplateType: 'Text' });
    const values = parameters({ who: 'Tom & "Jerry"', what: `<script>alert('x')</script>` });
    const html = await render('html', values);
    expect(html.body).toMatchObject({
      subject: 'About Tom &amp; &quot;Jerry&quot;',
      body: '<p>Tom &amp; &quot;Jerry&quot; said: &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;</p>',
      emailTemplateType: 1,
    });
    const text = await render('text', values);
    expect(text.body).toMatchObject({
      subject: 'About Tom & "Jerry"',
      body: `<p>Tom & "Jerry" said: <script>alert('x')</script></p>`,
      emailTemplateType: 2,
    });
  });

  it('never renders a placeholder that comes from a value', async () => {
    await createTemplate({ templateKey: 'inject', subject: '{{a}}', notificationBody: '{{a}}|{{b}}', emailTemplateType: 'Text' });
    const result = await render('inject', parameters({ a: '{{b}}', b: '{{{a}}}{{#b}}x{{/b}}' }));
    expect(result.status, result.text).toBe(200);
    expect(result.body).toMatchObject({ subject: '{{b}}', body: '{{b}}|{{{a}}}{{#b}}x{{/b}}', missingParameters: [] });
  });

  it('formats numbers for the template culture (en-US, pt-PT, es-ES); strings stay as given', async () => {
    const expected: [string, RegExp, string][] = [
      ['en-US', /^1,234\.5 \| 12,345\.25 \| 0\.5$/, '1234.5'],
      ['pt-PT', /^1234,5 \| 12[\s\u00a0\u202f]345,25 \| 0,5$/u, '1234.5'],
      ['es-ES', /^1234,5 \| 12\.345,25 \| 0,5$/, '1234.5'],
    ];
    for (const [culture, pattern, text] of expected) {
      const templateKey = `numbers-${culture}`;
      await createTemplate({ templateKey, culture, subject: '{{text}}', notificationBody: '{{a}} | {{b}} | {{c}}' });
      const result = await render(templateKey, parameters({ a: 1234.5, b: 12345.25, c: 0.5, text: '1234.5' }));
      expect(result.status, result.text).toBe(200);
      expect(result.body.body).toMatch(pattern);
      expect(result.body).toMatchObject({ subject: text, culture });
    }
  });

  it('with strict=true answers 400 naming each placeholder without a value', async () => {
    await createTemplate({ templateKey: 'strict', subject: '{{a}} {{B}}', notificationBody: '{{b}} {{c}} {{d}}' });
    const refused = await render('strict', parameters({ a: 'x', d: null }), '?strict=true');
    expect(refused.status).toBe(400);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect(refused.body.code).toBe('ValidationFailed');
    expect(refused.body.errors.map((error) => error.path)).toEqual(['parameters.B', 'parameters.c', 'parameters.d']);
    expect(refused.body.errors[0]?.message).toContain('B');
    const complete = await render('strict', parameters({ a: 'x', b: 'y', c: 'z', d: 'w' }), '?strict=1');
    expect(complete.body).toMatchObject({ subject: 'x y', body: 'y z w', missingParameters: [] });
    expect((await render('strict', parameters({}), '?strict=false')).status).toBe(200);
    const bad = await render('strict', parameters({}), '?strict=yes');
    expect([bad.status, paths(bad.body)]).toEqual([400, ['strict']]);
  });

  it('answers 400 naming every bad field of the body', async () => {
    await createTemplate({ templateKey: 'body' });
    const many = await render('body', {
      parameters: [
        { name: '', value: true },
        { value: 'x' },
        'text',
        { name: 'a', value: 'b' },
        { name: 'A', value: 'c' },
        { name: 'z', value: '1', extra: 1 },
      ],
      bogus: 1,
    });
    expect(many.status).toBe(400);
    expect(many.body.code).toBe('ValidationFailed');
    expect(paths(many.body)).toEqual(
      [
        'bogus',
        'parameters[0].name',
        'parameters[0].value',
        'parameters[1].name',
        'parameters[2]',
        'parameters[4].name',
        'parameters[5].extra',
      ].sort(),
    );
    const both = await render('body', { parameters: [], route: { companyKey: 'C1', routeKey: 'R1' } });
    expect(paths(both.body)).toEqual(['parameters', 'route']);
    const neither = await render('body', {});
    expect([neither.status, paths(neither.body)]).toEqual([400, ['parameters']]);
    const badRoute = await render('body', { route: { companyKey: 1 } });
    expect(paths(badRoute.body)).toEqual(['route.companyKey', 'route.routeKey']);
    const notList = await render('body', { Parameters: { name: 'a' } });
    expect(paths(notList.body)).toEqual(['parameters']);
    // Property names bind case-insensitively, as in every body.
    const bound = await render('body', { Parameters: [{ Name: 'x', VALUE: 'y' }] });
    expect(bound.status, bound.text).toBe(200);
  });

  it('answers 404 for a template that does not exist, in this or another tenant/org', async () => {
    await createTemplate({ templateKey: 'mine', subject: '{{a}}' });
    const other = await freshTenant('render-other');
    for (const as of [client, other]) {
      const templateKey = as === client ? 'nobody' : 'mine';
      const missing = await render(templateKey, parameters({ a: 'x' }), '', as);
      expect([missing.status, missing.body.code, paths(missing.body)]).toEqual([404, 'RecordNotFound', ['templateKey']]);
      const listed = await as.call<Problem>('GET', `${BASE}/${templateKey}/placeholders`);
      expect([listed.status, listed.body.code]).toEqual([404, 'RecordNotFound']);
    }
  });
});

describe('placeholder syntax', () => {
  it('refuses a malformed or unsupported placeholder on create, naming each field beside the other bad ones', async () => {
    const result = await client.call<Problem>('POST', BASE, {
      body: { templateKey: 'bad', subject: 'Hi {{name', emailTemplateType: 1, notificationBody: '{{#list}}x{{/list}}', culture: 42 },
    });
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('ValidationFailed');
    expect(paths(result.body)).toEqual(['culture', 'notificationBody', 'subject']);
    const body = result.body.errors.find((error) => error.path === 'notificationBody');
    expect(body?.message).toContain('{{#list}}');
    expect(body?.message).toContain('character 1');
    for (const notificationBody of ['{{{raw}}}', '{{&raw}}', '{{> partial}}', '{{! note }}', '{{=<% %>=}}', '{{a.b}}', '{{}}']) {
      const refused = await client.call<Problem>('POST', BASE, {
        body: { templateKey: 'bad', subject: 's', emailTemplateType: 1, notificationBody, culture: 'en-US' },
      });
      expect([refused.status, paths(refused.body)], notificationBody).toEqual([400, ['notificationBody']]);
    }
  });

  it('refuses one on an attribute PUT, and keeps the stored value', async () => {
    await createTemplate({ templateKey: 'put', subject: 'Hi {{name}}' });
    const refused = await client.call<Problem>('PUT', `${BASE}/put/subject`, { body: 'Hi {{name}' });
    expect([refused.status, paths(refused.body)]).toEqual([400, ['subject']]);
    const body = await client.call<Problem>('PUT', `${BASE}/put/notificationBody`, { body: { value: '{{^x}}{{/x}}' } });
    expect([body.status, paths(body.body)]).toEqual([400, ['notificationBody']]);
    const read = await client.call<Record<string, unknown>>('GET', `${BASE}/put`);
    expect(read.body).toMatchObject({ subject: 'Hi {{name}}', notificationBody: 'Body', version: 1 });
    expect((await client.call('PUT', `${BASE}/put/subject`, { body: 'Hello {{ Name }}' })).status).toBe(200);
  });

  it('answers 400 naming the field when a stored template is malformed (written before the check)', async () => {
    await createTemplate({ templateKey: 'stored', subject: 'ok {{a}}', notificationBody: 'ok' });
    const d1 = await openClientD1(client);
    await d1
      .prepare('UPDATE email_templates SET subject = ?, notification_body = ? WHERE tenant_key = ? AND org_key = ? AND template_key = ?')
      .bind('{{#a}}', 'Hello {{name', client.tenant, client.org, 'stored')
      .run();
    const rendered = await render('stored', parameters({ a: 'x' }));
    expect([rendered.status, rendered.body.code, paths(rendered.body)]).toEqual([400, 'ValidationFailed', ['notificationBody', 'subject']]);
    const listed = await client.call<Problem>('GET', `${BASE}/stored/placeholders`);
    expect([listed.status, paths(listed.body)]).toEqual([400, ['notificationBody', 'subject']]);
  });

  it('lists the placeholder names of the subject and the body', async () => {
    await createTemplate({
      templateKey: 'names',
      subject: '{{routeKey}} on {{ Date }}',
      notificationBody: '{{RouteKey}} {{description}} {{date}} {{company}}',
    });
    const result = await client.call<Record<string, string[]>>('GET', `${BASE}/names/placeholders`);
    expect(result.status, result.text).toBe(200);
    expect(result.body).toEqual({
      placeholders: ['routeKey', 'Date', 'description', 'company'],
      subject: ['routeKey', 'Date'],
      notificationBody: ['RouteKey', 'description', 'date', 'company'],
    });
  });
});

describe('render for a route', () => {
  beforeEach(async () => {
    await seedRouteReferenceData(client);
    await createRoute(client, { routeKey: 'N1', description: 'Boiler <check>', responsible: 'E1', tools: 'T1,T2' });
    const added = await client.call('POST', `${ROUTES}/N1/locations/add`, { body: ['L1', 'L2'] });
    expect(added.status, added.text).toBe(200);
    await createRoute(client, { routeKey: 'N2', company: 'C2' });
  });

  const SUBJECT = 'Route {{routeKey}} on {{date}}';
  const BODY = '{{description}} | {{companyName}} | {{responsibleName}} | {{locationCount}} | {{locations}} | {{longDate}}';

  it("uses the route's maintenance notification parameters, formatted for the template culture", async () => {
    const cultures: [string, RegExp, string, RegExp][] = [
      ['en-US', /^\d{2}\/\d{2}\/\d{4}$/, 'L1 (Boiler room) and L2 (Roof)', /^[A-Z][a-z]+ \d{1,2}, \d{4}$/],
      ['pt-PT', /^\d{2}\/\d{2}\/\d{4}$/, 'L1 (Boiler room) e L2 (Roof)', /^\d{1,2} de \p{L}+ de \d{4}$/u],
      ['es-ES', /^\d{1,2}\/\d{1,2}\/\d{4}$/, 'L1 (Boiler room) y L2 (Roof)', /^\d{1,2} de \p{L}+ de \d{4}$/u],
    ];
    for (const [culture, date, locations, longDate] of cultures) {
      const templateKey = `route-${culture}`;
      await createTemplate({ templateKey, culture, subject: SUBJECT, notificationBody: BODY, emailTemplateType: 'Text' });
      const result = await render(templateKey, { route: { companyKey: 'C1', routeKey: 'N1' } });
      expect(result.status, result.text).toBe(200);
      expect(result.body.culture).toBe(culture);
      expect(result.body.missingParameters).toEqual([]);
      const subject = /^Route N1 on (.+)$/.exec(result.body.subject);
      expect(subject?.[1], culture).toMatch(date);
      const [description, company, responsible, count, list, long] = result.body.body.split(' | ');
      expect([description, company, responsible, count, list], culture).toEqual([
        'Boiler <check>',
        'Company One',
        'Ana Silva',
        '2',
        locations,
      ]);
      expect(long, culture).toMatch(longDate);
    }
  });

  it('escapes route values in an HTML template and lists the null ones as missing', async () => {
    await createTemplate({ templateKey: 'route-html', subject: SUBJECT, notificationBody: BODY });
    const result = await render('route-html', { route: { companyKey: 'C2', routeKey: 'N2' } });
    expect(result.status, result.text).toBe(200);
    expect(result.body.missingParameters).toEqual(['responsibleName']);
    expect(result.body.body.split(' | ').slice(0, 5)).toEqual(['Weekly round', 'Company Two', '', '0', '']);
    const escaped = await render('route-html', { route: { companyKey: 'C1', routeKey: 'N1' } });
    expect(escaped.body.body).toMatch(/^Boiler &lt;check&gt; \| /);
    const strict = await render('route-html', { route: { companyKey: 'C2', routeKey: 'N2' } }, '?strict=true');
    expect([strict.status, paths(strict.body)]).toEqual([400, ['route.responsibleName']]);
  });

  it('answers 404 for a route that does not exist, in this or another tenant/org', async () => {
    await createTemplate({ templateKey: 'route-404', subject: SUBJECT });
    const missing = await render('route-404', { route: { companyKey: 'C1', routeKey: 'NOPE' } });
    expect([missing.status, missing.body.code, paths(missing.body)]).toEqual([
      404,
      'RecordNotFound',
      ['route.companyKey', 'route.routeKey'],
    ]);
    // Another tenant with the same template key and reference data, but not the route.
    const other = await freshTenant('render-other');
    await seedRouteReferenceData(other);
    await createTemplate({ templateKey: 'route-404', subject: SUBJECT }, other);
    const theirs = await render('route-404', { route: { companyKey: 'C1', routeKey: 'N1' } }, '', other);
    expect([theirs.status, theirs.body.code, paths(theirs.body)]).toEqual([404, 'RecordNotFound', ['route.companyKey', 'route.routeKey']]);
  });
});

describe('the demo seed (README example)', () => {
  function applySeed(module: SeedModule): Promise<number> {
    return applySeedModule(module, async (method, path, body) => {
      const result = await client.call(method, path, body === undefined ? {} : { body });
      return { status: result.status, text: result.text };
    });
  }

  it('renders the seeded templates for the seeded route ACME-PT/ROUTE-01', async () => {
    await applySeed(routeSeed);
    await applySeed(templateSeed);
    const english = await render('maintenance-notification', { route: { companyKey: 'ACME-PT', routeKey: 'ROUTE-01' } });
    expect(english.status, english.text).toBe(200);
    expect(english.body.subject).toMatch(/^Maintenance on route ROUTE-01 \(\d{2}\/\d{2}\/\d{4}\)$/);
    expect(english.body.body).toMatch(
      /^<p>Route <b>ROUTE-01<\/b> \(Lisbon plant weekly HVAC round\) of ACME-PT is due for maintenance on \d{2}\/\d{2}\/\d{4}\.<\/p>$/,
    );
    expect(english.body).toMatchObject({ emailTemplateType: 1, culture: 'en-US', missingParameters: [] });
    const portuguese = await render('aviso-manutencao', { route: { companyKey: 'ACME-PT', routeKey: 'ROUTE-01' } });
    expect(portuguese.body).toMatchObject({ subject: 'Manutenção da rota ROUTE-01', emailTemplateType: 2, culture: 'pt-PT' });
    expect(portuguese.body.body).toMatch(
      /^A rota ROUTE-01 \(Lisbon plant weekly HVAC round\) tem manutenção marcada para \d{2}\/\d{2}\/\d{4}\.$/,
    );
    const names = await client.call<Record<string, string[]>>('GET', `${BASE}/maintenance-notification/placeholders`);
    expect(names.body.placeholders).toEqual(['routeKey', 'date', 'description', 'company']);
  });
});
