/** The OpenAPI description of `POST /api/{tenantKey}/{orgKey}/$batch` (schemas as JSON Schema). */
import * as v from 'valibot';
import type { RouteDoc } from '../../http/route';
import { MAX_BATCH_ANSWER_BYTES, MAX_INNER_ANSWER_BYTES } from './answer-budget';
import { MAX_BATCH_REQUESTS, MAX_INNER_HEADERS } from './parse';
import { MAX_URL_LENGTH } from './target';

const NAME = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' };

const BATCH_REQUEST = {
  type: 'object',
  required: ['id', 'method', 'url'],
  additionalProperties: false,
  properties: {
    id: { ...NAME, description: 'Unique in the batch; `$<id>` in a later url path or body string stands for the record it created' },
    method: {
      type: 'string',
      enum: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      description: 'Case-insensitive; a method its target does not take answers that request its own 405 with Allow',
    },
    url: {
      type: 'string',
      minLength: 1,
      maxLength: MAX_URL_LENGTH,
      description:
        'Relative to the root the batch was sent to (`/api/{tenantKey}/{orgKey}/`: `operations/emailTemplates?$top=5`), an absolute path or URL under `/api/` or `/odata/` of the same tenant/org, or `$<id>/...` (the Location an earlier create answered). Never `$batch`.',
    },
    headers: {
      type: 'object',
      maxProperties: MAX_INNER_HEADERS,
      additionalProperties: { type: 'string' },
      description:
        "The inner request's headers (`content-type`, `if-match`, `accept-language`...). Idempotency-Key, x-d1-bookmark, Content-Length, Transfer-Encoding and Host are the batch's own and refused here; an Authorization equal to the batch's is ignored, another one makes that request answer its own 400 without running.",
    },
    body: {
      description: 'POST, PUT and PATCH only: a JSON value (sent as application/json unless `content-type` says otherwise; then a string)',
    },
    dependsOn: {
      type: 'array',
      maxItems: MAX_BATCH_REQUESTS,
      items: { type: 'string' },
      description: 'Ids of earlier requests or atomicity groups that must have succeeded; else this request answers 424',
    },
    atomicityGroup: {
      ...NAME,
      description:
        "The atomic group (change set) of the request: a group's requests are adjacent and commit together (one D1 batch) or not at all: when one fails it answers its own error, the others 424, and nothing of the group is written",
    },
  },
};

/** One inner answer (the 200's `responses` items): the valibot schema the document and the handler's type share. */
const BATCH_RESPONSE = v.strictObject({
  id: v.string(),
  status: v.pipe(
    v.number(),
    v.integer(),
    v.description('The status the request would have answered alone; 424 when a dependency failed, or another request of its atomic group'),
  ),
  headers: v.pipe(
    v.record(v.string(), v.string()),
    v.description('Its headers, names in their usual case (Location, ETag, Content-Type, OData-Version...)'),
  ),
  body: v.optional(
    v.pipe(v.unknown(), v.description('Its body: JSON as JSON (problem+json for errors), other media types as text; absent when empty')),
  ),
  atomicityGroup: v.optional(v.string()),
});

/** The answer of a batch: one answer per request, in order. */
export const BATCH_ANSWER = v.strictObject({ responses: v.array(BATCH_RESPONSE) });

export const batchDoc = {
  summary: 'Run up to 100 operations in one request (OData JSON or multipart batch)',
  operationId: 'runBatch',
  tags: ['Batch'],
  description: [
    `Every operation of this API under /api/{tenantKey}/{orgKey} but $batch itself, at most ${MAX_BATCH_REQUESTS} per batch, in a body of at most 1 MiB`,
    '(inner bodies may nest 29 levels: the batch adds 3 to the 32 a body may have).',
    'The whole batch is checked first; any fault (duplicate id, unknown or later `dependsOn`, a `$<id>` of a later request, another tenant/org, a nested $batch, a malformed entry)',
    "answers 400 naming each request id and field, and nothing runs. Then the requests run in order, each exactly as if sent alone with the batch's token:",
    'same scopes and orgs, validation, rate limits (each request counts, besides the batch), If-Match, status, body and headers; each reads what the ones before it wrote.',
    'A request whose `dependsOn` (or `$<id>`) names a failed request answers 424 and does not run; without `dependsOn`, later requests run whatever earlier ones answered.',
    'An Idempotency-Key on the batch replays the whole answer; inner requests take none.',
    'The body may also be an OData 4.0 multipart batch (`Content-Type: multipart/mixed; boundary=...`): each `application/http` part one request (`Content-ID` its id, `$<Content-ID>` a reference),',
    'each `multipart/mixed` part a change set (an atomic group; one level deep), checked and run as the JSON format is; it is answered as `multipart/mixed` in the same structure, a failed change set as the one answer of the request that failed it.',
    'Requests with the same `atomicityGroup` (adjacent) form an atomic group; the `Isolation: snapshot` header makes the whole batch one group.',
    "A group's requests run in order, each answered as alone, each reading by id or key what the ones before it in the group wrote; their writes commit together, as one transaction, once the last one answered:",
    'when one fails (its own answer, or the commit refused by a rule of the database, a duplicate key or a record changed meanwhile, attributed to the request whose write it concerns),',
    'that request answers its own error, the others of the group 424, and nothing of the group is written (no change event either).',
    'Creates, attribute and custom attribute PUTs and deletes of entities, route membership changes, reference data upserts and deletes and exchange rate line writes join a group (a route, its company, locations and members in one group); cross-row rules hold in a group as between requests.',
    'An operation that cannot be part of a group yet (indicators, imports, API clients, webhook subscriptions) answers 400 naming the request and the group fails.',
    `The answer is bounded: an inner answer's body of more than ${MAX_INNER_ANSWER_BYTES} bytes, or one past ${MAX_BATCH_ANSWER_BYTES} bytes of inner bodies together, is not kept:`,
    'that request (which ran) answers its own 507 `AnswerTooLarge` saying what it answered; send it alone or ask for less.',
    'When an inner answer says `Cache-Control: no-store` (a new client secret, a webhook secret), so does the batch answer.',
  ].join(' '),
  parameters: [
    {
      name: 'Isolation',
      in: 'header',
      description: '`snapshot`: the whole batch is one atomic group (all its requests commit together or not at all).',
      schema: { json: { type: 'string', enum: ['snapshot'] } },
    },
  ],
  requestBody: {
    description: 'The requests, in order (JSON; or a multipart/mixed batch of application/http parts and change sets)',
    schema: {
      json: {
        type: 'object',
        required: ['requests'],
        additionalProperties: false,
        properties: { requests: { type: 'array', minItems: 1, maxItems: MAX_BATCH_REQUESTS, items: BATCH_REQUEST } },
      },
    },
  },
  responses: {
    200: {
      description: 'One answer per request, in order (whatever each answered); multipart/mixed for a multipart batch',
      schema: BATCH_ANSWER,
      moreContentTypes: {
        'multipart/mixed': { json: { type: 'string', description: 'application/http answer parts, change sets nested' } },
      },
    },
    400: { description: 'The batch is malformed (each fault names `requests[i].<field>` and the request id); nothing ran' },
  },
} satisfies RouteDoc;
