/**
 * Table-driven OData suite over seeded email templates: each query's exact answer (rows and their order),
 * and each invalid query's 400 InvalidODataQuery with the option, position and reason.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, ORIGIN } from '../helpers/api';
import type { Problem, TenantClient } from '../helpers/api';
import { clearTemplates, seedId, seedTemplates } from '../helpers/odata-seed';
import type { ODataPage as Page } from '../helpers/odata-seed';
import type { SeedTemplate } from '../helpers/odata-seed';
import { freshTenant, siblingOrg } from '../helpers/tenants';

const BASE = '/operations/emailTemplates/odata';

function row(n: number, templateKey: string, values: Omit<SeedTemplate, 'id' | 'templateKey'>, group = '8000'): SeedTemplate {
  return { id: seedId(group, n), templateKey, ...values };
}

// Default order: W I R F P N X V (invoice and reminder share createdOn; the id breaks the tie).
const ROWS: readonly SeedTemplate[] = [
  row(1, 'welcome', {
    subject: 'Welcome aboard',
    emailTemplateType: 1,
    culture: 'en-US',
    description: 'Sent on sign-up',
    isActive: true,
    createdOn: '2025-01-10T08:00:00.000Z',
    modifiedOn: '2025-01-10T08:00:00.000Z',
    version: 1,
    createdBy: 'alice',
  }),
  row(2, 'invoice', {
    subject: 'Your invoice is ready',
    emailTemplateType: 1,
    culture: 'en-US',
    description: null,
    isActive: true,
    createdOn: '2025-03-05T09:30:00.000Z',
    modifiedOn: '2025-06-01T00:00:00.000Z',
    version: 3,
    createdBy: 'alice',
  }),
  row(3, 'reminder', {
    subject: 'Payment Reminder',
    emailTemplateType: 2,
    culture: 'pt-PT',
    description: 'Second notice',
    isActive: false,
    createdOn: '2025-03-05T09:30:00.000Z',
    modifiedOn: '2025-03-05T09:30:00.000Z',
    version: 1,
    createdBy: 'bob',
  }),
  row(0xf4, 'farewell', {
    subject: 'Goodbye & thanks',
    emailTemplateType: 2,
    culture: 'de-DE',
    description: "It's been a pleasure",
    isActive: true,
    createdOn: '2025-07-20T12:00:00.000Z',
    modifiedOn: '2025-12-31T23:59:59.000Z',
    version: 2,
    createdBy: 'bob',
  }),
  row(5, 'promo-50', {
    subject: '50% off* today?',
    emailTemplateType: 1,
    culture: 'en-GB',
    description: null,
    isActive: true,
    createdOn: '2025-12-01T00:00:00.000Z',
    modifiedOn: '2025-12-01T00:00:00.000Z',
    version: 1,
    createdBy: 'carol',
  }),
  row(6, 'newsletter', {
    subject: 'Monthly NEWS',
    emailTemplateType: 2,
    culture: 'en-US',
    description: 'Monthly digest',
    isActive: true,
    createdOn: '2026-01-15T10:00:00.000Z',
    modifiedOn: '2026-02-01T00:00:00.000Z',
    version: 4,
    createdBy: 'carol',
  }),
  row(7, 'reset-password', {
    subject: 'Reset your password',
    emailTemplateType: 1,
    culture: 'fr-FR',
    description: '[security] reset',
    isActive: true,
    createdOn: '2026-02-28T18:45:00.000Z',
    modifiedOn: '2026-02-28T18:45:00.000Z',
    version: 1,
    createdBy: 'alice',
  }),
  row(8, 'verify-email', {
    subject: 'Verify your e-mail',
    emailTemplateType: 1,
    culture: 'en-US',
    description: '',
    isActive: false,
    createdOn: '2026-03-01T00:00:00.000Z',
    modifiedOn: '2026-03-02T00:00:00.000Z',
    version: 2,
    createdBy: 'alice',
  }),
];

/** Short names of the seeded rows, in default order. */
const KEY: Readonly<Record<string, string>> = {
  W: 'welcome',
  I: 'invoice',
  R: 'reminder',
  F: 'farewell',
  P: 'promo-50',
  N: 'newsletter',
  X: 'reset-password',
  V: 'verify-email',
};

/** Another org with the same keys (and different data): it must never leak into the suite's answers. */
const OTHER_ROWS: readonly SeedTemplate[] = ROWS.map((seed, index) => ({
  ...seed,
  id: seedId('9000', index + 1),
  subject: `Other ${seed.subject}`,
  culture: 'en-US',
  isActive: true,
}));

type Options = Readonly<Record<string, string>>;

let client: TenantClient;
let other: TenantClient;

beforeEach(async () => {
  client = await freshTenant('odata');
  other = await siblingOrg(client);
  await seedTemplates(client.tenant, client.org, ROWS);
  await seedTemplates(other.tenant, other.org, OTHER_ROWS);
});

afterEach(async () => {
  await clearTemplates(client.tenant, client.org);
  await clearTemplates(other.tenant, other.org);
});

function listPath(options: Options): string {
  const search = new URLSearchParams(options).toString();
  return search === '' ? BASE : `${BASE}?${search}`;
}

function keysOf(letters: string): string[] {
  return letters === '' ? [] : letters.split(' ').map((letter) => KEY[letter] ?? `?${letter}`);
}

const ALL = 'W I R F P N X V';
const GUID_F = seedId('8000', 0xf4).toUpperCase();

const VALID: [string, Options, string][] = [
  ['no options: every row in creation order', {}, ALL],
  ['eq on a string', { $filter: "culture eq 'en-US'" }, 'W I N V'],
  ['PascalCase property', { $filter: "Culture eq 'en-US'" }, 'W I N V'],
  ['upper-case property and keywords', { $filter: "CULTURE EQ 'en-US' AND IsActive eq true" }, 'W I N'],
  ['leading space', { $filter: " culture eq 'en-US' and isActive" }, 'W I N'],
  ['ne', { $filter: "culture ne 'en-US'" }, 'R F P X'],
  ['string eq is case-sensitive', { $filter: "subject eq 'welcome aboard'" }, ''],
  ['culture keys compare case-insensitively', { $filter: "culture eq 'EN-us'" }, 'W I N V'],
  ['enum by number', { $filter: 'emailTemplateType eq 2' }, 'R F N'],
  ['enum by name', { $filter: "emailTemplateType eq 'Text'" }, 'R F N'],
  ['enum by name, any case', { $filter: "emailTemplateType eq 'html'" }, 'W I P X V'],
  ['enum in by name and and', { $filter: "emailTemplateType in ('HTML') and culture eq 'en-US'" }, 'W I V'],
  ['in', { $filter: "culture in ('pt-PT', 'de-DE', 'fr-FR')" }, 'R F X'],
  ['in with null', { $filter: "description in ('Second notice', null)" }, 'I R P'],
  ['boolean property alone', { $filter: 'isActive' }, 'W I F P N X'],
  ['not boolean property', { $filter: 'not isActive' }, 'R V'],
  ['boolean eq false', { $filter: 'isActive eq false' }, 'R V'],
  ['eq null', { $filter: 'description eq null' }, 'I P'],
  ['ne null', { $filter: 'description ne null' }, 'W R F N X V'],
  ['empty string is not null', { $filter: "description eq ''" }, 'V'],
  ['ne keeps null rows', { $filter: "description ne 'Monthly digest'" }, 'W I R F P X V'],
  ['not eq keeps null rows', { $filter: "not (description eq 'Monthly digest')" }, 'W I R F P X V'],
  ['not gt keeps null rows', { $filter: 'not (length(description) gt 13)' }, 'I R P V'],
  ['doubled quote', { $filter: "description eq 'It''s been a pleasure'" }, 'F'],
  ['ampersand inside a literal', { $filter: "subject eq 'Goodbye & thanks'" }, 'F'],
  ['contains is case-sensitive', { $filter: "contains(subject, 'your')" }, 'X V'],
  ['contains(tolower(...))', { $filter: "contains(tolower(subject),'your')" }, 'I X V'],
  ['startswith', { $filter: "startswith(templateKey, 're')" }, 'R X'],
  ['endswith', { $filter: "endswith(templateKey, 'email')" }, 'V'],
  ['substringof (v2)', { $filter: "substringof('NEWS', subject)" }, 'N'],
  ['contains a LIKE wildcard', { $filter: "contains(subject, '%')" }, 'P'],
  ['contains a GLOB star', { $filter: "contains(subject, '*')" }, 'P'],
  ['contains a GLOB question mark', { $filter: "contains(subject, '?')" }, 'P'],
  ['contains a GLOB class', { $filter: "contains(description, '[security]')" }, 'X'],
  ['contains an underscore', { $filter: "contains(description, '_')" }, ''],
  ['contains eq false', { $filter: "contains(subject, 'e') eq false" }, 'P N'],
  ['contains eq true', { $filter: "contains(subject, 'NEWS') eq true" }, 'N'],
  ['parenthesised condition eq true', { $filter: "(startswith(templateKey,'w') or startswith(templateKey,'n')) eq true" }, 'W N'],
  ['parenthesised condition eq false', { $filter: "(startswith(TemplateKey,'w') or startswith(TemplateKey,'n')) eq false" }, 'I R F P X V'],
  ['parenthesised condition ne true, and more', { $filter: "(isActive and culture eq 'en-US') ne true and version lt 4" }, 'R F P X V'],
  ['an injection attempt is just text', { $filter: "contains(subject, 'x'' or ''1''=''1')" }, ''],
  ['toupper', { $filter: "toupper(culture) eq 'EN-US'" }, 'W I N V'],
  ['tolower', { $filter: "tolower(culture) eq 'en-us'" }, 'W I N V'],
  ['length eq', { $filter: 'length(templateKey) eq 7' }, 'W I'],
  ['length gt skips nulls', { $filter: 'length(description) gt 13' }, 'W F N X'],
  ['year', { $filter: 'year(createdOn) eq 2025' }, 'W I R F P'],
  ['year and month', { $filter: 'year(createdOn) eq 2026 and month(createdOn) eq 2' }, 'X'],
  ['day', { $filter: 'day(createdOn) eq 1' }, 'P V'],
  ['ISO date', { $filter: 'createdOn ge 2026-01-01' }, 'N X V'],
  ['quoted date-time', { $filter: "createdOn lt '2025-03-05T09:30:00Z'" }, 'W'],
  ["datetime'...'", { $filter: "createdOn eq datetime'2025-03-05T09:30:00'" }, 'I R'],
  ['date-time with an offset', { $filter: 'createdOn gt 2025-03-05T10:30:00+01:00' }, 'F P N X V'],
  ['two properties', { $filter: 'modifiedOn gt createdOn' }, 'I F N V'],
  ['integer audit field', { $filter: 'version ge 2' }, 'I F N V'],
  ['range', { $filter: 'version gt 1 and version lt 4' }, 'I F V'],
  ['and binds tighter than or', { $filter: "createdBy eq 'bob' or createdBy eq 'carol' and isActive" }, 'R F P N'],
  ['parentheses', { $filter: "(createdBy eq 'bob' or createdBy eq 'carol') and not isActive" }, 'R'],
  ['not over a group', { $filter: "not (createdBy eq 'alice' or culture eq 'en-GB')" }, 'R F N'],
  ['GUID literal, any case', { $filter: `id eq ${GUID_F}` }, 'F'],
  ['quoted GUID', { $filter: `id eq '${GUID_F}'` }, 'F'],
  ['GUIDs in', { $filter: `id in ('${seedId('8000', 1)}', ${seedId('8000', 8)})` }, 'W V'],
  ['key filter', { $filter: "templateKey eq 'welcome' and culture eq 'en-US' or templateKey eq 'farewell'" }, 'W F'],
  ['true', { $filter: 'true' }, ALL],
  ['nested parentheses', { $filter: "((((culture eq 'fr-FR'))) or ((isActive eq false)))" }, 'R X V'],
  ['$orderby one key', { $orderby: 'templateKey' }, 'F I N P R X V W'],
  ['$orderby desc', { $orderby: 'TemplateKey desc' }, 'W V X R P N I F'],
  ['$orderby two keys in one direction', { $orderby: 'culture desc, createdOn desc' }, 'R X V N I W P F'],
  ['$orderby subject', { $orderby: 'subject' }, 'P F N R X V W I'],
  ['$orderby createdOn desc (ties by id desc)', { $orderby: 'CreatedOn desc' }, 'V X N P F R I W'],
  ['$orderby enum desc (ties by createdOn desc, id desc)', { $orderby: 'emailTemplateType desc' }, 'N F R V X P I W'],
  ['$orderby with $top', { $orderby: 'modifiedOn desc', $top: '3' }, 'V X N'],
  [
    '$orderby keys in mixed directions (sorted: no index serves it)',
    { $filter: "createdBy eq 'alice' or createdBy eq 'bob'", $orderby: 'createdBy desc, version asc' },
    'R F W X V I',
  ],
  ['$orderby a null-able property: null first', { $filter: "createdBy in ('alice', 'bob')", $orderby: 'description' }, 'I V F R W X'],
  [
    '$orderby a null-able property desc: null last',
    { $filter: "createdBy in ('alice', 'bob')", $orderby: 'Description desc' },
    'X W R F V I',
  ],
  ['$top', { $top: '3' }, 'W I R'],
  ['$top and $skip', { $top: '3', $skip: '6' }, 'X V'],
  ['$skip past the end', { $skip: '8' }, ''],
  ['$top=0', { $top: '0' }, ''],
  ['page and pageSize', { page: '2', pageSize: '3' }, 'F P N'],
  ['option names in any case', { $FILTER: 'isActive', $OrderBy: 'templateKey', $Top: '2' }, 'F I'],
  ['$format=json', { $format: 'json', $filter: "culture eq 'de-DE'" }, 'F'],
];

describe('valid queries answer exactly the expected rows', () => {
  it.each(VALID)('%s', async (_name, options, letters) => {
    const result = await client.call<Page>('GET', listPath(options));
    expect(result.status, result.text).toBe(200);
    expect(result.body.items.map((item) => item.templateKey)).toEqual(keysOf(letters));
    expect(result.body.count).toBeUndefined();
  });
});

const INVALID: [string, Options, string, string][] = [
  ['unknown property', { $filter: "nope eq 'a'" }, '$filter', "$filter at position 1: unknown property 'nope'"],
  [
    'the integration query names unknown fields',
    { $filter: " Company eq 'X' and Party eq 'Y'" },
    '$filter',
    "position 2: unknown property 'Company'",
  ],
  ['custom attributes are not filterable', { $filter: "custom_channel eq 'a'" }, '$filter', "unknown property 'custom_channel'"],
  ['unknown function', { $filter: "soundex(subject) eq 'a'" }, '$filter', "position 1: unknown function 'soundex'"],
  [
    'type mismatch',
    { $filter: 'culture eq 1' },
    '$filter',
    'position 9: type mismatch: cannot compare culture (string) with a number literal',
  ],
  ['function type mismatch', { $filter: 'year(subject) eq 2026' }, '$filter', 'year needs a datetime argument'],
  ['unterminated string', { $filter: "subject eq 'abc" }, '$filter', 'position 12: unterminated string literal'],
  ['bad date', { $filter: "createdOn gt 'soon'" }, '$filter', "'soon' is not a valid ISO 8601 date-time"],
  ['bad enum name', { $filter: "emailTemplateType eq 'Pdf'" }, '$filter', "'Pdf' is not a value of emailTemplateType"],
  ['boolean ordering', { $filter: 'isActive gt true' }, '$filter', 'booleans can only be compared with eq or ne'],
  ['stray parenthesis', { $filter: "subject eq 'x')" }, '$filter', "position 15: unexpected ')'"],
  ['missing operand', { $filter: 'subject eq' }, '$filter', 'the expression ended'],
  ['number out of range', { $filter: 'version eq 99999999999999999999' }, '$filter', 'out of range'],
  ['too deep', { $filter: `${'('.repeat(25)}isActive${')'.repeat(25)}` }, '$filter', 'nested more than 24 levels'],
  ['$top over 1000', { $top: '1001' }, '$top', 'must be at most 1000'],
  ['negative $top', { $top: '-1' }, '$top', 'is not a whole number'],
  ['$top not a number', { $top: 'ten' }, '$top', 'is not a whole number'],
  ['negative $skip', { $skip: '-1' }, '$skip', 'is not a whole number'],
  ['fractional $skip', { $skip: '1.5' }, '$skip', 'is not a whole number'],
  ['pageSize over 1000', { pageSize: '5000' }, 'pageSize', 'must be at most 1000'],
  ['page 0', { page: '0' }, 'page', 'must be at least 1'],
  ['page with $top', { page: '1', $top: '5' }, 'page', 'cannot be combined'],
  ['unknown $orderby property', { $orderby: 'nope desc' }, '$orderby', "position 1: unknown property 'nope'"],
  ['bad $orderby direction', { $orderby: 'subject upwards' }, '$orderby', "expected 'property [asc|desc]'"],
  ['$skiptoken that is no token', { $skiptoken: 'abc' }, '$skiptoken', 'not a page token of this list'],
  ['$skiptoken with $skip', { $skiptoken: 'abc', $skip: '1' }, '$skiptoken', 'cannot be combined with $skip'],
  ['unknown $select property', { $select: 'subject, nope' }, '$select', "position 10: unknown property 'nope'"],
  ['unsupported option', { $expand: 'lines' }, '$expand', 'the query option $expand is not supported'],
  ['bad $count', { $count: 'maybe' }, '$count', "must be 'true' or 'false'"],
  ['bad $inlinecount', { $inlinecount: 'some' }, '$inlinecount', "must be 'allpages' or 'none'"],
];

describe('invalid queries answer 400 InvalidODataQuery naming the option, position and reason', () => {
  it.each(INVALID)('%s', async (_name, options, path, reason) => {
    const result = await client.call<Problem>('GET', listPath(options));
    expect(result.status, result.text).toBe(400);
    expect(result.headers.get('content-type')).toContain('application/problem+json');
    expect(result.body.code).toBe('InvalidODataQuery');
    expect(result.body.errors[0]?.path).toBe(path);
    expect(result.body.detail).toContain(reason);
  });
});

describe('answer shape', () => {
  it('$select returns only the selected fields, in the order asked', async () => {
    const result = await client.call<Page>(
      'GET',
      listPath({ $select: 'Culture, TemplateKey, isActive, Id', $filter: "culture eq 'fr-FR'" }),
    );
    expect(result.body.items).toEqual([{ culture: 'fr-FR', templateKey: 'reset-password', isActive: true, id: seedId('8000', 7) }]);
  });

  it('without $select, returns whole resources', async () => {
    const result = await client.call<Page>('GET', listPath({ $filter: "templateKey eq 'invoice'" }));
    expect(result.body.items).toEqual([
      {
        id: seedId('8000', 2),
        templateKey: 'invoice',
        subject: 'Your invoice is ready',
        emailTemplateType: 1,
        notificationBody: '<p>Your invoice is ready</p>',
        culture: 'en-US',
        description: null,
        isActive: true,
        createdOn: '2025-03-05T09:30:00.000Z',
        createdBy: 'alice',
        modifiedOn: '2025-06-01T00:00:00.000Z',
        modifiedBy: 'alice',
        version: 3,
      },
    ]);
  });

  it('gives count only when asked ($count=true or $inlinecount=allpages), counting every matching row', async () => {
    const counted = await client.call<Page>('GET', listPath({ $filter: 'isActive', $top: '2', $count: 'true' }));
    expect(counted.body.count).toBe(6);
    expect(counted.body.items).toHaveLength(2);
    const inline = await client.call<Page>(
      'GET',
      listPath({ $inlinecount: 'allpages', $select: 'Id', $top: '5', $filter: "culture eq 'en-US'", $orderby: 'CreatedOn desc' }),
    );
    expect(inline.body.count).toBe(4);
    expect(inline.body.items.map((item) => Object.keys(item))).toEqual([['id'], ['id'], ['id'], ['id']]);
    const zero = await client.call<Page>('GET', listPath({ $top: '0', $count: 'true' }));
    expect(zero.body).toEqual({ items: [], count: 8 });
    const none = await client.call<Page>('GET', listPath({ $count: 'false' }));
    expect('count' in none.body).toBe(false);
  });

  it('gives an absolute nextPageLink only when more rows exist', async () => {
    const first = await client.call<Page>('GET', listPath({ $top: '3', $filter: 'isActive' }));
    const link = first.body.nextPageLink ?? '';
    expect(link.startsWith(`${ORIGIN}${client.base}${BASE}?%24filter=isActive&%24top=3&%24skiptoken=`)).toBe(true);
    const last = await call<Page>('GET', link.slice(ORIGIN.length), { token: client.token });
    expect(last.body.items.map((item) => item.templateKey)).toEqual(['promo-50', 'newsletter', 'reset-password']);
    expect('nextPageLink' in last.body).toBe(false);
    const skipped = await client.call<Page>('GET', listPath({ $top: '3', $skip: '3', $filter: 'isActive' }));
    expect(skipped.body.items).toEqual(last.body.items);
    const exact = await client.call<Page>('GET', listPath({ $top: '8' }));
    expect('nextPageLink' in exact.body).toBe(false);
  });
});

describe('tenant isolation', () => {
  it("another org sees only its own rows for the same query, and a token for one org cannot list another's", async () => {
    const theirs = await other.call<Page>('GET', listPath({ $filter: "templateKey eq 'welcome'", $count: 'true' }));
    expect(theirs.body.items.map((item) => item.subject)).toEqual(['Other Welcome aboard']);
    expect(theirs.body.count).toBe(1);
    const byId = await other.call<Page>('GET', listPath({ $filter: `id eq ${seedId('8000', 1)}` }));
    expect(byId.body.items).toEqual([]);
    const crossPath = await call<Problem>('GET', `${client.base}${BASE}`, { token: other.token });
    expect(crossPath.status).toBe(403);
    expect(crossPath.body.code).toBe('Forbidden');
  });

  it('an empty org lists nothing', async () => {
    const empty = await freshTenant('odata');
    const result = await empty.call<Page>('GET', listPath({ $count: 'true' }));
    expect(result.body).toEqual({ items: [], count: 0 });
  });
});
