/**
 * The trigger generator (src/resources/triggers/) on small descriptions: the SQL each rule, count and text-search
 * trigger gets, and the migrations `npm run triggers` writes when descriptions change. The application's own
 * descriptions are checked against the migrated database in test/integration/generated-triggers.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { defineResource } from '../../src/model/resource';
import type { EntitySpec } from '../../src/resources/entities/spec';
import { listReferenceFields } from '../../src/model/fields';
import { checkTriggerMigrations, planTriggerMigration } from '../../src/resources/triggers/plan';
import { generateTriggerSchema } from '../../src/resources/triggers/schema';
import type { GeneratedObject } from '../../src/resources/triggers/schema';
import type { TriggerDescriptions } from '../../src/resources/triggers/holders';
import type { MigrationFile } from '../../src/resources/triggers/state';

const currencies = defineResource({
  storage: 'standard',
  name: 'currencies',
  title: 'currencies',
  key: ['key'],
  table: 'ref_currencies',
  fields: { name: { kind: 'string', column: 'name', required: true } },
});
const companies = defineResource({
  storage: 'reference',
  name: 'companies',
  title: 'companies',
  key: ['key'],
  table: 'ref_companies',
  fields: { currency: { kind: 'string', column: 'currency', required: true, reference: 'currencies' } },
});
const sites = defineResource({
  storage: 'reference',
  name: 'sites',
  title: 'sites',
  key: ['key'],
  table: 'ref_sites',
  fields: {
    company: { kind: 'string', column: 'company', required: true, reference: 'companies' },
    owners: { kind: 'stringList', column: 'owners', reference: 'companies' },
  },
});

const models = defineResource({
  storage: 'reference',
  name: 'models',
  title: 'models',
  key: ['key'],
  table: 'ref_models',
  fields: { company: { kind: 'string', column: 'company', required: true, reference: 'companies' } },
});

function defineTours(textFields: readonly string[] = ['tourKey']): EntitySpec {
  return defineResource({
    storage: 'entity',
    name: 'tours',
    title: 'Tour',
    resourceName: 'Tour',
    basePath: '/tours',
    table: 'tours',
    key: ['tourKey'],
    customAttributes: false,
    fields: {
      tourKey: { kind: 'string', column: 'tour_key', required: true, description: 'Key', textSearch: textFields.includes('tourKey') },
      note: { kind: 'string', column: 'note', description: 'Note', textSearch: textFields.includes('note') },
      company: { kind: 'string', column: 'company', description: 'Company', reference: 'companies' },
      site: { kind: 'string', column: 'site', description: 'Site', reference: 'sites' },
      model: {
        kind: 'string',
        column: 'model',
        description: 'Model',
        reference: 'models',
        referenceMatch: { field: 'company', rule: 'route_brand_model' },
      },
      currency: { kind: 'string', column: 'currency', description: 'Currency', reference: 'currencies' },
    },
    members: {
      ownerColumn: 'tour_id',
      lists: [{ property: 'sites', table: 'tour_sites', column: 'site', reference: 'sites', sameField: 'company' }],
      rules: { memberMismatch: 'route_member_company', ownerChange: 'route_company_members' },
    },
  });
}

function describeAll(entities: readonly EntitySpec[] = [defineTours()]): TriggerDescriptions {
  return {
    entities,
    kinds: [currencies, companies, sites, models],
    holders: [{ table: 'visits', references: { company: 'companies' } }],
    history: [],
  };
}

function find(objects: readonly GeneratedObject[], name: string): string {
  const object = objects.find((candidate) => candidate.name === name);
  if (!object) throw new Error(`no ${name} among ${objects.map((candidate) => candidate.name).join(', ')}`);
  return object.sql;
}

const ACTIVE_NEW =
  "EXISTS (SELECT 1 FROM `tenant_residency` AS `r` WHERE `r`.`tenant_key` = NEW.`tenant_key` AND `r`.`org_key` = NEW.`org_key` AND `r`.`state` = 'active')";
const SCOPE_K = '`k`.`tenant_key` = NEW.`tenant_key` AND `k`.`org_key` = NEW.`org_key`';

describe('descriptions', () => {
  it('read the reference fields of entities and kinds alike', () => {
    expect(listReferenceFields(sites.fields)).toEqual([
      { name: 'company', column: 'company', kind: 'companies', list: false },
      { name: 'owners', column: 'owners', kind: 'companies', list: true },
    ]);
    expect(listReferenceFields(defineTours().fields).map((field) => field.name)).toEqual(['company', 'site', 'model', 'currency']);
  });
});

describe('rule triggers', () => {
  const objects = generateTriggerSchema(describeAll());

  it('checks every stored key of a tenant kind on insert, standard kinds left out', () => {
    expect(find(objects, 'tours_references_insert')).toBe(
      [
        'CREATE TRIGGER `tours_references_insert` BEFORE INSERT ON `tours`',
        `WHEN ((coalesce(NEW.\`company\`, '') <> '' AND NOT EXISTS (SELECT 1 FROM \`ref_companies\` AS \`k\` WHERE ${SCOPE_K} AND \`k\`.\`key\` = NEW.\`company\`))`,
        `  OR (coalesce(NEW.\`site\`, '') <> '' AND NOT EXISTS (SELECT 1 FROM \`ref_sites\` AS \`k\` WHERE ${SCOPE_K} AND \`k\`.\`key\` = NEW.\`site\`))`,
        `  OR (coalesce(NEW.\`model\`, '') <> '' AND NOT EXISTS (SELECT 1 FROM \`ref_models\` AS \`k\` WHERE ${SCOPE_K} AND \`k\`.\`key\` = NEW.\`model\`)))`,
        `  AND ${ACTIVE_NEW}`,
        'BEGIN',
        "  SELECT RAISE(ABORT, 'rule:unknown_reference');",
        'END;',
      ].join('\n'),
    );
    expect(objects.some((object) => object.name === 'ref_companies_references_insert')).toBe(false);
    expect(objects.some((object) => object.name === 'ref_currencies_in_use_delete')).toBe(false);
  });

  it('checks changed keys on update, list items one by one', () => {
    const sql = find(objects, 'ref_sites_references_update');
    expect(sql).toContain('BEFORE UPDATE OF `company`, `owners` ON `ref_sites`');
    expect(sql).toContain(
      `(NEW.\`owners\` IS NOT OLD.\`owners\` AND EXISTS (SELECT 1 FROM json_each(NEW.\`owners\`) AS \`j\` WHERE NOT EXISTS (SELECT 1 FROM \`ref_companies\` AS \`k\` WHERE ${SCOPE_K} AND \`k\`.\`key\` = \`j\`.\`value\`)))`,
    );
  });

  it('gives members and key holders insert triggers only', () => {
    expect(find(objects, 'tour_sites_references_insert')).toContain('NEW.`site`');
    expect(find(objects, 'visits_references_insert')).toContain('NEW.`company`');
    expect(objects.some((object) => object.name === 'tour_sites_references_update' || object.name === 'visits_references_update')).toBe(
      false,
    );
  });

  it('refuses the delete of a key in use, naming every user in description order', () => {
    const sql = find(objects, 'ref_companies_in_use_delete');
    const users = [...sql.matchAll(/FROM `(\w+)` AS `u`/g)].map((match) => match[1]);
    expect(users).toEqual(['tours', 'ref_sites', 'ref_sites', 'ref_models', 'visits']);
    expect(sql).toContain('json_each(`u`.`owners`) AS `j` WHERE');
    expect(sql).toContain("SELECT RAISE(ABORT, 'rule:reference_in_use');");
    expect(sql).toContain('`r`.`tenant_key` = OLD.`tenant_key`');
  });

  it('holds members to the owner company, both ways', () => {
    expect(find(objects, 'tour_sites_company_insert')).toContain(
      'FROM `tours` AS `r`, `ref_sites` AS `m` WHERE `r`.`id` = NEW.`tour_id` AND `m`.`tenant_key` = NEW.`tenant_key` AND `m`.`org_key` = NEW.`org_key` AND `m`.`key` = NEW.`site` AND `m`.`company` IS NOT `r`.`company`',
    );
    expect(find(objects, 'tour_sites_company_insert')).toContain('rule:route_member_company');
    expect(find(objects, 'tours_company_members_update')).toContain(
      'EXISTS (SELECT 1 FROM `tour_sites` AS `m` WHERE `m`.`tour_id` = NEW.`id`)',
    );
    expect(find(objects, 'tours_company_members_update')).toContain('rule:route_company_members');
  });

  it('holds a referenced record to a field of the record', () => {
    expect(find(objects, 'tours_model_update')).toContain('BEFORE UPDATE OF `company`, `model` ON `tours`');
    expect(find(objects, 'tours_model_insert')).toContain('`m`.`key` = NEW.`model` AND `m`.`company` IS NEW.`company`');
    expect(find(objects, 'tours_model_insert')).toContain('rule:route_brand_model');
    expect(find(objects, 'ref_models_company_update')).toContain('`r`.`model` = NEW.`key` AND `r`.`company` IS NOT NEW.`company`');
  });
});

describe('count and text-search triggers', () => {
  const objects = generateTriggerSchema(describeAll());

  it('counts inserts and deletes', () => {
    expect(find(objects, 'tours_count_insert')).toContain("VALUES (NEW.`tenant_key`, NEW.`org_key`, 'tours', 1)");
    expect(find(objects, 'tours_count_delete')).toContain('SET `rows` = `rows` - 1');
  });

  it('indexes the textSearch fields', () => {
    expect(find(objects, 'tours_text')).toBe(
      "CREATE VIRTUAL TABLE `tours_text` USING fts5(`tour_key`, content='tours', content_rowid='rowid', tokenize='trigram case_sensitive 1');",
    );
    expect(find(objects, 'tours_text_update')).toContain('AFTER UPDATE OF `tour_key` ON `tours`');
  });
});

describe('migrations', () => {
  const HAND_WRITTEN: MigrationFile = {
    name: '0006_route_and_reference_rules.sql',
    sql: '-- rules\nCREATE TRIGGER `tours_references_insert` BEFORE INSERT ON `tours` BEGIN SELECT 1; END;\n--> statement-breakpoint\nCREATE TRIGGER `tours_gone_insert` BEFORE INSERT ON `tours` BEGIN SELECT 1; END;',
  };
  const OTHER: MigrationFile = {
    name: '0003_residency_guard.sql',
    sql: 'CREATE TRIGGER `guard` INSTEAD OF INSERT ON `v` BEGIN SELECT 1; END;',
  };
  const objects = generateTriggerSchema(describeAll());

  function generate(files: readonly MigrationFile[], current = objects): MigrationFile {
    const sql = planTriggerMigration(files, current);
    if (sql === undefined) throw new Error('no migration due');
    return { name: `00${10 + files.length}_triggers.sql`, sql };
  }

  it('takes over hand-written triggers, leaves the others, and backfills new counts and indexes', () => {
    const first = generate([OTHER, HAND_WRITTEN]);
    const statements = first.sql.trimEnd().split('\n--> statement-breakpoint\n');
    expect(statements[0]).toMatch(/^-- Generated by `npm run triggers`/);
    expect(first.sql).toContain('DROP TRIGGER `tours_references_insert`;');
    expect(first.sql).toContain('DROP TRIGGER `tours_gone_insert`;');
    expect(first.sql).not.toContain('`guard`');
    expect(statements.filter((statement) => statement.startsWith('CREATE TRIGGER'))).toHaveLength(objects.length - 1);
    expect(statements.at(-2)).toBe(
      "INSERT INTO `entity_counts` (`tenant_key`, `org_key`, `entity`, `rows`) SELECT `tenant_key`, `org_key`, 'tours', count(*) FROM `tours` GROUP BY `tenant_key`, `org_key`;",
    );
    expect(statements.at(-1)).toBe("INSERT INTO `tours_text` (`tours_text`) VALUES ('rebuild');");
    expect(planTriggerMigration([OTHER, HAND_WRITTEN, first], objects)).toBeUndefined();
    expect(checkTriggerMigrations([OTHER, HAND_WRITTEN, first], objects)).toEqual([]);
  });

  it('writes only what a description change touches', () => {
    const first = generate([HAND_WRITTEN]);
    const changed = generateTriggerSchema(describeAll([defineTours(['tourKey', 'note'])]));
    expect(checkTriggerMigrations([HAND_WRITTEN, first], changed)[0]).toMatch(/run `npm run triggers`/);
    const second = generate([HAND_WRITTEN, first], changed);
    const statements = second.sql.split('\n--> statement-breakpoint\n').map((statement) => statement.replace(/^(--.*\n)+/, ''));
    expect(statements.map((statement) => statement.split('\n')[0]?.split(' (')[0]?.split(' USING')[0])).toEqual([
      'DROP TRIGGER `tours_text_insert`;',
      'DROP TRIGGER `tours_text_delete`;',
      'DROP TRIGGER `tours_text_update`;',
      'DROP TABLE `tours_text`;',
      'CREATE VIRTUAL TABLE `tours_text`',
      'CREATE TRIGGER `tours_text_insert` AFTER INSERT ON `tours` BEGIN',
      'CREATE TRIGGER `tours_text_delete` AFTER DELETE ON `tours` BEGIN',
      'CREATE TRIGGER `tours_text_update` AFTER UPDATE OF `tour_key`, `note` ON `tours` BEGIN',
      'INSERT INTO `tours_text`',
    ]);
    expect(checkTriggerMigrations([HAND_WRITTEN, first, second], changed)).toEqual([]);
  });

  it('drops the triggers of a description that is gone', () => {
    const first = generate([HAND_WRITTEN]);
    const none = generateTriggerSchema(describeAll([]));
    const second = generate([HAND_WRITTEN, first], none);
    expect(second.sql).toContain('DROP TRIGGER `tours_count_insert`;');
    expect(second.sql).toContain('DROP TABLE `tours_text`;');
    expect(second.sql).not.toContain('CREATE TRIGGER `tours');
  });

  it('finds a generated migration edited by hand', () => {
    const first = generate([HAND_WRITTEN]);
    const edited = { ...first, sql: first.sql.replace("'rule:unknown_reference'", "'rule:other'") };
    expect(checkTriggerMigrations([HAND_WRITTEN, edited], objects)[0]).toMatch(/do not create the triggers the descriptions make/);
    const commented = { ...first, sql: `${first.sql}-- note\n` };
    expect(checkTriggerMigrations([HAND_WRITTEN, commented], objects)).toEqual([
      'migrations/tenant/0011_triggers.sql is not the output of `npm run triggers` (edited by hand?).',
    ]);
  });
});
