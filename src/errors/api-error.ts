/**
 * One error type for the whole API; `handleError` turns it into application/problem+json, written in the language the
 * request's `Accept-Language` asks for (en-US, pt-PT, es-ES: the titles, field messages and catalogue details).
 */
import { formatMessage, message } from '../messages/catalogue';
import type { Message } from '../messages/catalogue';
import { DEFAULT_LANGUAGE, negotiateLanguage } from '../messages/language';
import type { Language } from '../messages/language';

export const ERROR_STATUS = {
  ValidationFailed: 400,
  RecordNotFound: 400,
  DuplicateKey: 400,
  UnknownReference: 400,
  ReferenceInUse: 400,
  InvalidStateTransition: 400,
  InvalidODataQuery: 400,
  InvalidAddress: 400,
  AmbiguousKey: 400,
  InvalidCursor: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  MethodNotAllowed: 405,
  IdempotencyKeyInUse: 409,
  Conflict: 409,
  CursorExpired: 410,
  PreconditionFailed: 412,
  PayloadTooLarge: 413,
  UnsupportedMediaType: 415,
  IdempotencyKeyReused: 422,
  FailedDependency: 424,
  RateLimited: 429,
  InternalError: 500,
  ServiceUnavailable: 503,
  AnswerTooLarge: 507,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** One bad field: its path in the request and a catalogue message (what is wrong and what to send instead). */
export interface FieldError {
  path: string;
  message: Message;
}

/** A problem's detail: a catalogue message, several (joined), or plain text (details that are not translated). */
export type ErrorDetail = string | Message | readonly Message[];

function formatDetail(detail: ErrorDetail, language: Language): string {
  if (typeof detail === 'string') return detail;
  const parts = 'key' in detail ? [detail] : detail;
  return parts.map((part) => formatMessage(part, language)).join('; ');
}

interface ApiErrorOptions {
  errors?: FieldError[];
  /** Overrides the code's default status (a missing record is 404 only where the operation documents it). */
  status?: number;
  headers?: Record<string, string>;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly detail: ErrorDetail;
  readonly errors: FieldError[];
  readonly headers: Record<string, string>;

  /** `message` is the detail in en-US (logs); the answer has it in the request's language. */
  constructor(code: ErrorCode, detail: ErrorDetail, options: ApiErrorOptions = {}) {
    super(formatDetail(detail, DEFAULT_LANGUAGE));
    this.name = 'ApiError';
    this.detail = detail;
    this.code = code;
    this.status = options.status ?? ERROR_STATUS[code];
    this.errors = options.errors ?? [];
    this.headers = options.headers ?? {};
  }
}

/** An error whose detail is the messages of its fields (unknown references, missing records named by field). */
export function errorOfFields(code: ErrorCode, errors: FieldError[]): ApiError {
  return new ApiError(
    code,
    errors.map((error) => error.message),
    { errors },
  );
}

/** A failed validation naming every bad field (the detail counts and lists them unless given). */
export function validationError(errors: FieldError[], detail?: ErrorDetail): ApiError {
  const fields = errors.map((error) => error.path || '(body)').join(', ');
  const summary =
    errors.length === 1 ? message('invalidFieldsOne', { fields }) : message('invalidFieldsMany', { count: errors.length, fields });
  return new ApiError('ValidationFailed', detail ?? summary, { errors });
}

/**
 * A record that does not exist: 404 where the operation documents 404, else 400 RecordNotFound. `paths` name the
 * inputs (path or query parameters, body fields) that named the record.
 */
export function recordNotFound(what: string, listed404: boolean, paths: string | readonly string[] = []): ApiError {
  const errors = (typeof paths === 'string' ? [paths] : paths).map((path) => ({
    path,
    message: message('noRecordWithField', { field: path }),
  }));
  return new ApiError('RecordNotFound', `${what} does not exist.`, { status: listed404 ? 404 : 400, errors });
}

interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  errors: { path: string; message: string }[];
  instance: string;
  requestId: string;
}

function toProblem(error: ApiError, instance: string, requestId: string, language: Language): ProblemBody {
  return {
    type: `https://errors.erp-edge-api.dev/${error.code}`,
    title: formatMessage(message(`title.${error.code}`), language),
    status: error.status,
    detail: formatDetail(error.detail, language),
    code: error.code,
    errors: error.errors.map((field) => ({ path: field.path, message: formatMessage(field.message, language) })),
    instance,
    requestId,
  };
}

export function problemResponse(error: ApiError, instance: string, requestId: string, language: Language): Response {
  const headers = new Headers(error.headers);
  headers.set('content-type', 'application/problem+json; charset=utf-8');
  headers.set('content-language', language);
  return new Response(JSON.stringify(toProblem(error, instance, requestId, language)), { status: error.status, headers });
}

/** The single catch: any thrown value becomes problem+json; unknown errors never leak internals (the request log has them). */
export function handleError(thrown: unknown, request: Request, requestId: string): Response {
  const instance = new URL(request.url).pathname;
  const language = negotiateLanguage(request.headers.get('accept-language'));
  if (thrown instanceof ApiError) return problemResponse(thrown, instance, requestId, language);
  const internal = new ApiError('InternalError', `An unexpected error occurred. Quote request id ${requestId} when reporting it.`);
  return problemResponse(internal, instance, requestId, language);
}
