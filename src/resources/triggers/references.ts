/**
 * The reference rules: a stored key always exists (`<table>_references_insert` / `_update`, rule:unknown_reference)
 * and a reference record in use is never deleted (`<kind table>_in_use_delete`, rule:reference_in_use).
 */
import type { KeyHolder, ReferenceColumn } from './holders';
import { columnList, quote, renderRuleTrigger, rowColumn, sameScope } from './sql';

/** The referenced record of `NEW.column` (or of each list item) is missing. */
function missingKey(reference: ReferenceColumn): string {
  const table = quote(reference.kind.table);
  if (reference.list) {
    const lookup = `SELECT 1 FROM ${table} AS \`k\` WHERE ${sameScope('k', 'NEW')} AND \`k\`.\`key\` = \`j\`.\`value\``;
    return `EXISTS (SELECT 1 FROM json_each(${rowColumn('NEW', reference.column)}) AS \`j\` WHERE NOT EXISTS (${lookup}))`;
  }
  const value = rowColumn('NEW', reference.column);
  return `(coalesce(${value}, '') <> '' AND NOT EXISTS (SELECT 1 FROM ${table} AS \`k\` WHERE ${sameScope('k', 'NEW')} AND \`k\`.\`key\` = ${value}))`;
}

/** Disjunction lines: `(a`, `  OR b`, ..., the last closing the parenthesis. */
function joinAlternatives(alternatives: readonly string[]): string[] {
  return alternatives.map(
    (alternative, index) => `${index === 0 ? '(' : '  OR '}${alternative}${index === alternatives.length - 1 ? ')' : ''}`,
  );
}

export function renderReferenceInsert(holder: KeyHolder): string {
  return renderRuleTrigger({
    name: `${holder.table}_references_insert`,
    event: 'INSERT',
    table: holder.table,
    when: joinAlternatives(holder.references.map(missingKey)),
    row: 'NEW',
    rule: 'unknown_reference',
  });
}

export function renderReferenceUpdate(holder: KeyHolder): string {
  const changed = holder.references.map(
    (reference) => `(${rowColumn('NEW', reference.column)} IS NOT ${rowColumn('OLD', reference.column)} AND ${missingKey(reference)})`,
  );
  return renderRuleTrigger({
    name: `${holder.table}_references_update`,
    event: `UPDATE OF ${columnList(holder.references.map((reference) => reference.column))}`,
    table: holder.table,
    when: joinAlternatives(changed),
    row: 'NEW',
    rule: 'unknown_reference',
  });
}

/** A row of `holder` names `OLD.key` in `reference`. */
function usesKey(holder: KeyHolder, reference: ReferenceColumn): string {
  const table = quote(holder.table);
  if (reference.list) {
    return `EXISTS (SELECT 1 FROM ${table} AS \`u\`, json_each(\`u\`.${quote(reference.column)}) AS \`j\` WHERE ${sameScope('u', 'OLD')} AND \`j\`.\`value\` = OLD.\`key\`)`;
  }
  return `EXISTS (SELECT 1 FROM ${table} AS \`u\` WHERE ${sameScope('u', 'OLD')} AND \`u\`.${quote(reference.column)} = OLD.\`key\`)`;
}

/** One delete trigger per kind some holder references, naming every user in holder order. */
export function renderInUseDeletes(holders: readonly KeyHolder[]): string[] {
  const users = new Map<string, string[]>();
  for (const holder of holders) {
    for (const reference of holder.references) {
      const list = users.get(reference.kind.table) ?? [];
      list.push(usesKey(holder, reference));
      users.set(reference.kind.table, list);
    }
  }
  return [...users].map(([table, uses]) =>
    renderRuleTrigger({
      name: `${table}_in_use_delete`,
      event: 'DELETE',
      table,
      when: joinAlternatives(uses),
      row: 'OLD',
      rule: 'reference_in_use',
    }),
  );
}
