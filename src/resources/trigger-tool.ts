/** What `npm run triggers` and `npm run triggers:check` (scripts/triggers.mjs, under Deno) ask of the generator. */
import { TRIGGER_DESCRIPTIONS } from './catalogue';
import { checkTriggerMigrations, planTriggerMigration } from './triggers/plan';
import { generateTriggerSchema } from './triggers/schema';
import type { MigrationFile } from './triggers/state';

interface TriggerToolAnswer {
  /** The text of the migration due, if any. */
  readonly migration?: string;
  /** The drift check's problems. */
  readonly problems: readonly string[];
}

export function runTriggerTool(files: readonly MigrationFile[]): TriggerToolAnswer {
  const objects = generateTriggerSchema(TRIGGER_DESCRIPTIONS);
  const migration = planTriggerMigration(files, objects);
  return { ...(migration === undefined ? {} : { migration }), problems: checkTriggerMigrations(files, objects) };
}
