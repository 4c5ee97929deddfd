/** The languages of the API's messages, and the one an `Accept-Language` header asks for. Pure. */

export const LANGUAGES = ['en-US', 'pt-PT', 'es-ES'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en-US';

/** Any region of a language we speak gets our variant of it (`pt-BR`, `pt` -> pt-PT; `es-MX` -> es-ES; `en-GB` -> en-US). */
const BY_PRIMARY: Readonly<Record<string, Language>> = { en: 'en-US', pt: 'pt-PT', es: 'es-ES' };

/**
 * The best language for an `Accept-Language` header (RFC 9110 12.5.4): ranges by descending `q` (equal `q`: in the
 * order sent), `q=0` excluded; a range matches its exact language, else the primary language; `*` or nothing: en-US.
 */
export function negotiateLanguage(header: string | null | undefined): Language {
  if (!header) return DEFAULT_LANGUAGE;
  const ranges = header
    .split(',')
    .map((part, order) => {
      const [tag = '', ...parameters] = part.trim().split(';');
      const q = parameters
        .map((parameter) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(parameter)?.[1])
        .find((value) => value !== undefined);
      return { tag: tag.trim().toLowerCase(), q: q === undefined ? 1 : Number(q), order };
    })
    .filter((range) => range.tag !== '' && range.q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order);
  for (const { tag } of ranges) {
    if (tag === '*') return DEFAULT_LANGUAGE;
    const exact = LANGUAGES.find((language) => language.toLowerCase() === tag);
    if (exact) return exact;
    const primary = BY_PRIMARY[tag.split('-')[0] ?? ''];
    if (primary) return primary;
  }
  return DEFAULT_LANGUAGE;
}
