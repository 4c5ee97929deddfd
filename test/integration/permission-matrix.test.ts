/**
 * The permission matrix of the OpenAPI document, walked: every operation the document lists (`paths`, each with its
 * `x-permissions`, and the operator API's `x-operator-operations`) is sent with every kind of token, and each answer
 * is checked against what the matrix says that token may do. An operation is covered by being declared: nothing here
 * names one.
 *
 * Kinds of token: none, expired, `application`, `admin`, `operator`, an admin whose `orgs` pattern is narrower than
 * the path's org, and an admin of another tenant. Refused: 401 (no usable token) or 403 (scope or orgs); allowed:
 * anything but 401 and 403, and never a 5xx (the requests carry placeholder identifiers and empty bodies, so allowed
 * ones end in 400 or 404 or a harmless read).
 */
import { SELF } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, mintToken, ORIGIN } from '../helpers/api';
import { uniqueKey } from '../helpers/tenants';

type Scope = 'application' | 'admin' | 'operator';

interface Permissions {
  readonly scopes: readonly Scope[];
  readonly orgs: boolean;
}

interface MatrixOperation {
  readonly method: string;
  readonly path: string;
  readonly permissions: Permissions;
}

type TokenKind = 'none' | 'expired' | 'application' | 'admin' | 'operator' | 'narrowerOrgs' | 'anotherTenant';

const KINDS: readonly TokenKind[] = ['none', 'expired', 'application', 'admin', 'operator', 'narrowerOrgs', 'anotherTenant'];

/** The scopes each kind of token holds (admin holds every right of application). */
const HELD: Readonly<Record<TokenKind, readonly Scope[]>> = {
  none: [],
  expired: [],
  application: ['application'],
  admin: ['application', 'admin'],
  operator: ['operator'],
  narrowerOrgs: ['application', 'admin'],
  anotherTenant: ['application', 'admin'],
};

/** What the matrix says a kind of token gets from an operation. */
function expectAnswer(permissions: Permissions, kind: TokenKind): 401 | 403 | 'allowed' {
  if (kind === 'none' || kind === 'expired') return 401;
  if (!permissions.scopes.some((scope) => HELD[kind].includes(scope))) return 403;
  if (permissions.orgs && (kind === 'narrowerOrgs' || kind === 'anotherTenant')) return 403;
  return 'allowed';
}

const tenant = uniqueKey('matrix');
const org = uniqueKey('o');
const tokens = new Map<TokenKind, string | null>();
let operations: MatrixOperation[] = [];
let publicOperations: MatrixOperation[] = [];

/** Placeholder values of path parameters: the path's tenant/org, a real reference kind, anything else. */
function fillPath(template: string): string {
  const values: Readonly<Record<string, string>> = {
    tenantKey: tenant,
    orgKey: org,
    kind: 'companies',
    number: '424242',
    customAttributeName: 'custom_matrix',
  };
  return template.replace(/\{([^}]+)\}/g, (_whole, name: string) => encodeURIComponent(values[name] ?? `matrix-${name}`));
}

async function send(operation: MatrixOperation, token: string | null): Promise<{ status: number; text: string }> {
  const path = fillPath(operation.path);
  const body = operation.method === 'POST' || operation.method === 'PUT' ? {} : undefined;
  if (operation.path.startsWith('/admin')) {
    // The operator API is not described by the document's paths (no response contract to check).
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) };
    const response = await SELF.fetch(`${ORIGIN}${path}`, { method: operation.method, headers, ...(body ? { body: '{}' } : {}) });
    return { status: response.status, text: await response.text() };
  }
  const result = await call(operation.method, path, { token, ...(body ? { body } : {}) });
  return { status: result.status, text: result.text };
}

beforeAll(async () => {
  const own = [`${tenant}/${org}`];
  tokens.set('none', null);
  tokens.set('expired', await mintToken({ orgs: own, scope: 'application admin', expiresIn: '-1m' }));
  tokens.set('application', await mintToken({ orgs: own, scope: 'application' }));
  tokens.set('admin', await mintToken({ orgs: own, scope: 'application admin' }));
  tokens.set('operator', await mintToken({ orgs: [], scope: 'operator', sub: 'matrix-operator' }));
  tokens.set('narrowerOrgs', await mintToken({ orgs: [`${tenant}/${org}-*`], scope: 'application admin' }));
  tokens.set('anotherTenant', await mintToken({ orgs: [`${uniqueKey('elsewhere')}/*`], scope: 'application admin' }));
  const document = await call<{
    paths: Record<string, Record<string, { 'x-permissions'?: Permissions }>>;
    'x-operator-operations'?: { method: string; path: string; 'x-permissions': Permissions }[];
  }>('GET', '/openapi.json');
  const documented = Object.entries(document.body.paths).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, operation]) =>
      operation['x-permissions'] ? [{ method: method.toUpperCase(), path, permissions: operation['x-permissions'] }] : [],
    ),
  );
  const operator = (document.body['x-operator-operations'] ?? []).map((operation) => ({
    method: operation.method,
    path: operation.path,
    permissions: operation['x-permissions'],
  }));
  operations = [...documented.filter((operation) => operation.permissions.scopes.length > 0), ...operator];
  publicOperations = documented.filter((operation) => operation.permissions.scopes.length === 0);
});

describe('the permission matrix', () => {
  it('states the permissions of every documented operation, and lists the operator API', async () => {
    const document = await call<{ paths: Record<string, Record<string, unknown>> }>('GET', '/openapi.json');
    const count = Object.values(document.body.paths).reduce((sum, item) => sum + Object.keys(item).length, 0);
    expect(operations.length + publicOperations.length - operations.filter((operation) => operation.path.startsWith('/admin')).length).toBe(
      count,
    );
    expect(operations.some((operation) => operation.path.startsWith('/admin'))).toBe(true);
    for (const operation of operations) {
      if (operation.path.startsWith('/api/')) expect(operation.permissions.orgs, `${operation.method} ${operation.path}`).toBe(true);
      else expect(operation.permissions).toEqual({ scopes: ['operator'], orgs: false });
    }
    expect(publicOperations.map((operation) => operation.path)).toEqual(expect.arrayContaining(['/health', '/connect/token']));
  });

  it('is what every kind of token gets from every operation', { timeout: 300_000 }, async () => {
    const mismatches: string[] = [];
    for (const operation of operations) {
      for (const kind of KINDS) {
        const expected = expectAnswer(operation.permissions, kind);
        const answer = await send(operation, tokens.get(kind) ?? null);
        const fits =
          expected === 'allowed' ? answer.status !== 401 && answer.status !== 403 && answer.status < 500 : answer.status === expected;
        if (!fits)
          mismatches.push(
            `${operation.method} ${operation.path} with ${kind}: expected ${expected}, got ${answer.status} ${answer.text.slice(0, 160)}`,
          );
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('needs no bearer token for the public operations', async () => {
    for (const operation of publicOperations) {
      const answer = await send(operation, null);
      expect([401, 403].includes(answer.status) && !/Bearer/.test(answer.text), `${operation.method} ${operation.path}`).toBe(false);
      expect(answer.status, `${operation.method} ${operation.path}`).toBeLessThan(500);
    }
  });
});
