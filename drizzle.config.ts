import { defineConfig } from 'drizzle-kit';

/** Tenant databases (every `TENANT_DB_*` binding): every tenant/org table (`npm run db:generate`). */
export default defineConfig({
  dialect: 'sqlite',
  schema: './src/schema.ts',
  out: './migrations/tenant',
});
