/** The `orgs` pattern matcher (issue 13, M6): the same answers as an anchored regex, without backtracking. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkOrgPatterns, matchesOrgPattern } from '../../src/auth/org-patterns';

function matchesByRegex(pattern: string, target: string): boolean {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`, 's').test(target);
}

describe('matchesOrgPattern', () => {
  it('agrees with the anchored regex on small alphabets, where overlaps are frequent', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', '/'), maxLength: 10 });
    const pattern = fc.string({ unit: fc.constantFrom('a', 'b', '/', '*'), maxLength: 8 });
    fc.assert(
      fc.property(pattern, text, (p, t) => {
        expect(matchesOrgPattern(p, t)).toBe(matchesByRegex(p, t));
      }),
      { seed: 13, numRuns: 5000 },
    );
  });

  it('answers the usual patterns', () => {
    expect(matchesOrgPattern('acme/*', 'acme/main')).toBe(true);
    expect(matchesOrgPattern('acme/*', 'acme2/main')).toBe(false);
    expect(matchesOrgPattern('*', 'x/y')).toBe(true);
    expect(matchesOrgPattern('a*a', 'a')).toBe(false);
    expect(matchesOrgPattern('*-eu/main', 'shop-eu/main')).toBe(true);
    expect(matchesOrgPattern('acme/main', 'acme/main')).toBe(true);
  });

  it('finishes at once on patterns that stall a backtracking regex', () => {
    const target = `${'a'.repeat(63)}/${'a'.repeat(63)}`;
    expect(matchesOrgPattern(`${'*a'.repeat(60)}*b`, target)).toBe(false);
    expect(matchesOrgPattern(`${'*a'.repeat(60)}*`, target)).toBe(true);
  });

  it('states the limits', () => {
    expect(checkOrgPatterns(Array.from({ length: 100 }, () => 'x'.repeat(129)))).toBeUndefined();
    expect(checkOrgPatterns(Array.from({ length: 101 }, () => 'x'))).toMatch(/at most 100/);
    expect(checkOrgPatterns(['x'.repeat(130)])).toMatch(/at most 129/);
  });
});
