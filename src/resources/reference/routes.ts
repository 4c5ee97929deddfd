/** `GET|PUT /referenceData/{kind}` and `DELETE /referenceData/{kind}/{key}`. */
import type { Database } from '../../db/client';
import { writeUnderRules } from '../../db/rules';
import type { TenantScope } from '../../db/client';
import { readJsonBody } from '../../http/body';
import { openRequestUnit } from '../../http/context';
import type { ApiContext } from '../../http/context';
import { ApiError, recordNotFound } from '../../errors/api-error';
import type { FieldError } from '../../errors/api-error';
import { defineApiRoute } from '../../http/route';
import type { ApiRoute } from '../../http/route';
import { reactAfterWrite } from '../../http/write-reaction';
import type { WriteReaction } from '../../http/write-reaction';
import { emptyResponse, jsonResponse } from '../../http/responses';
import { findReferenceKind, REFERENCE_KINDS } from './kinds';
import { referenceDeleteDoc, referenceListDoc, referenceUpsertDoc } from './docs';
import type { ReferenceInput, ReferenceKindSpec } from './spec';
import { checkReferencesExist, listReferenceRecords } from './store';
import type { ReferenceUse } from './store';
import { parseReferenceRecords } from './validate';
import { stageReferenceDelete, stageReferenceUpsert } from './write';
import type { GroupOverlay } from '../../tenant/atomic-group';
import { commitAlone } from '../../tenant/unit-of-work';
import { checkReferenceUnused, listKindReferenceUsers } from './usage';
import type { ReferenceUser } from './usage';

/**
 * A service's rule on upserts of a kind it depends on (e.g. a route member's company may not change while it
 * is in a route of that company). Returns every problem, paths like `[3].company`; any problem refuses the whole request.
 */
export type UpsertGuard = (
  db: Database,
  scope: TenantScope,
  kind: string,
  records: readonly ReferenceInput[],
  /** In an atomic group of `$batch`: the group's records, whose writes the rule sees. */
  overlay?: GroupOverlay,
) => Promise<FieldError[]>;

/** A service's reaction to a write (upsert or delete) of a kind it depends on, before the write is answered. */
export interface ReferenceWriteReaction {
  readonly kind: string;
  readonly react: WriteReaction;
}

/** What services contribute to the reference data routes (and to reference file imports, src/services/imports/). */
export interface ReferenceRules {
  /** Columns of services' tables that hold reference keys (a record in use cannot be deleted). */
  readonly users: readonly ReferenceUser[];
  readonly guards: readonly UpsertGuard[];
  readonly reactions: readonly ReferenceWriteReaction[];
}

/** A write of the path's kind, followed by the reactions of the services that depend on that kind. */
function reactToWrite<A extends Response>(ctx: ApiContext, reactions: readonly ReferenceWriteReaction[], write: () => Promise<A>) {
  const relevant = reactions.filter((reaction) => reaction.kind === ctx.params.kind);
  if (relevant.length === 0) return write();
  return reactAfterWrite(ctx, write, async (reacting) => {
    for (const reaction of relevant) await reaction.react(reacting);
  });
}

function parseKind(ctx: ApiContext, writing: boolean): ReferenceKindSpec {
  const spec = findReferenceKind(ctx.params.kind ?? '');
  if (!spec) {
    throw new ApiError(
      'NotFound',
      `Unknown reference data kind '${ctx.params.kind ?? ''}'. Known: ${REFERENCE_KINDS.map((kind) => kind.name).join(', ')}.`,
    );
  }
  if (writing && spec.storage === 'standard') {
    throw new ApiError('MethodNotAllowed', `${spec.name} is a standard read-only list.`, { headers: { allow: 'GET' } });
  }
  return spec;
}

async function handleUpsert(ctx: ApiContext, guards: readonly UpsertGuard[]) {
  const spec = parseKind(ctx, true);
  const records = parseReferenceRecords(spec, await readJsonBody(ctx.request));
  const uses: ReferenceUse[] = [];
  records.forEach((record, index) => {
    for (const [name, field] of Object.entries(spec.fields)) {
      const kind = field.reference;
      if (!kind) continue;
      const value = record[name];
      const keys: unknown[] = Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
      keys.forEach((key, position) => {
        if (typeof key === 'string')
          uses.push({
            kind,
            key,
            path: Array.isArray(value) ? `[${index}].${name}[${position}]` : `[${index}].${name}`,
          });
      });
    }
  });
  const db = ctx.db;
  const check = async () => {
    if (uses.length > 0) await checkReferencesExist(db, ctx.scope, uses, ctx.group?.overlay);
    const problems = (await Promise.all(guards.map((guard) => guard(db, ctx.scope, spec.name, records, ctx.group?.overlay)))).flat();
    if (problems.length > 0) {
      throw new ApiError(
        'ReferenceInUse',
        `The change conflicts with records that use it: ${problems.map((problem) => problem.message).join(' ')}`,
        { errors: problems },
      );
    }
  };
  await check();
  const paths = uses.length > 0 ? uses.map((use) => use.path) : records.map((_, index) => `[${index}]`);
  // The database checks the same rules in the upsert's batch: a concurrent write that broke one is answered as above.
  const unit = openRequestUnit(ctx);
  const upserted = await writeUnderRules(
    () => commitAlone(unit, (batch) => batch.stage(stageReferenceUpsert(spec, records, { recheck: check, rulePaths: paths }))),
    check,
    paths,
  );
  return jsonResponse(referenceUpsertDoc.responses[200].schema, { upserted });
}

async function handleDelete(ctx: ApiContext, users: readonly ReferenceUser[]) {
  const spec = parseKind(ctx, true);
  const key = ctx.params.key ?? '';
  const db = ctx.db;
  const check = () => checkReferenceUnused(db, ctx.scope, spec, key, users, ctx.group?.overlay);
  await check();
  // The database refuses the delete of a record a concurrent write started to use (rule:reference_in_use).
  const unit = openRequestUnit(ctx);
  const deleted = await writeUnderRules(() => commitAlone(unit, (batch) => batch.stage(stageReferenceDelete(spec, key, check))), check, [
    'key',
  ]);
  if (!deleted) throw recordNotFound(`${spec.name} record '${key}'`, true, 'key');
  return emptyResponse(204);
}

const tags = ['Reference data'];

/** The routes of every reference kind; the kinds' own reference fields and the services' `rules` apply. */
export function buildReferenceDataRoutes(rules: ReferenceRules): ApiRoute[] {
  const users = [...rules.users, ...listKindReferenceUsers()];
  return [
    defineApiRoute({
      method: 'GET',
      path: '/referenceData/:kind',
      scope: 'application',
      doc: {
        summary: 'List the reference records of a kind',
        tags,
        operationId: 'listReferenceData',
        ...referenceListDoc,
      },
      handle: async (ctx) =>
        jsonResponse(referenceListDoc.responses[200].schema, {
          items: await listReferenceRecords(ctx.db, parseKind(ctx, false), ctx.scope),
        }),
    }),
    defineApiRoute({
      method: 'PUT',
      path: '/referenceData/:kind',
      scope: 'admin',
      doc: {
        summary: 'Bulk upsert reference records by key (at most 5000, all-or-nothing)',
        tags,
        operationId: 'upsertReferenceData',
        ...referenceUpsertDoc,
      },
      handle: (ctx) => reactToWrite(ctx, rules.reactions, () => handleUpsert(ctx, rules.guards)),
    }),
    defineApiRoute({
      method: 'DELETE',
      path: '/referenceData/:kind/:key',
      scope: 'admin',
      doc: {
        summary: 'Delete a reference record (400 ReferenceInUse while something uses it)',
        tags,
        operationId: 'deleteReferenceData',
        ...referenceDeleteDoc,
      },
      handle: (ctx) => reactToWrite(ctx, rules.reactions, () => handleDelete(ctx, users)),
    }),
  ];
}
