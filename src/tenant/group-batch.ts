/**
 * The write batch of a unit of work in an atomic group of `$batch` (src/tenant/atomic-group.ts): its writes are
 * predicted, not run, and their statements join the group's one D1 batch (src/tenant/unit-of-work.ts opens it).
 */
import { buildRuleError, parseRuleViolation } from '../db/rules';
import { ApiError } from '../errors/api-error';
import { message } from '../messages/catalogue';
import { bindCondition, isAssertionFailure } from './atomic-group';
import type { GroupMember } from './atomic-group';
import { bindPlannedStatement, stageEntry } from './unit-of-work';
import type { GroupContext, Staged, StagedWrite, WriteBatch, WriteContext, WritePlan } from './unit-of-work';

/** A write's answer to the error that refused its atomic group's batch (its own, a rule's, or a concurrent change's). */
async function explainInGroup(plan: WritePlan<unknown>, member: GroupMember, error: unknown): Promise<Error | undefined> {
  const own = plan.explain?.(error);
  if (own) return own;
  const rule = parseRuleViolation(error);
  if (rule !== undefined) {
    try {
      await plan.recheck?.();
    } catch (worded) {
      if (worded instanceof Error) return worded;
    }
    return buildRuleError(rule, plan.rulePaths ?? []);
  }
  // A condition of the group, or a create's guard (the custom attribute definitions it checked changed meanwhile).
  const text = error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : String(error);
  if (isAssertionFailure(error) || text.includes(`NOT NULL constraint failed: ${plan.table}.id`)) {
    const field = `${member.path}.atomicityGroup`;
    return new ApiError(
      'Conflict',
      `Request ${member.id}: a record it was planned on changed meanwhile; nothing of its atomic group was written.`,
      {
        errors: [{ path: field, message: message('batchGroupChanged', { id: member.id, field }) }],
      },
    );
  }
  return undefined;
}

/**
 * A batch of a unit in an atomic group: `commit` predicts each staged write in order (its result, read through the
 * group's records) and hands its statements, between the conditions it was predicted on, to the group, which commits
 * them with the other members' as one D1 batch. A write that cannot be predicted refuses the request (400).
 */
export function openGroupBatch(context: WriteContext, member: GroupMember): WriteBatch {
  const staged: Staged[] = [];
  let committed = false;
  return {
    stage: <R>(write: StagedWrite<R>) => stageEntry(staged, committed, write),
    async commit() {
      if (committed) throw new Error('A write batch commits once.');
      committed = true;
      const groupContext: GroupContext = { ...context, overlay: member.overlay, refuse: () => member.refuse() };
      for (const entry of staged) {
        if (!entry.write.predict) throw member.refuse();
        const prediction = await entry.write.predict(groupContext);
        const plan = entry.write.plan(context);
        const statements = [
          ...(prediction.before ?? []).map((condition) => bindCondition(condition)),
          ...plan.statements.map((planned) => bindPlannedStatement(context, planned)),
          ...(prediction.after ?? []).map((condition) => bindCondition(condition)),
        ];
        member.add({ statements, explain: (error) => explainInGroup(plan, member, error) });
        entry.outcome = { ok: true, value: prediction.result };
      }
    },
  };
}
