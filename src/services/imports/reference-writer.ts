/**
 * Reference records from a file (the template of a reference kind), written as PUT /referenceData/{kind} writes them:
 * each row validated as one item of its body (the template's check: fields, defaults, the kind's own rule), a key once
 * per file (`repeatedKey`), reference fields naming records that exist (`unknownReference`), the services' upsert
 * guards (a route member's company, ...). `mode=upsert` is PUT's upsert by key: a stored key gets every field of the
 * row (an absent one its default, as PUT sets it); `mode=create` refuses a stored key (`alreadyExists`). A row equal
 * to its stored record changes nothing (no event). The ledger keeps each record's values before (none: created) and
 * as written; an undo deletes what was created (not while another record uses its key) and gives the updated ones
 * their values back; a revert leaves a record whose values are no longer the import's, and names it.
 */
import type { FieldError } from '../../errors/api-error';
import { tryParse } from '../../resources/entities/import-template';
import type {
  ChunkContext,
  ImportRowBody,
  ImportWriter,
  PlannedChunk,
  RowRefusal,
  UndoneChunk,
} from '../../resources/entities/import-writer';
import { message } from '../../messages/catalogue';
import type { ReferenceRules } from '../../resources/reference/routes';
import type { ReferenceInput, ReferenceKindSpec } from '../../resources/reference/spec';
import { findReferences } from '../../resources/reference/store';
import type { ReferenceUse } from '../../resources/reference/store';
import { requireTenantReferenceStore } from '../../resources/reference/tables';
import type { TenantReferenceStore } from '../../resources/reference/tables';
import { listKindReferenceUsers } from '../../resources/reference/usage';
import { parseReferenceRecords } from '../../resources/reference/validate';
import type { TenantUnit } from '../../tenant/unit-of-work';
import { findKeysInUse, readStoredReferences, stageReferenceUndo, stageReferenceWrites } from './reference-writes';
import type { ReferenceValues, ReferenceWrite } from './reference-writes';

/** What the ledger keeps of a record the import wrote: its fields before (null: it created it) and as written. */
interface ReferenceChange {
  readonly id: string;
  readonly key: string;
  readonly before: ReferenceValues | null;
  readonly after: ReferenceValues;
}

interface ParsedRow {
  readonly row: number;
  readonly record: ReferenceInput;
  readonly values: ReferenceValues;
}

function valuesOf(spec: ReferenceKindSpec, record: Readonly<Record<string, unknown>>): ReferenceValues {
  return Object.fromEntries(Object.keys(spec.fields).map((name) => [name, record[name] ?? null]));
}

function sameValues(spec: ReferenceKindSpec, a: ReferenceValues, b: ReferenceValues): boolean {
  return Object.keys(spec.fields).every((name) => JSON.stringify(a[name] ?? null) === JSON.stringify(b[name] ?? null));
}

/** The reference fields' keys of a record, as PUT checks them (a list field: each of its keys). */
function collectUses(spec: ReferenceKindSpec, record: ReferenceInput): ReferenceUse[] {
  return Object.entries(spec.fields).flatMap(([name, field]) => {
    const value = record[name];
    const keys: unknown[] = Array.isArray(value) ? value : [value];
    return field.reference
      ? keys.flatMap((key) => (typeof key === 'string' ? [{ kind: field.reference ?? '', key, path: name }] : []))
      : [];
  });
}

/** The services' upsert guards on the records, their problems by record index (paths without the `[i].` prefix). */
async function judgeGuards(unit: TenantUnit, rules: ReferenceRules, spec: ReferenceKindSpec, records: readonly ReferenceInput[]) {
  const problems = new Map<number, FieldError[]>();
  if (records.length === 0) return problems;
  const found = await Promise.all(rules.guards.map((guard) => guard(unit.db, unit.scope, spec.name, records)));
  for (const problem of found.flat()) {
    const match = /^\[(\d+)\]\.?(.*)$/.exec(problem.path);
    const index = Number(match?.[1] ?? -1);
    const path = match?.[2] ?? '';
    problems.set(index, [...(problems.get(index) ?? []), { path: path === '' ? 'key' : path, message: problem.message }]);
  }
  return problems;
}

function parseRows(spec: ReferenceKindSpec, rows: readonly ImportRowBody[], refused: RowRefusal[]): ParsedRow[] {
  const parsed: ParsedRow[] = [];
  for (const { row, body } of rows) {
    const { value: record, errors } = tryParse(() => parseReferenceRecords(spec, [body])[0]);
    if (errors.length > 0 || !record)
      refused.push({ row, errors: errors.map((error) => ({ ...error, path: error.path.replace(/^\[0\]\.?/, '') })) });
    else parsed.push({ row, record, values: valuesOf(spec, record) });
  }
  return parsed;
}

/** What a chunk's check read: the records its reference fields name, the stored records of its keys, the guards' problems. */
interface ChunkReads {
  readonly found: Awaited<ReturnType<typeof findReferences>>;
  readonly stored: ReadonlyMap<string, { readonly id: string; readonly values: ReferenceValues }>;
  readonly guarded: ReadonlyMap<number, readonly FieldError[]>;
}

/** Each parsed row refused (with every problem), or a create, an update or nothing (equal to its stored record). */
function decideRows(
  spec: ReferenceKindSpec,
  context: ChunkContext,
  parsed: readonly ParsedRow[],
  reads: ChunkReads,
  refused: RowRefusal[],
) {
  const changes: ReferenceChange[] = [];
  parsed.forEach((item, index) => {
    const { key } = item.record;
    const existing = reads.stored.get(key);
    const errors: FieldError[] = collectUses(spec, item.record)
      .filter((use) => !reads.found.get(use.kind)?.has(use.key))
      .map((use) => ({ path: use.path, message: message('unknownReference', { kind: use.kind, key: use.key }) }));
    errors.push(...(reads.guarded.get(index) ?? []));
    if (existing && context.mode === 'create')
      errors.push({ path: 'key', message: message('alreadyExists', { field: 'key', value: key }) });
    if (context.seenKeys.has(key)) errors.push({ path: 'key', message: message('repeatedKey', { key }) });
    if (errors.length > 0) {
      refused.push({ row: item.row, errors });
      return;
    }
    context.seenKeys.add(key);
    if (!existing) changes.push({ id: crypto.randomUUID(), key, before: null, after: item.values });
    else if (!sameValues(spec, existing.values, item.values))
      changes.push({ id: existing.id, key, before: existing.values, after: item.values });
  });
  return changes;
}

async function planReferenceChunk(
  spec: ReferenceKindSpec,
  rules: ReferenceRules,
  context: ChunkContext,
  rows: readonly ImportRowBody[],
): Promise<PlannedChunk> {
  const { unit } = context;
  const store = requireTenantReferenceStore(spec.name);
  const refused: RowRefusal[] = [];
  const parsed = parseRows(spec, rows, refused);
  const uses = parsed.flatMap((item) => collectUses(spec, item.record));
  const keys = parsed.map((item) => item.record.key);
  const reads: ChunkReads = {
    found: uses.length > 0 ? await findReferences(unit.db, unit.scope, uses) : new Map(),
    stored: new Map((await readStoredReferences(unit.db, unit.scope, store, 'key', keys)).map((record) => [record.key, record])),
    guarded: await judgeGuards(
      unit,
      rules,
      spec,
      parsed.map((item) => item.record),
    ),
  };
  const changes = decideRows(spec, context, parsed, reads, refused);
  const writes = changes.map((change) => ({ id: change.id, key: change.key, values: change.after }));
  const creates = writes.filter((_, index) => changes[index]?.before === null);
  const updates = writes.filter((_, index) => changes[index]?.before !== null);
  return {
    refused,
    created: creates.length,
    updated: updates.length,
    createdIds: creates.map((record) => record.id),
    changed: changes,
    stage: (batch) => {
      if (writes.length > 0) batch.stage(stageReferenceWrites(store, creates, updates));
    },
  };
}

/** Sorts a chunk's changes into deletes, restores and records left (changed since, deleted by someone, or in use). */
async function sortUndo(
  store: TenantReferenceStore,
  rules: ReferenceRules,
  unit: TenantUnit,
  changes: readonly ReferenceChange[],
  keepChanged: boolean,
) {
  const { spec } = store;
  const current = new Map(
    (
      await readStoredReferences(
        unit.db,
        unit.scope,
        store,
        'id',
        changes.map((change) => change.id),
      )
    ).map((record) => [record.id, record]),
  );
  const users = [...rules.users, ...listKindReferenceUsers()];
  const created = changes.filter((change) => change.before === null).map((change) => change.key);
  const inUse = await findKeysInUse(unit.db, unit.scope, spec.name, created, users);
  const restoring = changes.filter((change) => change.before !== null);
  const guarded = await judgeGuards(
    unit,
    rules,
    spec,
    restoring.map((change) => ({ ...(change.before ?? {}), key: change.key })),
  );
  const deletes: string[] = [];
  const restores: ReferenceWrite[] = [];
  const kept: string[] = [];
  for (const change of changes) {
    const now = current.get(change.id);
    if (!now || (keepChanged && !sameValues(spec, now.values, change.after))) {
      if (keepChanged) kept.push(`${spec.name} '${change.key}'`);
    } else if (change.before === null) {
      if (inUse.has(change.key)) kept.push(`${spec.name} '${change.key}' (in use)`);
      else deletes.push(change.id);
    } else if (guarded.has(restoring.indexOf(change))) kept.push(`${spec.name} '${change.key}' (in use)`);
    else restores.push({ id: change.id, key: change.key, values: change.before });
  }
  return { deletes, restores, kept };
}

/** A reference kind's writer (PUT /referenceData/{kind}'s rules, read from the registry when a file is processed). */
export function buildReferenceWriter(spec: ReferenceKindSpec, rules: () => ReferenceRules): ImportWriter {
  return {
    planChunk: (context, rows) => planReferenceChunk(spec, rules(), context, rows),
    async planUndo(unit, chunk, keepChanged) {
      const store = requireTenantReferenceStore(spec.name);
      const sorted = await sortUndo(store, rules(), unit, chunk.changed as ReferenceChange[], keepChanged);
      return {
        stage(batch) {
          if (sorted.deletes.length + sorted.restores.length > 0) batch.stage(stageReferenceUndo(store, sorted.deletes, sorted.restores));
          return (): UndoneChunk => ({ deleted: sorted.deletes.length, restored: sorted.restores.length, kept: sorted.kept });
        },
      };
    },
    async afterCommit(platform, scope) {
      for (const reaction of rules().reactions) if (reaction.kind === spec.name) await reaction.react({ platform, scope });
    },
  };
}
