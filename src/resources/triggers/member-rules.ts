/**
 * Rules between an entity and the records it references: a member belongs to the owner's company (`MembersSpec`),
 * a referenced record matches a field of the record (`FieldSpec.referenceMatch`: a route's brand model is of its brand).
 */
import type { EntitySpec, FieldSpec, MembersSpec, MemberTableSpec } from '../entities/spec';
import type { ReferenceKindSpec } from '../reference/spec';
import { requireKind } from './holders';
import type { TriggerDescriptions } from './holders';
import { columnList, quote, renderRuleTrigger, rowColumn, sameScope } from './sql';

function requireEntityColumn(spec: EntitySpec, field: string): string {
  const column = spec.fields[field]?.column;
  if (column === undefined) throw new Error(`${spec.name} has no field '${field}'.`);
  return column;
}

function requireKindColumn(kind: ReferenceKindSpec, field: string): string {
  const column = kind.fields[field]?.column;
  if (column === undefined) throw new Error(`Reference kind ${kind.name} has no field '${field}'.`);
  return column;
}

/** A member table whose members share `field` with the owner: its insert and the kind's update of the field. */
function renderMemberRules(
  descriptions: TriggerDescriptions,
  spec: EntitySpec,
  members: MembersSpec,
  member: MemberTableSpec,
  field: string,
): string[] {
  const kind = requireKind(descriptions, member.reference);
  const ownerColumn = requireEntityColumn(spec, field);
  const kindColumn = requireKindColumn(kind, field);
  const owner = quote(spec.table);
  const table = quote(kind.table);
  const memberOwner = quote(members.ownerColumn);
  const insert = `EXISTS (SELECT 1 FROM ${owner} AS \`r\`, ${table} AS \`m\` WHERE \`r\`.\`id\` = NEW.${memberOwner} AND ${sameScope('m', 'NEW')} AND \`m\`.\`key\` = ${rowColumn('NEW', member.column)} AND \`m\`.${quote(kindColumn)} IS NOT \`r\`.${quote(ownerColumn)})`;
  const used = `EXISTS (SELECT 1 FROM ${quote(member.table)} AS \`m\`, ${owner} AS \`r\` WHERE ${sameScope('m', 'NEW')} AND \`m\`.${quote(member.column)} = NEW.\`key\` AND \`r\`.\`id\` = \`m\`.${memberOwner} AND \`r\`.${quote(ownerColumn)} IS NOT ${rowColumn('NEW', kindColumn)})`;
  return [
    renderRuleTrigger({
      name: `${member.table}_${ownerColumn}_insert`,
      event: 'INSERT',
      table: member.table,
      when: [insert],
      row: 'NEW',
      rule: members.rules.memberMismatch,
    }),
    renderRuleTrigger({
      name: `${kind.table}_${kindColumn}_update`,
      event: `UPDATE OF ${quote(kindColumn)}`,
      table: kind.table,
      when: [`${rowColumn('NEW', kindColumn)} IS NOT ${rowColumn('OLD', kindColumn)}`, `  AND ${used}`],
      row: 'NEW',
      rule: 'reference_in_use',
    }),
  ];
}

/** The owner's `field` does not change while it has members that share it. */
function renderOwnerRule(spec: EntitySpec, members: MembersSpec, field: string, tables: readonly MemberTableSpec[]): string {
  const column = requireEntityColumn(spec, field);
  const exists = tables.map(
    (member, index) =>
      `${index === 0 ? '  AND (' : '    OR '}EXISTS (SELECT 1 FROM ${quote(member.table)} AS \`m\` WHERE \`m\`.${quote(members.ownerColumn)} = NEW.\`id\`)${index === tables.length - 1 ? ')' : ''}`,
  );
  return renderRuleTrigger({
    name: `${spec.table}_${column}_members_update`,
    event: `UPDATE OF ${quote(column)}`,
    table: spec.table,
    when: [`${rowColumn('NEW', column)} IS NOT ${rowColumn('OLD', column)}`, ...exists],
    row: 'NEW',
    rule: members.rules.ownerChange,
  });
}

export function renderMembersRules(descriptions: TriggerDescriptions, spec: EntitySpec): string[] {
  const members = spec.members;
  if (!members) return [];
  const fields = [...new Set(members.lists.flatMap((member) => (member.sameField ? [member.sameField] : [])))];
  return [
    ...members.lists.flatMap((member) =>
      member.sameField ? renderMemberRules(descriptions, spec, members, member, member.sameField) : [],
    ),
    ...fields.map((field) =>
      renderOwnerRule(
        spec,
        members,
        field,
        members.lists.filter((member) => member.sameField === field),
      ),
    ),
  ];
}

/** `FieldSpec.referenceMatch`: the insert and update of the record, and the referenced kind's update of the field. */
function renderReferenceMatch(descriptions: TriggerDescriptions, spec: EntitySpec, field: FieldSpec): string[] {
  const match = field.referenceMatch;
  if (!match || !field.reference) return [];
  const kind = requireKind(descriptions, field.reference);
  const own = requireEntityColumn(spec, match.field);
  const theirs = requireKindColumn(kind, match.field);
  const value = rowColumn('NEW', field.column);
  const present = `coalesce(${value}, '') <> ''`;
  const mismatch = `NOT EXISTS (SELECT 1 FROM ${quote(kind.table)} AS \`m\` WHERE ${sameScope('m', 'NEW')} AND \`m\`.\`key\` = ${value} AND \`m\`.${quote(theirs)} IS ${rowColumn('NEW', own)})`;
  const changed = `(${rowColumn('NEW', own)} IS NOT ${rowColumn('OLD', own)} OR ${value} IS NOT ${rowColumn('OLD', field.column)})`;
  const used = `EXISTS (SELECT 1 FROM ${quote(spec.table)} AS \`r\` WHERE ${sameScope('r', 'NEW')} AND \`r\`.${quote(field.column)} = NEW.\`key\` AND \`r\`.${quote(own)} IS NOT ${rowColumn('NEW', theirs)})`;
  const common = { table: spec.table, row: 'NEW', rule: match.rule } as const;
  return [
    renderRuleTrigger({ ...common, name: `${spec.table}_${field.column}_insert`, event: 'INSERT', when: [present, `  AND ${mismatch}`] }),
    renderRuleTrigger({
      ...common,
      name: `${spec.table}_${field.column}_update`,
      event: `UPDATE OF ${columnList([own, field.column])}`,
      when: [changed, `  AND ${present}`, `  AND ${mismatch}`],
    }),
    renderRuleTrigger({
      name: `${kind.table}_${theirs}_update`,
      event: `UPDATE OF ${quote(theirs)}`,
      table: kind.table,
      when: [`${rowColumn('NEW', theirs)} IS NOT ${rowColumn('OLD', theirs)}`, `  AND ${used}`],
      row: 'NEW',
      rule: 'reference_in_use',
    }),
  ];
}

export function renderReferenceMatches(descriptions: TriggerDescriptions, spec: EntitySpec): string[] {
  return Object.values(spec.fields).flatMap((field) => renderReferenceMatch(descriptions, spec, field));
}
