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
CREATE INDEX `change_events_occurred_idx` ON `change_events` (`occurred_on`,`tenant_key`,`org_key`);