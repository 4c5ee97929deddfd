/** Every test gets its own tenant/org: keys no other test uses, so tests never see each other's records. */
import { tenantClient } from './api';
import type { TenantClient } from './api';

/** A fresh key (letters, digits and dashes; within the 64 characters a tenant or org key may have). */
export function uniqueKey(label: string): string {
  return `${label}-${crypto.randomUUID().slice(0, 8)}`;
}

/** A client of a tenant/org no other test uses (scope `application admin` unless told). */
export function freshTenant(label = 't', scope?: string): Promise<TenantClient> {
  return tenantClient(uniqueKey(label), uniqueKey('o'), scope);
}

/** A client of another org of the same tenant (the cross-org case of isolation). */
export function siblingOrg(client: TenantClient, scope?: string): Promise<TenantClient> {
  return tenantClient(client.tenant, uniqueKey('o'), scope);
}
