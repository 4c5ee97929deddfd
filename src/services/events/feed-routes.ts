/** `GET /changes`: the change feed of the tenant/org. */
import * as v from 'valibot';
import type { ApiContext } from '../../http/context';
import { jsonResponse } from '../../http/responses';
import { defineApiRoute } from '../../http/route';
import type { ApiRoute } from '../../http/route';
import { validationError } from '../../errors/api-error';
import { message } from '../../messages/catalogue';
import { DATE_TIME, GUID, INTEGER } from '../../openapi/values';
import { CHANGE_TYPES } from '../../events/table';
import { checkResourceFilter, RESOURCE_FILTER, RESOURCE_FILTER_MAX } from './subscription-input';
import { decodeCursor, encodeCursor, FEED_PAGE_DEFAULT, FEED_PAGE_MAX, readFeedPage, RETENTION_DAYS, toFeedItem } from '../../events/feed';

const CHANGES_PATH = '/changes';

const ChangeEvent = v.strictObject({
  id: GUID,
  resource: v.pipe(v.string(), v.description('Service prefix of the record: `operations/emailTemplates`, `referenceData/companies`, ...')),
  changeType: v.picklist(CHANGE_TYPES),
  recordId: v.string(),
  key: v.pipe(v.string(), v.description("The record's natural key (fields joined by `/`)")),
  version: v.pipe(INTEGER, v.description("The record's version after the change (reference data: the event's sequence number)")),
  occurredOn: DATE_TIME,
  actor: v.pipe(v.string(), v.description('Subject of the token that made the change (`system` for recalculations)')),
  changes: v.optional(v.pipe(v.record(v.string(), v.unknown()), v.description('What changed (attributes, state transition, figures)'))),
});

const ChangeFeedPage = v.strictObject({
  items: v.array(ChangeEvent),
  cursor: v.pipe(v.string(), v.description('Opaque: pass it as `since` to read what comes next')),
  nextPageLink: v.optional(v.pipe(v.string(), v.url())),
});

/** `$top`: the page size. */
function parseTop(raw: string | null): number {
  if (raw === null) return FEED_PAGE_DEFAULT;
  const top = /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
  if (!(top >= 1 && top <= FEED_PAGE_MAX))
    throw validationError([{ path: '$top', message: message('integerRange', { field: '$top', min: 1, max: FEED_PAGE_MAX }) }]);
  return top;
}

/** `resource`: a service prefix (as subscriptions name them) or `*`; absent or empty, every event. */
export function parseResource(raw: string | null): string {
  if (raw === null || raw === '') return '*';
  const problem = checkResourceFilter(raw, 'resource');
  if (problem) throw validationError([{ path: 'resource', message: problem }]);
  return raw;
}

async function handleChanges(ctx: ApiContext) {
  const query = ctx.url.searchParams;
  const rawSince = query.get('since');
  const since = rawSince === null ? undefined : decodeCursor(rawSince);
  const resource = parseResource(query.get('resource'));
  const top = parseTop(query.get('$top'));
  const page = await readFeedPage(ctx.tenant, since, resource, top);
  const cursor = encodeCursor(page.next);
  const items = page.rows.map(toFeedItem);
  if (!page.hasMore) return jsonResponse(ChangeFeedPage, { items, cursor });
  const next = new URL(ctx.url.toString());
  next.searchParams.set('since', cursor);
  return jsonResponse(ChangeFeedPage, { items, cursor, nextPageLink: next.toString() });
}

export const feedRoutes: ApiRoute[] = [
  defineApiRoute({
    method: 'GET',
    path: CHANGES_PATH,
    scope: 'application',
    doc: {
      summary: 'Change feed: the events of the tenant/org in commit order, deletions as tombstones',
      description: `Events are kept ${RETENTION_DAYS} days. Without \`since\` the feed starts at the oldest event kept; a cursor older than that is 410 (resynchronize with each resource's /odata list).`,
      tags: ['Events'],
      operationId: 'listChanges',
      schemas: { ChangeEvent, ChangeFeedPage },
      parameters: [
        { name: 'since', in: 'query', description: 'The `cursor` of an earlier answer', schema: { json: { type: 'string' } } },
        {
          name: 'resource',
          in: 'query',
          description: `Only events of this service prefix and below (\`operations\`, \`operations/emailTemplates\`): letters and digits, segments joined by \`/\`, at most ${RESOURCE_FILTER_MAX} characters; \`*\` for all`,
          schema: { json: { type: 'string', maxLength: RESOURCE_FILTER_MAX, pattern: RESOURCE_FILTER.source } },
        },
        {
          name: '$top',
          in: 'query',
          description: `Page size (default ${FEED_PAGE_DEFAULT}, at most ${FEED_PAGE_MAX})`,
          schema: { json: { type: 'integer', minimum: 1, maximum: FEED_PAGE_MAX } },
        },
      ],
      responses: {
        200: { description: 'A page of events and the cursor to continue from', schema: ChangeFeedPage },
        400: {
          description:
            'since is not a cursor of this feed, or is ahead of it (InvalidCursor); $top out of range; resource is not a service prefix',
        },
        410: { description: 'since is older than the retention (CursorExpired): resynchronize with /odata' },
      },
    },
    handle: handleChanges,
  }),
];
