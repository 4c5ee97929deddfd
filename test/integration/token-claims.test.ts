/**
 * Token claims the API refuses although the signature is good (issue 13): no `exp` or a lifetime over 24 hours,
 * and `orgs` claims over the pattern limits; patterns that made a backtracking regex stall the isolate (M6) are
 * matched in linear time.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { call, mintToken } from '../helpers/api';
import type { Problem } from '../helpers/api';
import { uniqueKey } from '../helpers/tenants';

/** A tenant/org of this test's own, and its list path. */
let tenant: string;
let org: string;
let path: string;

beforeEach(() => {
  tenant = uniqueKey('claims');
  org = uniqueKey('o');
  path = `/api/${tenant}/${org}/operations/emailTemplates/odata`;
});

async function expectRefused(token: string, detail: RegExp): Promise<void> {
  const result = await call<Problem>('GET', path, { token });
  expect(result.status, result.text).toBe(401);
  expect(result.body.code).toBe('Unauthorized');
  expect(result.body.detail).toMatch(detail);
  expect(result.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
}

describe('token subject', () => {
  it('refuses a token without a subject (one shared budget and audit name otherwise)', async () => {
    await expectRefused(await mintToken({ tenant, org, sub: null }), /no subject/);
    await expectRefused(await mintToken({ tenant, org, sub: '  ' }), /no subject/);
  });
});

describe('token lifetime', () => {
  it('refuses a token without exp', async () => {
    await expectRefused(await mintToken({ tenant, org, expiresIn: null }), /no expiry/);
  });

  it('refuses a lifetime over 24 hours, by iat or from now', async () => {
    const now = Math.floor(Date.now() / 1000);
    await expectRefused(await mintToken({ tenant, org, issuedAt: now - 3600, expiresIn: '24h' }), /longer than 24 hours/);
    await expectRefused(await mintToken({ tenant, org, issuedAt: now + 7200, expiresIn: '26h' }), /more than 24 hours from now/);
  });

  it('accepts a token of exactly 24 hours', async () => {
    expect((await call('GET', path, { token: await mintToken({ tenant, org, expiresIn: '24h' }) })).status).toBe(200);
  });
});

describe('orgs patterns', () => {
  it('refuses more than 100 patterns or a pattern longer than 129 characters', async () => {
    const many = Array.from({ length: 101 }, (_, index) => `t${index}/*`);
    await expectRefused(await mintToken({ orgs: many }), /101 patterns; at most 100/);
    await expectRefused(await mintToken({ orgs: [`${'a'.repeat(129)}*`] }), /130 characters; at most 129/);
    const limits = [...Array.from({ length: 98 }, (_, index) => `t${index}/*`), `${'x'.repeat(124)}/main`, `${tenant}/*`];
    expect((await call('GET', path, { token: await mintToken({ orgs: limits }) })).status).toBe(200);
  });

  it('matches patterns that make a backtracking regex stall, at once (M6)', async () => {
    // 63-character keys of this test's own, long runs of `a` for the patterns to backtrack over.
    const long = `${'a'.repeat(55)}${crypto.randomUUID().slice(0, 8)}`;
    const all = 'a'.repeat(63);
    const stall = Array.from({ length: 99 }, () => '*a'.repeat(40) + '*b');
    const token = await mintToken({ orgs: stall });
    const result = await call<Problem>('GET', `/api/${long}/${all}/operations/emailTemplates/odata`, { token });
    expect(result.status, result.text).toBe(403);
    const fits = await mintToken({ orgs: ['*a*a*a*a*a*', ...stall] });
    expect((await call('GET', `/api/${long}/${all}/operations/emailTemplates/odata`, { token: fits })).status).toBe(200);
  });
});
