/** valibot schemas of the operator API's answers (they type what src/admin/routes.ts answers). */
import * as v from 'valibot';
import { DATE_TIME, INTEGER } from '../openapi/values';

export const DatabasesAnswer = v.strictObject({
  items: v.array(v.strictObject({ database: v.string(), placements: INTEGER, closedOn: v.nullable(v.string()) })),
});

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
