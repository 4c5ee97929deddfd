/**
 * The placeholder syntax of email templates, parsed by Mustache (logic-less, pure JavaScript: the same in Workers and
 * Deno). A template is text with placeholders `{{name}}`: a name is letters, digits and `_`, starting with a letter or
 * `_`, with optional spaces inside the braces (`{{ name }}`), and names compare case-insensitively (`{{RouteKey}}` is
 * `{{routeKey}}`). Everything else Mustache knows (sections, inverted sections, partials, comments, unescaped
 * `{{{ }}}` / `{{& }}`, delimiter changes, dotted names) is refused as unsupported, so a template means the same to
 * every integrator. Rendered by this module (the placeholders are the only tags), bounded and escaped by context. Pure.
 */
import Mustache from 'mustache';
import { message } from '../../messages/catalogue';
import { findPlaceholderContexts, keepSafeUrl } from './html-contexts';
import type { PlaceholderContext } from './html-contexts';
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

export type ParseResult = { readonly ok: true; readonly template: ParsedTemplate } | { readonly ok: false; readonly problem: Message };

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
 * The tokens Mustache would give a template whose every tag is a placeholder `{{ name }}`, found by searching for the
 * tags (Mustache's parser steps through the text a character at a time: about a second for a body of 512 Ki
 * characters, on every render); undefined for any other template (another tag, an unclosed one), left to Mustache.
 */
function scanPlaceholders(text: string): Token[] | undefined {
  const tokens: Token[] = [];
  let position = 0;
  for (let open = text.indexOf('{{'); open !== -1; open = text.indexOf('{{', position)) {
    const close = text.indexOf('}}', open + 2);
    if (close === -1) return undefined;
    const inner = text.slice(open + 2, close);
    const name = inner.trim();
    if (inner.includes('{') || !NAME.test(name)) return undefined;
    if (open > position) tokens.push(['text', text.slice(position, open), position, open]);
    tokens.push(['name', name, open, close + 2]);
    position = close + 2;
  }
  if (position < text.length) tokens.push(['text', text.slice(position), position, text.length]);
  return tokens;
}

/**
 * Checks a template's syntax (`field` names it in the problem): its tokens and names, or the first problem. Parsed by
 * a Writer of its own, so no template is kept in Mustache's global cache.
 */
export function parseTemplate(field: string, text: string): ParseResult {
  let raw: Token[];
  try {
    raw = scanPlaceholders(text) ?? (new Mustache.Writer().parse(text) as Token[]);
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
 * The HTML escape of a value in element content or a quoted attribute. Mustache's default also turns `/`, `=` and
 * `` ` `` into entities, which is no safer there, but writes every date of a route (`26/11/2026`) as
 * `26&#x2F;11&#x2F;2026`, in the subject too.
 */
function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => HTML_ENTITIES[character] ?? character);
}

/** Inside a tag but not in a quoted value: every character but `[A-Za-z0-9_.:/-]` as a character reference. */
function escapeInTag(value: string): string {
  return value.replace(/[^A-Za-z0-9_.:/-]/g, (character) => `&#x${(character.codePointAt(0) ?? 0).toString(16)};`);
}

const ESCAPES: Readonly<Record<PlaceholderContext, (value: string) => string>> = {
  text: escapeHtml,
  url: (value) => escapeHtml(keepSafeUrl(value)),
  tag: escapeInTag,
  'url-tag': (value) => escapeInTag(keepSafeUrl(value)),
};

/** The placeholders' HTML contexts of a parsed template, found once (a parsed template may be kept: parsed-cache.ts). */
const contextsOf = new WeakMap<ParsedTemplate, readonly PlaceholderContext[]>();

function readContexts(template: ParsedTemplate): readonly PlaceholderContext[] {
  let contexts = contextsOf.get(template);
  if (!contexts) {
    contexts = findPlaceholderContexts(template.tokens);
    contextsOf.set(template, contexts);
  }
  return contexts;
}

/** The most characters a render answers: its subject and body together (docs/api-reference.md, "Limits"). */
export const MAX_RENDERED_CHARS = 1024 * 1024;

/** A render that would answer more than MAX_RENDERED_CHARS: stopped before it is built. */
export class RenderTooLarge extends Error {
  constructor() {
    super(`The rendered template would exceed ${MAX_RENDERED_CHARS} characters.`);
    this.name = 'RenderTooLarge';
  }
}

/**
 * Renders a parsed template with `values` (by lower-cased name; a name without a value renders empty), its length
 * counted against `budget` (characters left of MAX_RENDERED_CHARS) before the text is built: past it, RenderTooLarge.
 * Values are inserted once, never parsed as templates: a value holding `{{x}}` or markup stays text. HTML templates
 * escape each value for where it stands (src/services/email-templates/html-contexts.ts): element content and quoted
 * attributes as HTML, a URL attribute's start as a safe URL too, the inside of a tag strictly.
 */
export function renderTemplate(
  template: ParsedTemplate,
  values: ReadonlyMap<string, string>,
  escaping: Escaping,
  budget: { left: number } = { left: MAX_RENDERED_CHARS },
): string {
  const contexts = escaping === 'html' ? readContexts(template) : [];
  const escaped = new Map<string, string>();
  const pieces: string[] = [];
  let length = 0;
  let placeholder = 0;
  for (const [type, text] of template.tokens) {
    let piece = text;
    if (type === 'name') {
      const context = contexts[placeholder] ?? 'text';
      placeholder += 1;
      const key = `${context}:${text}`;
      piece = escaped.get(key) ?? (escaping === 'html' ? ESCAPES[context](values.get(text) ?? '') : (values.get(text) ?? ''));
      escaped.set(key, piece);
    }
    length += piece.length;
    if (length > budget.left) throw new RenderTooLarge();
    pieces.push(piece);
  }
  budget.left -= length;
  return pieces.join('');
}
