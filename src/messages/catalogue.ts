/**
 * The message catalogue: every message a person reads in an error (field messages, validation summaries, problem
 * titles) is a key with parameters here, written in each language of `LANGUAGES`. Code builds `Message`s; the answer
 * is written in the request's language (`Accept-Language`) only when the problem is rendered.
 */
import { LANGUAGES } from './language';
import type { Language } from './language';
import { BATCH_TEXTS } from './texts-batch';
import { EVENT_TEXTS } from './texts-events';
import { IMPORT_TEXTS } from './texts-imports';
import { PROBLEM_TEXTS } from './texts-problems';
import { RECORD_TEXTS } from './texts-records';
import { REQUEST_TEXTS } from './texts-requests';
import { VALUE_TEXTS } from './texts-values';

const TEXTS = {
  ...VALUE_TEXTS,
  ...RECORD_TEXTS,
  ...REQUEST_TEXTS,
  ...EVENT_TEXTS,
  ...BATCH_TEXTS,
  ...IMPORT_TEXTS,
  ...PROBLEM_TEXTS,
} satisfies Record<string, readonly [string, string, string]>;

export type MessageKey = keyof typeof TEXTS;
export type MessageParams = Readonly<Record<string, string | number>>;

/** A message of the catalogue with its parameters, not yet in a language. */
export interface Message {
  readonly key: MessageKey;
  readonly params: MessageParams;
}

export function message(key: MessageKey, params: MessageParams = {}): Message {
  return { key, params };
}

/** The message in `language`: its template with every `{name}` replaced by the parameter. */
export function formatMessage(text: Message, language: Language): string {
  const template = TEXTS[text.key][LANGUAGES.indexOf(language)] ?? TEXTS[text.key][0];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in text.params ? String(text.params[name]) : whole));
}

const TOKEN_MARK = '\u0000msg:';

/**
 * A valibot issue message that carries a catalogue message (valibot messages are strings): `readIssueMessage` turns it
 * back into the `Message` when the issues become field errors (src/validation/issues.ts).
 */
export function issueMessage(key: MessageKey, params: MessageParams = {}): string {
  return `${TOKEN_MARK}${JSON.stringify({ key, params })}`;
}

/** The catalogue message an issue message carries; undefined for any other text. */
export function readIssueMessage(text: string): Message | undefined {
  if (!text.startsWith(TOKEN_MARK)) return undefined;
  const parsed = JSON.parse(text.slice(TOKEN_MARK.length)) as { key: string; params: MessageParams };
  return parsed.key in TEXTS ? message(parsed.key as MessageKey, parsed.params) : undefined;
}
