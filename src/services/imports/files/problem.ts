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

/**
 * The stored file could not be read (storage failed mid-read): not a problem of the file. The step fails and runs again
 * (its import resumes where the ledger says), where a parser's error ends the import Fatal.
 */
export class SourceError extends Error {
  constructor(cause: unknown) {
    super(`The stored file could not be read: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'SourceError';
  }
}

/** A parser's own error as a FileProblem (a FileProblem, or a SourceError of the storage, stays as it is). */
export function toFileProblem(error: unknown, format: string): FileProblem | SourceError {
  if (error instanceof FileProblem || error instanceof SourceError) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return new FileProblem('importMalformed', { format, detail: detail.slice(0, 300) });
}
