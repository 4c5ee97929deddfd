import * as v from 'valibot';

/** The validated configuration of the API. */
export interface AppConfig {
  /** HS256 secret for bearer tokens (may be empty when only JWKS is used). */
  readonly jwtSecret: string;
  readonly jwksUrl: string;
  readonly issuer: string;
  readonly audience: string;
  /** `development` (APP_ENV, set by `npm start` and `npm run start:deno`): the API reference shows how to mint a token. */
  readonly environment: 'production' | 'development';
}

const EnvSchema = v.pipe(
  v.object({
    JWT_SECRET: v.optional(v.string(), ''),
    JWT_JWKS_URL: v.optional(v.string(), ''),
    JWT_ISSUER: v.optional(v.string(), ''),
    JWT_AUDIENCE: v.optional(v.string(), ''),
    APP_ENV: v.optional(v.picklist(['production', 'development'], 'APP_ENV must be "production" or "development".'), 'production'),
  }),
  v.check(
    (env) => env.JWT_SECRET.length >= 32 || env.JWT_JWKS_URL !== '',
    'Configure JWT_SECRET (at least 32 characters) or JWT_JWKS_URL so bearer tokens can be verified.',
  ),
  v.check((env) => env.JWT_JWKS_URL === '' || /^https?:\/\//.test(env.JWT_JWKS_URL), 'JWT_JWKS_URL must be an http(s) URL.'),
);

/** The configuration variables by their Worker names, as the runtime gives them (not yet validated). */
export interface RawEnv {
  readonly JWT_SECRET?: unknown;
  readonly JWT_JWKS_URL?: unknown;
  readonly JWT_ISSUER?: unknown;
  readonly JWT_AUDIENCE?: unknown;
  readonly APP_ENV?: unknown;
}

let cached: { source: RawEnv; config: AppConfig } | undefined;

/** Validates configuration once per isolate; a misconfigured deployment fails loudly at its first request. */
export function parseConfig(env: RawEnv): AppConfig {
  if (cached && cached.source === env) return cached.config;
  const result = v.safeParse(EnvSchema, {
    JWT_SECRET: env.JWT_SECRET,
    JWT_JWKS_URL: env.JWT_JWKS_URL,
    JWT_ISSUER: env.JWT_ISSUER,
    JWT_AUDIENCE: env.JWT_AUDIENCE,
    APP_ENV: env.APP_ENV === '' ? undefined : env.APP_ENV,
  });
  if (!result.success) {
    throw new Error(`Invalid configuration: ${result.issues.map((issue) => issue.message).join(' ')}`);
  }
  const config: AppConfig = {
    jwtSecret: result.output.JWT_SECRET,
    jwksUrl: result.output.JWT_JWKS_URL,
    issuer: result.output.JWT_ISSUER,
    audience: result.output.JWT_AUDIENCE,
    environment: result.output.APP_ENV,
  };
  cached = { source: env, config };
  return config;
}
