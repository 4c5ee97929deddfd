/**
 * The Deno test server's bindings over HTTP (`POST /__test/{d1,kv,coordinator}`), so that tests using them directly
 * (`env.DIRECTORY`, `env.TENANT_DB_*`, `env.CACHE`, `env.COORDINATOR` of `cloudflare:test`) run against Deno as well.
 * Values travel as JSON (text, numbers, booleans, null; no blobs or streams). Test tooling only: the application never
 * serves these paths.
 */
import type { CoordinatorCommand } from '../../src/coordinator/commands';
import type { DenoHost } from '../../src/runtime/deno/host';
import type { MemoryKv } from '../../src/runtime/deno/kv';
import type { Platform } from '../../src/runtime/platform';

export const TEST_BINDINGS_PREFIX = '/__test/';

interface WireStatement {
  readonly sql: string;
  readonly params: unknown[];
}

interface WireCall {
  /** Binding name of the database (DIRECTORY, TENANT_DB_1, ...). */
  readonly database: string;
  readonly method: 'first' | 'all' | 'run' | 'raw' | 'batch' | 'exec';
  readonly statements: WireStatement[];
  readonly columnName?: string;
  readonly columnNames?: boolean;
}

function prepare(db: D1Database, statement: WireStatement | undefined): D1PreparedStatement {
  if (!statement) throw new Error('No statement given.');
  return db.prepare(statement.sql).bind(...statement.params);
}

async function runCall(db: D1Database, call: WireCall): Promise<unknown> {
  const [first] = call.statements;
  switch (call.method) {
    case 'first':
      return call.columnName === undefined ? prepare(db, first).first() : prepare(db, first).first(call.columnName);
    case 'all':
      return prepare(db, first).all();
    case 'run':
      return prepare(db, first).run();
    case 'raw':
      return call.columnNames ? prepare(db, first).raw({ columnNames: true }) : prepare(db, first).raw();
    case 'batch':
      return db.batch(call.statements.map((statement) => prepare(db, statement)));
    case 'exec':
      return db.exec(first?.sql ?? '');
  }
}

interface KvCall {
  readonly method: 'get' | 'getWithMetadata' | 'put' | 'delete' | 'list';
  readonly key?: string;
  readonly value?: string;
  readonly options?: Record<string, unknown>;
}

async function runKvCall(cache: MemoryKv, call: KvCall): Promise<unknown> {
  const key = call.key ?? '';
  switch (call.method) {
    case 'get':
      return call.options?.type === 'json' ? cache.get(key, 'json') : cache.get(key);
    case 'getWithMetadata':
      return call.options?.type === 'json' ? cache.getWithMetadata(key, 'json') : cache.getWithMetadata(key);
    case 'put':
      return cache.put(key, call.value ?? '', call.options as KVNamespacePutOptions | undefined);
    case 'delete':
      return cache.delete(key);
    case 'list':
      return cache.list(call.options as KVNamespaceListOptions | undefined);
  }
}

/** A Durable Object name is `tenantKey/orgKey` (neither may contain a slash). */
async function runCoordinatorCall(platform: Platform, call: { name: string; command: CoordinatorCommand }): Promise<unknown> {
  const slash = call.name.indexOf('/');
  if (slash < 0) throw new Error(`Coordinator names are tenantKey/orgKey, not ${call.name}.`);
  return platform.coordinator({ tenantKey: call.name.slice(0, slash), orgKey: call.name.slice(slash + 1) }).send(call.command);
}

/** Answers one binding call (`/__test/d1`, `/__test/kv`, `/__test/coordinator`): 200 `{result}` or 500 `{error}`. */
export async function handleTestBinding(request: Request, host: DenoHost): Promise<Response | undefined> {
  const path = new URL(request.url).pathname;
  if (!path.startsWith(TEST_BINDINGS_PREFIX) || request.method !== 'POST') return undefined;
  const binding = path.slice(TEST_BINDINGS_PREFIX.length);
  try {
    // The test shims (test/deno/remote-bindings.ts) send these shapes.
    const call: unknown = await request.json();
    let result: unknown;
    if (binding === 'd1') {
      const name = (call as WireCall).database;
      const d1 = host.bindings.get(name);
      if (!d1) throw new Error(`No D1 binding ${name}.`);
      result = await runCall(d1, call as WireCall);
    } else if (binding === 'kv') result = await runKvCall(host.kv, call as KvCall);
    else if (binding === 'coordinator')
      result = await runCoordinatorCall(host.platform, call as { name: string; command: CoordinatorCommand });
    else return Response.json({ error: `No test binding ${binding}.` }, { status: 404 });
    return Response.json({ result: result ?? null });
  } catch (error) {
    return Response.json({ error: error instanceof Error ? error.message : String(error) }, { status: 500 });
  }
}
