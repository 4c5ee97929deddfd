/**
 * The absolute link to the next page: every other query option as it was sent, the page size (`$top`, or `pageSize` in
 * the page/pageSize style) and `$skiptoken`, the keyset position after the page's last row (never an offset, so
 * following links costs the same on every page).
 */
const PAGING_OPTIONS = new Set(['$top', '$skip', '$skiptoken', 'page', 'pagesize']);

export function buildNextPageLink(url: URL, top: number, skipToken: string): string {
  const link = new URL(url.toString());
  const params = link.searchParams;
  const names = [...new Set(params.keys())];
  const pageStyle = names.some((name) => name.toLowerCase() === 'page' || name.toLowerCase() === 'pagesize');
  // Options are case-insensitive: drop every spelling of the paging options before writing the canonical ones.
  for (const name of names) if (PAGING_OPTIONS.has(name.toLowerCase())) params.delete(name);
  params.set(pageStyle ? 'pageSize' : '$top', String(top));
  params.set('$skiptoken', skipToken);
  return link.toString();
}
