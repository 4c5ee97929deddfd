/**
 * Row ids in a restore into another tenant/org. Ids (a text `id` primary key) are unique in their whole database, not
 * per tenant/org, so a copy of the source's rows into another tenant/org gets ids of its own: each id is replaced by
 * a GUID derived from it and the target (one bijection per target), so children keep pointing at their parents, the
 * history and the snapshot's rows map the same way in every step, and copies in several targets (on the source's
 * database or another) never collide. The SQL does the mapping (restore-sql.ts): no row is parsed in JavaScript.
 */
import type { TenantScope } from '../../db/client';
import type { TenantTable } from '../placement/tenant-tables';

/** How a column holds row ids: one id, a JSON array of ids, or a JSON array of objects whose `id` is one. */
type IdHolder = 'id' | 'ids' | 'objects';

/**
 * The columns that hold ids of the tenant/org's rows, beside each table's own `id` key: foreign keys and the import
 * ledger's lists. `test/unit/row-ids.test.ts` checks that every column named like an id is here or in NOT_ROW_IDS.
 */
const ID_REFERENCES: Readonly<Record<string, Readonly<Record<string, IdHolder>>>> = {
  exchange_rate_lines: { document_id: 'id' },
  route_locations: { route_id: 'id' },
  route_equipment_items: { route_id: 'id' },
  route_tools: { route_id: 'id' },
  import_data_info_changes: { import_id: 'id' },
  import_chunks: { import_id: 'id', created_ids: 'ids', updated: 'objects' },
};

/** Columns named like ids that hold no row id of the tenant/org (the client's own values, command and request ids). */
export const NOT_ROW_IDS: ReadonlySet<string> = new Set([
  'exchange_rate_lines.from_exchange_rate_id',
  'exchange_rate_lines.to_exchange_rate_id',
  'exchange_rates_documents.external_id',
  'import_data_info_changes.command_id',
  'import_data_info_changes.request_id',
  'api_clients.client_id',
]);

/** The id columns of a table and how each holds ids (its own `id` key included). */
export function listIdColumns(table: TenantTable): ReadonlyMap<string, IdHolder> {
  const columns = new Map<string, IdHolder>(Object.entries(ID_REFERENCES[table.name] ?? {}));
  if (table.key.length === 1 && table.key[0] === 'id' && table.sequence === null) columns.set('id', 'id');
  return columns;
}

const HEX = '0123456789abcdef';
/** Positions (0-based) of a GUID's 32 hex digits in its 36 characters. */
const DIGITS = [...Array(36).keys()].filter((index) => ![8, 13, 18, 23].includes(index));
/** SQL true for a lowercase GUID `v` (D1 limits GLOB patterns to 50 characters: the shape is checked piecewise). */
const IS_GUID = `length(v) = 36 AND substr(v, 9, 1) || substr(v, 14, 1) || substr(v, 19, 1) || substr(v, 24, 1) = '----' AND NOT replace(v, '-', '') GLOB '*[^0-9a-f]*'`;

/**
 * The target's id mapping, as text bound to the restore's statements: for each of a GUID's 32 hex digits, the 16 digits
 * it becomes (the digit XOR a key nibble of SHA-256 of the target). The version digit is kept, and the variant's two
 * high bits; the first digit always changes, so no id maps to itself.
 */
export async function deriveIdMapping(target: TenantScope): Promise<string> {
  const text = `restore-target\u0000${target.tenantKey}\u0000${target.orgKey}`;
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  const nibbles = [...digest].flatMap((byte) => [byte >> 4, byte & 15]);
  return DIGITS.map((_, index) => {
    const raw = nibbles[index] ?? 0;
    const key = index === 12 ? 0 : index === 16 ? raw & 3 : index === 0 ? raw | 1 : raw;
    return [...HEX].map((_digit, value) => HEX[value ^ key]).join('');
  }).join('');
}

/** SQL of `value` (a text expression) mapped by the mapping bound at `parameter`; anything but a lowercase GUID is kept. */
function renderMapId(value: string, parameter: string): string {
  const digits = DIGITS.map((position, index) => `substr(${parameter}, ${index * 16} + instr('${HEX}', substr(v, ${position + 1}, 1)), 1)`);
  const parts = [...Array(36).keys()].map((position) => (DIGITS.includes(position) ? digits[DIGITS.indexOf(position)] : "'-'"));
  return `(SELECT CASE WHEN ${IS_GUID} THEN ${parts.join(' || ')} ELSE v END FROM (SELECT ${value} AS v))`;
}

/** SQL of a column's value (`value`, a text expression) with the row ids it holds mapped. */
export function renderMappedColumn(holder: IdHolder, value: string, parameter: string): string {
  if (holder === 'id') return renderMapId(value, parameter);
  const element =
    holder === 'ids'
      ? renderMapId('j.value', parameter)
      : `CASE WHEN j.type = 'object' AND json_type(j.value, '$.id') = 'text' THEN json_set(j.value, '$.id', ${renderMapId("json_extract(j.value, '$.id')", parameter)}) ELSE j.value END`;
  return `(SELECT CASE WHEN w IS NULL THEN NULL ELSE (SELECT json_group_array(${element}) FROM json_each(w) AS j) END FROM (SELECT ${value} AS w))`;
}
