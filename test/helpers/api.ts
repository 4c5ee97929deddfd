/** Test helpers: tokens signed with the test secret and requests through the Worker's own fetch. */
import { env, SELF } from 'cloudflare:test';
import { SignJWT } from 'jose';
import { assertDocumentedResponse } from './contract';

export const ORIGIN = 'https://api.test';

export interface TokenOptions {
  tenant?: string;
  org?: string;
  orgs?: string[];
  scope?: string;
  /** `sub` (default tester); null: no `sub` claim. */
  sub?: string | null;
  /** `exp` relative to now (jose syntax, default 1h); null: no `exp` claim. */
  expiresIn?: string | null;
  /** `iat` in seconds since the epoch (default now). */
  issuedAt?: number;
  secret?: string;
}

export async function mintToken(options: TokenOptions = {}): Promise<string> {
  const orgs = options.orgs ?? [`${options.tenant ?? 'acme'}/${options.org ?? 'main'}`];
  const jwt = new SignJWT({ scope: options.scope ?? 'application', orgs })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt(options.issuedAt);
  if (options.sub !== null) jwt.setSubject(options.sub ?? 'tester');
  if (options.expiresIn !== null) jwt.setExpirationTime(options.expiresIn ?? '1h');
  return jwt.sign(new TextEncoder().encode(options.secret ?? env.JWT_SECRET));
}

export interface CallOptions {
  token?: string | null;
  body?: unknown;
  /** Sent as is (bytes: to send text that is not valid UTF-8). */
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
}

export interface CallResult<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export async function call<T = unknown>(method: string, path: string, options: CallOptions = {}): Promise<CallResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | Uint8Array | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await SELF.fetch(`${ORIGIN}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await response.text();
  // Every response must be the documented one (status, media type, body schema, headers): see ./contract.ts.
  await assertDocumentedResponse(method, `${ORIGIN}${path}`, response.status, response.headers, text);
  let parsed: unknown = undefined;
  if (text !== '') {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/** A client bound to one tenant/org and token. */
export interface TenantClient {
  readonly tenant: string;
  readonly org: string;
  readonly token: string;
  readonly base: string;
  call<T = unknown>(method: string, path: string, options?: Omit<CallOptions, 'token'>): Promise<CallResult<T>>;
}

/** `orgs`: the token's patterns (default: only this tenant/org). */
export async function tenantClient(tenant: string, org: string, scope = 'application admin', orgs?: string[]): Promise<TenantClient> {
  const token = await mintToken({ tenant, org, scope, ...(orgs ? { orgs } : {}) });
  const base = `/api/${tenant}/${org}`;
  return {
    tenant,
    org,
    token,
    base,
    call: (method, path, options = {}) => call(method, `${base}${path}`, { ...options, token }),
  };
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  errors: { path: string; message: string }[];
  instance: string;
  requestId: string;
}
