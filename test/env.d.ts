import type { D1Migration } from 'cloudflare:test';

declare global {
  namespace Cloudflare {
    interface Env {
      /** migrations/tenant, for every TENANT_DB_* binding. */
      TEST_MIGRATIONS: D1Migration[];
      /** migrations/directory, for DIRECTORY. */
      TEST_DIRECTORY_MIGRATIONS: D1Migration[];
      JWT_SECRET: string;
    }
  }
}
