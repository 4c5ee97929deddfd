/**
 * A failed command as a coordinator answers it: the Durable Object answers failures instead of throwing them across
 * RPC (which workerd would also log as an uncaught exception of the object), and the Deno coordinator answers them the
 * same way. The caller's stub rethrows them: an `ApiError` (a write a tenant/org move held off too long: 503 with
 * Retry-After) comes back as that `ApiError`; any other error keeps its name, message and the stub's retry flags.
 */
import { ApiError } from '../errors/api-error';
import type { ErrorCode, ErrorDetail, FieldError } from '../errors/api-error';

export interface CommandFailure {
  readonly name: string;
  readonly message: string;
  /** Set by a Durable Object stub: the object was reset or the connection lost (see retry.ts). */
  readonly retryable?: boolean;
  readonly overloaded?: boolean;
  /** The problem of an `ApiError`, to be answered as it is. */
  readonly problem?: {
    readonly code: ErrorCode;
    readonly detail: ErrorDetail;
    readonly status: number;
    readonly errors: FieldError[];
    readonly headers: Record<string, string>;
  };
}

function readFlag(error: Error, name: 'retryable' | 'overloaded'): { [key: string]: true } {
  return name in error && Reflect.get(error, name) === true ? { [name]: true } : {};
}

/** What a coordinator answers for a command that threw `error`. */
export function describeFailure(error: unknown): CommandFailure {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const problem =
    error instanceof ApiError
      ? { code: error.code, detail: error.detail, status: error.status, errors: error.errors, headers: error.headers }
      : undefined;
  return {
    name: error.name,
    message: error.message,
    ...readFlag(error, 'retryable'),
    ...readFlag(error, 'overloaded'),
    ...(problem ? { problem } : {}),
  };
}

/** The error a caller throws for a failure its coordinator answered. */
export function rebuildFailure(failure: CommandFailure): Error {
  const { problem, ...rest } = failure;
  if (problem)
    return new ApiError(problem.code, problem.detail, { status: problem.status, errors: problem.errors, headers: problem.headers });
  return Object.assign(new Error(failure.message), rest);
}
