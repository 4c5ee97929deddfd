/** POSTs to a receiver (the validation handshake and deliveries): 10 seconds at most, redirects not followed. */

export const RECEIVER_TIMEOUT_MS = 10_000;

export type ReceiverAnswer = { readonly status: number; readonly text: string } | { readonly error: string };

export async function postToReceiver(url: string, body: string, headers: Readonly<Record<string, string>>): Promise<ReceiverAnswer> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), RECEIVER_TIMEOUT_MS);
  try {
    const response = await fetch(url, { method: 'POST', body, headers, redirect: 'manual', signal: controller.signal });
    // At most 4 KB of the answer is read (the handshake's token, an error's first words).
    const text = (await response.text()).slice(0, 4096);
    return { status: response.status, text };
  } catch (error) {
    return {
      error: controller.signal.aborted ? 'timeout after 10 s' : `network error: ${error instanceof Error ? error.message : String(error)}`,
    };
  } finally {
    clearTimeout(timer);
  }
}
