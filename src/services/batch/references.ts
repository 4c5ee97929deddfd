/**
 * `$<id>` references of `$batch`: in a url's path (never its query, where `$top`, `$filter`... are OData's) a `$<id>`
 * naming an earlier request of the batch stands for the identifier of the record that request created; in a body, a
 * string that is exactly `$<id>` does. Other `$` text is left as it is.
 */

const TOKEN = /\$([A-Za-z0-9_-]{1,64})(?![A-Za-z0-9_-])/g;
const MAX_BODY_DEPTH = 64;

function splitQuery(rest: string): [string, string] {
  const query = rest.indexOf('?');
  return query < 0 ? [rest, ''] : [rest.slice(0, query), rest.slice(query)];
}

/** The `$<name>` tokens of a url's path whose name is in `names`. */
export function findPathReferences(rest: string, names: ReadonlySet<string>): string[] {
  const [path] = splitQuery(rest);
  return [...path.matchAll(TOKEN)].map((match) => match[1] ?? '').filter((name) => names.has(name));
}

/** The strings of a JSON body that are exactly `$<name>` with a name in `names`. */
export function findBodyReferences(value: unknown, names: ReadonlySet<string>, depth = 0): string[] {
  if (typeof value === 'string') {
    const name = value.startsWith('$') ? value.slice(1) : '';
    return names.has(name) ? [name] : [];
  }
  if (value === null || typeof value !== 'object' || depth > MAX_BODY_DEPTH) return [];
  const children: unknown[] = Array.isArray(value) ? value : Object.values(value);
  return children.flatMap((child) => findBodyReferences(child, names, depth + 1));
}

/** A path segment's form of an identifier ('.' and '..' encoded, so it never reads as a dot segment). */
function encodeIdentifier(identifier: string): string {
  return encodeURIComponent(identifier).replace(/\./g, '%2E');
}

/** The url with each referenced `$<id>` of its path replaced by that request's record identifier. */
export function substitutePath(rest: string, identifiers: ReadonlyMap<string, string>): string {
  const [path, query] = splitQuery(rest);
  const replaced = path.replace(TOKEN, (whole, name: string) => {
    const identifier = identifiers.get(name);
    return identifier === undefined ? whole : encodeIdentifier(identifier);
  });
  return `${replaced}${query}`;
}

/** The body with each string `$<id>` replaced by that request's record identifier. */
export function substituteBody(value: unknown, identifiers: ReadonlyMap<string, string>, depth = 0): unknown {
  if (typeof value === 'string') return value.startsWith('$') ? (identifiers.get(value.slice(1)) ?? value) : value;
  if (value === null || typeof value !== 'object' || depth > MAX_BODY_DEPTH) return value;
  if (Array.isArray(value)) return value.map((child: unknown) => substituteBody(child, identifiers, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, substituteBody(child, identifiers, depth + 1)]));
}
