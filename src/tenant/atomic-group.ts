/**
 * Atomic groups (`$batch` `atomicityGroup`, `Isolation: snapshot`): the writes that several requests stage through
 * their units of work (unit-of-work.ts) are collected here instead of committed one request at a time, and committed
 * together as ONE D1 batch of kind `write` (one transaction) once every request of the group has answered.
 *
 * - Each member (one inner request) sees the group's records as its earlier writes leave them (`GroupOverlay`: the
 *   after-images of created and updated records, deletions), so a handler answers from what it would read after the
 *   commit.
 * - Each write was predicted from what the member read (through the overlay); it carries `GroupCondition`s checked in
 *   the batch beside its statements (`INSERT INTO batch_assertion`, migration 0015): a record changed by anyone else
 *   meanwhile aborts the whole batch, so a prediction never silently differs from what is committed.
 * - A refused batch is attributed to the member whose writes refuse it: prefixes of the batch are tried (each ending
 *   with an assertion that always fails, so nothing commits), halving the range each time. When a member fails before
 *   the commit, the writes staged before it are tried the same way (`findRefusal`): a refused one is the cause.
 */
import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';
import { ApiError } from '../errors/api-error';
import { runBound } from './compiled';
import type { BoundStatement } from './compiled';

/** A record as the group leaves it: its fields by name (as the point read answers them), or null: deleted. */
type AfterImage = Readonly<Record<string, unknown>> | null;

/** The group's records, per table and id, as its staged writes leave them. */
export interface GroupOverlay {
  /** The after-image of a record the group wrote; undefined when the group has not written it. */
  read(table: string, id: string): AfterImage | undefined;
  /** Every record of the table the group wrote, in the order first written. */
  list(table: string): ReadonlyMap<string, AfterImage>;
  write(table: string, id: string, image: AfterImage): void;
}

/** A condition checked in the group's batch: a row of `table` matches `where` (`exists`), or none does. */
export interface GroupCondition {
  readonly table: SQLiteTable;
  readonly where: SQL | undefined;
  readonly exists: boolean;
}

/** One staged write of a member, planned: its statements in batch order, and how a refusal of the batch is worded. */
interface GroupWrite {
  readonly statements: readonly BoundStatement<unknown>[];
  /** This write's own answer to the error that refused the group's batch, or undefined. */
  explain(error: unknown): Promise<Error | undefined>;
}

/** What an inner request of an atomic group is handed (through the dispatch): its place in the group. */
export interface GroupMember {
  /** The inner request's id in the batch. */
  readonly id: string;
  /** Its entry in the batch body (`requests[i]`). */
  readonly path: string;
  readonly overlay: GroupOverlay;
  /**
   * The answer to a write that cannot be part of the group (it does not go through the unit of work, or cannot be
   * predicted): 400 naming the request; the group then fails and nothing of it is written.
   */
  refuse(): ApiError;
  add(write: GroupWrite): void;
  /**
   * Work that must follow the member's writes once committed (a write reaction: e.g. retiring cache entries): run
   * after the group's batch committed, before the answers are released; never when the group fails.
   */
  afterCommit(work: () => Promise<void>): void;
  /** Whether the group's batch has committed (then the member's after-commit work may write elsewhere). */
  isCommitted(): boolean;
}

/** The refusal of a member's write, worded by the executor (it names the request and its field). */
type GroupRefusal = (member: { readonly id: string; readonly index: number }) => ApiError;

/** Why a group's batch did not commit (or a member's after-commit work failed): the member, and its answer. */
export interface GroupFailure {
  readonly id: string;
  readonly error: unknown;
}

export interface AtomicGroup {
  join(request: { readonly id: string; readonly index: number }): GroupMember;
  /** Commits every member's writes as one D1 batch of kind `write`; undefined when it committed. */
  commit(db: Database): Promise<GroupFailure | undefined>;
  /**
   * Before the commit, once a member failed: the member whose writes staged so far refuse the group's batch (tried in
   * batches that never commit), or undefined when they would commit. An earlier write refused by the database (a
   * duplicate key) is then the cause, not the later member that failed because of it.
   */
  findRefusal(db: Database): Promise<GroupFailure | undefined>;
  /** After a commit: runs every member's after-commit work, in order; answers the failures (the writes stay committed). */
  runAfterCommit(): Promise<GroupFailure[]>;
}

const ASSERTION_FAILED = 'atomic_group_condition';
const TRIAL_ENDED = 'atomic_group_trial_end';

/** A statement that always aborts its batch with `atomic_group_trial_end`: ends the trial batches, which must never commit. */
const TRIAL_END: BoundStatement<unknown> = { sql: 'INSERT INTO batch_assertion (holds) VALUES (2)', params: [], mapRow: () => ({}) };

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : String(error);
}

function isTrialEnd(error: unknown): boolean {
  return errorText(error).includes(TRIAL_ENDED);
}

/** The statement checking a condition in the group's batch (aborts it with `atomic_group_condition` when it does not hold). */
export function bindCondition(db: Database, condition: GroupCondition): BoundStatement<unknown> {
  const inner = db
    .select({ one: sql`1` })
    .from(condition.table)
    .where(condition.where)
    .limit(1)
    .toSQL();
  const test = condition.exists ? 'EXISTS' : 'NOT EXISTS';
  return { sql: `INSERT INTO batch_assertion (holds) SELECT ${test} (${inner.sql})`, params: inner.params, mapRow: () => ({}) };
}

/** True when a batch was refused by a group condition. */
export function isAssertionFailure(error: unknown): boolean {
  return errorText(error).includes(ASSERTION_FAILED);
}

function openOverlay(): GroupOverlay {
  const tables = new Map<string, Map<string, AfterImage>>();
  return {
    read: (table, id) => tables.get(table)?.get(id),
    list: (table) => tables.get(table) ?? new Map<string, AfterImage>(),
    write(table, id, image) {
      let rows = tables.get(table);
      if (!rows) tables.set(table, (rows = new Map()));
      rows.set(id, image);
    },
  };
}

interface Segment {
  readonly id: string;
  readonly writes: GroupWrite[];
  readonly reactions: (() => Promise<void>)[];
}

function statementsOf(segments: readonly Segment[]): BoundStatement<unknown>[] {
  return segments.flatMap((segment) => segment.writes.flatMap((write) => write.statements));
}

/** The error of a batch of the first `count` segments that never commits; undefined when only its final abort refused it. */
async function tryPrefix(db: Database, segments: readonly Segment[], count: number): Promise<unknown> {
  try {
    await runBound(db, 'write', [...statementsOf(segments.slice(0, count)), TRIAL_END]);
  } catch (error) {
    return isTrialEnd(error) ? undefined : error;
  }
  throw new Error('A trial batch of an atomic group committed.');
}

/** Binary search for the first segment whose writes (after those before it) refuse the batch. */
async function findFailingSegment(db: Database, segments: readonly Segment[], error: unknown): Promise<{ index: number; error: unknown }> {
  let low = 0;
  let high = segments.length - 1;
  let found = error;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    const refused = await tryPrefix(db, segments, middle + 1);
    if (refused === undefined) low = middle + 1;
    else {
      high = middle;
      found = refused;
    }
  }
  return { index: low, error: found };
}

/** The member a refused group batch is answered by, and its error (worded by its write when one explains it). */
async function attributeRefusal(db: Database, writing: readonly Segment[], error: unknown): Promise<GroupFailure> {
  // The tenant database's own refusal (a move under way: 503) is no member's: the first member answers it.
  if (error instanceof ApiError) return { id: writing[0]?.id ?? '', error };
  const found = await findFailingSegment(db, writing, error);
  const segment = writing[found.index];
  if (!segment) return { id: writing[0]?.id ?? '', error };
  for (const write of segment.writes) {
    const explained = await write.explain(found.error);
    if (explained) return { id: segment.id, error: explained };
  }
  return { id: segment.id, error: found.error };
}

/** The member whose writes staged so far refuse the group's batch (tried in batches that never commit), if any. */
async function findStagedRefusal(db: Database, segments: readonly Segment[]): Promise<GroupFailure | undefined> {
  const writing = segments.filter((segment) => segment.writes.length > 0);
  if (writing.length === 0) return undefined;
  const error = await tryPrefix(db, writing, writing.length);
  return error === undefined ? undefined : attributeRefusal(db, writing, error);
}

/** An atomic group of one batch: members join in order; `commit` runs once, after the last one answered. */
export function openAtomicGroup(refusal: GroupRefusal): AtomicGroup {
  const overlay = openOverlay();
  const segments: Segment[] = [];
  let committed = false;
  let succeeded = false;
  return {
    join(request) {
      const segment: Segment = { id: request.id, writes: [], reactions: [] };
      segments.push(segment);
      return {
        id: request.id,
        path: `requests[${request.index}]`,
        overlay,
        refuse: () => refusal(request),
        add(write) {
          if (committed) throw refusal(request);
          segment.writes.push(write);
        },
        afterCommit(work) {
          if (committed) throw refusal(request);
          segment.reactions.push(work);
        },
        isCommitted: () => succeeded,
      };
    },
    async commit(db) {
      if (committed) throw new Error('An atomic group commits once.');
      committed = true;
      const writing = segments.filter((segment) => segment.writes.length > 0);
      if (writing.length === 0) {
        succeeded = true;
        return undefined;
      }
      try {
        await runBound(db, 'write', statementsOf(writing));
        succeeded = true;
        return undefined;
      } catch (error) {
        return attributeRefusal(db, writing, error);
      }
    },
    findRefusal: (db) => (committed ? Promise.resolve(undefined) : findStagedRefusal(db, segments)),
    async runAfterCommit() {
      if (!succeeded) throw new Error('An atomic group reacts only after it committed.');
      const failures: GroupFailure[] = [];
      for (const segment of segments) {
        for (const work of segment.reactions) {
          try {
            await work();
          } catch (error) {
            failures.push({ id: segment.id, error });
            break;
          }
        }
      }
      return failures;
    },
  };
}
