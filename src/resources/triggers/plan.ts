/**
 * The migration that takes the committed migrations' generated objects to the descriptions' (`npm run triggers`), and
 * the drift check of `npm run lint` (`npm run triggers:check`).
 */
import type { GeneratedObject } from './schema';
import { GENERATED_HEADER, isGenerated, readOwnedState, STATEMENT_BREAK } from './state';
import type { MigrationFile, OwnedObject } from './state';

const COMMENT = [
  GENERATED_HEADER,
  '-- Drops the rule, count, text-search and history triggers (and text index tables) whose description changed, or that a',
  '-- hand-written migration made, and creates them as the descriptions say. docs/storage.md describes each one.',
].join('\n');

/** A previous object stays when a generated migration made it exactly as it is generated now. */
function isCurrent(previous: OwnedObject | undefined, object: GeneratedObject): boolean {
  return previous !== undefined && previous.generated && previous.sql === object.sql;
}

/** A table stays when its statement is unchanged (its rows are the index; re-creating it would only rebuild it). */
function isCurrentTable(previous: OwnedObject | undefined, object: GeneratedObject): boolean {
  return previous !== undefined && previous.sql === object.sql;
}

/** The migration's text, or undefined when the committed migrations already hold every generated object. */
export function planTriggerMigration(files: readonly MigrationFile[], objects: readonly GeneratedObject[]): string | undefined {
  const state = readOwnedState(files);
  const tables = objects.filter((object) => object.type === 'table');
  const triggers = objects.filter((object) => object.type === 'trigger');
  const createdTables = tables.filter((object) => !isCurrentTable(state.tables.get(object.name), object));
  const createdTriggers = triggers.filter((object) => !isCurrent(state.triggers.get(object.name), object));
  const wanted = new Set(objects.map((object) => object.name));
  const droppedTriggers = [...state.triggers.keys()].filter(
    (name) => !wanted.has(name) || createdTriggers.some((object) => object.name === name),
  );
  const droppedTables = [...state.tables.keys()].filter(
    (name) => !wanted.has(name) || createdTables.some((object) => object.name === name),
  );
  const statements = [
    ...droppedTriggers.map((name) => `DROP TRIGGER \`${name}\`;`),
    ...droppedTables.map((name) => `DROP TABLE \`${name}\`;`),
    ...createdTables.map((object) => object.sql),
    ...createdTriggers.map((object) => object.sql),
    ...createdTriggers.flatMap((object) => (object.firstFill !== undefined && !state.triggers.has(object.name) ? [object.firstFill] : [])),
    ...createdTables.flatMap((object) => (object.fill !== undefined ? [object.fill] : [])),
  ];
  if (statements.length === 0) return undefined;
  return `${COMMENT}\n${statements.join(STATEMENT_BREAK)}\n`;
}

/**
 * The problems of the committed migrations: a description changed since the last generated migration (a new one is
 * due), or the last generated migration is not, byte for byte, what the generator writes after the files before it.
 */
export function checkTriggerMigrations(files: readonly MigrationFile[], objects: readonly GeneratedObject[]): string[] {
  const sorted = [...files].sort((a, b) => a.name.localeCompare(b.name));
  if (planTriggerMigration(sorted, objects) !== undefined)
    return [
      'The migrations do not create the triggers the descriptions make (a description changed, or a generated migration was edited): ' +
        'run `npm run triggers` and commit the new migration (never edit one already written).',
    ];
  const last = sorted.map(isGenerated).lastIndexOf(true);
  const file = sorted[last];
  if (file === undefined) return [];
  const expected = planTriggerMigration(sorted.slice(0, last), objects);
  return expected === file.sql ? [] : [`migrations/tenant/${file.name} is not the output of \`npm run triggers\` (edited by hand?).`];
}
