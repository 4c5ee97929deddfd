import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../src/index';
import type { Problem } from '../helpers/api';
import { readChanges } from '../helpers/events';
import { openClientD1 } from '../helpers/tenant-db';
import { freshTenant } from '../helpers/tenants';

const TEMPLATES = '/operations/emailTemplates';

async function runCron(): Promise<void> {
  const ctx = createExecutionContext();
  if (!worker.scheduled) throw new Error('The worker has no scheduled handler');
  await worker.scheduled(createScheduledController({ cron: '*/15 * * * *' }), env, ctx);
  await waitOnExecutionContext(ctx);
}

describe('retention (30 days, pruned by the cron trigger)', () => {
  it('deletes older events; a cursor older than retention is 410, the feed then starts after the pruned ones', async () => {
    const client = await freshTenant('retention');
    for (const templateKey of ['old-1', 'old-2', 'new-1']) {
      const created = await client.call('POST', TEMPLATES, {
        body: { templateKey, subject: 's', emailTemplateType: 1, notificationBody: 'b', culture: 'en-US' },
      });
      expect(created.status, created.text).toBe(201);
    }
    const start = await readChanges(client, '?$top=1');
    // The first two events happened 31 days ago.
    const d1 = await openClientD1(client);
    await d1
      .prepare("UPDATE change_events SET occurred_on = ? WHERE tenant_key = ? AND org_key = ? AND record_key LIKE 'old-%'")
      .bind(new Date(Date.now() - 31 * 86_400_000).toISOString(), client.tenant, client.org)
      .run();
    await runCron();

    const expired = await client.call<Problem>('GET', `/changes?since=${encodeURIComponent(start.cursor)}`);
    expect(expired.status).toBe(410);
    expect(expired.body.code).toBe('CursorExpired');
    expect(expired.body.detail).toContain('/odata');
    const feed = await readChanges(client);
    expect(feed.items.map((item) => item.key)).toEqual(['new-1']);
    // The sequence continues after the pruned events: a new event comes after the cursor, none is reused.
    const created = await client.call('DELETE', `${TEMPLATES}/new-1`);
    expect(created.status).toBe(204);
    const next = await readChanges(client, `?since=${encodeURIComponent(feed.cursor)}`);
    expect(next.items.map((item) => [item.changeType, item.key])).toEqual([['deleted', 'new-1']]);
  });
});
