/**
 * The handles of `openEveryTenantDatabase()` (cross-tenant jobs): they scan, they never write. Their batches are
 * `read`s (src/db/client.ts): asked for another kind (a unit of work's commit: a `write`) or to `run()` a statement, they
 * refuse. A job that must write for a tenant/org opens that tenant/org's database, whose writes carry the residency
 * guard (tenant-d1.ts).
 */
import type { BatchKind, KindedD1 } from '../../db/client';

function refuse(name: string): Error {
  return new Error(`${name} is open for cross-tenant reads only; write through the tenant/org's database.`);
}

/** `run()` is D1's call for a statement that changes: refused; reads run as they are. */
class ReadOnlyStatement implements D1PreparedStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    private readonly name: string,
  ) {}

  bind(...values: unknown[]): D1PreparedStatement {
    return new ReadOnlyStatement(this.inner.bind(...values), this.name);
  }

  first<T = unknown>(columnName?: string): Promise<T | null> {
    return columnName === undefined ? this.inner.first<T>() : this.inner.first<T>(columnName);
  }

  all<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    return this.inner.all<T>();
  }

  raw<T = unknown[]>(options: { columnNames: true }): Promise<[string[], ...T[]]>;
  raw<T = unknown[]>(options?: { columnNames?: false }): Promise<T[]>;
  raw<T = unknown[]>(options?: { columnNames?: boolean }): Promise<T[] | [string[], ...T[]]> {
    return options?.columnNames === true ? this.inner.raw<T>({ columnNames: true }) : this.inner.raw<T>();
  }

  run<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    return Promise.reject(refuse(this.name));
  }
}

function unwrap(statements: readonly D1PreparedStatement[]): D1PreparedStatement[] {
  return statements.map((statement) => (statement instanceof ReadOnlyStatement ? statement.inner : statement));
}

class ReadOnlyD1 implements KindedD1 {
  readonly kind = 'read';

  constructor(
    private readonly binding: D1Database,
    private readonly name: string,
  ) {}

  as(kind: BatchKind): KindedD1 {
    if (kind !== 'read') throw refuse(this.name);
    return this;
  }

  prepare(query: string): D1PreparedStatement {
    return new ReadOnlyStatement(this.binding.prepare(query), this.name);
  }

  batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    return this.binding.batch<T>(unwrap(statements));
  }

  exec(): Promise<D1ExecResult> {
    return Promise.reject(refuse(this.name));
  }

  withSession(constraint?: D1SessionBookmark | D1SessionConstraint): D1DatabaseSession {
    const session = this.binding.withSession(constraint);
    return {
      prepare: (query) => new ReadOnlyStatement(session.prepare(query), this.name),
      batch: (statements) => session.batch(unwrap(statements)),
      getBookmark: () => session.getBookmark(),
    };
  }

  dump(): Promise<ArrayBuffer> {
    return this.binding.dump();
  }
}

export function readOnlyD1(binding: D1Database, name: string): KindedD1 {
  return new ReadOnlyD1(binding, name);
}
