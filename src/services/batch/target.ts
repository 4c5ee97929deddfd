/**
 * Where an inner request of `$batch` goes: its `url` relative to the service root the batch was sent to
 * (`/api/{tenantKey}/{orgKey}/`, or the standard OData root `/odata/{tenantKey}/{orgKey}/`), an absolute path (or URL of
 * the same origin) under either root of that same tenant/org, or `$<id>/...` (the resource an earlier create answered
 * in `Location`). Resolved without the URL parser's dot-segment removal, so no url can climb out of the tenant/org.
 */
import type { MessageKey } from '../../messages/catalogue';

/** The service roots of a tenant/org: today's `/api/{t}/{o}/` and the standard OData `/odata/{t}/{o}/`. */
export type BatchRoot = 'api' | 'odata';

/** The batch's own address. */
export interface BatchTarget {
  readonly origin: string;
  readonly tenantKey: string;
  readonly orgKey: string;
  /** The root the batch was sent to (relative urls resolve against it); `api` when absent. */
  readonly root?: BatchRoot;
}

/** A url as the batch will send it: the path and query after a service root, or after an earlier answer's Location. */
export interface ResolvedUrl {
  /** `$<id>` at the start: the request whose Location this url continues. */
  readonly base?: string;
  /** An absolute path under the tenant/org's other root than the batch's own (absent: the batch's root). */
  readonly root?: BatchRoot;
  /** Relative path and query (no leading `/` unless it continues a Location: then it starts with `/`, `?` or is empty). */
  readonly rest: string;
}

type UrlResolution =
  { readonly url: ResolvedUrl } | { readonly fault: Extract<MessageKey, 'batchUrl' | 'batchOtherScope' | 'batchNested'> };

export const MAX_URL_LENGTH = 8192;
/** Request ids and atomicity group names; also what `$<id>` matches. */
export const NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const MAX_NAME_LENGTH = 64;
const LEADING_REFERENCE = /^\$([A-Za-z0-9_-]{1,64})(?=[/?]|$)/;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const ROOT_PATH = /^\/(api|odata)\/([^/?]*)\/([^/?]*)(?:\/|(?=\?)|$)/i;

/** Controls, spaces, backslashes (the URL parser reads them as '/') and fragments are never part of a request target. */
function isForbidden(character: string): boolean {
  const code = character.codePointAt(0) ?? 0;
  return code <= 0x20 || code === 0x7f || character === '\\' || character === '#';
}

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** No `.`/`..` segment (raw or percent-encoded), no segment that is not valid percent-encoding. */
function hasCleanSegments(path: string): boolean {
  return path.split('/').every((segment) => {
    const decoded = decodeSegment(segment);
    return decoded !== undefined && decoded !== '.' && decoded !== '..';
  });
}

/** A path whose first segment is `$batch` (any case, raw or percent-encoded). */
function isNested(path: string): boolean {
  return (decodeSegment(path.split('/')[0] ?? '') ?? '').toLowerCase() === '$batch';
}

function pathOf(rest: string): string {
  const query = rest.indexOf('?');
  return query < 0 ? rest : rest.slice(0, query);
}

/** The path and query after `/api/{tenantKey}/{orgKey}/` or `/odata/{tenantKey}/{orgKey}/`, or the fault of an absolute path. */
function stripRoot(absolute: string, target: BatchTarget): UrlResolution {
  const match = ROOT_PATH.exec(absolute);
  if (!match) return { fault: 'batchUrl' };
  if (decodeSegment(match[2] ?? '') !== target.tenantKey || decodeSegment(match[3] ?? '') !== target.orgKey)
    return { fault: 'batchOtherScope' };
  const root: BatchRoot = (match[1] ?? '').toLowerCase() === 'odata' ? 'odata' : 'api';
  const rest = absolute.slice(match[0].length);
  return { url: root === (target.root ?? 'api') ? { rest } : { root, rest } };
}

function toRelative(url: string, target: BatchTarget): UrlResolution {
  if (url.startsWith('//')) return { fault: 'batchUrl' };
  if (SCHEME.test(url)) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return { fault: 'batchUrl' };
    }
    if (parsed.origin !== target.origin || parsed.username !== '' || parsed.password !== '') return { fault: 'batchOtherScope' };
    const afterOrigin = url.slice(url.indexOf('/', url.indexOf('//') + 2));
    return url.indexOf('/', url.indexOf('//') + 2) < 0 ? { fault: 'batchUrl' } : stripRoot(afterOrigin, target);
  }
  if (url.startsWith('/')) return stripRoot(url, target);
  return { url: { rest: url } };
}

/** Resolves an inner request's `url` (see the module comment); a fault names what is wrong with it. */
export function resolveUrl(url: string, target: BatchTarget): UrlResolution {
  if (url.length > MAX_URL_LENGTH || [...url].some(isForbidden)) return { fault: 'batchUrl' };
  if (isNested(pathOf(url))) return { fault: 'batchNested' };
  const reference = LEADING_REFERENCE.exec(url);
  if (reference) {
    const rest = url.slice(reference[0].length);
    return hasCleanSegments(pathOf(rest)) ? { url: { base: reference[1] ?? '', rest } } : { fault: 'batchUrl' };
  }
  const resolved = toRelative(url, target);
  if ('fault' in resolved) return resolved;
  const path = pathOf(resolved.url.rest);
  if (!hasCleanSegments(path)) return { fault: 'batchUrl' };
  return isNested(path) ? { fault: 'batchNested' } : resolved;
}

/** `url` when it is an absolute URL under one of `roots` (absolute, without their `/`), else undefined. */
export function findUnderRoots(url: string, roots: readonly string[]): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const under = (root: string) => parsed.origin === new URL(root).origin && parsed.pathname.startsWith(`${new URL(root).pathname}/`);
  return roots.some(under) ? url : undefined;
}
