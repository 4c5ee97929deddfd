/**
 * Client ids and secrets of the OAuth2 client credentials grant.
 *
 * - A client id names its tenant/org (`{tenantKey}~{orgKey}~{24 hex}`), so the token endpoint opens that tenant's
 *   database directly, without a global index of clients. `~` cannot occur in a tenant or org key.
 * - A secret is 32 random bytes (base64url, 43 characters), shown once. Only its SHA-256 digest is stored: for a
 *   256-bit random secret a fast hash is enough (a slow password hash only helps low-entropy secrets, and would cost
 *   CPU on every token request); a stolen digest cannot be turned back into the secret.
 */
import { ADDRESS_PATTERN } from '../../http/address';
import type { TenantScope } from '../../db/client';

const SEPARATOR = '~';
const RANDOM_PART = /^[0-9a-f]{24}$/;

function toHex(bytes: Uint8Array): string {
  return [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

function toBase64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** A new client id of the tenant/org. */
export function buildClientId(scope: TenantScope): string {
  return [scope.tenantKey, scope.orgKey, toHex(crypto.getRandomValues(new Uint8Array(12)))].join(SEPARATOR);
}

/** The tenant/org a client id names; undefined when it is not one of ours. */
export function parseClientId(clientId: string): TenantScope | undefined {
  const parts = clientId.split(SEPARATOR);
  if (parts.length !== 3) return undefined;
  const [tenantKey = '', orgKey = '', random = ''] = parts;
  if (!ADDRESS_PATTERN.test(tenantKey) || !ADDRESS_PATTERN.test(orgKey) || !RANDOM_PART.test(random)) return undefined;
  return { tenantKey, orgKey };
}

/** A new secret: 256 random bits. */
export function generateClientSecret(): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
}

/** The stored form of a secret: its SHA-256 digest, hex. */
export async function hashClientSecret(secret: string): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(secret))));
}

/** Compares two digests in time that does not depend on where they differ. */
export function digestsMatch(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index += 1) difference |= a.charCodeAt(index) ^ b.charCodeAt(index);
  return difference === 0;
}
