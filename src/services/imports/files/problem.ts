/** What is wrong with an import file as a whole (not one row): a 400 at upload, the `error` of a Fatal import later. */
import { message } from '../../../messages/catalogue';
import type { Message, MessageKey, MessageParams } from '../../../messages/catalogue';

export class FileProblem extends Error {
  readonly problem: Message;
  constructor(key: MessageKey, params: MessageParams = {}) {
    super(key);
    this.name = 'FileProblem';
    this.problem = message(key, params);
  }
}

/** A parser's own error as a FileProblem (a FileProblem stays as it is). */
export function toFileProblem(error: unknown, format: string): FileProblem {
  if (error instanceof FileProblem) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return new FileProblem('importMalformed', { format, detail: detail.slice(0, 300) });
}
