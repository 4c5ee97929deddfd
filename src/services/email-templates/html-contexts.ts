/**
 * Where each placeholder of an HTML template stands, read from the template's own text by a small HTML tokenizer
 * (states of the WHATWG tokenizer that matter here): element content or a quoted attribute value (`text`: HTML
 * escaping is enough), the start of a URL attribute's value (`url`: `href="{{link}}"`, the value must also be a safe
 * URL), or inside a tag but not in a quoted value (`tag`: a tag name, an attribute name, an unquoted value; every
 * character but letters, digits, `-`, `_`, `.`, `:` and `/` becomes a character reference, so a value cannot add an
 * attribute). Pure.
 */

export type PlaceholderContext = 'text' | 'url' | 'tag' | 'url-tag';

/** Attributes whose value is a URL a browser may navigate to or load (HTML, SVG's xlink:href). */
const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'action',
  'formaction',
  'xlink:href',
  'data',
  'background',
  'cite',
  'poster',
  'longdesc',
  'codebase',
  'manifest',
  'srcset',
  'ping',
]);

type State =
  'data' | 'tagOpen' | 'tagName' | 'beforeName' | 'name' | 'afterName' | 'beforeValue' | 'quoted' | 'unquoted' | 'comment' | 'bogus';

/** The tokenizer's state between the template's texts, and what it knows of the attribute being read. */
class HtmlScan {
  state: State = 'data';
  private attribute = '';
  private quote = '';
  /** The attribute's value has no character yet (a placeholder there starts it). */
  private valueEmpty = true;
  private tail = '';

  /** Reads a text of the template (between placeholders). */
  read(text: string): void {
    for (const char of text) this.step(char);
  }

  /** The context of a placeholder here; the placeholder's value then counts as characters of that place. */
  place(): PlaceholderContext {
    const url = URL_ATTRIBUTES.has(this.attribute) && this.valueEmpty;
    let context: PlaceholderContext;
    if (this.state === 'quoted') context = url ? 'url' : 'text';
    else if (this.state === 'beforeValue' || this.state === 'unquoted') context = url ? 'url-tag' : 'tag';
    else if (this.state === 'data' || this.state === 'comment' || this.state === 'bogus') context = 'text';
    else context = 'tag';
    if (this.state === 'beforeValue') this.state = 'unquoted';
    else if (this.state === 'tagOpen') this.state = 'tagName';
    else if (this.state === 'beforeName' || this.state === 'afterName') this.startName('');
    this.valueEmpty = false;
    this.tail = '';
    return context;
  }

  private startName(char: string): void {
    this.state = 'name';
    this.attribute = char.toLowerCase();
  }

  private step(char: string): void {
    const space = /\s/.test(char);
    switch (this.state) {
      case 'data':
        if (char === '<') this.state = 'tagOpen';
        return;
      case 'tagOpen':
        this.tail = `<${char}`;
        if (/[A-Za-z]/.test(char)) this.state = 'tagName';
        else if (char === '/') this.state = 'tagName';
        else if (char === '!' || char === '?') this.state = 'bogus';
        else this.state = char === '<' ? 'tagOpen' : 'data';
        return;
      case 'tagName':
      case 'beforeName':
      case 'afterName':
        return this.stepInTag(char, space);
      case 'name':
        if (char === '=') this.enterValue();
        else if (space) this.state = 'afterName';
        else if (char === '>') this.state = 'data';
        else if (char === '/') this.state = 'beforeName';
        else this.attribute += char.toLowerCase();
        return;
      case 'beforeValue':
        if (space) return;
        if (char === '"' || char === "'") {
          this.quote = char;
          this.state = 'quoted';
        } else if (char === '>') this.state = 'data';
        else {
          this.state = 'unquoted';
          this.valueEmpty = false;
        }
        return;
      case 'quoted':
        if (char === this.quote) this.state = 'beforeName';
        else if (!space || !this.valueEmpty) this.valueEmpty = false;
        return;
      case 'unquoted':
        if (space) this.state = 'beforeName';
        else if (char === '>') this.state = 'data';
        return;
      case 'comment':
        this.tail = (this.tail + char).slice(-3);
        if (this.tail === '-->') this.state = 'data';
        return;
      case 'bogus':
        this.tail = (this.tail + char).slice(-4);
        if (this.tail === '<!--') {
          this.state = 'comment';
          this.tail = '';
        } else if (char === '>') this.state = 'data';
        return;
    }
  }

  private stepInTag(char: string, space: boolean): void {
    if (char === '>') this.state = 'data';
    else if (space || char === '/')
      this.state = this.state === 'tagName' ? 'beforeName' : this.state === 'afterName' ? 'afterName' : 'beforeName';
    else if (this.state === 'tagName') return;
    else if (char === '=' && this.state === 'afterName') this.enterValue();
    else this.startName(char);
  }

  private enterValue(): void {
    this.state = 'beforeValue';
    this.valueEmpty = true;
  }
}

/** Placeholder token: `['name', name, start, end]`; any other token is text (`['text', text, ...]`). */
type Token = readonly [string, string, ...unknown[]];

/** The context of each placeholder token of an HTML template, in order. */
export function findPlaceholderContexts(tokens: readonly Token[]): PlaceholderContext[] {
  const scan = new HtmlScan();
  const contexts: PlaceholderContext[] = [];
  for (const [type, value] of tokens) {
    if (type === 'name') contexts.push(scan.place());
    else scan.read(value);
  }
  return contexts;
}

/** URL schemes a placeholder may start a URL attribute with; any other scheme becomes `about:invalid`. */
const SAFE_SCHEMES = new Set(['http', 'https', 'mailto', 'tel']);

/**
 * A URL value as it may start a URL attribute: relative URLs and http, https, mailto and tel as they are; another
 * scheme (`javascript:`, `data:`, `vbscript:`..., found as a browser would: ignoring spaces and control characters)
 * becomes `about:invalid`.
 */
export function keepSafeUrl(value: string): string {
  // eslint-disable-next-line no-control-regex
  const probe = value.replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(probe)?.[1];
  return scheme === undefined || SAFE_SCHEMES.has(scheme.toLowerCase()) ? value : 'about:invalid';
}
