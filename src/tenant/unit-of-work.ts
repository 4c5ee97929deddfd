/**
 * The write batches of a tenant session (session.ts): they collect the writes of one or several entities or services
 * (`stage`) and commit them as ONE D1 batch of kind `write` (one transaction): what every write needs is added here,
 * on the commit path, in one place: the audit stamp each write is planned with, and its outbox event
 * (`buildEventInsert` is called here only: `buildEventStatement`). The residency guard and the write watchers are
 * added by the tenant executor to every `write` batch.
 */
import type { SQL } from 'drizzle-orm';
import { buildEventInsert } from '../events/outbox';
import type { EventFields, EventOrigin } from '../events/outbox';
import { bindCompiled, bindRequestStatement, compileWrite, textPlaceholder } from './compiled';
import type { CompiledStatement } from './compiled';
import type { BoundStatement } from '../db/sql';
import { defineCompiledFamily } from './compiled-families';
import type { ApiError } from '../errors/api-error';
import type { GroupCondition, GroupOverlay } from './atomic-group';
import type { TenantReader } from '../db/reader';

/** Who changes records, and when: one per unit of work (the request's clock and the token's subject, or `system`). */
export interface AuditStamp {
  readonly on: string;
  readonly by: string;
}

/** What a staged write is planned with at commit: the session's reads (its scope) and audit stamp. */
export interface WriteContext extends TenantReader {
  readonly stamp: AuditStamp;
}

/** An event's fields, over the rows of `from` when given. */
interface EventDescription {
  readonly fields: EventFields;
  readonly from?: SQL | undefined;
}

/** A write's outbox event: its fields (over the rows of `from` when given), or a compiled event with its values. */
export type PlannedEvent =
  EventDescription | { readonly compiled: CompiledStatement<never>; readonly values: Readonly<Record<string, unknown>> };

/** One statement of a planned write: bound, or its outbox event (built by the commit path). */
export type PlannedStatement = { readonly statement: BoundStatement<unknown> } | { readonly event: PlannedEvent };

/** A write's statements (in batch order) and how its result and its errors are read. */
export interface WritePlan<R> {
  readonly statements: readonly PlannedStatement[];
  /** The table the write changes: a constraint failure that names it is this write's. */
  readonly table: string;
  /** Its result from its statements' rows (in the order of `statements`; an event's rows are empty). */
  settle(rows: readonly (readonly unknown[])[]): R;
  /** This write's own error for a refused batch (e.g. a unique violation: DuplicateKey), or undefined. */
  explain?(error: unknown): Error | undefined;
  /**
   * Whether the refusal is this write's, when several writes of the batch explain it (D1 does not say which statement
   * failed): read after the refused batch, e.g. whether the key it writes is stored. Only asked then.
   */
  confirm?(error: unknown): Promise<boolean>;
  /**
   * In an atomic group, when a rule of the database (src/db/rules.ts) refuses the group's batch because of this write:
   * the request's checks, run again (they throw its worded 400, as `writeUnderRules` does alone), and the request
   * fields the rule's own 400 names when they pass.
   */
  readonly recheck?: () => Promise<unknown>;
  readonly rulePaths?: readonly string[];
}

/** What a write is planned with in an atomic group: the unit's context, the group's records, its refusal. */
export interface GroupContext extends WriteContext {
  readonly overlay: GroupOverlay;
  /** The 400 of a write that cannot be part of an atomic group. */
  refuse(): ApiError;
}

/**
 * A write's effect in an atomic group, predicted before anything runs: its result (what `settle` will answer once the
 * group commits) and the conditions it was predicted on, checked in the group's batch before (`before`) and after
 * (`after`) its statements. A condition that does not hold aborts the whole group.
 */
export interface GroupPrediction<R> {
  readonly result: R;
  readonly before?: readonly GroupCondition[];
  readonly after?: readonly GroupCondition[];
}

/** A write a repository or service stages: planned at commit, with the unit's context. */
export interface StagedWrite<R> {
  plan(context: WriteContext): WritePlan<R>;
  /**
   * Its effect in an atomic group, from the group's records (reads through the overlay), recording its after-images
   * there. A write without it cannot be part of an atomic group: its request is answered 400 and the group fails.
   */
  predict?(context: GroupContext): Promise<GroupPrediction<R>>;
}

/** A staged write's result, read after its batch committed. */
export interface WriteHandle<R> {
  /** The result; throws before the commit, and after a failed one (this write's own error, or the batch's). */
  result(): R;
}

export interface WriteBatch {
  stage<R>(write: StagedWrite<R>): WriteHandle<R>;
  /** Runs every staged write as one D1 batch of kind `write`; throws the error of the write it is attributed to. */
  commit(): Promise<void>;
}

/** The placeholders of a compiled event's origin, filled on the commit path from the unit's scope and stamp. */
const ORIGIN_PLACEHOLDERS: EventOrigin = {
  tenantKey: textPlaceholder('tenantKey'),
  orgKey: textPlaceholder('orgKey'),
  occurredOn: textPlaceholder('on'),
  actor: textPlaceholder('by'),
};

/** Events of one kind compiled once per isolate and owner (an entity store): their fields hold placeholders only. */
interface CompiledEvents<O extends object> {
  declare(owner: O): void;
  read(owner: O): CompiledStatement<never>;
}

/** The outbox event's insert: the one place events are built (`buildEventInsert`), compiled or for one write. */
function buildEventStatement(origin: EventOrigin, event: EventDescription) {
  return buildEventInsert(origin, event.fields, event.from);
}

/**
 * An event compiled with placeholders for its origin (`tenantKey`, `orgKey`, `on`, `by`, filled on the commit path from
 * the unit's scope and stamp), for a family of compiled statements (compiled-families.ts) that keeps its event beside
 * its other statements; staged as `{ compiled, values }`. Its fields and `from` bind placeholders only.
 */
export function compileEvent(event: EventDescription): CompiledStatement<never> {
  return compileWrite(buildEventStatement(ORIGIN_PLACEHOLDERS, event));
}

/** Declares compiled events: `fieldsOf` gives an owner's event fields, every value a placeholder (filled per write). */
export function defineCompiledEvents<O extends object>(name: string, fieldsOf: (owner: O) => EventFields): CompiledEvents<O> {
  const family = defineCompiledFamily({
    name,
    shapes: (): readonly 'event'[] => ['event'],
    keyOf: (shape: 'event') => shape,
    compile: (owner: O) => compileEvent({ fields: fieldsOf(owner) }),
    statementsOf: (event: CompiledStatement<never>) => [event],
  });
  return { declare: (owner) => family.declare(owner), read: (owner) => family.read(owner, 'event') };
}

/** The outbox event's statement of a staged write, with the unit's scope and stamp. */
function bindEvent(context: WriteContext, event: PlannedEvent): BoundStatement<unknown> {
  const { scope, stamp } = context;
  if ('compiled' in event) {
    const origin = { tenantKey: scope.tenantKey, orgKey: scope.orgKey, on: stamp.on, by: stamp.by };
    return bindCompiled(event.compiled, { ...event.values, ...origin });
  }
  const origin = { ...scope, occurredOn: stamp.on, actor: stamp.by };
  return bindCompiled(bindRequestStatement(buildEventStatement(origin, event)), {});
}

/** A planned statement as the commit path runs it: its own, or its outbox event built here (also for plan tests). */
export function bindPlannedStatement(context: WriteContext, planned: PlannedStatement): BoundStatement<unknown> {
  return 'statement' in planned ? planned.statement : bindEvent(context, planned.event);
}

type Outcome<R> = { readonly ok: true; readonly value: R } | { readonly ok: false; readonly error: unknown };

export interface Staged {
  readonly write: StagedWrite<unknown>;
  outcome: Outcome<unknown> | undefined;
}

/**
 * The write a refused batch's error belongs to: among the writes whose table the error names (else all), those that
 * explain it; when several do, the first that confirms it (a read), else the last (it met an earlier one's row).
 */
async function attributeError(plans: readonly WritePlan<unknown>[], error: unknown): Promise<{ index: number; error: Error } | undefined> {
  const text = error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : String(error);
  const all = plans.map((plan, index) => ({ plan, index }));
  const named = all.filter(({ plan }) => text.includes(`${plan.table}.`));
  const claims = (named.length > 0 ? named : all).flatMap(({ plan, index }) => {
    const explained = plan.explain?.(error);
    return explained ? [{ plan, index, error: explained }] : [];
  });
  if (claims.length <= 1) return claims[0];
  for (const claim of claims) if (await claim.plan.confirm?.(error)) return claim;
  return claims.at(-1);
}

/** Stages `write` in a batch's `staged` list; its handle answers the outcome its batch's commit gives it. */
export function stageEntry<R>(staged: Staged[], committed: boolean, write: StagedWrite<R>): WriteHandle<R> {
  if (committed) throw new Error('A write batch takes no write once committed.');
  const entry: Staged = { write, outcome: undefined };
  staged.push(entry);
  return {
    result() {
      if (!entry.outcome) throw new Error('A staged write has no result before its batch commits.');
      if (!entry.outcome.ok) throw entry.outcome.error;
      // The outcome is this handle's own write's: settled from its WritePlan<R>, or predicted (an atomic group).
      return entry.outcome.value as R;
    },
  };
}

/** A batch of a session outside an atomic group: its writes run as one `write` batch through `write`. */
export function openWriteBatch(
  context: WriteContext,
  write: (statements: readonly BoundStatement<unknown>[]) => Promise<unknown[][]>,
): WriteBatch {
  const staged: Staged[] = [];
  let committed = false;
  return {
    stage: <R>(write: StagedWrite<R>) => stageEntry(staged, committed, write),
    async commit() {
      if (committed) throw new Error('A write batch commits once.');
      committed = true;
      const plans = staged.map((entry) => entry.write.plan(context));
      const statements = plans.map((plan) => plan.statements.map((planned) => bindPlannedStatement(context, planned)));
      let rows: unknown[][] = [];
      try {
        if (statements.flat().length > 0) rows = await write(statements.flat());
      } catch (error) {
        const attributed = await attributeError(plans, error);
        staged.forEach((entry, index) => {
          entry.outcome = { ok: false, error: attributed?.index === index ? attributed.error : error };
        });
        throw attributed?.error ?? error;
      }
      let offset = 0;
      plans.forEach((plan, index) => {
        const own = rows.slice(offset, (offset += plan.statements.length));
        const entry = staged[index];
        if (entry) entry.outcome = { ok: true, value: plan.settle(own) };
      });
    },
  };
}

/** The rows of `statement` in a plan's `settle`: those its own `mapRow` answered at commit. */
export function rowsOf<Row>(_statement: BoundStatement<Row>, rows: readonly unknown[] | undefined): readonly Row[] {
  // The commit path maps each statement's rows with that statement's `mapRow`: these are its `Row`s.
  return (rows ?? []) as readonly Row[];
}

/** Stages one write in a batch of its own and commits it; answers its result. */
export async function commitAlone<R>(unit: { openBatch(): WriteBatch }, stage: (batch: WriteBatch) => WriteHandle<R>): Promise<R> {
  const batch = unit.openBatch();
  const handle = stage(batch);
  await batch.commit();
  return handle.result();
}
