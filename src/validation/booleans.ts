/** Booleans on input: `true`/`false`, and `1`/`0` as the product family's clients send them; nothing else. */
import * as v from 'valibot';

/** A boolean input; `message` (an issue message) for anything else. */
export function buildBooleanSchema(message: string) {
  return v.pipe(
    v.union([v.boolean(), v.literal(1), v.literal(0)], message),
    v.transform((value) => value === true || value === 1),
  );
}
