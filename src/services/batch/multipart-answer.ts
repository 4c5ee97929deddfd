/**
 * The answer of a multipart batch (OData 4.0 part 1 §11.7.4): `multipart/mixed` with the request's structure, one
 * `application/http` part per request (its `Content-ID` repeated) holding the status line, headers (usual case) and
 * body of its answer; a change set answered as a nested `multipart/mixed`, or, when it failed, as the one answer of the
 * request that failed it (nothing of it was written). CRLF line breaks. Pure.
 */
import { formatHeaders } from './answer';
import type { BatchResponse } from './answer';
import { isJsonMediaType } from './parse';
import type { MultipartLayout } from './multipart-parse';

const CRLF = '\r\n';
/** Reason phrases of the statuses this API answers (others are answered with an empty one, as HTTP allows). */
const REASONS: Readonly<Record<number, string>> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  304: 'Not Modified',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  410: 'Gone',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  424: 'Failed Dependency',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
  507: 'Insufficient Storage',
};

/** The boundaries the answer uses: the batch's, and one per change set (`index`: its place among the change sets). */
interface AnswerBoundaries {
  readonly batch: string;
  changeset(index: number): string;
}

/** The body of an answer as sent: JSON re-serialized, text as it is. */
function writeBody(response: BatchResponse): string {
  if (response.body === undefined) return '';
  return isJsonMediaType(response.headers['content-type']) ? JSON.stringify(response.body) : String(response.body);
}

/** One `application/http` part: MIME headers, then the inner answer's status line, headers and body. */
function writeResponsePart(response: BatchResponse, contentId: string | undefined): string {
  const head = ['Content-Type: application/http', 'Content-Transfer-Encoding: binary'];
  if (contentId !== undefined) head.push(`Content-ID: ${contentId}`);
  const status = `HTTP/1.1 ${response.status} ${REASONS[response.status] ?? ''}`.trimEnd();
  const headers = Object.entries(formatHeaders(response.headers)).map(([name, value]) => `${name}: ${value}`);
  return [...head, '', status, ...headers, '', writeBody(response)].join(CRLF);
}

/** Parts joined by `--boundary` lines and closed by `--boundary--`. */
function writeMultipart(parts: readonly string[], boundary: string): string {
  return [...parts.map((part) => `--${boundary}${CRLF}${part}${CRLF}`), `--${boundary}--${CRLF}`].join('');
}

/** The answer that stands for a failed change set: the one of the request that failed it. */
function findCause(responses: readonly BatchResponse[]): BatchResponse | undefined {
  const failed = responses.filter((response) => response.status >= 400);
  if (failed.length === 0) return undefined;
  return failed.find((response) => response.consequence !== true) ?? failed[0];
}

/**
 * The multipart body of the answers (`responses[i]` answers entry `i`; `contentIds[i]` its Content-ID, if it had one),
 * in the layout of the request.
 */
export function writeMultipartAnswer(
  layout: MultipartLayout,
  responses: readonly BatchResponse[],
  contentIds: readonly (string | undefined)[],
  boundaries: AnswerBoundaries,
): string {
  let changesets = 0;
  const parts = layout.flatMap((item) => {
    if ('request' in item) {
      const response = responses[item.request];
      return response ? [writeResponsePart(response, contentIds[item.request])] : [];
    }
    const members = item.changeset.flatMap((index) => {
      const response = responses[index];
      return response ? [{ response, contentId: contentIds[index] }] : [];
    });
    const cause = findCause(members.map((member) => member.response));
    if (cause) return [writeResponsePart(cause, members.find((member) => member.response === cause)?.contentId)];
    const boundary = boundaries.changeset(changesets++);
    const inner = writeMultipart(
      members.map((member) => writeResponsePart(member.response, member.contentId)),
      boundary,
    );
    return [`Content-Type: multipart/mixed; boundary=${boundary}${CRLF}${CRLF}${inner}`];
  });
  return writeMultipart(parts, boundaries.batch);
}
