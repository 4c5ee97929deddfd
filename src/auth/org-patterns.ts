/**
 * `orgs` claim patterns (`acme/*`, `*-eu/main`): `*` matches any run of characters, everything else itself.
 * Matched without regular expressions and without backtracking: the literal pieces between stars are found in
 * order, each at its leftmost place after the previous one (for `*`-only globs the leftmost place is always a
 * right choice), so a match costs at most one scan of the target per piece. Patterns are bounded in number and length.
 */

/** Most patterns a token's `orgs` claim may hold. */
const MAX_ORG_PATTERNS = 100;
/** Longest pattern: enough to name any `tenantKey/orgKey` literally (64 + 1 + 64 characters). */
const MAX_ORG_PATTERN_LENGTH = 129;

/** Why a claim's patterns are refused, or undefined when they are within the limits. */
export function checkOrgPatterns(patterns: readonly string[]): string | undefined {
  if (patterns.length > MAX_ORG_PATTERNS) return `The orgs claim has ${patterns.length} patterns; at most ${MAX_ORG_PATTERNS} are allowed.`;
  const long = patterns.find((pattern) => pattern.length > MAX_ORG_PATTERN_LENGTH);
  if (long !== undefined) return `An orgs pattern has ${long.length} characters; at most ${MAX_ORG_PATTERN_LENGTH} are allowed.`;
  return undefined;
}

/** True when `pattern` (with `*` wildcards) matches the whole of `target`. */
export function matchesOrgPattern(pattern: string, target: string): boolean {
  const middle = pattern.split('*');
  const first = middle.shift() ?? '';
  const last = middle.pop();
  if (last === undefined) return pattern === target;
  if (first.length + last.length > target.length || !target.startsWith(first) || !target.endsWith(last)) return false;
  let position = first.length;
  const end = target.length - last.length;
  for (const piece of middle) {
    if (piece === '') continue;
    const found = target.indexOf(piece, position);
    if (found === -1 || found + piece.length > end) return false;
    position = found + piece.length;
  }
  return true;
}
