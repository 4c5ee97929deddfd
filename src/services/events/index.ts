/** Events: the change feed and webhook subscriptions over the outbox every write fills, delivered through a queue. */
import { feedRoutes } from './feed-routes';
import { deliverySweepJob, watchDeliveries } from './kick';
import { watchLiveChanges } from './live-watch';
import { eventRetentionJob } from './retention';
import { streamRoutes } from './stream-routes';
import { subscriptionRoutes } from './subscription-routes';

export const eventsService = {
  name: 'events',
  routes: [...feedRoutes, ...streamRoutes, ...subscriptionRoutes],
  jobs: [eventRetentionJob, deliverySweepJob],
  writeWatchers: [watchDeliveries, watchLiveChanges],
};
