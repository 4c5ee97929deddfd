/** valibot issues -> the API's field errors (every bad field named by its path). */
import * as v from 'valibot';
import type { FieldError } from '../errors/api-error';

export function issuesToErrors(issues: readonly v.BaseIssue<unknown>[], prefix = ''): FieldError[] {
  return issues.map((issue) => {
    const path = v.getDotPath(issue);
    const full = [prefix, path].filter((part) => part !== null && part !== '').join('.');
    return { path: full, message: issue.message };
  });
}

/**
 * A pipe step that parses its input: the parsed value, or an issue with `message` when `parse` answers undefined
 * (the steps after it do not run, and the output type is the parsed one).
 */
export function parseOrIssue<TInput, TOutput>(parse: (input: TInput) => TOutput | undefined, message: string) {
  return v.rawTransform<TInput, TOutput>(({ dataset, addIssue, NEVER }) => {
    const output = parse(dataset.value);
    if (output === undefined) {
      addIssue({ message });
      return NEVER;
    }
    return output;
  });
}
