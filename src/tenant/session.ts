/**
 * The tenant session: what a request, a coordinator command, a Workflow step or a job gets of one tenant/org, opened
 * once. Its read side (`TenantReader`) runs selects built by `sqlBuilder` (src/db/sql.ts) and compiled reads, one
 * batch per call, through the tenant/org's executor; it has no write method. Its write side collects writes in batches
 * (`openBatch`) that commit as ONE D1 batch of kind `write` (unit-of-work.ts), stamped with the session's audit stamp.
 */
import type { BatchKind, TenantScope } from '../db/client';
import { bindSelect } from '../db/sql';
import type { BoundStatement } from '../db/sql';
import type { RowsOf, TenantReader } from '../db/reader';
import type { GroupMember } from './atomic-group';
import { openGroupBatch } from './group-batch';
import { openWriteBatch } from './unit-of-work';
import type { AuditStamp, WriteBatch } from './unit-of-work';

export type { TenantReader } from '../db/reader';

/** A session: its reads, its audit stamp and its write batches (in an atomic group of `$batch`, the group's). */
export interface TenantSession extends TenantReader {
  /** Who writes, and when (the request's clock and token subject; a command's or a job's). */
  readonly stamp: AuditStamp;
  /** The atomic group of `$batch` the session's request belongs to: its batches commit into the group's one batch. */
  readonly group?: GroupMember;
  openBatch(): WriteBatch;
  /** The same tenant/org and connection, writing with another stamp (a command's, a job's). */
  withStamp(stamp: AuditStamp): TenantSession;
  /** The read session's bookmark (`x-d1-bookmark`), or null before the first round trip. */
  bookmark(): string | null;
}

/** What runs a session's statements: the tenant/org's executor (src/tenant/placement/executor.ts). */
interface TenantExecutor {
  readonly scope: TenantScope;
  run(kind: BatchKind, statements: readonly BoundStatement<unknown>[]): Promise<unknown[][]>;
  bookmark(): string | null;
}

/** What opens a session: the tenant/org's executor, the stamp of its writes, and the atomic group it may belong to. */
interface SessionOptions {
  readonly executor: TenantExecutor;
  readonly stamp: AuditStamp;
  readonly group?: GroupMember | undefined;
}

/** The read side over an executor (also what cross-tenant jobs get: reads only). */
export function openTenantReader(executor: Pick<TenantExecutor, 'scope' | 'run'>): TenantReader {
  return {
    scope: executor.scope,
    async read(query) {
      const statement = bindSelect(query);
      const [rows] = await executor.run('read', [statement]);
      // Each row was mapped by the select's own statement: the rows its builder answers.
      return (rows ?? []) as never[];
    },
    async readBatch(queries) {
      const rows = await executor.run('read', queries.map(bindSelect));
      // One array of mapped rows per select, in order: the tuple type above, select by select.
      return rows as RowsOf<typeof queries>;
    },
    readBound: (kind, statements) => executor.run(kind, statements),
  };
}

const writers = new WeakMap<TenantSession, TenantExecutor>();

export function openTenantSession(options: SessionOptions): TenantSession {
  const { executor, stamp, group } = options;
  const reader = openTenantReader(executor);
  const write = (statements: readonly BoundStatement<unknown>[]) => executor.run('write', statements);
  const session: TenantSession = {
    ...reader,
    stamp,
    ...(group ? { group } : {}),
    openBatch: () => (group ? openGroupBatch({ ...reader, stamp }, group) : openWriteBatch({ ...reader, stamp }, write)),
    withStamp: (next) => openTenantSession({ ...options, stamp: next }),
    bookmark: () => executor.bookmark(),
  };
  writers.set(session, executor);
  return session;
}

/**
 * Runs an atomic group's statements as one `write` batch on the session's tenant/org (the group's commit and its
 * trial batches, src/tenant/atomic-group.ts): the one write of a session that is not a batch of its own.
 */
export function runGroupWrite(session: TenantSession, statements: readonly BoundStatement<unknown>[]): Promise<unknown[][]> {
  const executor = writers.get(session);
  if (!executor) throw new Error('Not a tenant session.');
  return executor.run('write', statements);
}
