/**
 * Operator API helpers (`/admin`, scope `operator`). The operator API is not part of the public OpenAPI document
 * (it is for the people who run the service), so these calls skip the contract check of `call()`.
 */
import { SELF } from 'cloudflare:test';
import { mintToken, ORIGIN } from './api';
import type { CallResult } from './api';

export interface PlacementBody {
  tenantKey: string;
  orgKey: string;
  database: string;
  rows: number;
  placedOn: string;
  movedOn: string | null;
  epoch: number;
  move: { database: string; startedOn: string } | null;
}

/** A token with the operator scope only (no orgs). */
export function mintOperatorToken(): Promise<string> {
  return mintToken({ scope: 'operator', orgs: [] });
}

export async function callAdmin<T = unknown>(
  method: string,
  path: string,
  options: { token?: string | null; body?: unknown } = {},
): Promise<CallResult<T>> {
  const token = options.token === undefined ? await mintOperatorToken() : options.token;
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await SELF.fetch(`${ORIGIN}${path}`, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text === '' ? undefined : JSON.parse(text)) as T, text };
}

export function movePlacement(tenantKey: string, orgKey: string, database: string): Promise<CallResult<PlacementBody>> {
  return callAdmin<PlacementBody>('POST', `/admin/placements/${tenantKey}/${orgKey}/move`, { body: { database } });
}
