/**
 * The trigram text index of an entity's `textSearch` fields (migration 0009): an external content FTS5 table
 * (`<table>_text`) kept by an insert, a delete and an update trigger in the same statement as the write.
 */
import { textIndexOf } from '../entities/odata-fields';
import type { EntitySpec } from '../entities/spec';
import { columnList, quote, renderAfterTrigger } from './sql';

function listTextColumns(spec: EntitySpec): string[] {
  return Object.values(spec.fields).flatMap((field) => (field.textSearch ? [field.column] : []));
}

/** True when the entity has text fields (so an index). */
export function hasTextIndex(spec: EntitySpec): boolean {
  return listTextColumns(spec).length > 0;
}

export function renderTextIndexTable(spec: EntitySpec): string {
  const columns = columnList(listTextColumns(spec));
  return `CREATE VIRTUAL TABLE ${quote(textIndexOf(spec))} USING fts5(${columns}, content='${spec.table}', content_rowid='rowid', tokenize='trigram case_sensitive 1');`;
}

export function renderTextIndexTriggers(spec: EntitySpec): string[] {
  const index = quote(textIndexOf(spec));
  const columns = listTextColumns(spec);
  const names = columnList(columns);
  const values = (row: 'NEW' | 'OLD') => columns.map((column) => `${row}.${quote(column)}`).join(', ');
  const add = `INSERT INTO ${index} (rowid, ${names}) VALUES (NEW.rowid, ${values('NEW')});`;
  const remove = `INSERT INTO ${index} (${index}, rowid, ${names}) VALUES ('delete', OLD.rowid, ${values('OLD')});`;
  const name = textIndexOf(spec);
  return [
    renderAfterTrigger(`${name}_insert`, 'INSERT', spec.table, [add]),
    renderAfterTrigger(`${name}_delete`, 'DELETE', spec.table, [remove]),
    renderAfterTrigger(`${name}_update`, `UPDATE OF ${names}`, spec.table, [remove, add]),
  ];
}

/** Indexes the rows the table already has (run once, after the index table is created). */
export function renderTextIndexRebuild(spec: EntitySpec): string {
  const index = quote(textIndexOf(spec));
  return `INSERT INTO ${index} (${index}) VALUES ('rebuild');`;
}
