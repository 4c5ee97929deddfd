/** Client ids, secrets and the token endpoint's checks before any database read. */
import { describe, expect, it } from 'vitest';
import type { AppConfig } from '../../src/config/env';
import { ApiError } from '../../src/errors/api-error';
import type { PublicContext } from '../../src/http/context';
import {
  buildClientId,
  digestsMatch,
  generateClientSecret,
  hashClientSecret,
  parseClientId,
} from '../../src/services/identity/credentials';
import { buildTokenRoutes } from '../../src/services/identity/token-endpoint';
import type { TokenLimits } from '../../src/services/identity/token-endpoint';

describe('client ids', () => {
  it('name their tenant/org and nothing else parses', () => {
    const clientId = buildClientId({ tenantKey: 'acme.eu', orgKey: 'main_1' });
    expect(clientId).toMatch(/^acme\.eu~main_1~[0-9a-f]{24}$/);
    expect(parseClientId(clientId)).toEqual({ tenantKey: 'acme.eu', orgKey: 'main_1' });
    expect(buildClientId({ tenantKey: 'a', orgKey: 'b' })).not.toBe(buildClientId({ tenantKey: 'a', orgKey: 'b' }));
    for (const bad of [
      '',
      'a~b',
      'a~b~c~d',
      'a~b~00000000000000000000000',
      '-a~b~000000000000000000000000',
      'a~b c~000000000000000000000000',
    ]) {
      expect(parseClientId(bad), bad).toBeUndefined();
    }
  });
});

describe('secrets', () => {
  it('are 256 random bits, stored as their SHA-256 digest, compared in constant time', async () => {
    const secret = generateClientSecret();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(generateClientSecret()).not.toBe(secret);
    const digest = await hashClientSecret(secret);
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(await hashClientSecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(digestsMatch(digest, await hashClientSecret(secret))).toBe(true);
    expect(digestsMatch(digest, await hashClientSecret(`${secret}x`))).toBe(false);
    expect(digestsMatch(digest, digest.slice(1))).toBe(false);
  });
});

const CONFIG: AppConfig = {
  jwtSecret: '',
  pageTokenSecret: 'p'.repeat(32),
  jwksUrl: 'https://idp.example/jwks',
  issuer: '',
  audience: '',
  environment: 'production',
  rateLimitPerMinute: 0,
  moveStepQueries: 400,
  webhooksAllowLocalHttp: false,
  webhooksDnsResolverUrl: 'https://cloudflare-dns.com/dns-query',
  webhookRetryBaseSeconds: 30,
  backupRetentionDays: 30,
};

/** A token request against a context whose database must not be reached. */
function buildContext(config: AppConfig, body: string): PublicContext {
  const request = new Request('https://api.test/connect/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  return {
    request,
    url: new URL(request.url),
    params: {},
    requestId: 'unit',
    platform: { config, now: () => new Date() } as unknown as PublicContext['platform'],
    openTenant: () => {
      throw new Error('the database must not be read');
    },
  };
}

const BODY = 'grant_type=client_credentials&client_id=acme~main~000000000000000000000000&client_secret=s';

describe('the token endpoint before the database', () => {
  it('answers 503 temporarily_unavailable when the deployment only verifies JWKS tokens (no JWT_SECRET)', async () => {
    const [route] = buildTokenRoutes();
    const response = await route?.handle(buildContext(CONFIG, BODY));
    expect(response?.status).toBe(503);
    expect(await response?.json()).toEqual({
      error: 'temporarily_unavailable',
      error_description: expect.stringContaining('JWT_JWKS_URL'),
    });
  });

  it('checks the limits with the attempt (client id, secret digest) before any lookup; their refusal answers', async () => {
    const seen: string[] = [];
    const limits: TokenLimits = {
      describeAttempt: (_ctx, clientId, secretHash) => ({ clientId, secretHash, address: 'unknown' }),
      checkBeforeLookup: (_ctx, attempt) => {
        seen.push(attempt.clientId, attempt.secretHash);
        throw new ApiError('Forbidden', 'Too many token requests.');
      },
      countFailure: async () => undefined,
      countSuccess: async () => undefined,
    };
    const [route] = buildTokenRoutes(limits);
    await expect(route?.handle(buildContext({ ...CONFIG, jwtSecret: 'x'.repeat(32) }, BODY))).rejects.toThrow('Too many token requests.');
    expect(seen).toEqual([
      'acme~main~000000000000000000000000',
      await hashClientSecret(new URLSearchParams(BODY).get('client_secret') ?? ''),
    ]);
  });
});
