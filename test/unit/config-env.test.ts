import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/env';

/** A JWKS-only deployment (no JWT_SECRET) keys its $skiptoken checks with PAGE_TOKEN_SECRET. */
const PAGE_TOKEN_SECRET = 'a-page-token-secret-of-32-characters-or-more';

describe('JWT_JWKS_URL', () => {
  it('takes https://; http:// only to a loopback host in development', () => {
    expect(parseConfig({ JWT_JWKS_URL: 'https://login.example.com/.well-known/jwks.json', PAGE_TOKEN_SECRET }).jwksUrl).toBe(
      'https://login.example.com/.well-known/jwks.json',
    );
    for (const local of ['http://127.0.0.1:9000/jwks', 'http://localhost:9000/jwks', 'http://[::1]/jwks']) {
      expect(parseConfig({ JWT_JWKS_URL: local, APP_ENV: 'development', PAGE_TOKEN_SECRET }).jwksUrl, local).toBe(local);
    }
  });

  it('refuses http:// (a key substituted on the way would sign any token), in production even to a loopback host', () => {
    const refused: [string, string | undefined][] = [
      ['http://login.example.com/.well-known/jwks.json', undefined],
      ['http://login.example.com/.well-known/jwks.json', 'development'],
      ['http://10.0.0.5/jwks', 'development'],
      ['http://127.0.0.1:9000/jwks', undefined],
      ['http://127.0.0.1:9000/jwks', 'production'],
      ['http://localhost/jwks', 'production'],
      ['https://user:pass@login.example.com/jwks', undefined],
      ['ftp://login.example.com/jwks', undefined],
      ['login.example.com/jwks', undefined],
    ];
    for (const [value, environment] of refused) {
      const env = { JWT_SECRET: 'a-secret-that-is-at-least-32-characters-long', JWT_JWKS_URL: value, APP_ENV: environment };
      expect(() => parseConfig(env), `${value} (${environment ?? 'production'})`).toThrow(/JWT_JWKS_URL must be an https:\/\/ URL/);
    }
  });
});

describe('PAGE_TOKEN_SECRET', () => {
  it('keys $skiptoken checks; JWT_SECRET does when it is not set', () => {
    const jwtSecret = 'a-secret-that-is-at-least-32-characters-long';
    expect(parseConfig({ JWT_SECRET: jwtSecret }).pageTokenSecret).toBe(jwtSecret);
    expect(parseConfig({ JWT_SECRET: jwtSecret, PAGE_TOKEN_SECRET }).pageTokenSecret).toBe(PAGE_TOKEN_SECRET);
  });

  it('is required (at least 32 characters) by a deployment without JWT_SECRET', () => {
    const jwks = 'https://login.example.com/.well-known/jwks.json';
    expect(() => parseConfig({ JWT_JWKS_URL: jwks })).toThrow(/PAGE_TOKEN_SECRET/);
    expect(() => parseConfig({ JWT_JWKS_URL: jwks, PAGE_TOKEN_SECRET: 'short' })).toThrow(/PAGE_TOKEN_SECRET/);
  });
});
