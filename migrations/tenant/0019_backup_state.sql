CREATE TABLE `tenant_backup_state` (
	`tenant_key` text NOT NULL,
	`org_key` text NOT NULL,
	`snapshot_id` text,
	`snapshot_on` text,
	`snapshot_seq` integer,
	`started_on` text,
	`expires_on` text,
	`retained_on` text,
	PRIMARY KEY(`tenant_key`, `org_key`)
);
