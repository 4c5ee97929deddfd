/** Literal path segments (modules, resources, operations, attributes) match case-insensitively; keys and ids do not. */

/** The name among `names` that `segment` spells, in any case; undefined when it names none. */
export function matchLiteralSegment<T extends string>(names: readonly T[], segment: string): T | undefined {
  const wanted = segment.toLowerCase();
  return names.find((name) => name.toLowerCase() === wanted);
}
