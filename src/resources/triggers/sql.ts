/** The SQL text every generated trigger shares: quoting, the residency condition and the trigger statement. */

/** A quoted identifier (`name`). */
export function quote(name: string): string {
  return `\`${name}\``;
}

/** `ROW.column` for NEW or OLD. */
export function rowColumn(row: 'NEW' | 'OLD', column: string): string {
  return `${row}.${quote(column)}`;
}

/** `alias.column`. */
function aliasColumn(alias: string, column: string): string {
  return `${quote(alias)}.${quote(column)}`;
}

/** `alias`'s tenant/org are those of the written row (`ROW`). */
export function sameScope(alias: string, row: 'NEW' | 'OLD'): string {
  return `${aliasColumn(alias, 'tenant_key')} = ${rowColumn(row, 'tenant_key')} AND ${aliasColumn(alias, 'org_key')} = ${rowColumn(row, 'org_key')}`;
}

/**
 * Rule triggers apply only while the tenant/org is 'active' in this database: a move copies and deletes rows of
 * tenant/orgs that are 'incoming', 'moving' or 'moved', and the residency guard refuses every other write to them.
 */
function residencyCondition(row: 'NEW' | 'OLD'): string {
  return `EXISTS (SELECT 1 FROM \`tenant_residency\` AS \`r\` WHERE ${sameScope('r', row)} AND \`r\`.\`state\` = 'active')`;
}

/** The columns an `UPDATE OF` names. */
export function columnList(columns: readonly string[]): string {
  return columns.map(quote).join(', ');
}

/** A BEFORE trigger that aborts its statement (and so its batch) with `rule:<rule>` when `when` holds. */
interface RuleTrigger {
  readonly name: string;
  /** `INSERT`, `DELETE` or `UPDATE OF ...`. */
  readonly event: string;
  readonly table: string;
  /** The condition lines, joined by newlines; the residency condition is added last. */
  readonly when: readonly string[];
  readonly row: 'NEW' | 'OLD';
  readonly rule: string;
}

export function renderRuleTrigger(trigger: RuleTrigger): string {
  const when = [...trigger.when, `  AND ${residencyCondition(trigger.row)}`].join('\n');
  return [
    `CREATE TRIGGER ${quote(trigger.name)} BEFORE ${trigger.event} ON ${quote(trigger.table)}`,
    `WHEN ${when}`,
    'BEGIN',
    `  SELECT RAISE(ABORT, 'rule:${trigger.rule}');`,
    'END;',
  ].join('\n');
}

/** An AFTER trigger whose body is `statements` (each one line, indented). */
export function renderAfterTrigger(name: string, event: string, table: string, statements: readonly string[]): string {
  return [`CREATE TRIGGER ${quote(name)} AFTER ${event} ON ${quote(table)} BEGIN`, ...statements.map((line) => `  ${line}`), 'END;'].join(
    '\n',
  );
}
