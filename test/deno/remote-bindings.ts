/**
 * `env.DB`, `env.CACHE` and `env.COORDINATOR` of the Deno test run: the binding APIs the tests use, over
 * HTTP to the Deno test server's endpoints (test/deno-host/test-bindings.ts), which run them on the
 * same database, KV and coordinators the API uses. Values travel as JSON (no blobs or streams).
 */
import { readDenoServer } from './server.js';

interface WireStatement {
  sql: string;
  params: unknown[];
}

async function callBinding(binding: 'd1' | 'kv' | 'coordinator', body: unknown): Promise<unknown> {
  const response = await fetch(`${readDenoServer().baseUrl}/__test/${binding}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { result?: unknown; error?: string };
  if (!response.ok) throw new Error(answer.error ?? `${binding} call failed with ${response.status}`);
  return answer.result;
}

function callD1(body: { method: string; statements: WireStatement[]; columnName?: string; columnNames?: boolean }): Promise<unknown> {
  return callBinding('d1', body);
}

export class RemoteD1Statement {
  constructor(
    readonly sql: string,
    readonly params: unknown[] = [],
  ) {}

  bind(...params: unknown[]): RemoteD1Statement {
    return new RemoteD1Statement(this.sql, params);
  }

  private wire(): WireStatement {
    return { sql: this.sql, params: this.params };
  }

  first<T = Record<string, unknown>>(columnName?: string): Promise<T | null> {
    return callD1({ method: 'first', statements: [this.wire()], ...(columnName === undefined ? {} : { columnName }) }) as Promise<T | null>;
  }

  all<T = Record<string, unknown>>(): Promise<{ results: T[]; success: true; meta: Record<string, unknown> }> {
    return callD1({ method: 'all', statements: [this.wire()] }) as Promise<{ results: T[]; success: true; meta: Record<string, unknown> }>;
  }

  run<T = Record<string, unknown>>(): Promise<{ results: T[]; success: true; meta: Record<string, unknown> }> {
    return callD1({ method: 'run', statements: [this.wire()] }) as Promise<{ results: T[]; success: true; meta: Record<string, unknown> }>;
  }

  raw<T = unknown[]>(options?: { columnNames?: boolean }): Promise<T[]> {
    return callD1({ method: 'raw', statements: [this.wire()], columnNames: options?.columnNames === true }) as Promise<T[]>;
  }

  toWire(): WireStatement {
    return this.wire();
  }
}

export const remoteD1 = {
  prepare: (sql: string) => new RemoteD1Statement(sql),
  batch: (statements: RemoteD1Statement[]) => callD1({ method: 'batch', statements: statements.map((statement) => statement.toWire()) }),
  exec: (sql: string) => callD1({ method: 'exec', statements: [{ sql, params: [] }] }),
};

type ValueType = 'text' | 'json';

function readType(typeOrOptions: ValueType | { type?: ValueType } | undefined): ValueType {
  return (typeof typeOrOptions === 'string' ? typeOrOptions : typeOrOptions?.type) ?? 'text';
}

export const remoteKv = {
  get: (key: string, typeOrOptions?: ValueType | { type?: ValueType }) =>
    callBinding('kv', { method: 'get', key, options: { type: readType(typeOrOptions) } }),
  getWithMetadata: (key: string, typeOrOptions?: ValueType | { type?: ValueType }) =>
    callBinding('kv', { method: 'getWithMetadata', key, options: { type: readType(typeOrOptions) } }),
  put: async (key: string, value: string, options?: Record<string, unknown>) => {
    await callBinding('kv', { method: 'put', key, value, options });
  },
  delete: async (key: string) => {
    await callBinding('kv', { method: 'delete', key });
  },
  list: (options?: Record<string, unknown>) => callBinding('kv', { method: 'list', options }),
};

/** Durable Object ids and stubs by name; `handle(command)` is the coordinator's RPC entry. */
export const remoteCoordinator = {
  idFromName: (name: string) => ({ name, toString: () => name, equals: (other: { name?: string }) => other.name === name }),
  get: (id: { name: string }) => ({
    id,
    name: id.name,
    handle: (command: Record<string, unknown>) => callBinding('coordinator', { name: id.name, command }),
  }),
};
