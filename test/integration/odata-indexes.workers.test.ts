/** EXPLAIN QUERY PLAN on D1: the common email template filters and orders are served by an index, without a sort. */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { listODataFields, listSortOrders } from '../../src/resources/entities/odata-fields';
import { buildListQueries } from '../../src/resources/entities/list-queries';
import type { EntityStore } from '../../src/resources/entities/store';
import { compileODataQuery } from '../../src/odata/compile';
import { parseODataQuery } from '../../src/odata/parse-query';
import { emailTemplateStore } from '../../src/services/email-templates/table';
import { exchangeRatesDocumentStore } from '../../src/services/exchange-rates/table';
import { routeStore } from '../../src/services/routes/table';

interface PlanRow {
  detail: string;
}

/** The plan of the page query and of the count query the engine builds for `search`. */
async function explain(search: string, store: EntityStore = emailTemplateStore, keyset = false): Promise<{ rows: string; count: string }> {
  const query = parseODataQuery(new URLSearchParams(search), listODataFields(store.spec));
  const compiled = compileODataQuery(query);
  const after = keyset ? compiled.orderColumns.map(() => 'x') : undefined;
  const { rowsQuery, countQuery } = buildListQueries(store, { tenantKey: 't', orgKey: 'o' }, compiled, {
    top: query.top,
    skip: query.skip,
    count: true,
    ...(after ? { after } : {}),
  });
  const plan = async (statement: { sql: string; params: unknown[] }) => {
    const result = await env.TENANT_DB_1.prepare(`EXPLAIN QUERY PLAN ${statement.sql}`)
      .bind(...statement.params)
      .all<PlanRow>();
    return result.results.map((row) => row.detail).join(' | ');
  };
  return { rows: await plan(rowsQuery.toSQL()), count: await plan(countQuery.toSQL()) };
}

const CASES: [string, string, string][] = [
  ['no options (default order)', '', 'email_templates_created_idx'],
  ['$orderby=createdOn desc', '$orderby=createdOn desc', 'email_templates_created_idx'],
  ['createdOn range', '$filter=createdOn ge 2026-01-01 and createdOn lt 2026-02-01', 'email_templates_created_idx'],
  ['templateKey eq', "$filter=templateKey eq 'welcome'", 'email_templates_key_uq'],
  ['$orderby=templateKey', '$orderby=templateKey', 'email_templates_key_uq'],
  ['culture eq', "$filter=Culture eq 'en-US'", 'email_templates_culture_idx'],
  ['culture eq, newest first', "$filter=culture eq 'en-US'&$orderby=createdOn desc", 'email_templates_culture_idx'],
  ['culture in', "$filter=culture in ('en-US', 'pt-PT')&$orderby=culture", 'email_templates_culture_idx'],
  ['$orderby=culture desc', '$orderby=culture desc', 'email_templates_culture_idx'],
  ['emailTemplateType eq', '$filter=emailTemplateType eq 1', 'email_templates_email_template_type_idx'],
  ['emailTemplateType by name', "$filter=emailTemplateType eq 'Text'", 'email_templates_email_template_type_idx'],
  ['isActive eq true', '$filter=isActive eq true', 'email_templates_is_active_idx'],
  ['modifiedOn range, newest first', '$filter=modifiedOn gt 2026-01-01&$orderby=modifiedOn desc', 'email_templates_modified_on_idx'],
  ['$orderby=modifiedOn desc', '$orderby=modifiedOn desc', 'email_templates_modified_on_idx'],
];

describe('the list query of a common filter or order uses an index and no temporary sort', () => {
  it.each(CASES)('%s', async (_name, search, index) => {
    const plan = await explain(search);
    expect(plan.rows).toContain(`USING INDEX ${index}`);
    expect(plan.rows).not.toContain('TEMP B-TREE');
    expect(plan.rows).not.toMatch(/SCAN email_templates(?! USING)/);
  });

  it('the count of an unfiltered list reads one row of the maintained count', async () => {
    for (const search of ['', '$orderby=subject desc']) {
      const plan = await explain(search);
      expect(plan.count).toMatch(/^SEARCH entity_counts USING PRIMARY KEY \(tenant_key=\? AND org_key=\? AND entity=\?\)$/);
    }
  });

  it('the count query of a filtered list uses the same index', async () => {
    const plan = await explain("$filter=culture eq 'en-US'");
    expect(plan.count).toContain('USING COVERING INDEX email_templates_culture_idx');
  });
});

describe('routes get the same from their declared indexes', () => {
  const cases: [string, string, string][] = [
    ['company and routeKey', "$filter=company eq 'C1' and routeKey eq 'R1'", 'routes_key_uq'],
    ['routeKey eq', "$filter=routeKey eq 'R1'", 'routes_route_key_idx'],
    ['family eq, newest first', "$filter=family eq 'F1'&$orderby=createdOn desc", 'routes_family_idx'],
    ['default order', '', 'routes_created_idx'],
  ];
  it.each(cases)('%s', async (_name, search, index) => {
    const plan = await explain(search, routeStore);
    expect(plan.rows).toContain(index);
    expect(plan.rows).not.toMatch(/SCAN routes(?! USING)/);
  });
});

describe('every order an index serves is read from it, and a $skiptoken page seeks into it', () => {
  const cases = [emailTemplateStore, routeStore, exchangeRatesDocumentStore].flatMap((store) =>
    listSortOrders(store.spec).flatMap((order) =>
      [false, true].flatMap((descending) =>
        order.fields.slice(order.required - 1).map((_, extra) => {
          const orderby = order.fields
            .slice(0, order.required + extra)
            .map((name) => `${name}${descending ? ' desc' : ''}`)
            .join(',');
          return [`${store.spec.table} $orderby=${orderby}`, store, orderby] as const;
        }),
      ),
    ),
  );

  it.each(cases)('%s', async (_name, store, orderby) => {
    for (const keyset of [false, true]) {
      const plan = await explain(`$orderby=${orderby}`, store, keyset);
      expect(plan.rows, plan.rows).toMatch(
        new RegExp(`SEARCH ${store.spec.table} USING (COVERING )?INDEX ${store.spec.table}_\\w+ \\(tenant_key=\\? AND org_key=\\?`),
      );
      expect(plan.rows, plan.rows).not.toContain('TEMP B-TREE');
      // The position is a range on the index (a seek), not a filter applied to every row before it.
      // (A descending order over a null-able column: two seeks merged, the values from the position down, then the NULLs.)
      if (keyset) expect(plan.rows, plan.rows).toMatch(/AND (\(\w+(,\w+)*\)|\w+)[<>]\(?\?(,\?)*\)?\)/);
    }
  });
});

describe('contains, startswith and endswith: candidates from the trigram index when few, else the page-order scan', () => {
  const cases: [string, string, boolean][] = [
    ['contains, 3 characters', "$filter=contains(subject,'abc')", true],
    ['startswith with an order', "$filter=startswith(templateKey,'welc')&$orderby=culture", true],
    ['endswith on a nullable field', "$filter=endswith(description,'xyz*w')", true],
    ['beside another condition', "$filter=culture eq 'en-US' and contains(subject,'abc')", true],
    ['two terms: the first the index can look up', "$filter=contains(subject,'ab') and contains(description,'abcd')", true],
    ['under or: the scan', "$filter=contains(subject,'abc') or culture eq 'en-US'", false],
    ['2 characters: no trigram, the scan', "$filter=contains(subject,'ab')", false],
    ['wildcards split the term below 3 characters', "$filter=contains(subject,'a*bc?d')", false],
    ['under not: the scan', "$filter=not contains(subject,'abc')", false],
    ['a function of the field', "$filter=contains(tolower(subject),'abc')", false],
    ['a field without textSearch', "$filter=contains(culture,'abc')", false],
  ];

  it.each(cases)('%s', async (_name, search, indexed) => {
    for (const keyset of [false, true]) {
      const plan = await explain(search, emailTemplateStore, keyset);
      for (const statement of [plan.rows, plan.count]) {
        if (indexed) {
          // One arm reads the rows by rowid from the bounded candidates; the other is the scan in page order. A scalar
          // subquery (the bounded count of candidates) guards both, evaluated once.
          expect(statement, statement).toContain('UNION ALL');
          expect(statement, statement).toContain('SEARCH email_templates USING INTEGER PRIMARY KEY (rowid=?)');
          expect(statement, statement).toMatch(/SCAN email_templates_text VIRTUAL TABLE INDEX/);
          expect(statement, statement).toMatch(/SEARCH email_templates USING (COVERING )?INDEX \w+ \(tenant_key=\? AND org_key=\?/);
          expect(statement, statement).not.toMatch(/SCAN email_templates(?! USING|_text)/);
        } else {
          expect(statement, statement).not.toContain('VIRTUAL TABLE');
          expect(statement, statement).not.toContain('UNION');
        }
      }
      if (indexed) {
        // The scan arm keeps the page order of its index (the merge sorts only the candidates' few rows).
        expect(plan.rows, plan.rows).toContain('MERGE (UNION ALL)');
      }
    }
  });

  it('each text index holds exactly the fields its entity declares textSearch', async () => {
    for (const store of [emailTemplateStore, routeStore, exchangeRatesDocumentStore]) {
      const declared = Object.values(store.spec.fields)
        .filter((field) => field.textSearch)
        .map((field) => field.column);
      const columns = await env.TENANT_DB_1.prepare(`SELECT name FROM pragma_table_info(?)`)
        .bind(`${store.spec.table}_text`)
        .all<{ name: string }>();
      expect(columns.results.map((row) => row.name)).toEqual(declared);
    }
  });
});
