#!/usr/bin/env node
// Prints a bearer token the local server accepts:
//   npm run -s token -- --tenant demo --org demo [--scope "application admin"] [--sub alice] [--ttl 3600]
//   npm run -s token -- --scope operator       # the operator API (/admin): no orgs unless --orgs is given
// The HS256 secret is JWT_SECRET from the environment, else from .dev.vars (made by `npm start`).
// --ttl is in seconds, 1 to 86400: the API refuses tokens without `exp` or living longer than 24 hours.
import { SignJWT } from 'jose';
import { readDevVar } from './dev-vars.mjs';

const HELP = `Prints a bearer token the local server (npm start, npm run start:deno) accepts, signed with JWT_SECRET
(from the environment, else .dev.vars).

  npm run -s token -- [--tenant demo] [--org demo] [--scope "application"] [--sub developer] [--ttl 3600]
  npm run -s token -- --scope operator        the operator API (/admin): no orgs unless --orgs is given

  --tenant, --org  the tenant/org the token may use (default demo/demo)
  --orgs           tenant/org pairs, comma-separated (instead of --tenant and --org): t1/o1,t1/o2
  --scope          space-separated scopes: application, admin, operator (default application)
  --sub            the subject, recorded as the actor of changes (default developer)
  --ttl            lifetime in seconds, 1 to 86400 (default 3600)

Example: export TOKEN=$(npm run -s token -- --tenant demo --org demo --scope "application admin")
`;

const OPTIONS = new Set(['--tenant', '--org', '--orgs', '--scope', '--sub', '--ttl']);

function readArgs(argv) {
  const args = { scope: 'application', sub: 'developer', ttl: '3600' };
  for (let index = 0; index < argv.length; index += 1) {
    const name = argv[index];
    if (!OPTIONS.has(name)) throw new Error(`Unknown argument ${name}`);
    const value = argv[index + 1];
    if (value === undefined) throw new Error(`${name} needs a value`);
    args[name.slice(2)] = value;
    index += 1;
  }
  return args;
}

function readSecret() {
  const secret = readDevVar('JWT_SECRET');
  if (!secret) throw new Error('No JWT_SECRET in the environment or .dev.vars');
  return secret;
}

const MAX_TTL_SECONDS = 24 * 60 * 60;

const argv = process.argv.slice(2);
if (argv.includes('--help') || argv.includes('-h')) {
  process.stdout.write(HELP);
  process.exit(0);
}
let args;
try {
  args = readArgs(argv);
} catch (error) {
  process.stderr.write(`${error.message}\n\n${HELP}`);
  process.exit(2);
}
const ttl = Number(args.ttl);
if (!Number.isInteger(ttl) || ttl < 1 || ttl > MAX_TTL_SECONDS) {
  process.stderr.write(`--ttl must be a whole number of seconds from 1 to ${MAX_TTL_SECONDS} (24 hours); got ${args.ttl}\n`);
  process.exit(2);
}
// The operator scope is not bound to tenant/orgs: a token with only that scope names none unless asked.
const operatorOnly = args.scope.split(' ').every((scope) => scope === 'operator');
const named = args.tenant !== undefined || args.org !== undefined;
const orgs =
  args.orgs !== undefined ? args.orgs.split(',') : operatorOnly && !named ? [] : [`${args.tenant ?? 'demo'}/${args.org ?? 'demo'}`];
const token = await new SignJWT({ scope: args.scope, orgs })
  .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
  .setSubject(args.sub)
  .setIssuedAt()
  .setExpirationTime(`${ttl}s`)
  .sign(new TextEncoder().encode(readSecret()));
process.stdout.write(`${token}\n`);
