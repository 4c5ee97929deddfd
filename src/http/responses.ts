/** Response builders shared by every service: the one place that serializes answers (typed by src/http/answer.ts). */
import type { Answer, AnswerSchema, ExactBody } from './answer';
import type { InferOutput } from 'valibot';

const JSON_TYPE = 'application/json; charset=utf-8';

interface JsonInit<Status extends number> {
  readonly status?: Status;
  readonly headers?: Record<string, string>;
}

/** Casts a built Response to the answer it is: only the builders below make answers. */
function toAnswer<Status extends number, Body>(response: Response): AnswerEach<Status, Body> {
  return response as AnswerEach<Status, Body>;
}

/** One Answer per status of a union (an answer of status 400 | 401 is an answer of 400 or one of 401). */
type AnswerEach<Status extends number, Body> = Status extends number ? Answer<Status, Body> : never;

/**
 * A JSON answer of `schema` (the schema its route documents): `body` must be the schema's output with nothing more,
 * checked at compile time (the document describes exactly what is answered).
 */
export function jsonResponse<S extends AnswerSchema, B extends InferOutput<S>, Status extends number = 200>(
  schema: S,
  body: ExactBody<S, B>,
  init: JsonInit<Status> = {},
): AnswerEach<Status, InferOutput<S>> {
  const response = new Response(JSON.stringify(body), {
    status: init.status ?? 200,
    headers: { 'content-type': JSON_TYPE, ...init.headers },
  });
  return toAnswer<Status, InferOutput<S>>(response);
}

/** An HTML page (its route documents the body as a string of media type text/html). */
export function htmlResponse(page: string, headers: Record<string, string> = {}): Answer<200, string> {
  return toAnswer(new Response(page, { headers: { 'content-type': 'text/html; charset=utf-8', ...headers } }));
}

/**
 * A text document of `mediaType` (CSV, ...), whole or streamed (UTF-8 bytes): its route documents the body as a
 * string of that media type.
 */
export function textResponse(
  body: string | ReadableStream<Uint8Array>,
  mediaType: string,
  headers: Record<string, string> = {},
): Answer<200, string> {
  return toAnswer(new Response(body, { headers: { 'content-type': `${mediaType}; charset=utf-8`, ...headers } }));
}

/**
 * The answer of `schema` in another media type its route documents beside JSON (`moreContentTypes`): the same content
 * written in that format (a multipart `$batch` answer: the same answers as the JSON one, as `multipart/mixed`).
 */
export function alternativeResponse<S extends AnswerSchema>(
  _schema: S,
  body: string,
  contentType: string,
  headers: Record<string, string> = {},
): Answer<200, InferOutput<S>> {
  return toAnswer(new Response(body, { headers: { 'content-type': contentType, ...headers } }));
}

export function emptyResponse<Status extends 200 | 204>(status: Status, headers: Record<string, string> = {}): Answer<Status, null> {
  return toAnswer(new Response(null, { status, headers }));
}

/**
 * A live stream (src/live/): the Server-Sent Events answer (200, `text/event-stream`: its route documents the body as a
 * string of that media type) or the WebSocket upgrade (101), as the platform opened it.
 */
export function streamResponse(response: Response): Answer<200, string> | Answer<101, null> {
  return response.status === 101 ? toAnswer<101, null>(response) : toAnswer<200, string>(response);
}

/** 201 Created: the body is the new record's identifier (a GUID), `location` its URL. */
export function createdResponse(id: string, location: string): Answer<201, string> {
  return toAnswer(new Response(JSON.stringify(id), { status: 201, headers: { 'content-type': JSON_TYPE, location } }));
}

export function etagOf(version: number): string {
  return `"${version}"`;
}
