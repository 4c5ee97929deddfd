import { applyD1Migrations, env } from 'cloudflare:test';

// Setup files run outside per-file storage isolation; applyD1Migrations only applies what is missing.
await applyD1Migrations(env.DIRECTORY, env.TEST_DIRECTORY_MIGRATIONS);
for (const [name, binding] of Object.entries(env)) {
  if (name.startsWith('TENANT_DB_')) await applyD1Migrations(binding as D1Database, env.TEST_MIGRATIONS);
}
