/** Webhook deliveries on Cloudflare: the `DELIVERY_QUEUE` producer, and the Worker's `queue` handler's work. */
import type { DeliveryJob, DeliveryMessage, DeliveryOutcome, DeliveryQueue, Platform } from '../platform';

/** The webhook delivery queue (`DELIVERY_QUEUE`, consumed by this Worker's `queue` handler). */
export function buildDeliveryQueue(env: Env): DeliveryQueue {
  return {
    send: async (message, options) => {
      await env.DELIVERY_QUEUE.send(message, options?.delaySeconds ? { delaySeconds: options.delaySeconds } : {});
    },
  };
}

/**
 * The `queue` handler's work: each message (a subscription's delivery job) runs through `consume`, in parallel;
 * it is acknowledged, retried after the delay `consume` answers, or (when `consume` throws) retried in 60 seconds.
 */
export async function consumeDeliveryBatch(
  batch: MessageBatch<DeliveryMessage>,
  platform: Platform,
  consume: (platform: Platform, job: DeliveryJob) => Promise<DeliveryOutcome>,
): Promise<void> {
  await Promise.all(
    batch.messages.map(async (message) => {
      try {
        const outcome = await consume(platform, { id: message.id, body: message.body });
        if ('ack' in outcome) message.ack();
        else message.retry({ delaySeconds: outcome.retryAfterSeconds });
      } catch (error) {
        console.error(JSON.stringify({ level: 'error', message: 'delivery job failed', job: message.body, error: String(error) }));
        message.retry({ delaySeconds: 60 });
      }
    }),
  );
}
