/** Every object the generator owns, from the descriptions: rule, count, text-search and history triggers, text index tables. */
import { renderCountBackfill, renderCountTriggers } from './counts';
import { listKeyHolders } from './holders';
import type { TriggerDescriptions } from './holders';
import { renderMembersRules, renderReferenceMatches } from './member-rules';
import { renderInUseDeletes, renderReferenceInsert, renderReferenceUpdate } from './references';
import { renderHistoryBaseline, renderHistoryTriggers } from './history';
import { hasTextIndex, renderTextIndexRebuild, renderTextIndexTable, renderTextIndexTriggers } from './text-search';

/** A generated trigger or (text index) table: its name, its CREATE statement and what fills it when first created. */
export interface GeneratedObject {
  readonly type: 'trigger' | 'table';
  readonly name: string;
  readonly sql: string;
  /** Run once after the object is created for the first time (a count backfill). */
  readonly firstFill?: string;
  /** Run after every creation of the object (a text index rebuild). */
  readonly fill?: string;
}

const NAME = /^CREATE (?:TRIGGER|VIRTUAL TABLE) `(\w+)`/;

/** The name a CREATE statement gives. */
function nameOf(sql: string): string {
  const name = NAME.exec(sql)?.[1];
  if (name === undefined) throw new Error(`Not a CREATE TRIGGER or CREATE VIRTUAL TABLE statement: ${sql.slice(0, 80)}`);
  return name;
}

function toTriggers(statements: readonly string[]): GeneratedObject[] {
  return statements.map((sql) => ({ type: 'trigger', name: nameOf(sql), sql }));
}

function listRuleTriggers(descriptions: TriggerDescriptions): GeneratedObject[] {
  const holders = listKeyHolders(descriptions);
  return toTriggers([
    ...holders.flatMap((holder) => [renderReferenceInsert(holder), ...(holder.updatable ? [renderReferenceUpdate(holder)] : [])]),
    ...renderInUseDeletes(holders),
    ...descriptions.entities.flatMap((spec) => [...renderMembersRules(descriptions, spec), ...renderReferenceMatches(descriptions, spec)]),
  ]);
}

function listCountTriggers(descriptions: TriggerDescriptions): GeneratedObject[] {
  return descriptions.entities.flatMap((spec) => {
    const [insert, remove] = toTriggers(renderCountTriggers(spec));
    return insert && remove ? [{ ...insert, firstFill: renderCountBackfill(spec) }, remove] : [];
  });
}

function listTextIndexes(descriptions: TriggerDescriptions): GeneratedObject[] {
  return descriptions.entities.filter(hasTextIndex).flatMap((spec) => {
    const sql = renderTextIndexTable(spec);
    return [{ type: 'table', name: nameOf(sql), sql, fill: renderTextIndexRebuild(spec) }, ...toTriggers(renderTextIndexTriggers(spec))];
  });
}

/** Each restored table's history triggers; the insert trigger's first creation records the rows already there. */
function listHistoryTriggers(descriptions: TriggerDescriptions): GeneratedObject[] {
  return descriptions.history.flatMap((table) => {
    const [insert, ...others] = toTriggers(renderHistoryTriggers(table));
    return insert ? [{ ...insert, firstFill: renderHistoryBaseline(table) }, ...others] : [];
  });
}

/** The generator's objects, in creation order (a text index table before its triggers). */
export function generateTriggerSchema(descriptions: TriggerDescriptions): GeneratedObject[] {
  const objects = [
    ...listRuleTriggers(descriptions),
    ...listCountTriggers(descriptions),
    ...listTextIndexes(descriptions),
    ...listHistoryTriggers(descriptions),
  ];
  const names = objects.map((object) => object.name);
  const twice = names.filter((name, index) => names.indexOf(name) !== index);
  if (twice.length > 0) throw new Error(`Two rules of the descriptions make a trigger of the same name: ${twice.join(', ')}.`);
  return objects;
}
