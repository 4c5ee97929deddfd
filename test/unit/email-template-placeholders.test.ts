import { describe, expect, it } from 'vitest';
import { formatMessage } from '../../src/messages/catalogue';
import { checkTemplateSyntax, parseTemplate, RenderTooLarge, renderTemplate } from '../../src/services/email-templates/placeholders';
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

describe('placeholder-only templates (found without Mustache)', () => {
  it('give the tokens Mustache gives', async () => {
    const { default: Mustache } = await import('mustache');
    for (const text of ['', 'plain', '{{a}}', 'x{{ a }}y{{B}}}z', '{{a}}{{b}}', 'a { b }} c {{c}}', '{{_x1}} tail  ']) {
      const ours = parsed(text).tokens;
      const theirs = (new Mustache.Writer().parse(text) as [string, string, number, number][]).map(([type, value, start, end]) =>
        type === 'name' ? ['name', value.toLowerCase(), start, end] : [type, value, start, end],
      );
      expect(ours, text).toEqual(theirs);
    }
  });

  it('parse a body of 512 Ki characters in milliseconds', () => {
    const started = performance.now();
    expect(parsed('{{a}}'.repeat(104_000)).tokens).toHaveLength(104_000);
    expect(parsed('Some text. '.repeat(47_000)).tokens).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('rendering bounds and HTML contexts', () => {
  it('stops past the budget before building the text, and counts subject and body together', () => {
    const template = parsed('{{a}}'.repeat(1000));
    expect(() => renderTemplate(template, values({ a: 'x'.repeat(2000) }), 'none', { left: 1_999_999 })).toThrow(RenderTooLarge);
    const budget = { left: 3000 };
    expect(renderTemplate(parsed('{{a}}'), values({ a: 'x'.repeat(2000) }), 'none', budget)).toHaveLength(2000);
    expect(() => renderTemplate(parsed('{{a}}'), values({ a: 'x'.repeat(2000) }), 'none', budget)).toThrow(RenderTooLarge);
  });

  it.each([
    ['<a href="{{u}}">', 'javascript:alert(1)', '<a href="about:invalid">'],
    ['<a href="{{u}}">', ' \u0001jav\nascript:x', '<a href="about:invalid">'],
    ['<a HREF = "{{u}}">', 'DATA:text/html,x', '<a HREF = "about:invalid">'],
    ["<form action='{{u}}'>", 'vbscript:x', "<form action='about:invalid'>"],
    ['<a href="{{u}}">', 'https://a.test/?a=1&b=<2>', '<a href="https://a.test/?a=1&amp;b=&lt;2&gt;">'],
    ['<a href="{{u}}">', 'tel:+351 1', '<a href="tel:+351 1">'],
    ['<a href="{{u}}">', '/relative/path:x', '<a href="/relative/path:x">'],
    ['<a href="/x?{{u}}">', 'javascript:y', '<a href="/x?javascript:y">'],
    ['<a title="{{u}}">', 'javascript:y', '<a title="javascript:y">'],
    ['<a href={{u}}>', 'https://a.test x=1', '<a href=https://a.test&#x20;x&#x3d;1>'],
    ['<a {{u}}>', 'onclick=alert(1)', '<a onclick&#x3d;alert&#x28;1&#x29;>'],
    ['<!-- <a href="{{u}}"> -->', 'javascript:x', '<!-- <a href="javascript:x"> -->'],
    ['<p>{{u}}</p>', 'javascript:x', '<p>javascript:x</p>'],
    ['<svg><a xlink:href="{{u}}">', 'javascript:x', '<svg><a xlink:href="about:invalid">'],
  ])('%s with %j', (text, value, expected) => {
    expect(renderTemplate(parsed(text), values({ u: value }), 'html')).toBe(expected);
  });
});
