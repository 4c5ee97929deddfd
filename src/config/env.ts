import * as v from 'valibot';

/** The validated configuration of the API. */
export interface AppConfig {
  /** HS256 secret for bearer tokens (may be empty when only JWKS is used). */
  readonly jwtSecret: string;
  /** The key of `$skiptoken` checks (src/odata/cursor.ts): PAGE_TOKEN_SECRET, else JWT_SECRET. */
  readonly pageTokenSecret: string;
  readonly jwksUrl: string;
  readonly issuer: string;
  readonly audience: string;
  /** `development` (APP_ENV, set by `npm start` and `npm run start:deno`): the API reference shows how to mint a token. */
  readonly environment: 'production' | 'development';
  /** Requests per minute per tenant/org and per token subject; 0 turns rate limiting off. */
  readonly rateLimitPerMinute: number;
  /** D1 statements a tenant/org move runs per coordinator invocation before continuing in an alarm. */
  readonly moveStepQueries: number;
  /**
   * Development flag (WEBHOOKS_ALLOW_LOCAL_HTTP=true, set by `npm start`): webhook subscriptions may use
   * `http://127.0.0.1` (any loopback host). Off: `https://` to public hosts only.
   */
  readonly webhooksAllowLocalHttp: boolean;
  /**
   * The DNS-over-HTTPS resolver (JSON API) that notification URL hosts are looked up with (WEBHOOKS_DNS_RESOLVER_URL,
   * default Cloudflare's): https://, or http:// to a loopback host (a local resolver).
   */
  readonly webhooksDnsResolverUrl: string;
  /** First retry delay of a failed webhook delivery, in seconds (doubled per attempt, with jitter; 12 hours at most). */
  readonly webhookRetryBaseSeconds: number;
  /** Days of history and snapshots kept for point-in-time restores (BACKUP_RETENTION_DAYS, default 30). */
  readonly backupRetentionDays: number;
}

/**
 * Requests per minute per tenant/org and per token subject when RATE_LIMIT_PER_MINUTE is not set: ten times the
 * reference product's 60 per subscription, since a request here is far cheaper (one D1 round trip), and bulk work
 * goes through bulk endpoints (5000 measurements or reference records, 1000 members or lines per request).
 */
const DEFAULT_RATE_LIMIT_PER_MINUTE = 600;

const DEFAULT_DNS_RESOLVER_URL = 'https://cloudflare-dns.com/dns-query';

/** https://, or http:// to a loopback host; no credentials, query or fragment (the lookup adds `name` and `type`). */
function isResolverUrl(raw: string): boolean {
  if (!URL.canParse(raw)) return false;
  const url = new URL(raw);
  const loopback = url.hostname === 'localhost' || url.hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);
  const scheme = url.protocol === 'https:' || (url.protocol === 'http:' && loopback);
  return scheme && url.username === '' && url.password === '' && url.search === '' && url.hash === '';
}

/**
 * The keys that verify tokens come from JWT_JWKS_URL: over plain http:// anyone on the path could substitute their own
 * and sign any token. https:// only; http:// to a loopback host (a local identity provider) in development only.
 */
function isJwksUrl(raw: string, development: boolean): boolean {
  if (!URL.canParse(raw)) return false;
  const url = new URL(raw);
  const loopback = url.hostname === 'localhost' || url.hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);
  const scheme = url.protocol === 'https:' || (url.protocol === 'http:' && loopback && development);
  return scheme && url.username === '' && url.password === '';
}

const EnvSchema = v.pipe(
  v.object({
    JWT_SECRET: v.optional(v.string(), ''),
    PAGE_TOKEN_SECRET: v.optional(v.string(), ''),
    JWT_JWKS_URL: v.optional(v.string(), ''),
    JWT_ISSUER: v.optional(v.string(), ''),
    JWT_AUDIENCE: v.optional(v.string(), ''),
    APP_ENV: v.optional(v.picklist(['production', 'development'], 'APP_ENV must be "production" or "development".'), 'production'),
    RATE_LIMIT_PER_MINUTE: v.optional(
      v.pipe(v.string(), v.regex(/^\d{1,9}$/, 'RATE_LIMIT_PER_MINUTE must be a whole number (0 turns rate limiting off).')),
      String(DEFAULT_RATE_LIMIT_PER_MINUTE),
    ),
    MOVE_STEP_QUERIES: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^\d+$/, 'MOVE_STEP_QUERIES must be a whole number.'),
        v.transform(Number),
        v.minValue(4, 'MOVE_STEP_QUERIES must be at least 4.'),
        v.maxValue(900, 'MOVE_STEP_QUERIES must be at most 900 (D1 allows 1,000 queries per invocation).'),
      ),
      '400',
    ),
    WEBHOOKS_ALLOW_LOCAL_HTTP: v.optional(v.picklist(['true', 'false'], 'WEBHOOKS_ALLOW_LOCAL_HTTP must be "true" or "false".'), 'false'),
    WEBHOOKS_DNS_RESOLVER_URL: v.optional(
      v.pipe(
        v.string(),
        v.check(
          isResolverUrl,
          'WEBHOOKS_DNS_RESOLVER_URL must be the https:// URL of a DNS-over-HTTPS JSON resolver (http:// only to a loopback host), without a query.',
        ),
      ),
      DEFAULT_DNS_RESOLVER_URL,
    ),
    WEBHOOK_RETRY_BASE_SECONDS: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^\d{1,5}$/, 'WEBHOOK_RETRY_BASE_SECONDS must be a whole number.'),
        v.transform(Number),
        v.maxValue(3600, 'WEBHOOK_RETRY_BASE_SECONDS must be at most 3600.'),
      ),
      '30',
    ),
    BACKUP_RETENTION_DAYS: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^\d{1,4}$/, 'BACKUP_RETENTION_DAYS must be a whole number of days.'),
        v.transform(Number),
        v.minValue(1, 'BACKUP_RETENTION_DAYS must be at least 1.'),
      ),
      '30',
    ),
  }),
  v.check(
    (env) => env.JWT_SECRET.length >= 32 || env.JWT_JWKS_URL !== '',
    'Configure JWT_SECRET (at least 32 characters) or JWT_JWKS_URL so bearer tokens can be verified.',
  ),
  v.check(
    (env) => env.PAGE_TOKEN_SECRET.length >= 32 || (env.PAGE_TOKEN_SECRET === '' && env.JWT_SECRET.length >= 32),
    'Configure PAGE_TOKEN_SECRET (at least 32 characters; it keys $skiptoken checks) when JWT_SECRET is not set.',
  ),
  v.check(
    (env) => env.JWT_JWKS_URL === '' || isJwksUrl(env.JWT_JWKS_URL, env.APP_ENV === 'development'),
    'JWT_JWKS_URL must be an https:// URL (http:// only to a loopback host with APP_ENV=development), without credentials.',
  ),
);

/** The configuration variables by their Worker names, as the runtime gives them (not yet validated). */
export interface RawEnv {
  readonly JWT_SECRET?: unknown;
  readonly PAGE_TOKEN_SECRET?: unknown;
  readonly JWT_JWKS_URL?: unknown;
  readonly JWT_ISSUER?: unknown;
  readonly JWT_AUDIENCE?: unknown;
  readonly APP_ENV?: unknown;
  readonly RATE_LIMIT_PER_MINUTE?: unknown;
  readonly MOVE_STEP_QUERIES?: unknown;
  readonly WEBHOOKS_ALLOW_LOCAL_HTTP?: unknown;
  readonly WEBHOOKS_DNS_RESOLVER_URL?: unknown;
  readonly WEBHOOK_RETRY_BASE_SECONDS?: unknown;
  readonly BACKUP_RETENTION_DAYS?: unknown;
}

let cached: { source: RawEnv; config: AppConfig } | undefined;

/** Validates configuration once per isolate; a misconfigured deployment fails loudly at its first request. */
export function parseConfig(env: RawEnv): AppConfig {
  if (cached && cached.source === env) return cached.config;
  const result = v.safeParse(EnvSchema, {
    JWT_SECRET: env.JWT_SECRET,
    PAGE_TOKEN_SECRET: env.PAGE_TOKEN_SECRET,
    JWT_JWKS_URL: env.JWT_JWKS_URL,
    JWT_ISSUER: env.JWT_ISSUER,
    JWT_AUDIENCE: env.JWT_AUDIENCE,
    APP_ENV: env.APP_ENV === '' ? undefined : env.APP_ENV,
    RATE_LIMIT_PER_MINUTE: env.RATE_LIMIT_PER_MINUTE === '' ? undefined : env.RATE_LIMIT_PER_MINUTE,
    MOVE_STEP_QUERIES: env.MOVE_STEP_QUERIES === '' ? undefined : env.MOVE_STEP_QUERIES,
    WEBHOOKS_ALLOW_LOCAL_HTTP: env.WEBHOOKS_ALLOW_LOCAL_HTTP === '' ? undefined : env.WEBHOOKS_ALLOW_LOCAL_HTTP,
    WEBHOOKS_DNS_RESOLVER_URL: env.WEBHOOKS_DNS_RESOLVER_URL === '' ? undefined : env.WEBHOOKS_DNS_RESOLVER_URL,
    WEBHOOK_RETRY_BASE_SECONDS: env.WEBHOOK_RETRY_BASE_SECONDS === '' ? undefined : env.WEBHOOK_RETRY_BASE_SECONDS,
    BACKUP_RETENTION_DAYS: env.BACKUP_RETENTION_DAYS === '' ? undefined : env.BACKUP_RETENTION_DAYS,
  });
  if (!result.success) {
    throw new Error(`Invalid configuration: ${result.issues.map((issue) => issue.message).join(' ')}`);
  }
  const config: AppConfig = {
    jwtSecret: result.output.JWT_SECRET,
    pageTokenSecret: result.output.PAGE_TOKEN_SECRET || result.output.JWT_SECRET,
    jwksUrl: result.output.JWT_JWKS_URL,
    issuer: result.output.JWT_ISSUER,
    audience: result.output.JWT_AUDIENCE,
    environment: result.output.APP_ENV,
    rateLimitPerMinute: Number(result.output.RATE_LIMIT_PER_MINUTE),
    moveStepQueries: result.output.MOVE_STEP_QUERIES,
    webhooksAllowLocalHttp: result.output.WEBHOOKS_ALLOW_LOCAL_HTTP === 'true',
    webhooksDnsResolverUrl: result.output.WEBHOOKS_DNS_RESOLVER_URL,
    webhookRetryBaseSeconds: result.output.WEBHOOK_RETRY_BASE_SECONDS,
    backupRetentionDays: result.output.BACKUP_RETENTION_DAYS,
  };
  cached = { source: env, config };
  return config;
}
