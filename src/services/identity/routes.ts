/**
 * API clients (OAuth2 client credentials) of a tenant/org, managed with an admin-scope token under
 * `/identity/apiClients`: create (the secret is answered once), list, read, revoke, new secret, delete.
 */
import type * as v from 'valibot';
import { recordClientRevocation } from '../../auth/revocation';
import { allowsOrg } from '../../auth/token';
import { readJsonBody } from '../../http/body';
import type { ApiContext } from '../../http/context';
import { ApiError, recordNotFound } from '../../errors/api-error';
import { defineApiRoute } from '../../http/route';
import type { ApiRoute } from '../../http/route';
import { emptyResponse, jsonResponse } from '../../http/responses';
import { buildClientId, generateClientSecret, hashClientSecret } from './credentials';
import { createClientDoc, deleteClientDoc, listClientsDoc, readClientDoc, revokeClientDoc, rotateSecretDoc } from './docs';
import { findApiClient, listApiClients, stageApiClientDelete, stageApiClientInsert, stageApiClientUpdate } from './store';
import type { ApiClientRow } from './table';
import { pushClientRevocation } from './revocation-push';
import { parseApiClientInput } from './validate';
import type { NewApiClient } from './validate';
import { message } from '../../messages/catalogue';
import { commitAlone } from '../../tenant/unit-of-work';

const API_CLIENTS_BASE = '/identity/apiClients';
/** Answers that carry a secret are never cached. */
const NO_STORE = { 'cache-control': 'no-store' };

function toApiClientResource(row: ApiClientRow): v.InferOutput<(typeof readClientDoc.responses)[200]['schema']> {
  return {
    id: row.id,
    clientId: row.clientId,
    name: row.name,
    scopes: row.scopes,
    orgs: row.orgs,
    isActive: row.revokedOn === null,
    revokedOn: row.revokedOn,
    secretIssuedOn: row.secretIssuedOn,
    createdOn: row.createdOn,
    createdBy: row.createdBy,
    modifiedOn: row.modifiedOn,
    modifiedBy: row.modifiedBy,
    version: row.version,
  };
}

/**
 * Whether the caller could have granted everything the client holds (its scopes, and every org it names: `*` needs a
 * token for every org of the tenant). A client beyond the caller's reach is not listed and answers 404 to every other
 * operation: an admin limited to some orgs never reads, re-keys, revokes or deletes a wider client.
 */
function canReach(ctx: ApiContext, client: Pick<ApiClientRow, 'scopes' | 'orgs'>): boolean {
  return (
    client.scopes.every((scope) => ctx.principal.scopes.has(scope)) &&
    client.orgs.every((org) => allowsOrg(ctx.principal, ctx.tenant.scope.tenantKey, org))
  );
}

/** An admin may only grant orgs its own token may use (`*`: every org of the tenant). */
function checkGrantable(ctx: ApiContext, input: NewApiClient): void {
  const refused = input.orgs.filter((org) => !allowsOrg(ctx.principal, ctx.tenant.scope.tenantKey, org));
  if (refused.length > 0) {
    throw new ApiError(
      'Forbidden',
      `The token may not use ${refused.map((org) => `${ctx.tenant.scope.tenantKey}/${org}`).join(', ')}, so it cannot grant it.`,
      {
        errors: refused.map((org) => ({ path: 'orgs', message: message('orgNotGrantable', { org }) })),
      },
    );
  }
}

async function createClient(ctx: ApiContext) {
  const input = parseApiClientInput(await readJsonBody(ctx.request), ctx.tenant.scope.orgKey);
  checkGrantable(ctx, input);
  const secret = generateClientSecret();
  const registration = {
    id: crypto.randomUUID(),
    clientId: buildClientId(ctx.tenant.scope),
    name: input.name,
    secretHash: await hashClientSecret(secret),
    scopes: input.scopes,
    orgs: input.orgs,
  };
  const row = await commitAlone(ctx.tenant, (batch) => batch.stage(stageApiClientInsert(registration)));
  const location = `${ctx.apiBase}${API_CLIENTS_BASE}/${encodeURIComponent(row.clientId)}`;
  return jsonResponse(
    createClientDoc.responses[201].schema,
    { ...toApiClientResource(row), clientSecret: secret },
    { status: 201, headers: { location, ...NO_STORE } },
  );
}

function clientIdOf(ctx: ApiContext): string {
  return ctx.params.clientId ?? '';
}

/** The client of the path, if it exists and is within the caller's reach; else 404. */
async function findClientOrFail(ctx: ApiContext): Promise<ApiClientRow> {
  const row = await findApiClient(ctx.tenant, clientIdOf(ctx));
  if (!row || !canReach(ctx, row)) throw recordNotFound(`API client '${clientIdOf(ctx)}'`, true);
  return row;
}

async function revokeClient(ctx: ApiContext) {
  const row = await findClientOrFail(ctx);
  if (row.revokedOn !== null) return jsonResponse(revokeClientDoc.responses[200].schema, toApiClientResource(row));
  const unit = ctx.tenant;
  const revoked = await commitAlone(unit, (batch) => batch.stage(stageApiClientUpdate(row.clientId, { revokedOn: unit.stamp.on })));
  if (!revoked) throw recordNotFound(`API client '${row.clientId}'`, true);
  await recordClientRevocation(ctx.platform.cache, row.clientId, ctx.platform.now());
  pushClientRevocation(ctx, row);
  return jsonResponse(revokeClientDoc.responses[200].schema, toApiClientResource(revoked));
}

async function rotateSecret(ctx: ApiContext) {
  const row = await findClientOrFail(ctx);
  if (row.revokedOn !== null) {
    throw new ApiError('InvalidStateTransition', `API client '${row.clientId}' is revoked: it cannot get a new secret.`, {
      errors: [{ path: 'clientId', message: message('clientRevoked') }],
    });
  }
  const secret = generateClientSecret();
  const unit = ctx.tenant;
  const set = { secretHash: await hashClientSecret(secret), secretIssuedOn: unit.stamp.on };
  const changed = await commitAlone(unit, (batch) => batch.stage(stageApiClientUpdate(row.clientId, set)));
  if (!changed) throw recordNotFound(`API client '${row.clientId}'`, true);
  return jsonResponse(
    rotateSecretDoc.responses[200].schema,
    { ...toApiClientResource(changed), clientSecret: secret },
    { headers: NO_STORE },
  );
}

async function deleteClient(ctx: ApiContext) {
  const row = await findClientOrFail(ctx);
  const deleted = await commitAlone(ctx.tenant, (batch) => batch.stage(stageApiClientDelete(row.clientId)));
  if (!deleted) throw recordNotFound(`API client '${row.clientId}'`, true);
  await recordClientRevocation(ctx.platform.cache, row.clientId, ctx.platform.now());
  pushClientRevocation(ctx, row);
  return emptyResponse(204);
}

async function listClients(ctx: ApiContext) {
  const rows = await listApiClients(ctx.tenant);
  return jsonResponse(listClientsDoc.responses[200].schema, { items: rows.filter((row) => canReach(ctx, row)).map(toApiClientResource) });
}

const tags = ['API clients'];

export const apiClientRoutes: readonly ApiRoute[] = [
  defineApiRoute({
    method: 'POST',
    path: API_CLIENTS_BASE,
    scope: 'admin',
    doc: { summary: 'Register an API client (its secret is answered this once)', tags, operationId: 'createApiClient', ...createClientDoc },
    handle: createClient,
  }),
  defineApiRoute({
    method: 'GET',
    path: API_CLIENTS_BASE,
    scope: 'admin',
    doc: { summary: 'List the API clients', tags, operationId: 'listApiClients', ...listClientsDoc },
    handle: listClients,
  }),
  defineApiRoute({
    method: 'GET',
    path: `${API_CLIENTS_BASE}/:clientId`,
    scope: 'admin',
    doc: { summary: 'Read an API client', tags, operationId: 'readApiClient', ...readClientDoc },
    handle: async (ctx) => jsonResponse(readClientDoc.responses[200].schema, toApiClientResource(await findClientOrFail(ctx))),
  }),
  defineApiRoute({
    method: 'POST',
    path: `${API_CLIENTS_BASE}/:clientId/revoke`,
    scope: 'admin',
    doc: { summary: 'Revoke an API client: no new token from now on', tags, operationId: 'revokeApiClient', ...revokeClientDoc },
    handle: revokeClient,
  }),
  defineApiRoute({
    method: 'POST',
    path: `${API_CLIENTS_BASE}/:clientId/secret`,
    scope: 'admin',
    doc: {
      summary: 'Give an API client a new secret (the old one stops working)',
      tags,
      operationId: 'rotateApiClientSecret',
      ...rotateSecretDoc,
    },
    handle: rotateSecret,
  }),
  defineApiRoute({
    method: 'DELETE',
    path: `${API_CLIENTS_BASE}/:clientId`,
    scope: 'admin',
    doc: { summary: 'Delete an API client', tags, operationId: 'deleteApiClient', ...deleteClientDoc },
    handle: deleteClient,
  }),
];
