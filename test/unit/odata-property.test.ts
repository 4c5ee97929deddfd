/** Property-based checks of the pure parser and compiler (fast-check). */
import { SQLiteAsyncDialect } from 'drizzle-orm/sqlite-core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listODataFields } from '../../src/resources/entities/odata-fields';
import { ApiError } from '../../src/errors/api-error';
import { compileODataQuery } from '../../src/odata/compile';
import { escapeGlob } from '../../src/odata/glob';
import { parseODataQuery } from '../../src/odata/parse-query';
import { canonicalizeCultureKey } from '../../src/resources/reference/standard-keys';
import { emailTemplateSpec } from '../../src/services/email-templates/entity';
import { quote, validFilter, validOrderBy } from '../helpers/odata-arbitraries';

const FIELDS = listODataFields(emailTemplateSpec);
const dialect = new SQLiteAsyncDialect();

function compileFilter(filter: string) {
  const query = parseODataQuery(new URLSearchParams({ $filter: filter }), FIELDS);
  const compiled = compileODataQuery(query);
  if (!compiled.where) throw new Error('no where');
  return dialect.sqlToQuery(compiled.where);
}

describe('properties', () => {
  it('every generated valid filter and order parses and compiles', () => {
    fc.assert(
      fc.property(validFilter, validOrderBy, (filter, orderBy) => {
        const query = parseODataQuery(new URLSearchParams({ $filter: filter, $orderby: orderBy }), FIELDS);
        const compiled = compileODataQuery(query);
        expect(compiled.where).toBeDefined();
        expect(dialect.sqlToQuery(compiled.where ?? compiled.orderBy).params).toHaveLength(compiled.parameters);
      }),
      { numRuns: 500, seed: 20260301 },
    );
  });

  it('a string literal never changes the SQL text, only the bound values', () => {
    const shape = (text: string) =>
      `subject eq ${quote(text)} or contains(description, ${quote(text)}) or culture in (${quote(text)}, 'x')`;
    const baseline = compileFilter(shape('plain')).sql;
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => {
        const { sql, params } = compileFilter(shape(text));
        expect(sql).toBe(baseline);
        // A literal compared with culture (a case-insensitive key) is bound in the key's canonical spelling.
        expect(params).toEqual([text, `*${escapeGlob(text)}*`, canonicalizeCultureKey(text), 'x']);
      }),
      { numRuns: 500, seed: 20260301 },
    );
  });

  it('any text as $filter either parses or is refused with InvalidODataQuery, never another error', () => {
    const alphabet = fc.constantFrom(..."abcdeqnotrsuliyADE()', -_.:0123456789TZ$@%*".split(''));
    const noise = fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ unit: alphabet, maxLength: 60 }));
    const mutated = fc.tuple(validFilter, fc.nat(), noise).map(([filter, at, text]) => {
      const index = at % (filter.length + 1);
      return filter.slice(0, index) + text + filter.slice(index);
    });
    fc.assert(
      fc.property(fc.oneof(noise, mutated), (filter) => {
        try {
          compileODataQuery(parseODataQuery(new URLSearchParams({ $filter: filter }), FIELDS));
        } catch (error) {
          expect(error).toBeInstanceOf(ApiError);
          expect((error as ApiError).code).toBe('InvalidODataQuery');
          expect((error as ApiError).message).toMatch(/^\$filter/);
        }
      }),
      { numRuns: 1000, seed: 20260301 },
    );
  });
});
