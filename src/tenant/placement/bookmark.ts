/**
 * Read-your-writes across requests with D1 Sessions: `x-d1-bookmark` carries `<database>:<D1 bookmark>`. A D1
 * bookmark only means something to the database that issued it, so the header names the tenant database too.
 */

export const BOOKMARK_HEADER = 'x-d1-bookmark';

export interface Bookmark {
  /** Binding name of the tenant database. */
  readonly database: string;
  /** The D1 bookmark (opaque; D1's are fixed-width hex, so later ones sort after earlier ones). */
  readonly value: string;
}

/**
 * One request's (or coordinator command's) read session: where its first read may go and the freshest bookmark
 * it knows (the client's at first, then every round trip's and every coordinator command's).
 */
export interface ReadSession {
  /** `replica`: the first read may go to any replica (GET and HEAD requests); `primary`: it goes to the primary. */
  readonly start: 'replica' | 'primary';
  bookmark: Bookmark | null;
}

const HEADER_PATTERN = /^([A-Z][A-Z0-9_]{0,63}):([A-Za-z0-9._-]{1,128})$/;
const D1_BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

/** The bookmark of an `x-d1-bookmark` header; undefined when the header is absent, null when it is malformed. */
export function parseBookmark(header: string | null): Bookmark | null | undefined {
  if (header === null || header.trim() === '') return undefined;
  const match = HEADER_PATTERN.exec(header.trim());
  return match?.[1] && match[2] ? { database: match[1], value: match[2] } : null;
}

export function formatBookmark(bookmark: Bookmark): string {
  return `${bookmark.database}:${bookmark.value}`;
}

/** Keeps the later bookmark: of the same database, the greater one; else the one seen last (`next`). */
export function advanceSession(session: ReadSession, next: Bookmark | null): void {
  if (next === null) return;
  const current = session.bookmark;
  const older =
    current !== null &&
    current.database === next.database &&
    D1_BOOKMARK.test(current.value) &&
    D1_BOOKMARK.test(next.value) &&
    next.value < current.value;
  if (!older) session.bookmark = next;
}
