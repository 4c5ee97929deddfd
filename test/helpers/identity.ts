/** Test helpers of the API clients and the OAuth2 token endpoint. */
import { expect } from 'vitest';
import { call } from './api';
import type { CallResult, TenantClient } from './api';

export const API_CLIENTS = '/identity/apiClients';
export const TOKEN_PATH = '/connect/token';

export interface ApiClientAnswer {
  id: string;
  clientId: string;
  clientSecret: string;
  name: string;
  scopes: string[];
  orgs: string[];
  isActive: boolean;
  revokedOn: string | null;
  version: number;
}

/** Registers a client with an admin client (201 expected); answers the client with its secret. */
export async function createApiClient(
  admin: TenantClient,
  body: Record<string, unknown> = { name: 'ERP connector' },
): Promise<ApiClientAnswer> {
  const result = await admin.call<ApiClientAnswer>('POST', API_CLIENTS, { body });
  expect(result.status, result.text).toBe(201);
  return result.body;
}

export interface TokenAnswer {
  access_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
  error?: string;
  error_description?: string;
}

/** POST /connect/token with these form parameters (and headers, e.g. Basic). */
export function requestToken(parameters: Record<string, string>, headers: Record<string, string> = {}): Promise<CallResult<TokenAnswer>> {
  return call<TokenAnswer>('POST', TOKEN_PATH, {
    rawBody: new URLSearchParams(parameters).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  });
}

/** `Authorization: Basic` of RFC 6749 2.3.1 (each part form-encoded). */
export function basicAuthorization(clientId: string, secret: string): string {
  const encode = (text: string) => encodeURIComponent(text).replace(/%20/g, '+');
  return `Basic ${btoa(`${encode(clientId)}:${encode(secret)}`)}`;
}

/** A token for the client's credentials (200 expected). */
export async function tokenFor(client: Pick<ApiClientAnswer, 'clientId' | 'clientSecret'>, scope?: string): Promise<string> {
  const result = await requestToken({
    grant_type: 'client_credentials',
    client_id: client.clientId,
    client_secret: client.clientSecret,
    ...(scope === undefined ? {} : { scope }),
  });
  expect(result.status, result.text).toBe(200);
  return result.body.access_token;
}
