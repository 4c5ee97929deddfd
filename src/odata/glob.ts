/**
 * The GLOB patterns of OData's text functions (`contains`, `startswith`, `endswith`): escaping, D1's limit on patterns,
 * and what the trigram index can look up. Pure.
 */
import { D1_MAX_PATTERN_BYTES } from '../db/client';
import type { BoolFunction } from './types';

/** GLOB is case-sensitive like OData; its wildcards in the searched text are escaped as character classes. */
export function escapeGlob(text: string): string {
  return text.replace(/[*?[]/g, (char) => `[${char}]`);
}

/** The GLOB pattern of a `contains`, `startswith` or `endswith` of `text`. */
export function globPattern(name: BoolFunction, text: string): string {
  const escaped = escapeGlob(text);
  if (name === 'contains') return `*${escaped}*`;
  return name === 'startswith' ? `${escaped}*` : `*${escaped}`;
}

const encoder = new TextEncoder();

/** Whether the pattern is within D1's limit on LIKE and GLOB patterns (50 bytes). */
export function fitsPatternLimit(pattern: string): boolean {
  return pattern.length * 3 <= D1_MAX_PATTERN_BYTES || encoder.encode(pattern).length <= D1_MAX_PATTERN_BYTES;
}

/**
 * The longest part of `text` whose pattern fits D1's limit: its start (`contains`, `startswith`) or its end
 * (`endswith`), whole characters. Every text the term matches also matches that part's pattern.
 */
export function fittingPart(name: BoolFunction, text: string): string {
  const characters = [...text];
  if (name === 'endswith') characters.reverse();
  let budget = D1_MAX_PATTERN_BYTES - (name === 'contains' ? 2 : 1);
  let kept = 0;
  for (const character of characters) {
    budget -= escapeGlob(character) === character ? encoder.encode(character).length : 3;
    if (budget < 0) break;
    kept += 1;
  }
  const part = characters.slice(0, kept);
  return (name === 'endswith' ? part.reverse() : part).join('');
}

/**
 * Whether FTS5's trigram index can find `text`: it needs a run of 3 or more characters without GLOB wildcards or
 * classes (escaped ones split runs too).
 */
export function hasTrigram(text: string): boolean {
  return text.split(/[*?[]/).some((run) => [...run].length >= 3);
}
