/** The absolute link to the next page, keeping every other query option as it was sent. */
const PAGING_OPTIONS = new Set(['$top', '$skip', 'page', 'pagesize']);

export function buildNextPageLink(url: URL, top: number, skip: number): string {
  const next = new URL(url.toString());
  const params = next.searchParams;
  const names = [...new Set(params.keys())];
  const pageStyle = names.some((name) => name.toLowerCase() === 'page' || name.toLowerCase() === 'pagesize');
  // Options are case-insensitive: drop every spelling of the paging options before writing the canonical ones.
  for (const name of names) if (PAGING_OPTIONS.has(name.toLowerCase())) params.delete(name);
  if (pageStyle) {
    params.set('page', String(Math.floor(skip / Math.max(top, 1)) + 2));
    params.set('pageSize', String(top));
  } else {
    params.set('$top', String(top));
    params.set('$skip', String(skip + top));
  }
  return next.toString();
}
