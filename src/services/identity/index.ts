/**
 * API clients and the OAuth2 client credentials grant: clients are managed under `/identity/apiClients` (admin scope)
 * and get their tokens from the public `POST /connect/token`, rate limited per tenant/org and client id.
 */
import { apiClientRoutes } from './routes';
import { buildTokenRoutes } from './token-endpoint';
import { tokenLimits } from './token-limits';

export const identityService = { name: 'identity', routes: apiClientRoutes, publicRoutes: buildTokenRoutes(tokenLimits) };
