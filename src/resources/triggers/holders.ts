/**
 * Who holds keys of reference kinds, read from the descriptions: entity reference fields and member tables, the kinds'
 * own reference fields, and the services' key holders. Keys of standard kinds (cultures, currencies) are left out:
 * those lists are read-only, shipped with the migrations, so a key never disappears.
 */
import type { EntitySpec } from '../../entities/spec';
import type { KeyHolderSpec, ReferenceKindSpec } from '../../reference/spec';

/** What the generator reads. */
export interface TriggerDescriptions {
  /** Entities stored in tables of their own. */
  readonly entities: readonly EntitySpec[];
  /** Every reference kind, in dependency order. */
  readonly kinds: readonly ReferenceKindSpec[];
  readonly holders: readonly KeyHolderSpec[];
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
  const kind = descriptions.kinds.find((candidate) => candidate.kind === name);
  if (!kind) throw new Error(`Unknown reference kind '${name}'.`);
  return kind;
}

function toColumns(descriptions: TriggerDescriptions, references: readonly (readonly [string, string, boolean])[]): ReferenceColumn[] {
  return references.flatMap(([column, name, list]) => {
    const kind = requireKind(descriptions, name);
    return kind.standard ? [] : [{ column, kind, list }];
  });
}

function listEntityHolders(descriptions: TriggerDescriptions, spec: EntitySpec): KeyHolder[] {
  const fields = Object.values(spec.fields).flatMap((field) => (field.reference ? [[field.column, field.reference, false] as const] : []));
  const members = (spec.members?.tables ?? []).map((member) => ({
    table: member.table,
    references: toColumns(descriptions, [[member.column, member.reference, false]]),
    updatable: false,
  }));
  return [{ table: spec.table, references: toColumns(descriptions, fields), updatable: true }, ...members];
}

function listKindHolder(descriptions: TriggerDescriptions, kind: ReferenceKindSpec): KeyHolder {
  const fields = Object.values(kind.fields).flatMap((field) =>
    field.reference ? [[field.column, field.reference, field.kind === 'stringList'] as const] : [],
  );
  return { table: kind.table, references: toColumns(descriptions, fields), updatable: true };
}

/** Every table that holds keys of tenant reference kinds: entities (with their members), kinds, service tables. */
export function listKeyHolders(descriptions: TriggerDescriptions): KeyHolder[] {
  const holders = [
    ...descriptions.entities.flatMap((spec) => listEntityHolders(descriptions, spec)),
    ...descriptions.kinds.map((kind) => listKindHolder(descriptions, kind)),
    ...descriptions.holders.map((holder) => ({
      table: holder.table,
      references: toColumns(
        descriptions,
        Object.entries(holder.references).map(([column, kind]) => [column, kind, false] as const),
      ),
      updatable: false,
    })),
  ];
  return holders.filter((holder) => holder.references.length > 0);
}
