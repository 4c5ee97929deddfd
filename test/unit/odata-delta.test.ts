/** The pure parts of change tracking on the standard root (src/odata-service/delta.ts). */
import { describe, expect, it } from 'vitest';
import { asksTrackChanges, buildChangedFilter, buildDeltaLink, countRecordsPerPage, readDeltaToken } from '../../src/odata-service/delta';

describe('change tracking options', () => {
  it('reads odata.track-changes among other preferences, in any case', () => {
    expect(asksTrackChanges('odata.track-changes')).toBe(true);
    expect(asksTrackChanges('odata.maxpagesize=10, Odata.Track-Changes')).toBe(true);
    expect(asksTrackChanges('return=minimal')).toBe(false);
    expect(asksTrackChanges(null)).toBe(false);
    expect(readDeltaToken(new URLSearchParams('$DeltaToken=x'))).toBe('x');
  });

  it('keeps $filter, $select, $expand and $format in the delta link, never $top, $skip, $orderby or $count', () => {
    const params = new URLSearchParams("$filter=culture eq 'en-US'&$top=5&$skip=2&$orderby=subject&$count=true&$select=subject&$expand=x");
    const link = new URL(buildDeltaLink('https://api.test/odata/t/o/', 'emailTemplates', params, 7));
    expect(link.pathname).toBe('/odata/t/o/emailTemplates');
    expect([...link.searchParams.keys()]).toEqual(['$filter', '$select', '$expand', '$deltatoken']);
  });

  it('reads as many records per page as the filter length and D1 parameters leave room for', () => {
    expect(countRecordsPerPage(undefined)).toBe(40);
    expect(countRecordsPerPage("culture eq 'en-US'")).toBe(40);
    expect(countRecordsPerPage(Array.from({ length: 30 }, (_, index) => `subject eq 's${index}'`).join(' or '))).toBeLessThan(10);
    expect(countRecordsPerPage('x'.repeat(8150))).toBe(1);
    expect(buildChangedFilter(undefined, ['a', 'b'])).toBe('id in (a,b)');
    expect(buildChangedFilter("culture eq 'x' or isActive", ['a'])).toBe("(culture eq 'x' or isActive) and id in (a)");
  });
});
