import { describe, expect, it } from 'vitest';
import { formatMessage } from '../../src/messages/catalogue';
import { checkTemplateSyntax, parseTemplate, renderTemplate } from '../../src/services/email-templates/placeholders';
import type { ParsedTemplate } from '../../src/services/email-templates/placeholders';

function parsed(text: string): ParsedTemplate {
  const result = parseTemplate('notificationBody', text);
  if (!result.ok) throw new Error(formatMessage(result.problem, 'en-US'));
  return result.template;
}

const values = (entries: Record<string, string>) => new Map(Object.entries(entries).map(([name, value]) => [name.toLowerCase(), value]));

describe('parseTemplate', () => {
  it('lists the names once, case-insensitively, as first written', () => {
    expect(parsed('Hi {{Name}}, route {{ routeKey }} for {{name}} on {{date}}').names).toEqual(['Name', 'routeKey', 'date']);
    expect(parsed('no placeholders, a single { brace and }} closing').names).toEqual([]);
  });

  it.each([
    ['{{#items}}x{{/items}}', 'placeholderUnsupported', '{{#items}}'],
    ['{{^items}}x{{/items}}', 'placeholderUnsupported', '{{^items}}'],
    ['{{> partial}}', 'placeholderUnsupported', '{{> partial}}'],
    ['{{! comment }}', 'placeholderUnsupported', '{{! comment }}'],
    ['{{{raw}}}', 'placeholderUnsupported', '{{{raw}}}'],
    ['{{&raw}}', 'placeholderUnsupported', '{{&raw}}'],
    ['{{=<% %>=}}', 'placeholderUnsupported', '{{=<% %>=}}'],
    ['{{a.b}}', 'placeholderUnsupported', '{{a.b}}'],
    ['{{.}}', 'placeholderUnsupported', '{{.}}'],
    ['{{}}', 'placeholderUnsupported', '{{}}'],
    ['{{route key}}', 'placeholderUnsupported', '{{route key}}'],
    ['{{1st}}', 'placeholderUnsupported', '{{1st}}'],
    ['Hello {{name', 'placeholderUnclosed', undefined],
    ['{{/items}}', 'placeholderUnsupported', 'a section (items)'],
    ['{{#a}}x', 'placeholderUnsupported', 'a section (a)'],
  ])('refuses %s', (text, key, tag) => {
    const problem = checkTemplateSyntax('subject', text);
    expect(problem?.key).toBe(key);
    expect(problem?.params.field).toBe('subject');
    if (tag !== undefined) expect(problem?.params.tag).toBe(tag);
  });

  it('says where the unsupported tag is (1-based)', () => {
    expect(checkTemplateSyntax('subject', 'ab{{#x}}{{/x}}')?.params.position).toBe(3);
  });
});

describe('renderTemplate', () => {
  it('renders names case-insensitively; a name without a value renders empty', () => {
    const template = parsed('Route {{RouteKey}} on {{date}}{{missing}}.');
    expect(renderTemplate(template, values({ routekey: 'R1', date: '05/03/2026' }), 'none')).toBe('Route R1 on 05/03/2026.');
  });

  it('escapes values for HTML and leaves the template text alone', () => {
    const template = parsed('<p>{{v}} & more</p>');
    expect(renderTemplate(template, values({ v: `<b>"Tom" & 'Jerry'</b>` }), 'html')).toBe(
      '<p>&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt; & more</p>',
    );
    expect(renderTemplate(template, values({ v: '<b>x</b>' }), 'none')).toBe('<p><b>x</b> & more</p>');
  });

  it('never parses a value as a template', () => {
    const template = parsed('{{a}}|{{b}}');
    for (const escaping of ['html', 'none'] as const) {
      expect(renderTemplate(template, values({ a: '{{b}}', b: '{{#a}}x{{{a}}}' }), escaping)).toBe('{{b}}|{{#a}}x{{{a}}}');
    }
  });

  it('reads only the given values, never inherited properties', () => {
    const template = parsed('[{{constructor}}][{{toString}}][{{__proto__}}][{{hasOwnProperty}}]');
    expect(renderTemplate(template, new Map(), 'none')).toBe('[][][][]');
    expect(renderTemplate(template, values({ constructor: 'c' }), 'none')).toBe('[c][][][]');
  });
});
