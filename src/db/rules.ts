/**
 * Rules that span rows (a route's members belong to its company, its brand model to its brand, a reference record in
 * use is never deleted, a stored reference key always exists) are enforced by the tenant database itself: triggers
 * (migration 0006) abort the write's own batch with `rule:<name>`, so no concurrent write can slip between a check and
 * the write. Updates and deletes still check before writing, to word the answer; creates and KPI ingestion do not
 * (one round trip) and leave these rules to the database. When the database refuses a write, the checks run on the
 * state that refused it and answer the same 400 as if they had seen it first.
 */
import { ApiError } from '../errors/api-error';
import type { ErrorCode } from '../errors/api-error';
import { message } from '../messages/catalogue';
import type { MessageKey } from '../messages/catalogue';

/** The `rule:<name>` aborts of migration 0006, and the answer each one gets when no check words it better. */
const RULES = {
  unknown_reference: { code: 'UnknownReference', message: 'ruleUnknownReference' },
  reference_in_use: { code: 'ReferenceInUse', message: 'ruleReferenceInUse' },
  route_member_company: { code: 'ValidationFailed', message: 'ruleMemberCompany' },
  route_company_members: { code: 'ValidationFailed', message: 'ruleCompanyMembers' },
  route_brand_model: { code: 'ValidationFailed', message: 'ruleBrandModel' },
} as const satisfies Record<string, { code: ErrorCode; message: MessageKey }>;

export type RuleName = keyof typeof RULES;

/** The rule a D1 error reports, if the database refused the batch by one. */
export function parseRuleViolation(error: unknown): RuleName | undefined {
  const text = error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : String(error);
  const match = /rule:([a-z_]+)/.exec(text);
  const name = match?.[1];
  return name !== undefined && name in RULES ? (name as RuleName) : undefined;
}

/** The 400 of a rule, naming the request fields it concerns. */
export function buildRuleError(rule: RuleName, paths: readonly string[]): ApiError {
  const { code, message: key } = RULES[rule];
  return new ApiError(code, message(key), { errors: paths.map((path) => ({ path, message: message(key) })) });
}

/**
 * Runs `write`; when the database refuses it by a rule, runs `check` again (the pre-checks, which throw the worded
 * 400 on the state that refused the write) and, if the checks now pass, answers the rule's own 400 at `paths`.
 */
export async function writeUnderRules<T>(write: () => Promise<T>, check: () => Promise<unknown>, paths: readonly string[]): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const rule = parseRuleViolation(error);
    if (rule === undefined) throw error;
    await check();
    throw buildRuleError(rule, paths);
  }
}
