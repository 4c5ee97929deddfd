CREATE TABLE `database_loads` (
	`database` text PRIMARY KEY NOT NULL,
	`placements` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `tenant_placements` (
	`tenant_key` text NOT NULL,
	`org_key` text NOT NULL,
	`database` text NOT NULL,
	`epoch` integer DEFAULT 1 NOT NULL,
	`placed_on` text NOT NULL,
	`moved_on` text,
	`move_target` text,
	`move_started_on` text,
	PRIMARY KEY(`tenant_key`, `org_key`)
);
--> statement-breakpoint
CREATE INDEX `tenant_placements_database_idx` ON `tenant_placements` (`database`,`tenant_key`,`org_key`);