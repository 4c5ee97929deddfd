CREATE TABLE `tenant_history` (
	`tenant_key` text NOT NULL,
	`org_key` text NOT NULL,
	`seq` integer NOT NULL,
	`recorded_on` text NOT NULL,
	`table_name` text NOT NULL,
	`operation` text NOT NULL,
	`row_key` text NOT NULL,
	`row_image` text,
	PRIMARY KEY(`tenant_key`, `org_key`, `seq`)
);
--> statement-breakpoint
CREATE INDEX `tenant_history_row_idx` ON `tenant_history` (`tenant_key`,`org_key`,`table_name`,`row_key`,`seq`);--> statement-breakpoint
CREATE INDEX `tenant_history_table_idx` ON `tenant_history` (`tenant_key`,`org_key`,`table_name`,`seq`);--> statement-breakpoint
CREATE INDEX `tenant_history_recorded_idx` ON `tenant_history` (`tenant_key`,`org_key`,`recorded_on`);--> statement-breakpoint
CREATE TABLE `tenant_history_pruned` (
	`tenant_key` text NOT NULL,
	`org_key` text NOT NULL,
	`pruned_seq` integer NOT NULL,
	`pruned_on` text NOT NULL,
	PRIMARY KEY(`tenant_key`, `org_key`)
);
