/** valibot issues -> the API's field errors (every bad field named by its path, with a catalogue message). */
import * as v from 'valibot';
import type { FieldError } from '../errors/api-error';
import { issueMessage, message, readIssueMessage } from '../messages/catalogue';
import type { Message, MessageKey, MessageParams } from '../messages/catalogue';

/** The property an issue is about: the last key of its path (the body itself: `body`). */
function fieldOf(issue: v.BaseIssue<unknown>, prefix: string): string {
  const last = issue.path?.[issue.path.length - 1]?.key;
  return typeof last === 'string' ? last : typeof last === 'number' ? `${prefix}[${last}]` : prefix || 'body';
}

/**
 * The message of an issue: the catalogue message its schema carries (`issueMessage`), else one from its kind: a
 * missing property is required, a property a strict object does not declare is unknown, anything else is not valid.
 */
function toMessage(issue: v.BaseIssue<unknown>, prefix: string): Message {
  const carried = readIssueMessage(issue.message);
  if (carried) return carried;
  const field = fieldOf(issue, prefix);
  const objectType = issue.kind === 'schema' && /object$/.test(issue.type);
  if (objectType && issue.input === undefined) return message('required', { field });
  if (objectType && issue.expected === 'never') return message('unknownProperty', { field });
  return message('notValid', { field });
}

export function issuesToErrors(issues: readonly v.BaseIssue<unknown>[], prefix = ''): FieldError[] {
  return issues.map((issue) => {
    const path = v.getDotPath(issue);
    const full = [prefix, path].filter((part) => part !== null && part !== '').join('.');
    return { path: full, message: toMessage(issue, prefix) };
  });
}

/**
 * A pipe step that parses its input: the parsed value, or an issue with the catalogue message `key` when `parse` answers
 * undefined (the steps after it do not run, and the output type is the parsed one).
 */
export function parseOrIssue<TInput, TOutput>(parse: (input: TInput) => TOutput | undefined, key: MessageKey, params: MessageParams) {
  const text = issueMessage(key, params);
  return v.rawTransform<TInput, TOutput>(({ dataset, addIssue, NEVER }) => {
    const output = parse(dataset.value);
    if (output === undefined) {
      addIssue({ message: text });
      return NEVER;
    }
    return output;
  });
}
