/** Events: the change feed (and, with subscriptions, webhook deliveries) over the outbox every write fills. */
import { feedRoutes } from './feed-routes';
import { eventRetentionJob } from './retention';

export const eventsService = { name: 'events', routes: feedRoutes, jobs: [eventRetentionJob] };
