/**
 * Request bodies bind property names case-insensitively, as the product family's JSON binding does (`TemplateKey`,
 * `templatekey` and `templateKey` are one property); answers keep the declared camelCase. Pure.
 */
import type { FieldError } from '../errors/api-error';
import { message } from '../messages/catalogue';

interface BoundProperties {
  /** The body with declared properties under their declared names; other properties as sent. */
  readonly values: Record<string, unknown>;
  /** Two spellings of one property, neither the declared one: each is named. */
  readonly errors: FieldError[];
}

function joinPath(prefix: string, name: string): string {
  return prefix === '' ? name : `${prefix}.${name}`;
}

/**
 * Binds `body`'s properties to the `declared` names: a property spelled exactly as declared wins over other spellings of
 * it (which are then ignored); a property spelled otherwise binds to the declared name it matches case-insensitively;
 * two such spellings of one name (and none exact) are an error naming both. `prefix` is the body's path in the request.
 */
export function bindPropertyNames(body: Readonly<Record<string, unknown>>, declared: readonly string[], prefix = ''): BoundProperties {
  const byLowerCase = new Map(declared.map((name) => [name.toLowerCase(), name]));
  const values: Record<string, unknown> = {};
  const spellings = new Map<string, string[]>();
  for (const [key, value] of Object.entries(body)) {
    const name = declared.includes(key) ? key : byLowerCase.get(key.toLowerCase());
    if (name === undefined) {
      values[key] = value;
      continue;
    }
    spellings.set(name, [...(spellings.get(name) ?? []), key]);
  }
  const errors: FieldError[] = [];
  for (const [name, keys] of spellings) {
    const chosen = keys.includes(name) ? name : keys.length === 1 ? keys[0] : undefined;
    // Ambiguous spellings bind the first one too, so that the answer names the ambiguity, not a missing property.
    values[name] = body[chosen ?? keys[0] ?? name];
    if (chosen !== undefined) continue;
    const names = keys.map((key) => `'${key}'`).join(', ');
    for (const key of keys) errors.push({ path: joinPath(prefix, key), message: message('sameProperty', { names, field: name }) });
  }
  return { values, errors };
}
