/** What a lookup needs from D1 (only on a cache miss): candidate lines of a pair, currencies, a company's base currency. */
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { TenantScope } from '../../db/client';
import { loadStandardList, findReferences } from '../../resources/reference/store';
import type { CandidateLine } from './rates';

/**
 * Lines of active documents that matter for from -> to: the pair's own lines (direct or inverse) and the two legs
 * of every cross rate (a line touching one side whose partner currency also has a line with the other side in the
 * same document). Everything else of the documents is left in D1.
 */
export async function loadCandidateLines(db: Database, scope: TenantScope, from: string, to: string): Promise<CandidateLine[]> {
  const rows = await db.all<{
    parentId: string;
    validFrom: string;
    number: number;
    fromCurrency: string;
    toCurrency: string;
    factor: string;
  }>(sql`
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
        or exists (select 1 from legs y where y.document_id = x.document_id and y.partner = x.partner and y.side <> x.side))`);
  return rows.map((row) => ({ ...row, number: Number(row.number) }));
}

/** The keys among `keys` that are not ISO 4217 currencies of the standard list. */
export async function findUnknownCurrencies(db: Database, keys: readonly string[]): Promise<string[]> {
  const currencies = await loadStandardList(db, 'currencies');
  return [...new Set(keys)].filter((key) => !currencies.has(key));
}

/** A company's base currency, or null when the company does not exist. */
export async function findBaseCurrency(db: Database, scope: TenantScope, companyKey: string): Promise<string | null> {
  const found = await findReferences(db, scope, [{ kind: 'companies', key: companyKey, path: 'companyKey' }]);
  const company = found.get('companies')?.get(companyKey);
  return company && typeof company.baseCurrency === 'string' ? company.baseCurrency : null;
}
