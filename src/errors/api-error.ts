/** One error type for the whole API; `handleError` turns it into application/problem+json. */

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
  RateLimited: 429,
  InternalError: 500,
  ServiceUnavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

const TITLES: Record<ErrorCode, string> = {
  ValidationFailed: 'The request is not valid',
  RecordNotFound: 'The record does not exist',
  DuplicateKey: 'A record with this key already exists',
  UnknownReference: 'A referenced record does not exist',
  ReferenceInUse: 'The record is still referenced',
  InvalidStateTransition: 'The state change is not allowed',
  InvalidODataQuery: 'The OData query is not valid',
  InvalidAddress: 'The tenant or organization segment is not valid',
  AmbiguousKey: 'The key matches more than one record',
  InvalidCursor: 'The change feed cursor is not valid',
  CursorExpired: 'The change feed cursor is older than its retention; resynchronize with /odata',
  Unauthorized: 'Authentication is required',
  Forbidden: 'Access to this resource is forbidden',
  NotFound: 'Not found',
  MethodNotAllowed: 'Method not allowed',
  IdempotencyKeyInUse: 'A request with this Idempotency-Key is still in progress',
  Conflict: 'The request conflicts with an operation under way',
  PreconditionFailed: 'The record has changed',
  PayloadTooLarge: 'The request body is too large',
  UnsupportedMediaType: 'The request body must be JSON',
  IdempotencyKeyReused: 'The Idempotency-Key was used with another request',
  RateLimited: 'Too many requests',
  InternalError: 'Internal server error',
  ServiceUnavailable: 'Temporarily unavailable; retry after the time given in Retry-After',
};

export interface FieldError {
  path: string;
  message: string;
}

export interface ApiErrorOptions {
  errors?: FieldError[];
  /** Overrides the code's default status (a missing record is 404 only where the operation documents it). */
  status?: number;
  headers?: Record<string, string>;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors: FieldError[];
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, detail: string, options: ApiErrorOptions = {}) {
    super(detail);
    this.name = 'ApiError';
    this.code = code;
    this.status = options.status ?? ERROR_STATUS[code];
    this.errors = options.errors ?? [];
    this.headers = options.headers ?? {};
  }
}

/** A failed validation naming every bad field. */
export function validationError(errors: FieldError[], detail?: string): ApiError {
  const summary = detail ?? `${errors.length} field(s) are not valid: ${errors.map((e) => e.path || '(body)').join(', ')}`;
  return new ApiError('ValidationFailed', summary, { errors });
}

/**
 * A record that does not exist: 404 where the operation documents 404, else 400 RecordNotFound. `paths` name the
 * inputs (path or query parameters, body fields) that named the record.
 */
export function recordNotFound(what: string, listed404: boolean, paths: string | readonly string[] = []): ApiError {
  const detail = `${what} does not exist.`;
  const errors = (typeof paths === 'string' ? [paths] : paths).map((path) => ({ path, message: detail }));
  return new ApiError('RecordNotFound', detail, { status: listed404 ? 404 : 400, errors });
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  errors: FieldError[];
  instance: string;
  requestId: string;
}

export function toProblem(error: ApiError, instance: string, requestId: string): ProblemBody {
  return {
    type: `https://errors.erp-edge-api.dev/${error.code}`,
    title: TITLES[error.code],
    status: error.status,
    detail: error.message,
    code: error.code,
    errors: error.errors,
    instance,
    requestId,
  };
}

export function problemResponse(error: ApiError, instance: string, requestId: string): Response {
  const headers = new Headers(error.headers);
  headers.set('content-type', 'application/problem+json; charset=utf-8');
  return new Response(JSON.stringify(toProblem(error, instance, requestId)), { status: error.status, headers });
}

/** The single catch: any thrown value becomes problem+json; unknown errors never leak internals (the request log has them). */
export function handleError(thrown: unknown, request: Request, requestId: string): Response {
  const instance = new URL(request.url).pathname;
  if (thrown instanceof ApiError) return problemResponse(thrown, instance, requestId);
  const internal = new ApiError('InternalError', `An unexpected error occurred. Quote request id ${requestId} when reporting it.`);
  return problemResponse(internal, instance, requestId);
}
