/** Change tracking on the standard root: `Prefer: odata.track-changes`, delta links from the change feed, `@removed` entries. */
import { describe, expect, it } from 'vitest';
import { callService, serviceRootOf } from '../helpers/odata-service';
import type { ODataError } from '../helpers/odata-service';
import { openClientD1 } from '../helpers/tenant-db';
import { freshTenant } from '../helpers/tenants';

type Entity = Record<string, unknown>;
interface Collection {
  value: Entity[];
  '@odata.context'?: string;
  '@odata.nextLink'?: string;
  '@odata.deltaLink'?: string;
}

const template = (key: string, culture = 'en-US') => ({
  templateKey: key,
  subject: 'Hello',
  notificationBody: 'Body',
  culture,
  emailTemplateType: 'Text',
});
const TRACK = { prefer: 'odata.track-changes' };

describe('change tracking', () => {
  it('answers a delta link on the last page; following it gives what changed, what was deleted and what no longer matches', async () => {
    const client = await freshTenant();
    for (const key of ['a', 'b', 'c', 'd'])
      expect((await callService(client, 'POST', 'emailTemplates', { body: template(key) })).status).toBe(201);
    const start = await callService<Collection>(client, 'GET', "emailTemplates?$filter=culture eq 'en-US'&$select=templateKey,subject", {
      headers: { ...TRACK, prefer: 'odata.track-changes, odata.maxpagesize=3' },
    });
    expect(start.status, start.text).toBe(200);
    expect(start.headers.get('preference-applied')).toBe('odata.maxpagesize=3, odata.track-changes');
    expect(start.body['@odata.deltaLink']).toBeUndefined();
    const next = start.body['@odata.nextLink'] ?? '';
    expect(next).toContain('trackfrom=');

    // A change while the client pages is not lost: it comes with the delta link made from before the first page.
    const updated = await client.call('PUT', '/operations/emailTemplates/a/subject', { body: 'While paging' });
    expect(updated.status).toBe(200);

    const last = await callService<Collection>(client, 'GET', next);
    expect(last.status, last.text).toBe(200);
    expect(last.body.value.map((entity) => entity.templateKey)).toEqual(['d']);
    expect(last.headers.get('preference-applied')).toBe('odata.track-changes');
    const deltaLink = last.body['@odata.deltaLink'] ?? '';
    expect(deltaLink.startsWith(`${serviceRootOf(client)}emailTemplates?`)).toBe(true);
    expect(new URL(deltaLink).searchParams.get('$filter')).toBe("culture eq 'en-US'");

    expect((await callService(client, 'POST', 'emailTemplates', { body: template('e') })).status).toBe(201);
    expect((await callService(client, 'POST', 'emailTemplates', { body: template('f', 'pt-PT') })).status).toBe(201);
    expect((await client.call('DELETE', '/operations/emailTemplates/b')).status).toBe(204);
    expect((await client.call('PUT', '/operations/emailTemplates/c/culture', { body: 'pt-PT' })).status).toBe(200);

    const delta = await callService<Collection>(client, 'GET', deltaLink);
    expect(delta.status, delta.text).toBe(200);
    expect(delta.body['@odata.context']).toBe(`${serviceRootOf(client)}$metadata#emailTemplates/$delta`);
    const changed = delta.body.value.filter((entity) => !('@removed' in entity));
    expect(changed.map((entity) => [entity.templateKey, entity.subject])).toEqual([
      ['a', 'While paging'],
      ['e', 'Hello'],
    ]);
    expect(Object.keys(changed[0] ?? {}).sort()).toEqual(['@odata.etag', 'subject', 'templateKey']);
    const removed = delta.body.value.filter((entity) => '@removed' in entity);
    expect(removed).toEqual([
      expect.objectContaining({
        '@removed': { reason: 'deleted' },
        '@id': `${serviceRootOf(client)}emailTemplates('b')`,
        templateKey: 'b',
      }),
      expect.objectContaining({
        '@removed': { reason: 'changed' },
        '@id': `${serviceRootOf(client)}emailTemplates('c')`,
        templateKey: 'c',
      }),
    ]);

    // Nothing since: an empty page and a new delta link, which follows on from there.
    const again = await callService<Collection>(client, 'GET', delta.body['@odata.deltaLink'] ?? '');
    expect(again.body.value).toEqual([]);
    expect((await client.call('PUT', '/operations/emailTemplates/e/subject', { body: 'Later' })).status).toBe(200);
    const later = await callService<Collection>(client, 'GET', again.body['@odata.deltaLink'] ?? '');
    expect(later.body.value.map((entity) => [entity.templateKey, entity.subject])).toEqual([['e', 'Later']]);
  });

  it('pages a long delta with next links, each change once', async () => {
    const client = await freshTenant();
    const start = await callService<Collection>(client, 'GET', 'emailTemplates', { headers: TRACK });
    const deltaLink = start.body['@odata.deltaLink'] ?? '';
    expect(start.body.value).toEqual([]);
    const keys = Array.from({ length: 45 }, (_, index) => `k${String(index).padStart(2, '0')}`);
    const batch = keys.map((key, index) => ({
      id: String(index),
      method: 'POST',
      url: 'operations/emailTemplates',
      body: { ...template(key), emailTemplateType: 2 },
    }));
    expect((await client.call('POST', '/$batch', { body: { requests: batch } })).status).toBe(200);
    const seen: string[] = [];
    let link: string | undefined = deltaLink;
    let pages = 0;
    while (link) {
      const page: { body: Collection } = await callService<Collection>(client, 'GET', link);
      seen.push(...page.body.value.map((entity) => String(entity.templateKey)));
      pages += 1;
      link = page.body['@odata.nextLink'];
      if (!link) expect(page.body['@odata.deltaLink']).toBeDefined();
    }
    expect(pages).toBeGreaterThan(1);
    expect(seen).toEqual(keys);
  });

  it('refuses a token that is not one, or of another tenant/org, naming $deltatoken', async () => {
    const client = await freshTenant();
    const bad = await callService<ODataError>(client, 'GET', 'emailTemplates?$deltatoken=nope');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('InvalidCursor');
    expect(bad.body.error.target).toBe('$deltatoken');

    const other = await freshTenant();
    for (const key of ['x', 'y']) await callService(other, 'POST', 'emailTemplates', { body: template(key) });
    const theirs = await callService<Collection>(other, 'GET', 'emailTemplates', { headers: TRACK });
    await callService(other, 'POST', 'emailTemplates', { body: template('z') });
    const token = new URL(theirs.body['@odata.deltaLink'] ?? '').searchParams.get('$deltatoken') ?? '';
    const mine = await callService<ODataError>(client, 'GET', `emailTemplates?$deltatoken=${token}`);
    expect(mine.status).toBe(400);
    expect(mine.body.error.target).toBe('$deltatoken');
  });

  it('answers 410 for a delta link older than the feed keeps, saying how to start over', async () => {
    const client = await freshTenant();
    const start = await callService<Collection>(client, 'GET', 'emailTemplates', { headers: TRACK });
    for (const key of ['a', 'b']) await callService(client, 'POST', 'emailTemplates', { body: template(key) });
    const db = await openClientD1(client);
    await db
      .prepare('INSERT INTO change_event_retention (tenant_key, org_key, pruned_seq, pruned_on) VALUES (?, ?, 1, ?)')
      .bind(client.tenant, client.org, new Date().toISOString())
      .run();
    const expired = await callService<ODataError>(client, 'GET', start.body['@odata.deltaLink'] ?? '');
    expect(expired.status).toBe(410);
    expect(expired.body.error).toMatchObject({ code: 'CursorExpired', target: '$deltatoken' });
    expect(expired.body.error.message).toContain('Prefer: odata.track-changes');
  });

  it('tracks a reference set: changed and new records, deleted ones as @removed; a standard list tracks nothing', async () => {
    const client = await freshTenant();
    const companies = [
      { key: 'C1', name: 'One', baseCurrency: 'EUR' },
      { key: 'C2', name: 'Two', baseCurrency: 'EUR' },
    ];
    expect((await client.call('PUT', '/referenceData/companies', { body: companies })).status).toBe(200);
    const start = await callService<Collection>(client, 'GET', 'companies?$select=key,name', { headers: TRACK });
    expect(start.status, start.text).toBe(200);
    expect(start.headers.get('preference-applied')).toBe('odata.track-changes');
    expect(start.body.value.map((company) => company.key)).toEqual(['C1', 'C2']);
    const deltaLink = start.body['@odata.deltaLink'] ?? '';
    expect(new URL(deltaLink).searchParams.get('$select')).toBe('key,name');

    const changed = [
      { key: 'C1', name: 'One, renamed', baseCurrency: 'EUR' },
      { key: 'C3', name: 'Three', baseCurrency: 'EUR' },
    ];
    expect((await client.call('PUT', '/referenceData/companies', { body: changed })).status).toBe(200);
    expect((await client.call('DELETE', '/referenceData/companies/C2')).status).toBe(204);
    const delta = await callService<Collection>(client, 'GET', deltaLink);
    expect(delta.status, delta.text).toBe(200);
    expect(delta.body.value).toEqual([
      { key: 'C1', name: 'One, renamed' },
      { key: 'C3', name: 'Three' },
      expect.objectContaining({ '@removed': { reason: 'deleted' }, '@id': `${serviceRootOf(client)}companies('C2')`, key: 'C2' }),
    ]);
    const again = await callService<Collection>(client, 'GET', delta.body['@odata.deltaLink'] ?? '');
    expect(again.body.value).toEqual([]);

    const cultures = await callService<Collection>(client, 'GET', 'cultures', { headers: TRACK });
    expect(cultures.headers.get('preference-applied')).toBeNull();
    expect(cultures.body['@odata.deltaLink']).toBeUndefined();
  });

  it('says in $metadata which sets track changes', async () => {
    const client = await freshTenant();
    const metadata = await callService(client, 'GET', '$metadata');
    const set = /<EntitySet Name="emailTemplates"[\s\S]*?<\/EntitySet>/.exec(metadata.text)?.[0] ?? '';
    expect(set).toContain('<Annotation Term="Capabilities.ChangeTracking">');
    expect(set).toMatch(/<PropertyValue Property="Supported" Bool="true"\/>/);
    const companies = /<EntitySet Name="companies"[\s\S]*?<\/EntitySet>/.exec(metadata.text)?.[0] ?? '';
    expect(companies).toMatch(/ChangeTracking">\s*<Record>\s*<PropertyValue Property="Supported" Bool="true"\/>/);
    const cultures = /<EntitySet Name="cultures"[\s\S]*?<\/EntitySet>/.exec(metadata.text)?.[0] ?? '';
    expect(cultures).toMatch(/ChangeTracking">\s*<Record>\s*<PropertyValue Property="Supported" Bool="false"\/>/);
  });
});
