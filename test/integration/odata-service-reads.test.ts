/** The standard OData v4 root: service document, `$metadata`, reads (paging, count, select, expand, filter, order, key predicates). */
import { describe, expect, it } from 'vitest';
import type { TenantClient } from '../helpers/api';
import { createDocument } from '../helpers/exchange-rates';
import { assertMatchesMetadata, callService, serviceRootOf } from '../helpers/odata-service';
import type { ODataError } from '../helpers/odata-service';
import { createRoute, ROUTES, seedRouteReferenceData } from '../helpers/routes';
import { freshTenant } from '../helpers/tenants';

type Entity = Record<string, unknown>;
interface Collection {
  '@odata.context'?: string;
  '@odata.count'?: number;
  '@odata.nextLink'?: string;
  value: Entity[];
}

async function createTemplates(client: TenantClient, keys: readonly string[]): Promise<void> {
  for (const [index, key] of keys.entries()) {
    const result = await client.call('POST', '/operations/emailTemplates', {
      body: {
        templateKey: key,
        subject: `Subject ${index}`,
        notificationBody: 'Body',
        culture: 'en-US',
        emailTemplateType: index % 2 === 0 ? 1 : 2,
      },
    });
    expect(result.status, result.text).toBe(201);
  }
}

/** A route R1 of C1 with two locations and a tool, and a document 7 with two rate lines. */
async function seedRouteAndDocument(client: TenantClient): Promise<void> {
  await seedRouteReferenceData(client);
  await createRoute(client, { tools: ['T1'] });
  expect((await client.call('POST', `${ROUTES}/R1/locations/add`, { body: ['L2', 'L1'] })).status).toBe(200);
  await createDocument(client, 7, '2026-01-01T00:00:00Z', [
    ['EUR', 'USD', '1.1'],
    ['USD', 'EUR', '0.9'],
  ]);
}

describe('service document and $metadata', () => {
  it('lists every entity set; $metadata is CSDL XML by default, CSDL JSON when asked', async () => {
    const client = await freshTenant();
    const root = await callService<Collection>(client, 'GET', '');
    expect(root.status).toBe(200);
    expect(root.headers.get('odata-version')).toBe('4.0');
    expect(root.body['@odata.context']).toBe(`${serviceRootOf(client)}$metadata`);
    expect(root.body.value).toContainEqual({ name: 'emailTemplates', kind: 'EntitySet', url: 'emailTemplates' });
    expect(root.body.value.map((set) => set.name)).toEqual(
      expect.arrayContaining(['routes', 'exchangeRatesDocuments', 'companies', 'cultures', 'currencies']),
    );
    expect((await callService(client, 'GET', '', { headers: { authorization: '' }, token: null })).status).toBe(401);

    const xml = await callService<string>(client, 'GET', '$metadata');
    expect(xml.status).toBe(200);
    expect(xml.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(xml.body).toContain('<EntitySet Name="emailTemplates" EntityType="Erp.EmailTemplate">');
    expect(xml.body).toContain(
      '<NavigationProperty Name="exchangeRateDocumentRates" Type="Collection(Erp.ExchangeRateDocumentRate)" ContainsTarget="true"/>',
    );
    expect(xml.body).toContain('<EnumType Name="EmailTemplateType">');
    const asked: { path: string; headers: Record<string, string> }[] = [
      { path: '$metadata', headers: { accept: 'application/json' } },
      { path: '$metadata?$format=json', headers: {} },
    ];
    for (const request of asked) {
      const json = await callService<Record<string, Record<string, Record<string, unknown>>>>(client, 'GET', request.path, {
        headers: request.headers,
      });
      expect(json.headers.get('content-type')).toMatch(/^application\/json/);
      expect(json.body.Erp?.Route).toMatchObject({ $Kind: 'EntityType', $Key: ['company', 'routeKey'], $OpenType: true });
      expect(json.body.Erp?.Container?.routes).toMatchObject({ $Type: 'Erp.Route', '@Capabilities.TopSupported': true });
    }
  });

  it('never drifts: every set is readable and its records have exactly the properties $metadata declares', async () => {
    const client = await freshTenant();
    await seedRouteAndDocument(client);
    await createTemplates(client, ['welcome']);
    const metadata = await callService<Record<string, Record<string, Record<string, unknown>>>>(client, 'GET', '$metadata?$format=json');
    const schema = metadata.body.Erp ?? {};
    const container = schema.Container ?? {};
    for (const [name, set] of Object.entries(container)) {
      if (name.startsWith('$')) continue;
      const type = schema[String((set as { $Type: string }).$Type).replace('Erp.', '')] ?? {};
      const declared = Object.entries(type).filter(
        ([key, value]) => !key.startsWith('$') && (value as { $Kind?: string }).$Kind === undefined,
      );
      const navigations = Object.entries(type).filter(([, value]) => (value as { $Kind?: string }).$Kind === 'NavigationProperty');
      const read = await callService<Collection>(client, 'GET', `${name}?$top=1${navigations.length > 0 ? '&$expand=*' : ''}`);
      expect(read.status, `${name}: ${read.text}`).toBe(200);
      const [record] = read.body.value;
      if (!record) continue;
      const answered = Object.keys(record).filter((key) => !key.startsWith('@') && !key.startsWith('custom_'));
      expect(answered.sort(), name).toEqual([...declared.map(([key]) => key), ...navigations.map(([key]) => key)].sort());
    }
  });
});

describe('the $metadata contract check of callService()', () => {
  it('accepts declared properties of their types and refuses anything else', async () => {
    const client = await freshTenant();
    const context = `${serviceRootOf(client)}$metadata#emailTemplates`;
    const good = {
      id: '0f8fad5b-d9cb-469f-a165-70867728950e',
      templateKey: 'k',
      emailTemplateType: 'HTML',
      description: null,
      custom_x: 1,
    };
    await expect(assertMatchesMetadata(client, { '@odata.context': context, value: [good] })).resolves.toBeUndefined();
    const bad = (entity: Record<string, unknown>) => assertMatchesMetadata(client, { '@odata.context': `${context}/$entity`, ...entity });
    await expect(bad({ nope: 1 })).rejects.toThrow(/nope: not declared by EmailTemplate/);
    await expect(bad({ templateKey: null })).rejects.toThrow(/templateKey: null, but not nullable/);
    await expect(bad({ emailTemplateType: 1 })).rejects.toThrow(/1 is no member of Erp.EmailTemplateType/);
    await expect(bad({ version: '1' })).rejects.toThrow(/"1" is not Edm.Int64/);
    await expect(bad({ templateKey: 'k'.repeat(101) })).rejects.toThrow(/is not Edm.String/);
    await expect(
      assertMatchesMetadata(client, {
        '@odata.context': `${serviceRootOf(client)}$metadata#routes/$entity`,
        locations: [{ key: 'L1', extra: 1 }],
      }),
    ).rejects.toThrow(/locations\[0\]\.extra: not declared by RouteMember/);
  });
});

describe('entity set reads', () => {
  it('answers value, @odata.context, @odata.count, @odata.etag and server-driven paging with @odata.nextLink', async () => {
    const client = await freshTenant();
    const keys = ['t1', 't2', 't3', 't4', 't5'];
    await createTemplates(client, keys);
    const first = await callService<Collection>(client, 'GET', 'emailTemplates?$count=true&$orderby=templateKey', {
      headers: { prefer: 'odata.maxpagesize=2' },
    });
    expect(first.status).toBe(200);
    expect(first.headers.get('preference-applied')).toBe('odata.maxpagesize=2');
    expect(first.body['@odata.context']).toBe(`${serviceRootOf(client)}$metadata#emailTemplates`);
    expect(first.body['@odata.count']).toBe(5);
    expect(first.body.value[0]).toMatchObject({ '@odata.etag': '"1"', templateKey: 't1', emailTemplateType: 'HTML', version: 1 });
    const seen = first.body.value.map((item) => item.templateKey);
    let next = first.body['@odata.nextLink'];
    expect(next).toMatch(/^https:\/\/api\.test\/odata\/.*\/emailTemplates\?.*%24skiptoken=/);
    while (next) {
      const page = await callService<Collection>(client, 'GET', next, { headers: { prefer: 'odata.maxpagesize=2' } });
      expect(page.status, page.text).toBe(200);
      seen.push(...page.body.value.map((item) => item.templateKey));
      next = page.body['@odata.nextLink'];
    }
    expect(seen).toEqual(keys);
    // $top is the total: 3 rows in pages of 2, then no more link.
    const topped = await callService<Collection>(client, 'GET', 'emailTemplates?$top=3&$orderby=templateKey desc', {
      headers: { prefer: 'odata.maxpagesize=2' },
    });
    const second = await callService<Collection>(client, 'GET', topped.body['@odata.nextLink'] ?? '');
    expect([...topped.body.value, ...second.body.value].map((item) => item.templateKey)).toEqual(['t5', 't4', 't3']);
    expect(second.body['@odata.nextLink']).toBeUndefined();
    const skipped = await callService<Collection>(client, 'GET', 'emailTemplates?$skip=3&$orderby=templateKey');
    expect(skipped.body.value.map((item) => item.templateKey)).toEqual(['t4', 't5']);
  });

  it('filters (enum literals standard or as today), orders, selects, counts with /$count', async () => {
    const client = await freshTenant();
    await createTemplates(client, ['a1', 'a2', 'b1', 'b2']);
    const text = await callService<Collection>(
      client,
      'GET',
      "emailTemplates?$filter=emailTemplateType eq Erp.EmailTemplateType'Text'&$select=templateKey,emailTemplateType",
    );
    expect(text.body.value).toEqual([
      { '@odata.etag': '"1"', templateKey: 'a2', emailTemplateType: 'Text' },
      { '@odata.etag': '"1"', templateKey: 'b2', emailTemplateType: 'Text' },
    ]);
    expect(text.body['@odata.context']).toMatch(/\$metadata#emailTemplates\(templateKey,emailTemplateType\)$/);
    const ordered = await callService<Collection>(
      client,
      'GET',
      "emailTemplates?$filter=startswith(templateKey,'b')&$orderby=templateKey desc&$select=templateKey",
    );
    expect(ordered.body.value).toEqual([
      { '@odata.etag': '"1"', templateKey: 'b2' },
      { '@odata.etag': '"1"', templateKey: 'b1' },
    ]);
    const count = await callService<string>(client, 'GET', "emailTemplates/$count?$filter=emailTemplateType eq 'HTML'&$top=1");
    expect(count.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(count.body).toBe('2');
    const bad = await callService<ODataError>(client, 'GET', 'emailTemplates?$filter=nope eq 1');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({
      code: 'InvalidODataQuery',
      target: '$filter',
      message: "$filter at position 1: unknown property 'nope'",
    });
    expect(bad.body.error.details).toEqual([
      { code: 'InvalidODataQuery', target: '$filter', message: expect.stringContaining("unknown property 'nope'") },
    ]);
  });

  it('speaks odata.metadata=none and full (Accept or $format)', async () => {
    const client = await freshTenant();
    await createTemplates(client, ['m1']);
    const none = await callService<Collection>(client, 'GET', 'emailTemplates?$count=true', {
      headers: { accept: 'application/json;odata.metadata=none' },
    });
    expect(none.headers.get('content-type')).toMatch(/odata\.metadata=none/);
    expect(Object.keys(none.body)).toEqual(['@odata.count', 'value']);
    expect(Object.keys(none.body.value[0] ?? {}).some((key) => key.startsWith('@'))).toBe(false);
    const full = await callService<Entity>(client, 'GET', "emailTemplates('m1')?$format=application/json;odata.metadata=full");
    expect(full.body).toMatchObject({
      '@odata.type': '#Erp.EmailTemplate',
      '@odata.id': `${serviceRootOf(client)}emailTemplates('m1')`,
      '@odata.editLink': `${serviceRootOf(client)}emailTemplates('m1')`,
      '@odata.etag': '"1"',
    });
    expect((await callService<ODataError>(client, 'GET', 'emailTemplates?$format=atom')).status).toBe(406);
  });
});

describe('key predicates and navigation', () => {
  it('finds single, named and composite keys, by id with an unquoted GUID; 404 and 400 in OData errors', async () => {
    const client = await freshTenant();
    await createTemplates(client, ["it's"]);
    await seedRouteAndDocument(client);
    const single = await callService<Entity>(client, 'GET', "emailTemplates('it''s')");
    expect(single.status).toBe(200);
    expect(single.headers.get('etag')).toBe('"1"');
    expect(single.body).toMatchObject({
      '@odata.context': `${serviceRootOf(client)}$metadata#emailTemplates/$entity`,
      templateKey: "it's",
    });
    expect((await callService<Entity>(client, 'GET', "emailTemplates(templateKey='it%27%27s')")).body.templateKey).toBe("it's");
    expect((await callService<Entity>(client, 'GET', `emailTemplates(${String(single.body.id).toUpperCase()})`)).body.templateKey).toBe(
      "it's",
    );
    const route = await callService<Entity>(client, 'GET', "routes(company='C1',routeKey='R1')");
    expect(route.body).toMatchObject({ company: 'C1', routeKey: 'R1', '@odata.etag': expect.any(String) });
    expect(route.body.locations).toBeUndefined();
    expect((await callService<Entity>(client, 'GET', "routes(routeKey='R1',company='C1')")).status).toBe(200);
    expect((await callService<Entity>(client, 'GET', 'exchangeRatesDocuments(7)')).body).toMatchObject({
      number: 7,
      exchangeRateType: 'Market',
    });

    const missing = await callService<ODataError>(client, 'GET', "emailTemplates('nope')");
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 'RecordNotFound', target: 'templateKey', details: [{ target: 'templateKey' }] });
    expect((await callService<ODataError>(client, 'GET', "routes(company='C1',routeKey='R9')")).body.error.target).toBe('company');
    for (const path of [
      "routes('R1')",
      "routes(company='C1')",
      "exchangeRatesDocuments('7')",
      "emailTemplates('a'",
      "emailTemplates('a')/$count",
    ]) {
      const bad = await callService<ODataError>(client, 'GET', path);
      expect(bad.status, path).toBe(400);
      expect(bad.body.error.code, path).toBe('InvalidODataQuery');
    }
    const unknown = await callService<ODataError>(client, 'GET', "nothing('x')");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NotFound');
  });

  it('expands route members and rate lines, and reads them as contained collections with /$count', async () => {
    const client = await freshTenant();
    await seedRouteAndDocument(client);
    const expanded = await callService<Entity>(
      client,
      'GET',
      "routes(company='C1',routeKey='R1')?$expand=locations,tools&$select=routeKey",
    );
    expect(expanded.body).toEqual({
      '@odata.context': `${serviceRootOf(client)}$metadata#routes(routeKey,locations,tools)/$entity`,
      '@odata.etag': expect.any(String),
      routeKey: 'R1',
      locations: [expect.objectContaining({ key: 'L1', description: 'Boiler room' }), expect.objectContaining({ key: 'L2' })],
      tools: [expect.objectContaining({ key: 'T1' })],
    });
    const list = await callService<Collection>(client, 'GET', 'exchangeRatesDocuments?$expand=exchangeRateDocumentRates&$count=true');
    expect(list.body['@odata.count']).toBe(1);
    expect(list.body.value[0]?.exchangeRateDocumentRates).toEqual([
      expect.objectContaining({ fromCurrency: 'EUR', toCurrency: 'USD', conversionFactor: 1.1 }),
      expect.objectContaining({ fromCurrency: 'USD', toCurrency: 'EUR', conversionFactor: 0.9 }),
    ]);
    const lines = await callService<Collection>(client, 'GET', 'exchangeRatesDocuments(7)/exchangeRateDocumentRates');
    expect(lines.body['@odata.context']).toBe(`${serviceRootOf(client)}$metadata#exchangeRatesDocuments(7)/exchangeRateDocumentRates`);
    expect(lines.body.value).toHaveLength(2);
    expect((await callService<string>(client, 'GET', "routes(company='C1',routeKey='R1')/locations/$count")).body).toBe('2');
    const badExpand = await callService<ODataError>(client, 'GET', 'routes?$expand=company');
    expect(badExpand.body.error).toMatchObject({ code: 'InvalidODataQuery', target: '$expand' });

    // $select inside $expand (what Power Query sends when a column of a navigation is expanded).
    const narrowed = await callService<Entity>(
      client,
      'GET',
      "routes(company='C1',routeKey='R1')?$select=routeKey&$expand=locations($select=key),tools",
    );
    expect(narrowed.status, narrowed.text).toBe(200);
    expect(narrowed.body).toEqual({
      '@odata.context': `${serviceRootOf(client)}$metadata#routes(routeKey,locations(key),tools)/$entity`,
      '@odata.etag': expect.any(String),
      routeKey: 'R1',
      locations: [{ key: 'L1' }, { key: 'L2' }],
      tools: [expect.objectContaining({ key: 'T1' })],
    });
    for (const expand of ['locations($top=1)', 'locations($select=nope)', 'locations($select=key', 'locations)']) {
      const refused = await callService<ODataError>(client, 'GET', `routes?$expand=${expand}`);
      expect(refused.status, expand).toBe(400);
      expect(refused.body.error, expand).toMatchObject({ code: 'InvalidODataQuery', target: '$expand' });
    }
  });

  it('reads reference sets: whole lists with $top/$skip/$count/$select, by key in any spelling the kind takes; no $filter', async () => {
    const client = await freshTenant();
    await seedRouteReferenceData(client);
    const companies = await callService<Collection>(client, 'GET', 'companies?$count=true&$select=key,name&$skip=1');
    expect(companies.body).toEqual({
      '@odata.context': `${serviceRootOf(client)}$metadata#companies(key,name)`,
      '@odata.count': 2,
      value: [{ key: 'C2', name: 'Company Two' }],
    });
    expect((await callService<Entity>(client, 'GET', "currencies('usd')")).body).toMatchObject({ key: 'USD', decimalPlaces: 2 });
    expect((await callService<string>(client, 'GET', 'locations/$count')).body).toBe('4');
    expect((await callService<ODataError>(client, 'GET', "companies('C7')")).status).toBe(404);
    const filtered = await callService<ODataError>(client, 'GET', "companies?$filter=key eq 'C1'");
    expect(filtered.status).toBe(400);
    expect(filtered.body.error.target).toBe('$filter');
  });
});
