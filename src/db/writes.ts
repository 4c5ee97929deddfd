/**
 * What a write of tenant data is made of: drizzle statements, run by the tenant unit of work
 * (src/tenant/unit-of-work.ts), the one write path: its commit runs a batch's statements as one D1 batch of kind
 * `write` (one transaction), with what every write needs (the audit stamp, the outbox event) added in one place.
 */
import type { BatchItem } from 'drizzle-orm/batch';

/** A statement of a write batch (insert, update, delete; a read that must see the batch's own writes). */
export type WriteStatement = BatchItem<'sqlite'>;
