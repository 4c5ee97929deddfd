/**
 * Parsed templates kept per isolate (a render parses its template's subject and body; a `$batch` of renders of one
 * large template parsed it once per request): by record id and field, a hit only when the stored text is the same
 * (a template changed by any means is parsed again). Bounded, least recently used first out: MAX_ENTRIES entries and
 * MAX_WEIGHT of text and tokens together (a token counted as TOKEN_WEIGHT characters).
 */
import { parseTemplate } from './placeholders';
import type { ParseResult } from './placeholders';

const MAX_ENTRIES = 64;
const MAX_WEIGHT = 8 * 1024 * 1024;
const TOKEN_WEIGHT = 64;

interface Entry {
  readonly text: string;
  readonly result: ParseResult;
  readonly weight: number;
}

const entries = new Map<string, Entry>();
let weight = 0;

function evict(): void {
  for (const [key, entry] of entries) {
    if (entries.size <= MAX_ENTRIES && weight <= MAX_WEIGHT) return;
    entries.delete(key);
    weight -= entry.weight;
  }
}

/** The parse of a stored template's field (parseTemplate), from the cache when its text is unchanged. */
export function parseStoredTemplate(recordId: string, field: string, text: string): ParseResult {
  const key = `${recordId}/${field}`;
  const hit = entries.get(key);
  if (hit && hit.text === text) {
    entries.delete(key);
    entries.set(key, hit);
    return hit.result;
  }
  if (hit) {
    entries.delete(key);
    weight -= hit.weight;
  }
  const result = parseTemplate(field, text);
  const entry = { text, result, weight: text.length + (result.ok ? result.template.tokens.length * TOKEN_WEIGHT : 0) };
  if (entry.weight <= MAX_WEIGHT) {
    entries.set(key, entry);
    weight += entry.weight;
    evict();
  }
  return result;
}
