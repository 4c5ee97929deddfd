/**
 * Who holds keys of reference kinds, read from the descriptions: entity reference fields and member tables, the kinds'
 * own reference fields, and the services' key holders. Keys of standard kinds (cultures, currencies) are left out:
 * those lists are read-only, shipped with the migrations, so a key never disappears.
 */
import type { EntitySpec, MembersSpec } from '../entities/spec';
import type { KeyHolderSpec, ReferenceKindSpec } from '../reference/spec';
import type { TenantTable } from '../../tenant/placement/tenant-tables';
import { listReferenceFields } from '../../model/fields';
import type { ReferenceField } from '../../model/fields';
import type { Resource } from '../../model/resource';

/** What the generator reads. */
export interface TriggerDescriptions {
  /** Entities stored in tables of their own. */
  readonly entities: readonly EntitySpec[];
  /** Every reference kind, in dependency order. */
  readonly kinds: readonly ReferenceKindSpec[];
  readonly holders: readonly KeyHolderSpec[];
  /** The tenant tables whose rows the history records (src/tenant/backup/tables.ts), parents first. */
  readonly history: readonly TenantTable[];
}

/** A column holding keys of a tenant reference kind (a JSON array of keys when `list`). */
export interface ReferenceColumn {
  readonly column: string;
  readonly kind: ReferenceKindSpec;
  readonly list: boolean;
}

/** A table with reference columns; `updatable` tables get update triggers too. */
export interface KeyHolder {
  readonly table: string;
  readonly references: readonly ReferenceColumn[];
  readonly updatable: boolean;
}

/** The kind named `name`; a description naming an unknown kind is a programming error. */
export function requireKind(descriptions: TriggerDescriptions, name: string): ReferenceKindSpec {
  const kind = descriptions.kinds.find((candidate) => candidate.name === name);
  if (!kind) throw new Error(`Unknown reference kind '${name}'.`);
  return kind;
}

function toColumns(descriptions: TriggerDescriptions, references: readonly ReferenceField[]): ReferenceColumn[] {
  return references.flatMap(({ column, kind: name, list }) => {
    const kind = requireKind(descriptions, name);
    return kind.storage === 'standard' ? [] : [{ column, kind, list }];
  });
}

/** An entity or a kind: its reference fields; an entity's member tables hold keys too (inserted, never updated). */
function listResourceHolders(descriptions: TriggerDescriptions, spec: Resource & { readonly members?: MembersSpec }): KeyHolder[] {
  const members = (spec.members?.lists ?? []).map((member) => ({
    table: member.table,
    references: toColumns(descriptions, [{ name: member.column, column: member.column, kind: member.reference, list: false }]),
    updatable: false,
  }));
  return [{ table: spec.table, references: toColumns(descriptions, listReferenceFields(spec.fields)), updatable: true }, ...members];
}

/** Every table that holds keys of tenant reference kinds: entities (with their members), kinds, service tables. */
export function listKeyHolders(descriptions: TriggerDescriptions): KeyHolder[] {
  const holders = [
    ...[...descriptions.entities, ...descriptions.kinds].flatMap((spec) => listResourceHolders(descriptions, spec)),
    ...descriptions.holders.map((holder) => ({
      table: holder.table,
      references: toColumns(
        descriptions,
        Object.entries(holder.references).map(([column, kind]) => ({ name: column, column, kind, list: false })),
      ),
      updatable: false,
    })),
  ];
  return holders.filter((holder) => holder.references.length > 0);
}
