/** Requests on the standard OData v4 service root (`/odata/{tenantKey}/{orgKey}/`), described by its `$metadata` rather than the OpenAPI document. */
import { SELF } from 'cloudflare:test';
import { ORIGIN } from './api';
import type { TenantClient } from './api';

export interface ServiceResult<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** The service root of a tenant client, as an absolute URL ending with `/`. */
export function serviceRootOf(client: Pick<TenantClient, 'tenant' | 'org'>): string {
  return `${ORIGIN}/odata/${client.tenant}/${client.org}/`;
}

/** One request on the standard root with the client's token (`token: null`: none); `path` is relative to the root. */
export async function callService<T = unknown>(
  client: Pick<TenantClient, 'tenant' | 'org' | 'token'>,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string>; token?: string | null } = {},
): Promise<ServiceResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  const token = options.token === undefined ? client.token : options.token;
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['content-type'] ??= 'application/json';
  const url = path.startsWith('http') ? path : `${serviceRootOf(client)}${path}`;
  const response = await SELF.fetch(url, {
    method,
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  let body: unknown = text;
  if ((response.headers.get('content-type') ?? '').includes('json') && text !== '') body = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: body as T, text };
}

/** The OData JSON error body. */
export interface ODataError {
  error: { code: string; message: string; target?: string; details: { code: string; message: string; target: string }[] };
}
