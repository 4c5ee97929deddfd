CREATE TABLE `change_event_retention` (
	`tenant_key` text NOT NULL,
	`org_key` text NOT NULL,
	`pruned_seq` integer NOT NULL,
	`pruned_on` text NOT NULL,
	PRIMARY KEY(`tenant_key`, `org_key`)
);
--> statement-breakpoint
CREATE TABLE `change_events` (
	`tenant_key` text NOT NULL,
	`org_key` text NOT NULL,
	`seq` integer NOT NULL,
	`id` text NOT NULL,
	`resource` text NOT NULL,
	`change_type` text NOT NULL,
	`record_id` text NOT NULL,
	`record_key` text NOT NULL,
	`version` integer NOT NULL,
	`occurred_on` text NOT NULL,
	`actor` text NOT NULL,
	`changes` text,
	PRIMARY KEY(`tenant_key`, `org_key`, `seq`)
);
--> statement-breakpoint
CREATE INDEX `change_events_occurred_idx` ON `change_events` (`occurred_on`,`tenant_key`,`org_key`);--> statement-breakpoint
CREATE TABLE `event_deliveries` (
	`tenant_key` text NOT NULL,
	`org_key` text NOT NULL,
	`subscription_id` text NOT NULL,
	`id` text NOT NULL,
	`status` text NOT NULL,
	`first_seq` integer NOT NULL,
	`last_seq` integer NOT NULL,
	`event_ids` text NOT NULL,
	`attempts` integer NOT NULL,
	`last_status` integer,
	`last_error` text,
	`first_attempt_on` text NOT NULL,
	`completed_on` text NOT NULL,
	PRIMARY KEY(`tenant_key`, `org_key`, `subscription_id`, `first_seq`),
	FOREIGN KEY (`subscription_id`) REFERENCES `event_subscriptions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `event_deliveries_status_idx` ON `event_deliveries` (`tenant_key`,`org_key`,`subscription_id`,`status`,`first_seq`);--> statement-breakpoint
CREATE TABLE `event_subscriptions` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_key` text NOT NULL,
	`org_key` text NOT NULL,
	`resource` text NOT NULL,
	`notification_url` text NOT NULL,
	`client_state` text,
	`secret` text NOT NULL,
	`expiration_date_time` text NOT NULL,
	`created_on` text NOT NULL,
	`created_by` text NOT NULL,
	`cursor_seq` integer NOT NULL,
	`lease_token` text,
	`lease_until` text,
	`failing_since` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`pending_last_seq` integer
);
--> statement-breakpoint
CREATE INDEX `event_subscriptions_scope_idx` ON `event_subscriptions` (`tenant_key`,`org_key`,`expiration_date_time`);