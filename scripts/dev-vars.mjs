// Makes .dev.vars (never committed) with a random local JWT_SECRET the first time it is needed.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const DEV_VARS_PATH = fileURLToPath(new URL('../.dev.vars', import.meta.url));

export function ensureDevVars() {
  if (!existsSync(DEV_VARS_PATH)) {
    const secret = randomBytes(32).toString('base64url');
    try {
      // 'wx': when two starts race (npm start and npm run start:deno at once), the first file wins for both.
      writeFileSync(DEV_VARS_PATH, `# Local development only (made by npm start; not committed).\nJWT_SECRET="${secret}"\n`, {
        mode: 0o600,
        flag: 'wx',
      });
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
  }
  return DEV_VARS_PATH;
}

/** A variable from the environment, else from .dev.vars (made on first use). */
export function readDevVar(name) {
  if (process.env[name] !== undefined) return process.env[name];
  const text = readFileSync(ensureDevVars(), 'utf8');
  return new RegExp(`^${name}\\s*=\\s*"?([^"\\n]*)"?`, 'm').exec(text)?.[1];
}
