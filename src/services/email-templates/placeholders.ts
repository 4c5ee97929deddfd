/**
 * The placeholder syntax of email templates, rendered by Mustache (logic-less, pure JavaScript: the same in Workers and
 * Deno). A template is text with placeholders `{{name}}`: a name is letters, digits and `_`, starting with a letter or
 * `_`, with optional spaces inside the braces (`{{ name }}`), and names compare case-insensitively (`{{RouteKey}}` is
 * `{{routeKey}}`). Everything else Mustache knows (sections, inverted sections, partials, comments, unescaped
 * `{{{ }}}` / `{{& }}`, delimiter changes, dotted names) is refused as unsupported, so a template means the same to
 * every integrator. Pure.
 */
import Mustache from 'mustache';
import { message } from '../../messages/catalogue';
import type { Message } from '../../messages/catalogue';

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** How many characters of a refused tag a message quotes. */
const QUOTED_TAG_MAX = 40;

/** Mustache's token: `[type, value, start, end, ...]` (`text`: the text; `name`: the trimmed name). */
type Token = [string, string, number, number, ...unknown[]];

/** A template whose syntax was checked: its tokens (names lower-cased) and the names it uses, as first written. */
export interface ParsedTemplate {
  readonly text: string;
  readonly tokens: readonly Token[];
  /** Distinct names (case-insensitively), in order of first use, spelled as first written. */
  readonly names: readonly string[];
}

type ParseResult = { readonly ok: true; readonly template: ParsedTemplate } | { readonly ok: false; readonly problem: Message };

function quoteTag(text: string, token: Token): string {
  const tag = text.slice(token[2], token[3]);
  return tag.length > QUOTED_TAG_MAX ? `${tag.slice(0, QUOTED_TAG_MAX)}…` : tag;
}

/** Mustache's own parse error, as a field message. */
function describeParseError(field: string, error: unknown): Message {
  const reason = error instanceof Error ? error.message : String(error);
  if (/^Unclosed tag at \d+$/.test(reason)) return message('placeholderUnclosed', { field });
  const section = /^(?:Unclosed|Unopened) section "(.*)" at (\d+)$/s.exec(reason);
  if (section) {
    const [, name = '', at = '0'] = section;
    return message('placeholderUnsupported', { field, tag: `a section (${name})`, position: Number(at) + 1 });
  }
  return message('placeholderSyntax', { field, reason });
}

/**
 * Checks a template's syntax (`field` names it in the problem): its tokens and names, or the first problem. Parsed by
 * a Writer of its own, so no template is kept in Mustache's global cache.
 */
export function parseTemplate(field: string, text: string): ParseResult {
  let raw: Token[];
  try {
    raw = new Mustache.Writer().parse(text) as Token[];
  } catch (error) {
    return { ok: false, problem: describeParseError(field, error) };
  }
  const tokens: Token[] = [];
  const names = new Map<string, string>();
  for (const token of raw) {
    const [type, value] = token;
    if (type === 'text') {
      tokens.push(token);
      continue;
    }
    if (type !== 'name' || !NAME.test(value)) {
      return { ok: false, problem: message('placeholderUnsupported', { field, tag: quoteTag(text, token), position: token[2] + 1 }) };
    }
    const lower = value.toLowerCase();
    if (!names.has(lower)) names.set(lower, value);
    tokens.push(['name', lower, token[2], token[3]]);
  }
  return { ok: true, template: { text, tokens, names: [...names.values()] } };
}

/** The problem with a template's syntax, if any (create and attribute PUTs check `subject` and `notificationBody`). */
export function checkTemplateSyntax(field: string, text: string): Message | undefined {
  const result = parseTemplate(field, text);
  return result.ok ? undefined : result.problem;
}

/** HTML: `& < > " '` become entities (the characters that can open markup or end a quoted attribute). Text: values as given. */
type Escaping = 'html' | 'none';

const HTML_ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * The HTML escape handed to Mustache (its `escape` option, per render). Mustache's default also turns `/`, `=` and
 * `` ` `` into entities, which is no safer inside element content or a quoted attribute, but writes every date of a
 * route (`26/11/2026`) as `26&#x2F;11&#x2F;2026`, in the subject too.
 */
function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (character) => HTML_ENTITIES[character] ?? character);
}

const ESCAPES: Readonly<Record<Escaping, (value: unknown) => string>> = {
  html: escapeHtml,
  none: (value) => String(value),
};

/**
 * Renders a parsed template with `values` (by lower-cased name; a name without a value renders empty). Values are
 * inserted once, never parsed as templates: a value holding `{{x}}` or markup stays text (escaped for HTML).
 */
export function renderTemplate(template: ParsedTemplate, values: ReadonlyMap<string, string>, escaping: Escaping): string {
  // A view without a prototype: names such as `constructor` or `toString` are only ever the caller's values.
  const view: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of values) view[name] = value;
  const writer = new Mustache.Writer();
  // The typings call tokens string[][]; they are Mustache's own tokens (positions are numbers).
  return writer.renderTokens(template.tokens as unknown as string[][], new Mustache.Context(view), undefined, template.text, {
    escape: ESCAPES[escaping],
  });
}
