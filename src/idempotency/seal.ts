/**
 * What the replay store keeps of an idempotent request, so that it never holds a secret in clear and answers no one
 * but the caller that sent the key:
 *
 * - The key's name in storage is a SHA-256 digest of the caller (token subject, client id, scopes and orgs) and the
 *   key: another subject's request with the same key is another entry, so whether a key is in use is not observable
 *   by anyone else, and a replay goes only to a caller holding the same grants as the request that ran.
 * - The stored answer's body is sealed (AES-256-GCM) with a key derived (HKDF-SHA-256) from the Idempotency-Key and
 *   the caller: storage holds ciphertext (an API client's `clientSecret`, a subscription's `whsec_` secret), and only a
 *   request carrying the same key from the same caller can open it.
 */
import type { Principal } from '../auth/token';

const encoder = new TextEncoder();
const INFO = encoder.encode('erp-edge-api idempotency replay v1');
const IV_BYTES = 12;

function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function toBase64(bytes: Uint8Array): string {
  let text = '';
  for (let index = 0; index < bytes.length; index += 0x8000) text += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  return btoa(text);
}

function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
}

/** The caller as the replay store knows it: everything that decides what it may do. */
export function describeCaller(principal: Pick<Principal, 'subject' | 'clientId' | 'scopes' | 'orgs'>): string {
  return JSON.stringify([principal.subject, principal.clientId ?? null, [...principal.scopes].sort(), [...principal.orgs].sort()]);
}

/** The key's name in storage: a digest of the caller and the key. */
export async function computeStoredKey(caller: string, key: string): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(`${caller}\n${key}`))));
}

async function deriveSealKey(caller: string, key: string): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey('raw', encoder.encode(key), 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: encoder.encode(caller), info: INFO },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

/** The body sealed for the caller and key: base64 of the IV and the ciphertext. */
export async function sealBody(caller: string, key: string, body: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await deriveSealKey(caller, key), encoder.encode(body)),
  );
  const joined = new Uint8Array(IV_BYTES + sealed.length);
  joined.set(iv);
  joined.set(sealed, IV_BYTES);
  return toBase64(joined);
}

/** The body a sealed text holds (it opens only with the same caller and key). */
export async function openBody(caller: string, key: string, sealed: string): Promise<string> {
  const bytes = fromBase64(sealed);
  const plain = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: bytes.subarray(0, IV_BYTES) },
    await deriveSealKey(caller, key),
    bytes.subarray(IV_BYTES),
  );
  return new TextDecoder().decode(plain);
}
