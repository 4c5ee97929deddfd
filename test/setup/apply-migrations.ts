import { applyD1Migrations, env } from 'cloudflare:test';

// Setup files run outside per-file storage isolation; applyD1Migrations only applies what is missing.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
