/**
 * Keys of the standard lists compare case-insensitively: input in any case is written in the list's canonical
 * spelling before it is checked, stored or answered. Cultures are BCP 47 language tags (case-insensitive by
 * definition, RFC 5646 2.1.1: `PT-pt` is `pt-PT`); currencies are ISO 4217 codes (`eur` is `EUR`). Pure.
 */

/**
 * A BCP 47 tag in its conventional case: language lowercase, a 4-letter script titlecase (`Hant`), a 2-letter
 * region uppercase, everything else (numeric regions, variants, extensions after a singleton) lowercase.
 */
export function canonicalizeCultureKey(key: string): string {
  let extension = false;
  return key
    .split('-')
    .map((subtag, index) => {
      const lower = subtag.toLowerCase();
      if (index === 0 || extension) return lower;
      if (lower.length === 1) {
        extension = true;
        return lower;
      }
      if (/^[a-z]{2}$/.test(lower)) return lower.toUpperCase();
      if (/^[a-z]{4}$/.test(lower)) return `${lower.charAt(0).toUpperCase()}${lower.slice(1)}`;
      return lower;
    })
    .join('-');
}

/** An ISO 4217 code in upper case. */
export function canonicalizeCurrencyKey(key: string): string {
  return key.toUpperCase();
}
