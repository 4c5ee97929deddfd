/** valibot schemas of the operator API's answers (they type what src/admin/routes.ts answers). */
import * as v from 'valibot';
import { DATE_TIME, INTEGER } from '../openapi/values';

/** A tenant database: how many tenant/orgs it holds, and since when a drain closed it to new ones (null: open). */
export const DatabaseAnswer = v.strictObject({ database: v.string(), placements: INTEGER, closedOn: v.nullable(v.string()) });

export const DatabasesAnswer = v.strictObject({ items: v.array(DatabaseAnswer) });

export const PlacementAnswer = v.strictObject({
  tenantKey: v.string(),
  orgKey: v.string(),
  database: v.string(),
  rows: INTEGER,
  placedOn: DATE_TIME,
  movedOn: v.nullable(DATE_TIME),
  epoch: INTEGER,
  move: v.nullable(v.strictObject({ database: v.string(), startedOn: DATE_TIME })),
});

export const PlacementPageAnswer = v.strictObject({
  items: v.array(PlacementAnswer),
  nextPageLink: v.optional(v.pipe(v.string(), v.url())),
});
