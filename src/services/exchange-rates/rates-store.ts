/** What a lookup needs from D1 (only on a cache miss): candidate lines of a pair, currencies, a company's base currency. */
import { sql } from 'drizzle-orm';
import { buildRawQuery } from '../../db/sql';
import { loadStandardList, findReferences } from '../../resources/reference/store';
import { bindRequestQuery } from '../../tenant/compiled';
import type { TenantReader } from '../../tenant/session';
import { rowsOf } from '../../tenant/unit-of-work';
import type { CandidateLine } from './rates';

/**
 * Lines of active documents that matter for from -> to: the pair's own lines (direct or inverse) and the two legs
 * of every cross rate (a line touching one side whose partner currency also has a line with the other side in the
 * same document). Everything else of the documents is left in D1.
 */
export async function loadCandidateLines(tenant: TenantReader, from: string, to: string): Promise<CandidateLine[]> {
  const { scope } = tenant;
  const query = sql`
    with legs as (
      select l.document_id, l.from_currency, l.to_currency, l.conversion_factor,
        case when l.from_currency in (${from}, ${to}) then l.from_currency else l.to_currency end as side,
        case when l.from_currency in (${from}, ${to}) then l.to_currency else l.from_currency end as partner
      from exchange_rate_lines l
      where l.tenant_key = ${scope.tenantKey} and l.org_key = ${scope.orgKey}
        and (l.from_currency in (${from}, ${to}) or l.to_currency in (${from}, ${to}))
    )
    select d.id as parentId, d.valid_from as validFrom, d.number as number,
      x.from_currency as fromCurrency, x.to_currency as toCurrency, x.conversion_factor as factor
    from legs x join exchange_rates_documents d on d.id = x.document_id
    where d.tenant_key = ${scope.tenantKey} and d.org_key = ${scope.orgKey} and d.is_active = 1
      and (x.partner in (${from}, ${to})
        or exists (select 1 from legs y where y.document_id = x.document_id and y.partner = x.partner and y.side <> x.side))`;
  // The columns the statement selects, in its order (answered as D1 returns them).
  const fields = {
    parentId: sql<string>`parentId`,
    validFrom: sql<string>`validFrom`,
    number: sql<number>`number`,
    fromCurrency: sql<string>`fromCurrency`,
    toCurrency: sql<string>`toCurrency`,
    factor: sql<string>`factor`,
  };
  const statement = bindRequestQuery(buildRawQuery(query), fields);
  const [rows] = await tenant.readBound('read', [statement]);
  return rowsOf(statement, rows).map((row) => ({ ...row, number: Number(row.number) }));
}

/** The keys among `keys` that are not ISO 4217 currencies of the standard list. */
export async function findUnknownCurrencies(tenant: TenantReader, keys: readonly string[]): Promise<string[]> {
  const currencies = await loadStandardList(tenant, 'currencies');
  return [...new Set(keys)].filter((key) => !currencies.has(key));
}

/** A company's base currency, or null when the company does not exist. */
export async function findBaseCurrency(tenant: TenantReader, companyKey: string): Promise<string | null> {
  const found = await findReferences(tenant, [{ kind: 'companies', key: companyKey, path: 'companyKey' }]);
  const company = found.get('companies')?.get(companyKey);
  return company && typeof company.baseCurrency === 'string' ? company.baseCurrency : null;
}
