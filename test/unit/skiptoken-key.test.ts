/** `$skiptoken` checks are keyed (HMAC with a server secret): nobody without the secret can forge a position. */
import { describe, expect, it } from 'vitest';
import { decodeSkipToken, encodeSkipToken } from '../../src/odata/cursor';

const SECRET = 'a-server-secret-that-is-32-characters-or-more';
const CONTEXT = '/api/acme/main/operations/emailTemplates/odata\nsubject asc,id asc\nnull';

function encodeBase64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** A token as anyone could build it with the old, unkeyed check (SHA-256 of the context and the values). */
async function forgeWithPlainHash(values: unknown[]): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${CONTEXT}\n${JSON.stringify(values)}`));
  const check = encodeBase64Url(new Uint8Array(digest)).slice(0, 22);
  return encodeBase64Url(new TextEncoder().encode(JSON.stringify([values, check])));
}

describe('$skiptoken checks', () => {
  it('round-trip with the server secret', async () => {
    const token = await encodeSkipToken(CONTEXT, ['Subject 3', 'id-3'], SECRET);
    expect(await decodeSkipToken(CONTEXT, token, 2, SECRET)).toEqual(['Subject 3', 'id-3']);
  });

  it('refuse a token whose check was recomputed without the secret', async () => {
    await expect(decodeSkipToken(CONTEXT, await forgeWithPlainHash(['Subject 9', 'id-9']), 2, SECRET)).rejects.toMatchObject({
      code: 'InvalidODataQuery',
    });
  });

  it('refuse a token made with another secret, or for another list', async () => {
    const token = await encodeSkipToken(CONTEXT, ['Subject 3', 'id-3'], SECRET);
    await expect(decodeSkipToken(CONTEXT, token, 2, `${SECRET}-rotated`)).rejects.toMatchObject({ code: 'InvalidODataQuery' });
    await expect(decodeSkipToken(`${CONTEXT} `, token, 2, SECRET)).rejects.toMatchObject({ code: 'InvalidODataQuery' });
  });
});
