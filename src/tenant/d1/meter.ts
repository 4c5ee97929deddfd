/**
 * Counts D1 round trips at the platform boundary: the D1 object handed to drizzle is wrapped so that every
 * statement execution (`first`, `all`, `run`, `raw`), every `batch` and every `exec` counts as one round trip.
 */

/** One request's (or command's) count of D1 round trips. */
export interface RoundTripMeter {
  roundTrips: number;
}

class MeteredStatement implements D1PreparedStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    private readonly meter: RoundTripMeter,
  ) {}

  bind(...values: unknown[]): D1PreparedStatement {
    return new MeteredStatement(this.inner.bind(...values), this.meter);
  }

  first<T = unknown>(columnName?: string): Promise<T | null> {
    this.meter.roundTrips += 1;
    return columnName === undefined ? this.inner.first<T>() : this.inner.first<T>(columnName);
  }

  run<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    this.meter.roundTrips += 1;
    return this.inner.run<T>();
  }

  all<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    this.meter.roundTrips += 1;
    return this.inner.all<T>();
  }

  raw<T = unknown[]>(options: { columnNames: true }): Promise<[string[], ...T[]]>;
  raw<T = unknown[]>(options?: { columnNames?: false }): Promise<T[]>;
  raw<T = unknown[]>(options?: { columnNames?: boolean }): Promise<T[] | [string[], ...T[]]> {
    this.meter.roundTrips += 1;
    return options?.columnNames === true ? this.inner.raw<T>({ columnNames: true }) : this.inner.raw<T>();
  }
}

/** The statements as the wrapped database knows them (a batch is given the wrapped statements). */
function unwrap(statements: readonly D1PreparedStatement[]): D1PreparedStatement[] {
  return statements.map((statement) => (statement instanceof MeteredStatement ? statement.inner : statement));
}

/** `prepare` and `batch`, which a database and a session share. */
abstract class MeteredQueries {
  constructor(
    private readonly queries: Pick<D1Database, 'prepare' | 'batch'>,
    protected readonly meter: RoundTripMeter,
  ) {}

  prepare(query: string): D1PreparedStatement {
    return new MeteredStatement(this.queries.prepare(query), this.meter);
  }

  batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    this.meter.roundTrips += 1;
    return this.queries.batch<T>(unwrap(statements));
  }
}

class MeteredSession extends MeteredQueries implements D1DatabaseSession {
  constructor(
    private readonly session: D1DatabaseSession,
    meter: RoundTripMeter,
  ) {
    super(session, meter);
  }

  getBookmark(): D1SessionBookmark | null {
    return this.session.getBookmark();
  }
}

class MeteredDatabase extends MeteredQueries implements D1Database {
  constructor(
    private readonly inner: D1Database,
    meter: RoundTripMeter,
  ) {
    super(inner, meter);
  }

  exec(query: string): Promise<D1ExecResult> {
    this.meter.roundTrips += 1;
    return this.inner.exec(query);
  }

  withSession(constraintOrBookmark?: D1SessionBookmark | D1SessionConstraint): D1DatabaseSession {
    return new MeteredSession(this.inner.withSession(constraintOrBookmark), this.meter);
  }

  dump(): Promise<ArrayBuffer> {
    return this.inner.dump();
  }
}

/** `binding` with its round trips counted in `meter`. */
export function meterD1(binding: D1Database, meter: RoundTripMeter): D1Database {
  return new MeteredDatabase(binding, meter);
}
