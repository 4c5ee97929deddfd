import { defineConfig } from 'drizzle-kit';

/** The directory database (binding `DIRECTORY`): where each tenant/org is placed (`npm run db:generate`). */
export default defineConfig({
  dialect: 'sqlite',
  schema: './src/tenant/placement/directory-schema.ts',
  out: './migrations/directory',
});
