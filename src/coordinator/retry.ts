/** The one retry policy of coordinator calls: a few attempts, retrying only the errors the caller says may pass. */

/** How often a coordinator call is tried at most. */
const COORDINATOR_ATTEMPTS = 3;

/**
 * True for the errors a Durable Object stub marks `retryable` (the object was reset or the connection lost) and not
 * `overloaded` (retrying would only add load).
 */
export function isRetryableCoordinatorError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  return 'retryable' in error && error.retryable === true && !('overloaded' in error && error.overloaded === true);
}

/** Runs `call` up to COORDINATOR_ATTEMPTS times while it fails with an error `retry` accepts; rethrows the last error. */
export async function callWithRetries<T>(call: () => Promise<T>, retry: (error: unknown) => boolean): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= COORDINATOR_ATTEMPTS || !retry(error)) throw error;
    }
  }
}
