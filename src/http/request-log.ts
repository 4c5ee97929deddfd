/**
 * One structured JSON line per request (stdout; `wrangler tail` and Workers Logs pick it up): request id, tenant/org,
 * method, path, matched route, status, duration and D1 round trips. A 5xx answer is logged at level `error` with
 * the error that caused it.
 */
import type { TenantScope } from '../db/client';

interface RequestLogLine {
  readonly level: 'info' | 'error';
  readonly message: 'request';
  readonly requestId: string;
  readonly method: string;
  readonly path: string;
  /** The matched route pattern (`/api/:tenantKey/:orgKey/operations/emailTemplates/:idOrTemplateKey`); null when none matched. */
  readonly route: string | null;
  readonly tenantKey: string | null;
  readonly orgKey: string | null;
  readonly status: number;
  readonly durationMs: number;
  readonly d1RoundTrips: number;
  /** The error of a 5xx answer (name, message and stack). */
  readonly error?: string;
}

interface RequestOutcome {
  readonly requestId: string;
  readonly request: Request;
  readonly route: string | null;
  readonly scope: TenantScope | null;
  readonly status: number;
  readonly durationMs: number;
  readonly d1RoundTrips: number;
  readonly error?: unknown;
}

/** A thrown value as text: an Error's name, message and stack, anything else as a string. */
function describeThrown(thrown: unknown): string {
  if (thrown instanceof Error) return `${thrown.name}: ${thrown.message}\n${thrown.stack ?? ''}`;
  return String(thrown);
}

function buildRequestLogLine(outcome: RequestOutcome): RequestLogLine {
  const failed = outcome.status >= 500;
  return {
    level: failed ? 'error' : 'info',
    message: 'request',
    requestId: outcome.requestId,
    method: outcome.request.method,
    path: new URL(outcome.request.url).pathname,
    route: outcome.route,
    tenantKey: outcome.scope?.tenantKey ?? null,
    orgKey: outcome.scope?.orgKey ?? null,
    status: outcome.status,
    durationMs: Math.round(outcome.durationMs),
    d1RoundTrips: outcome.d1RoundTrips,
    ...(failed
      ? { error: outcome.error === undefined ? 'no error was thrown (the handler answered 5xx)' : describeThrown(outcome.error) }
      : {}),
  };
}

export function writeRequestLog(outcome: RequestOutcome): void {
  const line = buildRequestLogLine(outcome);
  if (line.level === 'error') console.error(JSON.stringify(line));
  else console.log(JSON.stringify(line));
}
