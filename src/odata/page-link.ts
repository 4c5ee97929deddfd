/** The absolute link to the next page, keeping every other query option. */
export function buildNextPageLink(url: URL, top: number, skip: number): string {
  const next = new URL(url.toString());
  const params = next.searchParams;
  if (params.has('page') || params.has('pageSize')) {
    params.set('page', String(Math.floor(skip / Math.max(top, 1)) + 2));
    if (!params.has('pageSize')) params.set('pageSize', String(top));
  } else {
    params.set('$top', String(top));
    params.set('$skip', String(skip + top));
  }
  return next.toString();
}
