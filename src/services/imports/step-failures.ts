/**
 * Failures that end a file import (Fatal, with `error` saying why) instead of failing its step again: a chunk D1
 * refuses as too big (retrying cannot help), and a step that failed every retry of its runtime (so the import frees
 * its slot rather than staying Processing).
 */
import { formatMessage, message } from '../../messages/catalogue';
import { DEFAULT_LANGUAGE } from '../../messages/language';
import { STEP_RETRIES } from '../../runtime/platform';

function describeError(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 300);
}

/** D1 (SQLite) refusing a value or statement as too big: `SQLITE_TOOBIG`, "string or blob too big". */
export function isTooBig(error: unknown): boolean {
  const text = error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : String(error);
  return /SQLITE_TOOBIG|too big/i.test(text);
}

export function describeTooBig(error: unknown): string {
  return formatMessage(message('importChunkTooLarge', { detail: describeError(error) }), DEFAULT_LANGUAGE);
}

/** The Fatal `error` of an import whose step failed on every attempt. */
export function describeStepFailure(error: unknown): string {
  return formatMessage(message('importStepFailed', { attempts: STEP_RETRIES + 1, detail: describeError(error) }), DEFAULT_LANGUAGE);
}
