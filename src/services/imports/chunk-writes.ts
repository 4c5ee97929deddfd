/**
 * One chunk of an entity template's rows, checked as the entity's API would: the create body's validation (through the
 * template), custom attribute definitions, references, the natural key (stored records and earlier rows of the file).
 * In create mode a stored key is a failed row; in upsert mode it is an update of the attributes that differ (each
 * `updatable` field, `isActive`, custom attributes) and of the members it does not hold yet; a differing value of a
 * field without its own PUT fails the row.
 * The plan is written by src/services/imports/chunk-stage.ts through the unit of work.
 */
import { and, sql } from 'drizzle-orm';
import { requireColumn, scopeCondition } from '../../db/client';
import { sqlBuilder } from '../../db/sql';
import type { FieldError } from '../../errors/api-error';
import type { ImportTemplate } from '../../resources/entities/import-template';
import { duplicateKey } from '../../resources/entities/store';
import type { EntityStore } from '../../resources/entities/store';
import { collectReferenceUses, parseCreateBody } from '../../resources/entities/validate';
import { validateCustomValues } from '../../resources/entities/custom-attributes';
import type { CustomAttributeDefinition } from '../../resources/entities/custom-attributes';
import { message } from '../../messages/catalogue';
import { findReferences } from '../../resources/reference/store';
import type { FoundReferences } from '../../resources/reference/store';
import type { TenantSession } from '../../tenant/session';
import type { PreparedRow } from './chunk-stage';
import type { FileRecord } from './files/format';
import type { FailedRow } from './files/failures-csv';
import { diffStored } from './upsert';
import type { PlannedUpdate, StoredRecord } from './upsert';
import { checkMemberKeys, collectMemberAdds, collectMemberUses, listHeldMembers, splitMembers } from './members';
import type { MemberKeys } from './members';
import { checkRecord } from './rows';

interface CheckedChunk {
  readonly creates: readonly PreparedRow[];
  readonly updates: readonly PlannedUpdate[];
  readonly failures: readonly FailedRow[];
}

/** What a chunk's check needs beyond its records (read once per run of steps). */
export interface ChunkSetting {
  /** The tenant/org's session (its reads, scope and the run's audit stamp). */
  readonly unit: TenantSession;
  readonly template: ImportTemplate;
  readonly store: EntityStore;
  /** The values are text cells (CSV, xlsx), read by their columns' cell kinds. */
  readonly fromText: boolean;
  readonly mode: 'create' | 'upsert';
  readonly definitions: readonly CustomAttributeDefinition[];
  /** Natural keys taken by earlier rows of the same run (a dry run writes none, so they are remembered here). */
  readonly seenKeys: Set<string>;
}

interface ParsedRow {
  readonly record: FileRecord;
  /** The natural key's values as JSON text (a map key), and as written in paths (`C1/R1`). */
  readonly key: string;
  readonly keyText: string;
  readonly values: Readonly<Record<string, unknown>>;
  readonly custom: Readonly<Record<string, unknown>>;
  readonly members: MemberKeys;
}

function keyOf(store: EntityStore, values: Readonly<Record<string, unknown>>): string {
  return JSON.stringify(store.spec.key.map((name) => values[name] ?? null));
}

/** The stored records of `keys` (keyOf's JSON arrays) for the tenant/org, by key: `(k1, k2) IN (SELECT ... json_each(?))`. */
async function findStoredRecords(setting: ChunkSetting, keys: readonly string[]): Promise<Map<string, StoredRecord>> {
  const { store, unit } = setting;
  if (keys.length === 0) return new Map();
  const columns = store.spec.key.map((name) => requireColumn(store.columns, store.spec.table, name));
  const parts = columns.map((_, index) => sql.raw(`json_extract(value, '$[${index}]')`));
  const json = `[${keys.join(',')}]`;
  const rows: Record<string, unknown>[] = await unit.read(
    sqlBuilder
      .select()
      .from(store.table)
      .where(
        and(
          scopeCondition(store.common, unit.scope),
          sql`(${sql.join(columns, sql`, `)}) IN (SELECT ${sql.join(parts, sql`, `)} FROM json_each(${json}))`,
        ),
      ),
  );
  return new Map(rows.map((row) => [keyOf(store, row), row as StoredRecord]));
}

/** Each record through the template's check and the create body's validation with the custom attribute definitions. */
function parseRows(setting: ChunkSetting, records: readonly FileRecord[], failures: FailedRow[]): ParsedRow[] {
  const parsed: ParsedRow[] = [];
  for (const record of records) {
    const checked = checkRecord(setting.template, record, setting.fromText);
    if (checked.errors.length > 0) {
      failures.push({ row: record.row, errors: checked.errors, values: record.values });
      continue;
    }
    const { body, members } = splitMembers(setting.template, checked.body);
    const input = parseCreateBody(setting.store.spec, body, { isActive: true });
    const custom = validateCustomValues(input.custom, setting.definitions, 'create');
    if (custom.errors.length > 0) {
      failures.push({ row: record.row, errors: custom.errors, values: record.values });
      continue;
    }
    const key = keyOf(setting.store, input.values);
    const keyText = setting.store.spec.key.map((name) => String(input.values[name])).join('/');
    parsed.push({ record, key, keyText, values: input.values, custom: custom.values, members });
  }
  return parsed;
}

/** The row as a new record's own columns, each as the database stores it (booleans 0/1, JSON as text). */
function prepareCreate(store: EntityStore, item: ParsedRow): PreparedRow {
  const row: Record<string, unknown> = {
    ...item.values,
    ...(store.spec.customAttributes ? { customAttributes: JSON.stringify(item.custom) } : {}),
    isActive: item.values.isActive !== false,
  };
  const columns: Record<string, unknown> = {};
  for (const name of [...Object.keys(store.spec.fields), 'customAttributes', 'isActive']) {
    const target = store.columns[name];
    if (!target) continue;
    const value = row[name] !== undefined ? row[name] : (target.defaultFn?.() ?? target.default ?? null);
    columns[name] = value === null || value === undefined ? null : target.mapToDriverValue(value);
  }
  return { id: crypto.randomUUID(), key: item.keyText, columns, members: item.members };
}

/** A parsed row's problems against stored data: references, member keys, its key taken, fields an upsert cannot change. */
function checkStored(
  setting: ChunkSetting,
  item: ParsedRow,
  found: FoundReferences,
  existing: StoredRecord | undefined,
  held: ReadonlySet<string>,
): { errors: FieldError[]; update?: PlannedUpdate | undefined } {
  const { store, template } = setting;
  const errors: FieldError[] = collectReferenceUses(store.spec, item.values)
    .filter((use) => !found.get(use.kind)?.has(use.key))
    .map((use) => ({ path: use.path, message: message('unknownReference', { kind: use.kind, key: use.key }) }));
  errors.push(...checkMemberKeys(template, item.members, found, item.values), ...(template.checkFound?.(item.values, found) ?? []));
  const taken = setting.seenKeys.has(item.key) || (existing !== undefined && setting.mode === 'create');
  // As the API's create answers a stored key (DuplicateKey: every key field named).
  if (taken)
    errors.push(
      ...duplicateKey(
        store.spec,
        store.spec.key.map((name) => item.values[name]),
      ).errors,
    );
  if (!existing || taken) return { errors };
  const diff = diffStored(store, existing, item.values, item.custom);
  if ('errors' in diff) return { errors: [...errors, ...diff.errors] };
  const members = collectMemberAdds(item.members, existing.id, held);
  if (members.length === 0) return { errors, update: diff.update };
  const update = diff.update ?? { id: existing.id, expectedVersion: existing.version, set: {}, before: {}, members: [] };
  return { errors, update: { ...update, members } };
}

/** Checks a chunk's records: the passing ones come back as creates and (upsert) updates, the others as failures. */
export async function checkEntityChunk(setting: ChunkSetting, records: readonly FileRecord[]): Promise<CheckedChunk> {
  const { store, unit, template } = setting;
  const failures: FailedRow[] = [];
  const parsed = parseRows(setting, records, failures);
  const uses = parsed.flatMap((item) => [...collectReferenceUses(store.spec, item.values), ...collectMemberUses(template, item.members)]);
  const found: FoundReferences = uses.length > 0 ? await findReferences(unit, uses) : new Map();
  const stored = await findStoredRecords(
    setting,
    parsed.map((item) => item.key),
  );
  const owners = parsed.flatMap((item) => {
    const existing = stored.get(item.key);
    return existing && setting.mode === 'upsert' ? [{ ownerId: existing.id, members: item.members }] : [];
  });
  const held = await listHeldMembers(template, unit, owners);
  const creates: PreparedRow[] = [];
  const updates: PlannedUpdate[] = [];
  for (const item of parsed) {
    const existing = stored.get(item.key);
    const { errors, update } = checkStored(setting, item, found, existing, held);
    if (errors.length > 0) {
      failures.push({ row: item.record.row, errors, values: item.record.values });
      continue;
    }
    setting.seenKeys.add(item.key);
    if (!existing) creates.push(prepareCreate(store, item));
    else if (update) updates.push(update);
  }
  return { creates, updates, failures };
}
