/**
 * Standard Webhooks signing: `webhook-id`, `webhook-timestamp` (seconds) and `webhook-signature: v1,<base64 of
 * HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>`, the secret being `whsec_` + base64 of its key bytes.
 */
const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;
const encoder = new TextEncoder();

function toBase64(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** A new signing secret: `whsec_` + base64 of 32 random bytes. */
export function generateSigningSecret(): string {
  return `${SECRET_PREFIX}${toBase64(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)))}`;
}

/** A random token for the validation handshake (URL-safe). */
export function generateValidationToken(): string {
  return toBase64(crypto.getRandomValues(new Uint8Array(24)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

interface SignedHeaders {
  readonly 'webhook-id': string;
  readonly 'webhook-timestamp': string;
  readonly 'webhook-signature': string;
}

/** The Standard Webhooks headers of one message. */
export async function signWebhook(secret: string, id: string, timestamp: Date, body: string): Promise<SignedHeaders> {
  const seconds = String(Math.floor(timestamp.getTime() / 1000));
  const key = await crypto.subtle.importKey(
    'raw',
    fromBase64(secret.slice(SECRET_PREFIX.length)),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const signature = await crypto.subtle.sign('HMAC', key, encoder.encode(`${id}.${seconds}.${body}`));
  return { 'webhook-id': id, 'webhook-timestamp': seconds, 'webhook-signature': `v1,${toBase64(new Uint8Array(signature))}` };
}
