/**
 * The generic create of an entity record: the body parsed from the description, the service's hooks, the checks (left to
 * the insert's batch where they can be), and one staged insert committed alone.
 */
import { writeUnderRules } from '../../db/rules';
import type { WriteStatement } from '../../db/writes';
import type { FieldError } from '../../errors/api-error';
import { validationError } from '../../errors/api-error';
import type { Answer } from '../../http/answer';
import { readJsonBody } from '../../http/body';
import type { JsonBodyOptions } from '../../http/body';
import type { ApiContext } from '../../http/context';
import { createdResponse } from '../../http/responses';
import { customAttributesKind } from '../reference/kinds';
import { checkReferencesExist, findUnknownStandardReferences } from '../reference/store';
import type { ReferenceUse } from '../reference/store';
import { commitAlone } from '../../tenant/unit-of-work';
import { findCachedDefinitions, loadFreshDefinitions } from './create-checks';
import { loadCustomDefinitionRows, validateCustomValues } from './custom-attributes';
import type { CustomDefinitionSet, CustomValues } from './custom-attributes';
import { isRefusedInsert } from './record-writes';
import { openEntityRepository } from './repository';
import type { EntitySpec, Values } from './spec';
import type { EntityStore } from './store';
import { dropAnnotations } from './update-body';
import { collectReferenceUses, parseCreateBody } from './validate';
import type { CreateInput } from './validate';

export interface CreateOptions {
  /** Body properties handled by the service (e.g. nested rate lines). */
  readonly extraProperties?: readonly string[];
  /** Options of the JSON body reader (e.g. `exactNumberKeys` for decimals kept digit for digit). */
  readonly body?: JsonBodyOptions;
  /** Validates the extra properties together with the declared fields (every bad field in one answer). */
  validateExtra?(extra: Record<string, unknown>): FieldError[];
  /** Further validation and normalisation of the create input; may add reference uses. */
  prepare?(ctx: ApiContext, values: Values, extra: Record<string, unknown>): Promise<{ uses?: ReferenceUse[] } | undefined>;
  /** Statements written in the same batch as the insert (one transaction). */
  statements?(ctx: ApiContext, id: string, values: Values, extra: Record<string, unknown>): WriteStatement[];
  /** Extra validation of a complete create body (after field validation); returns every problem. */
  validateCreate?(ctx: ApiContext, values: Values, extra: Record<string, unknown>): Promise<FieldError[]>;
  /**
   * True when the database enforces what `validateCreate` checks (a trigger refuses the create's batch, see
   * src/db/rules.ts): the create then does not read first (it stays one round trip) and `validateCreate` only runs to
   * word a refused batch. Without it, `validateCreate` runs before every insert.
   */
  readonly createRuleInDatabase?: boolean;
}

/**
 * What a create checked (or left to its batch's condition), ready to insert: with `definitions`, the insert happens
 * only while the stored definitions are exactly the ones it validated with (create-checks.ts).
 */
interface CheckedCreate {
  readonly custom: CustomValues;
  readonly definitions: CustomDefinitionSet | undefined;
}

/**
 * Checks a create's input. Unless `fresh`, nothing is read from D1: the definitions come from the isolate's cache
 * (the batch's condition checks them) and the tenant reference keys and the entity's rules are left to the
 * database's triggers (src/db/rules.ts), which refuse the batch when one does not hold. Anything the cache would
 * refuse, and every `fresh` attempt, is checked with reads (definitions, reference keys, the entity's rules), so a
 * stale cache never refuses and a refused batch gets the 400 a check words.
 */
async function checkCreate(
  ctx: ApiContext,
  spec: EntitySpec,
  input: CreateInput,
  uses: readonly ReferenceUse[],
  fresh: boolean,
  hooks: CreateOptions,
): Promise<CheckedCreate> {
  // In an atomic group that wrote definitions, they are read as the group leaves them (never kept in the cache).
  const overlay = ctx.tenant.group?.overlay;
  const grouped = overlay !== undefined && overlay.list(customAttributesKind.table).size > 0;
  const cached = spec.customAttributes && !grouped ? findCachedDefinitions(ctx.tenant.scope, spec.name) : undefined;
  if (!fresh && (!spec.customAttributes || cached) && (!hooks.validateCreate || hooks.createRuleInDatabase === true)) {
    const custom = validateCustomValues(input.custom, cached?.definitions ?? [], 'create');
    const unknown = await findUnknownStandardReferences(ctx.tenant, uses);
    if (custom.errors.length === 0 && unknown.length === 0) {
      return { custom: custom.values, definitions: cached };
    }
  }
  const set = !spec.customAttributes
    ? undefined
    : grouped
      ? await loadCustomDefinitionRows(ctx.tenant, spec.name, overlay)
      : await loadFreshDefinitions(ctx.tenant, spec.name);
  const custom = validateCustomValues(input.custom, set?.definitions ?? [], 'create');
  if (custom.errors.length > 0) throw validationError(custom.errors);
  if (uses.length > 0) await checkReferencesExist(ctx.tenant, uses, ctx.tenant.group?.overlay);
  const hookErrors = (await hooks.validateCreate?.(ctx, input.values, input.extra)) ?? [];
  if (hookErrors.length > 0) throw validationError(hookErrors);
  // The reads passed; the batch still checks that nothing changed since (a concurrent write).
  return { custom: custom.values, definitions: set };
}

/** Attempts of a create whose batch finds its checks outdated (each one re-reads what it checks). */
const CREATE_ATTEMPTS = 3;

/**
 * A create is one D1 round trip: its checks against stored data travel in the insert's batch, the definitions as its
 * condition (create-checks.ts), references and cross-row rules as the database's triggers (src/db/rules.ts). When
 * the condition refuses, everything is read afresh (400 for what is wrong) and tried again; when a rule refuses, the
 * checks read afresh word the 400, else the rule's own 400 answers.
 */
export async function handleCreate(ctx: ApiContext, store: EntityStore, options: CreateOptions = {}): Promise<Answer<201, string>> {
  const { spec } = store;
  // Instance annotations (`@odata.type`), which OData clients may send, are not properties.
  const body = dropAnnotations(await readJsonBody(ctx.request, options.body));
  const input = parseCreateBody(spec, body, {
    ...(options.extraProperties ? { extraProperties: options.extraProperties } : {}),
    ...(options.validateExtra ? { validateExtra: options.validateExtra } : {}),
    isActive: true,
  });
  const prepared = (await options.prepare?.(ctx, input.values, input.extra)) ?? {};
  const uses = [...collectReferenceUses(spec, input.values), ...(prepared.uses ?? [])];
  const id = crypto.randomUUID();
  // The session's audit stamp (the request's clock and subject) and scope are added to the row on commit.
  const unit = ctx.tenant;
  const repository = openEntityRepository(unit, store);
  for (let attempt = 1; ; attempt += 1) {
    const checked = await checkCreate(ctx, spec, input, uses, attempt > 1, options);
    const row = {
      id,
      ...input.values,
      ...(spec.customAttributes ? { customAttributes: JSON.stringify(checked.custom) } : {}),
      // isActive may be given on create (default true).
      isActive: input.values.isActive !== false,
    };
    const extra = options.statements?.(ctx, id, input.values, input.extra) ?? [];
    try {
      // A rule the database refuses (a reference, the entity's rules) is worded by the checks, read afresh.
      await writeUnderRules(
        () =>
          commitAlone(unit, (batch) =>
            repository.stageCreate(batch, {
              row,
              extra,
              definitions: checked.definitions,
              recheck: () => checkCreate(ctx, spec, input, uses, true, options),
              rulePaths: uses.map((use) => use.path),
            }),
          ),
        () => checkCreate(ctx, spec, input, uses, true, options),
        uses.map((use) => use.path),
      );
      return createdResponse(id, `${ctx.apiBase}${spec.basePath}/${id}`);
    } catch (error) {
      if (!isRefusedInsert(store, error) || attempt >= CREATE_ATTEMPTS) throw error;
    }
  }
}
